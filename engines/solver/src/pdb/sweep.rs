//! The fill for unit costs, on bit sets: `seen` (entries whose distance is known), `cur`
//! (the frontier, at distance `d`) and `next`. Each level is either pushed (every block
//! holding frontier entries is turned by every letter and ORed into the block it reaches)
//! or pulled (every block holding unseen entries reads the frontier bits of the blocks its
//! letters reach, and stops once all are found), whichever touches fewer blocks. A block's
//! entries are handled as one mask: a word of bits where a byte table had an entry, and
//! with twist 2 a letter turns a whole mask at once ([`xor_mask`]); with twist 3 or more,
//! a dense mask is turned whole row by row (`ori_rows.rs`), a sparse one entry by entry. The distances are
//! written as nibbles by the task owning those bytes, as it ends a pulled chunk or after a
//! pushed level; entries at 15 or more, or never reached, keep the 15 the table starts
//! with, so the fill stops after distance 14.

use super::bitset::{count_ones, ones, window, Bitset};
use super::flip::xor_mask;
use super::meter::Meter;
use super::turns::OriTurns;
use super::walk::Walk;
use super::Pattern;
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries a task covers: a multiple of 128, so that a task owns whole words of the bit
/// sets and whole bytes of the table.
const CHUNK: u64 = 1 << 16;

/// The largest block (entries of one arrangement) filled here; larger ones are filled
/// byte by byte.
pub(super) const MAX_SPAN: u64 = 1 << 16;

/// Blocks holding at least this many entries (on the side turned) are turned whole, row
/// by row ([`OriTurns::turn_mask`]), where the turns allow it.
const ROWS_MIN: u32 = 96;

/// How the levels are searched: each by the cheaper direction, or (tests) always one way.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Direction {
    Auto,
    #[cfg(test)]
    Push,
    #[cfg(test)]
    Pull,
    /// Each way with every block turned whole where the turns allow it, however sparse.
    #[cfg(test)]
    PushWhole,
    #[cfg(test)]
    PullWhole,
}

/// What a fill works with; its state is in the bit sets.
struct Sweep<'a> {
    p: &'a Pattern,
    turns: &'a OriTurns<'a>,
    maps: &'a [(Vec<u8>, Vec<u8>)],
    span: u64,
    /// The mask of a whole block.
    full: Vec<u64>,
    flips: bool,
    /// Blocks with at least this many entries are turned whole ([`ROWS_MIN`]).
    rows_min: u32,
    seen: Bitset,
    cur: Bitset,
    next: Bitset,
}

/// One task's buffers.
struct Scratch<'a> {
    walk: Walk<'a>,
    /// Per letter: the first entry of its target block and the bits it flips.
    to: Vec<(u64, u64)>,
    mask: Vec<u64>,
    turned: Vec<u64>,
    found: Vec<u64>,
    want: Vec<u64>,
}

impl<'a> Scratch<'a> {
    fn new(s: &'a Sweep<'a>) -> Scratch<'a> {
        let words = s.full.len();
        Scratch {
            walk: Walk::new(s.p, s.turns, s.maps),
            to: vec![(0, 0); s.maps.len()],
            mask: vec![0; words],
            turned: vec![0; words],
            found: vec![0; words],
            want: vec![0; words],
        }
    }
}

/// Fills `out` (two entries a byte, all 15) with the distances from the entry `solved`.
pub(super) fn sweep(
    p: &Pattern,
    turns: &OriTurns,
    maps: &[(Vec<u8>, Vec<u8>)],
    solved: u64,
    meter: &Meter,
    dir: Direction,
    out: &mut BigBuf,
) -> Result<(), SolveError> {
    let (size, span) = (p.size, p.ori_span);
    let words = span.div_ceil(64) as usize;
    let mut full = vec![0; words];
    window(span, 0, span, &mut full);
    let mut s = Sweep {
        p,
        turns,
        maps,
        span,
        full,
        flips: turns.flips(),
        rows_min: match dir {
            #[cfg(test)]
            Direction::PushWhole | Direction::PullWhole => 0,
            _ => ROWS_MIN,
        },
        seen: Bitset::new(size),
        cur: Bitset::new(size),
        next: Bitset::new(size),
    };
    let bit = |set: &Bitset| set.words()[(solved >> 6) as usize].store(1 << (solved & 63), Relaxed);
    bit(&s.seen);
    bit(&s.cur);
    out[(solved >> 1) as usize] &= !(15 << ((solved & 1) * 4));
    let blocks = size / span;
    let (mut filled, mut frontier, mut d) = (1u64, 1u64, 0u8);
    let mut next_clean = true;
    while d < 14 && frontier > 0 && filled < size {
        meter.ctl.check()?;
        let unseen = size - filled;
        // Pulling stops at a block's first letters once the frontier is large. Flips turn
        // whole blocks, so either direction costs about a turn for every block holding one
        // of its entries; otherwise each entry is turned by itself.
        let pull = match dir {
            Direction::Auto if s.flips => 2 * frontier.min(blocks) > unseen.min(blocks),
            Direction::Auto => 4 * frontier > unseen,
            #[cfg(test)]
            Direction::Push | Direction::PushWhole => false,
            #[cfg(test)]
            Direction::Pull | Direction::PullWhole => true,
        };
        meter.report(d + 1, filled, true);
        if !pull && !next_clean {
            s.next.clear();
        }
        let so_far = AtomicU64::new(0);
        let sw = &s;
        let level = d + 1;
        frontier = out
            .par_chunks_mut((CHUNK / 2) as usize)
            .enumerate()
            .map_init(
                || Scratch::new(sw),
                |sc, (c, bytes)| -> Result<u64, SolveError> {
                    meter.ctl.check()?;
                    let (lo, hi) = (c as u64 * CHUNK, ((c as u64 + 1) * CHUNK).min(size));
                    let n = if pull {
                        // A pulled chunk is written by its task alone: it settles at once,
                        // while it is in the cache.
                        sw.next.clear_range(lo, hi);
                        let n = sw.pull(lo, hi, sc);
                        sw.settle(c, bytes, level, false);
                        n
                    } else {
                        sw.push(lo, hi, sc)
                    };
                    let all = so_far.fetch_add(n, Relaxed) + n;
                    meter.report(level, filled + all, false);
                    Ok(n)
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        d = level;
        if !pull {
            out.par_chunks_mut((CHUNK / 2) as usize)
                .enumerate()
                .for_each(|(c, bytes)| s.settle(c, bytes, d, true));
        }
        // The old frontier is the next level's `next`: cleared when settled after a push.
        next_clean = !pull;
        std::mem::swap(&mut s.cur, &mut s.next);
        filled += frontier;
    }
    Ok(())
}

impl Sweep<'_> {
    /// Pushes the frontier entries in `lo..hi`; returns how many entries it reached first.
    fn push(&self, lo: u64, hi: u64, sc: &mut Scratch) -> u64 {
        let mut n = 0;
        let mut pos = lo;
        while let Some(i) = next_one(&self.cur, pos, hi, false) {
            let b = i / self.span;
            let base = b * self.span;
            let end = (base + self.span).min(hi);
            window(self.span, i - base, end - base, &mut sc.found);
            self.cur.read(base, &mut sc.mask);
            for (m, w) in sc.mask.iter_mut().zip(&sc.found) {
                *m &= w;
            }
            sc.walk.visit(b);
            let rows =
                !self.flips && self.turns.turns_rows() && count_ones(&sc.mask) >= self.rows_min;
            // The targets' words first: the atomic ORs below wait for every earlier read,
            // so misses overlap only as prefetches.
            for l in 0..self.maps.len() {
                let to = sc.walk.target_flip(l).0 * self.span;
                for set in [&self.seen, &self.next] {
                    set.prefetch(to);
                    set.prefetch(to + self.span - 1);
                }
            }
            for l in 0..self.maps.len() {
                let to;
                if self.flips {
                    let (t, flip) = sc.walk.target_flip(l);
                    to = t * self.span;
                    xor_mask(&sc.mask, flip, &mut sc.turned);
                } else {
                    let (t, turn) = sc.walk.target(l);
                    to = t * self.span;
                    if rows {
                        self.turns.turn_mask(turn, false, &sc.mask, &mut sc.turned);
                    } else {
                        sc.turned.fill(0);
                        for o in ones(&sc.mask) {
                            let t = self.turns.apply(turn, o);
                            sc.turned[(t >> 6) as usize] |= 1 << (t & 63);
                        }
                    }
                }
                n += self.next.or(to, &sc.turned, &self.seen);
            }
            pos = end;
        }
        n
    }

    /// Finds the unseen entries in `lo..hi` one letter from the frontier; returns how many.
    fn pull(&self, lo: u64, hi: u64, sc: &mut Scratch) -> u64 {
        let mut n = 0;
        let mut pos = lo;
        while let Some(i) = next_one(&self.seen, pos, hi, true) {
            let b = i / self.span;
            let base = b * self.span;
            let end = (base + self.span).min(hi);
            window(self.span, i - base, end - base, &mut sc.want);
            self.seen.read(base, &mut sc.mask);
            for (w, m) in sc.want.iter_mut().zip(&sc.mask) {
                *w &= !m;
            }
            sc.found.fill(0);
            sc.walk.visit(b);
            if self.flips {
                self.pull_flips(sc);
            } else {
                self.pull_turns(sc);
            }
            n += self.next.or(base, &sc.found, &self.seen);
            pos = end;
        }
        n
    }

    /// The entries of `sc.want` one flip from the frontier, into `sc.found`.
    fn pull_flips(&self, sc: &mut Scratch) {
        // Every letter's target first, so that the reads of the frontier (random, and most
        // of the time) overlap.
        for l in 0..self.maps.len() {
            let (to, flip) = sc.walk.target_flip(l);
            sc.to[l] = (to * self.span, flip);
            self.cur.prefetch(to * self.span);
        }
        for &(to, xor) in &sc.to {
            self.frontier_block(to, &mut sc.mask);
            if sc.mask.iter().all(|&m| m == 0) {
                continue;
            }
            // A flip is its own inverse: the entries it sends into the frontier.
            xor_mask(&sc.mask, xor, &mut sc.turned);
            for ((w, f), &t) in sc.want.iter_mut().zip(&mut sc.found).zip(&sc.turned) {
                *f |= *w & t;
                *w &= !t;
            }
            if sc.want.iter().all(|&w| w == 0) {
                break;
            }
        }
    }

    /// The entries of `sc.want` one letter from the frontier, into `sc.found`, turned one
    /// by one.
    fn pull_turns(&self, sc: &mut Scratch) {
        for l in 0..self.maps.len() {
            let (to, turn) = sc.walk.target(l);
            self.frontier_block(to * self.span, &mut sc.mask);
            // From whichever side holds fewer entries: the wanted ones turned, or the
            // frontier's turned back; when both hold many, the frontier's whole mask
            // turned back.
            let (front, wanted) = (count_ones(&sc.mask), count_ones(&sc.want));
            if self.turns.turns_rows() && front.min(wanted) >= self.rows_min {
                self.turns.turn_mask(turn, true, &sc.mask, &mut sc.turned);
                for ((f, w), t) in sc.found.iter_mut().zip(&sc.want).zip(&sc.turned) {
                    *f |= w & t;
                }
            } else if self.turns.undoes() && front < wanted {
                for t in ones(&sc.mask) {
                    let o = self.turns.unapply(turn, t);
                    sc.found[(o >> 6) as usize] |=
                        (sc.want[(o >> 6) as usize] >> (o & 63) & 1) << (o & 63);
                }
            } else {
                for o in ones(&sc.want) {
                    let t = self.turns.apply(turn, o);
                    if sc.mask[(t >> 6) as usize] >> (t & 63) & 1 != 0 {
                        sc.found[(o >> 6) as usize] |= 1 << (o & 63);
                    }
                }
            }
            for (w, f) in sc.want.iter_mut().zip(&sc.found) {
                *w &= !f;
            }
            if sc.want.iter().all(|&w| w == 0) {
                break;
            }
        }
    }

    /// The frontier's mask of the block from entry `base`.
    #[inline]
    fn frontier_block(&self, base: u64, mask: &mut [u64]) {
        self.cur.read(base, mask);
        for (m, f) in mask.iter_mut().zip(&self.full) {
            *m &= f;
        }
    }

    /// Marks the entries of chunk `c` found in this level seen and writes their distance
    /// `d` into its bytes; with `clear_cur`, clears its part of the old frontier.
    fn settle(&self, c: usize, bytes: &mut [u8], d: u8, clear_cur: bool) {
        let fill = d as u32 * 0x1111_1111;
        let (seen, cur, next) = (self.seen.words(), self.cur.words(), self.next.words());
        let w0 = c * (CHUNK / 64) as usize;
        let nw = (bytes.len() * 2).div_ceil(64);
        for w in w0..w0 + nw {
            if clear_cur && cur[w].load(Relaxed) != 0 {
                cur[w].store(0, Relaxed);
            }
            let m = next[w].load(Relaxed);
            if m == 0 {
                continue;
            }
            seen[w].fetch_or(m, Relaxed);
            let at = (w - w0) * 32;
            if at + 32 > bytes.len() {
                // The table's last bytes.
                for b in ones(&[m]) {
                    let i = at * 2 + b as usize;
                    let sh = (i & 1) * 4;
                    bytes[i >> 1] = bytes[i >> 1] & !(15 << sh) | d << sh;
                }
                continue;
            }
            // Eight entries (four bytes) at a time.
            for q in 0..8 {
                let e = NIBBLES[(m >> (8 * q)) as usize & 255];
                if e != 0 {
                    let r = &mut bytes[at + 4 * q..at + 4 * q + 4];
                    let v = u32::from_le_bytes(r.try_into().unwrap());
                    r.copy_from_slice(&(v & !e | e & fill).to_le_bytes());
                }
            }
        }
    }
}

/// Per byte of a mask, the nibbles its bits stand for (bit `i`, nibble `i`), all ones.
const NIBBLES: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let mut i = 0;
        while i < 8 {
            if m >> i & 1 != 0 {
                t[m] |= 15 << (4 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// The first entry in `pos..hi` whose bit is set (or clear, with `clear`).
#[inline]
fn next_one(set: &Bitset, pos: u64, hi: u64, clear: bool) -> Option<u64> {
    let w = set.words();
    let flip = if clear { !0 } else { 0 };
    let mut i = (pos >> 6) as usize;
    let mut m = (w[i].load(Relaxed) ^ flip) & (!0u64 << (pos & 63));
    while m == 0 {
        i += 1;
        if i as u64 * 64 >= hi {
            return None;
        }
        m = w[i].load(Relaxed) ^ flip;
    }
    let r = i as u64 * 64 + m.trailing_zeros() as u64;
    (r < hi).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{cube2_qtm, cube3_htm};
    use super::super::meter::Meter;
    use super::*;
    use crate::model::{Action, Model};
    use crate::pdb::Pdb;
    use proptest::prelude::*;
    use puz_core::Control;

    /// The table on bit sets, in each direction, is the table on bytes.
    fn same_as_bytes(model: &Model, actions: &[Action], p: Pattern) -> Result<(), TestCaseError> {
        let ctl = Control::default();
        let meter = Meter::new(&ctl, String::new(), 0, p.size);
        let cost = vec![1; actions.len()];
        let want = Pdb::fill_bytes(model, p.clone(), actions, &cost, &meter).unwrap();
        for dir in [
            Direction::Auto,
            Direction::Push,
            Direction::Pull,
            Direction::PushWhole,
            Direction::PullWhole,
        ] {
            let got = Pdb::fill_bits(model, p.clone(), actions, &meter, dir).unwrap();
            prop_assert!(got.table[..] == want.table[..], "{:?} {:?}", dir, p);
        }
        Ok(())
    }

    /// `k` pieces of `orbit` spread from `first`.
    fn pieces(n: usize, k: usize, first: u8) -> Vec<u8> {
        let mut v: Vec<u8> = (0..k)
            .map(|i| ((first as usize + 5 * i) % n) as u8)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn cube3_tables_match_the_byte_fill(orbit in 0usize..2, k in 1usize..=4, first in 0u8..12, all_ori: bool) {
            // Flips (edges), twists (corners), and every location's orientation.
            let (model, _, actions) = cube3_htm();
            let n = model.orbits[orbit].size;
            let k = if all_ori { k.min(2) } else { k };
            let p = Pattern::with_orientations(&model, orbit, pieces(n, k, first), all_ori);
            same_as_bytes(&model, &actions, p)?;
        }

        #[test]
        fn cube3_corners_in_dense_blocks_match_the_byte_fill(first in 0u8..8) {
            // Five twisting corners: blocks of 243 entries, turned whole when dense.
            let (model, _, actions) = cube3_htm();
            let p = Pattern::with_orientations(&model, 0, pieces(8, 5, first), false);
            same_as_bytes(&model, &actions, p)?;
        }

        #[test]
        fn cube2_tables_match_the_byte_fill(k in 1usize..=5, first in 0u8..8, all_ori: bool) {
            // Twists in qtm.
            let (model, _, actions) = cube2_qtm();
            let k = if all_ori { k.min(3) } else { k };
            let p = Pattern::with_orientations(&model, 0, pieces(8, k, first), all_ori);
            same_as_bytes(&model, &actions, p)?;
        }
    }
}
