//! Incremental indices of the tables over several orbits, on the position and on its
//! conjugates: a child's part values follow from its parent's by each part's move table,
//! the letter conjugated on a conjugate (`c^-1 (p l) c = (c^-1 p c)(c^-1 l c)`, and
//! `c^-1 l c` is a letter). The search then builds no conjugate state and reads no cell
//! for these look-ups. Inverses are not followed: the inverse of a child is the letter
//! applied before the parent's inverse, which no move table of a part can follow (see
//! `pdb/coords.rs`).

use crate::model::{Action, CellMap, Model};
use crate::pdb::{Coords, Shape};

/// One (variant, table) whose index is followed.
struct Slot {
    /// Where its part values start in a node's values.
    at: usize,
    /// Its table (in `Incremental::tables`).
    table: usize,
    /// Per letter: the letter its variant sees.
    letters: Vec<u32>,
}

/// A table over several orbits: its index of part values and each part's move table.
struct Table {
    coords: Coords,
    /// `moves[i][v * letters + l]`: part `i`'s value after letter `l` from the value `v`,
    /// in 16 bits when every part fits (half the cache lines: the table reads of the
    /// search evict them from L2 otherwise).
    moves: Moves,
}

enum Moves {
    Narrow(Vec<Vec<u16>>),
    Wide(Vec<Vec<u32>>),
}

/// The followed (variant, table) look-ups of a solver.
pub(super) struct Incremental {
    slots: Vec<Slot>,
    /// Per (variant, table), variant after variant: its slot.
    slot_of: Vec<Option<usize>>,
    tables: Vec<Table>,
    /// The variant and table of each slot.
    pub(super) which: Vec<(usize, usize)>,
    /// Part values of one node, over every slot.
    pub(super) width: usize,
    letters: usize,
}

/// Per letter, the letter `c^-1 l c` (`conj` maps a state `s` to `c^-1 s c`), when every
/// one is a letter and the map follows the letters on sample states.
fn conjugated_letters(model: &Model, actions: &[Action], conj: &CellMap) -> Option<Vec<u32>> {
    let solved = model.solved();
    let mut c = vec![0u8; model.n];
    conj.apply(&solved, &mut c);
    if c != solved {
        return None;
    }
    let states: Vec<Vec<u8>> = actions
        .iter()
        .map(|a| {
            let mut s = vec![0u8; model.n];
            model.apply(a, &solved, &mut s);
            s
        })
        .collect();
    let mut out = Vec::with_capacity(actions.len());
    for s in &states {
        conj.apply(s, &mut c);
        out.push(states.iter().position(|t| *t == c)? as u32);
    }
    // The homomorphism checked on states a few letters deep (a conjugation always is one;
    // this guards a map that is not).
    let (mut t, mut u, mut ct, mut cu, mut lu) = (
        solved.clone(),
        vec![0u8; model.n],
        vec![0u8; model.n],
        vec![0u8; model.n],
        vec![0u8; model.n],
    );
    for step in 0..4 * actions.len() {
        let l = (step * 7 + step / actions.len()) % actions.len();
        model.apply(&actions[l], &t, &mut u);
        conj.apply(&t, &mut ct);
        conj.apply(&u, &mut cu);
        model.apply(&actions[out[l] as usize], &ct, &mut lu);
        if cu != lu {
            return None;
        }
        std::mem::swap(&mut t, &mut u);
    }
    Some(out)
}

impl Incremental {
    /// Slots for every needed (variant, table) of a table over several orbits on a variant
    /// that is no inverse and whose letters map onto letters. `variants` are (conjugator,
    /// inverse?) as in [`Solver`](super::Solver); `needed` per (variant, table).
    pub(super) fn new(
        model: &Model,
        actions: &[Action],
        shapes: &[Shape],
        variants: &[(Option<usize>, bool)],
        conjugators: &[CellMap],
        needed: &[bool],
    ) -> Incremental {
        let np = shapes.len();
        let identity: Vec<u32> = (0..actions.len() as u32).collect();
        let letter_maps: Vec<Option<Vec<u32>>> = conjugators
            .iter()
            .map(|c| conjugated_letters(model, actions, c))
            .collect();
        let mut inc = Incremental {
            slots: Vec::new(),
            slot_of: vec![None; variants.len() * np],
            tables: Vec::new(),
            which: Vec::new(),
            width: 0,
            letters: actions.len(),
        };
        let mut table_of: Vec<Option<usize>> = vec![None; np];
        for (v, &(conj, inverse)) in variants.iter().enumerate() {
            if inverse {
                continue;
            }
            let letters = match conj {
                None => &identity,
                Some(c) => match &letter_maps[c] {
                    Some(m) => m,
                    None => continue,
                },
            };
            for (k, shape) in shapes.iter().enumerate() {
                let Shape::Coords(coords) = shape else {
                    continue;
                };
                if !needed[v * np + k] {
                    continue;
                }
                let table = *table_of[k].get_or_insert_with(|| {
                    inc.tables.push(table(model, actions, coords));
                    inc.tables.len() - 1
                });
                inc.slot_of[v * np + k] = Some(inc.slots.len());
                inc.slots.push(Slot {
                    at: inc.width,
                    table,
                    letters: letters.clone(),
                });
                inc.which.push((v, k));
                inc.width += coords.parts.len();
            }
        }
        inc
    }

    /// The slot of (variant, table) `j` (`v * tables + k`), if followed.
    #[inline]
    pub(super) fn slot(&self, j: usize) -> Option<usize> {
        self.slot_of.get(j).copied().flatten()
    }

    /// A child's values from its parent's, `l` the letter between them.
    #[inline]
    pub(super) fn step(&self, parent: &[u32], l: u32, out: &mut [u32]) {
        for slot in 0..self.slots.len() {
            self.step_slot(slot, parent, l, out);
        }
    }

    /// The values of one slot of a child from its parent's.
    #[inline]
    pub(super) fn step_slot(&self, slot: usize, parent: &[u32], l: u32, out: &mut [u32]) {
        let s = &self.slots[slot];
        let l = s.letters[l as usize] as usize;
        let (from, to) = (&parent[s.at..], &mut out[s.at..]);
        match &self.tables[s.table].moves {
            Moves::Narrow(moves) => {
                for (i, m) in moves.iter().enumerate() {
                    to[i] = m[from[i] as usize * self.letters + l] as u32;
                }
            }
            Moves::Wide(moves) => {
                for (i, m) in moves.iter().enumerate() {
                    to[i] = m[from[i] as usize * self.letters + l];
                }
            }
        }
    }

    /// The table index of `slot` in a node's values.
    #[inline]
    pub(super) fn index(&self, slot: usize, values: &[u32]) -> u64 {
        let s = &self.slots[slot];
        let c = &self.tables[s.table].coords;
        c.index_of_values(&values[s.at..s.at + c.parts.len()])
    }

    /// Asks the cache for what [`Incremental::index`] of `slot` will read beyond the
    /// values (a reduced table's class of the key).
    #[inline]
    pub(super) fn prefetch(&self, slot: usize, values: &[u32]) {
        let s = &self.slots[slot];
        let c = &self.tables[s.table].coords;
        if let Some(red) = &c.sym {
            red.prefetch(&values[s.at..s.at + c.parts.len()]);
        }
    }

    /// [`Incremental::prefetch`] for every slot.
    #[inline]
    pub(super) fn prefetch_all(&self, values: &[u32]) {
        for slot in 0..self.slots.len() {
            self.prefetch(slot, values);
        }
    }

    /// The values of slot `slot` read from its variant's state `state`.
    pub(super) fn read(&self, slot: usize, coords: &Coords, state: &[u8], out: &mut [u32]) {
        let s = &self.slots[slot];
        for i in 0..coords.parts.len() {
            out[s.at + i] = coords.part_value(i, state) as u32;
        }
    }
}

fn table(model: &Model, actions: &[Action], coords: &Coords) -> Table {
    let wide = coords.move_tables(model, actions);
    let moves = if coords.sizes.iter().all(|&s| s <= 1 << 16) {
        Moves::Narrow(
            wide.iter()
                .map(|m| m.iter().map(|&v| v as u16).collect())
                .collect(),
        )
    } else {
        Moves::Wide(wide)
    };
    Table {
        coords: coords.clone(),
        moves,
    }
}

impl super::Solver {
    /// The followed values of the state `t`, read from its variants' states.
    pub(super) fn followed(&self, t: &[u8], out: &mut [u32]) {
        let inc = &self.incremental;
        let mut state = vec![0u8; self.model.n];
        for (slot, &(v, k)) in inc.which.iter().enumerate() {
            // A followed variant is no inverse: the inverse argument is never read.
            self.variant(v, t, t, &mut state);
            if let Shape::Coords(c) = &self.heuristic.pdbs[k].shape {
                inc.read(slot, c, &state, out);
            }
        }
    }

    /// Marks in `pr` the indices that `values` (a node's followed values) give, for the
    /// look-ups planned (an index is a class look-up of its own in a reduced table).
    #[inline]
    pub(super) fn know(&self, values: &[u32], pr: &mut super::bound::Probe) {
        let inc = &self.incremental;
        let np = self.heuristic.pdbs.len();
        for (slot, &(v, k)) in inc.which.iter().enumerate() {
            let j = v * np + k;
            if pr.planned(j) {
                pr.known[j] = inc.index(slot, values);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{opts, FACES};
    use super::super::Solver;
    use crate::metric::Metric;
    use crate::pdb::Shape;
    use crate::testsupport::cube3;
    use proptest::prelude::*;
    use puz_core::Control;

    /// The 3x3x3 in htm with its phase-1 table on three axes (the 4 GiB choice), without
    /// the table itself: only the indices are compared.
    fn solver() -> &'static Solver {
        static CELL: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
        CELL.get_or_init(|| {
            let c3 = cube3();
            let ctl = Control::default();
            let htm = Metric::htm(&c3, &FACES, &ctl).unwrap();
            let model = crate::model::Model::new(&c3).unwrap();
            let actions = crate::testsupport::actions_of(&model, &htm);
            let coords = crate::pdb::choose_patterns(&model, &actions, 4 << 30, &[])
                .into_iter()
                .filter(|s| matches!(s, Shape::Coords(_)))
                .collect();
            Solver::with_shapes_unfilled(&c3, &htm, &opts(4 << 30), coords).unwrap()
        })
    }

    #[test]
    fn the_position_and_both_other_axes_are_followed() {
        let s = solver();
        // Variants: (none, inverse) for the position and the conjugates by x and z.
        assert_eq!(s.variants.len(), 6);
        assert_eq!(s.incremental.which, [(0, 0), (2, 0), (4, 0)]);
    }

    #[test]
    fn a_table_with_a_whole_orbit_is_followed_on_the_position_only() {
        // Beside nxopt's table, the corners' places and twists with the UD slice's set
        // (`Shape::position_only`): its values are followed on the position alone, and no
        // conjugate is looked up for it.
        use crate::pdb::{Coords, Part};
        let c3 = cube3();
        let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
        let (model, conj) = crate::pdb::symmetric::tests::cube_symmetries();
        let first = solver().heuristic.pdbs[0].shape.clone();
        let parts = vec![
            Part::Places {
                orbit: 0,
                pieces: (0..8).collect(),
            },
            Part::Ori { orbit: 0 },
            Part::Set {
                orbit: 1,
                pieces: vec![8, 9, 10, 11],
            },
        ];
        let t = Coords::new(&model, parts).unwrap();
        let t = crate::pdb::symmetric::reduce(&model, t, &conj, u64::MAX, None, None);
        assert!(t.sym.is_some());
        let shapes = vec![first, Shape::Coords(t)];
        let s = Solver::with_shapes_unfilled(&c3, &htm, &opts(4 << 30), shapes).unwrap();
        assert_eq!(s.incremental.which, [(0, 0), (0, 1), (2, 0), (4, 0)]);
        let np = s.heuristic.pdbs.len();
        for v in 0..s.variants.len() {
            assert_eq!(s.needed[v * np + 1], v == 0, "variant {v}");
        }
    }

    proptest! {
        #[test]
        fn followed_indices_are_the_read_ones(
            moves in proptest::collection::vec(0u32..18, 1..40),
        ) {
            // Values followed letter by letter from the solved state are the values read
            // from each state's variants, and give the same table index.
            let s = solver();
            let inc = &s.incremental;
            let mut t = s.model.solved();
            let mut u = t.clone();
            let mut vals = vec![0u32; inc.width];
            s.followed(&t, &mut vals);
            let (mut next, mut read) = (vals.clone(), vals.clone());
            let mut state = t.clone();
            for &l in &moves {
                s.model.apply(&s.actions[l as usize], &t, &mut u);
                std::mem::swap(&mut t, &mut u);
                inc.step(&vals, l, &mut next);
                std::mem::swap(&mut vals, &mut next);
                s.followed(&t, &mut read);
                prop_assert_eq!(&vals, &read);
                for (slot, &(v, k)) in inc.which.iter().enumerate() {
                    s.variant(v, &t, &t, &mut state);
                    prop_assert_eq!(inc.index(slot, &vals), s.heuristic.pdbs[k].shape.index(&state));
                }
            }
        }
    }
}
