//! How the symmetries of a reduced table ([`super::symmetric`]) carry its key, by small
//! tables instead of states: the key's set or places part by a table of its values, its
//! orientation part location by location. At location `b` the image holds the turn of
//! location `src(b)`, changed by an amount that depends only on `b`, the turn and whether
//! the piece there is one of the followed pieces (what `symmetric::carries` checks), and
//! that is known from the set or places value.

use super::coords::{Coords, Part};
use crate::model::{CellMap, Model};

/// The orientation part of a key and how each symmetry turns it.
struct OriMap {
    weight: u64,
    size: u64,
    n: usize,
    digits: usize,
    twist: u64,
    /// `src[s * n + b]`: the location whose turn goes to `b`.
    src: Vec<u8>,
    /// `turn[((s * n + b) * 2 + g) * twist + x]`: the turn at `b` when `src(b)` holds a
    /// piece of group `g` (1: followed) turned by `x`.
    turn: Vec<u8>,
}

/// The symmetries' maps of a key.
pub(super) struct KeyMaps {
    syms: usize,
    weight: u64,
    size: u64,
    /// `conj[v * syms + s]`: the set or places value `v` carried by symmetry `s`.
    conj: Vec<u32>,
    /// Per set or places value: the locations its pieces occupy.
    mask: Vec<u64>,
    ori: Option<OriMap>,
}

impl KeyMaps {
    /// The maps of the key made of `key_parts` (one set or places part, at most one
    /// orientation part of the same orbit) with their place values, or `None` for other
    /// keys.
    pub fn new(
        model: &Model,
        c: &Coords,
        key_parts: &[usize],
        key_weights: &[u64],
        maps: &[&CellMap],
    ) -> Option<KeyMaps> {
        let syms = maps.len();
        let (mut sp, mut ori) = (None, None);
        for (&p, &w) in key_parts.iter().zip(key_weights) {
            match &c.parts[p] {
                Part::Ori { .. } if ori.is_none() => ori = Some((p, w)),
                Part::Set { .. } | Part::Places { .. } if sp.is_none() => sp = Some((p, w)),
                _ => return None,
            }
        }
        let (sp, weight) = sp?;
        let pieces = c.parts[sp].pieces()?;
        let o = &model.orbits[c.parts[sp].orbit()];
        let t = o.twist;
        if o.size > 64 {
            return None;
        }
        let size = c.sizes[sp];
        let mut conj = Vec::with_capacity(size as usize * syms);
        let mut mask = Vec::with_capacity(size as usize);
        let mut out = vec![0u8; model.n];
        for v in 0..size {
            let s = c.state_with(model, sp, v);
            mask.push(
                (0..o.size)
                    .filter(|&l| pieces.contains(&(s[o.start + l] / t)))
                    .fold(0u64, |m, l| m | 1 << l),
            );
            for m in maps {
                m.apply(&s, &mut out);
                conj.push(c.part_value(sp, &out) as u32);
            }
        }
        let ori = ori.map(|(p, w)| {
            let n = o.size;
            let (mut src, mut turn) = (Vec::new(), Vec::new());
            // A piece of each group, if the group has one.
            let of = |g: bool| (0..n as u8).find(|x| pieces.contains(x) == g).unwrap_or(0);
            for m in maps {
                for b in 0..n {
                    src.push((m.source(o.start + b) - o.start) as u8);
                    for g in [false, true] {
                        for x in 0..t {
                            turn.push(m.image(o.start + b, of(g) * t + x) % t);
                        }
                    }
                }
            }
            OriMap {
                weight: w,
                size: c.sizes[p],
                n,
                digits: n - o.ori_sum_fixed as usize,
                twist: t as u64,
                src,
                turn,
            }
        });
        Some(KeyMaps {
            syms,
            weight,
            size,
            conj,
            mask,
            ori,
        })
    }

    /// The image of `key` by symmetry `s`.
    #[inline]
    pub fn image(&self, key: u64, s: usize) -> u64 {
        let v = (key / self.weight) % self.size;
        let mut out = self.conj[v as usize * self.syms + s] as u64 * self.weight;
        if let Some(o) = &self.ori {
            let t = o.twist;
            let mut u = (key / o.weight) % o.size;
            let mut x = [0u8; 64];
            let mut sum = 0u64;
            for l in (0..o.digits).rev() {
                x[l] = (u % t) as u8;
                sum += u % t;
                u /= t;
            }
            if o.digits < o.n {
                x[o.n - 1] = ((t - sum % t) % t) as u8;
            }
            let mask = self.mask[v as usize];
            let row = s * o.n;
            let mut y = 0u64;
            for b in 0..o.digits {
                let a = o.src[row + b] as usize;
                let g = ((mask >> a) & 1) as usize;
                y = y * t + o.turn[((row + b) * 2 + g) * t as usize + x[a] as usize] as u64;
            }
            out += y * o.weight;
        }
        out
    }
}
