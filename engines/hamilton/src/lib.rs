//! puz-hamilton: Hamilton paths and cycles (and Devil's algorithms) on the Cayley graphs of
//! permutation puzzles.
//!
//! - [`certify()`]: proves a word Hamilton from its nested structure and a chain of
//!   subgroups, for groups far too large to walk (see [`certify`]).
//! - [`check()`]: streams a nested word and says whether it is a Hamilton cycle, a Hamilton
//!   path or neither, where it first repeats (in the user's own nested definitions), and
//!   for Devil's algorithms when every position has been seen.
//! - [`compile`]: a nested word compiled for streaming from any letter index (never expanded).
//! - [`coords`]: the exact coordinate representation the checker and the search walk on, and
//!   [`coords::CoordRanker`], a [`puz_core::Ranker`] for groups that fit in memory.
//! - [`surgery`]: surgery on nested words (cut, rotate, replace a letter, substitute letters,
//!   fold a letter stream).
//! - [`gray`], [`plain`], [`product`], [`coset`]: Jaap Scherphuis's constructions.
//! - [`chain`]: Hamilton cycles along a chain of subgroups, as shared nested words.
//! - [`search`]: `hamilton(G)`, a Hamilton cycle of a group that fits in memory.
//! - [`subgroup`]: the group side the caller provides (orders, exact coset keys).

pub mod certify;
pub mod chain;
pub mod check;
pub mod compile;
pub mod coords;
pub mod coset;
pub mod gray;
pub mod plain;
pub mod product;
pub mod search;
pub mod subgroup;
pub mod surgery;

pub use certify::{
    certify, CertifyError, Chain as CosetChain, Failure, Options as CertifyOptions, Subgroup,
    Verdict,
};
pub use check::{check, Checker, Kind, Leave, Mode, Repeat, Report};
pub use search::{hamilton, hamilton_stats, HamiltonError, Stats};
/// The old name of [`surgery`] (kept for callers).
pub use surgery as words;
