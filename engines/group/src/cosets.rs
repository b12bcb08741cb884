//! Exact keys of cosets: for a subgroup `H` with a stabiliser chain, a canonical
//! representative of the left coset `x·H = {x.then(h)}`, computed without enumerating `H`.
//!
//! `x·H` is the inverse of the right coset `H·x⁻¹`, so a canonical element of `H·y`
//! (`y = x⁻¹`) names `x·H`. The minimal base image: at level `j` of `H`'s chain, among the
//! orbit `Δ_j` of the base point choose the point `β` whose image under the current `y`
//! is least, and replace `y` by `t_β·y` (`t_β` the transversal element sending the base
//! point to `β`). The result is the element of `H·y` whose images of `H`'s base points are
//! lexicographically least; a base determines an element of `H`, so it is unique. The cost
//! is the sum of the orbit lengths plus a composition on `H`'s support per level.

use crate::chain::{self, BuildOptions, Chain};
use crate::group::Group;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use puz_core::{Control, Interrupt, Perm};

struct KeyLevel {
    /// Orbit points of the base point.
    orbit: Vec<u16>,
    /// Row `k`: the transversal element sending the base point to `orbit[k]` (full images).
    reps: Vec<u16>,
}

/// Canonical coset representatives of one subgroup.
pub struct CosetKeys {
    n: usize,
    levels: Vec<KeyLevel>,
    /// Points `H` moves: transversal elements act only there.
    support: Vec<u16>,
    /// Points whose images name the canonical element (all points, or a base of a group
    /// holding every coset representative asked about).
    key_points: Vec<u16>,
    order: BigUint,
}

impl CosetKeys {
    /// Keys of the left cosets of `h`. With `within` (a group containing `h` and every
    /// element whose coset is asked for), a key is the canonical element's images of a
    /// base of `within` (a base determines a member); otherwise all its images.
    pub fn new(h: &Group, within: Option<&Group>, ctl: &Control) -> Result<CosetKeys, Interrupt> {
        let n = h.degree();
        let gens: Vec<Vec<u16>> = h.generators().iter().map(|p| p.images().to_vec()).collect();
        let order = h.order();
        let opts = BuildOptions {
            base: &h.base(),
            target: Some(&order),
            verify: true,
            seed: 11,
        };
        let chain = chain::build(n, &gens, &opts, ctl)?;
        debug_assert_eq!(chain.order(), order);
        let key_points = match within {
            Some(g) => g.base().into_iter().map(|b| b as u16).collect(),
            None => (0..n as u16).collect(),
        };
        Ok(CosetKeys::from_chain(&chain, key_points, order))
    }

    fn from_chain(chain: &Chain, key_points: Vec<u16>, order: BigUint) -> CosetKeys {
        let n = chain.n;
        let mut moved = vec![false; n];
        for g in &chain.gens {
            for (x, &y) in g.iter().enumerate() {
                if x != y as usize {
                    moved[x] = true;
                }
            }
        }
        let levels = chain
            .levels
            .iter()
            .map(|l| KeyLevel {
                orbit: l.orbit.clone(),
                reps: l.reps.clone(),
            })
            .collect();
        CosetKeys {
            n,
            levels,
            support: (0..n).filter(|&x| moved[x]).map(|x| x as u16).collect(),
            key_points,
            order,
        }
    }

    pub fn degree(&self) -> usize {
        self.n
    }

    /// The order of the subgroup.
    pub fn order(&self) -> &BigUint {
        &self.order
    }

    /// The order as a `u128` (saturating).
    pub fn order_u128(&self) -> u128 {
        self.order.to_u128().unwrap_or(u128::MAX)
    }

    /// The number of entries of a key.
    pub fn key_len(&self) -> usize {
        self.key_points.len()
    }

    /// The canonical element of the right coset `H·y`, in place (`y` as images).
    pub fn canonical_right(&self, y: &mut [u16]) {
        let n = self.n;
        let mut small = [0u16; 256];
        let mut big = Vec::new();
        let tmp: &mut [u16] = if self.support.len() <= small.len() {
            &mut small[..self.support.len()]
        } else {
            big.resize(self.support.len(), 0);
            &mut big
        };
        for l in &self.levels {
            let mut best = 0;
            let mut best_img = u16::MAX;
            for (k, &beta) in l.orbit.iter().enumerate() {
                let img = y[beta as usize];
                if img < best_img {
                    best_img = img;
                    best = k;
                }
            }
            if best != 0 {
                let t = &l.reps[best * n..(best + 1) * n];
                for (o, &p) in tmp.iter_mut().zip(&self.support) {
                    *o = y[t[p as usize] as usize];
                }
                for (&o, &p) in tmp.iter().zip(&self.support) {
                    y[p as usize] = o;
                }
            }
        }
    }

    /// The key of the left coset `x·H` (`x` as images) into `out`: equal keys exactly
    /// when `x⁻¹·x'` lies in `H`.
    pub fn left_key(&self, x: &[u16], out: &mut Vec<u16>) {
        let mut small = [0u16; 256];
        let mut big = Vec::new();
        let y: &mut [u16] = if self.n <= small.len() {
            &mut small[..self.n]
        } else {
            big.resize(self.n, 0);
            &mut big
        };
        for (i, &v) in x.iter().enumerate() {
            y[v as usize] = i as u16;
        }
        self.canonical_right(y);
        out.clear();
        out.extend(self.key_points.iter().map(|&p| y[p as usize]));
    }

    /// A canonical member of the left coset `x·H` (the inverse of the canonical element of
    /// `H·x⁻¹`).
    pub fn left_representative(&self, x: &Perm) -> Perm {
        let mut y = x.inverse().images().to_vec();
        self.canonical_right(&mut y);
        Perm::from_images_unchecked(y).inverse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puz_core::Alphabet;
    use std::collections::{HashMap, HashSet};

    fn perm(n: usize, cycles: &[&[usize]]) -> Perm {
        Perm::from_cycles(n, &cycles.iter().map(|c| c.to_vec()).collect::<Vec<_>>()).unwrap()
    }

    fn alphabet(perms: Vec<Perm>) -> Alphabet {
        let mut all = Vec::new();
        for p in perms {
            let i = p.inverse();
            all.push(p.clone());
            if i != p {
                all.push(i);
            }
        }
        let names = (0..all.len()).map(|k| format!("g{k}")).collect();
        Alphabet::new(names, all).unwrap()
    }

    fn elements(gens: &[Perm]) -> Vec<Perm> {
        let mut seen: HashSet<Perm> = HashSet::new();
        let id = Perm::identity(gens[0].degree());
        seen.insert(id.clone());
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() {
            for g in gens {
                let y = out[i].then(g);
                if seen.insert(y.clone()) {
                    out.push(y);
                }
            }
            i += 1;
        }
        out
    }

    /// Every element of `G` keyed: same key exactly when in the same left coset, and the
    /// number of keys is the index.
    fn against_brute_force(n: usize, g_gens: Vec<Perm>, h_idx: &[usize], within: bool) {
        let ctl = Control::default();
        let a = alphabet(g_gens.clone());
        let all: Vec<u32> = (0..a.len() as u32).collect();
        let g = Group::new(n, &a, &all, &Default::default(), &ctl).unwrap();
        let h_letters: Vec<u32> = h_idx
            .iter()
            .map(|&i| a.perms.iter().position(|p| *p == g_gens[i]).unwrap() as u32)
            .collect();
        let h = Group::new(n, &a, &h_letters, &Default::default(), &ctl).unwrap();
        let keys = CosetKeys::new(&h, within.then_some(&g), &ctl).unwrap();
        let h_elems: HashSet<Perm> = elements(&h.generators()).into_iter().collect();
        assert_eq!(BigUint::from(h_elems.len()), *keys.order());
        let mut classes: HashMap<Vec<u16>, Vec<Perm>> = HashMap::new();
        let mut out = Vec::new();
        for x in elements(&g.generators()) {
            keys.left_key(x.images(), &mut out);
            let rep = keys.left_representative(&x);
            assert!(
                h_elems.contains(&x.inverse().then(&rep)),
                "rep in the coset"
            );
            classes.entry(out.clone()).or_default().push(x);
        }
        let index = g.order() / h.order();
        assert_eq!(BigUint::from(classes.len()), index);
        let mut reps = HashSet::new();
        for members in classes.values() {
            assert_eq!(members.len(), h_elems.len());
            let x0 = members[0].inverse();
            for x in members {
                assert!(h_elems.contains(&x0.then(x)));
            }
            assert!(reps.insert(keys.left_representative(&members[0])));
        }
    }

    #[test]
    fn cosets_of_subgroups_of_s6() {
        let a = perm(6, &[&[0, 1, 2, 3, 4, 5]]);
        let b = perm(6, &[&[0, 1]]);
        let c = perm(6, &[&[1, 2, 3]]);
        against_brute_force(6, vec![a.clone(), b.clone(), c.clone()], &[1, 2], false);
        against_brute_force(6, vec![a.clone(), b.clone(), c.clone()], &[0], true);
        against_brute_force(6, vec![a, b, c], &[2], true);
    }

    #[test]
    fn cosets_in_jaaps_six_piece_puzzle() {
        // R, L, U turn three of six pieces; <R, L> has 60 elements, 6 cosets.
        let r = perm(6, &[&[0, 1, 2]]);
        let l = perm(6, &[&[2, 3, 4]]);
        let u = perm(6, &[&[0, 4, 5]]);
        against_brute_force(6, vec![r.clone(), l.clone(), u.clone()], &[0, 1], true);
        against_brute_force(6, vec![r, l, u], &[0], false);
    }

    #[test]
    fn cosets_with_orientation_points() {
        // Two "corners" with three orientation points each, twisted and swapped.
        let swap = perm(6, &[&[0, 3], &[1, 4], &[2, 5]]);
        let twist = perm(6, &[&[0, 1, 2], &[3, 5, 4]]);
        let spin = perm(6, &[&[0, 1, 2]]);
        against_brute_force(
            6,
            vec![swap.clone(), twist.clone(), spin.clone()],
            &[1],
            true,
        );
        against_brute_force(6, vec![swap, twist, spin], &[0, 1], false);
    }
}
