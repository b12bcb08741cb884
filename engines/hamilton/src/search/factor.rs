//! The cycle cover as undirected cycles, and swaps along alternating cycles on it (a
//! closed walk alternating between edges of the cover and edges off it): the cover keeps
//! degree two everywhere, and the number of cycles after a swap is counted from the
//! positions of the swapped vertices on their cycles, without walking them.

use super::graph::{Graph, NONE};

/// The cover as undirected cycles: each vertex's two neighbours on its cycle, an id per
/// cycle, the position along it, the lengths by id.
pub(super) struct Factor {
    pub(super) nb: Vec<[u32; 2]>,
    pub(super) comp: Vec<u32>,
    pos: Vec<u32>,
    pub(super) len: Vec<u32>,
}

impl Factor {
    /// The neighbour of `cur` on its cycle that is not `prev`.
    pub(super) fn next(&self, prev: u32, cur: u32) -> u32 {
        let [a, b] = self.nb[cur as usize];
        if a != prev {
            a
        } else {
            b
        }
    }

    /// Gives the cycle through `v` a new id and positions; returns its length.
    pub(super) fn label(&mut self, v: u32) -> u64 {
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
    pub(super) fn swap(&mut self, c: &[u32]) {
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
    pub(super) fn count(&self, c: &[u32]) -> (u32, u32) {
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

impl Factor {
    /// The cover whose cycles leave each vertex by the local letter `slot`, and its number
    /// of cycles; `None` when a cycle has fewer than three vertices (no undirected cycle).
    pub(super) fn new(g: &Graph, slot: &[u8], verts: &[u32]) -> Option<(Factor, u32)> {
        let n = g.space() as usize;
        let mut nb = vec![[NONE; 2]; n];
        for &v in verts {
            let w = g.step(v, slot[v as usize] as usize);
            nb[v as usize][0] = w;
            nb[w as usize][1] = v;
        }
        if verts
            .iter()
            .any(|&v| nb[v as usize][0] == nb[v as usize][1] || nb[v as usize][0] == v)
        {
            return None;
        }
        let mut f = Factor {
            nb,
            comp: vec![NONE; n],
            pos: vec![0; n],
            len: Vec::new(),
        };
        let mut comps = 0u32;
        for &v in verts {
            if f.comp[v as usize] == NONE {
                f.label(v);
                comps += 1;
            }
        }
        Some((f, comps))
    }

    /// The length of the cycle through `v`.
    pub(super) fn cycle_len(&self, v: u32) -> u32 {
        self.len[self.comp[v as usize] as usize]
    }

    /// Swaps along the alternating cycle `c` and relabels the cycles it touched; returns
    /// the number of vertices relabelled.
    pub(super) fn apply(&mut self, c: &[u32]) -> u64 {
        self.swap(c);
        let mut fresh = vec![];
        let mut work = 0;
        for &v in c {
            if !fresh.contains(&self.comp[v as usize]) {
                work += self.label(v);
                fresh.push(self.comp[v as usize]);
            }
        }
        work
    }

    /// The vertices of the cycle through `v`, in order.
    pub(super) fn cycle(&self, v: u32) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.cycle_len(v) as usize);
        let (mut prev, mut cur) = (self.nb[v as usize][1], v);
        loop {
            out.push(cur);
            let x = self.next(prev, cur);
            prev = cur;
            cur = x;
            if cur == v {
                return out;
            }
        }
    }

    /// The letter leaving each vertex, each cycle oriented from its first vertex.
    pub(super) fn slots(&self, g: &Graph, verts: &[u32]) -> Vec<u8> {
        let mut out = vec![u8::MAX; g.space() as usize];
        for &v in verts {
            if out[v as usize] != u8::MAX {
                continue;
            }
            let (mut prev, mut cur) = (self.nb[v as usize][1], v);
            loop {
                let x = self.next(prev, cur);
                out[cur as usize] = g.letter(cur, x);
                prev = cur;
                cur = x;
                if cur == v {
                    break;
                }
            }
        }
        out
    }
}
