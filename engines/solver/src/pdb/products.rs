//! Tables over several whole orbits, for letters that move only small orbits: a subgroup
//! whose orbits of places are small, seen as its own puzzle by `split.rs` (the 4x4x4's
//! half turns: 14 orbits of 4 places), or the Pyraminx. Each orbit's arrangement is a part
//! of a [`Coords`] table, so a table over six such orbits ranks 24^6 arrangements where
//! tables of pieces would rank each piece among its whole orbit's places.

use super::choice::MAX_TABLES;
use super::coords::MAX_PARTS;
use super::{Coords, Part, Shape};
use crate::model::{Action, Model};

/// The tables (see the module header) for `budget` bytes: each orbit's arrangement (where
/// its pieces are, when letters move them, and the orientation at each location, when
/// letters turn them) is a part; the orbits go into tables largest first, each into the
/// first table that holds it within the budget, then the tables are filled up with other
/// tables' orbits, the smallest first, while the budget lasts. `None` when some moving
/// orbit is too large for a part, fewer than two orbits move, or no table would hold two
/// orbits.
pub(super) fn of_small_orbits(
    model: &Model,
    actions: &[Action],
    budget: u64,
) -> Option<Vec<Shape>> {
    let mut orbits: Vec<(Vec<Part>, u64)> = Vec::new();
    for (oi, o) in model.orbits.iter().enumerate() {
        let span = o.start..o.start + o.size;
        let moves = actions
            .iter()
            .any(|a| span.clone().any(|b| a.src[b] as usize != b));
        let turns = actions.iter().any(|a| span.clone().any(|b| a.add[b] != 0));
        let mut parts = Vec::new();
        if moves && o.size >= 2 {
            parts.push(Part::Places {
                orbit: oi,
                pieces: (0..o.size as u8 - 1).collect(),
            });
        }
        if turns && o.twist >= 2 {
            parts.push(Part::Ori { orbit: oi });
        }
        if parts.is_empty() {
            continue;
        }
        let size = Coords::new(model, parts.clone())?.size;
        orbits.push((parts, size));
    }
    if orbits.len() < 2 {
        return None;
    }
    // Entries in nibbles. The largest orbits first, each into the first table it fits
    // (first-fit decreasing), so that the large orbits share tables: on the 4x4x4's
    // `<U, D, R2, ..., b2>` two tables over two orbits of 8 places each, where shares of
    // the budget, even or by orbit order, each held one beside orbits of 4.
    let cap = budget.saturating_mul(2);
    let size = |g: &[usize]| g.iter().try_fold(1u64, |r, &i| r.checked_mul(orbits[i].1));
    let total = |gs: &[Vec<usize>]| {
        gs.iter()
            .try_fold(0u64, |t, g| size(g).and_then(|s| t.checked_add(s)))
    };
    let fits = |group: &[usize], more: usize, limit: u64| {
        let parts: usize = group.iter().map(|&i| orbits[i].0.len()).sum();
        parts + orbits[more].0.len() <= MAX_PARTS
            && size(group)
                .and_then(|s| s.checked_mul(orbits[more].1))
                .is_some_and(|s| s <= limit)
    };
    let mut by_size: Vec<usize> = (0..orbits.len()).collect();
    by_size.sort_by_key(|&i| std::cmp::Reverse(orbits[i].1));
    // A table's limit halved until the tables fit the budget together. A table past
    // 2^28 entries is built only for a group of more than 2^16 times as many positions:
    // its build time is not won back on a smaller one (benches/results.md, "4x4x4
    // reduction subgroups": on `<U, D, R2, L2, F2, B2>` such a table cost far more to
    // build than it saved; with `u2, d2` too it is what solves the group).
    let useful = model
        .positions
        .map_or(u64::MAX, |n| (n / 65536.0).min(u64::MAX as f64) as u64);
    let mut limit = cap.min(useful.max(1 << 28));
    let mut groups = loop {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &i in &by_size {
            match groups.iter_mut().find(|g| fits(g, i, limit)) {
                Some(g) => g.push(i),
                None => groups.push(vec![i]),
            }
        }
        if total(&groups).is_some_and(|t| t <= cap) || limit < 2 {
            break groups;
        }
        limit /= 2;
    };
    if groups.len() > MAX_TABLES
        || groups.iter().all(|g| g.len() < 2)
        || total(&groups).is_none_or(|t| t > cap)
    {
        return None;
    }
    // Every table filled up with orbits of the others while the budget lasts (the
    // smallest first, so that the most fit), which then have two tables.
    by_size.reverse();
    for k in 0..groups.len() {
        for &i in &by_size {
            if groups[k].contains(&i) || !fits(&groups[k], i, limit) {
                continue;
            }
            groups[k].push(i);
            if total(&groups).is_none_or(|t| t > cap) {
                groups[k].pop();
            }
        }
    }
    groups
        .iter()
        .map(|g| {
            let parts = g.iter().flat_map(|&i| orbits[i].0.clone()).collect();
            Coords::new(model, parts).map(Shape::Coords)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Metric;
    use crate::split::Split;
    use crate::testsupport::{actions_of, cube3};

    /// The 3x3x3's half-turn group, split into orbits of 4 places: the tables cover every
    /// orbit the letters move, hold several orbits each, and fit the budget; the whole
    /// 3x3x3 in htm (orbits too large for a part) gets none.
    #[test]
    fn tables_cover_the_small_orbits_within_the_budget() {
        let c3 = cube3();
        let ctl = puz_core::Control::default();
        let gens = [
            ("U2", 1),
            ("D2", 1),
            ("R2", 1),
            ("L2", 1),
            ("F2", 1),
            ("B2", 1),
        ];
        let half = Metric::explicit(&c3, "half", &gens, &ctl).unwrap();
        let split = Split::of(&c3, &half).unwrap();
        let model = Model::new(&split.puzzle).unwrap();
        let actions = actions_of(&model, &split.metric);
        for budget in [1u64 << 10, 1 << 16, 1 << 24] {
            let tables = of_small_orbits(&model, &actions, budget).unwrap();
            let bytes: u64 = tables.iter().map(|t| t.bytes()).sum();
            assert!(bytes <= budget, "{bytes} > {budget}");
            let mut covered = [false; 5];
            for t in &tables {
                let Shape::Coords(c) = t else {
                    panic!("{}", t.describe())
                };
                assert!(c.parts.len() >= 2);
                for p in &c.parts {
                    covered[p.orbit()] = true;
                }
            }
            assert_eq!(covered, [true; 5], "budget {budget}");
        }
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &ctl).unwrap();
        let model = Model::new(&c3).unwrap();
        assert!(of_small_orbits(&model, &actions_of(&model, &htm), 1 << 30).is_none());
    }

    /// The 3x3x3's `<U, D, R2, L2, F2, B2>` (Kociemba's phase 2), split into its corners
    /// and U and D edges (8 places each) and middle edges (4): with the budget for it, one
    /// table holds both large orbits; a group of 19.5·10^9 positions gets no table past
    /// 2^28 entries, so those two orbits are in tables of their own.
    #[test]
    fn the_largest_orbits_share_a_table_when_the_group_is_large() {
        let c3 = cube3();
        let ctl = puz_core::Control::default();
        let gens = ["U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2"];
        let gens: Vec<(&str, u32)> = gens.iter().map(|&g| (g, 1)).collect();
        let g1 = Metric::explicit(&c3, "g1", &gens, &ctl).unwrap();
        let split = Split::of(&c3, &g1).unwrap();
        let mut model = Model::new(&split.puzzle).unwrap();
        let actions = actions_of(&model, &split.metric);
        let large: Vec<usize> = (0..model.orbits.len())
            .filter(|&o| model.orbits[o].size == 8)
            .collect();
        assert_eq!(large.len(), 2);
        let holds_both = |tables: &[Shape]| {
            tables.iter().any(|t| {
                let Shape::Coords(c) = t else { return false };
                large
                    .iter()
                    .all(|&o| c.parts.iter().any(|p| p.orbit() == o))
            })
        };
        let tables = of_small_orbits(&model, &actions, 4 << 30).unwrap();
        assert!(holds_both(&tables));
        model.positions = Some(19_508_428_800.0);
        let tables = of_small_orbits(&model, &actions, 4 << 30).unwrap();
        assert!(!holds_both(&tables));
        for t in &tables {
            assert!(t.bytes() * 2 <= 1 << 28, "{}", t.describe());
        }
        // Still every orbit the letters move is read.
        let mut covered = vec![false; model.orbits.len()];
        for t in &tables {
            let Shape::Coords(c) = t else { panic!() };
            for p in &c.parts {
                covered[p.orbit()] = true;
            }
        }
        assert_eq!(covered.iter().filter(|&&c| c).count(), 3);
    }
}
