//! Hamilton paths with a chosen effect by rotations (Pósa), from a Hamilton cycle of a
//! group that fits in memory.
//!
//! The cycle without the edge `v_a v_{a+1}` is a path from `v_{a+1}` to `t = v_a` (effect
//! `c_a'`). A rotation: for a letter `h` with `w = t·h` on the path, walk the path to `w`,
//! step to `t` by `h'` and walk the rest backwards; the new end is the successor of `w`
//! and the effect is `e·h·l`, `l` the letter leaving `w`. On a stretch walked backwards
//! `l` is the inverse of the letter that entered `w` in the cycle, so a few rotations of
//! a cycle that alternates faces (the search's `<U,R>` cycle) give effects such as
//! Norskog's `R'U'R` (two rotations) and `R'URU'R`. On such a cycle the letter leaving a
//! vertex follows from its parity (`U` from even positions, `R` from odd, or their
//! inverses backwards), and the end's parity never changes, so some five-letter effects
//! need five rotations away from the cycle's joins (`U R' U' R U'` on the 2x2x2 and the
//! 4x4x4). The start can be rotated too: the path read backwards (effect `e'`), rotated
//! at its end, and read forwards again has the effect `l'·h'·e`, so effects grow at both
//! ends and `U R' U' R U'` takes three rotations. The path is kept as pieces of the cycle
//! (forwards or backwards) and the letters joining them; the positions are found by an
//! index of the cycle by rank ([`CycleIndex`], 4 bytes and a letter per position).

use super::effect::CycleIndex;
use super::measure::{cat, inverse, Measure};
use puz_core::{Alphabet, Control, Interrupt, Perm, Ranker, Word};
use rayon::prelude::*;

/// Vertices `start, start±1, ...` (`count` of them) in rotated cycle indices (0 is
/// `v_{a+1}`), forwards or backwards.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    count: usize,
    forward: bool,
}

#[derive(Clone, Debug)]
struct Pieces {
    pieces: Vec<Piece>,
    /// The letter from the last vertex of piece `i` to the first of piece `i + 1`.
    joins: Vec<u32>,
}

impl Pieces {
    /// The whole rotated cycle, forwards: the path before any rotation.
    fn whole(nn: usize) -> Pieces {
        Pieces {
            pieces: vec![Piece {
                start: 0,
                count: nn,
                forward: true,
            }],
            joins: vec![],
        }
    }

    /// The place on the path of rotated index `r`.
    fn place(&self, r: usize) -> usize {
        let mut before = 0;
        for p in &self.pieces {
            let off = if p.forward {
                r.wrapping_sub(p.start)
            } else {
                p.start.wrapping_sub(r)
            };
            if off < p.count {
                return before + off;
            }
            before += p.count;
        }
        unreachable!("every vertex is on the path")
    }

    /// The piece holding `place` and the offset in it.
    fn at(&self, place: usize) -> (usize, usize) {
        let mut before = 0;
        for (i, p) in self.pieces.iter().enumerate() {
            if place < before + p.count {
                return (i, place - before);
            }
            before += p.count;
        }
        unreachable!("a place on the path")
    }

    /// The letter leaving the vertex at `place` (not the end).
    fn leave(&self, place: usize, rot_letter: &dyn Fn(usize) -> u32, inv: &[u32]) -> u32 {
        let (i, off) = self.at(place);
        let p = self.pieces[i];
        if off + 1 == p.count {
            return self.joins[i];
        }
        if p.forward {
            rot_letter(p.start + off)
        } else {
            inv[rot_letter(p.start - off - 1) as usize]
        }
    }

    /// The rotation at `place` (the vertex `w` with `w = t·h`).
    fn rotate(&self, place: usize, h_inv: u32, inv: &[u32]) -> Pieces {
        let (i, off) = self.at(place);
        let mut pieces: Vec<Piece> = self.pieces[..i].to_vec();
        let mut joins: Vec<u32> = self.joins[..i].to_vec();
        let p = self.pieces[i];
        let step = |s: usize, k: usize, fwd: bool| if fwd { s + k } else { s - k };
        pieces.push(Piece {
            start: p.start,
            count: off + 1,
            forward: p.forward,
        });
        joins.push(h_inv);
        // The rest, backwards: the later pieces in reverse order, each reversed.
        let mut rest: Vec<Piece> = Vec::new();
        if off + 1 < p.count {
            rest.push(Piece {
                start: step(p.start, off + 1, p.forward),
                count: p.count - off - 1,
                forward: p.forward,
            });
        }
        rest.extend(self.pieces[i + 1..].iter().copied());
        // Joins between the pieces of the rest; the old join out of the split vertex is
        // dropped when the split piece has no tail.
        let rest_joins: &[u32] = if off + 1 < p.count {
            &self.joins[i..]
        } else {
            &self.joins[(i + 1).min(self.joins.len())..]
        };
        for (k, q) in rest.iter().enumerate().rev() {
            pieces.push(Piece {
                start: step(q.start, q.count - 1, q.forward),
                count: q.count,
                forward: !q.forward,
            });
            if k > 0 {
                joins.push(inv[rest_joins[k - 1] as usize]);
            }
        }
        Pieces { pieces, joins }
    }

    /// The same path walked from its end to its start.
    fn reversed(&self, inv: &[u32]) -> Pieces {
        Pieces {
            pieces: self
                .pieces
                .iter()
                .rev()
                .map(|p| Piece {
                    start: if p.forward {
                        p.start + p.count - 1
                    } else {
                        p.start + 1 - p.count
                    },
                    count: p.count,
                    forward: !p.forward,
                })
                .collect(),
            joins: self.joins.iter().rev().map(|&j| inv[j as usize]).collect(),
        }
    }

    fn word(&self, m: &mut Measure, rot: &Word) -> Word {
        let mut items = Vec::new();
        for (i, p) in self.pieces.iter().enumerate() {
            let (s, c) = (p.start as u128, p.count as u128);
            if p.forward {
                items.push(m.slice(rot, s, s + c - 1));
            } else {
                items.push(inverse(m.slice(rot, s + 1 - c, s)));
            }
            if let Some(&j) = self.joins.get(i) {
                items.push(Word::Letter(j));
            }
        }
        cat(items)
    }
}

/// A Hamilton path (from the identity) with the effect `target` by at most `rotations`
/// rotations of the cycle (or of the cycle read backwards) without one edge, for the
/// group ranked by `ranker`; `None` when none is found.
pub fn rotated_path(
    alpha: &Alphabet,
    cycle: &Word,
    ranker: &dyn Ranker,
    target: &Perm,
    rotations: usize,
    ctl: &Control,
) -> Result<Option<Word>, Interrupt> {
    let Some(size) = indexable(alpha, cycle, ranker) else {
        return Ok(None);
    };
    let ix = CycleIndex::new(alpha, cycle, ranker, size, ctl)?;
    let back = inverse(cycle.clone());
    let ixb = ix.reversed(alpha);
    let ways = [(cycle, &ix), (&back, &ixb)];
    rotated_path_on(
        alpha,
        &ways,
        ranker,
        target,
        rotations,
        false,
        usize::MAX,
        ctl,
    )
}

/// The size of the group when `cycle` is a Hamilton cycle of it that rotations can work
/// on (its length is the group's order, at most 255 letters).
pub fn indexable(alpha: &Alphabet, cycle: &Word, ranker: &dyn Ranker) -> Option<u64> {
    let mut m = Measure::new(alpha, alpha.perms.first()?.degree());
    let size = ranker.size()?;
    (m.len(cycle) == size as u128 && size >= 4 && alpha.len() <= 255).then_some(size)
}

/// [`rotated_path`] on Hamilton cycles of one group with their indexes built beforehand
/// ([`CycleIndex::new`] for the size [`indexable`] gives; a cycle read backwards is
/// indexed by [`CycleIndex::reversed`]), so that several searches share them. The cycles
/// are searched side by side, a block of cuts of each in turn: on a cycle that alternates
/// two moves an effect may take a rotation more one way round than the other. At most
/// `max_cuts` cuts of each are tried. With `both_ends`, the path's start is rotated too
/// (the path read backwards, rotated at its end, read forwards again: the effect `e`
/// becomes `l'·h'·e`), so that effects grow at both ends, at twice the branching.
#[allow(clippy::too_many_arguments)]
pub fn rotated_path_on(
    alpha: &Alphabet,
    ways: &[(&Word, &CycleIndex)],
    ranker: &dyn Ranker,
    target: &Perm,
    rotations: usize,
    both_ends: bool,
    max_cuts: usize,
    ctl: &Control,
) -> Result<Option<Word>, Interrupt> {
    let n = target.degree();
    let mut m = Measure::new(alpha, n);
    let Some(size) = ranker.size() else {
        return Ok(None);
    };
    let nn = size as usize;
    let cuts = nn.min(max_cuts);
    for &(cycle, ix) in ways {
        if indexable(alpha, cycle, ranker) != Some(size) || ix.index.len() != nn {
            return Ok(None);
        }
    }
    let len = size as u128;
    let pace = puz_core::progress::Pace::new(std::time::Duration::from_millis(250));
    // Cuts are searched in blocks, in parallel within a block; the first cut (lowest) that
    // works is taken, so the path found is the one a sequential scan finds.
    let mut a0 = 0;
    let mut ps = vec![Perm::identity(n); ways.len()];
    while a0 < cuts {
        ctl.check()?;
        if pace.due() {
            ctl.step(
                "rotations",
                "cuts of the cycle tried",
                a0 as u64,
                cuts as u64,
                "cuts",
            );
        }
        let a1 = (a0 + CUTS_A_BLOCK).min(cuts);
        for (&(cycle, ix), p) in ways.iter().zip(ps.iter_mut()) {
            let (index, letters) = (&ix.index, &ix.letters);
            // The position before each cut.
            let mut starts = Vec::with_capacity(a1 - a0);
            for &c in &letters[a0..a1] {
                let next = p.then(&alpha.perms[c as usize]);
                starts.push(std::mem::replace(p, next));
            }
            let found = (a0..a1).into_par_iter().find_map_first(|a| {
                if ctl.cancelled() {
                    return None;
                }
                let here = &starts[a - a0];
                let ca = letters[a] as usize;
                let next = here.then(&alpha.perms[ca]);
                let base = Pieces::whole(nn);
                let rot_letter = |r: usize| letters[(r + a + 1) % nn] as u32;
                let ctx = Search {
                    alpha,
                    ranker,
                    index,
                    nn,
                    a,
                    target,
                    rot_letter: &rot_letter,
                    both_ends,
                };
                let e0 = alpha.perms[alpha.inverse[ca] as usize].clone();
                ctx.dfs(&base, &e0, &next, here, rotations).map(|f| (a, f))
            });
            ctl.check()?;
            if let Some((a, found)) = found {
                let rot = m.rotate(cycle, a as u128 + 1);
                let w = found.word(&mut m, &rot);
                // Every path is checked for its length and effect; one that failed would
                // be a defect of the rotations, and the search goes on.
                if m.len(&w) + 1 == len && m.product(&w) == *target {
                    ctl.end_phase();
                    return Ok(Some(w));
                }
            }
        }
        a0 = a1;
    }
    ctl.end_phase();
    Ok(None)
}

/// Cuts searched together (between looks at Ctrl-C; a cut of the 4x4x4's `<U,R>` cycle
/// costs up to a millisecond).
const CUTS_A_BLOCK: usize = 256;

struct Search<'a> {
    alpha: &'a Alphabet,
    ranker: &'a dyn Ranker,
    index: &'a [u32],
    nn: usize,
    a: usize,
    target: &'a Perm,
    rot_letter: &'a dyn Fn(usize) -> u32,
    both_ends: bool,
}

impl Search<'_> {
    /// The rotation of `path` at the vertex `w = t·h` of its end `t` (absolute): the new
    /// path and the letter leaving `w` on the old one; `None` when `w` is the end's
    /// neighbour on the path (no rotation there).
    fn rotate_end(&self, path: &Pieces, t: &Perm, h: usize) -> Option<(Pieces, usize)> {
        let al = self.alpha;
        let w = t.then(&al.perms[h]);
        let r = self.ranker.rank(&w)?;
        let rot = (self.index[r as usize] as usize + self.nn - self.a - 1) % self.nn;
        let place = path.place(rot);
        if place + 2 >= self.nn {
            return None;
        }
        let l = path.leave(place, self.rot_letter, &al.inverse) as usize;
        Some((path.rotate(place, al.inverse[h], &al.inverse), l))
    }

    /// Rotations of `path` (from `s` to `t`, absolute; effect `e`) reaching the target.
    fn dfs(&self, path: &Pieces, e: &Perm, s: &Perm, t: &Perm, left: usize) -> Option<Pieces> {
        if left == 0 {
            return None;
        }
        let al = self.alpha;
        for h in 0..al.len() {
            let Some((rotated, l)) = self.rotate_end(path, t, h) else {
                continue;
            };
            let e2 = e.then(&al.perms[h]).then(&al.perms[l]);
            if e2 == *self.target {
                return Some(rotated);
            }
            if left > 1 {
                let t2 = s.then(&e2);
                if let Some(found) = self.dfs(&rotated, &e2, s, &t2, left - 1) {
                    return Some(found);
                }
            }
        }
        if !self.both_ends {
            return None;
        }
        // The start: the path backwards (from `t` to `s`, effect `e'`) rotated at its end.
        let back = path.reversed(&al.inverse);
        let ei = e.inverse();
        for h in 0..al.len() {
            let Some((rotated, l)) = self.rotate_end(&back, s, h) else {
                continue;
            };
            let eb = ei.then(&al.perms[h]).then(&al.perms[l]);
            let rotated = rotated.reversed(&al.inverse);
            let e2 = eb.inverse();
            if e2 == *self.target {
                return Some(rotated);
            }
            if left > 1 {
                let s2 = t.then(&eb);
                if let Some(found) = self.dfs(&rotated, &e2, &s2, t, left - 1) {
                    return Some(found);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::effect::index_cycle;
    use crate::check::{check, Kind, Mode};
    use puz_testkit::alphabet;

    /// Every sequence of up to three rotations from one cut of the cycle keeps a Hamilton
    /// path with the effect the pieces claim (each walked).
    #[test]
    fn rotations_keep_a_hamilton_path() {
        let ctl = Control::default();
        let p = puz_testkit::cubies::cube2_six();
        let a = alphabet(&p, &["U", "R"]);
        let g = puz_group::Group::new(p.degree(), &a, &[0, 2], &Default::default(), &ctl).unwrap();
        let c = crate::hamilton(&a, &g, &ctl).unwrap();
        let n = p.degree();
        let size = g.size().unwrap();
        let (index, letters) = index_cycle(&a, &c, &g, size, &ctl).unwrap();
        let nn = size as usize;
        let cut = 1000usize;
        let mut pp = Perm::identity(n);
        for l in &letters[..cut] {
            pp.then_assign(&a.perms[*l as usize]);
        }
        let ca = letters[cut] as usize;
        let start = pp.then(&a.perms[ca]);
        let rot_letter = |r: usize| letters[(r + cut + 1) % nn] as u32;
        let mut m = Measure::new(&a, n);
        let rot = m.rotate(&c, cut as u128 + 1);
        let base = Pieces::whole(nn);
        let e0 = a.perms[a.inverse[ca] as usize].clone();
        let mut stack = vec![(base, e0, pp.clone(), 0usize)];
        let id = Perm::identity(n);
        let mut walked = 0;
        while let Some((path, e, t, depth)) = stack.pop() {
            if depth == 3 {
                continue;
            }
            for h in 0..a.len() {
                let r = g.rank(&t.then(&a.perms[h])).unwrap();
                let place = path.place((index[r as usize] as usize + nn - cut - 1) % nn);
                if place + 2 >= nn {
                    continue;
                }
                let l = path.leave(place, &rot_letter, &a.inverse) as usize;
                let e2 = e.then(&a.perms[h]).then(&a.perms[l]);
                let rotated = path.rotate(place, a.inverse[h], &a.inverse);
                let w = rotated.word(&mut m, &rot);
                assert_eq!(w.eval(&a, n), e2);
                let rep = check(&w, &a, &id, &g, Mode::Hamilton, &ctl).unwrap();
                assert_eq!(rep.kind, Kind::Path);
                walked += 1;
                let t2 = start.then(&e2);
                stack.push((rotated, e2, t2, depth + 1));
            }
        }
        assert!(walked >= 30, "{walked} rotations");
    }
}
