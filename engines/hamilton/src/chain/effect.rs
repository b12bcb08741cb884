//! Hamilton paths whose effect is a short word rather than a letter (`R'U'R` for
//! Norskog's three-coset joins), from a Hamilton cycle of a group that fits in memory.
//!
//! One exchange of two edges: let the cycle leave `v_a` by the letter `c_a` and `v_b` by
//! `c_b`, with `v_b = v_a·g` for a letter `g`. Starting at `v_{a+1}`, walk forward to
//! `v_b`, step back to `v_a` by `g'` and walk the cycle backwards to `v_{b+1}`: every
//! position once, from `v_{a+1}` to `v_{b+1}`, so the effect is `c_a'·g·c_b`. The cycle's
//! positions are indexed once by rank (4 bytes and a letter per position); then each
//! index `a` tries the letters `c_b` for which `c_a·e·c_b'` is a letter `g`.
//!
//! The search's cycle of `<U,R>` alternates `U` and `R` turns (its cover is `(U R)^m`, its
//! joins keep the alternation), so `c_a` and `c_b` are turns of different faces: effects
//! such as `R' U' U'`, not Norskog's `R'U'R` or `U'R'U`, and that cycle has no 4-cycle
//! to reverse a stretch by. Those effects come from rotations ([`super::posa`]).

use super::measure::{cat, inverse, Measure};
use puz_core::{Alphabet, Control, Interrupt, Perm, Ranker, Word};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// A Hamilton path (from the identity) of the group ranked by `ranker` with the effect
/// `target`, from the Hamilton cycle `cycle` of that group, when one exchange of two
/// edges gives it; `None` otherwise. The cycle is tried both ways round, and a path with
/// the inverse effect is taken backwards.
pub fn exchange_path(
    alpha: &Alphabet,
    cycle: &Word,
    ranker: &dyn Ranker,
    target: &Perm,
    ctl: &Control,
) -> Result<Option<Word>, Interrupt> {
    let inv = target.inverse();
    for c in [cycle.clone(), inverse(cycle.clone())] {
        if let Some(w) = exchange_one_way(alpha, &c, ranker, target, ctl)? {
            return Ok(Some(w));
        }
        if let Some(w) = exchange_one_way(alpha, &c, ranker, &inv, ctl)? {
            return Ok(Some(inverse(w)));
        }
    }
    Ok(None)
}

/// The index of each position of the cycle (by rank) and the letter leaving it.
pub(crate) fn index_cycle(
    alpha: &Alphabet,
    cycle: &Word,
    ranker: &dyn Ranker,
    size: u64,
    ctl: &Control,
) -> Result<(Vec<u32>, Vec<u8>), Interrupt> {
    let ix = CycleIndex::new(alpha, cycle, ranker, size, ctl)?;
    Ok((ix.index, ix.letters))
}

/// A Hamilton cycle's positions indexed by rank (4 bytes and a letter a position): built
/// once and shared by every search on that cycle (ranking each position of the 4x4x4's
/// `<U,R>` cycle takes minutes).
pub struct CycleIndex {
    /// `index[rank]`: where the position of that rank sits on the cycle.
    pub index: Vec<u32>,
    /// `letters[j]`: the letter leaving position `j`.
    pub letters: Vec<u8>,
}

impl CycleIndex {
    /// Ranks the cycle's positions in parallel stretches (each started from the product
    /// of the letters before it).
    pub fn new(
        alpha: &Alphabet,
        cycle: &Word,
        ranker: &dyn Ranker,
        size: u64,
        ctl: &Control,
    ) -> Result<CycleIndex, Interrupt> {
        ctl.reserve("indexing a Hamilton cycle by rank", size * 5)?;
        let n = alpha.perms[0].degree();
        let nn = size as usize;
        let stretch = (nn / 64).max(1 << 16);
        // The stretches as words, with their starts, cut from the cycle by measure.
        let mut m = Measure::new(alpha, n);
        let mut parts = Vec::new();
        let mut start = Perm::identity(n);
        let mut from = 0usize;
        while from < nn {
            ctl.check()?;
            let to = (from + stretch).min(nn);
            let w = m.slice(cycle, from as u128, to as u128);
            let next = start.then(&m.product(&w));
            parts.push((std::mem::replace(&mut start, next), w));
            from = to;
        }
        // Each stretch writes its own letters and scatters its ranks (plain stores).
        let index: Vec<AtomicU32> = (0..nn).map(|_| AtomicU32::new(u32::MAX)).collect();
        let mut letters = vec![0u8; nn];
        letters
            .par_chunks_mut(stretch)
            .zip(parts)
            .enumerate()
            .try_for_each(|(k, (ls, (mut p, w)))| {
                let from = k * stretch;
                for (j, l) in w.stream(alpha).enumerate() {
                    if j % (1 << 14) == 0 {
                        ctl.check()?;
                    }
                    let r = ranker.rank(&p).expect("the cycle stays in the group");
                    index[r as usize].store((from + j) as u32, Ordering::Relaxed);
                    ls[j] = l as u8;
                    p.then_assign(&alpha.perms[l as usize]);
                }
                Ok(())
            })?;
        let index: Vec<u32> = index.into_iter().map(AtomicU32::into_inner).collect();
        Ok(CycleIndex { index, letters })
    }

    /// The index of the same cycle read backwards (`inverse(cycle)`), without ranking:
    /// its position `k` is the cycle's position `N - k`, left by the inverse of the
    /// letter that entered it.
    pub fn reversed(&self, alpha: &Alphabet) -> CycleIndex {
        let nn = self.letters.len();
        let index = self
            .index
            .par_iter()
            .map(|&j| if j == 0 { 0 } else { nn as u32 - j })
            .collect();
        let letters = (0..nn)
            .into_par_iter()
            .map(|k| alpha.inverse[self.letters[nn - 1 - k] as usize] as u8)
            .collect();
        CycleIndex { index, letters }
    }
}

fn exchange_one_way(
    alpha: &Alphabet,
    cycle: &Word,
    ranker: &dyn Ranker,
    target: &Perm,
    ctl: &Control,
) -> Result<Option<Word>, Interrupt> {
    let n = target.degree();
    let mut m = Measure::new(alpha, n);
    let len = m.len(cycle);
    let size = ranker.size().unwrap_or(u64::MAX);
    if len != size as u128 || len < 3 || alpha.len() > 255 {
        return Ok(None);
    }
    let (index, letters) = index_cycle(alpha, cycle, ranker, size, ctl)?;
    // g = c_a · target · c_b' when that is a letter.
    let k = alpha.len();
    let mut exchange = vec![None; k * k];
    for ca in 0..k {
        for cb in 0..k {
            let g = alpha.perms[ca]
                .then(target)
                .then(&alpha.perms[alpha.inverse[cb] as usize]);
            exchange[ca * k + cb] = alpha.perms.iter().position(|x| *x == g);
        }
    }
    let mut p = Perm::identity(n);
    for (a, ca) in letters.iter().map(|&c| c as usize).enumerate() {
        if a % (1 << 14) == 0 {
            ctl.check()?;
        }
        for cb in 0..k {
            let Some(g) = exchange[ca * k + cb] else {
                continue;
            };
            let vb = p.then(&alpha.perms[g]);
            let Some(r) = ranker.rank(&vb) else {
                continue;
            };
            let b = index[r as usize] as usize;
            if b == a || letters[b] as usize != cb {
                continue;
            }
            // The cycle from v_{a+1}: v_b sits at b' = b - a - 1 (mod N).
            let nn = len;
            let rot = m.rotate(cycle, a as u128 + 1);
            let bb = (b as u128 + nn - a as u128 - 1) % nn;
            let head = m.slice(&rot, 0, bb);
            let tail = m.slice(&rot, bb + 1, nn - 1);
            let w = cat(vec![head, Word::Letter(alpha.inverse[g]), inverse(tail)]);
            debug_assert_eq!(m.len(&w), nn - 1);
            if m.product(&w) == *target {
                return Ok(Some(w));
            }
        }
        p.then_assign(&alpha.perms[ca]);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use puz_testkit::cycles::six_piece;
    use puz_testkit::{alphabet, parse, EnumRanker};

    #[test]
    fn a_reversed_index_is_the_index_of_the_reversed_cycle() {
        let a = alphabet(&six_piece(), &["R", "L"]);
        let r = EnumRanker::new(&a.perms);
        let c = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let ctl = Control::default();
        let ix = CycleIndex::new(&a, &c, &r, 60, &ctl).unwrap();
        let back = CycleIndex::new(&a, &inverse(c), &r, 60, &ctl).unwrap();
        let rev = ix.reversed(&a);
        assert_eq!((rev.index, rev.letters), (back.index, back.letters));
    }

    #[test]
    fn three_letter_effects_on_the_six_piece_puzzle() {
        // <R, L> of Jaap's puzzle (60 positions) and its cycle (R'R'LRRL'RRLRRL)5.
        let a = alphabet(&six_piece(), &["R", "L"]);
        let r = EnumRanker::new(&a.perms);
        let c = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let ctl = Control::default();
        let id = Perm::identity(6);
        let mut found = 0;
        for text in ["R' L' R", "R' L R", "L' R' L", "L R L", "R L' R'"] {
            let e = parse(&a, text, &[]).eval(&a, 6);
            let Some(w) = exchange_path(&a, &c, &r, &e, &ctl).unwrap() else {
                continue;
            };
            found += 1;
            assert_eq!(w.eval(&a, 6), e);
            let rep = check(&w, &a, &id, &r, Mode::Hamilton, &ctl).unwrap();
            assert_eq!(rep.kind, Kind::Path, "{text}");
        }
        assert!(found >= 3, "found {found}");
    }
}
