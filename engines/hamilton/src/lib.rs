//! puz-hamilton: Hamilton paths and cycles (and Devil's algorithms) on the Cayley graphs of
//! permutation puzzles.
//!
//! - [`check()`]: streams a nested word and says whether it is a Hamilton cycle, a Hamilton
//!   path or neither, where it first repeats (in the user's own nested definitions), and
//!   for Devil's algorithms when every position has been seen.
//! - [`compile`]: a nested word compiled for streaming from any letter index (never expanded).
//! - [`coords`]: the exact coordinate representation the checker and the search walk on, and
//!   [`coords::CoordRanker`], a [`puz_core::Ranker`] for groups that fit in memory.
//! - [`words`]: surgery on nested words (cut, rotate, replace a letter, substitute letters).
//! - [`gray`], [`plain`], [`product`], [`coset`]: Jaap Scherphuis's constructions.
//! - [`chain`]: Hamilton cycles along a chain of subgroups, as shared nested words.
//! - [`search`]: `hamilton(G)`, a Hamilton cycle of a group that fits in memory.
//! - [`testkit`]: puzzles from the seeds and an enumerating ranker, for tests and benches.

pub mod chain;
pub mod check;
pub mod compile;
pub mod coords;
pub mod coset;
pub mod gray;
pub mod plain;
pub mod product;
pub mod search;
pub mod testkit;
pub mod words;

pub use check::{check, Checker, Kind, Leave, Mode, Repeat, Report};
pub use search::{hamilton, hamilton_stats, HamiltonError, Stats};
