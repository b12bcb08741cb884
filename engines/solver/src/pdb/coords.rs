//! [`Coords`]: a table over several orbits at once, after Kociemba's phase-1 coordinates.
//! Its entry is a tuple of parts, each a function of the position that every letter maps
//! onto itself (so the table holds distances in an abstract puzzle whose positions are the
//! tuples, and a value is a lower bound of the position's distance):
//!
//! - [`Part::Ori`]: the orientation at every location of an orbit (whichever piece is
//!   there), `twist^n` or `twist^(n-1)` values when the letters keep the orientation sum;
//! - [`Part::Set`]: the set of locations a subset of an orbit's pieces occupies, the pieces
//!   taken as identical: `C(n, k)` values, ranked in the combinatorial number system.
//!
//! Look-ups on the inverse: the table is read on the state of `p^-1`, computed whole
//! (`Model::inverse`), whose distance is `p`'s when every letter costs what its inverse
//! costs (the only case the solver reads inverses). What would not be sound is to derive
//! the inverse's entry from `p`'s: with the set's pieces taken as identical, `p`'s entry
//! does not determine it. Look-ups on conjugates `c^-1 p c` by symmetries are sound for
//! the same reason (the same distance; see `optimal/axes.rs`).
//!
//! The index is mixed-radix over the parts, the largest part fastest. Each part gets a
//! move table (its value after each letter), so the fill ([`super::coord_fill`]) never
//! builds a position.

use super::lanes::Lanes;
use super::symmetric::Reduction;
use crate::model::{Action, Model};
use std::sync::Arc;

/// Parts of a [`Coords`] table larger than this are refused (their move tables would be
/// large).
pub const MAX_PART: u64 = 1 << 22;

/// At most this many parts in a table (an index is computed from its values on the stack).
pub const MAX_PARTS: usize = 8;

/// One part of a [`Coords`] entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// The orientation at every location of the orbit.
    Ori { orbit: usize },
    /// The set of locations the `pieces` (sorted) of the orbit occupy.
    Set { orbit: usize, pieces: Vec<u8> },
    /// The location of each of the `pieces` (sorted): `n!/(n-k)!` values (Kociemba's
    /// sorted slice coordinate when they are a slice's pieces).
    Places { orbit: usize, pieces: Vec<u8> },
    /// The parity of the permutation of the orbit's pieces: 2 values, always the fastest
    /// part, so an entry and the one of the other parity share a byte (a letter that
    /// only changes the parity finds the child's entry beside the parent's). Not on an
    /// orbit with a set or places part.
    Parity { orbit: usize },
}

impl Part {
    pub fn orbit(&self) -> usize {
        match self {
            Part::Ori { orbit }
            | Part::Set { orbit, .. }
            | Part::Places { orbit, .. }
            | Part::Parity { orbit } => *orbit,
        }
    }

    /// The pieces a set or places part follows.
    pub fn pieces(&self) -> Option<&[u8]> {
        match self {
            Part::Ori { .. } | Part::Parity { .. } => None,
            Part::Set { pieces, .. } | Part::Places { pieces, .. } => Some(pieces),
        }
    }
}

/// How a part reads a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ori,
    Set,
    Places,
    Parity,
}

/// What a part reads of a state, and how.
#[derive(Clone, Debug)]
struct Reader {
    start: usize,
    n: usize,
    /// Ori: digits read (`n` or `n - 1`) and the twist; Set, Places: the number of pieces.
    digits: usize,
    twist: u8,
    /// Per cell: its orientation (Ori), 1 when its piece is in the set (Set), the piece's
    /// place among the followed ones plus 1, or 0 (Places); unused (Parity). Indexed by a
    /// byte, so without a bounds check.
    of_cell: Box<[u8; 256]>,
    /// Set: `binom[l * (k + 2) + j]` is `C(l, j)`.
    binom: Vec<u64>,
    kind: Kind,
    /// The same value read from the orbit's cells at once, where they fit (see
    /// `lanes.rs`).
    lanes: Option<Lanes>,
}

impl Reader {
    /// The part's value in a state.
    #[inline]
    fn value(&self, s: &[u8]) -> u64 {
        if let Some(l) = &self.lanes {
            return l.value(s);
        }
        self.cell_by_cell(s)
    }

    /// The part's value, read a cell at a time.
    #[inline]
    fn cell_by_cell(&self, s: &[u8]) -> u64 {
        let cells = &s[self.start..self.start + self.n];
        if self.kind == Kind::Places {
            // Each piece's location among those the pieces before it leave.
            let mut locs = [0u8; 64];
            for (l, &c) in cells.iter().enumerate() {
                let m = self.of_cell[c as usize] as usize;
                if m > 0 {
                    locs[m - 1] = l as u8;
                }
            }
            let (mut used, mut r) = (0u64, 0u64);
            for (j, &l) in locs[..self.digits].iter().enumerate() {
                let below = (used & ((1u64 << l) - 1)).count_ones() as u64;
                r = r * (self.n - j) as u64 + l as u64 - below;
                used |= 1 << l;
            }
            r
        } else if self.kind == Kind::Set {
            // Locations in increasing order; the j-th member (from 1) at l adds C(l, j).
            // The members' locations as bits first: one table read a member, not a cell.
            let mask = cells.iter().enumerate().fold(0u64, |m, (l, &c)| {
                m | (self.of_cell[c as usize] as u64) << l
            });
            let row = self.digits + 2;
            let (mut bits, mut j, mut r) = (mask, 0usize, 0u64);
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                j += 1;
                r += self.binom[l * row + j];
            }
            r
        } else if self.kind == Kind::Parity {
            odd_permutation(cells, self.twist) as u64
        } else {
            let t = self.twist as u64;
            cells[..self.digits]
                .iter()
                .fold(0u64, |r, &c| r * t + self.of_cell[c as usize] as u64)
        }
    }
}

/// Whether the pieces at an orbit's locations (`cells`, a piece's cell being
/// `piece * twist + orientation`) are an odd permutation: the pieces less the cycles,
/// walked once each. At most 64 locations.
pub(crate) fn odd_permutation(cells: &[u8], twist: u8) -> bool {
    let n = cells.len();
    let (mut seen, mut cycles) = (0u64, 0usize);
    for l in 0..n {
        if seen >> l & 1 == 0 {
            cycles += 1;
            let mut x = l;
            while seen >> x & 1 == 0 {
                seen |= 1 << x;
                x = ((cells[x] / twist) as usize).min(n - 1);
            }
        }
    }
    (n - cycles) % 2 == 1
}

/// `C(n, k)`, at most `u64::MAX` (the products in 128 bits: `n` is at most 64 here).
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let c = (0..k as u128).fold(1u128, |r, i| r * (n as u128 - i) / (i + 1));
    c.min(u64::MAX as u128) as u64
}

/// A table over parts of several orbits (see the module header).
#[derive(Clone, Debug)]
pub struct Coords {
    /// The parts, the slowest first.
    pub parts: Vec<Part>,
    /// Values of each part, and its place value in the index.
    pub sizes: Vec<u64>,
    pub weights: Vec<u64>,
    /// Entries in the table: `raw` (every tuple of values), or fewer when the table is
    /// reduced by symmetries (`sym`, see [`super::symmetric`]).
    pub size: u64,
    pub raw: u64,
    pub sym: Option<Arc<Reduction>>,
    /// Its entries are two bits (`pairs.rs`), not nibbles: a reduced table only, for
    /// letters that all cost 1.
    pub pairs: bool,
    readers: Vec<Reader>,
}

impl Coords {
    /// The table of `parts` (in any order), or `None` when a part is not one of the model
    /// (an orbit out of range, an orientation part of an orbit without twist, a set that
    /// is empty or the whole orbit, a set or places part that holds a piece twice) or a
    /// part or the table is too large (see [`MAX_PART`]).
    pub fn new(model: &Model, parts: Vec<Part>) -> Option<Coords> {
        let mut parts = parts;
        let mut sized = Vec::new();
        for part in parts.drain(..) {
            let o = model.orbits.get(part.orbit())?;
            let size = match &part {
                Part::Ori { .. } => {
                    if o.twist < 2 {
                        return None;
                    }
                    let digits = o.size - o.ori_sum_fixed as usize;
                    (o.twist as u64).checked_pow(digits as u32)?
                }
                Part::Parity { .. } => {
                    if o.size < 2 || o.size > 64 {
                        return None;
                    }
                    2
                }
                Part::Set { pieces, .. } | Part::Places { pieces, .. } => {
                    let mut p = pieces.clone();
                    p.sort_unstable();
                    p.dedup();
                    // A set of the whole orbit has one value; the places of the whole
                    // orbit are its permutation.
                    let whole_set = p.len() >= o.size && matches!(part, Part::Set { .. });
                    if p.len() != pieces.len()
                        || p.is_empty()
                        || whole_set
                        || p.iter().any(|&x| x as usize >= o.size)
                        || o.size > 64
                    {
                        return None;
                    }
                    if matches!(part, Part::Set { .. }) {
                        binomial(o.size as u64, p.len() as u64)
                    } else {
                        (o.size - p.len() + 1..=o.size)
                            .fold(1u64, |r, x| r.saturating_mul(x as u64))
                    }
                }
            };
            if size > MAX_PART {
                return None;
            }
            let part = match part {
                Part::Set { orbit, mut pieces } => {
                    pieces.sort_unstable();
                    Part::Set { orbit, pieces }
                }
                Part::Places { orbit, mut pieces } => {
                    pieces.sort_unstable();
                    Part::Places { orbit, pieces }
                }
                p => p,
            };
            if sized.iter().any(|(q, _): &(Part, u64)| {
                q.orbit() == part.orbit() && q.pieces().is_some() && part.pieces().is_some()
            }) {
                // One set or places part an orbit (the states built for the move tables
                // place one).
                return None;
            }
            if sized.iter().any(|(q, _)| *q == part) {
                return None;
            }
            // A parity part's states swap two pieces, which a set or places part of the
            // same orbit would see.
            if sized.iter().any(|(q, _): &(Part, u64)| {
                q.orbit() == part.orbit()
                    && (matches!(q, Part::Parity { .. }) && part.pieces().is_some()
                        || matches!(part, Part::Parity { .. }) && q.pieces().is_some())
            }) {
                return None;
            }
            sized.push((part, size));
        }
        if sized.is_empty() || sized.len() > MAX_PARTS {
            return None;
        }
        // The largest part fastest: the fill turns whole blocks of it at once. A parity
        // part is faster still (see [`Part::Parity`]).
        sized.sort_by_key(|(p, s)| (matches!(p, Part::Parity { .. }), *s, p.orbit()));
        let sizes: Vec<u64> = sized.iter().map(|(_, s)| *s).collect();
        let mut weights = vec![1u64; sizes.len()];
        for i in (0..sizes.len() - 1).rev() {
            weights[i] = weights[i + 1].checked_mul(sizes[i + 1])?;
        }
        let size = weights[0].checked_mul(sizes[0])?;
        if size > 1 << 40 {
            return None;
        }
        let parts: Vec<Part> = sized.into_iter().map(|(p, _)| p).collect();
        let readers = parts.iter().map(|p| reader(model, p)).collect();
        Some(Coords {
            parts,
            sizes,
            weights,
            size,
            raw: size,
            sym: None,
            pairs: false,
            readers,
        })
    }

    /// The table with its entries shared by classes of symmetric tuples.
    pub(super) fn with_reduction(self, red: Arc<Reduction>) -> Coords {
        Coords {
            size: red.classes * red.rest_size,
            sym: Some(red),
            ..self
        }
    }

    /// The index of a full byte state.
    #[inline]
    pub fn index(&self, s: &[u8]) -> u64 {
        match &self.sym {
            None => self
                .readers
                .iter()
                .zip(&self.weights)
                .map(|(r, &w)| r.value(s) * w)
                .sum(),
            Some(red) => {
                let mut v = [0u32; MAX_PARTS];
                for (x, r) in v.iter_mut().zip(&self.readers) {
                    *x = r.value(s) as u32;
                }
                red.index(&v)
            }
        }
    }

    /// The index of the tuple of part values `v` (in the order of `parts`).
    #[inline]
    pub fn index_of_values(&self, v: &[u32]) -> u64 {
        match &self.sym {
            None => self
                .weights
                .iter()
                .zip(v)
                .map(|(&w, &x)| w * x as u64)
                .sum(),
            Some(red) => red.index(v),
        }
    }

    /// The index without the symmetries: every tuple of values its own entry.
    #[inline]
    pub fn raw_index(&self, s: &[u8]) -> u64 {
        self.readers
            .iter()
            .zip(&self.weights)
            .map(|(r, &w)| r.value(s) * w)
            .sum()
    }

    /// Whether it follows where every piece of an orbit is (a places part of the whole
    /// orbit).
    pub fn whole_places(&self) -> bool {
        (self.parts.iter().zip(&self.readers))
            .any(|(p, r)| matches!(p, Part::Places { pieces, .. } if pieces.len() == r.n))
    }

    /// The value of part `i` in a state.
    pub(crate) fn part_value(&self, i: usize, s: &[u8]) -> u64 {
        self.readers[i].value(s)
    }

    /// Bytes of its table (two entries a byte, or see [`super::pairs::bytes`]).
    pub fn bytes(&self) -> u64 {
        if self.pairs {
            super::pairs::bytes(self.size)
        } else {
            self.size.div_ceil(2)
        }
    }

    /// The table in two-bit entries.
    pub(crate) fn in_pairs(self) -> Coords {
        Coords {
            pairs: true,
            ..self
        }
    }

    /// A state whose parts have the values `values` (in the order of `parts`; the cells
    /// of other orbits solved): the sets' pieces placed first, then the orientations of
    /// whatever pieces are there. Not always a position of the puzzle, which the move
    /// tables and the symmetries' maps do not need.
    pub(super) fn state_of_values(&self, model: &Model, values: &[u64]) -> Vec<u8> {
        let mut s = model.solved();
        let kind = |i: usize| match self.parts[i] {
            Part::Set { .. } | Part::Places { .. } => 0,
            Part::Parity { .. } => 1,
            Part::Ori { .. } => 2,
        };
        let order = (0..3).flat_map(|k| (0..self.parts.len()).filter(move |&i| kind(i) == k));
        for i in order {
            self.write_part(&mut s, i, values[i]);
        }
        s
    }

    /// A state whose part `i` has the value `v` (the other cells solved; not always a
    /// position of the puzzle, which the move tables do not need).
    pub(super) fn state_with(&self, model: &Model, i: usize, v: u64) -> Vec<u8> {
        let mut s = model.solved();
        self.write_part(&mut s, i, v);
        s
    }

    /// Writes part `i`'s value `v` into `s`: a set places its pieces (the others in
    /// order), an orientation part turns the pieces in place.
    fn write_part(&self, s: &mut [u8], i: usize, v: u64) {
        let r = &self.readers[i];
        let t = r.twist as usize;
        let cells = &mut s[r.start..r.start + r.n];
        match &self.parts[i] {
            Part::Ori { .. } => {
                let mut v = v;
                let mut sum = 0usize;
                for l in (0..r.digits).rev() {
                    let d = (v % t as u64) as usize;
                    v /= t as u64;
                    sum += d;
                    cells[l] = ((cells[l] as usize / t) * t + d) as u8;
                }
                if r.digits < r.n {
                    let l = r.n - 1;
                    cells[l] = ((cells[l] as usize / t) * t + (t - sum % t) % t) as u8;
                }
            }
            Part::Places { pieces, .. } => {
                // The digits of `v`, last piece fastest; each the rank of its location
                // among those the pieces before it leave.
                let k = pieces.len();
                let mut digit = vec![0usize; k];
                let mut v = v;
                for j in (0..k).rev() {
                    let radix = (r.n - j) as u64;
                    digit[j] = (v % radix) as usize;
                    v /= radix;
                }
                let mut at: Vec<Option<u8>> = vec![None; r.n];
                for (j, &d) in digit.iter().enumerate() {
                    let l = (0..r.n).filter(|&l| at[l].is_none()).nth(d).unwrap_or(0);
                    at[l] = Some(pieces[j]);
                }
                let mut others = (0..r.n as u8).filter(|p| !pieces.contains(p));
                for (l, c) in cells.iter_mut().enumerate() {
                    let p = at[l].or_else(|| others.next());
                    *c = p.unwrap_or(0) * t as u8;
                }
            }
            Part::Parity { .. } => {
                // An odd permutation swaps the first two locations' pieces (orientations
                // are written after).
                if v % 2 == 1 {
                    cells.swap(0, 1);
                }
            }
            Part::Set { pieces, .. } => {
                let locs = unrank_set(v, pieces.len(), &r.binom);
                let mut others = (0..r.n as u8).filter(|p| !pieces.contains(p));
                let mut ours = pieces.iter();
                for (l, c) in cells.iter_mut().enumerate() {
                    let p = if locs.contains(&(l as u8)) {
                        ours.next().copied()
                    } else {
                        others.next()
                    };
                    *c = p.unwrap_or(0) * t as u8;
                }
            }
        }
    }

    /// Per part: `moves[i][v * letters + l]`, the value of part `i` after letter `l` from
    /// the value `v`.
    pub(crate) fn move_tables(&self, model: &Model, actions: &[Action]) -> Vec<Vec<u32>> {
        let mut out = vec![0u8; model.n];
        (0..self.parts.len())
            .map(|i| {
                let mut t = Vec::with_capacity(self.sizes[i] as usize * actions.len());
                for v in 0..self.sizes[i] {
                    let s = self.state_with(model, i, v);
                    for a in actions {
                        model.apply(a, &s, &mut out);
                        t.push(self.part_value(i, &out) as u32);
                    }
                }
                t
            })
            .collect()
    }

    /// What the table follows, in words.
    pub fn describe(&self) -> String {
        let what: Vec<String> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Ori { orbit } => {
                    format!("the orientation at every location of orbit {orbit}")
                }
                Part::Set { orbit, pieces } => {
                    format!("the set of locations of pieces {pieces:?} of orbit {orbit}")
                }
                Part::Places { orbit, pieces } => {
                    format!("the location of each of pieces {pieces:?} of orbit {orbit}")
                }
                Part::Parity { orbit } => {
                    format!("the parity of the permutation of orbit {orbit}")
                }
            })
            .collect();
        let what = match &self.sym {
            None => what.join(", "),
            Some(r) => format!(
                "{}, reduced by {} symmetries ({} classes of the {})",
                what.join(", "),
                r.syms,
                r.classes,
                r.key_what
            ),
        };
        if self.pairs {
            format!("{what}, two bits an entry")
        } else {
            what
        }
    }
}

/// A table over the 256 byte values of a cell.
fn cell_table(f: impl Fn(usize) -> u8) -> Box<[u8; 256]> {
    let mut t = Box::new([0u8; 256]);
    for (c, x) in t.iter_mut().enumerate() {
        *x = f(c);
    }
    t
}

fn reader(model: &Model, p: &Part) -> Reader {
    let o = &model.orbits[p.orbit()];
    let t = o.twist as usize;
    let cells = o.size * t;
    match p {
        Part::Parity { .. } => Reader {
            start: o.start,
            n: o.size,
            digits: 0,
            twist: o.twist,
            of_cell: Box::new([0; 256]),
            binom: Vec::new(),
            kind: Kind::Parity,
            lanes: None,
        },
        Part::Ori { .. } => Reader {
            start: o.start,
            n: o.size,
            digits: o.size - o.ori_sum_fixed as usize,
            twist: o.twist,
            of_cell: cell_table(|c| (c % t) as u8),
            binom: Vec::new(),
            kind: Kind::Ori,
            lanes: Lanes::ori(
                o.start,
                o.size,
                model.n,
                o.twist,
                o.size - o.ori_sum_fixed as usize,
            ),
        },
        Part::Places { pieces, .. } => Reader {
            start: o.start,
            n: o.size,
            digits: pieces.len(),
            twist: o.twist,
            of_cell: cell_table(|c| {
                let at = pieces.iter().position(|&x| x as usize == c / t);
                match at {
                    Some(j) if c < cells => j as u8 + 1,
                    _ => 0,
                }
            }),
            binom: Vec::new(),
            kind: Kind::Places,
            lanes: None,
        },
        Part::Set { pieces, .. } => {
            let k = pieces.len();
            Reader {
                start: o.start,
                n: o.size,
                digits: k,
                twist: o.twist,
                of_cell: cell_table(|c| (c < cells && pieces.contains(&((c / t) as u8))) as u8),
                binom: (0..o.size as u64)
                    .flat_map(|l| (0..k as u64 + 2).map(move |j| binomial(l, j)))
                    .collect(),
                kind: Kind::Set,
                lanes: Lanes::set(o.start, o.size, model.n, |c| {
                    (c as usize) < cells && pieces.contains(&(c / o.twist))
                }),
            }
        }
    }
}

/// The locations (increasing) of the set of `k` locations of rank `r`.
fn unrank_set(mut r: u64, k: usize, binom: &[u64]) -> Vec<u8> {
    let row = k + 2;
    let n = binom.len() / row;
    let mut locs = vec![0u8; k];
    let mut hi = n;
    for j in (1..=k).rev() {
        // The largest l below hi with C(l, j) <= r.
        let mut l = hi - 1;
        while binom[l * row + j] > r {
            l -= 1;
        }
        locs[j - 1] = l as u8;
        r -= binom[l * row + j];
        hi = l;
    }
    locs
}

#[cfg(test)]
#[path = "coords_tests.rs"]
mod tests;
