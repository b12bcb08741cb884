//! Stabiliser chains of permutations: base, strong generators and explicit transversals,
//! sifting, and the steps that grow a chain (a generator added, orbits extended, supports
//! kept). Building and verifying one is in `schreier_sims.rs` (re-exported here).
//!
//! Level `j` has base point `b_j`, the strong generators fixing `b_0..b_{j-1}`, the orbit
//! `Δ_j` of `b_j` under them and, for each orbit point `β`, a representative `t_β` with
//! `b_j^{t_β} = β` and its inverse. Sifting `g`: `g := g · t_β^{-1}` with `β = b_j^g`.

use crate::raw;
use num_bigint::BigUint;
use num_traits::One;
use puz_core::{Control, Interrupt};

pub use crate::schreier_sims::{build, grow, verify, BuildOptions};

pub const NONE: u32 = u32::MAX;

/// One level of the chain.
#[derive(Clone, Debug)]
pub struct Level {
    pub base: usize,
    /// Indices into [`Chain::gens`] of the strong generators of this level's group.
    pub gens: Vec<u32>,
    /// Orbit points in discovery order; the position is the coset index.
    pub orbit: Vec<u16>,
    /// `pos[point]`: coset index of `point`, or [`NONE`].
    pub pos: Vec<u32>,
    /// Representatives, `orbit.len() * n` images, row `k` maps the base to `orbit[k]`.
    pub reps: Vec<u16>,
    /// Their inverses, same layout.
    pub inv: Vec<u16>,
    /// Schreier tree: `(parent coset, generator)` that defined each representative.
    pub parent: Vec<(u32, u32)>,
    /// `moved[x]`: some generator of this level moves `x`.
    pub moved: Vec<bool>,
    /// The points this level's group moves (representatives act only there).
    pub support: Vec<u16>,
    /// Points the previous level's group moves and this one fixes (all fixed points of
    /// this level's group for level 0): a member's residue must fix them here.
    pub drop: Vec<u16>,
}

impl Level {
    fn new(base: usize, n: usize) -> Level {
        let mut pos = vec![NONE; n];
        pos[base] = 0;
        Level {
            base,
            gens: Vec::new(),
            orbit: vec![base as u16],
            pos,
            reps: raw::identity(n),
            inv: raw::identity(n),
            parent: vec![(NONE, NONE)],
            moved: vec![false; n],
            support: Vec::new(),
            drop: (0..n as u16).collect(),
        }
    }

    #[inline]
    pub fn rep(&self, k: usize, n: usize) -> &[u16] {
        &self.reps[k * n..(k + 1) * n]
    }

    #[inline]
    pub fn inv_rep(&self, k: usize, n: usize) -> &[u16] {
        &self.inv[k * n..(k + 1) * n]
    }

    /// The heap bytes this level holds (by capacity: what the allocator gave it).
    fn bytes(&self) -> u64 {
        (self.reps.capacity() + self.inv.capacity()) as u64 * 2
            + self.pos.capacity() as u64 * 4
            + self.parent.capacity() as u64 * 8
            + self.moved.capacity() as u64
            + (self.orbit.capacity() + self.support.capacity() + self.drop.capacity()) as u64 * 2
            + self.gens.capacity() as u64 * 4
    }

    /// What a new level of a chain on `n` points holds.
    fn new_bytes(n: usize) -> u64 {
        n as u64 * 13
    }

    /// Replaces representative `k` (the caller guarantees it maps the base to `orbit[k]`).
    pub fn set_rep(&mut self, k: usize, n: usize, rep: &[u16]) {
        debug_assert_eq!(rep[self.base] as usize, self.orbit[k] as usize);
        self.reps[k * n..(k + 1) * n].copy_from_slice(rep);
        let inv = raw::inverse(rep);
        self.inv[k * n..(k + 1) * n].copy_from_slice(&inv);
        self.parent[k] = (NONE, NONE);
    }
}

/// A base and strong generating set with transversals.
#[derive(Clone, Debug)]
pub struct Chain {
    pub n: usize,
    pub gens: Vec<Vec<u16>>,
    pub levels: Vec<Level>,
    /// Points the last level's group moves: a member's final residue must fix them.
    pub last_support: Vec<u16>,
}

/// Where a sift stopped.
pub enum Sifted {
    /// The residue is the identity.
    Member,
    /// At this level the residue sends the base point outside the orbit.
    OutOfOrbit(usize),
    /// Every base point is fixed but the residue is not the identity.
    Residue,
}

impl Chain {
    pub fn empty(n: usize) -> Chain {
        Chain {
            n,
            gens: Vec::new(),
            levels: Vec::new(),
            last_support: Vec::new(),
        }
    }

    /// The exact order: the product of the orbit lengths.
    pub fn order(&self) -> BigUint {
        let mut o = BigUint::one();
        for l in &self.levels {
            o *= BigUint::from(l.orbit.len());
        }
        o
    }

    pub fn base(&self) -> Vec<usize> {
        self.levels.iter().map(|l| l.base).collect()
    }

    /// Sifts `g` in place through levels `from..`. `g` must fix every point the group of
    /// level `from - 1` fixes (nothing is assumed for `from == 0`).
    #[inline]
    pub fn sift(&self, g: &mut [u16], from: usize) -> Sifted {
        let n = self.n;
        for (j, l) in self.levels.iter().enumerate().skip(from) {
            if l.drop.iter().any(|&x| g[x as usize] != x) {
                return self.sift_full(g, j);
            }
            let beta = g[l.base] as usize;
            let k = l.pos[beta];
            if k == NONE {
                return Sifted::OutOfOrbit(j);
            }
            if k != 0 {
                let inv = l.inv_rep(k as usize, n);
                for &x in &l.support {
                    let x = x as usize;
                    g[x] = inv[g[x] as usize];
                }
            }
        }
        let fixed = if self.levels.is_empty() {
            raw::is_identity(g)
        } else {
            self.last_support.iter().all(|&x| g[x as usize] == x)
        };
        if fixed {
            Sifted::Member
        } else {
            Sifted::Residue
        }
    }

    /// Sifts a copy of `p` held in `g`, calling `visit(level, coset)`; true for a member.
    #[inline]
    pub fn sift_visit(&self, g: &mut [u16], mut visit: impl FnMut(usize, usize)) -> bool {
        let n = self.n;
        for (j, l) in self.levels.iter().enumerate() {
            if l.drop.iter().any(|&x| g[x as usize] != x) {
                return false;
            }
            let k = l.pos[g[l.base] as usize];
            if k == NONE {
                return false;
            }
            visit(j, k as usize);
            if k != 0 {
                let inv = l.inv_rep(k as usize, n);
                for &x in &l.support {
                    let x = x as usize;
                    g[x] = inv[g[x] as usize];
                }
            }
        }
        if self.levels.is_empty() {
            raw::is_identity(g)
        } else {
            self.last_support.iter().all(|&x| g[x as usize] == x)
        }
    }

    /// The plain sift on whole permutations (for residues that leave a level's support).
    pub(crate) fn sift_full(&self, g: &mut [u16], from: usize) -> Sifted {
        let n = self.n;
        for (j, l) in self.levels.iter().enumerate().skip(from) {
            let k = l.pos[g[l.base] as usize];
            if k == NONE {
                return Sifted::OutOfOrbit(j);
            }
            if k != 0 {
                raw::then_assign(g, l.inv_rep(k as usize, n));
            }
        }
        if raw::is_identity(g) {
            Sifted::Member
        } else {
            Sifted::Residue
        }
    }

    /// The heap bytes the chain holds.
    pub fn bytes(&self) -> u64 {
        let gens: u64 = self.gens.iter().map(|g| g.capacity() as u64 * 2 + 24).sum();
        gens + self.levels.iter().map(Level::bytes).sum::<u64>()
    }

    /// Recomputes the supports of levels `changed` (their generators changed) and the drop
    /// lists they touch: those levels' and the next one's (a drop list reads the level
    /// before). Levels past them keep theirs.
    fn refresh_supports(
        &mut self,
        changed: std::ops::Range<usize>,
        ctl: &Control,
    ) -> Result<(), Interrupt> {
        let n = self.n;
        let len = self.levels.len();
        for j in changed.start..changed.end.min(len) {
            let l = &mut self.levels[j];
            l.support.clear();
            l.support
                .extend((0..n).filter(|&x| l.moved[x]).map(|x| x as u16));
        }
        for j in changed.start..(changed.end + 1).min(len) {
            if j % 64 == 0 {
                ctl.check()?;
            }
            let (before, rest) = self.levels.split_at_mut(j);
            let l = &mut rest[0];
            let prev: Option<&[bool]> = before.last().map(|p| &p.moved[..]);
            l.drop.clear();
            l.drop.extend(
                (0..n)
                    .filter(|&x| !l.moved[x] && prev.is_none_or(|p| p[x]))
                    .map(|x| x as u16),
            );
        }
        self.last_support = self
            .levels
            .last()
            .map(|l| l.support.clone())
            .unwrap_or_default();
        Ok(())
    }

    pub fn contains(&self, g: &[u16]) -> bool {
        let mut h = g.to_vec();
        matches!(self.sift(&mut h, 0), Sifted::Member)
    }

    /// Adds a level with this base point at the end.
    pub(crate) fn push_level(&mut self, base: usize, ctl: &Control) -> Result<(), Interrupt> {
        ctl.reserve(
            "the stabiliser chain",
            self.bytes() + Level::new_bytes(self.n),
        )?;
        self.levels.push(Level::new(base, self.n));
        let j = self.levels.len() - 1;
        self.refresh_supports(j..j + 1, ctl)
    }

    /// Adds `g` (fixing the bases of levels `0..at`) as a strong generator of levels `0..=at`,
    /// creating level `at` with base `new_base` if it does not exist.
    pub(crate) fn add_gen(
        &mut self,
        g: Vec<u16>,
        at: usize,
        new_base: Option<usize>,
        ctl: &Control,
    ) -> Result<(), Interrupt> {
        if at == self.levels.len() {
            let b = new_base
                .or_else(|| raw::first_moved(&g))
                .expect("a new level needs a moved point");
            self.push_level(b, ctl)?;
        }
        let s = self.gens.len() as u32;
        for j in 0..=at {
            for (x, &y) in g.iter().enumerate() {
                if x != y as usize {
                    self.levels[j].moved[x] = true;
                }
            }
        }
        self.gens.push(g);
        for j in 0..=at {
            self.levels[j].gens.push(s);
            self.extend_orbit(j, s, ctl)?;
        }
        self.refresh_supports(0..at + 1, ctl)
    }

    /// Extends the orbit of level `j` after generator `s` was added to it. Each orbit
    /// point takes two rows of `n` images: the growth is reserved before it is made (one
    /// level of `points 65536` with a long cycle would hold 16 GiB).
    fn extend_orbit(&mut self, j: usize, s: u32, ctl: &Control) -> Result<(), Interrupt> {
        let n = self.n;
        let others = self.bytes() - self.levels[j].bytes();
        let gens = &self.gens;
        let l = &mut self.levels[j];
        let old = l.orbit.len();
        let mut idx = 0;
        while idx < l.orbit.len() {
            let beta = l.orbit[idx] as usize;
            let apply: &[u32] = if idx < old {
                std::slice::from_ref(&s)
            } else {
                &l.gens[..]
            };
            let apply = apply.to_vec();
            if idx % 64 == 0 {
                ctl.check()?;
            }
            for &gi in &apply {
                let g = &gens[gi as usize];
                let gamma = g[beta] as usize;
                if l.pos[gamma] == NONE {
                    if l.reps.len() + n > l.reps.capacity() {
                        // Room for half as many points again; while the rows are
                        // copied the old ones are held too.
                        let rows = l.orbit.len() + l.orbit.len() / 2 + 1;
                        let grown = (rows * n - l.reps.len()) as u64 * 4;
                        let copied = l.reps.capacity() as u64 * 2;
                        ctl.reserve("the stabiliser chain", others + l.bytes() + grown + copied)?;
                        l.reps.reserve_exact(rows * n - l.reps.len());
                        l.inv.reserve_exact(rows * n - l.inv.len());
                    }
                    let k = l.orbit.len();
                    l.pos[gamma] = k as u32;
                    l.orbit.push(gamma as u16);
                    let rep = raw::then(l.rep(idx, n), g);
                    let inv = raw::inverse(&rep);
                    l.reps.extend_from_slice(&rep);
                    l.inv.extend_from_slice(&inv);
                    l.parent.push((idx as u32, gi));
                }
            }
            idx += 1;
        }
        Ok(())
    }

    /// Drops strong generators a level does not need: bottom up, a level keeps the next
    /// level's generators plus, from its own, only those that enlarge the orbit until it is
    /// as large as before. Transversals are rebuilt. Verification afterwards makes the
    /// smaller generating sets certain (fewer Schreier generators to sift).
    pub fn prune(&mut self, ctl: &Control) -> Result<(), Interrupt> {
        let n = self.n;
        let levels = self.levels.len();
        let mut home = vec![0usize; self.gens.len()];
        for (j, l) in self.levels.iter().enumerate() {
            for &s in &l.gens {
                home[s as usize] = home[s as usize].max(j);
            }
        }
        let mut kept: Vec<u32> = Vec::new();
        let mut plan: Vec<Vec<u32>> = vec![Vec::new(); levels];
        for j in (0..levels).rev() {
            let l = &self.levels[j];
            let target = l.orbit.len();
            let mut chosen = kept.clone();
            let mut in_orbit = vec![false; n];
            in_orbit[l.base] = true;
            let mut orbit = vec![l.base];
            let candidates = l.gens.iter().copied().filter(|s| !kept.contains(s));
            let mut own: Vec<u32> = candidates.collect();
            own.sort_by_key(|&s| std::cmp::Reverse(home[s as usize] == j));
            for s in own {
                if orbit.len() == target {
                    break;
                }
                let g = &self.gens[s as usize];
                if orbit.iter().all(|&x| in_orbit[g[x] as usize]) {
                    continue;
                }
                chosen.push(s);
                let mut i = 0;
                while i < orbit.len() {
                    for &c in &chosen {
                        let y = self.gens[c as usize][orbit[i]] as usize;
                        if !in_orbit[y] {
                            in_orbit[y] = true;
                            orbit.push(y);
                        }
                    }
                    i += 1;
                }
            }
            if orbit.len() != target {
                return Ok(()); // keep the chain as it is
            }
            plan[j] = chosen.clone();
            kept = chosen;
        }
        for (j, gens) in plan.into_iter().enumerate() {
            let base = self.levels[j].base;
            self.levels[j] = Level::new(base, n);
            for s in gens {
                for (x, &y) in self.gens[s as usize].iter().enumerate() {
                    if x != y as usize {
                        self.levels[j].moved[x] = true;
                    }
                }
                self.levels[j].gens.push(s);
                self.extend_orbit(j, s, ctl)?;
            }
        }
        self.refresh_supports(0..levels, ctl)
    }

    /// Adds the residue of a failed sift (`Sifted::OutOfOrbit(j)` or `Residue`).
    pub(crate) fn add_residue(
        &mut self,
        h: Vec<u16>,
        how: Sifted,
        ctl: &Control,
    ) -> Result<usize, Interrupt> {
        let j = match how {
            Sifted::OutOfOrbit(j) => j,
            Sifted::Residue => self.levels.len(),
            Sifted::Member => unreachable!(),
        };
        self.add_gen(h, j, None, ctl)?;
        Ok(j)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn cyc(n: usize, cycles: &[&[usize]]) -> Vec<u16> {
        let mut p = raw::identity(n);
        for c in cycles {
            for k in 0..c.len() {
                p[c[k]] = c[(k + 1) % c.len()] as u16;
            }
        }
        p
    }

    #[test]
    fn verification_completes_a_short_random_phase() {
        // With the random phase cut off the chain may be incomplete; verification fixes it.
        let ctl = Control::default();
        let gens = [
            cyc(10, &[&[0, 1]]),
            cyc(10, &[&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]),
        ];
        let mut c = Chain::empty(10);
        for g in &gens {
            let at = c
                .levels
                .iter()
                .position(|l| g[l.base] as usize != l.base)
                .unwrap_or(c.levels.len());
            c.add_gen(g.clone(), at, None, &ctl).unwrap();
        }
        verify(&mut c, None, &ctl).unwrap();
        assert_eq!(c.order(), BigUint::from(3_628_800u32));
    }
}
