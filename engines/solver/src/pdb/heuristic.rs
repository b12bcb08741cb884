//! The tables of one puzzle and metric for a budget: which ([`plan`], from `choice.rs`),
//! loaded from the cache or built and saved ([`Heuristic::from_plan`]), and, unless told,
//! whether a second table over several orbits pays ([`second_pays`]).

use super::cache::{description_file, file_name, is_whole, load, lock};
use super::cache_write::start_store;
use super::meter::Meter;
use super::{choice, coord_fill, sym_fill, Cache, Pdb, Shape};
use crate::error::SolveError;
use crate::metric::Metric;
use crate::model::{Action, CellMap, Model};
use puz_core::{count, Control, Perm};
use std::path::{Path, PathBuf};

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

/// The tables planned without a second table (`plan_with(false)`), and, when one fits,
/// the table it would replace: its index and the second table planned (from
/// `plan_with(true)`, which differs there only; never the first table).
pub fn plan_second(
    plan_with: impl Fn(bool) -> Vec<Planned>,
) -> (Vec<Planned>, Option<(usize, Planned)>) {
    let (without, mut with) = (plan_with(false), plan_with(true));
    let swap = (without.iter().zip(&with))
        .position(|(a, b)| a.shape.describe() != b.shape.describe())
        .filter(|&i| i > 0 && with.len() == without.len());
    (without, swap.map(|i| (i, with.swap_remove(i))))
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
        if let Some(second) = second {
            let planned = plan_with(second);
            return Heuristic::from_plan(model, metric, actions, planned, cache, ctl);
        }
        let (planned, swap) = plan_second(plan_with);
        let mut h = Heuristic::from_plan(model, metric, actions, planned, cache, ctl)?;
        let Some((i, second)) = swap else {
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
        let why = format!(
            "a second table: the orbit's own table averages {orbit:.2} (sampled), over the \
             first table's {first:.2} (second_table: false leaves it out)"
        );
        // Said before it is built or loaded: the build takes a while.
        ctl.progress(&why);
        let mut got = Heuristic::from_plan(model, metric, actions, vec![second], cache, ctl)?;
        h.report.push(why);
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
    use super::super::cache_write::store;
    use super::super::fixtures::{self, setup, ud_slice};
    use super::super::{symmetric, Coords, Part, TEMP_MARK};
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
