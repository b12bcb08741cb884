//! Tables over several whole orbits, for letters that move only small orbits: a subgroup
//! whose orbits of places are small, seen as its own puzzle by `split.rs` (the 4x4x4's
//! half turns: 14 orbits of 4 places), or the Pyraminx. Each orbit's arrangement is a part
//! of a [`Coords`] table, so a table over six such orbits ranks 24^6 arrangements where
//! tables of pieces would rank each piece among its whole orbit's places. Orbits that the
//! letters move together reach few of those arrangements jointly (the 4x4x4's centre
//! orbits: 9,216 of 191 M): a large table is only made when a fair share of its entries
//! is reached, counted as the order of the letters' action on its orbits.

use super::choice::MAX_TABLES;
use super::coords::MAX_PARTS;
use super::{Coords, Part, Shape};
use crate::model::{Action, Model};
use std::cell::RefCell;
use std::collections::HashMap;

/// A table past 2^28 entries is made only when at least one in this many of its entries is
/// reached: the 4x4x4's `<U, D, R2, L2, F2, B2, u2, d2>` reaches 2.8% of its second table
/// (557 M entries), while the third table a 4 GiB budget would give it, 4.6 G entries over
/// seven centre orbits, has 221,184 reached: gigabytes to build, save and load for bounds
/// that a table of 191 M entries over six of those orbits gives nearly as well.
const SPARSE: f64 = 1024.0;

/// The positions the letters reach on `orbits` of `model`: the order of the group their
/// action on those orbits' cells (location and orientation) generates. A table over whole
/// orbits has one entry for each (see [`of_small_orbits`]).
pub(crate) fn reachable(model: &Model, actions: &[Action], orbits: &[usize]) -> Option<f64> {
    // The cells of the orbits, numbered in order.
    let mut first = Vec::new();
    let mut degree = 0;
    for &o in orbits {
        let om = &model.orbits[o];
        first.push(degree);
        degree += om.size * om.twist.max(1) as usize;
    }
    let perms: Vec<puz_core::Perm> = actions
        .iter()
        .map(|a| {
            let mut images = vec![0usize; degree];
            for (k, &o) in orbits.iter().enumerate() {
                let om = &model.orbits[o];
                let tw = om.twist.max(1) as usize;
                // The piece at `src[b]` moves to `b`, its orientation raised by `add[b]`.
                for b in om.start..om.start + om.size {
                    let from = a.src[b] as usize - om.start;
                    let to = b - om.start;
                    for ori in 0..tw {
                        images[first[k] + from * tw + ori] =
                            first[k] + to * tw + (ori + a.add[b] as usize) % tw;
                    }
                }
            }
            puz_core::Perm::from_images(images).ok()
        })
        .collect::<Option<_>>()?;
    let names = (0..perms.len()).map(|l| format!("l{l}")).collect();
    let alphabet = puz_core::Alphabet::new(names, perms)?;
    let letters: Vec<u32> = (0..alphabet.len() as u32).collect();
    let opts = puz_group::ChainOptions {
        shorten: false,
        ..Default::default()
    };
    // Small actions (at most a few hundred cells): quick, and not worth a Ctrl-C check.
    let group = puz_group::Group::new(
        degree,
        &alphabet,
        &letters,
        &opts,
        &puz_core::Control::default(),
    )
    .ok()?;
    num_traits::ToPrimitive::to_f64(&group.order())
}

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
    of_small_orbits_in(model, actions, budget, None)
}

/// [`of_small_orbits`] for a group of `positions` positions; `None`: counted (by
/// [`reachable`] on the orbits the letters move), and only when a table could pass 2^28
/// entries.
fn of_small_orbits_in(
    model: &Model,
    actions: &[Action],
    budget: u64,
    positions: Option<f64>,
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
    // Whether the table of `group` and orbit `more` is dense enough (see [`SPARSE`]);
    // counted once per set of orbits.
    let counted: RefCell<HashMap<Vec<usize>, bool>> = RefCell::new(HashMap::new());
    let dense = |group: &[usize], more: usize, entries: u64| {
        if entries <= 1 << 28 {
            return true;
        }
        let mut key: Vec<usize> = group.iter().chain([&more]).copied().collect();
        key.sort_unstable();
        *counted.borrow_mut().entry(key).or_insert_with_key(|key| {
            let model_orbits: Vec<usize> = key.iter().map(|&i| orbits[i].0[0].orbit()).collect();
            reachable(model, actions, &model_orbits).is_none_or(|r| r * SPARSE >= entries as f64)
        })
    };
    let fits = |group: &[usize], more: usize, limit: u64| {
        let parts: usize = group.iter().map(|&i| orbits[i].0.len()).sum();
        parts + orbits[more].0.len() <= MAX_PARTS
            && size(group)
                .and_then(|s| s.checked_mul(orbits[more].1))
                .is_some_and(|s| s <= limit && dense(group, more, s))
    };
    let mut by_size: Vec<usize> = (0..orbits.len()).collect();
    by_size.sort_by_key(|&i| std::cmp::Reverse(orbits[i].1));
    // A table's limit halved until the tables fit the budget together. A table past
    // 2^28 entries is built only for a group of more than 2^16 times as many positions:
    // its build time is not won back on a smaller one (benches/results.md, "4x4x4
    // reduction subgroups": on `<U, D, R2, L2, F2, B2>` such a table cost far more to
    // build than it saved; with `u2, d2` too it is what solves the group).
    let mut limit = cap;
    if limit > 1 << 28 {
        let moving: Vec<usize> = orbits.iter().map(|o| o.0[0].orbit()).collect();
        let useful = positions
            .or_else(|| reachable(model, actions, &moving))
            .map_or(u64::MAX, |n| (n / 65536.0).min(u64::MAX as f64) as u64);
        limit = limit.min(useful.max(1 << 28));
    }
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

    /// The 3x3x3's subgroup of `gens` (each costing 1), split into its smaller orbits.
    fn split_cube3(gens: &[&str]) -> (Model, Vec<Action>) {
        let c3 = cube3();
        let gens: Vec<(&str, u32)> = gens.iter().map(|&g| (g, 1)).collect();
        let m = Metric::explicit(&c3, "sub", &gens, &puz_core::Control::default()).unwrap();
        let split = Split::of(&c3, &m).unwrap();
        let model = Model::new(&split.puzzle).unwrap();
        let actions = actions_of(&model, &split.metric);
        (model, actions)
    }

    /// The 3x3x3's half-turn group, split into orbits of 4 places: the tables cover every
    /// orbit the letters move, hold several orbits each, and fit the budget; the whole
    /// 3x3x3 in htm (orbits too large for a part) gets none.
    #[test]
    fn tables_cover_the_small_orbits_within_the_budget() {
        let (model, actions) = split_cube3(&["U2", "D2", "R2", "L2", "F2", "B2"]);
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
        let c3 = cube3();
        let ctl = puz_core::Control::default();
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &ctl).unwrap();
        let model = Model::new(&c3).unwrap();
        assert!(of_small_orbits(&model, &actions_of(&model, &htm), 1 << 30).is_none());
    }

    /// Positions reached on some orbits, against known orders: the 2x2x2's and the
    /// 3x3x3's corners (twists included) and edges, and the 3x3x3's half-turn group, whose
    /// corners (two orbits of 4 places, 576 arrangements together) reach 96 and whose five
    /// orbits reach its 663,552 positions.
    #[test]
    fn reached_positions_are_the_orders_of_the_orbits_actions() {
        let ctl = puz_core::Control::default();
        let c2 = crate::testsupport::cube2();
        let htm = Metric::htm(&c2, &[], &ctl).unwrap();
        let model = Model::new(&c2).unwrap();
        assert_eq!(
            reachable(&model, &actions_of(&model, &htm), &[0]),
            Some(3_674_160.0)
        );
        let c3 = cube3();
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &ctl).unwrap();
        let model = Model::new(&c3).unwrap();
        let actions = actions_of(&model, &htm);
        let corners = (0..2).find(|&o| model.orbits[o].size == 8).unwrap();
        assert_eq!(reachable(&model, &actions, &[corners]), Some(88_179_840.0));
        assert_eq!(
            reachable(&model, &actions, &[1 - corners]),
            Some(980_995_276_800.0)
        );
        let (model, actions) = split_cube3(&["U2", "D2", "R2", "L2", "F2", "B2"]);
        // The orbits of 4 places (a sixth, the centres, does not move).
        let moving: Vec<usize> = (0..model.orbits.len())
            .filter(|&o| model.orbits[o].size == 4)
            .collect();
        assert_eq!(moving.len(), 5);
        let corner_orbits: Vec<usize> = moving
            .iter()
            .copied()
            .filter(|&o| model.orbits[o].twist == 3)
            .collect();
        assert_eq!(corner_orbits.len(), 2);
        assert_eq!(reachable(&model, &actions, &corner_orbits), Some(96.0));
        assert_eq!(reachable(&model, &actions, &moving), Some(663_552.0));
    }

    /// Four orbits of 8 places, each turned by letters of its own, and seven orbits of 4
    /// places that two letters move all alike (24 arrangements together of 24^7): at 4 GiB
    /// the seven would fit one table of 4.6·10^9 entries, but only tables of which at least
    /// one entry in [`SPARSE`] is reached are made past 2^28 entries; every orbit is still
    /// read.
    #[test]
    fn orbits_moved_alike_share_no_large_table() {
        use puz_core::{MoveBuilder, NamedMove, Puzzle};
        let mut p = Puzzle::new("alike");
        let labels = |n: usize| (0..n).map(|i| format!("p{i}")).collect::<Vec<_>>();
        for k in 0..4 {
            p.add_orbit(format!("m{k}"), 8, 1, labels(8));
        }
        for k in 0..7 {
            p.add_orbit(format!("s{k}"), 4, 1, labels(4));
        }
        let add = |p: &mut Puzzle, name: String, cycles: &[(usize, Vec<usize>)]| {
            let mut b = MoveBuilder::new(p);
            for (o, c) in cycles {
                let c: Vec<(usize, i64)> = c.iter().map(|&l| (l, 0)).collect();
                b.cycle(*o, &c).unwrap();
            }
            let perm = b.finish();
            p.moves.push(NamedMove {
                name,
                perm,
                primitive: true,
            });
        };
        for (k, c) in ["a", "b", "c", "d"].iter().enumerate() {
            add(&mut p, format!("T{c}"), &[(k, (0..8).collect())]);
            add(&mut p, format!("S{c}"), &[(k, vec![0, 1])]);
        }
        let small: Vec<(usize, Vec<usize>)> = (4..11).map(|o| (o, (0..4).collect())).collect();
        add(&mut p, "C".into(), &small);
        let swaps: Vec<(usize, Vec<usize>)> = (4..11).map(|o| (o, vec![0, 1])).collect();
        add(&mut p, "D".into(), &swaps);
        let ctl = puz_core::Control::default();
        let names: Vec<String> = p.moves.iter().map(|m| m.name.clone()).collect();
        let gens: Vec<String> = names
            .iter()
            .flat_map(|n| [n.clone(), format!("{n}'")])
            .collect();
        let gens: Vec<(&str, u32)> = gens.iter().map(|g| (g.as_str(), 1)).collect();
        let metric = Metric::explicit(&p, "all", &gens, &ctl).unwrap();
        let model = Model::new(&p).unwrap();
        let actions = actions_of(&model, &metric);
        let small: Vec<usize> = (4..11).collect();
        assert_eq!(reachable(&model, &actions, &small), Some(24.0));
        let tables = of_small_orbits(&model, &actions, 4 << 30).unwrap();
        let mut covered = vec![false; 11];
        for t in &tables {
            let Shape::Coords(c) = t else { panic!() };
            let orbits: Vec<usize> = c.parts.iter().map(|p| p.orbit()).collect();
            for &o in &orbits {
                covered[o] = true;
            }
            if c.size > 1 << 28 {
                let r = reachable(&model, &actions, &orbits).unwrap();
                assert!(r * SPARSE >= c.size as f64, "{}: {r} reached", t.describe());
            }
        }
        assert_eq!(covered, vec![true; 11]);
        // The tables over two orbits of 8 places, all reached, are made.
        assert!(tables.iter().any(|t| t.bytes() * 2 > 1 << 28));
    }

    /// The 3x3x3's `<U, D, R2, L2, F2, B2>` (Kociemba's phase 2), split into its corners
    /// and U and D edges (8 places each) and middle edges (4): with the budget for it, one
    /// table holds both large orbits; a group of 19.5·10^9 positions gets no table past
    /// 2^28 entries, so those two orbits are in tables of their own.
    #[test]
    fn the_largest_orbits_share_a_table_when_the_group_is_large() {
        let (model, actions) =
            split_cube3(&["U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2"]);
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
        let tables = of_small_orbits_in(&model, &actions, 4 << 30, Some(f64::INFINITY)).unwrap();
        assert!(holds_both(&tables));
        let tables = of_small_orbits_in(&model, &actions, 4 << 30, Some(19_508_428_800.0)).unwrap();
        assert!(!holds_both(&tables));
        // Counted, the group has those positions.
        let moving: Vec<usize> = (0..model.orbits.len())
            .filter(|&o| {
                tables.iter().any(
                    |t| matches!(t, Shape::Coords(c) if c.parts.iter().any(|p| p.orbit() == o)),
                )
            })
            .collect();
        assert_eq!(reachable(&model, &actions, &moving), Some(19_508_428_800.0));
        let names = |ts: &[Shape]| ts.iter().map(|t| t.describe()).collect::<Vec<_>>();
        assert_eq!(
            names(&of_small_orbits(&model, &actions, 4 << 30).unwrap()),
            names(&tables)
        );
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
