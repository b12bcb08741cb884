//! Pattern databases: exact distances (in the metric) of a projection of the positions
//! that every letter maps onto itself, a lower bound for the whole puzzle.
//!
//! A table is a [`Shape`]. A [`Pattern`] follows `k` pieces of an orbit: their locations
//! (an arrangement, `n!/(n-k)!`) and orientations (`twist^k`, or `twist^(k-1)` for a whole
//! orbit whose orientation sum every move keeps). A [`Coords`] table combines parts of
//! several orbits (orientations at every location, the set of locations of a subset of
//! pieces), after Kociemba's phase-1 coordinates. [`Heuristic::build`] chooses the tables
//! for the memory budget (`choice`), loads them from the disk cache (`cache`) or fills them
//! breadth-first (`fill`, `coord_fill`) and saves them.
//!
//! - `pattern`: a table's pieces and the index of a position in it.
//! - `coords`: the parts of a table over several orbits, its index and move tables;
//!   `coord_fill` its fill.
//! - `locator`: where every piece of a position is, shared by the indices of a round.
//! - `fill`: the breadth-first fill of one table; `sweep` its levels on bit sets (unit
//!   costs), `bitset` those sets, `turns` how letters move a block's entries (`flip` a mask
//!   of them with twist 2, `ori_rows` a whole mask with twist 3 or more), `walk` where they
//!   send the blocks.
//! - `symmetric`: a table over several orbits reduced by the puzzle's symmetries;
//!   `sym_key` how the symmetries carry its key, `sym_fill` its fill, `sym_rest` where
//!   a letter sends the rest of an entry in that fill.
//! - `pairs`: such a table in two bits an entry (after nxopt), read as lower bounds;
//!   `entries` how the one fill reads and writes nibbles or pairs.
//! - `choice`: which patterns fit the budget; `heuristic` the tables planned, loaded or
//!   built, and whether a second table pays.
//! - `cache`: the tables' files on disk; `cache_write` writing them whole.

mod bit_transpose;
mod bitset;
mod cache;
mod cache_write;
mod choice;
mod coord_fill;
mod coords;
mod entries;
mod fill;
#[cfg(test)]
pub(crate) mod fixtures;
mod flip;
mod heuristic;
mod lanes;
mod level_bits;
mod locator;
mod meter;
mod ori_rows;
mod pairs;
mod pairs_levels;
mod pairs_marks;
mod pattern;
mod products;
pub(crate) mod refined_cache;
#[cfg(test)]
pub(crate) use products::reachable;
mod sweep;
mod sym_cache;
mod sym_fill;
mod sym_key;
mod sym_rest;
pub mod symmetric;
mod turns;
mod walk;

pub use cache::{default_cache_dir, description_file, Cache, FILE_PREFIX, FILE_SUFFIX, TEMP_MARK};
pub use choice::{choose_patterns, several_orbits};
pub(crate) use coords::odd_permutation;
pub use coords::{Coords, Part};
pub use heuristic::{plan, plan_second, Heuristic, Planned, Saving};
pub use locator::{Located, Locator};
pub use pattern::Pattern;

use crate::bigbuf::BigBuf;
use puz_core::count;

/// What a table follows.
#[derive(Clone, Debug)]
pub enum Shape {
    Pieces(Pattern),
    Coords(Coords),
}

impl Shape {
    /// Entries in the table.
    pub fn size(&self) -> u64 {
        match self {
            Shape::Pieces(p) => p.size,
            Shape::Coords(c) => c.size,
        }
    }

    /// Bytes of its table (two entries a byte, or see [`pairs::bytes`]).
    pub fn bytes(&self) -> u64 {
        match self {
            Shape::Pieces(p) => p.size.div_ceil(2),
            Shape::Coords(c) => c.bytes(),
        }
    }

    /// Whether its entries are two bits (see `pairs.rs`).
    pub fn pairs(&self) -> bool {
        matches!(self, Shape::Coords(c) if c.pairs)
    }

    /// The index of a full byte state.
    #[inline]
    pub fn index(&self, s: &[u8]) -> u64 {
        match self {
            Shape::Pieces(p) => p.index(s),
            Shape::Coords(c) => c.index(s),
        }
    }

    /// The index of a full byte state whose pieces have been located.
    #[inline]
    pub fn index_located(&self, s: &[u8], w: &Located) -> u64 {
        match self {
            Shape::Pieces(p) => p.index_located(s, w),
            Shape::Coords(c) => c.index(s),
        }
    }

    /// Whether it follows every piece of one orbit (and nothing else): its values are
    /// distances in a quotient group of the puzzle, the same on a position, its inverse
    /// and its conjugates.
    pub fn whole(&self) -> bool {
        matches!(self, Shape::Pieces(p) if p.pieces.len() == p.n)
    }

    /// Whether the solver looks it up on the position only: a whole orbit's table (the
    /// same value on the position, its inverse and its conjugates), or a table over
    /// several orbits with every piece of one (see `choice.rs`; on the 3x3x3 in atm its
    /// look-ups on the inverse and conjugates cut more nodes than the position's, for more
    /// time than they save, benches/results.md).
    pub fn position_only(&self) -> bool {
        match self {
            Shape::Pieces(_) => self.whole(),
            Shape::Coords(c) => c.whole_places(),
        }
    }

    /// What it follows, in words.
    pub fn describe(&self) -> String {
        match self {
            Shape::Pieces(p) => format!(
                "{} {:?}{} of orbit {}",
                count(p.pieces.len(), "piece"),
                p.pieces,
                if p.all_ori {
                    " and every orientation"
                } else {
                    ""
                },
                p.orbit
            ),
            Shape::Coords(c) => c.describe(),
        }
    }

    /// What it follows, in a few words (for the progress bar).
    fn label(&self) -> String {
        match self {
            Shape::Pieces(p) => format!(
                "{} {}",
                p.pieces.len(),
                if p.all_ori {
                    "pieces and every orientation"
                } else {
                    "pieces"
                }
            ),
            Shape::Coords(c) => match &c.sym {
                None => format!("{} parts of several orbits", c.parts.len()),
                Some(r) => format!(
                    "{} parts of several orbits, by {} symmetries{}",
                    c.parts.len(),
                    r.syms,
                    if c.pairs { ", two bits an entry" } else { "" }
                ),
            },
        }
    }
}

/// One filled table.
pub struct Pdb {
    pub shape: Shape,
    pub table: BigBuf,
    /// Its entries are two bits (`pairs.rs`), with this base.
    base: Option<u8>,
}

impl Pdb {
    /// The table of `shape` filled in `table`.
    pub fn new(shape: Shape, table: BigBuf) -> Pdb {
        let base = shape.pairs().then(|| pairs::base(&table, shape.size()));
        Pdb { shape, table, base }
    }

    /// The table of `shape` without its entries (a solver that only plans).
    pub fn unfilled(shape: Shape) -> Pdb {
        let base = shape.pairs().then_some(0);
        Pdb {
            shape,
            // One line: entries 0 and 1 can be read (tests of plans read a first look-up).
            table: BigBuf::new(64, 0),
            base,
        }
    }

    /// The entry at index `i` (at most 15): a lower bound of the distance, exact in
    /// nibbles up to 14.
    #[inline]
    pub fn value(&self, i: u64) -> u8 {
        match self.base {
            None => coord_fill::nibble(&self.table, i),
            Some(b) => pairs::value(&self.table, b, i),
        }
    }

    /// The mean of `n` of its entries drawn at random (seeded: the same each time): within
    /// about a hundredth of the mean of every entry for the 3x3x3's tables at 100,000.
    pub fn sampled_mean(&self, n: u64) -> f64 {
        let size = self.shape.size() as u128;
        let at = |k: u64| ((pairs_levels::draw(k) as u128 * size) >> 64) as u64;
        let sum: u64 = (0..n).map(|k| self.value(at(k)) as u64).sum();
        sum as f64 / n.max(1) as f64
    }

    /// The byte that holds entry `i` (to prefetch).
    #[inline]
    pub fn byte(&self, i: u64) -> usize {
        match self.base {
            None => (i >> 1) as usize,
            Some(_) => pairs::locate(i).0,
        }
    }

    /// How many entries hold each value.
    pub fn histogram(&self) -> [u64; 16] {
        if let Some(b) = self.base {
            return pairs::histogram(&self.table, self.shape.size(), b);
        }
        let mut h = [0u64; 16];
        for (i, &b) in self.table.iter().enumerate() {
            h[(b & 15) as usize] += 1;
            // The last byte's high nibble is an entry only when the size is even.
            if 2 * i as u64 + 1 < self.shape.size() {
                h[(b >> 4) as usize] += 1;
            }
        }
        h
    }

    /// Every entry, in index order.
    #[cfg(test)]
    pub fn values(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.shape.size()).map(|i| self.value(i))
    }

    /// Its pattern (a test's table of pieces).
    #[cfg(test)]
    pub fn pattern(&self) -> &Pattern {
        match &self.shape {
            Shape::Pieces(p) => p,
            Shape::Coords(_) => panic!("not a table of pieces"),
        }
    }
}
