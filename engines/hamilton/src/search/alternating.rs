//! Joins through longer alternating cycles, for Cayley graphs with no 4-cycles to join
//! through (TopSpin's `S`, `T` on 6 discs: no relation shorter than 12 besides `S^6`).

use super::graph::{Graph, NONE};
use super::rng::Rng;
use super::Stats;
use puz_core::{Control, Interrupt};

/// The cover as undirected cycles: each vertex's two neighbours on its cycle, an id per
/// cycle, the position along it, the lengths by id.
struct Factor {
    nb: Vec<[u32; 2]>,
    comp: Vec<u32>,
    pos: Vec<u32>,
    len: Vec<u32>,
}

impl Factor {
    /// The neighbour of `cur` on its cycle that is not `prev`.
    fn next(&self, prev: u32, cur: u32) -> u32 {
        let [a, b] = self.nb[cur as usize];
        if a != prev {
            a
        } else {
            b
        }
    }

    /// Gives the cycle through `v` a new id and positions; returns its length.
    fn label(&mut self, v: u32) -> u64 {
        let id = self.len.len() as u32;
        let (mut prev, mut cur) = (self.nb[v as usize][1], v);
        let mut k = 0u32;
        loop {
            self.comp[cur as usize] = id;
            self.pos[cur as usize] = k;
            k += 1;
            let x = self.next(prev, cur);
            prev = cur;
            cur = x;
            if cur == v {
                break;
            }
        }
        self.len.push(k);
        k as u64
    }

    /// Swaps along the alternating cycle `c`.
    fn swap(&mut self, c: &[u32]) {
        let k = c.len();
        for i in (0..k).step_by(2) {
            let (a, b, nxt, prv) = (c[i], c[i + 1], c[(i + 2) % k], c[(i + k - 1) % k]);
            for (v, old, new) in [(a, b, prv), (b, a, nxt)] {
                let e = &mut self.nb[v as usize];
                if e[0] == old {
                    e[0] = new;
                } else {
                    e[1] = new;
                }
            }
        }
    }

    /// The number of cycles the swap along `c` would leave in place of those it touches,
    /// and how many it touches.
    fn count(&self, c: &[u32]) -> (u32, u32) {
        let k = c.len();
        // Removed edges (c[2i], c[2i+1]) as (cycle, position of the lower end, j lower,
        // j upper).
        let mut edges: Vec<(u32, u32, usize, usize)> = (0..k)
            .step_by(2)
            .map(|i| {
                let (a, b) = (c[i] as usize, c[i + 1] as usize);
                let id = self.comp[a];
                let l = self.len[id as usize];
                if (self.pos[a] + 1) % l == self.pos[b] {
                    (id, self.pos[a], i, i + 1)
                } else {
                    (id, self.pos[b], i + 1, i)
                }
            })
            .collect();
        edges.sort_unstable();
        let mut arc = vec![0usize; k];
        let mut touched = 0;
        let mut s = 0;
        while s < edges.len() {
            let mut e = s;
            while e < edges.len() && edges[e].0 == edges[s].0 {
                e += 1;
            }
            touched += 1;
            for i in s..e {
                let nx = if i + 1 < e { i + 1 } else { s };
                arc[edges[i].3] = edges[nx].2;
                arc[edges[nx].2] = edges[i].3;
            }
            s = e;
        }
        let mut seen = vec![false; k];
        let mut cycles = 0;
        for j in 0..k {
            if seen[j] {
                continue;
            }
            cycles += 1;
            let mut x = j;
            loop {
                seen[x] = true;
                let y = arc[x];
                seen[y] = true;
                // The added edge at c[y]: c[2i+1] -- c[2i+2].
                x = if y % 2 == 1 {
                    (y + 1) % k
                } else {
                    (y + k - 1) % k
                };
                if x == j {
                    break;
                }
            }
        }
        (cycles, touched)
    }
}

/// The depth-first search for alternating cycles of up to `2 * kmax` edges on the cycles
/// `nb`.
struct Alternation<'a> {
    g: &'a Graph,
    nb: &'a [[u32; 2]],
    kmax: usize,
}

impl Alternation<'_> {
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
    /// in random order, collecting into `out` the closed alternating cycles (at most 512,
    /// within `nodes` calls).
    fn collect(
        &self,
        path: &mut Vec<u32>,
        on: &mut [bool],
        out: &mut Vec<Vec<u32>>,
        rng: &mut Rng,
        nodes: &mut u32,
    ) {
        if out.len() >= 512 || *nodes == 0 {
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
/// then to move on; it gives up after 5000 starts without a merge. Returns the letter
/// leaving each vertex (each cycle oriented) and the number of cycles left (`u32::MAX`
/// when not tried). TopSpin with 8 discs still ends with a few `<S>` cosets that no
/// alternating cycle of up to 24 edges reaches.
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
    // Factor neighbours (undirected).
    let mut nb = vec![[NONE; 2]; n];
    let verts: Vec<u32> = (0..n as u32).filter(|&v| g.is_valid(v)).collect();
    for &v in &verts {
        let w = g.step(v, slot[v as usize] as usize);
        nb[v as usize][0] = w;
        nb[w as usize][1] = v;
    }
    if verts
        .iter()
        .any(|&v| nb[v as usize][0] == nb[v as usize][1] || nb[v as usize][0] == v)
    {
        return Ok((slot.to_vec(), u32::MAX));
    }
    let mut cv = Factor {
        nb,
        comp: vec![NONE; n],
        pos: vec![0; n],
        len: Vec::new(),
    };
    let mut comps = 0u32;
    for &v in &verts {
        if cv.comp[v as usize] == NONE {
            cv.label(v);
            comps += 1;
        }
    }
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
        if work > limit || stall > last + 5000 {
            break;
        }
        ctl.check()?;
        // A start on a small cycle (the smallest of a few random vertices).
        let v0 = (0..8)
            .map(|_| verts[rng.below(verts.len())])
            .min_by_key(|&v| cv.len[cv.comp[v as usize] as usize])
            .unwrap();
        let mut cands = Vec::new();
        let mut path = vec![v0];
        let search = Alternation {
            g,
            nb: &cv.nb,
            kmax,
        };
        on[v0 as usize] = true;
        for x in cv.nb[v0 as usize] {
            let mut nodes = 2048;
            on[x as usize] = true;
            path.push(x);
            search.collect(&mut path, &mut on, &mut cands, &mut rng, &mut nodes);
            path.pop();
            on[x as usize] = false;
        }
        on[v0 as usize] = false;
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
            let c = &cands[ci];
            cv.swap(c);
            let mut fresh = vec![];
            for &v in c {
                if !fresh.contains(&cv.comp[v as usize]) {
                    work += cv.label(v);
                    fresh.push(cv.comp[v as usize]);
                }
            }
        }
    }
    ctl.progress(&format!(
        "hamilton: {comps} cycles left after joins through alternating cycles of up to {} edges",
        2 * kmax
    ));
    // Each cycle oriented from its first vertex.
    let mut out = vec![u8::MAX; n];
    for &v in &verts {
        if out[v as usize] != u8::MAX {
            continue;
        }
        let (mut prev, mut cur) = (cv.nb[v as usize][1], v);
        loop {
            let x = cv.next(prev, cur);
            out[cur as usize] = g.letter(cur, x);
            prev = cur;
            cur = x;
            if cur == v {
                break;
            }
        }
    }
    Ok((out, comps))
}
