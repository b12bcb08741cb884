//! The fill of a [`Coords`] table: breadth-first from the solved entry, level by level,
//! on the table's own nibbles (15: not reached yet), with the parts' move tables. A block
//! is the entries sharing every part but the fastest: a letter sends a whole block to one
//! block, found once, and moves its entries by the fastest part's move table, so reads and
//! writes stay within a few cache lines. A level is pushed (each entry at distance `d`
//! sets its unreached neighbours) or pulled (each unreached entry looks for a neighbour
//! at `d`, stopping at the first), whichever visits fewer entries. Other costs than 1 are
//! always pulled: an entry gets `d + 1` when some letter of cost `c` leads to it from an
//! entry at `d + 1 - c`, all of which are final. A pushed level skips the spans of blocks
//! that hold no entry at its distance (each span marks the distances reached in it). A
//! nibble is set from 15 by an atomic AND, which two threads writing the same level's
//! value may both do.

use super::coords::Coords;
use super::meter::Meter;
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::model::{Action, Model};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Entries a task covers (whole blocks, at least one).
const CHUNK: u64 = 1 << 16;

/// The nibble of entry `i`.
#[inline(always)]
pub(super) fn get(t: &[AtomicU8], i: u64) -> u8 {
    (t[(i >> 1) as usize].load(Relaxed) >> ((i & 1) * 4)) & 15
}

/// Asks for the cache lines of entries `lo..lo + n` ahead of their use: a fill's next
/// reads scatter over a few blocks it can name before it reads any of them, and left to
/// themselves the reads would wait for the memory one after another.
#[inline]
pub(super) fn prefetch_entries(t: &[AtomicU8], lo: u64, n: u64) {
    let (a, b) = (
        (lo >> 1) as usize,
        ((lo + n + 1) >> 1).min(t.len() as u64) as usize,
    );
    // Into L2: the lines are read after the work on the class before.
    for i in ((a & !63)..b).step_by(64) {
        crate::prefetch::prefetch_l2(t, i);
    }
}

/// Entry `i` of a filled table of nibbles.
#[inline(always)]
pub(super) fn nibble(table: &[u8], i: u64) -> u8 {
    (table[(i >> 1) as usize] >> ((i & 1) * 4)) & 15
}

/// Sets entry `i`, which was 15 (or is being set to `v` by another thread), to `v`;
/// true when this call changed it.
#[inline(always)]
pub(super) fn set(t: &[AtomicU8], i: u64, v: u8) -> bool {
    let sh = (i & 1) * 4;
    let old = t[(i >> 1) as usize].fetch_and(!((15 & !v) << sh), Relaxed);
    (old >> sh) & 15 == 15
}

/// [`set`] by the only thread that writes entry `i`'s byte for now (others may read it;
/// see [`alone`]).
#[inline(always)]
pub(super) fn set_alone(t: &[AtomicU8], i: u64, v: u8) -> bool {
    let sh = (i & 1) * 4;
    let b = &t[(i >> 1) as usize];
    let old = b.load(Relaxed);
    b.store(old & !((15 & !v) << sh), Relaxed);
    (old >> sh) & 15 == 15
}

/// Of the entries `lo..hi`, those whose bytes hold no entry outside them.
#[inline]
pub(super) fn alone(lo: u64, hi: u64) -> std::ops::Range<u64> {
    lo.next_multiple_of(2)..hi & !1
}

/// What a fill works with.
struct Fill<'a> {
    c: &'a Coords,
    letters: usize,
    /// Per part: where each letter sends each value, and where it comes from.
    fwd: Vec<Vec<u32>>,
    back: Vec<Vec<u32>>,
    /// Entries of a block (values of the fastest part), and each slower part's place value
    /// counted in blocks.
    inner: u64,
    block_weight: Vec<u64>,
    /// Per span of `1 << span` blocks (at least 4,096 entries, so that these marks stay
    /// small beside the table), bit `d` set once an entry in it is at distance `d`: a
    /// pushed level goes through the spans holding its distance only (the first levels
    /// of a table of 1.6·10^9 entries read every nibble for a few entries each otherwise).
    at: Vec<AtomicU16>,
    span: u32,
}

impl Fill<'_> {
    /// Notes that block `b` has an entry at distance `d`.
    #[inline]
    fn mark(&self, b: u64, d: u8) {
        let at = &self.at[(b >> self.span) as usize];
        if at.load(Relaxed) >> d & 1 == 0 {
            at.fetch_or(1 << d, Relaxed);
        }
    }

    /// Per letter, the block that block `b` goes to (`moves` forward or back).
    fn targets(&self, b: u64, back: bool, out: &mut [u64]) {
        let last = self.c.parts.len() - 1;
        out.fill(0);
        for i in 0..last {
            let v = (b / self.block_weight[i]) % self.c.sizes[i];
            let t = if back { &self.back[i] } else { &self.fwd[i] };
            let row = &t[v as usize * self.letters..(v as usize + 1) * self.letters];
            for (o, &w) in out.iter_mut().zip(row) {
                *o += w as u64 * self.block_weight[i];
            }
        }
    }

    /// One level from distance `d` over the blocks `lo..hi`: the entries set to `d + 1`.
    fn level(&self, t: &[AtomicU8], d: u8, pull: bool, cost: &[u32], lo: u64, hi: u64) -> u64 {
        let last = self.c.parts.len() - 1;
        let l_n = self.letters;
        let inner_moves = if pull {
            &self.back[last]
        } else {
            &self.fwd[last]
        };
        let unit = cost.iter().all(|&c| c == 1);
        let mut to = vec![0u64; l_n];
        let mut to_block = vec![0u64; l_n];
        let mut n = 0u64;
        for b in lo..hi {
            if !pull && self.at[(b >> self.span) as usize].load(Relaxed) >> d & 1 == 0 {
                continue;
            }
            let base = b * self.inner;
            let before = n;
            let mut ready = false;
            for e in 0..self.inner {
                let v = get(t, base + e);
                if v != if pull { 15 } else { d } {
                    continue;
                }
                if !ready {
                    ready = true;
                    self.targets(b, pull, &mut to_block);
                    for (x, &blk) in to.iter_mut().zip(&to_block) {
                        *x = blk * self.inner;
                    }
                }
                let row = &inner_moves[e as usize * l_n..(e as usize + 1) * l_n];
                if pull {
                    for l in 0..l_n {
                        let y = get(t, to[l] + row[l] as u64);
                        let hit = if unit {
                            y == d
                        } else {
                            y != 15 && y as u32 + cost[l] == d as u32 + 1
                        };
                        if hit {
                            n += set(t, base + e, d + 1) as u64;
                            break;
                        }
                    }
                } else {
                    for l in 0..l_n {
                        let j = to[l] + row[l] as u64;
                        if get(t, j) == 15 && set(t, j, d + 1) {
                            n += 1;
                            self.mark(to_block[l], d + 1);
                        }
                    }
                }
            }
            if pull && n > before {
                self.mark(b, d + 1);
            }
        }
        n
    }
}

/// The levels of a breadth-first fill of `size` entries in `blocks` blocks of `per_block`
/// entries (`filled` of them already), each level over chunks of whole blocks in
/// parallel: `level(d, pull, lo, hi)` sets the entries at `d + 1` among blocks `lo..hi`
/// (pushed from `d`, or pulled) and says how many. `before(d, filled, frontier, last, pull)`
/// runs before each level (with the entries filled, those of level `d` and of `d - 1`):
/// false ends the fill there; it may tell `meter` the level is the last
/// ([`Meter::last_level`]), whose time left is then the fill's. A level is pulled as
/// [`pull_now`] says (`across`: whether its pull goes across runs in vectors), or when
/// costs are not all 1.
#[allow(clippy::too_many_arguments)]
pub(super) fn levels(
    size: u64,
    filled: u64,
    cost: &[u32],
    blocks: u64,
    per_block: u64,
    meter: &Meter,
    across: bool,
    mut before: impl FnMut(u8, u64, u64, u64, bool) -> bool,
    level: impl Fn(u8, bool, u64, u64) -> u64 + Sync,
) -> Result<(), SolveError> {
    let unit = cost.iter().all(|&x| x == 1);
    let max_cost = cost.iter().copied().max().unwrap_or(1);
    let per_chunk = (CHUNK / per_block).max(1);
    let chunks = blocks.div_ceil(per_chunk);
    let (mut filled, mut frontier, mut d, mut empty) = (filled, filled, 0u8, 0u32);
    let mut last = 0;
    while d < 14 && filled < size {
        meter.ctl.check()?;
        let unknown = size - filled;
        let pull = !unit || pull_now(frontier, unknown, across);
        if !before(d, filled, frontier, last, pull) {
            break;
        }
        meter.begin_level(chunks);
        meter.report(d + 1, filled, true);
        let so_far = AtomicU64::new(0);
        let newly = (0..chunks)
            .into_par_iter()
            .map(|k| -> Result<u64, SolveError> {
                meter.ctl.check()?;
                let lo = k * per_chunk;
                let n = level(d, pull, lo, (lo + per_chunk).min(blocks));
                let all = so_far.fetch_add(n, Relaxed) + n;
                meter.chunk_done();
                meter.report(d + 1, filled + all, false);
                Ok(n)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b));
        meter.end_level();
        let newly = newly?;
        filled += newly;
        last = frontier;
        frontier = newly;
        d += 1;
        // With unit costs an empty level ends the search; otherwise a gap as long as the
        // dearest letter does.
        empty = if newly == 0 { empty + 1 } else { 0 };
        if empty >= if unit { 1 } else { max_cost } {
            break;
        }
    }
    Ok(())
}

/// Whether a level of unit costs is pulled rather than pushed: when the frontier is more
/// than a quarter of the entries left, whose pull, entry by entry, stops at an entry's
/// first letter found. A pull across runs (`sym_fill_runs.rs`) costs per class, not per
/// entry left, and less than a push (per entry of the frontier and letter) from a
/// frontier of about a sixteenth of the entries left (measured on the 3x3x3's tables).
pub(super) fn pull_now(frontier: u64, unknown: u64, across: bool) -> bool {
    frontier.saturating_mul(if across { 16 } else { 4 }) > unknown
}

/// Per part, where each letter's value comes from: the move tables `fwd` inverted (each
/// letter permutes a part's values).
pub(super) fn backward(fwd: &[Vec<u32>], letters: usize) -> Vec<Vec<u32>> {
    fwd.iter()
        .map(|f| {
            let mut b = vec![0u32; f.len()];
            for (i, &to) in f.iter().enumerate() {
                let (v, l) = (i / letters, i % letters);
                b[to as usize * letters + l] = v as u32;
            }
            b
        })
        .collect()
}

/// Fills the table of `c` (two entries a byte) with the distances from the solved entry,
/// 15 standing for 15 or more and for entries no position has.
pub(super) fn fill_coords(
    model: &Model,
    c: &Coords,
    actions: &[Action],
    cost: &[u32],
    meter: &Meter,
) -> Result<BigBuf, SolveError> {
    let letters = actions.len();
    let moves_bytes: u64 = c.sizes.iter().map(|s| 8 * s * letters as u64).sum();
    meter.ctl.reserve(
        "a pattern database over several orbits (and its move tables)",
        c.bytes() + moves_bytes,
    )?;
    let fwd = c.move_tables(model, actions);
    let back = backward(&fwd, letters);
    let last = c.parts.len() - 1;
    let inner = c.sizes[last];
    let span = 4096u64.div_ceil(inner).next_power_of_two().trailing_zeros();
    let f = Fill {
        c,
        letters,
        fwd,
        back,
        inner,
        block_weight: c.weights.iter().map(|w| w / inner).collect(),
        at: (0..(c.size / inner).div_ceil(1 << span))
            .map(|_| AtomicU16::new(0))
            .collect(),
        span,
    };
    let mut buf = BigBuf::new(c.bytes() as usize, 0xff);
    let t = buf.as_atomic();
    let solved = c.index(&model.solved());
    set(t, solved, 0);
    f.mark(solved / inner, 0);
    let blocks = c.size / inner;
    levels(
        c.size,
        1,
        cost,
        blocks,
        inner,
        meter,
        false,
        |_, _, _, _, _| true,
        |d, pull, lo, hi| f.level(t, d, pull, cost, lo, hi),
    )?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::super::coords::Part;
    use super::super::fixtures::{cube2_qtm, cube3_htm};
    use super::*;
    use puz_core::Control;
    use std::collections::HashMap;

    /// Distances of the parts' values by a breadth-first search of the abstract puzzle on
    /// whole states projected to their parts (the letters' permutations on points).
    fn bfs(model: &Model, c: &Coords, perms: &[puz_core::Perm]) -> HashMap<Vec<u64>, u8> {
        let key =
            |s: &[u8]| -> Vec<u64> { (0..c.parts.len()).map(|i| c.part_value(i, s)).collect() };
        let solved = model.solved();
        let mut dist = HashMap::from([(key(&solved), 0u8)]);
        let mut layer = vec![model.perm_of(&solved)];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for p in &layer {
                for g in perms {
                    let q = p.then(g);
                    let k = key(&model.state_of(&q).unwrap());
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(k) {
                        e.insert(d);
                        next.push(q);
                    }
                }
            }
            layer = next;
        }
        dist
    }

    fn check(model: &Model, c: Coords, actions: &[Action], cost: &[u32], perms: &[puz_core::Perm]) {
        let ctl = Control::default();
        let meter = Meter::new(&ctl, String::new(), 0, c.size);
        let table = fill_coords(model, &c, actions, cost, &meter).unwrap();
        let dist = bfs(model, &c, perms);
        let value = |i: u64| nibble(&table, i);
        let reached = (0..c.size).filter(|&i| value(i) != 15).count();
        assert_eq!(reached, dist.len());
        for (k, &v) in &dist {
            let i: u64 = k.iter().zip(&c.weights).map(|(x, w)| x * w).sum();
            assert_eq!(value(i), v.min(15), "{k:?}");
        }
    }

    #[test]
    fn cube2_table_is_a_search_of_its_parts() {
        // 2x2x2 in qtm: the twist at every location and where three corners are.
        let (model, qtm, actions) = cube2_qtm();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 0 },
                Part::Set {
                    orbit: 0,
                    pieces: vec![0, 3, 5],
                },
            ],
        )
        .unwrap();
        check(&model, c, &actions, &qtm.cost, &qtm.alphabet.perms);
    }

    /// The 3x3x3's corners' places with its edges' parity in qtm: half of the entries
    /// (the parities differing) are never reached, so once the frontier thins the
    /// levels are pushed again after pulled ones, from the blocks a pull marked.
    #[test]
    fn levels_pushed_after_pulled_ones_start_from_every_entry() {
        let (model, qtm, actions) = super::super::fixtures::cube3_metric("qtm");
        let c = Coords::new(
            &model,
            vec![
                Part::Places {
                    orbit: 0,
                    pieces: (0..7).collect(),
                },
                Part::Parity { orbit: 1 },
            ],
        )
        .unwrap();
        assert_eq!(c.size, 80640);
        check(&model, c, &actions, &qtm.cost, &qtm.alphabet.perms);
    }

    #[test]
    fn cube2_places_are_a_search_of_their_parts() {
        // 2x2x2 in qtm: the twist at every location and where each of three corners is.
        let (model, qtm, actions) = cube2_qtm();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 0 },
                Part::Places {
                    orbit: 0,
                    pieces: vec![6, 1, 4],
                },
            ],
        )
        .unwrap();
        assert_eq!(c.size, 2187 * 8 * 7 * 6);
        check(&model, c, &actions, &qtm.cost, &qtm.alphabet.perms);
    }

    #[test]
    fn cube3_edge_flips_and_slice() {
        // 3x3x3 in htm: the edge flips with the set of the four slice edges (1,013,760
        // entries, every level pushed then pulled).
        let (model, htm, actions) = cube3_htm();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 1 },
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
            ],
        )
        .unwrap();
        check(&model, c, &actions, &htm.cost, &htm.alphabet.perms);
    }

    #[test]
    fn other_costs_are_pulled_right() {
        // The 2x2x2 in qtm with the half turns as letters of cost 2 and 3 (made up):
        // the same distances as a search that weighs its letters.
        let (model, qtm, _) = cube2_qtm();
        let mut perms = qtm.alphabet.perms.clone();
        let mut cost = qtm.cost.clone();
        for (i, p) in qtm.alphabet.perms.iter().enumerate() {
            perms.push(p.then(p));
            cost.push(2 + (i % 2) as u32);
        }
        let actions: Vec<Action> = perms.iter().map(|p| model.action(p).unwrap()).collect();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 0 },
                Part::Set {
                    orbit: 0,
                    pieces: vec![2, 7],
                },
            ],
        )
        .unwrap();
        let ctl = Control::default();
        let meter = Meter::new(&ctl, String::new(), 0, c.size);
        let table = fill_coords(&model, &c, &actions, &cost, &meter).unwrap();
        // Dijkstra on the parts' values through the move tables.
        let mt = c.move_tables(&model, &actions);
        let n = c.size as usize;
        let mut dist = vec![u32::MAX; n];
        let solved = c.index(&model.solved()) as usize;
        dist[solved] = 0;
        let mut heap = std::collections::BinaryHeap::from([std::cmp::Reverse((0u32, solved))]);
        while let Some(std::cmp::Reverse((dv, i))) = heap.pop() {
            if dv > dist[i] {
                continue;
            }
            for (l, &cl) in cost.iter().enumerate() {
                let mut j = 0usize;
                for (p, moves) in mt.iter().enumerate() {
                    let v = (i as u64 / c.weights[p]) % c.sizes[p];
                    j += moves[v as usize * actions.len() + l] as usize * c.weights[p] as usize;
                }
                if dv + cl < dist[j] {
                    dist[j] = dv + cl;
                    heap.push(std::cmp::Reverse((dv + cl, j)));
                }
            }
        }
        for (i, &want) in dist.iter().enumerate() {
            let got = (table[i >> 1] >> ((i & 1) * 4)) & 15;
            assert_eq!(got as u32, want.min(15), "entry {i}");
        }
    }
}
