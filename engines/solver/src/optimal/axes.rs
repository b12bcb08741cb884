//! The conjugates a table over several orbits is looked up on: one per slice the
//! puzzle's symmetries make of its own (Kociemba's three axes on the 3x3x3).
//!
//! The state of `c^-1 p c` (a [`CellMap`]) has at location `b` the piece `sigma(P)` when
//! `p` has `P` at `src[b]`, where `sigma(P)` is the piece at location `P` of `c^-1`. So a
//! table's set of the pieces `S`, read on the conjugate, is the set of locations of the
//! pieces `sigma^-1(S)` in `p` (moved by a fixed bijection): conjugators with the same
//! `sigma^-1(S)` read about the same pieces. Every conjugate is as far from solved as `p`
//! (see `symmetry.rs`), so each look-up is a lower bound, as on `p` itself.

use crate::model::{CellMap, Model};
use crate::pdb::Shape;
use puz_core::Perm;
use std::collections::HashSet;

/// At most this many elements of the symmetry group are tried.
const MAX_ELEMENTS: usize = 1152;

/// A conjugator found for the tables over several orbits: its name (a product of the
/// symmetry generators), its map of states, and the tables (by index) that read it.
pub(super) struct Axis {
    pub name: String,
    pub map: CellMap,
    pub tables: Vec<usize>,
    /// Per table it serves: the pieces its set (of the most values) reads about, in the
    /// position.
    pub reads: Vec<Vec<u8>>,
}

/// The pieces of `orbit` that `c^-1` (given as its state) brings into the set `pieces`.
fn tracked(model: &Model, cinv: &[u8], orbit: usize, pieces: &[u8]) -> Vec<u8> {
    let o = &model.orbits[orbit];
    let t = o.twist;
    (0..o.size as u8)
        .filter(|&p| pieces.contains(&(cinv[o.start + p as usize] / t)))
        .collect()
}

/// For each table over several orbits with a set: the conjugators (elements of the group
/// the `generators` make, breadth-first) that read other pieces than every earlier one.
///
/// A table with several sets reads other pieces when any of them does. A set of half its
/// orbit is taken as its complement too: the symmetries that reduce such a table carry it
/// there when they can (`pdb/symmetric.rs`: the U layer's corners and the D layer's), so
/// the look-up on the conjugate by `x x` is the one on the position. Were a table not so
/// reduced, a look-up left out would only be one bound fewer.
pub(super) fn axes(model: &Model, generators: &[(String, Perm)], shapes: &[Shape]) -> Vec<Axis> {
    // Per table: its index, and its sets' orbits and pieces, the most sets' worth first.
    type Sets<'a> = Vec<(usize, &'a [u8])>;
    let sets: Vec<(usize, Sets)> = shapes
        .iter()
        .enumerate()
        .filter_map(|(k, s)| match s {
            Shape::Coords(c) if !s.position_only() => {
                let mut v: Vec<(u64, usize, &[u8])> = (c.parts.iter().zip(&c.sizes))
                    .filter_map(|(p, &n)| p.pieces().map(|pieces| (n, p.orbit(), pieces)))
                    .collect();
                v.sort_by_key(|&(n, o, _)| (std::cmp::Reverse(n), o));
                let v: Vec<(usize, &[u8])> = v.into_iter().map(|(_, o, p)| (o, p)).collect();
                (!v.is_empty()).then_some((k, v))
            }
            _ => None,
        })
        .collect();
    if sets.is_empty() || generators.is_empty() {
        return Vec::new();
    }
    // A set's pieces, or the others of its orbit when those come first.
    let canonical = |orbit: usize, t: Vec<u8>| -> Vec<u8> {
        let n = model.orbits[orbit].size as u8;
        if 2 * t.len() != n as usize {
            return t;
        }
        let others: Vec<u8> = (0..n).filter(|p| !t.contains(p)).collect();
        t.min(others)
    };
    let read = |cinv: Option<&[u8]>, sets: &[(usize, &[u8])]| -> Vec<Vec<u8>> {
        sets.iter()
            .map(|&(orbit, pieces)| {
                let t = cinv.map_or(pieces.to_vec(), |c| tracked(model, c, orbit, pieces));
                canonical(orbit, t)
            })
            .collect()
    };
    // Per table, the piece sets read so far (its own first).
    let mut seen: Vec<HashSet<Vec<Vec<u8>>>> = sets
        .iter()
        .map(|(_, s)| HashSet::from([read(None, s)]))
        .collect();
    let Some(id) = generators.first().map(|(_, g)| Perm::identity(g.degree())) else {
        return Vec::new();
    };
    let mut out: Vec<Axis> = Vec::new();
    let mut group = vec![(String::new(), id.clone())];
    let mut elements = HashSet::from([id]);
    let mut i = 0;
    while i < group.len() && group.len() <= MAX_ELEMENTS {
        let (name, c) = group[i].clone();
        i += 1;
        if i > 1 {
            let (Some(cinv), Some(map)) = (model.state_of(&c.inverse()), model.conjugation_by(&c))
            else {
                continue;
            };
            let (mut tables, mut reads) = (Vec::new(), Vec::new());
            for (j, (k, s)) in sets.iter().enumerate() {
                if seen[j].insert(read(Some(&cinv), s)) {
                    tables.push(*k);
                    let (orbit, pieces) = s[0];
                    reads.push(tracked(model, &cinv, orbit, pieces));
                }
            }
            if !tables.is_empty() {
                out.push(Axis {
                    name: name.trim().to_string(),
                    map,
                    tables,
                    reads,
                });
            }
        }
        for (gname, g) in generators {
            let h = c.then(g);
            if elements.insert(h.clone()) {
                group.push((format!("{name} {gname}"), h));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::Canon;
    use crate::metric::Metric;
    use crate::pdb::{Coords, Part};
    use crate::symmetry::Symmetries;
    use crate::testsupport::{cube3, seq};
    use puz_core::Control;

    #[test]
    fn a_layer_and_its_complement_are_one_look_up() {
        // nxopt's table (the UD slice, the U layer's corners): the conjugates by x and by
        // x x x read the same slice and complementary layers, and so do the position and
        // its conjugate by x x. Two conjugates are left, as with the slice alone.
        let c3 = cube3();
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &Control::default()).unwrap();
        let model = Model::new(&c3).unwrap();
        let sym = Symmetries::new(&c3, &htm, &Canon::new(&htm));
        let c = Coords::new(
            &model,
            vec![
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Set {
                    orbit: 0,
                    pieces: vec![0, 1, 2, 3],
                },
            ],
        )
        .unwrap();
        let axes = axes(&model, &sym.generators, &[Shape::Coords(c)]);
        assert_eq!(axes.len(), 2);
        for a in &axes {
            // The slice's pieces are what it reports.
            assert_eq!(a.reads[0].len(), 4);
            assert!(!a.reads[0].iter().any(|p| [8, 9, 10, 11].contains(p)));
        }
    }

    #[test]
    fn three_axes_of_the_cube() {
        // The slice of the U and D letters, conjugated by the rotations, gives the slices
        // of the two other axes (two conjugators), and each one reads about the pieces it
        // says: its look-up on p is the look-up on p's conjugate.
        let c3 = cube3();
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &Control::default()).unwrap();
        let model = Model::new(&c3).unwrap();
        let sym = Symmetries::new(&c3, &htm, &Canon::new(&htm));
        let actions = crate::testsupport::actions_of(&model, &htm);
        let c = crate::pdb::choose_patterns(&model, &actions, 4 << 30, &[]).remove(0);
        let Shape::Coords(coords) = &c else {
            panic!("{c:?}")
        };
        let axes = axes(&model, &sym.generators, std::slice::from_ref(&c));
        assert_eq!(
            axes.len(),
            2,
            "{:?}",
            axes.iter().map(|a| &a.name).collect::<Vec<_>>()
        );
        let Some(Part::Set { orbit: 1, pieces }) =
            coords.parts.iter().find(|p| matches!(p, Part::Set { .. }))
        else {
            panic!("{coords:?}")
        };
        // The three slices: disjoint, all twelve edges.
        let mut all: Vec<u8> = pieces.clone();
        for a in &axes {
            assert_eq!(a.tables, [0]);
            assert_eq!(a.reads[0].len(), 4);
            all.extend(&a.reads[0]);
        }
        all.sort();
        assert_eq!(all, (0..12).collect::<Vec<u8>>());
        // A conjugate's set is where the pieces it reads are, in the position: for
        // positions that differ only in where other edges are, it is the same.
        let sets = Coords::new(
            &model,
            vec![Part::Set {
                orbit: 1,
                pieces: pieces.clone(),
            }],
        )
        .unwrap();
        let o = &model.orbits[1];
        for a in &axes {
            let reads = &a.reads[0];
            // Two positions with the read pieces at the same locations (and orientations):
            // the second swaps two edges outside them, by relabelling.
            let p = seq(&c3, "R U F' L2 D B R2 F");
            let s = model.state_of(&p).unwrap();
            let others: Vec<usize> = (0..12)
                .filter(|l| !reads.contains(&(s[o.start + l] / 2)))
                .collect();
            let mut s2 = s.clone();
            s2.swap(o.start + others[0], o.start + others[1]);
            let (mut q, mut q2) = (vec![0u8; model.n], vec![0u8; model.n]);
            a.map.apply(&s, &mut q);
            a.map.apply(&s2, &mut q2);
            assert_eq!(sets.index(&q), sets.index(&q2));
            // And moving a read piece changes it.
            let inside = (0..12)
                .find(|l| reads.contains(&(s[o.start + l] / 2)))
                .unwrap();
            let mut s3 = s.clone();
            s3.swap(o.start + inside, o.start + others[0]);
            a.map.apply(&s3, &mut q2);
            assert_ne!(sets.index(&q), sets.index(&q2));
        }
    }
}
