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
/// letters turn them) is a part, and each table takes as many whole orbits as the budget
/// shares out to it, in the orbits' order, then is filled up to its share with other
/// orbits, the smallest first. `None` when some moving orbit is too large for a part,
/// fewer than two orbits move, or no table would hold two orbits.
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
    // Entries in nibbles; `tables` tables share the budget evenly.
    let cap = budget.saturating_mul(2);
    let size = |g: &[usize]| g.iter().try_fold(1u64, |r, &i| r.checked_mul(orbits[i].1));
    let fits = |group: &[usize], more: usize, limit: u64| {
        let parts: usize = group.iter().map(|&i| orbits[i].0.len()).sum();
        parts + orbits[more].0.len() <= MAX_PARTS
            && size(group)
                .and_then(|s| s.checked_mul(orbits[more].1))
                .is_some_and(|s| s <= limit)
    };
    let mut tables = 1u64;
    let groups = loop {
        let limit = cap / tables;
        let mut groups: Vec<Vec<usize>> = vec![Vec::new()];
        for i in 0..orbits.len() {
            let last = groups.last_mut().unwrap();
            if last.is_empty() || fits(last, i, limit) {
                last.push(i);
            } else {
                groups.push(vec![i]);
            }
        }
        if groups.len() as u64 <= tables || groups.len() > MAX_TABLES {
            break groups;
        }
        tables = groups.len() as u64;
    };
    let limit = cap / groups.len() as u64;
    if groups.len() > MAX_TABLES
        || groups.iter().all(|g| g.len() < 2)
        || groups.iter().any(|g| size(g).is_none_or(|s| s > limit))
    {
        return None;
    }
    // Every table filled up to its share with orbits of the others (the smallest first,
    // so that the most fit), which then have two tables.
    let mut by_size: Vec<usize> = (0..orbits.len()).collect();
    by_size.sort_by_key(|&i| orbits[i].1);
    let mut groups = groups;
    for g in groups.iter_mut() {
        for &i in &by_size {
            if !g.contains(&i) && fits(g, i, limit) {
                g.push(i);
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
}
