//! [`Pattern`]: the pieces of one orbit a table follows, and the index of a position in
//! its table (the followed pieces' arrangement, outer, and their orientations, inner).

use super::Located;
use crate::model::Model;

/// The pieces of one orbit a table follows.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub orbit: usize,
    pub pieces: Vec<u8>,
    /// Orbit size and twist.
    pub n: usize,
    pub twist: u8,
    /// True: the table also holds the orientation at every location of the orbit (whichever
    /// piece is there), not only the followed pieces' orientations.
    pub all_ori: bool,
    /// Orientation digits stored (`k` or `k - 1`; with `all_ori`, `n` or `n - 1`).
    pub ori_digits: usize,
    /// Entries in the table.
    pub size: u64,
    /// `ori[cell]`: the orientation in a cell.
    ori: Vec<u8>,
    start: usize,
    /// Place values of the arrangement digits and of the orientation digits (the index is
    /// `sum(digit * weight)`, the same number as Horner's rule over the digits).
    pub(super) perm_weight: Vec<u64>,
    pub(super) ori_weight: Vec<u64>,
    /// `twist^ori_digits`.
    pub(super) ori_span: u64,
    /// For [`Pattern::index`], in one pass over the cells without branches: `code[cell]`
    /// is the followed piece in the cell or `k` (none), and `per[i]` is, for piece `i`
    /// (`per[k]` all zero): its arrangement weight, the mask of the pieces before it,
    /// its own bit, and its orientation weight (0 unless stored by piece).
    code: Vec<u8>,
    per: Vec<[u64; 4]>,
    /// The orientation weight of each location (0 unless stored by location).
    loc_ori_weight: Vec<u64>,
}

fn arrangements(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

impl Pattern {
    pub fn new(model: &Model, orbit: usize, pieces: Vec<u8>) -> Pattern {
        Pattern::with_orientations(model, orbit, pieces, false)
    }

    /// A pattern following `pieces`; with `all_ori` also the orientation at every location
    /// (the orbit must have at most 63 locations).
    pub fn with_orientations(
        model: &Model,
        orbit: usize,
        pieces: Vec<u8>,
        all_ori: bool,
    ) -> Pattern {
        let o = &model.orbits[orbit];
        let all_ori = all_ori && o.twist > 1 && o.size <= 63;
        let k = if all_ori { o.size } else { pieces.len() };
        let ori_digits = if o.twist == 1 {
            0
        } else if k == o.size && o.ori_sum_fixed {
            k - 1
        } else {
            k
        };
        let k = pieces.len();
        let size = arrangements(o.size, k) * (o.twist as u64).pow(ori_digits as u32);
        let t = o.twist as usize;
        let mut slot = vec![255u8; o.size * t];
        for (i, &p) in pieces.iter().enumerate() {
            for k in 0..t {
                slot[p as usize * t + k] = i as u8;
            }
        }
        let ori = (0..o.size * t).map(|c| (c % t) as u8).collect();
        let perm_weight: Vec<u64> = (0..k)
            .map(|i| (i + 1..k).map(|j| (o.size - j) as u64).product())
            .collect();
        let ori_weight: Vec<u64> = (0..ori_digits)
            .map(|i| (o.twist as u64).pow((ori_digits - 1 - i) as u32))
            .collect();
        let code: Vec<u8> = slot
            .iter()
            .map(|&i| if i == 255 { k as u8 } else { i })
            .collect();
        let mut per: Vec<[u64; 4]> = (0..k)
            .map(|i| {
                let w = if !all_ori && i < ori_digits {
                    ori_weight[i]
                } else {
                    0
                };
                [perm_weight[i], (1u64 << i) - 1, 1u64 << i, w]
            })
            .collect();
        per.push([0; 4]);
        let loc_ori_weight = (0..o.size)
            .map(|l| {
                if all_ori && l < ori_digits {
                    ori_weight[l]
                } else {
                    0
                }
            })
            .collect();
        Pattern {
            code,
            per,
            loc_ori_weight,
            ori_span: (o.twist as u64).pow(ori_digits as u32),
            perm_weight,
            ori_weight,
            ori,
            orbit,
            pieces,
            n: o.size,
            twist: o.twist,
            all_ori,
            ori_digits,
            size,
            start: o.start,
        }
    }

    /// The index of a full byte state whose pieces have been located: the same number as
    /// [`Pattern::index`], with independent multiply-adds instead of a chain.
    #[inline]
    pub fn index_located(&self, s: &[u8], w: &Located) -> u64 {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &p) in self.pieces.iter().enumerate() {
            let l = w.loc[self.start + p as usize];
            let below = (used & ((1u64 << l) - 1)).count_ones() as u8;
            r += (l - below) as u64 * self.perm_weight[i];
            used |= 1 << l;
        }
        let mut o = 0u64;
        if self.all_ori {
            let cells = &s[self.start..self.start + self.ori_digits];
            for (&c, &wt) in cells.iter().zip(&self.ori_weight) {
                o += self.ori[c as usize] as u64 * wt;
            }
        } else {
            for (&p, &wt) in self.pieces.iter().zip(&self.ori_weight) {
                o += w.ori[self.start + p as usize] as u64 * wt;
            }
        }
        r * self.ori_span + o
    }

    /// The index of a full byte state: one pass over the orbit's cells, in order of
    /// location, each followed piece's arrangement digit being its location less the
    /// pieces before it already met (at lower locations).
    #[inline]
    pub fn index(&self, s: &[u8]) -> u64 {
        let cells = &s[self.start..self.start + self.n];
        let (mut seen, mut r, mut o) = (0u64, 0u64, 0u64);
        for (l, (&c, &lw)) in cells.iter().zip(&self.loc_ori_weight).enumerate() {
            let [pw, low, bit, ow] = self.per[self.code[c as usize] as usize];
            r += (l as u64 - (seen & low).count_ones() as u64) * pw;
            o += self.ori[c as usize] as u64 * (ow + lw);
            seen |= bit;
        }
        r * self.ori_span + o
    }

    /// Orientations an index holds: per followed piece, or per location with `all_ori`.
    #[inline]
    pub(super) fn ori_len(&self) -> usize {
        if self.all_ori {
            self.n
        } else {
            self.pieces.len()
        }
    }

    /// The index from the followed pieces' locations and the orientations (digit by digit,
    /// the reference the faster [`Pattern::index`] is tested against).
    #[cfg(test)]
    pub(super) fn index_of(&self, loc: &[u8], ori: &[u8]) -> u64 {
        self.perm_rank(loc) * self.ori_span + self.encode_ori(ori)
    }

    /// The orientation part of an index from its digits (those stored).
    #[inline]
    pub(super) fn encode_ori(&self, ori: &[u8]) -> u64 {
        ori[..self.ori_digits]
            .iter()
            .fold(0u64, |r, &o| r * self.twist as u64 + o as u64)
    }

    /// The digits of an orientation part `o < ori_span`, the last one implied by the sum
    /// when it is not stored.
    pub(super) fn decode_ori(&self, mut o: u64, ori: &mut [u8]) {
        let m = self.ori_len();
        let t = self.twist as u64;
        let mut sum = 0u64;
        for i in (0..self.ori_digits).rev() {
            ori[i] = (o % t) as u8;
            sum += o % t;
            o /= t;
        }
        if self.ori_digits < m {
            ori[m - 1] = if self.twist > 1 && self.ori_digits == m - 1 {
                ((t - sum % t) % t) as u8
            } else {
                0
            };
        }
    }

    /// The arrangement part of an index: the rank of the followed pieces' locations.
    #[inline]
    pub(super) fn perm_rank(&self, loc: &[u8]) -> u64 {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &l) in loc.iter().enumerate() {
            let below = (used & ((1u64 << l) - 1)).count_ones() as u64;
            r = r * (self.n - i) as u64 + (l as u64 - below);
            used |= 1 << l;
        }
        r
    }

    /// Locations and orientations of the followed pieces at index `r`.
    pub(super) fn unindex(&self, mut r: u64, loc: &mut [u8], ori: &mut [u8]) {
        let k = self.pieces.len();
        self.decode_ori(r % self.ori_span, ori);
        r /= self.ori_span;
        let mut digits = [0u8; 64];
        for i in (0..k).rev() {
            let radix = (self.n - i) as u64;
            digits[i] = (r % radix) as u8;
            r /= radix;
        }
        let mut used = 0u64;
        for i in 0..k {
            // The digits[i]-th unused location.
            let mut c = digits[i];
            let mut l = 0;
            loop {
                if used & (1 << l) == 0 {
                    if c == 0 {
                        break;
                    }
                    c -= 1;
                }
                l += 1;
            }
            loc[i] = l as u8;
            used |= 1 << l;
        }
    }

    /// Bytes of its table (two entries a byte).
    pub fn bytes(&self) -> u64 {
        self.size.div_ceil(2)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{cube3_htm, setup, state_after};
    use super::super::Locator;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn index_round_trips(k in 1usize..=8, r in 0u64..1_000_000) {
            let (model, _, _) = setup();
            let p = Pattern::new(&model, 0, (0..k as u8).collect());
            let r = r % p.size;
            let (mut loc, mut ori) = ([0u8; 64], [0u8; 64]);
            p.unindex(r, &mut loc, &mut ori);
            prop_assert_eq!(p.index_of(&loc[..k], &ori[..k]), r);
        }
    }

    proptest! {
        #[test]
        fn index_round_trips_with_every_orientation(k in 1usize..=7, r in 0u64..1_000_000) {
            let (model, _, _) = setup();
            let p = Pattern::with_orientations(&model, 0, (0..k as u8).collect(), true);
            prop_assert!(p.all_ori);
            let r = r % p.size;
            let (mut loc, mut ori) = ([0u8; 64], [0u8; 64]);
            p.unindex(r, &mut loc, &mut ori);
            prop_assert_eq!(p.index_of(&loc[..k], &ori[..8]), r);
        }
    }

    proptest! {
        #[test]
        fn located_index_is_the_index(
            moves in proptest::collection::vec(0usize..18, 0..30),
            k in 1usize..=7,
            first in 0u8..12,
            all_ori: bool,
        ) {
            // Random 3x3x3 positions; patterns on either orbit.
            let (model, _, actions) = cube3_htm();
            let s = state_after(&model, &actions, &moves);
            let locator = Locator::new(&model);
            let mut w = locator.buffer();
            locator.locate(&s, &mut w);
            for orbit in 0..2 {
                let n = model.orbits[orbit].size as u8;
                let pieces: Vec<u8> = (0..k as u8).map(|i| (first + 5 * i) % n).collect();
                let mut pieces = pieces;
                pieces.dedup();
                let p = Pattern::with_orientations(&model, orbit, pieces, all_ori);
                prop_assert_eq!(p.index_located(&s, &w), p.index(&s));
                // And the index from the digits (Horner's rule, as `unindex` reads it).
                let t = model.orbits[orbit].twist;
                let loc: Vec<u8> = p.pieces.iter().map(|&q| w.loc[p.start + q as usize]).collect();
                let ori: Vec<u8> = if p.all_ori {
                    (0..p.n).map(|l| s[p.start + l] % t).collect()
                } else {
                    p.pieces.iter().map(|&q| w.ori[p.start + q as usize]).collect()
                };
                prop_assert_eq!(p.index_of(&loc, &ori), p.index(&s));
            }
        }
    }
}
