//! Look-ups a letter leaves unchanged. On an inverse variant the letter acts before the
//! position: the inverse of `p l` is `l^-1 p^-1`, which renames the pieces of `p^-1` by
//! `g = l^-1` (conjugated on a conjugate). A table whose entry does not see that renaming
//! has the same value on the child as on the parent, so the search needs no look-up there:
//! an exact parent value above the child's limit cuts the child outright.
//!
//! The state of `g` then `q` has at location `b` the cell of `g` at location
//! `piece_q(b)`, turned by `ori_q(b)`. So an entry is unchanged for every `q` when:
//! - a table of pieces: `g` holds each followed piece at its own location, unturned
//!   (and, with every orientation, turns no location of the orbit);
//! - an orientation part: `g` turns no location of the orbit;
//! - a set part: `g` holds a piece of the set exactly at the set's locations;
//! - a places part: `g` holds each followed piece at its own location;
//! - a parity part: `g` permutes the orbit's pieces evenly.
//!
//! When `g` keeps every part but a table's parity, which it changes, the child's entry is
//! the one beside the parent's (the parity is the fastest part): the parent read it in
//! the same byte, and the search keeps it as the child's (see `flipped`).

use crate::model::{Action, CellMap, Model};
use crate::pdb::{odd_permutation, Part, Shape};

/// Whether the entry of `shape` is the same on `g` then `q` as on `q`, for every `q`.
pub(super) fn keeps(model: &Model, g: &[u8], shape: &Shape) -> bool {
    match shape {
        Shape::Pieces(p) => {
            p.pieces.iter().all(|&x| at_home(model, g, p.orbit, x))
                && (!p.all_ori || unturned(model, g, p.orbit))
        }
        Shape::Coords(c) => c.parts.iter().all(|part| part_kept(model, g, part)),
    }
}

/// Whether the entry of `shape` on `g` then `q` is, for every `q`, the one beside the
/// entry on `q` (its index with the lowest bit flipped): every part but the parity is
/// kept, and `g` changes the parity, which is the fastest part (see [`Part::Parity`]).
pub(super) fn flips(model: &Model, g: &[u8], shape: &Shape) -> bool {
    let Shape::Coords(c) = shape else {
        return false;
    };
    let Some((Part::Parity { orbit }, others)) = c.parts.split_last() else {
        return false;
    };
    odd(model, g, *orbit)
        && others
            .iter()
            .all(|p| !matches!(p, Part::Parity { .. }) && part_kept(model, g, p))
}

/// Whether a part's value is the same on `g` then `q` as on `q`, for every `q`.
fn part_kept(model: &Model, g: &[u8], part: &Part) -> bool {
    match part {
        Part::Ori { orbit } => unturned(model, g, *orbit),
        Part::Set { orbit, pieces } => {
            let o = &model.orbits[*orbit];
            (0..o.size).all(|y| {
                let piece = g[o.start + y] / o.twist;
                pieces.contains(&piece) == pieces.contains(&(y as u8))
            })
        }
        Part::Places { orbit, pieces } => pieces.iter().all(|&y| at_home(model, g, *orbit, y)),
        Part::Parity { orbit } => !odd(model, g, *orbit),
    }
}

/// Whether `g` turns no location of the orbit.
fn unturned(model: &Model, g: &[u8], orbit: usize) -> bool {
    let o = &model.orbits[orbit];
    (0..o.size).all(|y| g[o.start + y].is_multiple_of(o.twist))
}

/// Whether `g` holds piece `x` of the orbit at its own location, unturned.
fn at_home(model: &Model, g: &[u8], orbit: usize, x: u8) -> bool {
    let o = &model.orbits[orbit];
    g[o.start + x as usize] == x * o.twist
}

/// Whether `g` permutes the orbit's pieces oddly.
fn odd(model: &Model, g: &[u8], orbit: usize) -> bool {
    let o = &model.orbits[orbit];
    odd_permutation(&g[o.start..o.start + o.size], o.twist)
}

/// Per letter: the (variant, table) look-ups it leaves unchanged, bit `v * tables + k`
/// (none when there are more than 64 of them). `inverse[l]` is the letter undoing `l`.
pub(super) fn fixed_lookups(
    model: &Model,
    actions: &[Action],
    inverse: &[u32],
    shapes: &[Shape],
    variants: &[(Option<usize>, bool)],
    conjugators: &[CellMap],
    needed: &[bool],
) -> [Vec<u64>; 2] {
    let np = shapes.len();
    let mut same = vec![0u64; actions.len()];
    let mut flipped = vec![0u64; actions.len()];
    if variants.len() * np > 64 {
        return [same, flipped];
    }
    let solved = model.solved();
    let (mut back, mut g) = (vec![0u8; model.n], vec![0u8; model.n]);
    for l in 0..actions.len() {
        model.apply(&actions[inverse[l] as usize], &solved, &mut back);
        for (v, &(conj, inv)) in variants.iter().enumerate() {
            if !inv {
                continue;
            }
            match conj {
                None => g.copy_from_slice(&back),
                Some(c) => conjugators[c].apply(&back, &mut g),
            }
            for (k, shape) in shapes.iter().enumerate() {
                let j = v * np + k;
                if needed[j] && keeps(model, &g, shape) {
                    same[l] |= 1 << j;
                } else if needed[j] && flips(model, &g, shape) {
                    flipped[l] |= 1 << j;
                }
            }
        }
    }
    [same, flipped]
}

/// What a child keeps of its parent's look-ups (see [`super::Solver::kept`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Kept {
    /// The value that cuts the child (0: none).
    pub cut: u32,
    /// The look-ups it keeps within its limit, the same or the entry beside (flipped).
    pub keep: u64,
    pub flip: u64,
}

impl super::Solver {
    /// For the child by letter `l`, within `limit`, of a node whose values are `ub` (exact
    /// at the bits of `exact`, see [`other`](super::bound::other)): what it keeps (see
    /// [`Parent`](super::bound::Parent)).
    #[inline]
    pub(super) fn kept(&self, l: u32, ub: &[u8], exact: u64, limit: u32) -> Kept {
        let mut out = Kept::default();
        let mut same = self.fixed[l as usize];
        while same != 0 {
            let j = same.trailing_zeros() as usize;
            same &= same - 1;
            let b = ub[j] as u32;
            if b <= limit {
                out.keep |= 1 << j;
            } else if exact >> j & 1 == 1 {
                out.cut = out.cut.max(b);
            }
        }
        // The entry beside is known only where the parent read its own.
        let mut flipped = self.flipped[l as usize] & exact;
        while flipped != 0 {
            let j = flipped.trailing_zeros() as usize;
            flipped &= flipped - 1;
            let b = super::bound::other(ub, j) as u32;
            if b <= limit {
                out.flip |= 1 << j;
            } else {
                out.cut = out.cut.max(b);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{opts, same_answers, FACES, POSITIONS};
    use super::super::Solver;
    use crate::metric::Metric;
    use crate::testsupport::cube3;
    use proptest::prelude::*;
    use puz_core::Control;

    use super::super::tests::cube3_htm_4gib_unfilled as solver;

    #[test]
    fn letters_keep_the_phase_one_entry_of_their_axes() {
        // A quarter turn keeps the phase-1 table's entry on the inverse of its own axis
        // (the slice between its face and the opposite one, and nothing twisted in that
        // axis' terms); a half turn keeps it on all three (it twists nothing and keeps
        // every slice).
        let s = solver();
        let np = s.heuristic.pdbs.len();
        let inverse = &s.metric.alphabet.inverse;
        for (l, &mask) in s.fixed.iter().enumerate() {
            let phase1 = (0..s.variants.len())
                .filter(|&v| s.variants[v].1 && mask >> (v * np) & 1 == 1)
                .count();
            let half = inverse[l] as usize == l;
            assert_eq!(phase1, if half { 3 } else { 1 }, "letter {l}: {mask:#x}");
        }
    }

    #[test]
    fn kept_look_ups_change_no_answer() {
        // The same reproducible optimal solutions with and without the kept look-ups, on
        // small tables (of pieces only, some kept by letters on the inverse).
        use super::super::Wanted;
        let c3 = cube3();
        let ctl = Control::default();
        let htm = Metric::htm(&c3, &FACES, &ctl).unwrap();
        let mut with = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
        assert!(with.fixed.iter().any(|&m| m != 0));
        let mut without = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
        without.fixed.iter_mut().for_each(|m| *m = 0);
        same_answers(&c3, &mut with, &without, &POSITIONS, Wanted::Earliest);
    }

    /// Checks on random states that every look-up a letter keeps has the same index on
    /// the child as on the parent; returns the look-ups checked.
    fn check_kept(s: &Solver, seed: u64) -> usize {
        check_children(s, seed, 200, &s.fixed, 0)
    }

    /// Checks on random states (`rounds` random letters) that every look-up in a letter's
    /// mask (`masks[l]`) has on the child the parent's index xor `flip`; returns the
    /// look-ups checked.
    fn check_children(s: &Solver, seed: u64, rounds: usize, masks: &[u64], flip: u64) -> usize {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let np = s.heuristic.pdbs.len();
        let n = s.model.n;
        let (mut t, mut u) = (s.model.solved(), s.model.solved());
        let (mut ti, mut ui, mut a, mut b) =
            (vec![0u8; n], vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        let mut checked = 0;
        for _ in 0..rounds {
            let m = rng.gen_range(0..s.actions.len());
            s.model.apply(&s.actions[m], &t, &mut u);
            std::mem::swap(&mut t, &mut u);
            s.model.inverse(&t, &mut ti);
            for (l, (action, &mask)) in s.actions.iter().zip(masks).enumerate() {
                s.model.apply(action, &t, &mut u);
                s.model.inverse(&u, &mut ui);
                for v in 0..s.variants.len() {
                    s.variant(v, &t, &ti, &mut a);
                    s.variant(v, &u, &ui, &mut b);
                    for k in 0..np {
                        if mask >> (v * np + k) & 1 == 1 {
                            let shape = &s.heuristic.pdbs[k].shape;
                            assert_eq!(
                                shape.index(&a) ^ flip,
                                shape.index(&b),
                                "letter {l}, {v}, {k}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn kept_entries_on_other_puzzles_and_metrics() {
        // The rule is worked out from each model: the 3x3x3 in atm (letters of two faces at
        // once) and qtm, and the 2x2x2, with the tables each budget chooses (left empty).
        // (The Pyraminx's and the Skewb's tables at this budget have no kept look-up;
        // they run for the rule's sake.)
        use crate::testsupport::{cube2, pyraminx, skewb};
        let ctl = Control::default();
        let c3 = cube3();
        let cases = [
            (
                cube3(),
                Metric::atm(&c3, &FACES, &ctl).unwrap(),
                4u64 << 30,
                true,
            ),
            (
                cube3(),
                Metric::qtm(&c3, &FACES, &ctl).unwrap(),
                4 << 20,
                true,
            ),
            (
                pyraminx(),
                Metric::htm(&pyraminx(), &[], &ctl).unwrap(),
                1 << 20,
                false,
            ),
            (
                skewb(),
                Metric::htm(&skewb(), &[], &ctl).unwrap(),
                1 << 20,
                false,
            ),
            (
                cube2(),
                Metric::htm(&cube2(), &[], &ctl).unwrap(),
                1 << 20,
                true,
            ),
        ];
        for (i, (p, m, mem, kept)) in cases.into_iter().enumerate() {
            let model = crate::model::Model::new(&p).unwrap();
            let actions = crate::testsupport::actions_of(&model, &m);
            let shapes = crate::pdb::choose_patterns(&model, &actions, mem, &[]);
            let s = Solver::with_shapes_unfilled(&p, &m, &opts(mem), shapes).unwrap();
            assert_eq!(check_kept(&s, i as u64) > 0, kept, "case {i}");
        }
    }

    proptest! {
        #[test]
        fn kept_entries_are_unchanged(
            moves in proptest::collection::vec(0usize..18, 0..30),
            l in 0usize..18,
        ) {
            // Every look-up a letter keeps has the same index on the child as on the parent.
            let s = solver();
            let np = s.heuristic.pdbs.len();
            let n = s.model.n;
            let mut t = s.model.solved();
            let mut u = t.clone();
            for m in moves {
                s.model.apply(&s.actions[m], &t, &mut u);
                std::mem::swap(&mut t, &mut u);
            }
            s.model.apply(&s.actions[l], &t, &mut u);
            let (mut ti, mut ui) = (vec![0u8; n], vec![0u8; n]);
            s.model.inverse(&t, &mut ti);
            s.model.inverse(&u, &mut ui);
            let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
            for v in 0..s.variants.len() {
                s.variant(v, &t, &ti, &mut a);
                s.variant(v, &u, &ui, &mut b);
                for k in 0..np {
                    if s.fixed[l] >> (v * np + k) & 1 == 1 {
                        let shape = &s.heuristic.pdbs[k].shape;
                        prop_assert_eq!(shape.index(&a), shape.index(&b));
                    }
                }
            }
        }
    }

    /// The 3x3x3 with a table of the slice's set, the corner twists and the corners'
    /// parity (small, not reduced), filled.
    fn parity_solver(metric: &Metric) -> Solver {
        use crate::pdb::{Coords, Part, Shape};
        let c3 = cube3();
        let model = crate::model::Model::new(&c3).unwrap();
        let parts = vec![
            Part::Set {
                orbit: 1,
                pieces: vec![8, 9, 10, 11],
            },
            Part::Ori { orbit: 0 },
            Part::Parity { orbit: 0 },
        ];
        let c = Coords::new(&model, parts).unwrap();
        assert!(matches!(c.parts.last(), Some(Part::Parity { .. })));
        let ctl = Control::default();
        Solver::with_shapes(&c3, metric, &opts(4 << 20), vec![Shape::Coords(c)], &ctl).unwrap()
    }

    #[test]
    fn flipped_entries_are_beside_the_parents() {
        // A quarter turn changes the corners' parity and, on the inverse of its own axis,
        // nothing else the table reads: the child's index is the parent's with its
        // lowest bit flipped, on random states.
        let c3 = cube3();
        let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
        let s = parity_solver(&htm);
        let quarter = (0..s.actions.len()).filter(|&l| s.metric.alphabet.inverse[l] as usize != l);
        for l in quarter {
            assert!(
                s.flipped[l] != 0 && s.fixed[l] & s.flipped[l] == 0,
                "letter {l}"
            );
        }
        let checked = check_children(&s, 5, 300, &s.flipped, 1);
        assert!(checked > 1000);
    }

    #[test]
    fn flipped_entries_change_no_search() {
        // With the entries beside the parent's kept, the search makes the same cuts
        // (the same values, without their look-ups): the same solutions and, with every
        // task run to its end, the same nodes, in htm and qtm.
        use super::super::Wanted;
        let c3 = cube3();
        let ctl = Control::default();
        for metric in [
            Metric::htm(&c3, &FACES, &ctl).unwrap(),
            Metric::qtm(&c3, &FACES, &ctl).unwrap(),
        ] {
            let mut with = parity_solver(&metric);
            assert!(with.flipped.iter().any(|&m| m != 0));
            let mut without = parity_solver(&metric);
            without.flipped.iter_mut().for_each(|m| *m = 0);
            for (a, b) in same_answers(&c3, &mut with, &without, &POSITIONS, Wanted::All) {
                assert_eq!(a, b);
            }
        }
    }
}
