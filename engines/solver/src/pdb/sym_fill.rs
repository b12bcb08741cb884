//! The fill of a [`Coords`] table reduced by symmetries ([`super::symmetric`]):
//! breadth-first on its nibbles like [`super::coord_fill`], a block being a class (every
//! rest value beside its representative key). A letter sends the representative to one
//! key, whose class and symmetry are found once per block; each entry's rest is moved by
//! the rest parts' move tables and carried by that symmetry. A pushed entry also sets the
//! entries its class's stabiliser makes of it (they hold the same tuples' class, see
//! `symmetric.rs`); a pulled entry is reached by itself, as each of those is.

use super::coord_fill::{backward, get, levels, set};
use super::coords::{Coords, MAX_PARTS};
use super::fill::Meter;
use super::symmetric::Reduction;
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::model::{Action, Model};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// The rest's moves carried by every symmetry are tabulated up to this many entries.
const MAX_NEXT: u64 = 1 << 24;

/// A set of classes, shared by the threads of a level.
struct Marks(Vec<AtomicU64>);

impl Marks {
    fn new(n: u64, all: bool) -> Marks {
        let fill = if all { u64::MAX } else { 0 };
        Marks((0..n.div_ceil(64)).map(|_| AtomicU64::new(fill)).collect())
    }
    #[inline]
    fn has(&self, c: u64) -> bool {
        self.0[(c / 64) as usize].load(Relaxed) >> (c % 64) & 1 == 1
    }
    #[inline]
    fn add(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_or(1 << (c % 64), Relaxed);
    }
    fn clear(&self) {
        for w in &self.0 {
            w.store(0, Relaxed);
        }
    }
    #[inline]
    fn remove(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_and(!(1 << (c % 64)), Relaxed);
    }
}

/// What a fill works with.
struct Fill<'a> {
    red: &'a Reduction,
    letters: usize,
    /// Per part: where each letter sends each value, and where it comes from.
    fwd: Vec<Vec<u32>>,
    back: Vec<Vec<u32>>,
    /// Forward and back: `next[(l * syms + s) * rest + r]`, the rest `r` moved by letter
    /// `l` and carried by symmetry `s` (when small enough, else computed each time).
    next: Option<[Vec<u32>; 2]>,
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
    /// The rest tables (see [`Fill::next`]).
    fn tabulate(&self) -> Option<[Vec<u32>; 2]> {
        let red = self.red;
        let (rest, syms, l_n) = (red.rest_size, red.syms as u64, self.letters as u64);
        if rest * syms * l_n > MAX_NEXT {
            return None;
        }
        let (_, rest_parts) = red.split();
        let mut out = [Vec::new(), Vec::new()];
        for (dir, moves) in [&self.fwd, &self.back].into_iter().enumerate() {
            let t = &mut out[dir];
            t.resize((rest * syms * l_n) as usize, 0);
            let mut v = [0u32; MAX_PARTS];
            for r in 0..rest {
                red.rest_values(r, &mut v);
                for l in 0..l_n as usize {
                    let mut w = v;
                    for &p in rest_parts {
                        w[p] = moves[p][v[p] as usize * l_n as usize + l];
                    }
                    for s in 0..syms as usize {
                        let i = ((l as u64 * syms + s as u64) * rest + r) as usize;
                        t[i] = red.conj_rest_values(&w, s) as u32;
                    }
                }
            }
        }
        Some(out)
    }

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
    /// Pushed, only the classes `at` (those holding entries at `d`); pulled, only those
    /// `open` (which may hold unreached entries; a class found without any is removed).
    /// Every class given an entry is added to `reached`.
    #[allow(clippy::too_many_arguments)]
    fn level(
        &self,
        t: &[AtomicU8],
        d: u8,
        pull: bool,
        cost: &[u32],
        (lo, hi): (u64, u64),
        (at, open, reached): (&Marks, &Marks, &Marks),
    ) -> u64 {
        let red = self.red;
        let (key_parts, rest_parts) = red.split();
        let l_n = self.letters;
        let moves = if pull { &self.back } else { &self.fwd };
        let next = self.next.as_ref().map(|n| &n[pull as usize]);
        let syms = red.syms;
        let unit = cost.iter().all(|&c| c == 1);
        let rest = red.rest_size;
        let mut to = vec![Target::default(); l_n];
        let mut v = [0u32; MAX_PARTS];
        let mut n = 0u64;
        for class in lo..hi {
            if !(if pull { open.has(class) } else { at.has(class) }) {
                continue;
            }
            let base = class * rest;
            let mut ready = false;
            let (mut unreached, mut got) = (0u64, 0u64);
            for r in 0..rest {
                let x = get(t, base + r);
                if x != if pull { 15 } else { d } {
                    continue;
                }
                unreached += 1;
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
                if next.is_none() {
                    red.rest_values(r, &mut v);
                }
                for (l, target) in to.iter().enumerate() {
                    let r2 = match next {
                        Some(nx) => nx[(l * syms + target.sym) * rest as usize + r as usize] as u64,
                        None => {
                            let mut w = v;
                            for &p in rest_parts {
                                w[p] = moves[p][v[p] as usize * l_n + l];
                            }
                            red.conj_rest_values(&w, target.sym)
                        }
                    };
                    if pull {
                        let y = get(t, target.base + r2);
                        let hit = if unit {
                            y == d
                        } else {
                            y != 15 && y as u32 + cost[l] == d as u32 + 1
                        };
                        if hit {
                            got += set(t, base + r, d + 1) as u64;
                            break;
                        }
                    } else {
                        let k = self.push(t, target, r2, d);
                        if k > 0 {
                            reached.add(target.base / rest);
                        }
                        n += k;
                    }
                }
            }
            if pull {
                if got > 0 {
                    reached.add(class);
                }
                if got == unreached {
                    open.remove(class);
                }
                n += got;
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
    let mut f = Fill {
        red,
        letters,
        fwd,
        back,
        next: None,
    };
    f.next = f.tabulate();
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
    // The classes holding the frontier and those reached by the level under way,
    // alternately (by the parity of the level).
    let open = Marks::new(red.classes, true);
    let marks = [
        Marks::new(red.classes, false),
        Marks::new(red.classes, false),
    ];
    marks[0].add(class);
    let before = |d: u8| marks[(d as usize + 1) % 2].clear();
    levels(
        c.size,
        filled,
        cost,
        red.classes,
        red.rest_size,
        meter,
        before,
        |d, pull, lo, hi| {
            let (at, reached) = (&marks[d as usize % 2], &marks[(d as usize + 1) % 2]);
            f.level(t, d, pull, cost, (lo, hi), (at, &open, reached))
        },
    )?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::super::coord_fill::fill_coords;
    use super::super::coords::Part;
    use super::super::symmetric::{reduce, tests::cube_symmetries};
    use super::*;
    use crate::metric::Metric;
    use puz_core::Control;

    /// Fills `parts` whole and reduced; every tuple's entry in the reduced table is its
    /// entry in the whole one (walked over every tuple of values).
    fn same_as_whole(parts: Vec<Part>, metric: &str) -> u64 {
        let (model, conj) = cube_symmetries();
        let c3 = crate::testsupport::cube3();
        let faces = ["U", "D", "R", "L", "F", "B"];
        let ctl = Control::default();
        let mut m = if metric == "qtm" {
            Metric::qtm(&c3, &faces, &ctl).unwrap()
        } else {
            Metric::htm(&c3, &faces, &ctl).unwrap()
        };
        if metric == "weighted" {
            // Half turns cost 2: every level pulled, looking `cost` levels back.
            for (l, sp) in m.spelling.iter().enumerate() {
                m.cost[l] = if sp[0].1.abs() == 2 { 2 } else { 1 };
            }
            assert!(m.cost.contains(&2));
        }
        let metric = m;
        let actions = crate::testsupport::actions_of(&model, &metric);
        let whole = Coords::new(&model, parts).unwrap();
        let reduced = reduce(&model, whole.clone(), &conj, u64::MAX, None, None);
        let red = reduced.sym.clone().expect("reduced");
        assert!(reduced.size < whole.size);
        let meter = Meter::new(&ctl, String::new(), 0, whole.size);
        let a = fill_coords(&model, &whole, &actions, &metric.cost, &meter).unwrap();
        let b = fill_symmetric(&model, &reduced, &actions, &metric.cost, &meter).unwrap();
        let value = |t: &BigBuf, i: u64| (t[(i >> 1) as usize] >> ((i & 1) * 4)) & 15;
        let n = whole.parts.len();
        let mut v = [0u32; MAX_PARTS];
        for i in 0..whole.size {
            for (x, (&w, &m)) in v.iter_mut().zip(whole.weights.iter().zip(&whole.sizes)) {
                *x = ((i / w) % m) as u32;
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
            "htm",
        );
        assert_eq!(syms, 16);
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
            "qtm",
        );
        assert_eq!(syms, 16);
    }

    #[test]
    fn reduced_tables_with_dearer_half_turns_are_the_whole_table() {
        let syms = same_as_whole(
            vec![
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Ori { orbit: 0 },
            ],
            "weighted",
        );
        assert_eq!(syms, 16);
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
            "qtm",
        );
        assert_eq!(syms, 16);
    }
}
