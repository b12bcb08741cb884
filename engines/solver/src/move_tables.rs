//! [`MoveTables`]: positions as orbit coordinates, and the letters as move tables on them,
//! for the dense God's algorithm.
//!
//! The locations the letters move are split into parts (connected under the letters, inside
//! one orbit). A position is one index: the permutation ranks of every part's pieces (outer,
//! Lehmer ranks, halved when every letter is even on the part) and then their orientations
//! (inner, one base-`twist` digit a location, the last one dropped when every letter keeps
//! the part's orientation sum). A letter is then two table look-ups: one on the outer index,
//! done once for a whole block of orientations, and one on the inner index. The coordinate
//! space may be larger than the group (parity shared between parts, for instance); the
//! caller decides how much waste it accepts.

use crate::model::{Action, Model};
use puz_core::{Perm, Puzzle};

/// The largest permutation table (entries times letters) built for one part.
const MAX_PERM_TABLE: u64 = 1 << 26;
/// The largest orientation table (entries times letters) over all parts.
const MAX_ORI_TABLE: u64 = 1 << 25;

struct Part {
    /// Byte-state locations of the part, in order.
    locs: Vec<usize>,
    twist: u8,
    /// Every letter is an even permutation of the part's locations.
    even: bool,
    /// Orientations stored (all locations, or all but the last one).
    ori_digits: usize,
    perm_size: u64,
    ori_size: u64,
    /// `perm_next[r * letters + g]`.
    perm_next: Vec<u32>,
    /// `ori_next[o * letters + g]`.
    ori_next: Vec<u32>,
}

/// A group's positions as coordinates `perm * ori_size + ori`, with the letters as table
/// look-ups on them.
pub struct MoveTables {
    model: Model,
    parts: Vec<Part>,
    letters: usize,
    /// Outer size: the product of the parts' permutation sizes.
    pub perm_size: u64,
    /// Inner size: the product of the parts' orientation sizes.
    pub ori_size: u64,
    /// `ori_next[o * letters + g]` over the whole inner index.
    ori_next: Vec<u32>,
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Lehmer rank of a permutation of `0..n` (`a[k]` = the piece at location `k`).
fn lehmer_rank(a: &[u8]) -> u64 {
    let n = a.len();
    let mut r = 0u64;
    for i in 0..n {
        let smaller = a[i + 1..].iter().filter(|&&x| x < a[i]).count() as u64;
        r = r * (n - i) as u64 + smaller;
    }
    r
}

fn lehmer_unrank(mut r: u64, n: usize, out: &mut [u8]) {
    let mut digits = [0u8; 16];
    for i in (0..n).rev() {
        let base = (n - i) as u64;
        digits[i] = (r % base) as u8;
        r /= base;
    }
    let mut free: Vec<u8> = (0..n as u8).collect();
    for i in 0..n {
        out[i] = free.remove(digits[i] as usize);
    }
}

fn is_odd(a: &[u8]) -> bool {
    let mut inv = 0usize;
    for i in 0..a.len() {
        inv += a[i + 1..].iter().filter(|&&x| x < a[i]).count();
    }
    inv % 2 == 1
}

impl Part {
    fn perm_rank(&self, a: &[u8]) -> u64 {
        let r = lehmer_rank(a);
        if self.even {
            r / 2
        } else {
            r
        }
    }

    fn perm_unrank(&self, r: u64, out: &mut [u8]) {
        let n = self.locs.len();
        if self.even {
            lehmer_unrank(2 * r, n, out);
            if is_odd(&out[..n]) {
                lehmer_unrank(2 * r + 1, n, out);
            }
        } else {
            lehmer_unrank(r, n, out);
        }
    }

    fn ori_rank(&self, o: &[u8]) -> u64 {
        o[..self.ori_digits]
            .iter()
            .fold(0u64, |r, &d| r * self.twist as u64 + d as u64)
    }

    fn ori_unrank(&self, mut r: u64, out: &mut [u8]) {
        let t = self.twist as u64;
        let n = self.locs.len();
        for k in (0..self.ori_digits).rev() {
            out[k] = (r % t) as u8;
            r /= t;
        }
        if self.ori_digits < n {
            let sum: u64 = out[..n - 1].iter().map(|&d| d as u64).sum();
            out[n - 1] = ((t - sum % t) % t) as u8;
        }
    }
}

impl MoveTables {
    /// Coordinates for the group the letters generate, or `None` when some table would be
    /// too large (a part with more than about 10 pieces, say).
    pub fn new(puzzle: &Puzzle, letters: &[Perm]) -> Option<MoveTables> {
        let model = Model::new(puzzle).ok()?;
        let actions: Vec<Action> = letters
            .iter()
            .map(|p| model.action(p))
            .collect::<Option<_>>()?;
        let ng = actions.len();
        let mut parts = Vec::new();
        for o in &model.orbits {
            let range = o.start..o.start + o.size;
            let moving: Vec<usize> = range
                .clone()
                .filter(|&b| {
                    actions
                        .iter()
                        .any(|a| a.src[b] as usize != b || a.add[b] != 0)
                })
                .collect();
            // Connected components under the letters (union-find).
            let mut parent: Vec<usize> = (0..model.n).collect();
            fn find(p: &mut [usize], x: usize) -> usize {
                let mut x = x;
                while p[x] != x {
                    p[x] = p[p[x]];
                    x = p[x];
                }
                x
            }
            for a in &actions {
                for &b in &moving {
                    let (x, y) = (find(&mut parent, b), find(&mut parent, a.src[b] as usize));
                    parent[x] = y;
                }
            }
            let mut roots: Vec<usize> = Vec::new();
            for &b in &moving {
                let r = find(&mut parent, b);
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
            for r in roots {
                let locs: Vec<usize> = moving
                    .iter()
                    .copied()
                    .filter(|&b| find(&mut parent, b) == r)
                    .collect();
                parts.push(Part::build(&locs, o.twist, &actions)?);
            }
        }
        let perm_size = parts
            .iter()
            .try_fold(1u64, |a, p| a.checked_mul(p.perm_size))?;
        let ori_size = parts
            .iter()
            .try_fold(1u64, |a, p| a.checked_mul(p.ori_size))?;
        perm_size.checked_mul(ori_size)?;
        if ori_size * ng as u64 > MAX_ORI_TABLE {
            return None;
        }
        let mut ori_next = vec![0u32; (ori_size as usize) * ng];
        let mut digits = vec![0u64; parts.len()];
        for o in 0..ori_size {
            let mut r = o;
            for (k, p) in parts.iter().enumerate().rev() {
                digits[k] = r % p.ori_size;
                r /= p.ori_size;
            }
            for g in 0..ng {
                let mut v = 0u64;
                for (k, p) in parts.iter().enumerate() {
                    v = v * p.ori_size + p.ori_next[digits[k] as usize * ng + g] as u64;
                }
                ori_next[o as usize * ng + g] = v as u32;
            }
        }
        Some(MoveTables {
            model,
            parts,
            letters: ng,
            perm_size,
            ori_size,
            ori_next,
        })
    }

    /// Entries of the coordinate space.
    pub fn size(&self) -> u64 {
        self.perm_size * self.ori_size
    }

    /// Bytes of the move tables.
    pub fn table_bytes(&self) -> u64 {
        let parts: usize = self
            .parts
            .iter()
            .map(|p| p.perm_next.len() + p.ori_next.len())
            .sum();
        4 * (parts + self.ori_next.len()) as u64
    }

    /// Number of letters.
    pub fn letters(&self) -> usize {
        self.letters
    }

    /// `out[g]`: the outer index after letter `g`, times `ori_size` (the start of its block).
    #[inline]
    pub fn perm_blocks(&self, perm: u64, out: &mut [u64]) {
        let ng = self.letters;
        if self.parts.len() == 1 {
            let p = &self.parts[0];
            for (g, o) in out.iter_mut().enumerate() {
                *o = p.perm_next[perm as usize * ng + g] as u64 * self.ori_size;
            }
            return;
        }
        let mut digits = [0u64; 32];
        let mut r = perm;
        for (k, p) in self.parts.iter().enumerate().rev() {
            digits[k] = r % p.perm_size;
            r /= p.perm_size;
        }
        for (g, o) in out.iter_mut().enumerate() {
            let mut v = 0u64;
            for (k, p) in self.parts.iter().enumerate() {
                v = v * p.perm_size + p.perm_next[digits[k] as usize * ng + g] as u64;
            }
            *o = v * self.ori_size;
        }
    }

    /// The inner index after letter `g`.
    #[inline]
    pub fn ori_next(&self, ori: u64, g: usize) -> u64 {
        self.ori_next[ori as usize * self.letters + g] as u64
    }

    /// The index of a position (`None` when it moves pieces the letters do not move, or
    /// leaves a part's parity or orientation sum).
    pub fn index(&self, p: &Perm) -> Option<u64> {
        let s = self.model.state_of(p)?;
        let solved = self.model.solved();
        // Unmoved locations must hold their own piece.
        let mut moved = vec![false; self.model.n];
        for part in &self.parts {
            for &b in &part.locs {
                moved[b] = true;
            }
        }
        if (0..self.model.n).any(|b| !moved[b] && s[b] != solved[b]) {
            return None;
        }
        let (mut perm, mut ori) = (0u64, 0u64);
        for part in &self.parts {
            let t = part.twist;
            let n = part.locs.len();
            let mut a = vec![0u8; n];
            let mut o = vec![0u8; n];
            for (k, &b) in part.locs.iter().enumerate() {
                let home = self.home(part, s[b] / t)?;
                a[k] = home as u8;
                o[k] = s[b] % t;
            }
            if part.even && is_odd(&a) {
                return None;
            }
            if part.ori_digits < n && o.iter().map(|&x| x as u64).sum::<u64>() % t as u64 != 0 {
                return None;
            }
            perm = perm * part.perm_size + part.perm_rank(&a);
            ori = ori * part.ori_size + part.ori_rank(&o);
        }
        Some(perm * self.ori_size + ori)
    }

    /// The part-local index of the location where `piece` (of the part's orbit) is solved.
    fn home(&self, part: &Part, piece: u8) -> Option<usize> {
        let orbit = self
            .model
            .orbits
            .iter()
            .find(|o| (o.start..o.start + o.size).contains(&part.locs[0]))?;
        let loc = orbit.start + piece as usize;
        part.locs.iter().position(|&b| b == loc)
    }

    /// The position with this index.
    pub fn position(&self, index: u64) -> Perm {
        let mut s = self.model.solved();
        let (mut perm, mut ori) = (index / self.ori_size, index % self.ori_size);
        let mut per_part = Vec::with_capacity(self.parts.len());
        for part in self.parts.iter().rev() {
            per_part.push((perm % part.perm_size, ori % part.ori_size));
            perm /= part.perm_size;
            ori /= part.ori_size;
        }
        per_part.reverse();
        let solved = self.model.solved();
        for (part, &(pr, or)) in self.parts.iter().zip(&per_part) {
            let n = part.locs.len();
            let mut a = vec![0u8; n];
            let mut o = vec![0u8; n];
            part.perm_unrank(pr, &mut a);
            part.ori_unrank(or, &mut o);
            for k in 0..n {
                let piece = solved[part.locs[a[k] as usize]] / part.twist;
                s[part.locs[k]] = piece * part.twist + o[k];
            }
        }
        self.model.perm_of(&s)
    }
}

impl Part {
    fn build(locs: &[usize], twist: u8, actions: &[Action]) -> Option<Part> {
        let n = locs.len();
        if n > 12 {
            return None;
        }
        let ng = actions.len();
        let local = |b: usize| locs.iter().position(|&x| x == b);
        // src[g][k]: the part-local location whose piece letter g brings to location k.
        let mut src = vec![vec![0u8; n]; ng];
        let mut add = vec![vec![0u8; n]; ng];
        for (g, a) in actions.iter().enumerate() {
            for (k, &b) in locs.iter().enumerate() {
                src[g][k] = local(a.src[b] as usize)? as u8;
                add[g][k] = a.add[b];
            }
        }
        let even = src.iter().all(|s| !is_odd(s));
        let ori_fixed = twist > 1
            && add
                .iter()
                .all(|a| a.iter().map(|&x| x as u64).sum::<u64>() % twist as u64 == 0);
        let ori_moves = add.iter().any(|a| a.iter().any(|&x| x != 0));
        let ori_digits = if twist == 1 || !ori_moves {
            0
        } else if ori_fixed {
            n - 1
        } else {
            n
        };
        let perm_size = factorial(n) / if even && n > 1 { 2 } else { 1 };
        let ori_size = (twist as u64).pow(ori_digits as u32);
        if perm_size * ng as u64 > MAX_PERM_TABLE || ori_size * ng as u64 > MAX_ORI_TABLE {
            return None;
        }
        let mut part = Part {
            locs: locs.to_vec(),
            twist,
            even: even && n > 1,
            ori_digits,
            perm_size,
            ori_size,
            perm_next: Vec::new(),
            ori_next: Vec::new(),
        };
        let mut perm_next = vec![0u32; perm_size as usize * ng];
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        for r in 0..perm_size {
            part.perm_unrank(r, &mut a);
            for g in 0..ng {
                for k in 0..n {
                    b[k] = a[src[g][k] as usize];
                }
                perm_next[r as usize * ng + g] = part.perm_rank(&b) as u32;
            }
        }
        let mut ori_next = vec![0u32; ori_size as usize * ng];
        let t = twist.max(1);
        for r in 0..ori_size {
            part.ori_unrank(r, &mut a);
            for g in 0..ng {
                for k in 0..n {
                    b[k] = (a[src[g][k] as usize] + add[g][k]) % t;
                }
                ori_next[r as usize * ng + g] = part.ori_rank(&b) as u32;
            }
        }
        part.perm_next = perm_next;
        part.ori_next = ori_next;
        Some(part)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::{cube2, cube3, mv};

    fn letters(p: &Puzzle, names: &[&str]) -> Vec<Perm> {
        names.iter().map(|n| mv(p, n)).collect()
    }

    #[test]
    fn lehmer_round_trips() {
        let mut a = [0u8; 5];
        for r in 0..120 {
            lehmer_unrank(r, 5, &mut a);
            assert_eq!(lehmer_rank(&a), r);
        }
    }

    #[test]
    fn cube2_urf_is_exact_and_letters_agree() {
        let p = cube2();
        let gens = letters(&p, &["U", "R", "F"]);
        let c = MoveTables::new(&p, &gens).unwrap();
        assert_eq!(c.size(), 3_674_160);
        let mut blocks = vec![0u64; 3];
        let mut x = p.identity();
        let mut rng = 12345u64;
        for _ in 0..300 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let g = (rng >> 33) as usize % 3;
            let i = c.index(&x).unwrap();
            assert_eq!(c.position(i), x);
            c.perm_blocks(i / c.ori_size, &mut blocks);
            let next = x.then(&gens[g]);
            let j = blocks[g] + c.ori_next(i % c.ori_size, g);
            assert_eq!(c.index(&next), Some(j));
            x = next;
        }
    }

    #[test]
    fn cube3_edges_are_too_large() {
        let p = cube3();
        let gens = letters(&p, &["U", "R"]);
        // <U,R> moves 6 corners and 7 edges (which it never flips): small enough.
        let c = MoveTables::new(&p, &gens).unwrap();
        assert_eq!(c.size(), 720 * 243 * 5040);
        let all = letters(&p, &["U", "D", "R", "L", "F", "B"]);
        assert!(MoveTables::new(&p, &all).is_none());
    }
}
