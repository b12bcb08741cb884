//! The coset method, when the joins leave cycles: a Hamilton cycle of a two-letter
//! subgroup `H`, rotated, gives a library of Hamilton paths of `H` with many different
//! effects (rotation-extension with the start fixed); a depth-first search then walks the
//! cosets of `H`, crossing each with one of those paths and stepping to the next coset with
//! a letter outside `H`, and closes when the last coset's needed effect is in the library.
//! The word is assembled by [`crate::coset::splice_items`].

use super::cover::best_pair;
use super::graph::{build_graph, Graph, NONE};
use super::rng::Rng;
use super::rotation::{posa, Path};
use super::{two_factor, HamiltonError, Stats};
use crate::coset::splice_items;
use crate::surgery::Folder;
use puz_core::{Alphabet, Control, Interrupt, Perm, Word};
use std::collections::HashMap;

/// Hamilton paths of `H` from the identity with distinct effects.
#[derive(Default)]
struct Library {
    /// Effect -> path number.
    index: HashMap<Perm, usize>,
    /// The paths, in local letters of `H`'s graph.
    paths: Vec<Vec<u8>>,
    /// The effects by path number.
    effects: Vec<Perm>,
}

impl Library {
    /// Adds the path of vertices `path` of `h` unless its effect is already there.
    fn add(&mut self, h: &Graph, path: &[u32]) {
        let e = h.perm(*path.last().unwrap());
        if !self.index.contains_key(&e) {
            self.index.insert(e.clone(), self.paths.len());
            self.paths
                .push(path.windows(2).map(|w| h.letter(w[0], w[1])).collect());
            self.effects.push(e);
        }
    }

    /// Up to 1500 paths (at most half of `H`): the Hamilton cycle `hslot` of `h` from the
    /// identity without its last edge, then random rotations of it.
    fn build(h: &Graph, hslot: &[u8], rng: &mut Rng, ctl: &Control) -> Result<Library, Interrupt> {
        let nh = h.count;
        let mut p = Path::new(h.space() as usize, nh as usize);
        let mut v = h.id;
        for _ in 0..nh {
            p.push(v);
            v = h.step(v, hslot[v as usize] as usize);
        }
        let mut lib = Library::default();
        let want = 1500usize.min(nh as usize / 2);
        let mut rotations = 0u64;
        lib.add(h, &p.path);
        while lib.paths.len() < want && rotations < 50 * want as u64 {
            ctl.check()?;
            let cands = p.pivots(h);
            if cands.is_empty() {
                break;
            }
            let i = cands[rng.below(cands.len())];
            rotations += 1;
            p.rotate(i);
            lib.add(h, &p.path);
        }
        Ok(lib)
    }
}

/// The coset of every vertex of `g` under the local letters `hl` (flood fill), and the
/// number of cosets.
fn cosets(g: &Graph, hl: &[usize]) -> (Vec<u32>, u32) {
    let mut coset = vec![NONE; g.space() as usize];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for v in 0..g.space() {
        if !g.is_valid(v) || coset[v as usize] != NONE {
            continue;
        }
        coset[v as usize] = next;
        stack.push(v);
        while let Some(x) = stack.pop() {
            for &l in hl {
                let y = g.step(x, l);
                if coset[y as usize] == NONE {
                    coset[y as usize] = next;
                    stack.push(y);
                }
            }
        }
        next += 1;
    }
    (coset, next)
}

/// The depth-first search over the `m` cosets of `H`.
struct CosetWalk<'a> {
    g: &'a Graph,
    coset: &'a [u32],
    lib: &'a Library,
    /// The connecting letters (outside `H`) and their inverses.
    conn_perms: &'a [Perm],
    conn_inv: &'a [Perm],
    m: usize,
    /// The coset entered last (one more connecting letter closes at the identity).
    last: u32,
}

impl CosetWalk<'_> {
    /// Extends the walk at effect `at` after `depth + 1` cosets; `plan` gets (library path,
    /// connecting letter) per coset. False when `budget` calls run out first.
    fn dfs(
        &self,
        depth: usize,
        at: &Perm,
        visited: &mut [bool],
        plan: &mut Vec<(usize, usize)>,
        budget: &mut u64,
        rng: &mut Rng,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if depth + 1 == self.m {
            // Close: out * c = identity.
            let ai = at.inverse();
            for (ci, cinv) in self.conn_inv.iter().enumerate() {
                let d = ai.then(cinv);
                if let Some(&k) = self.lib.index.get(&d) {
                    plan.push((k, ci));
                    return true;
                }
            }
            return false;
        }
        let mut cands: Vec<(usize, usize, Perm, u32)> = Vec::new();
        for (k, e) in self.lib.effects.iter().enumerate() {
            let out = at.then(e);
            for (ci, c) in self.conn_perms.iter().enumerate() {
                let nxt = out.then(c);
                let Some(v) = self.g.vertex(&nxt) else {
                    continue;
                };
                let cs = self.coset[v as usize];
                // The coset holding c' (so that one more c closes at the identity) comes last.
                if !visited[cs as usize] && (cs == self.last) == (depth + 2 == self.m) {
                    cands.push((k, ci, nxt, cs));
                }
            }
        }
        // Random order; near the end try everything, elsewhere a few.
        rng.shuffle(&mut cands);
        let tries = if depth + 3 >= self.m { cands.len() } else { 4 };

        for (k, ci, nxt, cs) in cands.into_iter().take(tries) {
            visited[cs as usize] = true;
            plan.push((k, ci));
            if self.dfs(depth + 1, &nxt, visited, plan, budget, rng) {
                return true;
            }
            plan.pop();
            visited[cs as usize] = false;
        }
        false
    }
}

/// The coset method on the graph `g` of the whole group: the word, or `None` when it does
/// not apply or its search gives up.
pub(super) fn coset_search(
    alpha: &Alphabet,
    g: &Graph,
    ctl: &Control,
    stats: &mut Stats,
) -> Result<Option<Word>, HamiltonError> {
    let perms: Vec<Perm> = alpha.perms.clone();
    let inv: Vec<usize> = alpha.inverse.iter().map(|&i| i as usize).collect();
    let Some((a, b)) = best_pair(&perms, &inv) else {
        return Ok(None);
    };
    let mut hl = vec![a, b, inv[a], inv[b]];
    hl.sort_unstable();
    hl.dedup();
    let conn: Vec<usize> = (0..alpha.len()).filter(|l| !hl.contains(l)).collect();
    let h = build_graph(alpha, &hl, g.count as u64, ctl)?;
    let nh = h.count;
    if nh < 3 || !g.count.is_multiple_of(nh) {
        return Ok(None);
    }
    let mut hstats = Stats::default();
    let (mut hslot, hcomps) = two_factor(&h, alpha, ctl, &mut hstats)?;
    if hcomps > 1 {
        match posa(&h, &hslot, ctl, 20_000)? {
            Some(s) => hslot = s,
            None => return Ok(None),
        }
    }
    // One generator for the library's rotations and then the walk's choices.
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let lib = Library::build(&h, &hslot, &mut rng, ctl)?;
    ctl.progress(&format!(
        "hamilton: {} Hamilton paths of a subgroup of {nh}",
        lib.paths.len()
    ));
    let m = (g.count / nh) as usize;
    let (coset, count) = cosets(g, &hl);
    if count as usize != m {
        return Ok(None);
    }
    let conn_perms: Vec<Perm> = conn.iter().map(|&c| perms[c].clone()).collect();
    let conn_inv: Vec<Perm> = conn_perms.iter().map(|p| p.inverse()).collect();
    let mut visited = vec![false; m];
    visited[coset[g.id as usize] as usize] = true;
    let mut plan: Vec<(usize, usize)> = Vec::new();
    let mut budget = 200_000u64;
    let walk = CosetWalk {
        g,
        coset: &coset,
        lib: &lib,
        conn_perms: &conn_perms,
        conn_inv: &conn_inv,
        m,
        last: coset[g.vertex(&conn_inv[0]).expect("a letter is in the group") as usize],
    };
    let id = Perm::identity(alpha.perms[0].degree());
    if !walk.dfs(0, &id, &mut visited, &mut plan, &mut budget, &mut rng) {
        return Ok(None);
    }
    stats.cover = format!("{m} cosets of a subgroup of {nh} ({})", hstats.cover);
    stats.cycles = m as u64;
    // The word: path, connecting letter, ...
    let items = splice_items(
        plan.iter().map(|&(k, ci)| (k, conn[ci] as u32)),
        |k| format!("H{k}"),
        |k| {
            let mut f = Folder::new();
            for &s in &lib.paths[k] {
                f.push(h.letters[s as usize] as u32);
            }
            Some(f.finish())
        },
    )
    .expect("every library path folds");
    Ok(Some(Word::seq(items)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use puz_testkit::{cycles::*, notation::*, rankers::*};

    #[test]
    fn the_coset_method_alone() {
        // Six-piece puzzle: cosets of a two-letter subgroup, crossed by library paths.
        for (p, moves, size) in [
            (six_piece(), &["R", "L", "U"][..], 360u64),
            (row(5), &["S0", "S1", "S2", "S3"][..], 120),
            (floppy(), &["R", "L", "F", "B"][..], 192),
        ] {
            let a = alphabet(&p, moves);
            let r = EnumRanker::new(&a.perms);
            let all: Vec<usize> = (0..a.len()).collect();
            let ctl = Control::default();
            let g = build_graph(&a, &all, size, &ctl).unwrap();
            let mut stats = Stats::default();
            let w = coset_search(&a, &g, &ctl, &mut stats)
                .unwrap()
                .expect("a coset cycle");
            assert_eq!(w.len(), size as u128);
            let rep = check(
                &w,
                &a,
                &Perm::identity(a.perms[0].degree()),
                &r,
                Mode::Hamilton,
                &ctl,
            )
            .unwrap();
            assert_eq!(rep.kind, Kind::Cycle, "{}: {stats:?}", p.name);
        }
    }
}
