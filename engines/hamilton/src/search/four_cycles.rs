//! The second step: join the cycles of the cover through 4-cycles of the Cayley graph. If
//! `p -g-> q` and `r -h-> s` are edges of two different cycles with `r = q y'` and
//! `s = p x` for letters `x`, `y` (so `g y' h = x`), replace them by `p -x-> s` and
//! `r -y-> q`: one cycle. Passes over all vertices repeat while they join something.

use super::cover::Cover;
use super::graph::Graph;
use super::Stats;
use puz_core::{Control, Interrupt, Perm};

/// Joins the cycles of `cover` (on `g`, whose local letters have the permutations
/// `perms`): the local letter leaving each vertex and the number of cycles left.
pub(super) fn join(
    g: &Graph,
    perms: &[Perm],
    cover: Cover,
    ctl: &Control,
    stats: &mut Stats,
) -> Result<(Vec<u8>, u32), Interrupt> {
    let Cover {
        mut slot,
        cid,
        cycles,
    } = cover;
    let n = g.space();
    let nl = g.letters.len();
    let xtab = four_cycles(perms);
    let mut parent: Vec<u32> = (0..cycles).collect();
    let mut comps = cycles;
    while comps > 1 {
        stats.rounds += 1;
        let before = comps;
        for p in 0..n {
            if p % (1 << 14) == 0 {
                ctl.check()?;
            }
            if !g.is_valid(p) {
                continue;
            }
            let gl = slot[p as usize] as usize;
            let q = g.step(p, gl);
            for y in 0..nl {
                let r = g.step(q, g.inv[y]);
                if r == p {
                    continue;
                }
                let h = slot[r as usize] as usize;
                let x = xtab[(gl * nl + y) * nl + h];
                if x == u8::MAX {
                    continue;
                }
                let (cp, cr) = (
                    find(&mut parent, cid[p as usize]),
                    find(&mut parent, cid[r as usize]),
                );
                if cp == cr {
                    continue;
                }
                slot[p as usize] = x;
                slot[r as usize] = y as u8;
                parent[cr as usize] = cp;
                comps -= 1;
                stats.merges += 1;
                break;
            }
            if comps == 1 {
                break;
            }
        }
        ctl.progress(&format!(
            "hamilton: round {}, {comps} cycles left",
            stats.rounds
        ));
        if comps == before {
            break;
        }
    }
    Ok((slot, comps))
}

/// The union-find root of `x` (halving the path on the way).
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[parent[x as usize] as usize];
        parent[x as usize] = p;
        x = p;
    }
    x
}

/// `x[(g * n + y) * n + h]`: the local letter equal to `g y' h`, or `u8::MAX`.
fn four_cycles(perms: &[Perm]) -> Vec<u8> {
    let n = perms.len();
    let inv: Vec<Perm> = perms.iter().map(|p| p.inverse()).collect();
    let mut t = vec![u8::MAX; n * n * n];
    for g in 0..n {
        for y in 0..n {
            let gy = perms[g].then(&inv[y]);
            for h in 0..n {
                let e = gy.then(&perms[h]);
                if let Some(x) = perms.iter().position(|p| *p == e) {
                    t[(g * n + y) * n + h] = x as u8;
                }
            }
        }
    }
    t
}
