//! When a fill of pairs ([`super::pairs`]) turns its reached entries to code 0 (its
//! base), and whether it leaves out its last level: before that level a fixed sample of
//! the unreached entries says how many lie past it ([`super::sym_fill`] draws it), and
//! when they are few every unreached entry reads base + 2 instead. (When the base is
//! chosen, two levels earlier, a smaller sample foresees it by the same rule, so that a
//! progress someone reads counts those entries done from then on.)

use puz_core::hash::FoldHasher;
use std::hash::Hasher;

/// Classes drawn, and entries drawn in each, when a fill of pairs samples its
/// unreached entries before the last level (see `sym_fill.rs`).
pub(super) const SAMPLE_CLASSES: u64 = 4096;
pub(super) const SAMPLE_PER_CLASS: u64 = 16;

/// The last level is left out when at most one unreached entry in `PAST_SHARE` lies past
/// it, from a sample of at least `MIN_SAMPLE`: nxopt's table in atm (one in 430) loses
/// a few nodes in a thousand; in htm (one in 13) the search would take up to 1.9 times
/// the nodes.
const PAST_SHARE: u64 = 100;
const MIN_SAMPLE: u64 = 1000;

/// The `x`-th of a fixed, well-spread sequence of draws (the tables must come out the
/// same from one build to the next): SplitMix64's finaliser, as the project's hasher.
pub(super) fn draw(x: u64) -> u64 {
    let mut h = FoldHasher::default();
    h.write_u64(x);
    h.finish()
}

/// When a fill of pairs turns its reached entries to code 0 (see `pairs.rs`), and
/// whether it may leave out its last level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Base {
    /// Before the level whose entries, foreseen from the growth of the last one, would
    /// bring the table past a quarter; the last level left out when a sample finds few
    /// entries past it.
    Rule,
    /// The rule's base, the last level left out at one entry past it in the share given
    /// (tests).
    #[cfg(test)]
    Leaving(u64),
    /// Before level `d` (tests).
    #[cfg(test)]
    At(u8),
}

impl Base {
    /// Whether the entries up to `d` become the base, before level `d` (`filled` entries,
    /// `frontier` at `d`, `last` at `d - 1`, of `size`).
    pub(super) fn now(self, d: u8, filled: u64, frontier: u64, last: u64, size: u64) -> bool {
        let rule = || {
            d >= 1
                && last > 0
                && 4 * (filled as u128 + frontier as u128 * frontier as u128 / last as u128)
                    > size as u128
        };
        match self {
            Base::Rule => rule(),
            #[cfg(test)]
            Base::Leaving(_) => rule(),
            #[cfg(test)]
            Base::At(b) => d == b,
        }
    }

    /// Whether the last level is left out, given a sample of the unreached entries:
    /// (how many were drawn, how many of them lie past it).
    pub(super) fn leaves_out_last(self, sample: impl FnOnce() -> (u64, u64)) -> bool {
        let share = match self {
            Base::Rule => PAST_SHARE,
            #[cfg(test)]
            Base::Leaving(share) => share,
            #[cfg(test)]
            Base::At(_) => return false,
        };
        let (drawn, past) = sample();
        drawn >= MIN_SAMPLE && past * share <= drawn
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_are_splitmix64() {
        // SplitMix64's first outputs from seed 0 (its state steps by the golden gamma).
        let gamma = 0x9e37_79b9_7f4a_7c15u64;
        assert_eq!(super::draw(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(super::draw(gamma), 0x6e78_9e6a_a1b9_65f4);
    }
}
