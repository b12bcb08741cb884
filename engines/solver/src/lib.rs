//! puz-solver: turn metrics, God's-algorithm tables and optimal solving for any puzzle
//! defined by orbits.
//!
//! - [`metric`]: generator sets with costs (`htm`, `qtm`, `stm`, `atm`, explicit) and
//!   [`metric::length`] to count a move sequence in any metric.
//! - [`canon`]: canonical sequences (no `B A` after `A B` for commuting moves, no `A A`
//!   when `A2` is one letter), as a successor table per automaton state.
//! - [`model`]: the compact position model (one byte per location) and its exact 128-bit
//!   encoding, with whole-puzzle rotation normalisation.
//! - [`gods`]: breadth-first God's algorithm, dense (2 bits per position over a
//!   [`puz_core::Ranker`]) or sparse (sorted frontiers to a given depth).
//! - [`move_tables`]: positions as orbit coordinates and the letters as move tables, for
//!   the dense God's algorithm when they fit.
//! - [`pdb`]: pattern databases on subsets of an orbit's pieces, cached on disk.
//! - [`automorphism`]: permutations of the points that conjugate a set of moves onto
//!   itself (finds the reflections of a puzzle, which no move sequence makes).
//! - [`symmetry`]: the puzzle's symmetries in a metric (conjugate look-ups, one search
//!   task per class of first letters for symmetric positions).
//! - [`optimal`](mod@optimal): iterative deepening A* returning proved-optimal solutions.
//! - `prefetch`: asking the cache for a line ahead of its read.

pub mod automorphism;
pub mod bigbuf;
pub mod canon;
pub mod error;
pub mod gods;
pub mod metric;
mod metric_len;
pub mod model;
pub mod move_tables;
pub mod optimal;
pub mod pdb;
mod prefetch;
mod redundant;
mod sort;
mod split;
pub mod symmetry;

#[cfg(test)]
mod testsupport;

pub use canon::Canon;
pub use error::SolveError;
pub use gods::{distances, DistanceOptions, Distances};
pub use metric::{length, Metric};
pub use model::Model;
pub use optimal::{optimal, Optimal, OptimalOptions, Solution, Solver, TablePlan, Wanted};
