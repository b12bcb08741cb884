//! The fill of a [`Coords`] table reduced by symmetries ([`super::symmetric`]):
//! breadth-first on its nibbles like [`super::coord_fill`], a block being a class (every
//! rest value beside its representative key). A letter sends the representative to one
//! key, whose class and symmetry are found once per block; each entry's rest is moved by
//! the rest parts' move tables and carried by that symmetry. A pushed entry also sets the
//! entries its class's stabiliser makes of it (they hold the same tuples' class, see
//! `symmetric.rs`); a pulled entry is reached by itself, as each of those is.

use super::coord_fill::{backward, get, set};
use super::coords::{Coords, MAX_PARTS};
use super::fill::Meter;
use super::symmetric::Reduction;
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::model::{Action, Model};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Entries a task covers (whole classes, at least one).
const CHUNK: u64 = 1 << 16;

/// What a fill works with.
struct Fill<'a> {
    red: &'a Reduction,
    letters: usize,
    /// Per part: where each letter sends each value, and where it comes from.
    fwd: Vec<Vec<u32>>,
    back: Vec<Vec<u32>>,
}

/// Where a letter sends a class's representative: the first entry of its class, the
/// symmetry taking it there, and the stabiliser of that class.
#[derive(Clone, Copy, Default)]
struct Target {
    base: u64,
    sym: usize,
    stab: u64,
}

impl Fill<'_> {
    /// Sets entry `j` and the entries its class's stabiliser makes of it; how many were
    /// unreached.
    fn push(&self, t: &[AtomicU8], to: &Target, r: u64, d: u8) -> u64 {
        let mut n = 0;
        if get(t, to.base + r) == 15 {
            n += set(t, to.base + r, d + 1) as u64;
            let mut m = to.stab;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let j = to.base + self.red.conj_rest(r, s);
                if get(t, j) == 15 {
                    n += set(t, j, d + 1) as u64;
                }
            }
        }
        n
    }

    /// One level from distance `d` over the classes `lo..hi`: the entries set to `d + 1`.
    fn level(&self, t: &[AtomicU8], d: u8, pull: bool, cost: &[u32], lo: u64, hi: u64) -> u64 {
        let red = self.red;
        let (key_parts, rest_parts) = red.split();
        let l_n = self.letters;
        let moves = if pull { &self.back } else { &self.fwd };
        let unit = cost.iter().all(|&c| c == 1);
        let rest = red.rest_size;
        let mut to = vec![Target::default(); l_n];
        let mut v = [0u32; MAX_PARTS];
        let mut n = 0u64;
        for class in lo..hi {
            let base = class * rest;
            let mut ready = false;
            for r in 0..rest {
                let x = get(t, base + r);
                if x != if pull { 15 } else { d } {
                    continue;
                }
                if !ready {
                    ready = true;
                    red.key_values(red.rep(class).0, &mut v);
                    for (l, target) in to.iter_mut().enumerate() {
                        let mut w = v;
                        for &p in key_parts {
                            w[p] = moves[p][v[p] as usize * l_n + l];
                        }
                        let (c2, s2) = red.class_of(red.key_of(&w));
                        *target = Target {
                            base: c2 * rest,
                            sym: s2,
                            stab: red.rep(c2).1,
                        };
                    }
                }
                red.rest_values(r, &mut v);
                for (l, target) in to.iter().enumerate() {
                    let mut w = v;
                    for &p in rest_parts {
                        w[p] = moves[p][v[p] as usize * l_n + l];
                    }
                    let r2 = red.conj_rest_values(&w, target.sym);
                    if pull {
                        let y = get(t, target.base + r2);
                        let hit = if unit {
                            y == d
                        } else {
                            y != 15 && y as u32 + cost[l] == d as u32 + 1
                        };
                        if hit {
                            n += set(t, base + r, d + 1) as u64;
                            break;
                        }
                    } else {
                        n += self.push(t, target, r2, d);
                    }
                }
            }
        }
        n
    }
}

/// Fills the reduced table of `c` (two entries a byte) with the distances from the solved
/// entry, 15 standing for 15 or more and for entries no position has.
pub(super) fn fill_symmetric(
    model: &Model,
    c: &Coords,
    actions: &[Action],
    cost: &[u32],
    meter: &Meter,
) -> Result<BigBuf, SolveError> {
    let red = c.sym.as_deref().expect("a table reduced by symmetries");
    let letters = actions.len();
    let moves_bytes: u64 = c.sizes.iter().map(|s| 8 * s * letters as u64).sum();
    meter.ctl.reserve(
        "a pattern database reduced by symmetries (and its move tables)",
        c.bytes() + moves_bytes,
    )?;
    let fwd = c.move_tables(model, actions);
    let back = backward(&fwd, letters);
    let f = Fill {
        red,
        letters,
        fwd,
        back,
    };
    let mut buf = BigBuf::new(c.bytes() as usize, 0xff);
    let t = buf.as_atomic();
    // The solved entry and the entries its class's stabiliser makes of it.
    let solved = c.index(&model.solved());
    let (class, rest) = (solved / red.rest_size, solved % red.rest_size);
    set(t, solved, 0);
    let mut filled = 1u64;
    let mut m = red.rep(class).1;
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        m &= m - 1;
        let j = class * red.rest_size + red.conj_rest(rest, s);
        if get(t, j) == 15 {
            filled += set(t, j, 0) as u64;
        }
    }
    let unit = cost.iter().all(|&x| x == 1);
    let max_cost = cost.iter().copied().max().unwrap_or(1);
    let classes = red.classes;
    let per_chunk = (CHUNK / red.rest_size).max(1);
    let chunks = classes.div_ceil(per_chunk);
    let (mut frontier, mut d, mut empty) = (filled, 0u8, 0u32);
    while d < 14 && filled < c.size {
        meter.ctl.check()?;
        let unknown = c.size - filled;
        let pull = !unit || 4 * frontier > unknown;
        meter.report(d + 1, filled, true);
        let so_far = AtomicU64::new(0);
        let newly = (0..chunks)
            .into_par_iter()
            .map(|k| -> Result<u64, SolveError> {
                meter.ctl.check()?;
                let lo = k * per_chunk;
                let n = f.level(t, d, pull, cost, lo, (lo + per_chunk).min(classes));
                let all = so_far.fetch_add(n, Relaxed) + n;
                meter.report(d + 1, filled + all, false);
                Ok(n)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        filled += newly;
        frontier = newly;
        d += 1;
        empty = if newly == 0 { empty + 1 } else { 0 };
        if empty >= if unit { 1 } else { max_cost } {
            break;
        }
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::super::coord_fill::fill_coords;
    use super::super::coords::Part;
    use super::super::symmetric::{reduce, tests::rotations};
    use super::*;
    use crate::metric::Metric;
    use puz_core::Control;

    /// Fills `parts` whole and reduced; every tuple's entry in the reduced table is its
    /// entry in the whole one (walked over every tuple of values).
    fn same_as_whole(parts: Vec<Part>, half_turns: bool) -> u64 {
        let (model, conj) = rotations();
        let c3 = crate::testsupport::cube3();
        let faces = ["U", "D", "R", "L", "F", "B"];
        let ctl = Control::default();
        let metric = if half_turns {
            Metric::htm(&c3, &faces, &ctl).unwrap()
        } else {
            Metric::qtm(&c3, &faces, &ctl).unwrap()
        };
        let actions = crate::testsupport::actions_of(&model, &metric);
        let whole = Coords::new(&model, parts).unwrap();
        let reduced = reduce(&model, whole.clone(), &conj, u64::MAX);
        let red = reduced.sym.clone().expect("reduced");
        assert!(reduced.size < whole.size);
        let meter = Meter::new(&ctl, String::new(), 0, whole.size);
        let a = fill_coords(&model, &whole, &actions, &metric.cost, &meter).unwrap();
        let b = fill_symmetric(&model, &reduced, &actions, &metric.cost, &meter).unwrap();
        let value = |t: &BigBuf, i: u64| (t[(i >> 1) as usize] >> ((i & 1) * 4)) & 15;
        let n = whole.parts.len();
        let mut v = [0u32; MAX_PARTS];
        for i in 0..whole.size {
            for p in 0..n {
                v[p] = ((i / whole.weights[p]) % whole.sizes[p]) as u32;
            }
            let j = red.index(&v[..n]);
            assert!(j < reduced.size);
            assert_eq!(value(&a, i), value(&b, j), "tuple {:?}", &v[..n]);
        }
        red.syms as u64
    }

    #[test]
    fn reduced_slice_and_twists_are_the_whole_table() {
        // The UD slice's set with the corner twists (a set as the whole key, the twists
        // as the rest), in htm: 1,082,565 tuples.
        let syms = same_as_whole(
            vec![
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Ori { orbit: 0 },
            ],
            true,
        );
        assert_eq!(syms, 8);
    }

    #[test]
    fn reduced_slice_places_and_twists_are_the_whole_table() {
        // Where each of the UD slice's edges is (Kociemba's sorted slice) with the corner
        // twists, in qtm: 25,981,560 tuples.
        let syms = same_as_whole(
            vec![
                Part::Places {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Ori { orbit: 0 },
            ],
            false,
        );
        assert_eq!(syms, 8);
    }

    #[test]
    fn reduced_flip_slice_is_the_whole_table() {
        // Kociemba's flip-slice (the key: the set and the orientations of its orbit), in
        // qtm: 1,013,760 tuples.
        let syms = same_as_whole(
            vec![
                Part::Ori { orbit: 1 },
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
            ],
            false,
        );
        assert_eq!(syms, 8);
    }
}
