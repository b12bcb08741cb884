//! Rotation-extension (Posa) over the cycles of a cover, and the rotation step it shares
//! with the coset method's library of Hamilton paths.

use super::graph::{Graph, NONE};
use super::rng::Rng;
use puz_core::{Control, Interrupt};

/// A path through distinct vertices and each vertex's place on it (`NONE` when off it).
pub(super) struct Path {
    pub(super) path: Vec<u32>,
    pub(super) pos: Vec<u32>,
}

impl Path {
    /// An empty path over vertices `0..space`, with room for `capacity` of them.
    pub(super) fn new(space: usize, capacity: usize) -> Path {
        Path {
            path: Vec::with_capacity(capacity),
            pos: vec![NONE; space],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.path.len()
    }

    pub(super) fn push(&mut self, v: u32) {
        self.pos[v as usize] = self.path.len() as u32;
        self.path.push(v);
    }

    pub(super) fn end(&self) -> u32 {
        *self.path.last().unwrap()
    }

    /// The places `i` where a rotation can pivot: the end is adjacent to `path[i]`, which
    /// is neither the end nor the vertex before it.
    pub(super) fn pivots(&self, g: &Graph) -> Vec<usize> {
        let end = self.end();
        (0..g.letters.len())
            .map(|s| self.pos[g.step(end, s) as usize] as usize)
            .filter(|&i| i + 2 < self.path.len())
            .collect()
    }

    /// The rotation at pivot `i`: `path[i+1..]` reversed, so `path[i+1]` is the new end.
    pub(super) fn rotate(&mut self, i: usize) {
        self.path[i + 1..].reverse();
        for (k, &v) in self.path.iter().enumerate().skip(i + 1) {
            self.pos[v as usize] = k as u32;
        }
    }
}

/// Appends the cycle of the cover `slot` through `w`, from `w` once around.
fn absorb(g: &Graph, slot: &[u8], w: u32, p: &mut Path) {
    let mut x = w;
    loop {
        p.push(x);
        x = g.step(x, slot[x as usize] as usize);
        if x == w {
            break;
        }
    }
}

/// Rotation-extension (Posa) over the cycles of a cover: the path absorbs a whole cycle
/// when its end has a neighbour on one (entering it there and going once around), and
/// otherwise rotates (the end is adjacent to `path[i]`: reverse `path[i+1..]`). At the end
/// it rotates until the end is adjacent to the start. Returns the letter leaving each
/// vertex, or `None` after `budget` rotations.
pub(super) fn posa(
    g: &Graph,
    slot: &[u8],
    ctl: &Control,
    budget: u64,
) -> Result<Option<Vec<u8>>, Interrupt> {
    let n = g.count as usize;
    let nl = g.letters.len();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut p = Path::new(slot.len(), n);
    absorb(g, slot, g.id, &mut p);
    let mut rotations = 0u64;
    while rotations < budget {
        ctl.check()?;
        let end = p.end();
        if p.len() == n {
            if (0..nl).any(|s| g.step(end, s) == p.path[0]) {
                let path = &p.path;
                let mut out = vec![0u8; slot.len()];
                for k in 0..n {
                    out[path[k] as usize] = g.letter(path[k], path[(k + 1) % n]);
                }
                return Ok(Some(out));
            }
        } else if let Some(w) = (0..nl)
            .map(|s| g.step(end, s))
            .find(|&w| p.pos[w as usize] == NONE)
        {
            absorb(g, slot, w, &mut p);
            continue;
        }
        // Rotate, preferring a new end that can absorb or close.
        let cands = p.pivots(g);
        if cands.is_empty() {
            return Ok(None);
        }
        let good = |i: usize| {
            let e = p.path[i + 1];
            (0..nl).any(|s| {
                let w = g.step(e, s);
                if p.len() == n {
                    w == p.path[0]
                } else {
                    p.pos[w as usize] == NONE
                }
            })
        };
        let i = cands
            .iter()
            .copied()
            .find(|&i| good(i))
            .unwrap_or_else(|| cands[rng.below(cands.len())]);
        rotations += 1;
        p.rotate(i);
    }
    Ok(None)
}
