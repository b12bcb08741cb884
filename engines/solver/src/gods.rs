//! God's algorithm: the number of positions at each distance from solved.
//!
//! - Dense ([`dense`]): when a [`Ranker`] is given and `|G|` fits in memory, two bits per
//!   position (distance mod 3, `3` = not reached), indexed by rank, filled in parallel
//!   with rayon: forward ("push") from the frontier while it is small, backward ("pull":
//!   an unreached position next to the frontier) when it is large. Unit costs only.
//! - Sparse ([`sparse`]): breadth-first to a given depth on sorted vectors of exact 128-bit
//!   codes (any costs), in several passes split by hash when the candidates would not fit,
//!   with optional identification of positions up to whole-puzzle rotations.
//!
//! (Over 700 lines: a fifth of them are the tests comparing the searches with each other.)

use crate::error::{invalid, SolveError};
use crate::metric::Metric;
use crate::model::{Model, Normaliser};
use crate::move_tables::MoveTables;
use puz_core::{count, Control, Perm, Puzzle, Ranker};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How to run God's algorithm.
#[derive(Default)]
pub struct DistanceOptions<'a> {
    /// Stop after this distance (required when no ranker is given).
    pub depth: Option<usize>,
    /// Use the dense table over this ranker (its group must be the one the metric generates).
    pub ranker: Option<&'a dyn Ranker>,
    /// Identify positions that differ by these whole-puzzle rotations (sparse search only).
    pub rotations: Vec<Perm>,
    /// How many antipodes (positions at the greatest distance found) to return.
    pub samples: usize,
}

/// Positions at each distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    /// `counts[d]`: positions at distance `d` (in cost units; may contain zeros with costs > 1).
    pub counts: Vec<u64>,
    /// True when the search went to the end (every position reached).
    pub complete: bool,
    /// The greatest distance (God's number when `complete`).
    pub max_distance: usize,
    /// A few positions at the greatest distance found.
    pub antipodes: Vec<Perm>,
}

impl Distances {
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// God's number, when the search was complete.
    pub fn gods_number(&self) -> Option<usize> {
        self.complete.then_some(self.max_distance)
    }
}

/// God's algorithm: dense over the ranker when one is given, sparse to `depth` otherwise.
pub fn distances(
    puzzle: &Puzzle,
    metric: &Metric,
    opts: &DistanceOptions,
    ctl: &Control,
) -> Result<Distances, SolveError> {
    match opts.ranker {
        Some(r) if opts.rotations.is_empty() => {
            dense(puzzle, metric, r, opts.depth, opts.samples.max(1), ctl)
        }
        _ => {
            let Some(depth) = opts.depth else {
                return invalid("without a ranker, God's algorithm needs a depth");
            };
            sparse(
                puzzle,
                metric,
                depth,
                &opts.rotations,
                opts.samples.max(1),
                ctl,
            )
        }
    }
}

/// The coordinate space may be this many times larger than the group.
const MAX_COORD_WASTE: u64 = 8;

struct Bits2 {
    words: Vec<AtomicU64>,
}

impl Bits2 {
    #[inline]
    fn word(&self, i: u64) -> u64 {
        self.words[(i >> 5) as usize].load(Ordering::Relaxed)
    }

    #[inline]
    fn get(&self, i: u64) -> u8 {
        ((self.words[(i >> 5) as usize].load(Ordering::Relaxed) >> ((i & 31) * 2)) & 3) as u8
    }

    /// Sets an unreached entry (3) to `v`; true when this call did it.
    #[inline]
    fn claim(&self, i: u64, v: u8) -> bool {
        let shift = (i & 31) * 2;
        let old = self.words[(i >> 5) as usize]
            .fetch_and(!(((3 ^ v) as u64) << shift), Ordering::Relaxed);
        (old >> shift) & 3 == 3
    }
}

/// The layer bookkeeping both dense searches share: counts, positions reached, how many
/// entries carry each 2-bit code, and the lowest antipode indices of the last layer.
struct Layers {
    counts: Vec<u64>,
    seen: u64,
    /// Entries carrying each code (distance mod 3).
    codes_count: [u64; 3],
    last_samples: Vec<u64>,
}

impl Layers {
    fn new(root: u64) -> Layers {
        Layers {
            counts: vec![1],
            seen: 1,
            codes_count: [1, 0, 0],
            last_samples: vec![root],
        }
    }

    /// The distance of the current frontier.
    fn depth(&self) -> usize {
        self.counts.len() - 1
    }

    /// Whether to pull (scan the unreached) rather than push from the frontier: when the
    /// entries carrying the frontier's code outnumber half the unreached.
    fn pull(&self, size: u64) -> bool {
        let frontier_code = self.depth() % 3;
        self.codes_count[frontier_code] > (size - self.seen) / 2
    }

    /// Records a finished layer of `new` positions (`new > 0`) and its samples.
    fn finish(&mut self, new: u64, mut samples: Vec<u64>, keep: usize, size: u64, ctl: &Control) {
        self.seen += new;
        self.codes_count[(self.depth() + 1) % 3] += new;
        self.counts.push(new);
        samples.sort_unstable();
        samples.dedup();
        samples.truncate(keep);
        self.last_samples = samples;
        ctl.step(
            "God's algorithm",
            &format!("distance {}: {}", self.depth(), count(new, "position")),
            self.seen,
            size,
            "positions",
        );
        if self.seen >= size {
            ctl.end_phase();
        }
    }
}

/// Dense God's algorithm over a ranker (two bits per position).
pub fn dense(
    puzzle: &Puzzle,
    metric: &Metric,
    ranker: &dyn Ranker,
    depth: Option<usize>,
    samples: usize,
    ctl: &Control,
) -> Result<Distances, SolveError> {
    if !metric.unit_costs() {
        return invalid(
            "the dense table needs every generator to cost 1 (use a depth for other costs)",
        );
    }
    let Some(size) = ranker.size() else {
        return invalid("the group is too large to count by rank");
    };
    // Orbit coordinates with move tables, when they cover the group with little waste.
    if let Some(c) = MoveTables::new(puzzle, &metric.alphabet.perms) {
        if c.size() <= MAX_COORD_WASTE * size && c.index(&puzzle.identity()) == Some(0) {
            return dense_coords(&c, size, depth, samples, ctl);
        }
    }
    dense_ranked(puzzle, metric, ranker, size, depth, samples, ctl)
}

/// Dense God's algorithm through the ranker itself (unrank, turn, rank).
fn dense_ranked(
    puzzle: &Puzzle,
    metric: &Metric,
    ranker: &dyn Ranker,
    size: u64,
    depth: Option<usize>,
    samples: usize,
    ctl: &Control,
) -> Result<Distances, SolveError> {
    ctl.reserve("the distance table (2 bits per position)", size.div_ceil(4))?;
    let nwords = size.div_ceil(32) as usize;
    let table = Bits2 {
        words: (0..nwords).map(|_| AtomicU64::new(u64::MAX)).collect(),
    };
    let Some(r0) = ranker.rank(&puzzle.identity()) else {
        return invalid("the ranker does not contain the identity");
    };
    table.claim(r0, 0);
    let gens = &metric.alphabet.perms;
    let mut layers = Layers::new(r0);
    let max_depth = depth.unwrap_or(usize::MAX);
    let chunk_words = 256usize;
    let nchunks = nwords.div_ceil(chunk_words);
    let bad = std::sync::atomic::AtomicBool::new(false);
    while layers.depth() < max_depth {
        let d = layers.depth();
        let (cur, nxt) = ((d % 3) as u8, ((d + 1) % 3) as u8);
        if layers.seen == size {
            break;
        }
        let pull = layers.pull(size);
        let found_samples: Mutex<Vec<u64>> = Mutex::new(Vec::new());
        let new: u64 = (0..nchunks)
            .into_par_iter()
            .map(|c| -> Result<u64, SolveError> {
                ctl.check()?;
                let mut n = 0u64;
                let lo = (c * chunk_words * 32) as u64;
                let hi = (((c + 1) * chunk_words * 32) as u64).min(size);
                let mut local = Vec::new();
                for i in lo..hi {
                    let v = table.get(i);
                    if pull {
                        if v != 3 {
                            continue;
                        }
                        let p = ranker.unrank(i);
                        for g in gens {
                            let Some(j) = ranker.rank(&p.then(g)) else {
                                bad.store(true, Ordering::Relaxed);
                                break;
                            };
                            if table.get(j) == cur {
                                if table.claim(i, nxt) {
                                    n += 1;
                                    keep_least(&mut local, i, samples);
                                }
                                break;
                            }
                        }
                    } else {
                        if v != cur {
                            continue;
                        }
                        let p = ranker.unrank(i);
                        for g in gens {
                            let Some(j) = ranker.rank(&p.then(g)) else {
                                bad.store(true, Ordering::Relaxed);
                                break;
                            };
                            if table.get(j) == 3 && table.claim(j, nxt) {
                                n += 1;
                                keep_least(&mut local, j, samples);
                            }
                        }
                    }
                }
                if !local.is_empty() {
                    found_samples.lock().unwrap().extend(local);
                }
                Ok(n)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if bad.load(Ordering::Relaxed) {
            return invalid("a generator leads outside the ranker's group");
        }
        if new == 0 {
            break;
        }
        layers.finish(new, found_samples.into_inner().unwrap(), samples, size, ctl);
    }
    let Layers {
        counts,
        seen,
        last_samples,
        ..
    } = layers;
    let complete = seen == size;
    Ok(Distances {
        max_distance: counts.len() - 1,
        counts,
        complete,
        antipodes: last_samples.into_iter().map(|r| ranker.unrank(r)).collect(),
    })
}

/// Dense God's algorithm over orbit coordinates: the outer (permutation) index is turned
/// once for a whole block of inner (orientation) indices, and words of 32 entries with
/// nothing to do are skipped.
fn dense_coords(
    c: &MoveTables,
    group_size: u64,
    depth: Option<usize>,
    samples: usize,
    ctl: &Control,
) -> Result<Distances, SolveError> {
    let size = c.size();
    ctl.reserve(
        "the distance table (2 bits per position) and move tables",
        size.div_ceil(4) + c.table_bytes(),
    )?;
    let nwords = size.div_ceil(32) as usize;
    let table = Bits2 {
        words: (0..nwords).map(|_| AtomicU64::new(u64::MAX)).collect(),
    };
    let solved = 0u64; // the identity has every coordinate 0 (checked by the caller)
    table.claim(solved, 0);
    let (on, pn, ng) = (c.ori_size, c.perm_size, c.letters());
    const LOW: u64 = 0x5555_5555_5555_5555;
    let mut layers = Layers::new(solved);
    let max_depth = depth.unwrap_or(usize::MAX);
    // Outer indices per task: about 2^16 entries.
    let per = (1u64 << 16).div_ceil(on).max(1);
    let ntasks = pn.div_ceil(per);
    while layers.depth() < max_depth {
        let d = layers.depth();
        let (cur, nxt) = ((d % 3) as u8, ((d + 1) % 3) as u8);
        if layers.seen == group_size {
            break;
        }
        let pull = layers.pull(group_size);
        let pat = cur as u64 * LOW;
        let found_samples: Mutex<Vec<u64>> = Mutex::new(Vec::new());
        let new: u64 = (0..ntasks)
            .into_par_iter()
            .map(|t| -> Result<u64, SolveError> {
                ctl.check()?;
                let mut n = 0u64;
                let mut local = Vec::new();
                let mut blocks = vec![0u64; ng];
                for p in t * per..((t + 1) * per).min(pn) {
                    c.perm_blocks(p, &mut blocks);
                    let (base, end) = (p * on, (p + 1) * on);
                    let mut i = base;
                    while i < end {
                        let w = table.word(i);
                        let wstart = i & !31;
                        let wend = (wstart + 32).min(end);
                        let mut m = if pull {
                            w & (w >> 1) & LOW
                        } else {
                            let x = w ^ pat;
                            !(x | (x >> 1)) & LOW
                        };
                        // Entries of this word before `i` belong to the previous block.
                        m &= u64::MAX << ((i - wstart) * 2);
                        if wend < wstart + 32 {
                            m &= (1u64 << ((wend - wstart) * 2)) - 1;
                        }
                        while m != 0 {
                            let e = wstart + (m.trailing_zeros() / 2) as u64;
                            m &= m - 1;
                            let o = e - base;
                            if pull {
                                for (g, b) in blocks.iter().enumerate() {
                                    if table.get(b + c.ori_next(o, g)) == cur {
                                        if table.claim(e, nxt) {
                                            n += 1;
                                            keep_least(&mut local, e, samples);
                                        }
                                        break;
                                    }
                                }
                            } else {
                                for (g, b) in blocks.iter().enumerate() {
                                    let j = b + c.ori_next(o, g);
                                    if table.get(j) == 3 && table.claim(j, nxt) {
                                        n += 1;
                                        keep_least(&mut local, j, samples);
                                    }
                                }
                            }
                        }
                        i = wend;
                    }
                }
                if !local.is_empty() {
                    found_samples.lock().unwrap().extend(local);
                }
                Ok(n)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        if new == 0 {
            break;
        }
        layers.finish(
            new,
            found_samples.into_inner().unwrap(),
            samples,
            group_size,
            ctl,
        );
    }
    let Layers {
        counts,
        seen,
        last_samples,
        ..
    } = layers;
    if seen > group_size {
        return invalid("the letters reach more positions than the group has");
    }
    Ok(Distances {
        max_distance: counts.len() - 1,
        counts,
        complete: seen == group_size,
        antipodes: last_samples.into_iter().map(|r| c.position(r)).collect(),
    })
}

fn mix(c: u128) -> u64 {
    let x = (c as u64) ^ ((c >> 64) as u64).rotate_left(29);
    x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20
}

/// Sparse God's algorithm to `depth` on sorted layers of packed codes.
pub fn sparse(
    puzzle: &Puzzle,
    metric: &Metric,
    depth: usize,
    rotations: &[Perm],
    samples: usize,
    ctl: &Control,
) -> Result<Distances, SolveError> {
    let model = Model::new(puzzle)?;
    model.check_code_bits()?;
    let mut actions = Vec::new();
    for p in &metric.alphabet.perms {
        match model.action(p) {
            Some(a) => actions.push(a),
            None => return invalid("a generator is not a position of the puzzle"),
        }
    }
    let norm = if rotations.is_empty() {
        None
    } else {
        Some(Normaliser::new(&model, rotations, &actions)?)
    };
    let maxc = *metric.cost.iter().max().unwrap() as usize;
    let mut solved = model.solved();
    if let Some(nm) = &norm {
        let s = solved.clone();
        nm.normalise(&model, &s, &mut solved);
    }
    // layers[d]: sorted codes at distance d.
    let mut layers: Vec<Vec<u128>> = vec![vec![model.encode(&solved)]];
    let mut counts = vec![1u64];
    let mut antipodes = vec![puzzle.identity()];
    let mut complete = false;
    for d in 1..=depth {
        ctl.check()?;
        // Candidates: layer d - cost(l) followed by l.
        let cand: u64 = (0..actions.len())
            .map(|l| {
                let c = metric.cost[l] as usize;
                if c <= d {
                    layers[d - c].len() as u64
                } else {
                    0
                }
            })
            .sum();
        // The new layer, estimated from the last layers' growth (at most the candidates),
        // is held with the others while the next pass runs: count it too.
        let last = layers[d - 1].len() as u64;
        let est_new = match d {
            1 => cand,
            _ => {
                let prev = (layers[d - 2].len() as u64).max(1);
                ((last as u128 * last as u128 / prev as u128) as u64).min(cand)
            }
        };
        let held: u64 = layers.iter().map(|l| l.len() as u64 * 16).sum::<u64>() + est_new * 16;
        // A pass holds its candidates about four times over at its peak (the per-letter
        // parts, the growing list, the fresh ones, vector slack): plan for that, so a
        // limited process refuses up front instead of failing mid-allocation.
        let budget = ctl.memory_left().saturating_sub(held) / 4;
        let passes = (cand * 16).div_ceil(budget.max(1 << 20)).max(1);
        if passes > 256 {
            ctl.reserve(
                &format!("distance {d} (16 bytes a candidate position)"),
                cand * 16 + held,
            )?;
        }
        ctl.reserve(
            &format!("distance {d} (16 bytes a candidate position)"),
            held + 4 * (cand * 16).div_ceil(passes),
        )?;
        let mut layer: Vec<u128> = Vec::with_capacity(est_new as usize);
        // A pass's share of the candidates (by a hash, so a little over `cand / passes`),
        // held from the start: a list grown by doubling copied gigabytes at each step,
        // which Ctrl-C had to wait for.
        let share = cand.div_ceil(passes);
        let share = share + share / 32 + 4096;
        for pass in 0..passes {
            let mut cands: Vec<u128> = Vec::with_capacity(share as usize);
            for (l, a) in actions.iter().enumerate() {
                let c = metric.cost[l] as usize;
                if c > d {
                    continue;
                }
                let src = &layers[d - c];
                let part: Vec<u128> = src
                    .par_chunks(4096)
                    .map_init(
                        || (vec![0u8; model.n], vec![0u8; model.n], vec![0u8; model.n]),
                        |(s, t, u), chunk| {
                            // A sweep of a layer takes seconds: each chunk looks at the
                            // cancel flag (the check after the sweep then stops it).
                            if ctl.cancelled() {
                                return Vec::new();
                            }
                            let mut out = Vec::with_capacity(chunk.len());
                            for &code in chunk {
                                model.decode(code, s);
                                model.apply(a, s, t);
                                let code = match &norm {
                                    Some(nm) => {
                                        nm.normalise(&model, t, u);
                                        model.encode(u)
                                    }
                                    None => model.encode(t),
                                };
                                if passes == 1 || mix(code) % passes == pass {
                                    out.push(code);
                                }
                            }
                            out
                        },
                    )
                    .flatten_iter()
                    .collect();
                cands.extend(part);
                ctl.check()?;
            }
            crate::sort::par_sort_until(&mut cands, ctl)?;
            cands.dedup();
            // Drop codes already at a smaller distance (within 2 * max cost).
            let lo = d.saturating_sub(2 * maxc);
            let earlier = &layers[lo..d];
            // In blocks, each appended on its own: one collected list is joined by copies
            // of gigabytes that a cancel cannot stop.
            let fresh: Vec<Vec<u128>> = cands
                .par_chunks(1 << 16)
                .map(|block| {
                    if ctl.cancelled() {
                        return Vec::new();
                    }
                    let is_new = |c: &&u128| earlier.iter().all(|l| l.binary_search(c).is_err());
                    block.iter().filter(is_new).copied().collect()
                })
                .collect();
            drop(cands);
            for block in fresh {
                ctl.check()?;
                layer.extend(block);
            }
            ctl.check()?;
        }
        if passes > 1 {
            crate::sort::par_sort_until(&mut layer, ctl)?;
        }
        counts.push(layer.len() as u64);
        ctl.progress(&format!("distance {d}: {}", count(layer.len(), "position")));
        if !layer.is_empty() {
            let mut s = vec![0u8; model.n];
            antipodes = layer
                .iter()
                .take(samples)
                .map(|&c| {
                    model.decode(c, &mut s);
                    model.perm_of(&s)
                })
                .collect();
        }
        layers.push(layer);
        // Complete once maxc consecutive layers are empty.
        if d >= maxc && layers[d + 1 - maxc..=d].iter().all(|l| l.is_empty()) {
            complete = true;
            break;
        }
        // Layers older than 2 * max cost are no longer needed.
        if d >= 2 * maxc {
            layers[d - 2 * maxc] = Vec::new();
        }
    }
    while counts.len() > 1 && *counts.last().unwrap() == 0 {
        counts.pop();
    }
    Ok(Distances {
        max_distance: counts.len() - 1,
        counts,
        complete,
        antipodes,
    })
}

/// Adds `r` to `local`, which keeps (at least) the `samples` least ranks pushed, so the
/// antipodes reported are the least ranks whatever order the threads run in.
#[inline]
fn keep_least(local: &mut Vec<u64>, r: u64, samples: usize) {
    local.push(r);
    if local.len() >= 4 * samples.max(1) {
        local.sort_unstable();
        local.dedup();
        local.truncate(samples);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::{cube2, cube2_ranked, cube3, EnumRanker};

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    fn gens(p: &Puzzle) -> Vec<Perm> {
        p.moves.iter().map(|m| m.perm.clone()).collect()
    }

    #[test]
    fn cube2_dense_htm() {
        let ctl = Control::default();
        let (c2, ranker) = cube2_ranked();
        let htm = Metric::htm(c2, &[], &ctl).unwrap();
        let opts = DistanceOptions {
            ranker: Some(ranker),
            samples: 3,
            ..Default::default()
        };
        let d = distances(c2, &htm, &opts, &ctl).unwrap();
        assert_eq!(
            d.counts,
            vec![1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
        );
        assert_eq!(d.gods_number(), Some(11));
        assert_eq!(d.total(), 3_674_160);
        assert_eq!(d.antipodes.len(), 3);
        // The antipodes are really at distance 11: no sparse search to 10 meets them.
        let sp = sparse(c2, &htm, 10, &[], 1, &ctl).unwrap();
        assert_eq!(sp.total(), 3_674_160 - 2644);
        // The table over the ranker itself (for groups the coordinates do not fit) agrees.
        let by_rank = dense_ranked(c2, &htm, ranker, 3_674_160, None, 3, &ctl).unwrap();
        assert_eq!(by_rank.counts, d.counts);
        // The antipodes are really at distance 11 (the optimal solver agrees).
        let opts = crate::optimal::OptimalOptions {
            table_memory: Some(1 << 24),
            cache: None,
            ..Default::default()
        };
        for a in &d.antipodes {
            let o = crate::optimal::optimal(c2, &htm, a, &opts, &ctl).unwrap();
            assert_eq!((o.cost, o.proved_optimal, o.verified), (11, true, true));
        }
    }

    /// Heavy (the whole 2x2x2 in qtm): the benchmark runs it too.
    #[test]
    #[ignore]
    fn cube2_dense_qtm() {
        let (c2, ranker) = cube2_ranked();
        let ctl = Control::default();
        let opts = DistanceOptions {
            ranker: Some(ranker),
            samples: 3,
            ..Default::default()
        };
        let qtm = Metric::qtm(c2, &[], &ctl).unwrap();
        let d = distances(c2, &qtm, &opts, &ctl).unwrap();
        assert_eq!(
            d.counts,
            vec![
                1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536,
                90280, 276
            ]
        );
        assert_eq!(d.gods_number(), Some(14));
    }

    #[test]
    fn dense_and_sparse_agree_and_depth_limits() {
        let ctl = Control::default();
        let (c2, ranker) = cube2_ranked();
        let htm = Metric::htm(c2, &[], &ctl).unwrap();
        let dense = dense(c2, &htm, ranker, Some(6), 2, &ctl).unwrap();
        assert!(!dense.complete);
        let sp = sparse(c2, &htm, 6, &[], 2, &ctl).unwrap();
        assert_eq!(dense.counts, sp.counts);
        assert_eq!(sp.counts, vec![1, 9, 54, 321, 1847, 9992, 50136]);
    }

    #[test]
    fn cube3_to_depth() {
        let ctl = Control::default();
        let c3 = cube3();
        let run = |m: &Metric, depth: usize, rot: &[Perm]| {
            sparse(&c3, m, depth, rot, 1, &ctl).unwrap().counts
        };
        assert_eq!(
            run(&Metric::htm(&c3, &FACES, &ctl).unwrap(), 4, &[]),
            vec![1, 18, 243, 3240, 43239]
        );
        assert_eq!(
            run(&Metric::qtm(&c3, &FACES, &ctl).unwrap(), 4, &[]),
            vec![1, 12, 114, 1068, 10011]
        );
        assert_eq!(
            run(&Metric::atm(&c3, &FACES, &ctl).unwrap(), 3, &[]),
            vec![1, 45, 1347, 39631]
        );
        let rot: Vec<Perm> = ["x", "y"]
            .iter()
            .map(|n| crate::testsupport::mv(&c3, n))
            .collect();
        let stm = Metric::stm(&c3, &FACES, &["M", "E", "S"], &ctl).unwrap();
        assert_eq!(run(&stm, 3, &rot), vec![1, 27, 501, 9175]);
    }

    #[test]
    fn sparse_with_costs_two() {
        let ctl = Control::default();
        // qtm as an explicit set where half turns are letters of cost 2: same counts.
        let c2 = cube2();
        let m = Metric::explicit(
            &c2,
            "q2",
            &[
                ("U", 1),
                ("R", 1),
                ("F", 1),
                ("U2", 2),
                ("R2", 2),
                ("F2", 2),
            ],
            &ctl,
        )
        .unwrap();
        let d = sparse(&c2, &m, 6, &[], 1, &ctl).unwrap();
        assert_eq!(d.counts, vec![1, 6, 27, 120, 534, 2256, 8969]);
    }

    #[test]
    fn refuses_when_too_large() {
        let (c2, ranker) = cube2_ranked();
        let htm = Metric::htm(c2, &[], &Control::default()).unwrap();
        let mut ctl = Control::default();
        ctl.memory_limit = 1000;
        let e = dense(c2, &htm, ranker, None, 1, &ctl).unwrap_err();
        assert!(e.to_string().contains("needs 1.1 MiB"), "{e}");
    }

    #[test]
    fn pyraminx() {
        let ctl = Control::default();
        let py = crate::testsupport::pyraminx();
        let r = EnumRanker::new(&gens(&py));
        assert_eq!(r.size(), Some(933_120));
        let htm = Metric::htm(&py, &[], &ctl).unwrap();
        let d = dense(&py, &htm, &r, None, 1, &ctl).unwrap();
        assert_eq!(d.gods_number(), Some(11));
        assert_eq!(d.total(), 933_120);
    }

    /// Heavy (3,149,280 positions through the test ranker): run with --ignored.
    #[test]
    #[ignore]
    fn skewb() {
        let ctl = Control::default();
        let sk = crate::testsupport::skewb();
        let r = EnumRanker::new(&gens(&sk));
        assert_eq!(r.size(), Some(3_149_280));
        let htm = Metric::htm(&sk, &[], &ctl).unwrap();
        let d = dense(&sk, &htm, &r, None, 1, &ctl).unwrap();
        assert_eq!(d.gods_number(), Some(11));
    }
}
