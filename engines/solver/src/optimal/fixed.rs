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
//! - a places part: `g` holds each followed piece at its own location.

use crate::model::{Action, CellMap, Model};
use crate::pdb::{Part, Shape};

/// Whether the entry of `shape` is the same on `g` then `q` as on `q`, for every `q`.
pub(super) fn keeps(model: &Model, g: &[u8], shape: &Shape) -> bool {
    let unturned = |orbit: usize| {
        let o = &model.orbits[orbit];
        (0..o.size).all(|y| g[o.start + y].is_multiple_of(o.twist))
    };
    let at_home = |orbit: usize, x: u8| {
        let o = &model.orbits[orbit];
        g[o.start + x as usize] == x * o.twist
    };
    match shape {
        Shape::Pieces(p) => {
            p.pieces.iter().all(|&x| at_home(p.orbit, x)) && (!p.all_ori || unturned(p.orbit))
        }
        Shape::Coords(c) => c.parts.iter().all(|part| match part {
            Part::Ori { orbit } => unturned(*orbit),
            Part::Set { orbit, pieces } => {
                let o = &model.orbits[*orbit];
                (0..o.size).all(|y| {
                    let piece = g[o.start + y] / o.twist;
                    pieces.contains(&piece) == pieces.contains(&(y as u8))
                })
            }
            Part::Places { orbit, pieces } => {
                let o = &model.orbits[*orbit];
                pieces
                    .iter()
                    .all(|&y| g[o.start + y as usize] / o.twist == y)
            }
        }),
    }
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
) -> Vec<u64> {
    let np = shapes.len();
    let mut out = vec![0u64; actions.len()];
    if variants.len() * np > 64 {
        return out;
    }
    let solved = model.solved();
    let (mut back, mut g) = (vec![0u8; model.n], vec![0u8; model.n]);
    for (l, mask) in out.iter_mut().enumerate() {
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
                    *mask |= 1 << j;
                }
            }
        }
    }
    out
}

impl super::Solver {
    /// For the child by letter `l`, within `limit`, of a node whose bounds are `ub` (exact
    /// at the bits of `exact`): the value that cuts it (0: none), and the look-ups it keeps
    /// within the limit (see [`Parent`](super::bound::Parent)).
    #[inline]
    pub(super) fn kept(&self, l: u32, ub: &[u8], exact: u64, limit: u32) -> (u32, u64) {
        let mut fixed = self.fixed[l as usize];
        let (mut cut, mut keep) = (0u32, 0u64);
        while fixed != 0 {
            let j = fixed.trailing_zeros() as usize;
            fixed &= fixed - 1;
            let b = ub[j] as u32;
            if b <= limit {
                keep |= 1 << j;
            } else if exact >> j & 1 == 1 {
                cut = cut.max(b);
            }
        }
        (cut, keep)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{opts, FACES};
    use super::super::Solver;
    use crate::metric::Metric;
    use crate::testsupport::cube3;
    use proptest::prelude::*;
    use puz_core::Control;

    /// The 3x3x3 in htm with the 4 GiB choice of tables, left empty (indices only).
    fn solver() -> &'static Solver {
        static CELL: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
        CELL.get_or_init(|| {
            let c3 = cube3();
            let ctl = Control::default();
            let htm = Metric::htm(&c3, &FACES, &ctl).unwrap();
            let model = crate::model::Model::new(&c3).unwrap();
            let actions = crate::testsupport::actions_of(&model, &htm);
            let shapes = crate::pdb::choose_patterns(&model, &actions, 4 << 30, &[]);
            Solver::with_shapes_unfilled(&c3, &htm, &opts(4 << 30), shapes, &ctl).unwrap()
        })
    }

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
        use crate::testsupport::seq;
        let c3 = cube3();
        let ctl = Control::default();
        let htm = Metric::htm(&c3, &FACES, &ctl).unwrap();
        let with = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
        assert!(with.fixed.iter().any(|&m| m != 0));
        let mut without = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
        without.fixed.iter_mut().for_each(|m| *m = 0);
        for p in [
            "R U F' L2 D B R2",
            "U2 F R' D2 B L' F2 U",
            "B' R F B' R' D R2 U D'",
        ] {
            let p = seq(&c3, p);
            let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
            let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
            assert!(a.verified && b.verified);
            assert_eq!((a.cost, &a.solutions), (b.cost, &b.solutions));
        }
    }

    /// Checks on random states that every look-up a letter keeps has the same index on
    /// the child as on the parent; returns the look-ups checked.
    fn check_kept(s: &Solver, seed: u64) -> usize {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let np = s.heuristic.pdbs.len();
        let n = s.model.n;
        let (mut t, mut u) = (s.model.solved(), s.model.solved());
        let (mut ti, mut ui, mut a, mut b) =
            (vec![0u8; n], vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        let mut checked = 0;
        for _ in 0..200 {
            let m = rng.gen_range(0..s.actions.len());
            s.model.apply(&s.actions[m], &t, &mut u);
            std::mem::swap(&mut t, &mut u);
            s.model.inverse(&t, &mut ti);
            for l in 0..s.actions.len() {
                s.model.apply(&s.actions[l], &t, &mut u);
                s.model.inverse(&u, &mut ui);
                for v in 0..s.variants.len() {
                    s.variant(v, &t, &ti, &mut a);
                    s.variant(v, &u, &ui, &mut b);
                    for k in 0..np {
                        if s.fixed[l] >> (v * np + k) & 1 == 1 {
                            let shape = &s.heuristic.pdbs[k].shape;
                            assert_eq!(shape.index(&a), shape.index(&b), "letter {l}, {v}, {k}");
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
            let s = Solver::with_shapes_unfilled(&p, &m, &opts(mem), shapes, &ctl).unwrap();
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
}
