//! The test puzzles of puz-testkit as the solver's tests use them, and the 2x2x2 with its
//! enumerating ranker built once for every test that needs it.

use crate::metric::Metric;
use crate::model::{Action, Model};
use puz_core::{Alphabet, Perm, Puzzle, Word};
pub use puz_testkit::cubies::*;
pub use puz_testkit::{mv, seq, EnumRanker};

/// The 2x2x2 <U, R, F> and its enumerating ranker, built once for all tests.
pub fn cube2_ranked() -> &'static (Puzzle, EnumRanker) {
    static CELL: std::sync::OnceLock<(Puzzle, EnumRanker)> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let c2 = cube2();
        let gens: Vec<Perm> = c2.moves.iter().map(|m| m.perm.clone()).collect();
        let r = EnumRanker::new(&gens);
        (c2, r)
    })
}

/// A metric's letters as actions on the model.
pub fn actions_of(model: &Model, metric: &Metric) -> Vec<Action> {
    metric
        .alphabet
        .perms
        .iter()
        .map(|p| model.action(p).unwrap())
        .collect()
}

/// A word of `alphabet`'s letters written with spaces (`"U2 D' R"`).
pub fn word_in(alphabet: &Alphabet, s: &str) -> Word {
    Word::seq(
        s.split_whitespace()
            .map(|t| Word::Letter(alphabet.index(t).unwrap()))
            .collect(),
    )
}
