//! The lower bound of a position: the largest pattern-database value over its variants
//! (the position, its inverse and their conjugates by symmetries), read in rounds of
//! look-ups whose misses overlap. [`Solver::lower_bound`] bounds one position; the search
//! runs the same steps ([`Solver::plan`], [`Solver::stage`], [`Solver::fire`],
//! [`Solver::collect`]) itself over a node's children, sweep by sweep, so that the
//! siblings' misses overlap too.

use super::Solver;
use crate::pdb::Located;
use crate::prefetch::prefetch;

/// Buffers of one search thread for [`Solver::lower_bound`].
pub(super) struct Scratch {
    b: Vec<u8>,
    pub(super) probe: Probe,
    pub(super) located: Located,
}

/// One bound in progress (see [`Solver::plan`]).
#[derive(Default)]
pub(super) struct Probe {
    pub(super) inv: Vec<u8>,
    /// Every variant's state, one after another.
    pub(super) vars: Vec<u8>,
    /// Table indices, variant after variant.
    pub(super) idx: Vec<u64>,
    /// Indices known before staging (followed by the search, see
    /// [`Incremental`](super::incremental::Incremental)), [`UNKNOWN`] for the others.
    pub(super) known: Vec<u64>,
    /// The look-ups read, as bits (their values in `ub` are exact).
    pub(super) read: u64,
    /// The round of each look-up (`u8::MAX`: not made).
    pub(super) round: Vec<u8>,
    /// Which variants' states are in `vars`.
    pub(super) staged: Vec<bool>,
    /// Whether `inv` holds the inverse (computed when a variant first needs it).
    pub(super) inverted: bool,
    pub(super) limit: u32,
    /// The largest value read so far.
    pub(super) h: u32,
    /// Per round, the variants with a look-up in it (bit `v`; variants from 64 on are
    /// always visited), so the rounds skip the others without a call.
    pub(super) at: [u64; ROUNDS as usize],
}

impl Probe {
    /// The variants that may have a look-up in round `r`, of `nv`.
    #[inline]
    pub(super) fn variants_at(&self, r: u8, nv: usize) -> Variants {
        Variants {
            bits: self.at[r as usize],
            next: 64,
            nv,
        }
    }
}

impl Probe {
    /// Whether look-up `j` (`v * tables + k`) is made in some round.
    #[inline]
    pub(super) fn planned(&self, j: usize) -> bool {
        self.round[j] < ROUNDS
    }
}

/// The variants of a round (see [`Probe::variants_at`]): the set bits, then every variant
/// from 64 on.
pub(super) struct Variants {
    bits: u64,
    next: usize,
    nv: usize,
}

impl Iterator for Variants {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.bits != 0 {
            let v = self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            return Some(v);
        }
        (self.next < self.nv).then(|| {
            self.next += 1;
            self.next - 1
        })
    }
}

/// An index not known before staging.
pub(super) const UNKNOWN: u64 = u64::MAX;

/// The rounds of look-ups of a bound (see [`Solver::plan`]).
pub(super) const ROUNDS: u8 = 4;

/// What a node's look-ups say about its children. A table's value on the position or on a
/// conjugate of it is a distance in the table's abstract puzzle, so one letter changes it
/// by at most the letter's cost: a child's value is at most the parent's plus the cost of
/// the letter back. A table whose bound stays within the child's limit cannot cut the
/// child and is not looked up. (Values on the inverse move by the letter from the other
/// side and follow no such rule; they are always looked up.)
#[derive(Clone, Copy)]
pub(super) struct Parent<'a> {
    /// The parent's upper bounds, (variant, table) after (variant, table).
    pub(super) ub: &'a [u8],
    /// The cost of the inverse of the letter from the parent to the child.
    pub(super) back: u32,
    /// The look-ups the letter leaves unchanged whose parent bound is within the child's
    /// limit (bits `v * tables + k`, see `fixed.rs`): the child's bound is the parent's.
    pub(super) keep: u64,
    /// The exact look-ups whose child entry is the one beside the parent's (`fixed.rs`),
    /// within the child's limit: the child's value is the parent's other one.
    pub(super) flip: u64,
}

/// The values a node knows of its look-ups, `ub`: per (variant, table) `j`, an upper
/// bound of the value at `j` (exact when read), and at `lookups + j` the value of the
/// entry beside it (the other nibble of the byte, read with it: meaningful only when `j`
/// is exact).
#[inline]
pub(super) fn other(ub: &[u8], j: usize) -> u8 {
    ub[ub.len() / 2 + j]
}

/// Whether bit `j` of a mask of look-ups is set (masks hold the first 64).
#[inline]
pub(super) fn has(mask: u64, j: usize) -> bool {
    j < 64 && mask >> j & 1 == 1
}

/// A look-up already computed (and prefetched): the (variant, table) hint and the index.
pub(super) type First = Option<((usize, usize), u64)>;

impl Solver {
    /// The variants of `t` whose distance equals `t`'s: `t` itself, its inverse (when every
    /// letter costs what its inverse costs), and their conjugates. Writes variant `v` of `t`
    /// (whose inverse is `inv`) to `out`.
    #[inline]
    pub(super) fn variant(&self, v: usize, t: &[u8], inv: &[u8], out: &mut [u8]) {
        let (conj, inverse) = self.variants[v];
        let src = if inverse { inv } else { t };
        match conj {
            None => out.copy_from_slice(src),
            Some(k) => self.conjugators[k].apply(src, out),
        }
    }

    /// The parent's bound on table `k`'s value on variant `v` of the child, when it says
    /// that the look-up cannot go above `limit` (see [`Parent`]).
    #[inline]
    pub(super) fn bounded(
        &self,
        parent: Option<Parent>,
        v: usize,
        k: usize,
        limit: u32,
    ) -> Option<u8> {
        let p = parent?;
        let j = v * self.heuristic.pdbs.len() + k;
        if has(p.keep, j) {
            return Some(p.ub[j]);
        }
        if has(p.flip, j) {
            return Some(other(p.ub, j));
        }
        let b = p.ub[j] as u32 + p.back;
        (self.consistent[v] && b <= limit).then_some(b as u8)
    }

    /// The table index of the hinted look-up, to prefetch before [`Solver::lower_bound`].
    #[inline]
    pub(super) fn hint_index(
        &self,
        t: &[u8],
        hint: (usize, usize),
        sc: &mut Scratch,
    ) -> Option<u64> {
        let (hv, ht) = hint;
        let pdb = self.heuristic.pdbs.get(ht)?;
        if hv == 0 {
            return Some(pdb.shape.index(t));
        }
        if self.variants[hv].1 {
            self.model.inverse(t, &mut sc.probe.inv);
        }
        self.variant(hv, t, &sc.probe.inv, &mut sc.b);
        Some(pdb.shape.index(&sc.b))
    }

    /// Lower bound of the distance of `t` (at least 1; `t` is not solved): the largest table
    /// value over every variant of `t`. The hinted look-up (the one that last went above a
    /// limit) is tried first; then the rounds of [`Solver::plan`], variant by variant,
    /// each variant's look-ups prefetched together. Above `limit`, the hint is updated.
    /// When the bound stays within `limit`, `ub` receives an upper bound of every
    /// (variant, table) value.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lower_bound(
        &self,
        t: &[u8],
        limit: u32,
        first: First,
        sc: &mut Scratch,
        hint: &mut (usize, usize),
        parent: Option<Parent>,
        ub: &mut [u8],
    ) -> u32 {
        let np = self.heuristic.pdbs.len();
        let first = match first {
            Some(f) => Some(f),
            None if hint.1 < np && self.bounded(parent, hint.0, hint.1, limit).is_none() => {
                self.hint_index(t, *hint, sc).map(|i| (*hint, i))
            }
            None => None,
        };
        if let Some(v) = self.first_cut(first, limit) {
            return v;
        }
        // The rounds variant by variant: a variant's look-ups are prefetched together, so
        // their misses overlap, then read; the first value above the limit ends it.
        let mut pr = std::mem::take(&mut sc.probe);
        self.plan(limit, parent, ub, &mut pr, first);
        let mut h = None;
        'rounds: for r in 0..ROUNDS {
            for v in pr.variants_at(r, self.variants.len()) {
                self.stage(t, v, r, &mut pr, &mut sc.located);
                self.fire(v, r, &pr);
                if self.collect(v, r, &mut pr, ub, hint) {
                    h = Some(pr.h);
                    break 'rounds;
                }
            }
        }
        let h = h.unwrap_or(pr.h.max(1));
        sc.probe = pr;
        h
    }

    /// Computes the indices of the look-ups of round `r` of variant `v` of `t`.
    ///
    /// Every index is computed first and the prefetches are issued together after
    /// ([`Solver::fire`]): a prefetch issued between index computations stalls until its
    /// miss is under way (measured by `bench lookups`, see benches/solver/README.md).
    #[inline]
    pub(super) fn stage(&self, t: &[u8], v: usize, r: u8, pr: &mut Probe, located: &mut Located) {
        let pdbs = &self.heuristic.pdbs;
        let np = pdbs.len();
        let n = self.model.n;
        let mine = &pr.round[v * np..(v + 1) * np];
        // The indices known already need no state.
        let mut unknown = 0;
        for (k, _) in mine.iter().enumerate().filter(|(_, &m)| m == r) {
            let j = v * np + k;
            if pr.known[j] == UNKNOWN {
                unknown += 1;
            } else {
                pr.idx[j] = pr.known[j];
            }
        }
        if unknown == 0 {
            return;
        }
        let state = &mut pr.vars[v * n..(v + 1) * n];
        if !pr.staged[v] {
            pr.staged[v] = true;
            if v == 0 {
                state.copy_from_slice(t);
            } else {
                if self.variants[v].1 && !pr.inverted {
                    pr.inverted = true;
                    self.model.inverse(t, &mut pr.inv);
                }
                self.variant(v, t, &pr.inv, state);
            }
        }
        let known = &pr.known[v * np..(v + 1) * np];
        let wanted = |k: usize| mine[k] == r && known[k] == UNKNOWN;
        // One look-up reads its orbit's cells directly; several share one pass locating
        // every piece.
        if unknown == 1 {
            let k = (0..np).position(wanted).unwrap_or(0);
            pr.idx[v * np + k] = pdbs[k].shape.index(state);
            return;
        }
        self.locator.locate(state, located);
        for (k, p) in pdbs.iter().enumerate() {
            if wanted(k) {
                pr.idx[v * np + k] = p.shape.index_located(state, located);
            }
        }
    }

    /// Prefetches the look-ups of round `r` of variant `v` (indices from [`Solver::stage`]).
    #[inline]
    pub(super) fn fire(&self, v: usize, r: u8, pr: &Probe) {
        let np = self.heuristic.pdbs.len();
        for (k, p) in self.heuristic.pdbs.iter().enumerate() {
            if pr.round[v * np + k] == r {
                prefetch(&p.table, p.byte(pr.idx[v * np + k]));
            }
        }
    }

    /// Reads the look-ups of round `r` of variant `v` into `pr.h` and `ub`: true when the
    /// bound went above the limit (the hint is then that look-up).
    #[inline]
    pub(super) fn collect(
        &self,
        v: usize,
        r: u8,
        pr: &mut Probe,
        ub: &mut [u8],
        hint: &mut (usize, usize),
    ) -> bool {
        let np = self.heuristic.pdbs.len();
        let nl = self.variants.len() * np;
        for (k, p) in self.heuristic.pdbs.iter().enumerate() {
            let j = v * np + k;
            if pr.round[j] != r {
                continue;
            }
            let val = p.value(pr.idx[j]);
            ub[j] = val;
            ub[nl + j] = p.value(pr.idx[j] ^ 1);
            pr.read |= if j < 64 { 1 << j } else { 0 };
            if val as u32 > pr.h {
                pr.h = val as u32;
                if pr.h > pr.limit {
                    *hint = (v, k);
                    return true;
                }
            }
        }
        false
    }

    /// The value of a first look-up (see [`First`]) when it is above `limit`.
    #[inline]
    pub(super) fn first_cut(&self, first: First, limit: u32) -> Option<u32> {
        let ((_, table), i) = first?;
        let v = self.heuristic.pdbs[table].value(i) as u32;
        (v > limit).then_some(v)
    }

    /// A buffer for a node's values (see [`other`]).
    pub(super) fn values_buffer(&self) -> Vec<u8> {
        vec![0; 2 * self.variants.len() * self.heuristic.pdbs.len()]
    }

    pub(super) fn scratch(&self) -> Scratch {
        Scratch {
            b: vec![0; self.model.n],
            probe: Probe {
                inv: vec![0; self.model.n],
                ..Probe::default()
            },
            located: self.locator.buffer(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Probe;

    /// A round visits exactly the variants whose bit is set, in order, and every variant
    /// from 64 on (which have no bit).
    #[test]
    fn variants_of_a_round() {
        let pr = Probe {
            at: [0b1010_0001, 0, u64::MAX, 1 << 63],
            ..Probe::default()
        };
        let of = |r: u8, nv: usize| pr.variants_at(r, nv).collect::<Vec<_>>();
        assert_eq!(of(0, 8), vec![0, 5, 7]);
        assert_eq!(of(1, 6), Vec::<usize>::new());
        assert_eq!(of(1, 66), vec![64, 65]);
        assert_eq!(of(2, 64), (0..64).collect::<Vec<_>>());
        assert_eq!(of(3, 65), vec![63, 64]);
    }
}
