//! Joins through longer alternating cycles, for Cayley graphs with no 4-cycles to join
//! through (TopSpin's `S`, `T` on 6 discs: no relation shorter than 12 besides `S^6`).

use super::factor::Factor;
use super::graph::Graph;
use super::last_cycles::last_joins;
use super::rng::Rng;
use super::Stats;
use puz_core::{Control, Interrupt};

/// The depth-first search for alternating cycles of up to `2 * kmax` edges on the cycles
/// `nb`, keeping at most `cap` of them.
pub(super) struct Alternation<'a> {
    pub(super) g: &'a Graph,
    pub(super) nb: &'a [[u32; 2]],
    pub(super) kmax: usize,
    pub(super) cap: usize,
}

impl Alternation<'_> {
    /// The closed alternating cycles from `v0` (starting along either of its cycle edges),
    /// within `nodes` calls each way (adding the calls made to `spent`); `on` is all false
    /// and left so.
    pub(super) fn through(
        &self,
        v0: u32,
        on: &mut [bool],
        rng: &mut Rng,
        nodes: u32,
        spent: &mut u64,
    ) -> Vec<Vec<u32>> {
        let mut cands = Vec::new();
        let mut path = vec![v0];
        on[v0 as usize] = true;
        for x in self.nb[v0 as usize] {
            let mut left = nodes;
            on[x as usize] = true;
            path.push(x);
            self.collect(&mut path, on, &mut cands, rng, &mut left);
            *spent += (nodes - left) as u64;
            path.pop();
            on[x as usize] = false;
        }
        on[v0 as usize] = false;
        cands
    }

    /// The neighbours of `u` off its cycle (distinct, not `u`).
    fn others(&self, u: u32) -> Vec<u32> {
        let nb = self.nb;
        let mut out: Vec<u32> = Vec::with_capacity(self.g.letters.len());
        for s in 0..self.g.letters.len() {
            let w = self.g.step(u, s);
            if w != u && w != nb[u as usize][0] && w != nb[u as usize][1] && !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    /// Extends `path` (ending with a cycle edge) by an edge off the cycles and one on them,
    /// in random order, collecting into `out` the closed alternating cycles (at most
    /// `cap`, within `nodes` calls).
    fn collect(
        &self,
        path: &mut Vec<u32>,
        on: &mut [bool],
        out: &mut Vec<Vec<u32>>,
        rng: &mut Rng,
        nodes: &mut u32,
    ) {
        if out.len() >= self.cap || *nodes == 0 {
            return;
        }
        *nodes -= 1;
        let last = *path.last().unwrap();
        let mut ws = self.others(last);
        rng.shuffle(&mut ws);
        for w in ws {
            if w == path[0] && path.len() >= 4 {
                out.push(path.clone());
                continue;
            }
            if on[w as usize] || path.len() / 2 >= self.kmax {
                continue;
            }
            on[w as usize] = true;
            path.push(w);
            let mut xs = self.nb[w as usize];
            if rng.below(2) == 1 {
                xs.swap(0, 1);
            }
            for x in xs {
                if !on[x as usize] {
                    on[x as usize] = true;
                    path.push(x);
                    self.collect(path, on, out, rng, nodes);
                    path.pop();
                    on[x as usize] = false;
                }
            }
            path.pop();
            on[w as usize] = false;
        }
    }
}

/// Joins the cycles of a cover through longer alternating cycles (groups of up to 2^20
/// elements): a closed walk `v0 v1 ... v(2k-1)` whose edges `v(2i) v(2i+1)` are in the cover
/// and whose edges `v(2i+1) v(2i+2)` are not is swapped (the cover keeps degree two
/// everywhere) when that leaves fewer cycles. Cayley graphs of large girth have no
/// 4-cycles to join through, but alternating 12-cycles such as `(S T)^6` do. The count
/// after a swap is found from the positions of the swapped vertices on their cycles (the
/// arcs between removed edges), without walking the cycles. When no swap from a vertex
/// lowers the count, a swap keeping it (and rarely one adding a cycle) is taken now and
/// then to move on; after 500 starts without a merge, [`last_joins`] searches from every
/// vertex of the cycles left, and deeper. Returns the letter leaving each vertex (each
/// cycle oriented) and the number of cycles left (`u32::MAX` when not tried).
pub(super) fn alternating_joins(
    g: &Graph,
    slot: &[u8],
    ctl: &Control,
    size: u64,
    stats: &mut Stats,
) -> Result<(Vec<u8>, u32), Interrupt> {
    if size > 1 << 20 {
        return Ok((slot.to_vec(), u32::MAX));
    }
    let n = g.space() as usize;
    let nl = g.letters.len();
    let verts: Vec<u32> = (0..n as u32).filter(|&v| g.is_valid(v)).collect();
    let Some((mut cv, mut comps)) = Factor::new(g, slot, &verts) else {
        return Ok((slot.to_vec(), u32::MAX));
    };
    ctl.progress(&format!(
        "hamilton: joins through alternating cycles over {comps} cycles"
    ));
    let mut on = vec![false; n];
    // Alternating cycles of up to 2 * kmax edges (fewer when the degree is high).
    let deg = nl.max(3);
    let mut kmax = 2usize;
    while kmax < 12 && (2 * (deg - 2)).pow(kmax as u32 + 1) <= 4096 {
        kmax += 1;
    }
    let mut rng = Rng::new(0x6a09_e667_f3bc_c909);
    let mut work = 0u64;
    let limit = 300_000_000u64;
    let mut stall = 0u64;
    // The stall count at the last merge.
    let mut last = 0u64;
    while comps > 1 {
        if work > limit || stall > last + 500 {
            break;
        }
        ctl.check()?;
        // A start on a small cycle (the smallest of a few random vertices).
        let v0 = (0..8)
            .map(|_| verts[rng.below(verts.len())])
            .min_by_key(|&v| cv.cycle_len(v))
            .unwrap();
        let search = Alternation {
            g,
            nb: &cv.nb,
            kmax,
            cap: 512,
        };
        let mut cands = search.through(v0, &mut on, &mut rng, 2048, &mut 0);
        work += 1000 + cands.iter().map(|c| c.len() as u64 * 4).sum::<u64>();
        rng.shuffle(&mut cands);
        cands.sort_by_key(|c| c.len());
        let mut neutral: Option<usize> = None;
        let mut worse: Option<usize> = None;
        let mut take: Option<usize> = None;
        for (ci, c) in cands.iter().enumerate() {
            let (new, touched) = cv.count(c);
            if touched < 2 {
                continue;
            }
            if new < touched {
                comps = comps - touched + new;
                stats.alternating += 1;
                last = stall;
                take = Some(ci);
                break;
            }
            if new == touched && neutral.is_none() {
                neutral = Some(ci);
            }
            if new == touched + 1 && worse.is_none() {
                worse = Some(ci);
            }
        }
        if take.is_none() {
            stall += 1;
            if stall.is_multiple_of(4) {
                take = neutral;
            }
            if stall.is_multiple_of(64) && worse.is_some() {
                take = worse;
                comps += 1;
            }
        }
        if let Some(ci) = take {
            work += cv.apply(&cands[ci]);
        }
    }
    if comps > 1 {
        comps = last_joins(g, &mut cv, comps, &verts, kmax, ctl, stats)?;
    }
    ctl.progress(&format!(
        "hamilton: {comps} cycles left after joins through alternating cycles"
    ));
    Ok((cv.slots(g, &verts), comps))
}
