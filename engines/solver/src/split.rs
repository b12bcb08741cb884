//! A puzzle whose letters move each piece among a few of its orbit's places (a subgroup
//! such as the 4x4x4's half turns, where every orbit of 24 falls into orbits of 4), seen
//! as the puzzle whose orbits are those smaller orbits: its tables then rank each piece
//! among the places it can reach, not among the whole orbit's. The points are renumbered
//! (orbit after orbit); positions and letters are carried over by [`Split::carry`].

use crate::metric::Metric;
use puz_core::{NamedMove, Orbit, Perm, Puzzle};

/// A puzzle with its orbits split by its letters' orbits of places.
pub struct Split {
    pub puzzle: Puzzle,
    pub metric: Metric,
    /// `to[x]`: the point of the split puzzle for the point `x` of the given one.
    to: Vec<usize>,
}

/// The places of orbit `o` that the letters reach from each place, as a list of orbits
/// (each sorted, in the order of their first place).
fn place_orbits(o: &Orbit, metric: &Metric) -> Vec<Vec<usize>> {
    let n = o.size;
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for p in &metric.alphabet.perms {
        for l in 0..n {
            let image = p.image(o.point(l, 0));
            if image < o.offset || image >= o.offset + n * o.twist as usize {
                continue;
            }
            let m = (image - o.offset) / o.twist as usize;
            let (a, b) = (root(&mut parent, l), root(&mut parent, m));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut orbits: Vec<Vec<usize>> = Vec::new();
    let mut at = vec![usize::MAX; n];
    for l in 0..n {
        let r = root(&mut parent, l);
        if at[r] == usize::MAX {
            at[r] = orbits.len();
            orbits.push(Vec::new());
        }
        orbits[at[r]].push(l);
    }
    orbits
}

impl Split {
    /// The split puzzle and metric, or `None` when the letters move some piece out of its
    /// orbit or every orbit stays whole.
    pub fn of(puzzle: &Puzzle, metric: &Metric) -> Option<Split> {
        let degree = puzzle.degree();
        let mut to = vec![usize::MAX; degree];
        let mut orbits = Vec::new();
        let mut offset = 0;
        let mut split = false;
        for o in &puzzle.orbits {
            // An orbit no letter moves stays whole (the 3x3x3's centres): split, its
            // places would be orbits of their own, which no symmetry could map onto one
            // another.
            let mut parts = place_orbits(o, metric);
            if parts.iter().all(|p| p.len() == 1) {
                parts = vec![(0..o.size).collect()];
            }
            split |= parts.len() > 1;
            let t = o.twist as usize;
            for (i, places) in parts.iter().enumerate() {
                for (j, &l) in places.iter().enumerate() {
                    for k in 0..t {
                        to[o.point(l, k)] = offset + j * t + k;
                    }
                }
                orbits.push(Orbit {
                    name: if parts.len() > 1 {
                        format!("{}.{i}", o.name)
                    } else {
                        o.name.clone()
                    },
                    size: places.len(),
                    twist: o.twist,
                    labels: if o.labels.is_empty() {
                        Vec::new()
                    } else {
                        places.iter().map(|&l| o.labels[l].clone()).collect()
                    },
                    offset,
                });
                offset += places.len() * t;
            }
        }
        // Points outside every orbit keep their place after the orbits' points.
        for x in to.iter_mut().filter(|x| **x == usize::MAX) {
            *x = offset;
            offset += 1;
        }
        if !split || offset != degree {
            return None;
        }
        let carry = |p: &Perm| -> Perm { carried(&to, p) };
        let mut metric = metric.clone();
        metric.alphabet.perms = metric.alphabet.perms.iter().map(carry).collect();
        let puzzle = Puzzle {
            name: puzzle.name.clone(),
            orbits,
            moves: puzzle
                .moves
                .iter()
                .map(|m| NamedMove {
                    name: m.name.clone(),
                    perm: carry(&m.perm),
                    primitive: m.primitive,
                })
                .collect(),
            expected_order: puzzle.expected_order.clone(),
        };
        // Every letter must keep each new orbit: it does when the given orbits are closed
        // under the letters (a letter leaving one is skipped by `place_orbits`).
        let ok = metric.alphabet.perms.iter().all(|p| {
            puzzle.orbits.iter().all(|o| {
                let span = o.offset..o.offset + o.size * o.twist as usize;
                span.clone().all(|x| span.contains(&p.image(x)))
            })
        });
        ok.then_some(Split { puzzle, metric, to })
    }

    /// A position of the given puzzle as a position of the split one.
    pub fn carry(&self, p: &Perm) -> Perm {
        carried(&self.to, p)
    }
}

/// `p` with its points renamed by `to`: `x -> y` becomes `to[x] -> to[y]`.
fn carried(to: &[usize], p: &Perm) -> Perm {
    let mut images = vec![0u16; to.len()];
    for (x, &t) in to.iter().enumerate() {
        images[t] = to[p.image(x)] as u16;
    }
    Perm::from_images_unchecked(images)
}
