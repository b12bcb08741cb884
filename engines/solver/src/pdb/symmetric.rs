//! Tables over several orbits reduced by the puzzle's symmetries (Kociemba's
//! symmetry-reduced phase-1 tables, generalised).
//!
//! A symmetry `c` maps a position `p` to `c^-1 p c`, exactly as far from solved. When the
//! parts of a [`Coords`] table are carried by `c` as functions of the parts themselves,
//! tuples of values that `c` maps onto each other are equally far from solved and can
//! share one entry. The parts are split in two:
//!
//! - the *key*: the parts on the orbit of the table's set or places part (where a slice's
//!   pieces are, and the orientations of that orbit). A symmetry keeps it well defined when
//!   it maps the slice's pieces onto themselves and turns each location by an amount that depends only on
//!   whether the piece there is one of the set (true of Kociemba's edge flips under the
//!   16 symmetries of the UD axis, since the slice's edges are oriented by another face);
//! - the *rest*: the parts of other orbits, each carried as a function of itself: an
//!   orientation part (the corner twists, oriented by their U or D facelet), a parity,
//!   or a set whose pieces a symmetry maps onto themselves or, when they are half the
//!   orbit, onto the others (the set of the U layer's corners, which the symmetries that
//!   swap U and D send to the D layer's: the set's complement, the same information).
//!
//! When the key orbit's other parts are carried as functions of themselves too (the
//! corners' twists beside the corners' places), the set or places part alone may be the
//! key, the others going to the rest: a key of the corners' places and twists would be
//! 88 M values, past [`MAX_KEY`], their places alone are 40,320.
//!
//! Of the keys at most [`MAX_KEY`] values, the one that the most symmetries carry is
//! taken, the one with the most values on ties (a whole orbit's parts before its set or
//! places part alone).
//!
//! The symmetries kept are those of the puzzle's symmetry group that satisfy both, checked
//! exactly on their maps of cells; they form a subgroup (checked too). Each key's class is
//! its orbit under them, represented by its smallest member; an entry is
//! `class * rest + conj_s(rest value)`, `s` a symmetry taking the key to its class's
//! representative. When the representative is fixed by other symmetries (its stabiliser),
//! the entries `conj_t(rest)` for `t` in it hold the same tuples' class, and the fill
//! ([`super::sym_fill`]) sets them together.

use super::coords::{Coords, Part, MAX_PARTS};
use super::sym_cache;
use super::sym_key::KeyMaps;
use crate::bigbuf::BigU32;
use crate::model::{CellMap, Model};
use crate::prefetch::prefetch;
use puz_core::{Control, Perm};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// At most this many symmetries are kept (a stabiliser is a bit mask; an index's symmetry
/// is packed in 6 bits).
const MAX_SYMS: usize = 64;
/// Keys (values of the key parts) beyond this are not reduced (4 bytes each for their
/// classes).
pub const MAX_KEY: u64 = 1 << 26;

/// The classes of a [`Coords`] table's keys and the symmetries' maps of its parts.
pub struct Reduction {
    /// Symmetries kept (the identity included).
    pub syms: usize,
    /// Classes of keys.
    pub classes: u64,
    /// What the key is, in words.
    pub key_what: String,
    /// Values of the rest (entries per class).
    pub rest_size: u64,
    /// A hash of the parts and the symmetries' maps it was made of.
    recipe: u64,
    key_parts: Vec<usize>,
    key_weights: Vec<u64>,
    key_sizes: Vec<u64>,
    rest_parts: Vec<usize>,
    rest_weights: Vec<u64>,
    rest_sizes: Vec<u64>,
    /// Per key: its class `<< 6 |` a symmetry taking it to the class's representative.
    key_class: BigU32,
    /// Per class: its representative key and its stabiliser (bit `s`: symmetry `s` fixes
    /// it; the identity's bit left out).
    reps: Vec<u32>,
    stab: Vec<u64>,
    /// Per rest part: `conj[v * syms + s]`, the value `v` carried by symmetry `s`.
    rest_conj: Vec<Vec<u32>>,
    /// The key's and the rest's (part, place value) in fixed arrays, first `n` used: an
    /// index on the search's path walks no `Vec` of them.
    key_pw: [(usize, u64); MAX_PARTS],
    rest_pw: [(usize, u64); MAX_PARTS],
    nk: usize,
    nr: usize,
}

impl std::fmt::Debug for Reduction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Reduction({} symmetries, {} classes)",
            self.syms, self.classes
        )
    }
}

impl Reduction {
    /// The entry of the tuple of part values `v`.
    #[inline]
    pub fn index(&self, v: &[u32]) -> u64 {
        let (class, s) = self.class_of(self.key_of(v));
        class * self.rest_size + self.conj_rest_values(v, s)
    }

    /// Asks the cache for the class of the key of `v` ahead of [`Reduction::index`] (the
    /// classes of a large key are a large table).
    #[inline(always)]
    pub fn prefetch(&self, v: &[u32]) {
        prefetch(&self.key_class, self.key_of(v) as usize);
    }

    /// The key of a tuple of part values.
    #[inline]
    pub fn key_of(&self, v: &[u32]) -> u64 {
        self.key_pw[..self.nk]
            .iter()
            .map(|&(p, w)| v[p] as u64 * w)
            .sum()
    }

    /// The class of a key, and a symmetry taking it to the representative.
    #[inline]
    pub fn class_of(&self, key: u64) -> (u64, usize) {
        let packed = self.key_class[key as usize];
        ((packed >> 6) as u64, (packed & 63) as usize)
    }

    /// The rest of a tuple of part values, carried by symmetry `s`.
    #[inline]
    pub fn conj_rest_values(&self, v: &[u32], s: usize) -> u64 {
        self.rest_pw[..self.nr]
            .iter()
            .zip(&self.rest_conj)
            .map(|(&(p, w), conj)| conj[v[p] as usize * self.syms + s] as u64 * w)
            .sum()
    }

    /// The value `v` of the `i`-th rest part carried by symmetry `s`.
    #[inline]
    pub fn conj_part(&self, i: usize, v: u32, s: usize) -> u32 {
        self.rest_conj[i][v as usize * self.syms + s]
    }

    /// The rest parts' place values and sizes.
    pub fn rest_radix(&self) -> (&[u64], &[u64]) {
        (&self.rest_weights, &self.rest_sizes)
    }

    /// The rest value `r` carried by symmetry `s`.
    #[inline]
    pub fn conj_rest(&self, r: u64, s: usize) -> u64 {
        let mut v = [0u32; MAX_PARTS];
        self.rest_values(r, &mut v);
        self.conj_rest_values(&v, s)
    }

    /// The representative key of a class, and its stabiliser.
    #[inline]
    pub fn rep(&self, class: u64) -> (u64, u64) {
        (self.reps[class as usize] as u64, self.stab[class as usize])
    }

    /// Writes the key parts' values of `key` into `out` (indexed by part).
    #[inline]
    pub fn key_values(&self, key: u64, out: &mut [u32]) {
        for ((&p, &w), &n) in self
            .key_parts
            .iter()
            .zip(&self.key_weights)
            .zip(&self.key_sizes)
        {
            out[p] = ((key / w) % n) as u32;
        }
    }

    /// Writes the rest parts' values of `r` into `out` (indexed by part).
    #[inline]
    pub fn rest_values(&self, r: u64, out: &mut [u32]) {
        for ((&p, &w), &n) in self
            .rest_parts
            .iter()
            .zip(&self.rest_weights)
            .zip(&self.rest_sizes)
        {
            out[p] = ((r / w) % n) as u32;
        }
    }

    /// The parts of the key and of the rest (indices into the table's parts).
    pub fn split(&self) -> (&[usize], &[usize]) {
        (&self.key_parts, &self.rest_parts)
    }

    /// `h` folded with what decides where each entry is (for the cache's file names): the
    /// table's parts and the symmetries' maps, from which the classes follow (each
    /// represented by its smallest key).
    pub fn hash(&self, h: u64, fold: &dyn Fn(&[u8], u64) -> u64) -> u64 {
        fold(&self.recipe.to_le_bytes(), h)
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> u64 {
        4 * self.key_class.len() as u64
            + 12 * self.reps.len() as u64
            + self
                .rest_conj
                .iter()
                .map(|c| 4 * c.len() as u64)
                .sum::<u64>()
    }
}

/// The maps `s -> c^-1 s c` of the symmetries `elements` (the identity first; see
/// [`crate::symmetry::Symmetries::all`]), with their permutations: rotations and
/// reflections alike, each a map of byte states.
pub fn conjugations(model: &Model, elements: &[Perm]) -> Vec<(Perm, CellMap)> {
    elements
        .iter()
        .filter_map(|c| Some((c.clone(), model.conjugation_by(c)?)))
        .collect()
}

/// Whether the map of a symmetry carries every part as the module header says: the key's
/// set onto itself, the key orbit's orientations by whether the piece is one of the set
/// (as a function of themselves when the set or places part is the key `alone`), the
/// rest's parts each as a function of itself.
fn carries(
    model: &Model,
    c: &Coords,
    (set_orbit, set, alone): (usize, &[u8], bool),
    m: &CellMap,
) -> bool {
    c.parts.iter().all(|part| {
        let o = &model.orbits[part.orbit()];
        let t = o.twist;
        let locs = o.start..o.start + o.size;
        if locs
            .clone()
            .any(|b| !(o.start..o.start + o.size).contains(&m.source(b)))
        {
            return false;
        }
        let cells = 0..(o.size * t as usize).min(256) as u8;
        // Whether every followed piece goes to a followed one (`to == true`) or every
        // followed piece to one not followed and back (`to == false`).
        let sends = |pieces: &[u8], to: bool| {
            locs.clone().all(|b| {
                cells.clone().all(|x| {
                    pieces.contains(&(m.image(b, x) / t)) == (pieces.contains(&(x / t)) == to)
                })
            })
        };
        match part {
            Part::Set { pieces, orbit } if *orbit != set_orbit => {
                sends(pieces, true) || (2 * pieces.len() == o.size && sends(pieces, false))
            }
            Part::Set { pieces, .. } | Part::Places { pieces, .. } => sends(pieces, true),
            // A symmetry's map renames locations and pieces alike: the parity stays.
            Part::Parity { .. } => true,
            Part::Ori { orbit } => locs.clone().all(|b| {
                (0..t).all(|x| {
                    // Per group of pieces, one turn for every piece.
                    let mut turn: [Option<u8>; 2] = [None, None];
                    (0..o.size as u8).all(|p| {
                        let g = (*orbit == set_orbit && !alone && set.contains(&p)) as usize;
                        let y = m.image(b, p * t + x) % t;
                        *turn[g].get_or_insert(y) == y
                    })
                })
            }),
        }
    })
}

/// Reductions made in this process, by a hash of the table's parts and the symmetries'
/// maps (a solver plans its tables, then builds them: the classes are formed once).
static MADE: Mutex<Vec<(u64, Arc<Reduction>)>> = Mutex::new(Vec::new());
/// Reductions kept in [`MADE`].
const KEEP: usize = 4;

/// A hash of what a reduction is made of: the parts, the maps, and whether the key orbit
/// is `split` (its set or places part alone the key).
fn recipe(model: &Model, c: &Coords, maps: &[&CellMap], split: bool) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    if split {
        add(0x5b17);
    }
    for b in format!("{:?}{:?}", c.parts, c.sizes).bytes() {
        add(b as u64);
    }
    for m in maps {
        for b in 0..model.n {
            add(m.source(b) as u64);
            for x in 0..=255u8 {
                add(m.image(b, x) as u64);
            }
        }
    }
    h
}

/// The table `c` reduced by the symmetries among `conj` that carry its parts (see the
/// module header), or `c` unchanged when fewer than two do, when it has no set or places
/// part, when its key is too large or not one [`KeyMaps`] carries, or when the reduced
/// table would have more than `max_entries` entries (without forming its classes: there
/// are at least `keys / symmetries` of them). The classes are read from the cache folder
/// `dir` when it holds them, and saved there once formed.
pub fn reduce(
    model: &Model,
    c: Coords,
    conj: &[(Perm, CellMap)],
    max_entries: u64,
    ctl: Option<&Control>,
    dir: Option<&Path>,
) -> Coords {
    let sets: Vec<(usize, &[u8])> = c
        .parts
        .iter()
        .filter_map(|p| p.pieces().map(|pieces| (p.orbit(), pieces)))
        .collect();
    // The key (see the module header): the parts of an orbit with a set or places part,
    // or that part `alone`.
    let in_key =
        |p: &Part, o: usize, alone: bool| p.orbit() == o && (!alone || p.pieces().is_some());
    let key_values = |o: usize, alone: bool| -> u64 {
        (c.parts.iter().zip(&c.sizes))
            .filter(|(p, _)| in_key(p, o, alone))
            .map(|(_, &n)| n)
            .product()
    };
    let Some(((set_orbit, alone), mut kept)) = sets
        .iter()
        .flat_map(|&(o, set)| [(o, set, false), (o, set, true)])
        .filter(|&(o, _, alone)| key_values(o, alone) <= MAX_KEY)
        .map(|(o, set, alone)| {
            let kept: Vec<&(Perm, CellMap)> = conj
                .iter()
                .filter(|(_, m)| carries(model, &c, (o, set, alone), m))
                .collect();
            ((o, alone), kept)
        })
        .rev()
        .max_by_key(|((o, alone), kept)| (kept.len(), key_values(*o, *alone)))
    else {
        return c;
    };
    kept.truncate(MAX_SYMS);
    if kept.len() < 2 || !kept[0].0.is_identity() {
        return c;
    }
    // A subgroup: every product of two kept symmetries is kept (compared as maps of
    // states: two permutations may differ by one that commutes with every letter).
    let position = |m: &CellMap| kept.iter().position(|(_, k)| model.same_map(k, m));
    let mut inverse = vec![0usize; kept.len()];
    for (i, (_, a)) in kept.iter().enumerate() {
        for (j, (_, b)) in kept.iter().enumerate() {
            match position(&model.then_map(a, b)) {
                None => return c,
                Some(0) => inverse[i] = j,
                Some(_) => {}
            }
        }
    }
    let maps: Vec<&CellMap> = kept.iter().map(|(_, m)| m).collect();
    let key_parts: Vec<usize> = (0..c.parts.len())
        .filter(|&i| in_key(&c.parts[i], set_orbit, alone))
        .collect();
    let rest_parts: Vec<usize> = (0..c.parts.len())
        .filter(|&i| !in_key(&c.parts[i], set_orbit, alone))
        .collect();
    let split = rest_parts.iter().any(|&i| c.parts[i].orbit() == set_orbit);
    let radix = |parts: &[usize]| -> (Vec<u64>, Vec<u64>, u64) {
        let sizes: Vec<u64> = parts.iter().map(|&i| c.sizes[i]).collect();
        let mut weights = vec![1u64; sizes.len()];
        for i in (0..sizes.len().saturating_sub(1)).rev() {
            weights[i] = weights[i + 1] * sizes[i + 1];
        }
        let size = sizes.iter().product();
        (sizes, weights, size)
    };
    let (key_sizes, key_weights, key_size) = radix(&key_parts);
    let (rest_sizes, rest_weights, rest_size) = radix(&rest_parts);
    // (The key is within MAX_KEY: larger ones were passed over above.)
    if (key_size / maps.len() as u64).saturating_mul(rest_size) > max_entries {
        return c;
    }
    let hash = recipe(model, &c, &maps, split);
    let made = MADE
        .lock()
        .ok()
        .and_then(|m| m.iter().find(|(h, _)| *h == hash).map(|(_, r)| r.clone()));
    if let Some(red) = made {
        return c.with_reduction(red);
    }
    let syms = maps.len();
    // The rest parts' maps, each on states holding only its value.
    let mut out = vec![0u8; model.n];
    let rest_conj: Vec<Vec<u32>> = rest_parts
        .iter()
        .map(|&i| {
            let mut t = Vec::with_capacity(c.sizes[i] as usize * syms);
            for v in 0..c.sizes[i] {
                let s = c.state_with(model, i, v);
                for m in &maps {
                    m.apply(&s, &mut out);
                    t.push(c.part_value(i, &out) as u32);
                }
            }
            t
        })
        .collect();
    // The image of a key by a symmetry's map, through a state holding its values.
    let image = |key: u64, m: &CellMap, buf: &mut Vec<u8>| -> u64 {
        let mut v = [0u64; MAX_PARTS];
        for ((&p, &w), &n) in key_parts.iter().zip(&key_weights).zip(&key_sizes) {
            v[p] = (key / w) % n;
        }
        let s = c.state_of_values(model, &v[..c.parts.len()]);
        m.apply(&s, buf);
        key_parts
            .iter()
            .zip(&key_weights)
            .map(|(&p, &w)| c.part_value(p, buf) * w)
            .sum()
    };
    // The tables' maps of the key, checked against the states' on keys spread over it.
    let Some(fast) = KeyMaps::new(model, &c, &key_parts, &key_weights, &maps) else {
        return c;
    };
    let mut buf = vec![0u8; model.n];
    let step = (key_size / 4099).max(1);
    for k in (0..key_size).step_by(step as usize) {
        for (s, m) in maps.iter().enumerate() {
            if fast.image(k, s) != image(k, m, &mut buf) {
                return c;
            }
        }
    }
    let what = if split {
        format!("{key_size} values of orbit {set_orbit}'s set or places part")
    } else {
        format!("{key_size} values of orbit {set_orbit}'s parts")
    };
    let file = dir.map(|d| sym_cache::file(d, hash));
    let classes = match file
        .as_deref()
        .and_then(|f| sym_cache::load(f, key_size, syms))
    {
        Some(classes) => classes,
        None => {
            let Some(classes) = form_classes(key_size, &fast, &inverse, ctl) else {
                // Given up: the table stays whole (too large to be chosen).
                return c;
            };
            if let (Some(f), Some(ctl)) = (&file, ctl) {
                let what = format!(
                    "classes of a table reduced by {syms} symmetries: {what}, {} classes",
                    classes.reps.len()
                );
                sym_cache::save(f, &classes, &what, ctl);
            }
            classes
        }
    };
    let sym_cache::Classes {
        key_class,
        reps,
        stab,
    } = classes;
    let fixed = |parts: &[usize], weights: &[u64]| {
        let mut a = [(0usize, 0u64); MAX_PARTS];
        for (x, (&p, &w)) in a.iter_mut().zip(parts.iter().zip(weights)) {
            *x = (p, w);
        }
        a
    };
    let red = Reduction {
        key_pw: fixed(&key_parts, &key_weights),
        rest_pw: fixed(&rest_parts, &rest_weights),
        nk: key_parts.len(),
        nr: rest_parts.len(),
        recipe: hash,
        syms,
        classes: reps.len() as u64,
        key_what: what,
        rest_size,
        key_parts,
        key_weights,
        key_sizes,
        rest_parts,
        rest_weights,
        rest_sizes,
        key_class,
        reps,
        stab,
        rest_conj,
    };
    let red = Arc::new(red);
    if let Ok(mut m) = MADE.lock() {
        if m.len() >= KEEP {
            m.remove(0);
        }
        m.push((hash, red.clone()));
    }
    c.with_reduction(red)
}

/// Each key's class and a symmetry taking it to the representative, and each class's
/// representative and stabiliser; `None` when `ctl` is cancelled.
fn form_classes(
    key_size: u64,
    fast: &KeyMaps,
    inverse: &[usize],
    ctl: Option<&Control>,
) -> Option<sym_cache::Classes> {
    // Each key not yet in a class is the smallest of its orbit (a smaller member would
    // have put it in its class): it represents a new class, and each image `s(k)` is
    // taken back to it by `s^-1`.
    const NONE: u32 = u32::MAX;
    let mut key_class = BigU32::new_max(key_size as usize);
    let (mut reps, mut stab) = (Vec::new(), Vec::new());
    for k in 0..key_size {
        if k % (1 << 16) == 0 && ctl.is_some_and(|c| c.cancelled()) {
            return None;
        }
        if key_class[k as usize] != NONE {
            continue;
        }
        let cls = reps.len() as u32;
        reps.push(k as u32);
        key_class[k as usize] = cls << 6;
        // The images first, their entries asked for, then written: the writes land
        // anywhere in a large table, and would otherwise wait on memory one by one.
        let mut images = [0u64; MAX_SYMS];
        for (s, image) in images.iter_mut().enumerate().take(inverse.len()).skip(1) {
            *image = fast.image(k, s);
            prefetch(&key_class, *image as usize);
        }
        let mut mask = 0u64;
        for (s, &back) in inverse.iter().enumerate().skip(1) {
            let j = images[s];
            if j == k {
                mask |= 1 << s;
            } else if key_class[j as usize] == NONE {
                key_class[j as usize] = cls << 6 | back as u32;
            }
        }
        stab.push(mask);
    }
    Some(sym_cache::Classes {
        key_class,
        reps,
        stab,
    })
}

#[cfg(test)]
#[path = "symmetric_tests.rs"]
pub(crate) mod tests;
