//! How the letters move the entries of a table: [`orbit_maps`] (where each piece goes) and
//! [`OriTurns`] (the orientation part of an index under a letter), for whole blocks of one
//! arrangement at a time; with twist 2 a letter flips a fixed set of orientation bits, so
//! a whole block's bit mask is turned at once (`flip.rs`).

use super::ori_rows::RowTurns;
use super::Pattern;
use crate::model::{Action, Model};

/// Forward maps of the letters on one orbit: piece at `a` goes to `dest[a]` gaining `add[a]`.
pub(super) fn orbit_maps(
    model: &Model,
    orbit: usize,
    actions: &[Action],
) -> Vec<(Vec<u8>, Vec<u8>)> {
    let o = &model.orbits[orbit];
    actions
        .iter()
        .map(|a| {
            let mut dest = vec![0u8; o.size];
            let mut add = vec![0u8; o.size];
            for b in 0..o.size {
                let src = a.src[o.start + b] as usize - o.start;
                dest[src] = b as u8;
                add[src] = a.add[o.start + b];
            }
            (dest, add)
        })
        .collect()
}

/// How each letter changes the orientation part of an index (see [`Pattern`]): with the
/// followed pieces' orientations, a letter adds to each digit what the piece's location
/// gets (an exclusive or for twist 2); with every location's orientation, it permutes and
/// adds the digits whatever the arrangement (a table per letter).
pub(super) struct OriTurns<'a> {
    p: &'a Pattern,
    /// Per letter, the orientation added at each location.
    add: Vec<Vec<u8>>,
    /// Digits of every orientation part (twist > 2, followed pieces, small spans).
    digits: Vec<u8>,
    /// With every location's orientation: per letter, the new orientation part of each
    /// (empty when the parts are too many: then they are turned one by one).
    tables: Vec<Vec<u32>>,
    /// Their inverses (empty unless every table is a permutation).
    inverse: Vec<Vec<u32>>,
    dest: Vec<Vec<u8>>,
    /// Twist > 2, followed pieces: the digit-wise sums tabulated (see [`Halves`]).
    halves: Option<Halves>,
    /// With them, whole masks turned row by row (see [`OriTurns::turn_mask`]).
    rows: Option<RowTurns>,
}

/// Digit-wise sums modulo the twist, tabulated for the high and the low digits of an
/// orientation part apart (`o = hi * lo_span + lo`), so that a turn is two look-ups
/// rather than a pass over the digits.
struct Halves {
    lo_span: u64,
    hi_span: u64,
    /// `lo[a * lo_span + o]`: the low digits of `a` and `o` added; `hi` likewise.
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// `neg_lo[a]`: the low digits of `a` negated (the turn back); `neg_hi` likewise.
    neg_lo: Vec<u32>,
    neg_hi: Vec<u32>,
    /// Each orientation part's high and low digits.
    split: Vec<(u32, u32)>,
}

impl Halves {
    /// Tables when they are small (their squares are what they hold).
    fn new(p: &Pattern) -> Option<Halves> {
        let (t, d) = (p.twist as u64, p.ori_digits as u32);
        let (lo_span, hi_span) = (t.pow(d / 2), t.pow(d - d / 2));
        if p.all_ori || t < 3 || hi_span > 1 << 9 {
            return None;
        }
        let neg = |a: u64, span: u64| -> u32 {
            let (mut x, mut r, mut w) = (a, 0, 1);
            while w < span {
                r += (t - x % t) % t * w;
                (x, w) = (x / t, w * t);
            }
            r as u32
        };
        let sums = |span: u64| -> Vec<u32> {
            let mut v = Vec::with_capacity((span * span) as usize);
            for a in 0..span {
                for o in 0..span {
                    let (mut x, mut y, mut r, mut w) = (a, o, 0, 1);
                    while w < span {
                        r += (x % t + y % t) % t * w;
                        (x, y, w) = (x / t, y / t, w * t);
                    }
                    v.push(r as u32);
                }
            }
            v
        };
        Some(Halves {
            lo_span,
            hi_span,
            lo: sums(lo_span),
            hi: sums(hi_span),
            neg_lo: (0..lo_span).map(|a| neg(a, lo_span)).collect(),
            neg_hi: (0..hi_span).map(|a| neg(a, hi_span)).collect(),
            split: (0..p.ori_span)
                .map(|o| ((o / lo_span) as u32, (o % lo_span) as u32))
                .collect(),
        })
    }
}

/// One letter's effect on the orientation parts of one block.
pub(super) struct OriTurn {
    letter: usize,
    /// The added digits as an orientation part (with twist 2, the bits flipped).
    xor: u64,
    add: [u8; 64],
    /// The rows of [`Halves`] for the high and the low digits of `xor`, and of its
    /// negation.
    rows: (u32, u32),
    back: (u32, u32),
}

impl Default for OriTurn {
    fn default() -> OriTurn {
        OriTurn {
            letter: 0,
            xor: 0,
            add: [0; 64],
            rows: (0, 0),
            back: (0, 0),
        }
    }
}

impl<'a> OriTurns<'a> {
    pub(super) fn new(p: &'a Pattern, maps: &[(Vec<u8>, Vec<u8>)]) -> OriTurns<'a> {
        let mut turns = OriTurns {
            p,
            add: maps.iter().map(|(_, a)| a.clone()).collect(),
            digits: Vec::new(),
            tables: Vec::new(),
            inverse: Vec::new(),
            dest: maps.iter().map(|(d, _)| d.clone()).collect(),
            halves: None,
            rows: None,
        };
        // Small spans get their turns (or digits) tabulated once, by the digit-by-digit
        // path itself, so the tests against direct searches check both.
        if p.ori_span <= 1 << 20 {
            let mut a = [0u8; 64];
            if p.all_ori {
                turns.tables = (0..maps.len())
                    .map(|l| {
                        let turn = OriTurn {
                            letter: l,
                            ..OriTurn::default()
                        };
                        (0..p.ori_span)
                            .map(|o| turns.apply(&turn, o) as u32)
                            .collect()
                    })
                    .collect();
                let mut inverse = vec![vec![u32::MAX; p.ori_span as usize]; maps.len()];
                for (inv, row) in inverse.iter_mut().zip(&turns.tables) {
                    for (o, &r) in row.iter().enumerate() {
                        inv[r as usize] = o as u32;
                    }
                }
                if inverse.iter().flatten().all(|&o| o != u32::MAX) {
                    turns.inverse = inverse;
                }
            } else if p.twist > 2 {
                for o in 0..p.ori_span {
                    p.decode_ori(o, &mut a);
                    turns.digits.extend_from_slice(&a[..p.ori_digits]);
                }
                turns.halves = Halves::new(p);
                turns.rows = turns
                    .halves
                    .as_ref()
                    .and_then(|h| RowTurns::new(&h.lo, h.lo_span as usize, h.hi_span as usize));
            }
        }
        turns
    }

    /// Prepares letter `l` for a block whose followed pieces are at `loc`.
    #[inline]
    pub(super) fn prepare(&self, l: usize, loc: &[u8], turn: &mut OriTurn) {
        turn.letter = l;
        if self.p.all_ori || self.p.twist == 1 {
            return;
        }
        let add = &self.add[l];
        turn.xor = 0;
        for (i, &w) in self.p.ori_weight.iter().enumerate() {
            let a = add[loc[i] as usize];
            turn.add[i] = a;
            turn.xor += a as u64 * w;
        }
        self.rows(turn);
    }

    /// The rows of [`Halves`] a prepared turn reads.
    #[inline]
    fn rows(&self, turn: &mut OriTurn) {
        if let Some(h) = &self.halves {
            let (hi, lo) = (turn.xor / h.lo_span, turn.xor % h.lo_span);
            turn.rows = ((hi * h.hi_span) as u32, (lo * h.lo_span) as u32);
            turn.back = (
                h.neg_hi[hi as usize] * h.hi_span as u32,
                h.neg_lo[lo as usize] * h.lo_span as u32,
            );
        }
    }

    /// True when [`OriTurns::unapply`] can turn back.
    pub(super) fn undoes(&self) -> bool {
        let p = self.p;
        p.twist == 1
            || (p.all_ori && !self.inverse.is_empty())
            || (!p.all_ori && (p.twist == 2 || self.halves.is_some()))
    }

    /// The orientation part that the prepared letter turns into `o` (when
    /// [`OriTurns::undoes`]).
    #[inline(always)]
    pub(super) fn unapply(&self, turn: &OriTurn, o: u64) -> u64 {
        let p = self.p;
        if p.twist == 1 {
            0
        } else if p.all_ori {
            self.inverse[turn.letter][o as usize] as u64
        } else if p.twist == 2 {
            o ^ turn.xor
        } else {
            let h = self.halves.as_ref().expect("tabulated digit sums");
            let (hi, lo) = h.split[o as usize];
            let hi = h.hi[(turn.back.0 + hi) as usize] as u64;
            hi * h.lo_span + h.lo[(turn.back.1 + lo) as usize] as u64
        }
    }

    /// True when [`OriTurns::turn_mask`] turns whole masks.
    pub(super) fn turns_rows(&self) -> bool {
        self.rows.is_some()
    }

    /// `out` gets bit [`OriTurns::apply`]`(o)` for each bit `o` of `m` (with `back`, bit
    /// [`OriTurns::unapply`]`(o)`), all at once (when [`OriTurns::turns_rows`]).
    #[inline]
    pub(super) fn turn_mask(&self, turn: &OriTurn, back: bool, m: &[u64], out: &mut [u64]) {
        let (Some(h), Some(rows)) = (&self.halves, &self.rows) else {
            unreachable!("masks turned row by row without the tables")
        };
        let (hi, lo) = if back { turn.back } else { turn.rows };
        rows.turn(
            &h.hi[hi as usize..],
            (lo as u64 / h.lo_span) as usize,
            m,
            out,
        );
    }

    /// The orientation part `o` becomes, under the prepared letter: the tabulated cases
    /// here, inlined into the fills' loops, the others in [`OriTurns::apply_digits`].
    #[inline(always)]
    pub(super) fn apply(&self, turn: &OriTurn, o: u64) -> u64 {
        let p = self.p;
        if p.twist == 1 {
            return 0;
        }
        if p.all_ori {
            if let Some(row) = self.tables.get(turn.letter) {
                return row[o as usize] as u64;
            }
        } else if p.twist == 2 {
            return o ^ turn.xor;
        } else if let Some(h) = &self.halves {
            let (hi, lo) = h.split[o as usize];
            let hi = h.hi[(turn.rows.0 + hi) as usize] as u64;
            return hi * h.lo_span + h.lo[(turn.rows.1 + lo) as usize] as u64;
        }
        self.apply_digits(turn, o)
    }

    /// [`OriTurns::apply`] digit by digit.
    #[inline(never)]
    fn apply_digits(&self, turn: &OriTurn, o: u64) -> u64 {
        let p = self.p;
        let t = p.twist;
        if p.all_ori {
            let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
            p.decode_ori(o, &mut a);
            let (dest, add) = (&self.dest[turn.letter], &self.add[turn.letter]);
            for l in 0..p.ori_len() {
                b[dest[l] as usize] = (a[l] + add[l]) % t;
            }
            return p.encode_ori(&b);
        }
        if t == 2 {
            return o ^ turn.xor;
        }
        let k = p.ori_digits;
        let mut own = [0u8; 64];
        let digits = if self.digits.is_empty() {
            p.decode_ori(o, &mut own);
            &own[..k]
        } else {
            &self.digits[o as usize * k..(o as usize + 1) * k]
        };
        let mut r = 0u64;
        for ((&d, &a), &w) in digits.iter().zip(&turn.add).zip(&p.ori_weight) {
            let mut s = d + a;
            if s >= t {
                s -= t;
            }
            r += s as u64 * w;
        }
        r
    }
}

impl OriTurns<'_> {
    /// Prepares letter `l` for the followed pieces before the last, at `loc` (shared by the
    /// blocks that differ only in the last piece); [`OriTurns::prepare_last`] completes it.
    pub(super) fn prepare_prefix(&self, l: usize, loc: &[u8], turn: &mut OriTurn) {
        turn.letter = l;
        turn.xor = 0;
        if self.p.all_ori || self.p.twist == 1 {
            return;
        }
        let add = &self.add[l];
        let mut xor = 0;
        for (i, (&w, &c)) in self.p.ori_weight.iter().zip(loc).enumerate() {
            let a = add[c as usize];
            turn.add[i] = a;
            xor += a as u64 * w;
        }
        turn.xor = xor;
    }

    /// Completes a turn prepared for the prefix (whose bits to flip are `xor`) with the
    /// last followed piece, piece `i`, at `last`: then as [`OriTurns::prepare`] makes it.
    #[inline]
    pub(super) fn prepare_last(&self, i: usize, last: u8, xor: u64, turn: &mut OriTurn) {
        turn.xor = xor;
        if !self.p.all_ori && self.p.twist > 1 && i < self.p.ori_digits {
            let a = self.add[turn.letter][last as usize];
            turn.add[i] = a;
            turn.xor += a as u64 * self.p.ori_weight[i];
        }
        self.rows(turn);
    }

    /// True when every letter flips a fixed set of orientation bits (twist 2, the followed
    /// pieces' orientations): a prepared turn is then `o ^ turn.xor`, see [`xor_mask`].
    pub(super) fn flips(&self) -> bool {
        self.p.twist == 2 && !self.p.all_ori
    }
}

impl OriTurn {
    /// The bits a prepared turn flips (meaningful when [`OriTurns::flips`]).
    #[inline]
    pub(super) fn xor_bits(&self) -> u64 {
        self.xor
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::cube3_htm;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn tabulated_sums_are_the_digit_sums(
            k in 1usize..=8,
            locs in proptest::collection::vec(0u8..8, 8),
            l in 0usize..18,
        ) {
            // Corner twists of the 3x3x3 (with 8 pieces the last digit is implied), with
            // and without the tables.
            let (model, _, actions) = cube3_htm();
            let p = Pattern::new(&model, 0, (0..k as u8).collect());
            let maps = orbit_maps(&model, 0, &actions);
            let fast = OriTurns::new(&p, &maps);
            prop_assert!(fast.halves.is_some());
            let mut slow = OriTurns::new(&p, &maps);
            slow.halves = None;
            let (mut a, mut b) = (OriTurn::default(), OriTurn::default());
            fast.prepare(l, &locs, &mut a);
            slow.prepare(l, &locs, &mut b);
            for o in 0..p.ori_span {
                prop_assert_eq!(fast.apply(&a, o), slow.apply(&b, o));
                prop_assert_eq!(fast.unapply(&a, fast.apply(&a, o)), o);
            }
        }

        #[test]
        fn whole_masks_turn_as_their_entries(
            k in 2usize..=8,
            locs in proptest::collection::vec(0u8..8, 8),
            l in 0usize..18,
            seed: u64,
            density in 1u64..64,
        ) {
            // Masks of every density (a pseudo-random draw a bit), turned row by row
            // and entry by entry, both ways.
            let (model, _, actions) = cube3_htm();
            let p = Pattern::new(&model, 0, (0..k as u8).collect());
            let maps = orbit_maps(&model, 0, &actions);
            let turns = OriTurns::new(&p, &maps);
            prop_assert!(turns.turns_rows());
            let mut t = OriTurn::default();
            turns.prepare(l, &locs, &mut t);
            let words = p.ori_span.div_ceil(64) as usize;
            let mut m = vec![0u64; words];
            let mut x = seed | 1;
            for o in 0..p.ori_span {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 64 < density {
                    m[(o >> 6) as usize] |= 1 << (o & 63);
                }
            }
            for back in [false, true] {
                let mut want = vec![0u64; words];
                for o in (0..p.ori_span).filter(|&o| m[(o >> 6) as usize] >> (o & 63) & 1 == 1) {
                    let to = if back { turns.unapply(&t, o) } else { turns.apply(&t, o) };
                    want[(to >> 6) as usize] |= 1 << (to & 63);
                }
                let mut got = vec![!0u64; words];
                turns.turn_mask(&t, back, &m, &mut got);
                prop_assert_eq!(&got, &want, "back {}", back);
            }
        }
    }
}

#[cfg(test)]
mod inverse_tests {
    use super::super::fixtures::cube3_htm;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_orientation_turns_back(k in 1usize..=3, l in 0usize..18, o in 0u64..2048) {
            // The 12 edge flips (the last implied) with a few edges.
            let (model, _, actions) = cube3_htm();
            let p = Pattern::with_orientations(&model, 1, (0..k as u8).collect(), true);
            let maps = orbit_maps(&model, 1, &actions);
            let turns = OriTurns::new(&p, &maps);
            prop_assert!(turns.undoes());
            let mut t = OriTurn::default();
            turns.prepare(l, &[0, 1, 2], &mut t);
            prop_assert_eq!(turns.unapply(&t, turns.apply(&t, o)), o);
        }
    }
}
