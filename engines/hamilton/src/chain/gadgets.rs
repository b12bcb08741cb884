//! Gadgets for [`super::joins`]: identities `d_0 e_1 d_1 ... e_k d_k = v` (each `d_i`
//! the new letter or its inverse, each `e_i` the effect of a Hamilton path of the group
//! below, `v` a letter of it), found by meeting in the middle over a short list of
//! effects.

use crate::subgroup::CosetKey;
use puz_core::{Alphabet, Perm};
use std::collections::HashMap;

/// `d_0 e_1 d_1 ... e_k d_k = host`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gadget {
    pub host: u32,
    /// `k + 1` letters, each the new letter or its inverse.
    pub connectors: Vec<u32>,
    /// `k` indices into the list of effects (paths) given to the search.
    pub effects: Vec<usize>,
}

impl Gadget {
    /// The cosets it adds.
    pub fn size(&self) -> usize {
        self.effects.len()
    }

    /// Whether the identity holds for these effects.
    pub fn holds(&self, alpha: &Alphabet, effects: &[Perm]) -> bool {
        let mut p = alpha.perms[self.connectors[0] as usize].clone();
        for (e, c) in self.effects.iter().zip(&self.connectors[1..]) {
            p = p.then(&effects[*e]).then(&alpha.perms[*c as usize]);
        }
        p == alpha.perms[self.host as usize]
    }

    /// Whether the cosets it walks differ from each other and from its host's. Placed at
    /// `y`, it walks the cosets of `y·u_i` (`u_0 = 1` the host's, `u_1 = d_0`, `u_{i+1} =
    /// u_i e_i d_i`), and `y·u_i`, `y·u_j` share a coset exactly when `u_i⁻¹ u_j` lies in
    /// the group below, whatever `y` is: checked once, at the identity.
    pub fn walks_distinct_cosets(
        &self,
        alpha: &Alphabet,
        effects: &[Perm],
        below: &dyn CosetKey,
    ) -> bool {
        let n = alpha.perms[self.host as usize].degree();
        let mut u = Perm::identity(n);
        let mut keys = vec![below.key(&u)];
        u = u.then(&alpha.perms[self.connectors[0] as usize]);
        for (e, c) in self.effects.iter().zip(&self.connectors[1..]) {
            let key = below.key(&u);
            if keys.contains(&key) {
                return false;
            }
            keys.push(key);
            u = u.then(&effects[*e]).then(&alpha.perms[*c as usize]);
        }
        true
    }
}

/// Connectors and effect indices of half a gadget.
type Half = (Vec<u32>, Vec<usize>);

/// Gadgets of `k` cosets (`k >= 1`) over `effects`, for the hosts `hosts` and the new
/// letter `d`: every identity `d_0 e_1 ... e_k d_k = v`, by meeting in the middle.
pub fn find_gadgets(
    alpha: &Alphabet,
    hosts: &[u32],
    d: u32,
    effects: &[Perm],
    k: usize,
) -> Vec<Gadget> {
    let conn = {
        let di = alpha.inverse[d as usize];
        if di == d {
            vec![d]
        } else {
            vec![d, di]
        }
    };
    // Left: d_0 e_1 d_1 ... e_h d_h; right: e_{h+1} d_{h+1} ... e_k d_k.
    let h = k / 2;
    let mut left: HashMap<Perm, Vec<Half>> = HashMap::new();
    let mut halves: Vec<Part> = vec![(
        alpha.perms[conn[0] as usize].clone(),
        vec![conn[0]],
        Vec::new(),
    )];
    if conn.len() == 2 {
        halves.push((alpha.perms[conn[1] as usize].clone(), vec![conn[1]], vec![]));
    }
    let halves = grow(alpha, halves, effects, &conn, h);
    for (p, cs, es) in halves {
        left.entry(p).or_default().push((cs, es));
    }
    let n = alpha.perms[d as usize].degree();
    let right = grow(
        alpha,
        vec![(Perm::identity(n), Vec::new(), Vec::new())],
        effects,
        &conn,
        k - h,
    );
    let mut out = Vec::new();
    for (p, cs, es) in &right {
        let pi = p.inverse();
        for &v in hosts {
            let want = alpha.perms[v as usize].then(&pi);
            if let Some(ls) = left.get(&want) {
                for (lc, le) in ls {
                    let mut connectors = lc.clone();
                    connectors.extend_from_slice(cs);
                    let mut effs = le.clone();
                    effs.extend_from_slice(es);
                    out.push(Gadget {
                        host: v,
                        connectors,
                        effects: effs,
                    });
                }
            }
        }
    }
    out
}

/// A product so far, its connectors and its effect indices.
type Part = (Perm, Vec<u32>, Vec<usize>);

/// Every extension of `parts` by `times` more (effect, connector) pairs.
fn grow(
    alpha: &Alphabet,
    mut parts: Vec<Part>,
    effects: &[Perm],
    conn: &[u32],
    times: usize,
) -> Vec<Part> {
    for _ in 0..times {
        let mut next = Vec::with_capacity(parts.len() * effects.len() * conn.len());
        for (p, cs, es) in &parts {
            for (ei, e) in effects.iter().enumerate() {
                for &c in conn {
                    let mut cs2 = cs.clone();
                    cs2.push(c);
                    let mut es2 = es.clone();
                    es2.push(ei);
                    next.push((p.then(e).then(&alpha.perms[c as usize]), cs2, es2));
                }
            }
        }
        parts = next;
    }
    parts
}
