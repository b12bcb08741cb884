//! Canonical sequences: an automaton whose state is the last family used and the element
//! of that family's group built so far.
//!
//! A letter `b` of family `g` may follow state `(f, h)` when
//! - `g == f` and `h b` is reached from `h` by `b` in the family's shortest-path tree (so
//!   `U U` is refused when `U2` is a letter, `U U'` always, while in `qtm` `U U` passes once);
//! - `g != f`, the families do not both commute and stand in decreasing order (of two
//!   commuting families only the order `f < g` is searched), and `b` alone is the
//!   canonical spelling of its element.
//!
//! Every sequence has an equivalent canonical one of no greater cost, so searches that
//! follow only canonical successors lose no optimal solution.

use crate::metric::Metric;

/// The canonical-successor table: `next(state, letter)`, state 0 at the start.
#[derive(Clone, Debug)]
pub struct Canon {
    pub states: usize,
    letters: usize,
    table: Vec<u32>,
    /// The letters allowed in each state, for tight loops.
    allowed: Vec<Vec<(u32, u32)>>,
}

const NONE: u32 = u32::MAX;

impl Canon {
    pub fn new(metric: &Metric) -> Canon {
        let fams = &metric.families;
        let nl = metric.len();
        // State numbering: 0 = start, then for each family its non-identity elements.
        let mut base = Vec::new();
        let mut states = 1usize;
        for f in &fams.list {
            base.push(states);
            states += f.elements.len() - 1;
        }
        let state_of = |f: usize, e: usize| (base[f] + e - 1) as u32;
        let mut table = vec![NONE; states * nl];
        // Whether letter b alone is the canonical spelling of its element.
        let single = |b: usize| {
            let f = fams.of_letter[b];
            let e = fams.elem_of_letter[b];
            fams.list[f].parent[e] == Some((0, b as u32))
        };
        for (b, slot) in table.iter_mut().enumerate().take(nl) {
            if single(b) {
                *slot = state_of(fams.of_letter[b], fams.elem_of_letter[b]);
            }
        }
        for (f, fam) in fams.list.iter().enumerate() {
            let k = fam.letters.len();
            for h in 1..fam.elements.len() {
                let s = state_of(f, h) as usize;
                for b in 0..nl {
                    let g = fams.of_letter[b];
                    let next = if g == f {
                        let i = fam.letter_pos(b as u32).unwrap();
                        let e = fam.mult[h * k + i];
                        (e != 0 && fam.parent[e] == Some((h, b as u32))).then(|| state_of(f, e))
                    } else if fams.commute[f][g] && g < f {
                        None
                    } else {
                        single(b).then(|| state_of(g, fams.elem_of_letter[b]))
                    };
                    if let Some(n) = next {
                        table[s * nl + b] = n;
                    }
                }
            }
        }
        Canon::from_table(states, nl, table)
    }

    /// The automaton of a successor table (`u32::MAX`: refused), `letters` a state.
    pub(crate) fn from_table(states: usize, letters: usize, table: Vec<u32>) -> Canon {
        let allowed = (0..states)
            .map(|s| {
                (0..letters)
                    .filter(|&b| table[s * letters + b] != NONE)
                    .map(|b| (b as u32, table[s * letters + b]))
                    .collect()
            })
            .collect();
        Canon {
            states,
            letters,
            table,
            allowed,
        }
    }

    /// Its states, letters and successor table (see [`Canon::from_table`]).
    pub(crate) fn parts(&self) -> (usize, usize, &[u32]) {
        (self.states, self.letters, &self.table)
    }

    /// The state after `letter`, or `None` when the sequence would not be canonical.
    #[inline]
    pub fn next(&self, state: u32, letter: u32) -> Option<u32> {
        let n = self.table[state as usize * self.letters + letter as usize];
        (n != NONE).then_some(n)
    }

    /// The `(letter, next state)` pairs allowed in `state`.
    #[inline]
    pub fn allowed(&self, state: u32) -> &[(u32, u32)] {
        &self.allowed[state as usize]
    }

    /// The number of canonical sequences of each length up to `depth` (unit costs).
    pub fn count_sequences(&self, depth: usize) -> Vec<u128> {
        let mut counts = vec![0u128; self.states];
        counts[0] = 1;
        let mut out = vec![1u128];
        for _ in 0..depth {
            let mut next = vec![0u128; self.states];
            for (s, &c) in counts.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                for &(_, t) in self.allowed(s as u32) {
                    next[t as usize] += c;
                }
            }
            counts = next;
            out.push(counts.iter().sum());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::testsupport::{actions_of, cube3};
    use puz_core::Control;
    use std::collections::HashSet;

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    #[test]
    fn canonical_sequence_counts() {
        let c3 = cube3();
        let htm = Canon::new(&Metric::htm(&c3, &FACES, &Control::default()).unwrap());
        assert_eq!(
            htm.count_sequences(5),
            vec![1, 18, 243, 3240, 43254, 577368]
        );
        let atm = Canon::new(&Metric::atm(&c3, &FACES, &Control::default()).unwrap());
        assert_eq!(atm.count_sequences(3), vec![1, 45, 1350, 40500]);
        let qtm = Canon::new(&Metric::qtm(&c3, &FACES, &Control::default()).unwrap());
        // After U: U (U U is the canonical half turn), D, D' and the 8 turns of the other
        // axes = 11; after U': D, D' and 8 = 10; after D: D and 8 = 9; after D': 8. Per
        // axis 38, in all 114 = the positions at distance 2 in qtm (no coincidences yet).
        assert_eq!(qtm.count_sequences(2), vec![1, 12, 114]);
    }

    /// Every position within `depth` is reached by a canonical sequence of least length.
    fn complete(metric: &Metric, depth: usize) {
        let c3 = cube3();
        let model = Model::new(&c3).unwrap();
        let canon = Canon::new(metric);
        let acts = actions_of(&model, metric);
        // All sequences, layer by layer.
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut layer = vec![model.solved()];
        seen.insert(model.solved());
        let mut layers = vec![layer.clone()];
        for _ in 0..depth {
            let mut next = Vec::new();
            for s in &layer {
                for a in &acts {
                    let mut t = vec![0u8; model.n];
                    model.apply(a, s, &mut t);
                    if seen.insert(t.clone()) {
                        next.push(t);
                    }
                }
            }
            layers.push(next.clone());
            layer = next;
        }
        // Canonical sequences only, exactly `d` letters.
        let mut frontier: Vec<(Vec<u8>, u32)> = vec![(model.solved(), 0)];
        let mut reached: HashSet<Vec<u8>> = HashSet::new();
        reached.insert(model.solved());
        for (d, expected) in layers.iter().enumerate().skip(1) {
            let mut next = Vec::new();
            for (s, st) in &frontier {
                for &(b, t) in canon.allowed(*st) {
                    let mut u = vec![0u8; model.n];
                    model.apply(&acts[b as usize], s, &mut u);
                    next.push((u, t));
                }
            }
            let at_d: HashSet<&Vec<u8>> = next
                .iter()
                .map(|(s, _)| s)
                .filter(|s| !reached.contains(*s))
                .collect();
            assert_eq!(at_d.len(), expected.len(), "{} depth {d}", metric.name);
            let at_d: Vec<Vec<u8>> = at_d.into_iter().cloned().collect();
            reached.extend(at_d);
            frontier = next;
        }
    }

    #[test]
    fn canonical_sequences_reach_everything() {
        let c3 = cube3();
        complete(&Metric::htm(&c3, &FACES, &Control::default()).unwrap(), 3);
        complete(&Metric::qtm(&c3, &FACES, &Control::default()).unwrap(), 3);
        complete(&Metric::atm(&c3, &FACES, &Control::default()).unwrap(), 2);
        complete(
            &Metric::stm(&c3, &FACES, &["M", "E", "S"], &Control::default()).unwrap(),
            2,
        );
    }
}
