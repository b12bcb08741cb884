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
//! - `choice`: which patterns fit the budget.
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
pub use locator::{Located, Locator};
pub use pattern::Pattern;

use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::metric::Metric;
use crate::model::{Action, CellMap, Model};
use cache::{file_name, is_whole, load, lock};
use cache_write::start_store;
use meter::Meter;
use puz_core::{count, Control, Perm};
use std::path::{Path, PathBuf};

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
        let size = self.shape.size();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let sum: u64 = (0..n)
            .map(|_| {
                // splitmix64
                x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                let i = ((z ^ (z >> 31)) as u128 * size as u128 >> 64) as u64;
                self.value(i) as u64
            })
            .sum();
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

/// The tables of one puzzle and metric.
pub struct Heuristic {
    pub pdbs: Vec<Pdb>,
    /// One line per table: what it follows and where it came from.
    pub report: Vec<String>,
    /// The tables built and still being saved.
    pub saving: Saving,
}

/// Tables being written, put on disk and in place in the cache by threads of their own
/// (see [`cache_write::Storing::finish`]), each holding its table's lock and bytes until
/// done: the search need not wait for the disk. Not stopped by Ctrl-C (a table built is
/// whole); dropped, it waits for them, about 2 s for nxopt's table on a local disk (a
/// process that ends sooner leaves no table in place, only a temporary file).
#[derive(Default)]
pub struct Saving(Vec<std::thread::JoinHandle<()>>);

impl Saving {
    /// Waits until every table is on disk and in place (or failed to be: it is then
    /// built again next time).
    pub fn wait(&mut self) {
        for h in self.0.drain(..) {
            let _ = h.join();
        }
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        self.wait();
    }
}

/// One table a budget calls for, and its cache file.
pub struct Planned {
    pub shape: Shape,
    pub file: Option<PathBuf>,
    /// Its file is in the cache, whole.
    pub cached: bool,
}

/// The tables for `budget` bytes (with a `second` table over several orbits when it
/// fits, see `choice.rs`), and which of them the cache holds (`conj`: the symmetries a
/// table may be reduced by; `ctl` cancels the forming of its classes).
#[allow(clippy::too_many_arguments)]
pub fn plan(
    puzzle_key: u64,
    model: &Model,
    cost: &[u32],
    actions: &[Action],
    (budget, second): (u64, bool),
    conj: &[(Perm, CellMap)],
    cache: Option<&Path>,
    ctl: &Control,
) -> Vec<Planned> {
    let pairs = cost.iter().all(|&c| c == 1);
    let how = choice::How {
        pairs,
        second,
        ctl: Some(ctl),
        dir: cache,
    };
    choice::choose_patterns_until(model, actions, budget, conj, how)
        .into_iter()
        .map(|shape| {
            let file = cache.map(|d| d.join(file_name(puzzle_key, actions, cost, &shape)));
            let cached = file.as_ref().is_some_and(|f| is_whole(f, shape.bytes()));
            Planned {
                shape,
                file,
                cached,
            }
        })
        .collect()
}

/// Entries drawn for a table's mean (see [`Pdb::sampled_mean`]).
const SAMPLE: u64 = 100_000;

/// Whether a second table (an orbit's pieces with the slice's set, see `choice.rs`) pays
/// for its look-ups, from the means of the first table and of the orbit's own table it
/// would replace: when that orbit alone is already as strong as the first table on
/// average, the second, stronger still, often bounds the positions the first leaves low.
/// Measured on the 3x3x3 (benches/results.md): in atm the corners' table averages more
/// than the first and the second pays; in htm far less, and it costs more than it saves.
fn second_pays(first: f64, orbit: f64) -> bool {
    orbit >= first
}

/// Ends the progress bar of a build however the build ends.
struct EndPhase<'a>(&'a Control);

impl Drop for EndPhase<'_> {
    fn drop(&mut self) {
        self.0.end_phase();
    }
}

impl Heuristic {
    /// Builds (or loads from `cache`) the tables for `budget` bytes (`conj`: the
    /// symmetries a table may be reduced by).
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        puzzle_key: u64,
        model: &Model,
        metric: &Metric,
        actions: &[Action],
        budget: u64,
        conj: &[(Perm, CellMap)],
        cache: Option<Cache>,
        ctl: &Control,
    ) -> Result<Heuristic, SolveError> {
        let budget = (budget, Some(false));
        Heuristic::build_chosen(puzzle_key, model, metric, actions, budget, conj, cache, ctl)
    }

    /// [`Heuristic::build`], with a second table over several orbits when it fits (see
    /// [`plan`]) and `.1` says so, or, when `.1` is `None`, where it pays (see
    /// [`second_pays`]).
    #[allow(clippy::too_many_arguments)]
    pub fn build_chosen(
        puzzle_key: u64,
        model: &Model,
        metric: &Metric,
        actions: &[Action],
        (budget, second): (u64, Option<bool>),
        conj: &[(Perm, CellMap)],
        cache: Option<Cache>,
        ctl: &Control,
    ) -> Result<Heuristic, SolveError> {
        let dir = cache.map(|c| c.dir);
        let plan_with = |second| {
            let cost = &metric.cost;
            plan(
                puzzle_key,
                model,
                cost,
                actions,
                (budget, second),
                conj,
                dir,
                ctl,
            )
        };
        let planned = plan_with(second.unwrap_or(false));
        if second.is_some() {
            return Heuristic::from_plan(model, metric, actions, planned, cache, ctl);
        }
        let mut with = plan_with(true);
        let swap =
            (planned.iter().zip(&with)).position(|(a, b)| a.shape.describe() != b.shape.describe());
        let mut h = Heuristic::from_plan(model, metric, actions, planned, cache, ctl)?;
        let Some(i) = swap.filter(|&i| i > 0 && with.len() == h.pdbs.len()) else {
            return Ok(h);
        };
        let (first, orbit) = (&h.pdbs[0], &h.pdbs[i]);
        let (first, orbit) = (first.sampled_mean(SAMPLE), orbit.sampled_mean(SAMPLE));
        if !second_pays(first, orbit) {
            h.report.push(format!(
                "no second table: the orbit's own table averages {orbit:.2} (sampled), under \
                 the first table's {first:.2} (ask for it with second_table: true)"
            ));
            return Ok(h);
        }
        let second = with.swap_remove(i);
        let mut got = Heuristic::from_plan(model, metric, actions, vec![second], cache, ctl)?;
        h.report.push(format!(
            "a second table: the orbit's own table averages {orbit:.2} (sampled), over the \
             first table's {first:.2}"
        ));
        h.pdbs[i] = got.pdbs.remove(0);
        h.report.remove(i);
        h.report.append(&mut got.report);
        h.saving.0.append(&mut got.saving.0);
        Ok(h)
    }

    /// Builds the tables of `shapes`, uncached (tests of the search with chosen tables).
    #[cfg(test)]
    pub fn of_shapes(
        model: &Model,
        metric: &Metric,
        actions: &[Action],
        shapes: Vec<Shape>,
        ctl: &Control,
    ) -> Result<Heuristic, SolveError> {
        let planned = shapes
            .into_iter()
            .map(|shape| Planned {
                shape,
                file: None,
                cached: false,
            })
            .collect();
        Heuristic::from_plan(model, metric, actions, planned, None, ctl)
    }

    /// Builds (or loads from `cache`) the planned tables.
    fn from_plan(
        model: &Model,
        metric: &Metric,
        actions: &[Action],
        planned: Vec<Planned>,
        cache: Option<Cache>,
        ctl: &Control,
    ) -> Result<Heuristic, SolveError> {
        let map = cache.is_some_and(|c| c.map);
        // Progress counts the entries of the tables to build, over all of them.
        let mut total: u64 = planned
            .iter()
            .filter(|t| !t.cached)
            .map(|t| t.shape.size())
            .sum();
        let to_build = planned.iter().filter(|t| !t.cached).count();
        let (mut before, mut built) = (0u64, 0usize);
        let _end = EndPhase(ctl);
        let mut pdbs = Vec::new();
        let mut report = Vec::new();
        let mut saving = Saving::default();
        for Planned {
            shape: p,
            file,
            cached,
        } in planned
        {
            let what = p.describe();
            let mut guard = None;
            if let Some(f) = &file {
                if let Some(table) = load(f, p.bytes(), map) {
                    report.push(format!(
                        "{what}: {}, loaded from {}",
                        count(p.size(), "entry"),
                        f.display()
                    ));
                    pdbs.push(Pdb::new(p, table));
                    continue;
                }
                if cached {
                    // Its file was there but would not load: it is built after all.
                    total += p.size();
                }
                // Not there: build it under its lock, unless another process built it
                // while this one waited for the lock.
                guard = lock(f, &|| {
                    ctl.progress(&format!(
                        "waiting for another process building {}",
                        f.display()
                    ))
                });
                if let Some(table) = load(f, p.bytes(), map) {
                    report.push(format!(
                        "{what}: {}, loaded from {} (built by another process)",
                        count(p.size(), "entry"),
                        f.display()
                    ));
                    before += p.size();
                    pdbs.push(Pdb::new(p, table));
                    continue;
                }
            }
            built += 1;
            let label = format!("table {built} of {}: {}", to_build.max(built), p.label());
            let t0 = std::time::Instant::now();
            let size = p.size();
            let meter = Meter::new(ctl, label, before, total);
            let mut pdb = match p {
                Shape::Pieces(p) => Pdb::fill(model, p, actions, &metric.cost, &meter)?,
                Shape::Coords(c) => {
                    let table = if c.sym.is_some() {
                        sym_fill::fill_symmetric(model, &c, actions, &metric.cost, &meter)?
                    } else {
                        coord_fill::fill_coords(model, &c, actions, &metric.cost, &meter)?
                    };
                    Pdb::new(Shape::Coords(c), table)
                }
            };
            before += size;
            let mut line = format!(
                "{what}: {}, built in {:.1} s",
                count(pdb.shape.size(), "entry"),
                t0.elapsed().as_secs_f64()
            );
            if let (Some(f), Some(c)) = (&file, cache) {
                // The description first: a table's file always has one.
                let _ = std::fs::write(description_file(f), format!("{}: {what}\n", c.title));
                match start_store(f, pdb.table.len()) {
                    Ok(storing) => {
                        // Written while the search reads the table (each holding its
                        // bytes), and not stopped by Ctrl-C: the table is whole.
                        let Pdb { shape, table, base } = pdb;
                        let (table, whole) = table.share();
                        pdb = Pdb { shape, table, base };
                        line.push_str(&format!(", being saved to {}", f.display()));
                        let guard = guard.take();
                        saving.0.push(std::thread::spawn(move || {
                            let _ = storing.finish(&whole, None);
                            drop(guard);
                        }));
                    }
                    Err(e) => line.push_str(&format!(", not saved ({e})")),
                }
            }
            ctl.progress(&line);
            report.push(line);
            pdbs.push(pdb);
        }
        Ok(Heuristic {
            pdbs,
            report,
            saving,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::cache_write::store;
    use super::fixtures::{setup, ud_slice};
    use super::*;
    use puz_core::Interrupt;

    #[test]
    fn a_sampled_mean_is_near_the_mean() {
        // The 2x2x2's table of every piece, a sample of a tenth of its entries.
        let (model, htm, actions) = setup();
        let ctl = Control::default();
        let h = Heuristic::build(7, &model, &htm, &actions, 2_000_000, &[], None, &ctl).unwrap();
        let p = &h.pdbs[0];
        let hist = p.histogram();
        let n: u64 = hist.iter().sum();
        let mean = (hist.iter().enumerate())
            .map(|(v, &c)| v as f64 * c as f64)
            .sum::<f64>()
            / n as f64;
        let got = p.sampled_mean(n / 10);
        assert!((got - mean).abs() < 0.02, "{got} against {mean}");
        assert_eq!(got, p.sampled_mean(n / 10), "seeded");
    }

    #[test]
    fn cache_round_trips() {
        // Built and saved, then loaded mapped and read: the same tables.
        let (model, htm, actions) = setup();
        let dir = std::env::temp_dir().join(format!("puz-pdb-test-{}", std::process::id()));
        let ctl = Control::default();
        let cache = |map| {
            Some(Cache {
                dir: &dir,
                map,
                title: "test",
            })
        };
        let a =
            Heuristic::build(7, &model, &htm, &actions, 200_000, &[], cache(true), &ctl).unwrap();
        assert!(
            a.report.iter().all(|l| l.contains("built")),
            "{:?}",
            a.report
        );
        for map in [true, false] {
            let b = Heuristic::build(7, &model, &htm, &actions, 200_000, &[], cache(map), &ctl)
                .unwrap();
            assert!(
                b.report.iter().all(|l| l.contains("loaded")),
                "{:?}",
                b.report
            );
            assert_eq!(a.pdbs.len(), b.pdbs.len());
            for (x, y) in a.pdbs.iter().zip(&b.pdbs) {
                assert_eq!(x.table[..], y.table[..]);
            }
        }
        drop(a);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_table_in_pairs_round_trips_with_its_base() {
        // A reduced table in two-bit entries built into the cache, then loaded (mapped and
        // read): the same bytes, the same base, and every value the same.
        let (model, conj, actions) = symmetric::tests::cube_symmetries_htm();
        let htm = fixtures::cube3_metric("htm").1;
        let parts = vec![ud_slice(), Part::Ori { orbit: 0 }];
        let c = Coords::new(&model, parts).unwrap();
        let c = symmetric::reduce(&model, c, &conj, u64::MAX, None, None).in_pairs();
        let dir = std::env::temp_dir().join(format!("puz-pdb-pairs-{}", std::process::id()));
        let file = dir.join(file_name(7, &actions, &htm.cost, &Shape::Coords(c.clone())));
        let ctl = Control::default();
        let plan = |cached| {
            vec![Planned {
                shape: Shape::Coords(c.clone()),
                file: Some(file.clone()),
                cached,
            }]
        };
        let cache = |map| {
            Some(Cache {
                dir: &dir,
                map,
                title: "test",
            })
        };
        let mut a =
            Heuristic::from_plan(&model, &htm, &actions, plan(false), cache(true), &ctl).unwrap();
        assert!(a.report[0].contains("built"), "{:?}", a.report);
        a.saving.wait();
        let base = a.pdbs[0].base.expect("pairs");
        assert!((1..=12).contains(&base), "{base}");
        for map in [true, false] {
            let b =
                Heuristic::from_plan(&model, &htm, &actions, plan(true), cache(map), &ctl).unwrap();
            assert!(b.report[0].contains("loaded"), "{:?}", b.report);
            let (x, y) = (&a.pdbs[0], &b.pdbs[0]);
            assert_eq!(x.table[..], y.table[..]);
            assert_eq!(y.base, Some(base));
            assert!((0..c.size).all(|i| x.value(i) == y.value(i)));
            assert_eq!(x.histogram(), y.histogram());
        }
        drop(a);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The names in a cache folder.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn an_interrupted_build_leaves_whole_tables_only() {
        // A build cancelled (from a worker thread, as Ctrl-C would) as soon as it starts
        // filling its second table: the first table is cached whole, nothing partial is
        // left, and the next build loads the first and builds the rest, the same tables
        // as an uncached build. The budget is one of several tables of pieces.
        let (model, htm, actions) = setup();
        let budget = 20_000;
        let dir = std::env::temp_dir().join(format!("puz-pdb-cancel-{}", std::process::id()));
        let cache = Some(Cache {
            dir: &dir,
            map: true,
            title: "test",
        });
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (f, s) = (flag.clone(), seen.clone());
        let ctl = Control::with_flag(flag.clone()).with_reports(move |r| {
            if let puz_core::progress::Report::Step(step) = r {
                s.lock().unwrap().push(step.detail.clone());
                if step.detail.starts_with("table 2 ") {
                    f.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        });
        let r = Heuristic::build(7, &model, &htm, &actions, budget, &[], cache, &ctl);
        assert!(
            matches!(r, Err(SolveError::Interrupt(Interrupt::Cancelled))),
            "{:?}",
            r.map(|h| h.report)
        );
        assert!(seen
            .lock()
            .unwrap()
            .iter()
            .any(|d| d.starts_with("table 1 ")));
        let left = names(&dir);
        assert_eq!(
            left.iter().filter(|n| n.ends_with(".bin")).count(),
            1,
            "{left:?}"
        );
        assert!(left.iter().all(|n| !n.contains(TEMP_MARK)), "{left:?}");
        let ctl = Control::default();
        let again = Heuristic::build(7, &model, &htm, &actions, budget, &[], cache, &ctl).unwrap();
        assert!(again.report[0].contains("loaded"), "{:?}", again.report);
        assert!(
            again.report[1..].iter().all(|l| l.contains("built")),
            "{:?}",
            again.report
        );
        let fresh = Heuristic::build(7, &model, &htm, &actions, budget, &[], None, &ctl).unwrap();
        for (x, y) in again.pdbs.iter().zip(&fresh.pdbs) {
            assert_eq!(x.table[..], y.table[..]);
        }
        // Its files are settled in the background: wait for them before the folder goes.
        drop(again);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_cancelled_write_leaves_no_file() {
        let dir = std::env::temp_dir().join(format!("puz-pdb-store-{}", std::process::id()));
        let ctl = Control::default();
        ctl.flag().store(true, std::sync::atomic::Ordering::Relaxed);
        let f = dir.join("pdb-0.bin");
        assert!(store(&f, &[1, 2, 3], &ctl).is_err());
        assert!(names(&dir).is_empty(), "{:?}", names(&dir));
        store(&f, &[1, 2, 3], &Control::default()).unwrap();
        assert_eq!(names(&dir), vec!["pdb-0.bin".to_string()]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn concurrent_builds_share_one_file() {
        // Four builders start at once on an empty folder: each table is built once (the
        // others wait for its lock and load it), and the folder holds no partial files.
        let (model, htm, actions) = setup();
        let dir = std::env::temp_dir().join(format!("puz-pdb-race-{}", std::process::id()));
        let reports: Vec<Vec<String>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        let cache = Some(Cache {
                            dir: &dir,
                            map: true,
                            title: "test",
                        });
                        let ctl = Control::default();
                        Heuristic::build(7, &model, &htm, &actions, 200_000, &[], cache, &ctl)
                            .unwrap()
                            .report
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for t in 0..reports[0].len() {
            let built = reports.iter().filter(|r| r[t].contains("built in")).count();
            assert_eq!(built, 1, "{reports:?}");
        }
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            assert!(
                [".bin", ".lock", ".txt"].iter().any(|e| name.ends_with(e)),
                "{name}"
            );
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
