//! Hamilton cycles built along a chain of subgroups `H_1 < H_2 < ... < G`, far beyond
//! what fits in memory (issue 16): a Hamilton cycle of the small level (from
//! [`crate::hamilton`]), then one level at a time a Hamilton cycle of `H_{k+1} = <H_k, d>`
//! as a nested word whose sub-words are shared, never expanded.
//!
//! - [`measure`]: lengths, products, letter searches and cuts of such words, memoised by
//!   node identity so a DAG with heavy sharing is never walked as a tree.
//! - [`balance`]: balanced nesting of long flat sequences.
//! - [`effect`]: Hamilton paths with a short word as effect (one exchange of two edges).
//! - [`posa`]: Hamilton paths with longer effects by rotations (`R'URU'R`).
//! - [`splice`]: a level where `d` commutes with a letter of `H_k` (coset tree of detours).
//! - [`gadgets`]: identities that join several cosets at once, and their search.
//! - [`joins`]: a level where `d` commutes with nothing below (gadgets joining several
//!   cosets at once: Norskog's `F` level); [`exact_cover`] places its last gadgets.
//! - [`keys`]: the set of cosets seen, by exact key.
//!
//! The group side comes in through [`CosetKey`] (exact coset keys), implemented with
//! puz-group's `CosetKeys` by the caller: this crate depends on puz-core only.

pub mod balance;
pub mod effect;
pub mod exact_cover;
pub mod gadgets;
pub mod joins;
pub mod keys;
pub mod measure;
pub mod posa;
pub mod splice;

#[cfg(test)]
mod tests;

use puz_core::{Alphabet, Control, Interrupt, Word};
use std::fmt;

pub use balance::balance;
pub use effect::exchange_path;
pub use measure::Measure;
pub use splice::{commuting_level, SpliceOptions, SpliceStats};

pub use crate::subgroup::CosetKey;

/// Why a level could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainError {
    Interrupt(Interrupt),
    /// The input does not fit the construction (orders, letters, commuting moves).
    Invalid(String),
    /// The splice indices tried reach only some of the cosets.
    NotReached {
        reached: u64,
        cosets: u64,
    },
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainError::Interrupt(i) => write!(f, "{i}"),
            ChainError::Invalid(s) => write!(f, "{s}"),
            ChainError::NotReached { reached, cosets } => {
                write!(f, "the detours reach {reached} of {cosets} cosets")
            }
        }
    }
}

impl std::error::Error for ChainError {}

impl From<Interrupt> for ChainError {
    fn from(i: Interrupt) -> Self {
        ChainError::Interrupt(i)
    }
}

/// A chain for the generators `gens` (letters, one per move) when none is given: a pair
/// that does not commute generates the bottom group (for the search), then each next
/// generator commutes with one before it, as the commuting splice needs; of the pairs,
/// the one that leads to the longest chain, earliest in `gens` on ties. The generators
/// that commute with none of the chain are returned apart (they need a level that joins
/// several cosets at once, such as Norskog's `F` level). For `U R D L F` on the 3x3x3:
/// `[U, R, D, L]` and `[F]`.
pub fn commuting_order(alpha: &Alphabet, gens: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let perm = |l: u32| &alpha.perms[l as usize];
    let commute = |a: u32, b: u32| perm(a).then(perm(b)) == perm(b).then(perm(a));
    let mut best: (Vec<u32>, Vec<u32>) = (gens.to_vec(), Vec::new());
    let mut best_len = 0;
    for (i, &a) in gens.iter().enumerate() {
        for &b in &gens[i + 1..] {
            if commute(a, b) {
                continue;
            }
            let mut chain = vec![a, b];
            let mut rest: Vec<u32> = gens.iter().copied().filter(|&x| x != a && x != b).collect();
            while let Some(k) = rest
                .iter()
                .position(|&x| chain.iter().any(|&y| commute(x, y)))
            {
                chain.push(rest.remove(k));
            }
            if chain.len() > best_len {
                best_len = chain.len();
                best = (chain, rest);
            }
        }
    }
    best
}

/// One step up the chain: the letter added and the group below it.
pub struct Level<'s> {
    /// The new letter `d` (its inverse letter is used too).
    pub letter: u32,
    /// The group below, `H_k`.
    pub below: &'s dyn CosetKey,
    /// `|H_{k+1}|`.
    pub order: u128,
    pub options: SpliceOptions,
}

/// A Hamilton cycle of the top of the chain from a Hamilton cycle `base` of its bottom,
/// level by level (each level's `d` must commute with a letter below it), with the
/// statistics of each level. Each result is checked by its memoised length (the group's
/// order) and product (the identity).
pub fn along_chain(
    alpha: &Alphabet,
    base: &Word,
    levels: &[Level],
    ctl: &Control,
) -> Result<(Word, Vec<SpliceStats>), ChainError> {
    let mut word = balance(base, balance::FANOUT);
    let mut all = Vec::new();
    for l in levels {
        let (w, s) = commuting_level(alpha, &word, l.below, l.order, l.letter, &l.options, ctl)?;
        let n = alpha.perms[l.letter as usize].degree();
        let mut m = Measure::new(alpha, n);
        let len = m.len(&w);
        if len != l.order || !m.product(&w).is_identity() {
            return Err(ChainError::Invalid(format!(
                "internal: the level word has {len} letters for {} elements",
                l.order
            )));
        }
        word = w;
        all.push(s);
    }
    Ok((word, all))
}
