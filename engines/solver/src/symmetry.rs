//! Symmetries of a puzzle in a metric, for the optimal search.
//!
//! A symmetry is a permutation `c` of the puzzle (a product of its declared moves, e.g.
//! whole-cube rotations) whose conjugation maps every letter `g` onto a letter `c^-1 g c`
//! of the same cost. Then `c^-1 p c` is exactly as far from solved as `p`, which the search
//! uses twice: tables are looked up on conjugates of a position (more, larger bounds), and
//! a position with symmetries (`c^-1 p c == p`, like the superflip) needs only one search
//! task per class of first letters: the solutions of the others are the conjugates of its
//! solutions. The second use needs the canonical sequences to be mapped onto canonical
//! sequences, which [`Symmetries::new`] checks on the canonical automaton.

use crate::automorphism::{automorphisms, Constraint};
use crate::canon::Canon;
use crate::metric::Metric;
use puz_core::{Perm, Puzzle};
use std::collections::{HashMap, HashSet, VecDeque};

/// At most this many symmetries are enumerated (the 3x3x3's rotations are 24).
const MAX_GROUP: usize = 1152;

/// The declared moves whose conjugation maps the letters onto letters of equal cost, and
/// the group they generate.
pub struct Symmetries {
    /// Generators: (name, permutation), in the puzzle's order of moves.
    pub generators: Vec<(String, Perm)>,
    /// Every element of the group whose letter map keeps canonical sequences canonical,
    /// the identity first, with its letter map (`letters[i][l]` is `c^-1 l c`).
    pub elements: Vec<Perm>,
    pub letters: Vec<Vec<u32>>,
    /// One element per letter map, canonical or not, the identity first: every map that
    /// keeps distances, for tables reduced by symmetry (the reflections of the 3x3x3 in
    /// htm, say, which send `U D` to `D U`, a sequence the search never makes).
    pub all: Vec<Perm>,
}

/// The letter `c^-1 g c` for each letter `g`, or `None` when some image is not a letter of
/// the same cost.
fn letter_map(c: &Perm, metric: &Metric, index: &HashMap<&Perm, usize>) -> Option<Vec<u32>> {
    let ci = c.inverse();
    metric
        .alphabet
        .perms
        .iter()
        .enumerate()
        .map(|(l, g)| {
            let q = ci.then(g).then(c);
            let &j = index.get(&q)?;
            (metric.cost[j] == metric.cost[l]).then_some(j as u32)
        })
        .collect()
}

/// True when `map` sends every canonical sequence to a canonical sequence: walked on pairs
/// of automaton states (the sequence's, its image's), no allowed letter has a refused image.
fn keeps_canonical(canon: &Canon, map: &[u32]) -> bool {
    let mut seen = HashSet::new();
    let mut todo = VecDeque::from([(0u32, 0u32)]);
    seen.insert((0u32, 0u32));
    while let Some((s, t)) = todo.pop_front() {
        for &(l, s2) in canon.allowed(s) {
            let Some(t2) = canon.next(t, map[l as usize]) else {
                return false;
            };
            if seen.insert((s2, t2)) {
                todo.push_back((s2, t2));
            }
        }
    }
    true
}

/// Sorted cycle lengths.
fn cycle_type(p: &Perm) -> Vec<usize> {
    let mut t: Vec<usize> = p.cycles().iter().map(Vec::len).collect();
    t.sort_unstable();
    t
}

/// Work allowed to [`automorphisms`] (steps of propagation): the 3x3x3 takes 2.03 million
/// in atm and in htm (counted once with a print in the test `rotations_of_the_cube`).
const AUTOMORPHISM_BUDGET: u64 = 50_000_000;

/// Every permutation of the points whose conjugation maps each letter onto a letter of the
/// same cost and each declared symmetry onto an element of `group` (the declared symmetries'
/// group, identity first), the identity first; `None` when that search gives up.
fn automorphisms_of(
    puzzle: &Puzzle,
    metric: &Metric,
    generators: &[(String, Perm)],
    group: &[Perm],
) -> Option<Vec<Perm>> {
    let perms = &metric.alphabet.perms;
    let types: Vec<Vec<usize>> = perms.iter().map(cycle_type).collect();
    let mut cons: Vec<Constraint> = perms
        .iter()
        .enumerate()
        .map(|(l, p)| Constraint {
            of: p,
            images: (0..perms.len())
                .filter(|&j| metric.cost[j] == metric.cost[l] && types[j] == types[l])
                .map(|j| &perms[j])
                .collect(),
        })
        .collect();
    let group_types: Vec<Vec<usize>> = group.iter().map(cycle_type).collect();
    for (_, s) in generators {
        let t = cycle_type(s);
        cons.push(Constraint {
            of: s,
            images: (0..group.len())
                .filter(|&j| group_types[j] == t)
                .map(|j| &group[j])
                .collect(),
        });
    }
    let mut all = automorphisms(puzzle.degree(), &cons, MAX_GROUP, AUTOMORPHISM_BUDGET)?;
    // The identity first, as the callers expect.
    let id = all.iter().position(Perm::is_identity)?;
    all.swap(0, id);
    Some(all)
}

impl Symmetries {
    pub fn new(puzzle: &Puzzle, metric: &Metric, canon: &Canon) -> Symmetries {
        let index: HashMap<&Perm, usize> = metric
            .alphabet
            .perms
            .iter()
            .enumerate()
            .map(|(i, p)| (p, i))
            .collect();
        let mut generators = Vec::new();
        for m in &puzzle.moves {
            if m.perm.is_identity() {
                continue;
            }
            if let Some(map) = letter_map(&m.perm, metric, &index) {
                if map.iter().enumerate().any(|(l, &j)| j as usize != l) {
                    generators.push((m.name.clone(), m.perm.clone()));
                }
            }
        }
        // The group, breadth-first (given up above MAX_GROUP elements: then only the
        // identity is kept for symmetric positions).
        let id = puzzle.identity();
        let mut group = vec![id.clone()];
        let mut seen: HashSet<Perm> = HashSet::from([id]);
        let mut i = 0;
        while i < group.len() && group.len() <= MAX_GROUP {
            for (_, g) in &generators {
                let h = group[i].then(g);
                if seen.insert(h.clone()) {
                    group.push(h);
                }
            }
            i += 1;
        }
        if group.len() > MAX_GROUP {
            group.truncate(1);
        } else if let Some(all) = automorphisms_of(puzzle, metric, &generators, &group) {
            // The reflections too (and any other symmetry that is no product of moves).
            group = all;
        }
        // One element per letter map: two with the same map differ by a permutation that
        // commutes with every letter (on the 3x3x3, turning every corner's stickers one
        // place, or flipping every edge), so they fix the same positions.
        let mut elements = Vec::new();
        let mut letters = Vec::new();
        let mut all = Vec::new();
        let mut maps = HashSet::new();
        for c in group {
            if let Some(map) = letter_map(&c, metric, &index) {
                if maps.insert(map.clone()) {
                    all.push(c.clone());
                    if keeps_canonical(canon, &map) {
                        elements.push(c);
                        letters.push(map);
                    }
                }
            }
        }
        Symmetries {
            generators,
            elements,
            letters,
            all,
        }
    }

    /// The letter maps of the symmetries that fix `position` (`c^-1 p c == p`), the
    /// identity's included.
    pub fn fixing(&self, position: &Perm) -> Vec<&[u32]> {
        self.elements
            .iter()
            .zip(&self.letters)
            .filter(|(c, _)| &c.inverse().then(position).then(c) == position)
            .map(|(_, m)| m.as_slice())
            .collect()
    }
}

/// Which of `tasks` (sequences of first letters, in search order) to search for a position
/// fixed by the symmetries `maps`: a task is left out when a symmetry sends it to an
/// earlier task, whose solutions are then the conjugates of its own.
pub fn representatives(tasks: &[Vec<u32>], maps: &[&[u32]]) -> Vec<bool> {
    let index: HashMap<&[u32], usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_slice(), i))
        .collect();
    tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            maps.iter().all(|m| {
                let image: Vec<u32> = t.iter().map(|&l| m[l as usize]).collect();
                index.get(image.as_slice()).is_none_or(|&j| j >= i)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::{cube3, seq};

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    #[test]
    fn rotations_of_the_cube() {
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES, &puz_core::Control::default()).unwrap();
        let s = Symmetries::new(&c3, &atm, &Canon::new(&atm));
        let names: Vec<&str> = s.generators.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["x", "y", "z"]);
        // atm has no order among commuting letters: all 24 rotations and 24 reflections
        // keep it canonical. The reflections are found, not declared: one sends R to L'.
        assert_eq!(s.elements.len(), 48);
        assert!(s.elements[0].is_identity());
        let letter = |name: &str| {
            let p = seq(&c3, name);
            atm.alphabet.perms.iter().position(|q| *q == p).unwrap() as u32
        };
        let (r, li) = (letter("R"), letter("L'"));
        assert!(s.letters.iter().any(|m| m[r as usize] == li));
        // htm searches U D but not D U: the rotations that swap U and D do not keep it.
        let htm = Metric::htm(&c3, &FACES, &puz_core::Control::default()).unwrap();
        let h = Symmetries::new(&c3, &htm, &Canon::new(&htm));
        assert!(h.elements.len() < 48 && h.elements[0].is_identity());
        // The superflip is fixed by every symmetry, a random position by the identity.
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        assert_eq!(s.fixing(&superflip).len(), 48);
        assert_eq!(s.fixing(&seq(&c3, "R U F' L2 D B")).len(), 1);
        // Pons asinorum (U2 D2 F2 B2 L2 R2) too; R2 L2 by 16 (those that keep the R-L
        // axis), R U by none but the identity.
        assert_eq!(s.fixing(&seq(&c3, "U2 D2 F2 B2 L2 R2")).len(), 48);
        assert_eq!(s.fixing(&seq(&c3, "R2 L2")).len(), 16);
        assert_eq!(s.fixing(&seq(&c3, "R U")).len(), 1);
    }

    #[test]
    fn one_task_per_class() {
        let tasks = vec![vec![0], vec![1], vec![2], vec![3]];
        let swap: Vec<u32> = vec![1, 0, 3, 2];
        let id: Vec<u32> = vec![0, 1, 2, 3];
        assert_eq!(
            representatives(&tasks, &[&id, &swap]),
            [true, false, true, false]
        );
        assert_eq!(representatives(&tasks, &[&id]), [true; 4]);
    }
}
