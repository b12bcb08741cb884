//! Which patterns to build for a memory budget (see [`choose_patterns`]).

use super::Pattern;
use crate::model::{Action, Model};

/// At most this many tables in all (every node looks each one up, twice with the inverse).
const MAX_TABLES: usize = 12;

/// Chooses the patterns for a memory budget: for each orbit the letters move, the
/// largest `k` such that `ceil(n / k)` tables of `k` pieces (the last one overlapping)
/// fit in the orbit's share. The budget left over (an orbit's share it did not need, and
/// what the covering tables leave) then goes, round-robin over the orbits, to further
/// `k`-piece tables of other subsets (pieces taken in the orders `(i mod m, i)`,
/// `m = 2, 3, ...`), so the heuristic is the maximum over more tables. Before those, an
/// orbit with orientations gets one table of the orientation at every location together
/// with as many pieces as fit (e.g. the 12 edge flips and 5 edges of the 3x3x3).
pub fn choose_patterns(model: &Model, actions: &[Action], budget: u64) -> Vec<Pattern> {
    let moving: Vec<usize> = (0..model.orbits.len())
        .filter(|&oi| {
            let o = &model.orbits[oi];
            actions.iter().any(|a| {
                (0..o.size)
                    .any(|b| a.src[o.start + b] as usize != o.start + b || a.add[o.start + b] != 0)
            })
        })
        .collect();
    if moving.is_empty() {
        return Vec::new();
    }
    // Each orbit's share is what the orbits before it left, split evenly.
    let mut remaining = budget;
    let mut out = Vec::new();
    // Per orbit: the further subsets not yet used.
    let mut extra: Vec<(usize, usize, Vec<Vec<usize>>)> = Vec::new();
    let mut chosen: Vec<Vec<Vec<u8>>> = Vec::new();
    for (done, &oi) in moving.iter().enumerate() {
        let o = &model.orbits[oi];
        let share = remaining / (moving.len() - done) as u64;
        let mut best = None;
        for k in 1..=o.size.min(63) {
            let chunks = o.size.div_ceil(k) as u64;
            let p = Pattern::new(model, oi, (0..k as u8).collect());
            if p.bytes().saturating_mul(chunks) <= share {
                best = Some(k);
            }
        }
        let Some(k) = best else { continue };
        let chunks = o.size.div_ceil(k);
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for c in 0..chunks {
            let first = (c * k).min(o.size - k);
            let pieces: Vec<u8> = (first as u8..(first + k) as u8).collect();
            seen.push(pieces.clone());
            let p = Pattern::new(model, oi, pieces);
            remaining = remaining.saturating_sub(p.bytes());
            out.push(p);
        }
        // Further subsets, spread over the orbit (every m-th piece first), for the tables
        // added when budget remains.
        let mut more = Vec::new();
        if k < o.size {
            for m in 2..o.size {
                let mut order: Vec<usize> = (0..o.size).collect();
                order.sort_by_key(|&i| (i % m, i));
                more.push(order);
            }
        }
        more.reverse();
        extra.push((oi, k, more));
        chosen.push(seen);
    }
    let mut used: u64 = out.iter().map(|p: &Pattern| p.bytes()).sum();
    // Then, per orbit with orientations not covered by a whole-orbit table, one table of
    // every location's orientation and the largest number of pieces that fits.
    for &(oi, k, _) in &extra {
        let o = &model.orbits[oi];
        if o.twist == 1 || k == o.size || o.size > 63 || out.len() >= MAX_TABLES {
            continue;
        }
        let mut best = None;
        for k in 1..o.size {
            let p = Pattern::with_orientations(model, oi, (0..k as u8).collect(), true);
            if used.saturating_add(p.bytes()) <= budget {
                best = Some(p);
            }
        }
        if let Some(p) = best {
            used += p.bytes();
            out.push(p);
        }
    }
    // Then the largest further subsets the remaining budget holds (never smaller than the
    // first one added), spread over the orbit.
    let mut least: Vec<Option<usize>> = vec![None; extra.len()];
    loop {
        let mut added = false;
        for (e, (oi, k0, orders)) in extra.iter_mut().enumerate() {
            if out.len() >= MAX_TABLES {
                return out;
            }
            let n = model.orbits[*oi].size;
            let floor = least[e].unwrap_or(*k0);
            let Some(k) = (floor..n).rev().find(|&k| {
                used.saturating_add(Pattern::new(model, *oi, (0..k as u8).collect()).bytes())
                    <= budget
            }) else {
                orders.clear();
                continue;
            };
            while let Some(order) = orders.pop() {
                let mut pieces: Vec<u8> = order[..k].iter().map(|&i| i as u8).collect();
                pieces.sort();
                if chosen[e].contains(&pieces) {
                    continue;
                }
                chosen[e].push(pieces.clone());
                let p = Pattern::new(model, *oi, pieces);
                used += p.bytes();
                out.push(p);
                least[e] = Some(k);
                added = true;
                break;
            }
        }
        if !added {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::cube3_htm;
    use super::*;

    #[test]
    fn patterns_fill_the_budget() {
        // 3x3x3 edges and corners in htm (tables of 4-bit entries). 512 MiB: the whole corner
        // orbit (44 MB), two 6-edge halves (21 MB each), the 12 edge flips with 5 edges
        // (97 MB), then the largest further subset that fits: 7 edges (255 MB). 1 GiB: two
        // 7-edge tables cover the edges.
        let (model, _, actions) = cube3_htm();
        for (budget, expect) in [(512u64 << 20, [6, 6, 7]), (1 << 30, [7, 7, 7])] {
            let ps = choose_patterns(&model, &actions, budget);
            assert!(ps.iter().map(|p| p.bytes()).sum::<u64>() <= budget);
            let desc: Vec<(usize, bool)> = ps.iter().map(|p| (p.pieces.len(), p.all_ori)).collect();
            assert_eq!(
                desc,
                vec![
                    (8, false),
                    (expect[0], false),
                    (expect[1], false),
                    (5, true),
                    (expect[2], false),
                ]
            );
            let mut sets: Vec<&Vec<u8>> = ps
                .iter()
                .filter(|p| !p.all_ori)
                .map(|p| &p.pieces)
                .collect();
            let n = sets.len();
            sets.sort();
            sets.dedup();
            assert_eq!(sets.len(), n);
        }
    }
}
