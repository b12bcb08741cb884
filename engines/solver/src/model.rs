//! The compact position model used by the searches.
//!
//! A position is one byte per location, orbit after orbit: `piece * twist + ori` (the
//! twsearch/Gould view of `Puzzle::orbit_states`). A letter is an [`Action`]: the new byte
//! at location `b` is the old byte at `src[b]` with `add[b]` added to its orientation,
//! done by one table look-up. [`Model::encode`] packs a position exactly into a `u128`
//! (a few bits per location) for sorted frontiers and hash sets. [`Normaliser`] identifies
//! positions that differ by a whole-puzzle rotation.

use crate::error::{invalid, SolveError};
use puz_core::{Perm, Puzzle};
use std::collections::HashMap;

/// Where an orbit sits in the byte state.
#[derive(Clone, Debug)]
pub struct OrbitModel {
    pub size: usize,
    pub twist: u8,
    /// Index of its first location in the state.
    pub start: usize,
    /// Bits per location in the packed code.
    pub bits: u32,
    /// Its first point in the puzzle's permutations.
    pub offset: usize,
    /// True when every letter keeps the orientation sum of this orbit (mod twist).
    pub ori_sum_fixed: bool,
}

/// Entries of the bump table an action's offset (a `u16`) and a cell can reach.
const BUMP: usize = u16::MAX as usize + 256;

/// The byte-state model of a puzzle.
#[derive(Clone, Debug)]
pub struct Model {
    pub orbits: Vec<OrbitModel>,
    /// Locations over all orbits (bytes per state).
    pub n: usize,
    degree: usize,
    /// `bump[table(twist, add) * 256 + cell]`: the cell with `add` added to its orientation.
    bump: Vec<u8>,
    /// `undo[orbit * 256 + cell]`: the cell's piece and the orientation that undoes its
    /// own (for [`Model::inverse`] without divisions).
    undo: Vec<(u8, u8)>,
}

/// A letter acting on byte states.
#[derive(Clone, Debug)]
pub struct Action {
    pub src: Vec<u8>,
    /// Offsets into the bump table (orbit twist and added orientation).
    pub off: Vec<u16>,
    /// The orientation added at each location.
    pub add: Vec<u8>,
}

/// A map of byte states done in one pass: `out[b] = map[b][s[src[b]]]` (a conjugation).
#[derive(Clone, Debug)]
pub struct CellMap {
    src: Vec<u8>,
    /// Per location, the image of each cell (a row of 256: indexed by a byte, no bounds
    /// check).
    map: Vec<[u8; 256]>,
}

impl CellMap {
    /// The location whose cell goes to location `b`.
    pub fn source(&self, b: usize) -> usize {
        self.src[b] as usize
    }

    /// The cell at location `b` of the image when `cell` is at [`CellMap::source`]`(b)`.
    pub fn image(&self, b: usize, cell: u8) -> u8 {
        self.map[b][cell as usize]
    }

    #[inline]
    pub fn apply(&self, s: &[u8], out: &mut [u8]) {
        for ((o, row), &src) in out.iter_mut().zip(&self.map).zip(&self.src) {
            *o = row[s[src as usize] as usize];
        }
    }
}

fn table(twist: u8, add: u8) -> usize {
    let t = twist as usize;
    t * (t - 1) / 2 + add as usize
}

impl Model {
    /// The model of a puzzle: every orbit must have at most 256 location-orientations.
    pub fn new(puzzle: &Puzzle) -> Result<Model, SolveError> {
        let mut orbits = Vec::new();
        let mut start = 0;
        let mut max_twist = 1u8;
        for o in &puzzle.orbits {
            let cells = o.size * o.twist as usize;
            if cells > 256 {
                return invalid(format!(
                    "orbit `{}` has {cells} location-orientations (at most 256)",
                    o.name
                ));
            }
            let bits = (usize::BITS - (cells.max(2) - 1).leading_zeros()).max(1);
            let ori_sum_fixed = puzzle
                .moves
                .iter()
                .all(|m| orbit_twist_sum(puzzle, o, &m.perm) == 0);
            orbits.push(OrbitModel {
                size: o.size,
                twist: o.twist,
                start,
                bits,
                offset: o.offset,
                ori_sum_fixed,
            });
            start += o.size;
            max_twist = max_twist.max(o.twist);
        }
        let ntables = table(max_twist + 1, 0);
        // At least every offset an `Action` can hold plus a cell, so that `apply` indexes
        // it without a bounds check (see `BUMP`).
        let mut bump = vec![0u8; (ntables * 256).max(BUMP)];
        for t in 1..=max_twist {
            for a in 0..t {
                for cell in 0..256usize {
                    let (p, o) = (cell / t as usize, cell % t as usize);
                    let v = p * t as usize + (o + a as usize) % t as usize;
                    bump[table(t, a) * 256 + cell] = v.min(255) as u8;
                }
            }
        }
        let mut undo = vec![(0u8, 0u8); orbits.len() * 256];
        for (oi, o) in orbits.iter().enumerate() {
            let t = o.twist as usize;
            for cell in 0..(o.size * t).min(256) {
                undo[oi * 256 + cell] = ((cell / t) as u8, ((t - cell % t) % t) as u8);
            }
        }
        Ok(Model {
            orbits,
            n: start,
            degree: puzzle.degree(),
            bump,
            undo,
        })
    }

    /// Marks as keeping its orientation sum every orbit whose sum each of the `letters`
    /// keeps, whatever the puzzle's other moves do (`new` looks at every move: a split
    /// orbit of a subgroup, `split.rs`, is crossed by the moves that are not letters).
    pub fn keep_sums_of(&mut self, letters: &[Action]) {
        for o in self
            .orbits
            .iter_mut()
            .filter(|o| o.twist > 1 && !o.ori_sum_fixed)
        {
            o.ori_sum_fixed = letters.iter().all(|a| {
                let sum: u32 = a.add[o.start..o.start + o.size]
                    .iter()
                    .map(|&x| x as u32)
                    .sum();
                sum.is_multiple_of(o.twist as u32)
            });
        }
    }

    /// Bits of the packed code.
    pub fn code_bits(&self) -> u32 {
        self.orbits.iter().map(|o| o.bits * o.size as u32).sum()
    }

    /// The solved state.
    pub fn solved(&self) -> Vec<u8> {
        let mut s = vec![0u8; self.n];
        for o in &self.orbits {
            for l in 0..o.size {
                s[o.start + l] = (l * o.twist as usize) as u8;
            }
        }
        s
    }

    /// The byte state of a position (`None` if it does not respect the orbits).
    pub fn state_of(&self, p: &Perm) -> Option<Vec<u8>> {
        if p.degree() != self.degree {
            return None;
        }
        let mut s = vec![0u8; self.n];
        for o in &self.orbits {
            let t = o.twist as usize;
            for piece in 0..o.size {
                let base = p.image(o.offset + piece * t);
                if base < o.offset || base >= o.offset + o.size * t {
                    return None;
                }
                let (l, ori) = ((base - o.offset) / t, (base - o.offset) % t);
                for k in 1..t {
                    if p.image(o.offset + piece * t + k) != o.offset + l * t + (ori + k) % t {
                        return None;
                    }
                }
                s[o.start + l] = (piece * t + ori) as u8;
            }
        }
        Some(s)
    }

    /// The position (permutation of points) of a byte state.
    pub fn perm_of(&self, s: &[u8]) -> Perm {
        let mut images = vec![0u16; self.degree];
        for o in &self.orbits {
            let t = o.twist as usize;
            for l in 0..o.size {
                let cell = s[o.start + l] as usize;
                let (piece, ori) = (cell / t, cell % t);
                for k in 0..t {
                    images[o.offset + piece * t + k] = (o.offset + l * t + (ori + k) % t) as u16;
                }
            }
        }
        Perm::from_images_unchecked(images)
    }

    /// The action of a letter given by its permutation.
    pub fn action(&self, p: &Perm) -> Option<Action> {
        self.state_of(p).map(|s| self.action_of_state(&s))
    }

    /// The action "then do the position `s`".
    pub fn action_of_state(&self, s: &[u8]) -> Action {
        let mut src = vec![0u8; self.n];
        let mut off = vec![0u16; self.n];
        let mut add = vec![0u8; self.n];
        for o in &self.orbits {
            let t = o.twist;
            for b in 0..o.size {
                let cell = s[o.start + b];
                src[o.start + b] = (o.start + (cell / t) as usize) as u8;
                add[o.start + b] = cell % t;
                off[o.start + b] = (table(t, cell % t) * 256) as u16;
            }
        }
        Action { src, off, add }
    }

    /// `out = s` followed by the action.
    #[inline]
    pub fn apply(&self, a: &Action, s: &[u8], out: &mut [u8]) {
        // A `u16` offset plus a byte is always inside the first `BUMP` entries: the
        // compiler drops that bounds check in the hottest loop of the search.
        let bump: &[u8; BUMP] = self.bump[..BUMP].try_into().expect("bump table");
        let s = &s[..self.n];
        for ((o, &src), &off) in out[..self.n].iter_mut().zip(&a.src).zip(&a.off) {
            *o = bump[off as usize + s[src as usize] as usize];
        }
    }

    /// `out` = the state of "the position `x`, then the position `s`".
    #[inline]
    pub fn compose(&self, x: &[u8], s: &[u8], out: &mut [u8]) {
        for o in &self.orbits {
            let t = o.twist;
            for b in o.start..o.start + o.size {
                let cell = s[b];
                let (src, add) = (o.start + (cell / t) as usize, cell % t);
                out[b] = self.bump[table(t, add) * 256 + x[src] as usize];
            }
        }
    }

    /// The inverse position.
    #[inline]
    pub fn inverse(&self, s: &[u8], out: &mut [u8]) {
        for (oi, o) in self.orbits.iter().enumerate() {
            let t = o.twist;
            let undo = &self.undo[oi * 256..(oi + 1) * 256];
            for (l, &cell) in s[o.start..o.start + o.size].iter().enumerate() {
                let (x, back) = undo[cell as usize];
                out[o.start + x as usize] = (l as u8).wrapping_mul(t).wrapping_add(back);
            }
        }
    }

    /// Conjugation `s -> c^-1 s c` by a permutation `c` of the points that sends each
    /// location's points onto one location of the same orbit: a reflection too, which is
    /// no position. `None` for other `c`.
    pub fn conjugation_by(&self, c: &Perm) -> Option<CellMap> {
        if c.degree() != self.degree {
            return None;
        }
        let ci = c.inverse();
        let mut src = vec![0u8; self.n];
        let mut map = vec![[0u8; 256]; self.n];
        for o in &self.orbits {
            let t = o.twist as usize;
            let span = o.offset..o.offset + o.size * t;
            // (location, point of it) of a point of the orbit.
            let loc = |p: usize| {
                span.contains(&p)
                    .then(|| ((p - o.offset) / t, (p - o.offset) % t))
            };
            let mut to = vec![0usize; o.size];
            for (l, to) in to.iter_mut().enumerate() {
                *to = loc(c.image(o.offset + l * t))?.0;
                for k in 1..t {
                    if loc(c.image(o.offset + l * t + k))?.0 != *to {
                        return None;
                    }
                }
            }
            // With piece `a` at `l` turned by `x` (the position sends `a`'s point `j` to
            // `l`'s point `j + x`), the conjugate holds piece `to[a]` at `to[l]`, turned
            // by where `c` sends the point of `l` that `c^-1` of its first point reaches.
            for l in 0..o.size {
                src[o.start + to[l]] = (o.start + l) as u8;
                for a in 0..o.size {
                    let piece = to[a];
                    let (_, j) = loc(ci.image(o.offset + piece * t))?;
                    for x in 0..t {
                        let (_, k) = loc(c.image(o.offset + l * t + (j + x) % t))?;
                        map[o.start + to[l]][a * t + x] = (piece * t + k) as u8;
                    }
                }
            }
        }
        Some(CellMap { src, map })
    }

    /// `first` then `second`, as one map.
    pub fn then_map(&self, first: &CellMap, second: &CellMap) -> CellMap {
        let mut map = vec![[0u8; 256]; self.n];
        let mut src = vec![0u8; self.n];
        for o in &self.orbits {
            let cells = (o.size * o.twist as usize).min(256);
            for b in o.start..o.start + o.size {
                let mid = second.source(b);
                src[b] = first.src[mid];
                for (x, cell) in map[b][..cells].iter_mut().enumerate() {
                    *cell = second.image(b, first.image(mid, x as u8));
                }
            }
        }
        CellMap { src, map }
    }

    /// Whether two maps agree on every cell of every location.
    pub fn same_map(&self, a: &CellMap, b: &CellMap) -> bool {
        self.orbits.iter().all(|o| {
            let cells = (o.size * o.twist as usize).min(256);
            (o.start..o.start + o.size)
                .all(|l| a.src[l] == b.src[l] && a.map[l][..cells] == b.map[l][..cells])
        })
    }

    /// Packs a state exactly into a `u128` (needs `code_bits() <= 128`).
    #[inline]
    pub fn encode(&self, s: &[u8]) -> u128 {
        let mut c = 0u128;
        for o in &self.orbits {
            for l in 0..o.size {
                c = (c << o.bits) | s[o.start + l] as u128;
            }
        }
        c
    }

    /// Unpacks a code made by [`Model::encode`].
    #[inline]
    pub fn decode(&self, mut c: u128, out: &mut [u8]) {
        for o in self.orbits.iter().rev() {
            let mask = (1u128 << o.bits) - 1;
            for l in (0..o.size).rev() {
                out[o.start + l] = (c & mask) as u8;
                c >>= o.bits;
            }
        }
    }

    /// Refuses puzzles whose positions need more than 128 bits.
    pub fn check_code_bits(&self) -> Result<(), SolveError> {
        if self.code_bits() > 128 {
            return invalid(format!(
                "positions need {} bits, more than the 128 of the compact encoding",
                self.code_bits()
            ));
        }
        Ok(())
    }
}

fn orbit_twist_sum(_puzzle: &Puzzle, o: &puz_core::Orbit, p: &Perm) -> usize {
    let t = o.twist as usize;
    let mut sum = 0;
    for l in 0..o.size {
        let img = p.image(o.offset + l * t);
        if img >= o.offset && img < o.offset + o.size * t {
            sum += (img - o.offset) % t;
        }
    }
    sum % t
}

/// Identifies positions that differ by a whole-puzzle rotation: `normalise(s)` is `s`
/// followed by the one rotation that brings a key orbit (the centres) home, or the least
/// code over all rotations when no orbit tells the rotations apart.
pub struct Normaliser {
    rotations: Vec<Action>,
    key: Option<(usize, HashMap<Vec<u8>, usize>)>,
}

impl Normaliser {
    /// The rotation group generated by `gens` (positions of the puzzle). `letters` are the
    /// moves searched: a key orbit must be moved by each of them like by some rotation
    /// (the centres under face and slice moves), so every position finds its rotation
    /// by one look-up.
    pub fn new(model: &Model, gens: &[Perm], letters: &[Action]) -> Result<Normaliser, SolveError> {
        let mut states: Vec<Vec<u8>> = vec![model.solved()];
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        index.insert(states[0].clone(), 0);
        let mut gen_actions = Vec::new();
        for g in gens {
            match model.action(g) {
                Some(a) => gen_actions.push(a),
                None => return invalid("a rotation is not a position of the puzzle"),
            }
        }
        let mut i = 0;
        let mut buf = vec![0u8; model.n];
        while i < states.len() {
            for a in &gen_actions {
                model.apply(a, &states[i], &mut buf);
                if !index.contains_key(&buf) {
                    index.insert(buf.clone(), states.len());
                    states.push(buf.clone());
                    if states.len() > 10_000 {
                        return invalid("the rotation group has more than 10000 elements");
                    }
                }
            }
            i += 1;
        }
        let rotations: Vec<Action> = states.iter().map(|s| model.action_of_state(s)).collect();
        // A key orbit: the rotations' inverses are told apart by their cells there.
        let mut key = None;
        for (oi, o) in model.orbits.iter().enumerate() {
            let mut map = HashMap::new();
            let mut inv = vec![0u8; model.n];
            for (r, s) in states.iter().enumerate() {
                model.inverse(s, &mut inv);
                map.insert(inv[o.start..o.start + o.size].to_vec(), r);
            }
            let rigid = letters.iter().all(|a| {
                let mut s = vec![0u8; model.n];
                model.apply(a, &model.solved(), &mut s);
                model.inverse(&s.clone(), &mut s);
                map.contains_key(&s[o.start..o.start + o.size])
            });
            if map.len() == states.len() && rigid {
                key = Some((oi, map));
                break;
            }
        }
        Ok(Normaliser { rotations, key })
    }

    /// The orbit whose cells say which rotation brings a position home, if there is one.
    pub fn key_orbit(&self) -> Option<usize> {
        self.key.as_ref().map(|k| k.0)
    }

    /// The number of rotations.
    pub fn len(&self) -> usize {
        self.rotations.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rotations.is_empty()
    }

    /// Writes the representative of `s` to `out`.
    pub fn normalise(&self, model: &Model, s: &[u8], out: &mut [u8]) {
        if let Some((oi, map)) = &self.key {
            let o = &model.orbits[*oi];
            if let Some(&r) = map.get(&s[o.start..o.start + o.size]) {
                model.apply(&self.rotations[r], s, out);
                return;
            }
        }
        let mut best = u128::MAX;
        let mut tmp = vec![0u8; model.n];
        for r in &self.rotations {
            model.apply(r, s, &mut tmp);
            let c = model.encode(&tmp);
            if c < best {
                best = c;
                out.copy_from_slice(&tmp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::cube3;
    use proptest::prelude::*;

    fn random_position(puzzle: &Puzzle, moves: &[usize]) -> Perm {
        let mut p = puzzle.identity();
        for &m in moves {
            p = p.then(&puzzle.moves[m % puzzle.moves.len()].perm);
        }
        p
    }

    proptest! {
        #[test]
        fn model_composes_like_perms(a in proptest::collection::vec(0usize..12, 0..20),
                                     b in proptest::collection::vec(0usize..12, 0..20)) {
            let c3 = cube3();
            let m = Model::new(&c3).unwrap();
            let (p, q) = (random_position(&c3, &a), random_position(&c3, &b));
            let (sp, sq) = (m.state_of(&p).unwrap(), m.state_of(&q).unwrap());
            prop_assert_eq!(m.perm_of(&sp), p.clone());
            let mut out = vec![0u8; m.n];
            m.apply(&m.action_of_state(&sq), &sp, &mut out);
            prop_assert_eq!(m.perm_of(&out), p.then(&q));
            m.inverse(&sp, &mut out);
            prop_assert_eq!(m.perm_of(&out), p.inverse());
            let mut back = vec![0u8; m.n];
            m.decode(m.encode(&sp), &mut back);
            prop_assert_eq!(back, sp);
        }
    }

    #[test]
    fn symmetries_map_states_as_they_conjugate_points() {
        // The 24 rotations and the 24 reflections of the cube: each map of byte states
        // gives the state of `c^-1 p c`, and a rotation's is the map from its state.
        let c3 = cube3();
        let m = Model::new(&c3).unwrap();
        let htm = crate::Metric::htm(
            &c3,
            &["U", "D", "R", "L", "F", "B"],
            &puz_core::Control::default(),
        )
        .unwrap();
        let sym = crate::symmetry::Symmetries::new(&c3, &htm, &crate::canon::Canon::new(&htm));
        assert_eq!(sym.all.len(), 48);
        let mut reflections = 0;
        let mut out = vec![0u8; m.n];
        for c in &sym.all {
            let map = m.conjugation_by(c).unwrap();
            match m.state_of(&c.inverse()) {
                Some(cinv) => {
                    // A rotation's map: c^-1 from its state, then the position, then c.
                    let ca = m.action(c).unwrap();
                    let s = m.state_of(&random_position(&c3, &[3, 7, 11, 2])).unwrap();
                    let (mut a, mut b, mut want) = (vec![0; m.n], vec![0; m.n], vec![0; m.n]);
                    m.compose(&cinv, &s, &mut a);
                    m.apply(&ca, &a, &mut want);
                    map.apply(&s, &mut b);
                    assert_eq!(b, want);
                }
                None => reflections += 1,
            }
            for seed in 0..20usize {
                let moves: Vec<usize> = (0..25).map(|i| (seed * 7919 + i * 104_729) % 97).collect();
                let p = random_position(&c3, &moves);
                map.apply(&m.state_of(&p).unwrap(), &mut out);
                let want = c.inverse().then(&p).then(c);
                assert_eq!(m.perm_of(&out), want);
            }
        }
        assert_eq!(reflections, 24);
        // Products and inverses as maps.
        let (a, b) = (&sym.all[5], &sym.all[30]);
        let (ma, mb) = (m.conjugation_by(a).unwrap(), m.conjugation_by(b).unwrap());
        assert!(m.same_map(
            &m.then_map(&ma, &mb),
            &m.conjugation_by(&a.then(b)).unwrap()
        ));
        let id = m.conjugation_by(&c3.identity()).unwrap();
        let ainv = m.conjugation_by(&a.inverse()).unwrap();
        assert!(m.same_map(&m.then_map(&ma, &ainv), &id));
        assert!(!m.same_map(&ma, &id));
    }

    #[test]
    fn rotations_are_identified() {
        let c3 = cube3();
        let m = Model::new(&c3).unwrap();
        let rot: Vec<Perm> = ["x", "y"]
            .iter()
            .map(|n| c3.moves[c3.move_index(n).unwrap()].perm.clone())
            .collect();
        let stm = crate::Metric::stm(
            &c3,
            &["U", "D", "R", "L", "F", "B"],
            &["M", "E", "S"],
            &puz_core::Control::default(),
        )
        .unwrap();
        let letters: Vec<Action> = stm
            .alphabet
            .perms
            .iter()
            .map(|p| m.action(p).unwrap())
            .collect();
        let norm = Normaliser::new(&m, &rot, &letters).unwrap();
        assert_eq!(norm.key_orbit(), Some(2));
        assert_eq!(norm.len(), 24);
        let mv = |n: &str| c3.moves[c3.move_index(n).unwrap()].perm.clone();
        // M = x' L' R as positions of pieces up to rotation; and z2 is a rotation.
        let mut a = vec![0u8; m.n];
        let mut b = vec![0u8; m.n];
        let p = mv("R").then(&mv("M"));
        let q = mv("R").then(&mv("L").pow(3)).then(&mv("R"));
        norm.normalise(&m, &m.state_of(&p).unwrap(), &mut a);
        norm.normalise(&m, &m.state_of(&q).unwrap(), &mut b);
        assert_ne!(p, q);
        assert_eq!(a, b);
        norm.normalise(&m, &m.state_of(&mv("z").pow(2)).unwrap(), &mut a);
        assert_eq!(a, m.solved());
    }
}
