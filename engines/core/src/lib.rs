//! puz-core: the data every engine shares and nothing else.
//!
//! - [`control`]: cancellation, progress and memory checks for long computations.
//! - [`count`]: a number with its noun, singular for one.
//! - [`progress`]: what long computations report, and reports as plain lines.
//! - [`perm`]: permutations of points (`u16` images), composed left to right.
//! - [`puzzle`]: a puzzle as orbits of pieces with orientations, flattened to points.
//! - [`rank`]: the ranking contract (a bijection group -> `0..size`) engines share.
//! - [`word`]: nested move sequences that are streamed, never expanded.
//! - [`word_file`]: a word written as its definitions (one `let` per shared node).
//!
//! No module here knows the `puz` syntax: the interpreter builds these values.

pub mod control;
pub mod count;
pub mod hash;
pub mod perm;
pub mod progress;
pub mod puzzle;
pub mod rank;
pub mod word;
pub mod word_file;

pub use control::{Control, Interrupt};
pub use count::count;
pub use perm::Perm;
pub use puzzle::{MoveBuilder, NamedMove, Orbit, OrbitState, Puzzle};
pub use rank::Ranker;
pub use word::{power_name, Alphabet, Frame, Word};
