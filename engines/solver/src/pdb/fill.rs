//! The table fill: breadth-first from the solved pattern over blocks of one orientation
//! part each, in parallel. Unit costs go to the fill on bit sets (`sweep`); other costs
//! (and blocks too large for its masks) to the fill on a byte an entry here: forward, each
//! level's entries pushed to their neighbours. Entries are packed two a byte.

use super::bitset::Bitset;
use super::sweep::{sweep, Direction, MAX_SPAN};
use super::turns::{orbit_maps, OriTurn, OriTurns};
use super::{Pattern, Pdb, Shape};
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::model::{Action, Model};
#[cfg(test)]
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::meter::Meter;

impl Pdb {
    /// Fills the table breadth-first from the solved pattern.
    #[cfg(test)]
    pub fn build(
        model: &Model,
        pattern: Pattern,
        actions: &[Action],
        cost: &[u32],
        ctl: &Control,
    ) -> Result<Pdb, SolveError> {
        let meter = Meter::new(ctl, String::new(), 0, pattern.size);
        Pdb::fill(model, pattern, actions, cost, &meter)
    }

    /// Fills the table breadth-first from the solved pattern, reporting to `meter`.
    pub(super) fn fill(
        model: &Model,
        pattern: Pattern,
        actions: &[Action],
        cost: &[u32],
        meter: &Meter,
    ) -> Result<Pdb, SolveError> {
        let unit = cost.iter().all(|&c| c == 1);
        if unit && pattern.ori_span <= MAX_SPAN {
            Pdb::fill_bits(model, pattern, actions, meter, Direction::Auto)
        } else {
            Pdb::fill_bytes(model, pattern, actions, cost, meter)
        }
    }

    /// The fill on bit sets (unit costs), each level in the direction `dir`.
    pub(super) fn fill_bits(
        model: &Model,
        pattern: Pattern,
        actions: &[Action],
        meter: &Meter,
        dir: Direction,
    ) -> Result<Pdb, SolveError> {
        meter.ctl.reserve(
            "a pattern database (and three bits an entry while it is filled)",
            pattern.bytes() + 3 * Bitset::bytes(pattern.size),
        )?;
        let maps = orbit_maps(model, pattern.orbit, actions);
        let turns = OriTurns::new(&pattern, &maps);
        let solved = pattern.index(&model.solved());
        let mut table = BigBuf::new(pattern.bytes() as usize, 0xff);
        sweep(&pattern, &turns, &maps, solved, meter, dir, &mut table)?;
        Ok(Pdb::new(Shape::Pieces(pattern), table))
    }

    /// The fill on a byte an entry, for any costs (the reference the fill on bit sets is
    /// tested against).
    pub(super) fn fill_bytes(
        model: &Model,
        pattern: Pattern,
        actions: &[Action],
        cost: &[u32],
        meter: &Meter,
    ) -> Result<Pdb, SolveError> {
        let ctl = meter.ctl;
        ctl.reserve(
            "a pattern database (one byte an entry while it is filled)",
            pattern.size + pattern.bytes(),
        )?;
        let maps = orbit_maps(model, pattern.orbit, actions);
        let mut buf = BigBuf::new(pattern.size as usize, 255);
        let table = buf.as_atomic();
        let solved = pattern.index(&model.solved());
        table[solved as usize].store(0, Ordering::Relaxed);
        let unit = cost.iter().all(|&c| c == 1);
        let turns = OriTurns::new(&pattern, &maps);
        let span = pattern.ori_span;
        let blocks = pattern.size / span;
        let mut filled = 1u64;
        let max_set = AtomicU8::new(0);
        let mut d: u8 = 0;
        // Blocks of one orientation part each (the arrangement outside, the orientations
        // inside): a letter sends a whole block to one other block, so its arrangement is
        // turned once and the writes stay within a few cache lines.
        let per_chunk = ((1u64 << 15) / span).max(1);
        let nchunks = blocks.div_ceil(per_chunk);
        loop {
            if d as u32 + 1 >= 255 {
                break;
            }
            let pull = unit && filled > pattern.size / 3;
            let so_far = AtomicU64::new(0);
            meter.report(d + 1, filled, true);
            let newly: u64 = (0..nchunks)
                .into_par_iter()
                .map(|c| -> Result<u64, SolveError> {
                    ctl.check()?;
                    let (mut loc, mut ori, mut nl) = ([0u8; 64], [0u8; 64], [0u8; 64]);
                    let mut list: Vec<u64> = Vec::new();
                    let mut turn = OriTurn::default();
                    let mut n = 0u64;
                    for b in c * per_chunk..((c + 1) * per_chunk).min(blocks) {
                        let base = b * span;
                        list.clear();
                        let want = if pull { 255 } else { d };
                        for o in 0..span {
                            if table[(base + o) as usize].load(Ordering::Relaxed) == want {
                                list.push(o);
                            }
                        }
                        if list.is_empty() {
                            continue;
                        }
                        pattern.unindex(base, &mut loc, &mut ori);
                        let k = pattern.pieces.len();
                        for (l, &cl) in cost.iter().enumerate() {
                            let dest = &maps[l].0;
                            for i in 0..k {
                                nl[i] = dest[loc[i] as usize];
                            }
                            let to = pattern.perm_rank(&nl[..k]) * span;
                            turns.prepare(l, &loc[..k], &mut turn);
                            if pull {
                                let mut i = 0;
                                while i < list.len() {
                                    let o = list[i];
                                    let j = to + turns.apply(&turn, o);
                                    if table[j as usize].load(Ordering::Relaxed) == d {
                                        table[(base + o) as usize].store(d + 1, Ordering::Relaxed);
                                        n += 1;
                                        list.swap_remove(i);
                                    } else {
                                        i += 1;
                                    }
                                }
                                if list.is_empty() {
                                    break;
                                }
                            } else {
                                let nv = d + cl.min(200) as u8;
                                for &o in &list {
                                    let j = (to + turns.apply(&turn, o)) as usize;
                                    if table[j].load(Ordering::Relaxed) <= nv {
                                        continue;
                                    }
                                    let old = table[j].fetch_min(nv, Ordering::Relaxed);
                                    if old == 255 {
                                        n += 1;
                                    }
                                    if old > nv {
                                        max_set.fetch_max(nv, Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                    }
                    let all = so_far.fetch_add(n, Ordering::Relaxed) + n;
                    meter.report(d + 1, filled + all, false);
                    Ok(n)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
            filled += newly;
            if pull {
                if newly == 0 {
                    break;
                }
                max_set.fetch_max(d + 1, Ordering::Relaxed);
            }
            d += 1;
            if d > max_set.load(Ordering::Relaxed) {
                break;
            }
        }
        // Two entries a byte, low nibble first; 15 stands for 15 or more (and for patterns
        // no position has), so a look-up never exceeds the true distance.
        let mut packed = BigBuf::new(pattern.bytes() as usize, 0xff);
        packed
            .par_chunks_mut(1 << 16)
            .zip(buf.par_chunks(1 << 17))
            .for_each(|(out, src)| {
                for (o, pair) in out.iter_mut().zip(src.chunks(2)) {
                    let lo = pair[0].min(15);
                    let hi = pair.get(1).map_or(15, |&v| v.min(15));
                    *o = lo | hi << 4;
                }
            });
        drop(buf);
        Ok(Pdb::new(Shape::Pieces(pattern), packed))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{cube2_qtm, cube3_htm, setup};
    use super::*;
    use crate::gods::sparse;
    use crate::testsupport::cube2;

    /// Breadth-first distances from `start` under `perms`, `step` giving a neighbour.
    fn bfs<S: Clone + Eq + std::hash::Hash>(
        start: S,
        perms: &[puz_core::Perm],
        step: impl Fn(&S, &puz_core::Perm) -> S,
    ) -> std::collections::HashMap<S, u8> {
        let mut dist = std::collections::HashMap::new();
        dist.insert(start.clone(), 0u8);
        let mut layer = vec![start];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for st in &layer {
                for g in perms {
                    let t = step(st, g);
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d);
                        next.push(t);
                    }
                }
            }
            layer = next;
        }
        dist
    }

    /// Distances of the (location, orientation) points of `pieces` of one orbit under
    /// `perms`, searched directly (points counted from the orbit's first point).
    fn direct_search(
        model: &Model,
        perms: &[puz_core::Perm],
        orbit: usize,
        pieces: &[u8],
    ) -> std::collections::HashMap<Vec<usize>, u8> {
        let o = &model.orbits[orbit];
        let t = o.twist as usize;
        let start: Vec<usize> = pieces.iter().map(|&x| x as usize * t).collect();
        bfs(start, perms, |st, g| {
            st.iter()
                .map(|&pt| g.image(pt + o.offset) - o.offset)
                .collect()
        })
    }

    #[test]
    fn edge_table_matches_a_direct_search() {
        // Three edges of the 3x3x3 in htm: twist 2 (orientations turned by an exclusive
        // or) and unit costs (the table is finished backwards, from the unfilled entries).
        let (model, htm, actions) = cube3_htm();
        let pieces = vec![0u8, 5, 9];
        let p = Pattern::new(&model, 1, pieces.clone());
        assert_eq!(p.size, 12 * 11 * 10 * 8);
        let pdb = Pdb::build(&model, p, &actions, &htm.cost, &Control::default()).unwrap();
        let dist = direct_search(&model, &htm.alphabet.perms, 1, &pieces);
        assert_eq!(dist.len() as u64, pdb.pattern().size);
        for (st, &v) in &dist {
            let loc: Vec<u8> = st.iter().map(|&pt| (pt / 2) as u8).collect();
            let ori: Vec<u8> = st.iter().map(|&pt| (pt % 2) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern().index_of(&loc, &ori)), v);
        }
    }

    #[test]
    fn orientation_table_matches_a_direct_search() {
        // Two corners of the 2x2x2 and the twist at every location, in qtm, searched
        // directly: (points of the two pieces, twist per location).
        let (model, qtm, actions) = cube2_qtm();
        let pieces = vec![2u8, 6];
        let p = Pattern::with_orientations(&model, 0, pieces.clone(), true);
        assert_eq!(p.size, 8 * 7 * 2187);
        let pdb = Pdb::build(&model, p, &actions, &qtm.cost, &Control::default()).unwrap();
        type St = (Vec<usize>, Vec<u8>);
        let start: St = (pieces.iter().map(|&x| x as usize * 3).collect(), vec![0; 8]);
        let dist = bfs(start, &qtm.alphabet.perms, |(pts, oris), g| {
            let np: Vec<usize> = pts.iter().map(|&pt| g.image(pt)).collect();
            let mut no = vec![0u8; 8];
            for (l, &o) in oris.iter().enumerate() {
                let q = g.image(l * 3 + o as usize);
                no[q / 3] = (q % 3) as u8;
            }
            (np, no)
        });
        assert_eq!(pdb.values().filter(|&v| v != 15).count(), dist.len());
        for ((pts, oris), &v) in &dist {
            let loc: Vec<u8> = pts.iter().map(|&pt| (pt / 3) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern().index_of(&loc, oris)), v);
        }
    }

    #[test]
    fn table_matches_a_direct_search_on_the_pieces() {
        // Four corners of the 2x2x2 in qtm, searched directly on their (location, twist)
        // points with the letters' permutations.
        let (model, qtm, actions) = cube2_qtm();
        let pieces = vec![1u8, 3, 5, 6];
        let p = Pattern::new(&model, 0, pieces.clone());
        let pdb = Pdb::build(&model, p, &actions, &qtm.cost, &Control::default()).unwrap();
        let dist = direct_search(&model, &qtm.alphabet.perms, 0, &pieces);
        assert_eq!(pdb.values().filter(|&v| v != 15).count(), dist.len());
        for (st, &v) in &dist {
            let loc: Vec<u8> = st.iter().map(|&pt| (pt / 3) as u8).collect();
            let ori: Vec<u8> = st.iter().map(|&pt| (pt % 3) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern().index_of(&loc, &ori)), v);
        }
    }

    /// Heavy (88,179,840 entries): the whole corner orbit of the 2x2x2 is God's algorithm.
    #[test]
    #[ignore]
    fn whole_orbit_table_is_gods_algorithm() {
        // The 2x2x2 <U,R,F> corners orbit, all 8 pieces: the table has 8! 3^7 entries, of
        // which the group reaches 3,674,160 with the same distances as God's algorithm.
        let (model, htm, actions) = setup();
        let p = Pattern::new(&model, 0, (0..8).collect());
        assert_eq!(p.size, 40320 * 2187);
        let pdb = Pdb::build(&model, p, &actions, &htm.cost, &Control::default()).unwrap();
        let mut hist = [0u64; 13];
        for v in pdb.values() {
            if v != 15 {
                hist[v as usize] += 1;
            }
        }
        let d = sparse(&cube2(), &htm, 12, &[], 1, &Control::default()).unwrap();
        assert!(d.complete);
        assert_eq!(&hist[..12], &d.counts[..]);
    }
}

#[cfg(test)]
mod rate {
    use super::super::fixtures::cube3_htm;
    use super::*;

    /// The fill rate of one table: `PUZ_FILL=orbit:pieces[:all]` (pieces as `0,1,2`).
    #[test]
    #[ignore]
    fn fill_rate() {
        let spec = std::env::var("PUZ_FILL").unwrap_or("1:0,1,2,3,4,5,6".into());
        let parts: Vec<&str> = spec.split(':').collect();
        let (model, htm, actions) = cube3_htm();
        let pieces = parts[1].split(',').map(|x| x.parse().unwrap()).collect();
        let p =
            Pattern::with_orientations(&model, parts[0].parse().unwrap(), pieces, parts.len() > 2);
        let size = p.size;
        let t0 = std::time::Instant::now();
        let pdb = Pdb::build(&model, p, &actions, &htm.cost, &Control::default()).unwrap();
        let s = t0.elapsed().as_secs_f64();
        let h = pdb
            .table
            .iter()
            .fold(0u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        eprintln!(
            "{spec}: {size} entries in {s:.2} s, {:.1} M/s, hash {h:016x}",
            size as f64 / s / 1e6
        );
    }
}
