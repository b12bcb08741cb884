//! The first step: cover the graph with disjoint cycles, an alternating word `(a b)^m` from
//! every even vertex when the graph is bipartite (Norskog: `(U R)^105` covers `<U,R>` with
//! 210-cycles), else the cosets of `<a>` for a letter `a` of largest order.

use super::graph::{Graph, NONE};
use super::Stats;
use puz_core::{Alphabet, Control, Interrupt, Perm};

/// Disjoint cycles through every vertex.
pub(super) struct Cover {
    /// The local letter leaving each vertex.
    pub(super) slot: Vec<u8>,
    /// Each vertex's cycle.
    pub(super) cid: Vec<u32>,
    /// The number of cycles.
    pub(super) cycles: u32,
}

/// The cover of `g` (whose local letters have the permutations `perms`), described in
/// `stats`.
pub(super) fn cover(
    g: &Graph,
    alpha: &Alphabet,
    perms: &[Perm],
    ctl: &Control,
    stats: &mut Stats,
) -> Result<Cover, Interrupt> {
    let n = g.space();
    let nl = g.letters.len();
    let mut slot = vec![u8::MAX; n as usize];
    let mut cid = vec![NONE; n as usize];
    let mut cycles = 0u32;
    let pair = if g.bipartite {
        best_pair(perms, &g.inv)
    } else {
        None
    };
    let mut covered = false;
    if let Some((a, b)) = pair {
        covered = alternating_cover(g, a, b, &mut slot, &mut cid, &mut cycles, ctl)?;
        if covered {
            stats.cover = format!(
                "({} {})^m",
                alpha.names[g.letters[a]], alpha.names[g.letters[b]]
            );
        } else {
            slot.iter_mut().for_each(|x| *x = u8::MAX);
            cid.iter_mut().for_each(|x| *x = NONE);
            cycles = 0;
        }
    }
    if !covered {
        let a = (0..nl).max_by_key(|&l| order(&perms[l])).unwrap();
        for v in 0..n {
            if !g.is_valid(v) || cid[v as usize] != NONE {
                continue;
            }
            let mut x = v;
            loop {
                cid[x as usize] = cycles;
                slot[x as usize] = a as u8;
                x = g.step(x, a);
                if x == v {
                    break;
                }
            }
            cycles += 1;
        }
        stats.cover = format!("cosets of <{}>", alpha.names[g.letters[a]]);
    }
    stats.cycles = cycles as u64;
    let cycles_text = puz_core::count(cycles, "cycle");
    ctl.progress(&format!("hamilton: {cycles_text} from {}", stats.cover));
    Ok(Cover { slot, cid, cycles })
}

fn order(p: &Perm) -> u64 {
    p.order().try_into().unwrap_or(u64::MAX)
}

/// Local letters `a`, `b` (not inverse of each other, not equal) with `a b` of largest order.
pub(super) fn best_pair(perms: &[Perm], inv: &[usize]) -> Option<(usize, usize)> {
    let n = perms.len();
    let mut best: Option<(u64, usize, usize)> = None;
    for a in 0..n {
        for b in 0..n {
            if a == b || inv[a] == b || perms[a] == perms[b] {
                continue;
            }
            let o = order(&perms[a].then(&perms[b]));
            if best.is_none_or(|(bo, _, _)| o > bo) {
                best = Some((o, a, b));
            }
        }
    }
    best.filter(|&(o, _, _)| o >= 2).map(|(_, a, b)| (a, b))
}

/// Covers the even vertices' alternating cycles; false if they are not disjoint.
fn alternating_cover(
    g: &Graph,
    a: usize,
    b: usize,
    slot: &mut [u8],
    cid: &mut [u32],
    cycles: &mut u32,
    ctl: &Control,
) -> Result<bool, Interrupt> {
    let n = slot.len() as u32;
    for v in 0..n {
        if v % (1 << 14) == 0 {
            ctl.check()?;
        }
        if !g.is_valid(v)
            || g.color[v as usize] != g.color[g.id as usize]
            || cid[v as usize] != NONE
        {
            continue;
        }
        let mut x = v;
        let mut odd = false;
        loop {
            if cid[x as usize] != NONE {
                return Ok(false);
            }
            cid[x as usize] = *cycles;
            let l = if odd { b } else { a };
            slot[x as usize] = l as u8;
            x = g.step(x, l);
            odd = !odd;
            if x == v && !odd {
                break;
            }
        }
        *cycles += 1;
    }
    Ok((0..n).all(|v| !g.is_valid(v) || cid[v as usize] != NONE))
}

#[cfg(test)]
mod big_tests {
    use super::super::graph::build_graph;
    use super::*;
    use puz_testkit::{cycles::*, notation::*};

    #[test]
    #[ignore = "73 million positions: run with --release --ignored"]
    fn three_by_three_u_r_cover() {
        let a = alphabet(&cube3_ur(), &["U", "R"]);
        let all: Vec<usize> = (0..a.len()).collect();
        let ctl = Control::default();
        let g = build_graph(&a, &all, 73_483_200, &ctl).unwrap();
        eprintln!(
            "count {} bipartite {} space {}",
            g.count,
            g.bipartite,
            g.space()
        );
        let n = g.space();
        let mut slot = vec![u8::MAX; n as usize];
        let mut cid = vec![NONE; n as usize];
        let mut cycles = 0;
        let ok = alternating_cover(&g, 0, 2, &mut slot, &mut cid, &mut cycles, &ctl).unwrap();
        eprintln!("alternating {ok} cycles {cycles}");
        assert_eq!(cycles, 73_483_200 / 210);
        assert!(ok);
    }
}
