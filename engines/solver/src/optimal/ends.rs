//! The letters a solution cannot end with (Rokicki's nxopt argument, made generic).
//!
//! A table's value on a position `p` is the distance of `p`'s entry from the solved
//! entry in the table's abstract puzzle. Let a letter `m` leave the solved entry where it
//! is when applied first (`m^-1`'s state has the solved entry, as `fixed.rs` tests it).
//! If `p` had a solution `w m` costing exactly the table's value `h`, then `w` would take
//! `p` to the state `m^-1`, whose entry is solved: the entry would be `cost(w) < h` away,
//! a contradiction. So when a look-up on the position (or on a conjugate, with the letters
//! conjugated) equals the cost left, no solution within that cost ends with such a letter.
//! A solution of a child ends as the parent's does, so these letters add up along the
//! path; once every letter is excluded, the node has no solution within the bound and is
//! cut. (On the 3x3x3 the tables of Kociemba's coordinates, on three axes, each exclude
//! the two faces of their axis: equal values on all three cut the node.) A stored value
//! that is only a lower bound (15: unreached) excludes the same letters, since then no
//! solution within that cost exists at all.
//!
//! Values on the inverse exclude first letters instead; the search gets those from
//! `fixed.rs` already (a letter that keeps the entry keeps the value, above the child's
//! limit).

use super::fixed::keeps;
use crate::model::{Action, CellMap, Model};
use crate::pdb::Shape;

/// Per (variant, table), bit `v * tables + k`: the letters (bits) that cannot end a
/// solution within a cost equal to that look-up's value. `inverse[l]` is the letter
/// undoing `l`, `None` when a letter costs other than its inverse (the tables' distances
/// are then not the same both ways): all empty then, and when there are more than 64
/// letters or look-ups.
pub(super) fn final_letters(
    model: &Model,
    actions: &[Action],
    inverse: Option<&[u32]>,
    shapes: &[Shape],
    variants: &[(Option<usize>, bool)],
    conjugators: &[CellMap],
    needed: &[bool],
) -> Vec<u64> {
    let np = shapes.len();
    let mut out = vec![0u64; variants.len() * np];
    let Some(inverse) = inverse.filter(|_| actions.len() <= 64 && out.len() <= 64) else {
        return out;
    };
    let solved = model.solved();
    let (mut back, mut g) = (vec![0u8; model.n], vec![0u8; model.n]);
    for l in 0..actions.len() {
        model.apply(&actions[inverse[l] as usize], &solved, &mut back);
        for (v, &(conj, inv)) in variants.iter().enumerate() {
            if inv {
                continue;
            }
            match conj {
                None => g.copy_from_slice(&back),
                Some(c) => conjugators[c].apply(&back, &mut g),
            }
            for (k, shape) in shapes.iter().enumerate() {
                let j = v * np + k;
                if needed[j] && keeps(model, &g, shape) {
                    out[j] |= 1 << l;
                }
            }
        }
    }
    out
}

/// The look-ups that exclude any letter (bits).
pub(super) fn mask_of(final_letters: &[u64]) -> u64 {
    final_letters
        .iter()
        .enumerate()
        .filter(|(j, &f)| *j < 64 && f != 0)
        .fold(0, |m, (j, _)| m | 1 << j)
}

impl super::Solver {
    /// The letters that cannot end a solution within `limit` of a node whose look-ups
    /// `read` (bits) have the values `ub`, added to those its path excludes (`path`).
    #[inline]
    pub(super) fn excluded(&self, path: u64, ub: &[u8], read: u64, limit: u32) -> u64 {
        let mut out = path;
        let mut bits = read & self.ending;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if ub[j] as u32 == limit {
                out |= self.final_letters[j];
            }
        }
        out
    }

    /// Whether `excluded` leaves no letter to end a solution with.
    #[inline]
    pub(super) fn no_last_letter(&self, excluded: u64) -> bool {
        self.ending != 0 && excluded & self.letters == self.letters
    }
}

#[cfg(test)]
mod tests {
    use super::super::bound::has;
    use super::super::tests::{opts, FACES};
    use super::super::Solver;
    use crate::metric::Metric;
    use crate::testsupport::cube3;
    use puz_core::Control;

    #[test]
    fn excluded_letters_leave_the_solved_entry_in_place() {
        // What `final_letters` rests on, checked on the states themselves: for every
        // letter it gives a look-up, the state of the letter's inverse has the solved
        // state's entry on that look-up's variant (conjugate included). Small tables of
        // pieces too (the budget of 4 MiB), where some letters keep pieces in place.
        let c3 = cube3();
        let ctl = Control::default();
        for (metric, mem) in [
            (Metric::htm(&c3, &FACES, &ctl).unwrap(), 4u64 << 30),
            (Metric::atm(&c3, &FACES, &ctl).unwrap(), 4 << 30),
            (Metric::htm(&c3, &FACES, &ctl).unwrap(), 4 << 20),
            (Metric::qtm(&c3, &FACES, &ctl).unwrap(), 4 << 20),
        ] {
            let model = crate::model::Model::new(&c3).unwrap();
            let actions = crate::testsupport::actions_of(&model, &metric);
            let shapes = crate::pdb::choose_patterns(&model, &actions, mem, &[]);
            let s = Solver::with_shapes_unfilled(&c3, &metric, &opts(mem), shapes).unwrap();
            let np = s.heuristic.pdbs.len();
            let solved = s.model.solved();
            let n = s.model.n;
            let (mut t, mut a, mut b) = (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
            let mut checked = 0;
            for l in 0..metric.len() {
                let back = metric.alphabet.inverse[l] as usize;
                s.model.apply(&s.actions[back], &solved, &mut t);
                for v in 0..s.variants.len() {
                    s.variant(v, &t, &t, &mut a);
                    s.variant(v, &solved, &solved, &mut b);
                    for k in 0..np {
                        let j = v * np + k;
                        if s.final_letters[j] >> l & 1 == 1 {
                            assert!(!s.variants[v].1 && has(s.ending, j));
                            let shape = &s.heuristic.pdbs[k].shape;
                            assert_eq!(shape.index(&a), shape.index(&b), "letter {l}, {v}, {k}");
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 0);
        }
    }

    #[test]
    fn excluded_last_letters_change_no_answer() {
        // The same costs and reproducible solutions (every optimal one, with `All`) with
        // and without the excluded last letters, in three metrics on small tables of
        // pieces, and never more nodes.
        use super::super::tests::{same_answers, POSITIONS};
        use super::super::Wanted;
        let c3 = cube3();
        let ctl = Control::default();
        let mut positions = POSITIONS.to_vec();
        positions.push("U2 D2 F2 B2 L2 R2");
        let mut fewer = false;
        for metric in [
            Metric::htm(&c3, &FACES, &ctl).unwrap(),
            Metric::qtm(&c3, &FACES, &ctl).unwrap(),
            Metric::atm(&c3, &FACES, &ctl).unwrap(),
        ] {
            let mut with = Solver::new(&c3, &metric, &opts(4 << 20), &ctl).unwrap();
            assert!(with.ending != 0);
            let mut without = Solver::new(&c3, &metric, &opts(4 << 20), &ctl).unwrap();
            without.final_letters.iter_mut().for_each(|m| *m = 0);
            without.ending = 0;
            same_answers(&c3, &mut with, &without, &positions, Wanted::Earliest);
            // Node counts are exact when every task runs to its end (the last cost's
            // vary from run to run otherwise).
            for (a, b) in same_answers(&c3, &mut with, &without, &positions, Wanted::All) {
                assert!(a <= b, "{}: {a} > {b}", metric.len());
                fewer |= a < b;
            }
        }
        assert!(fewer);
    }

    #[test]
    fn kociemba_axes_exclude_their_own_faces() {
        // The 3x3x3 in htm and atm with the phase-1 table (Kociemba's coordinates on three
        // axes): on the position it excludes the letters of its subgroup <U, D, R2, L2,
        // F2, B2> (a letter of U and D, or of half turns only); the three axes together
        // exclude every letter, so equal values on all three cut a node.
        let c3 = cube3();
        let ctl = Control::default();
        for metric in [
            Metric::htm(&c3, &FACES, &ctl).unwrap(),
            Metric::atm(&c3, &FACES, &ctl).unwrap(),
        ] {
            let model = crate::model::Model::new(&c3).unwrap();
            let actions = crate::testsupport::actions_of(&model, &metric);
            let shapes = crate::pdb::choose_patterns(&model, &actions, 4 << 30, &[]);
            assert!(matches!(shapes[0], crate::pdb::Shape::Coords(_)));
            let s = Solver::with_shapes_unfilled(&c3, &metric, &opts(4 << 30), shapes).unwrap();
            let np = s.heuristic.pdbs.len();
            let sets: Vec<u64> = (0..s.variants.len())
                .filter(|&v| !s.variants[v].1)
                .map(|v| s.final_letters[v * np])
                .collect();
            assert_eq!(sets.len(), 3);
            let letters = (1u64 << metric.len()) - 1;
            assert_eq!(sets.iter().fold(0, |a, b| a | b), letters);
            for l in 0..metric.len() {
                let text = metric.display(&[l as u32]);
                let in_g1 = text
                    .split(['(', ')', ' '])
                    .filter(|t| !t.is_empty())
                    .all(|t| t.starts_with('U') || t.starts_with('D') || t.ends_with('2'));
                assert_eq!(sets[0] >> l & 1 == 1, in_g1, "{text}");
            }
            // The corners' table (every corner) follows no subgroup a letter lies in.
            assert_eq!(s.final_letters[1], 0);
        }
    }
}
