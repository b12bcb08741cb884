//! puz-testkit: what the engines' tests and benchmarks share, and nothing the library
//! needs. Engines list it under `[dev-dependencies]` only; it depends on puz-core alone, so
//! no engine's test build pulls in another engine.
//!
//! - [`cubies`]: puzzles built from 3-D geometry (2x2x2, 3x3x3 with slices and rotations,
//!   Pyraminx, Skewb): pieces are cubies with sticker normals, a move rotates a layer.
//! - [`cycles`]: puzzles written in cycle notation, as the source texts give them (Floppy
//!   Cube, Jaap's 6-piece puzzle, row(n), Rubik's Cheese, TopSpin, Lights Out, dials).
//! - [`facelets`]: facelet models compared with GAP (GAP's 3x3x3, the NxNxN cube, the
//!   Megaminx) and alphabets with every power of each move.
//! - [`notation`]: the one parser of move sequences used by the tests.
//! - [`rankers`]: rankers that are obviously right: enumeration, and GF(2) for Lights Out.

pub mod cubies;
pub mod cycles;
pub mod facelets;
pub mod notation;
pub mod rankers;

pub use notation::{alphabet, letter, mv, parse, seq};
pub use rankers::{EnumRanker, Gf2Ranker};
