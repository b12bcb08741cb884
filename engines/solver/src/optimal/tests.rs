//! Tests of the whole solver: optimal costs against other searches, the same answers on
//! any number of threads, and the shortcuts (symmetries, skipped look-ups) changing nothing.

use super::*;
use crate::metric::length;
use crate::model::{Action, Model};
use crate::testsupport::{cube2, cube3, seq};
use puz_core::Word;

pub(super) const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

/// Positions the tests that take a shortcut out solve both ways (see [`same_answers`]).
pub(super) const POSITIONS: [&str; 3] = [
    "R U F' L2 D B R2",
    "U2 F R' D2 B L' F2 U",
    "B' R F B' R' D R2 U D'",
];

/// Solves each position (a sequence of the puzzle's moves) with a solver and with the
/// same solver with a shortcut taken out: both re-checked, the first proved optimal, the
/// same cost and solutions. Returns each pair of node counts (exact with `Wanted::All`).
pub(super) fn same_answers(
    puzzle: &Puzzle,
    with: &mut Solver,
    without: &Solver,
    positions: &[&str],
    wanted: Wanted,
) -> Vec<(u64, u64)> {
    let ctl = Control::default();
    let max = with.max_cost;
    positions
        .iter()
        .map(|text| {
            let p = seq(puzzle, text);
            // The shortcut's search is held to the cost found without it, so a shortcut
            // that cuts too much fails here at once (instead of searching on to `max`).
            let b = without.solve(&p, wanted, &ctl).unwrap();
            with.max_cost = b.cost as u32;
            let a = with.solve(&p, wanted, &ctl);
            with.max_cost = max;
            let a = a.unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(a.verified && b.verified && a.proved_optimal, "{text}");
            assert_eq!((a.cost, &a.solutions), (b.cost, &b.solutions), "{text}");
            (a.nodes, b.nodes)
        })
        .collect()
}

/// The 3x3x3 in htm with the 4 GiB choice of tables (the phase-1 table on three axes, the
/// corners), left empty: for tests of indices and plans, which read no entry.
pub(super) fn cube3_htm_4gib_unfilled() -> &'static Solver {
    static CELL: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let c3 = cube3();
        let ctl = Control::default();
        let htm = crate::metric::Metric::htm(&c3, &FACES, &ctl).unwrap();
        let model = Model::new(&c3).unwrap();
        let actions = crate::testsupport::actions_of(&model, &htm);
        let shapes = crate::pdb::choose_patterns(&model, &actions, 4 << 30, &[]);
        Solver::with_shapes_unfilled(&c3, &htm, &opts(4 << 30), shapes).unwrap()
    })
}

/// The 3x3x3 in atm with 4 MiB of tables, looked up on three conjugates (eight
/// variants): for tests of plans.
pub(super) fn cube3_atm_three_conjugates() -> &'static Solver {
    static CELL: std::sync::OnceLock<Solver> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let c3 = cube3();
        let ctl = Control::default();
        let atm = Metric::atm(&c3, &FACES, &ctl).unwrap();
        let o = OptimalOptions {
            conjugates: 3,
            ..opts(4 << 20)
        };
        Solver::new(&c3, &atm, &o, &ctl).unwrap()
    })
}

pub(super) fn opts(mem: u64) -> OptimalOptions {
    OptimalOptions {
        table_memory: Some(mem),
        cache: None,
        max_cost: 30,
        ..OptimalOptions::default()
    }
}

#[test]
fn cube3_small_cases() {
    let c3 = cube3();
    let ctl = Control::default();
    let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
    let qtm = Metric::qtm(&c3, &FACES, &Control::default()).unwrap();
    let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
    let pons = seq(&c3, "U2 D2 F2 B2 L2 R2");
    let sexy = seq(&c3, "R U R' U'");
    let solve = |m: &Metric, p: &Perm| {
        let r = optimal(&c3, m, p, &opts(4 << 20), &ctl).unwrap();
        assert!(r.proved_optimal && r.verified);
        r
    };
    assert_eq!(solve(&htm, &pons).cost, 6);
    let a = solve(&atm, &pons);
    assert_eq!(a.cost, 3);
    assert!(a.solutions[0].text.contains('('), "{}", a.solutions[0].text);
    assert_eq!(solve(&htm, &sexy).cost, 4);
    assert_eq!(solve(&qtm, &sexy).cost, 4);
    // The solution's own length in the metric is its cost.
    let s = solve(&atm, &pons);
    let w = Word::seq(
        s.solutions[0]
            .letters
            .iter()
            .map(|&l| Word::Letter(l))
            .collect(),
    );
    assert_eq!(length(&w, &atm.alphabet, &atm), Some(3));
    // The first solution found has the same cost, proved and verified.
    let solver = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
    for p in [&pons, &sexy, &seq(&c3, "R U2 D' B D' F2 L")] {
        let e = solver.solve(p, Wanted::Earliest, &ctl).unwrap();
        let f = solver.solve(p, Wanted::First, &ctl).unwrap();
        assert!(f.proved_optimal && f.verified);
        assert_eq!((f.cost, f.solutions.len()), (e.cost, 1));
    }
}

/// The solved position and one cheapest letter away are answered before any table is
/// built (here with a budget of one byte), and stay proved optimal.
#[test]
fn trivial_positions_need_no_table() {
    let c3 = cube3();
    let ctl = Control::default();
    let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
    let qtm = Metric::qtm(&c3, &FACES, &Control::default()).unwrap();
    let none = opts(1);
    let r = optimal(&c3, &htm, &seq(&c3, "R2"), &none, &ctl).unwrap();
    assert_eq!(
        (r.cost, r.tables.len(), r.solutions[0].text.as_str()),
        (1, 0, "R2")
    );
    let r = optimal(&c3, &htm, &c3.identity(), &none, &ctl).unwrap();
    assert_eq!((r.cost, r.solutions[0].letters.len()), (0, 0));
    // R2 costs 2 in qtm: not cheapest, so it is searched (with a real table).
    assert_eq!(
        optimal(&c3, &qtm, &seq(&c3, "R2"), &opts(4 << 20), &ctl)
            .unwrap()
            .cost,
        2
    );
    let all = OptimalOptions {
        all: true,
        ..opts(1)
    };
    let r = optimal(&c3, &htm, &seq(&c3, "U'"), &all, &ctl).unwrap();
    assert_eq!(r.solutions.len(), 1);
    assert_eq!(r.solutions[0].text, "U");
}

/// The reproducible solution (and the list of all of them) does not depend on how many
/// threads share the tasks, nor on their timing.
#[test]
fn earliest_is_the_same_on_any_number_of_threads() {
    let c3 = cube3();
    let ctl = Control::default();
    let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
    let solver = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
    let positions = ["R U2 D' B D' F2 L", "U2 D2 F2 B2 L2 R2", "F R' U L2 B D' R"];
    let run = |threads: usize| -> Vec<(Optimal, Optimal)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            positions
                .iter()
                .map(|p| {
                    let p = seq(&c3, p);
                    (
                        solver.solve(&p, Wanted::Earliest, &ctl).unwrap(),
                        solver.solve(&p, Wanted::All, &ctl).unwrap(),
                    )
                })
                .collect()
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        for ((e1, a1), (e, a)) in one.iter().zip(run(threads)) {
            assert_eq!(e.solutions, e1.solutions);
            assert_eq!(a.solutions, a1.solutions);
            assert_eq!(a.nodes, a1.nodes);
        }
    }
}

/// Fine heads from the first cost (`fine_after: Some(0.0)`, see `heads.rs`) find what pairs
/// of first letters find: the same solutions when every one is listed; for positions
/// fixed by symmetries (whose rules then apply to longer heads) and others, the same
/// costs, proved and verified, the earliest solution one of those listed and the same
/// on one thread and on two.
#[test]
fn fine_heads_find_what_pairs_find() {
    let c3 = cube3();
    let ctl = Control::default();
    let with = |m: &Metric, fine_after| {
        let o = OptimalOptions {
            fine_after,
            ..opts(4 << 20)
        };
        Solver::new(&c3, m, &o, &ctl).unwrap()
    };
    let symmetric = [
        "U2 D2 F2 B2 L2 R2",
        "U D' R L' F B' U D'",
        "R2 L2 U2 D2",
        "F B' U D' R L' F B'",
    ];
    for m in [
        Metric::htm(&c3, &FACES, &ctl).unwrap(),
        Metric::atm(&c3, &FACES, &ctl).unwrap(),
    ] {
        let (mut fine, pairs) = (with(&m, Some(0.0)), with(&m, None));
        same_answers(&c3, &mut fine, &pairs, &POSITIONS, Wanted::All);
        let positions = POSITIONS.iter().chain(&symmetric);
        fine_as_pairs(&fine, &pairs, positions.map(|t| (*t, seq(&c3, t))));
    }
    // The Pyraminx with every edge flipped commutes with every move: the rotation rule
    // (ranks, periods) applies to the heads' letters.
    let py = crate::testsupport::pyraminx();
    let htm = Metric::htm(&py, &[], &ctl).unwrap();
    let mut flip = puz_core::MoveBuilder::new(&py);
    for e in 0..py.orbits[0].size {
        flip.cycle(0, &[(e, 1)]).unwrap();
    }
    let o = |fine_after| OptimalOptions {
        fine_after,
        ..opts(4 << 20)
    };
    let fine = Solver::new(&py, &htm, &o(Some(0.0)), &ctl).unwrap();
    let pairs = Solver::new(&py, &htm, &o(None), &ctl).unwrap();
    fine_as_pairs(
        &fine,
        &pairs,
        [("edges flipped", flip.finish())].into_iter(),
    );
}

/// See [`fine_heads_find_what_pairs_find`].
fn fine_as_pairs<'a>(
    fine: &Solver,
    pairs: &Solver,
    positions: impl Iterator<Item = (&'a str, Perm)>,
) {
    let ctl = Control::default();
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    for (text, p) in positions {
        let all = pairs.solve(&p, Wanted::All, &ctl).unwrap();
        let a = pool(1).install(|| fine.solve(&p, Wanted::Earliest, &ctl).unwrap());
        let b = pairs.solve(&p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && a.proved_optimal && b.verified, "{text}");
        assert_eq!(a.cost, b.cost, "{text}");
        assert!(all.solutions.contains(&a.solutions[0]), "{text}");
        let a2 = pool(2).install(|| fine.solve(&p, Wanted::Earliest, &ctl).unwrap());
        assert_eq!(a2.solutions, a.solutions, "{text}");
    }
}

#[test]
fn all_solutions_of_a_short_position() {
    let c3 = cube3();
    let ctl = Control::default();
    let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
    // U D (= D U): one canonical solution U' D'.
    let mut o = opts(1 << 20);
    o.all = true;
    let r = optimal(&c3, &htm, &seq(&c3, "U D"), &o, &ctl).unwrap();
    assert_eq!(r.cost, 2);
    assert_eq!(r.solutions.len(), 1);
    assert_eq!(r.solutions[0].text, "U' D'");
    // R U2: the only optimal solution is U2 R'.
    let r = optimal(&c3, &htm, &seq(&c3, "R U2"), &o, &ctl).unwrap();
    assert_eq!(
        r.solutions
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>(),
        vec!["U2 R'"]
    );
}

/// Optimal costs agree with God's algorithm on random 2x2x2 positions.
#[test]
fn agrees_with_breadth_first_search() {
    use rand::{Rng, SeedableRng};
    let c2 = cube2();
    let ctl = Control::default();
    let htm = Metric::htm(&c2, &[], &Control::default()).unwrap();
    let model = Model::new(&c2).unwrap();
    let solver = Solver::new(&c2, &htm, &opts(1 << 20), &ctl).unwrap();
    // Distances of all positions within 7 by BFS.
    let mut dist = std::collections::HashMap::new();
    let mut layer = vec![model.solved()];
    dist.insert(model.solved(), 0u64);
    let acts = crate::testsupport::actions_of(&model, &htm);
    for d in 1..=7u64 {
        let mut next = Vec::new();
        for s in &layer {
            for a in &acts {
                let mut t = vec![0u8; model.n];
                model.apply(a, s, &mut t);
                if !dist.contains_key(&t) {
                    dist.insert(t.clone(), d);
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..20 {
        let mut p = c2.identity();
        for _ in 0..rng.gen_range(1..12) {
            p = p.then(&htm.alphabet.perms[rng.gen_range(0..htm.len())]);
        }
        let r = solver.solve(&p, Wanted::Earliest, &ctl).unwrap();
        assert!(r.verified);
        if let Some(&d) = dist.get(&model.state_of(&p).unwrap()) {
            assert_eq!(r.cost, d);
        } else {
            assert!(r.cost > 7);
        }
    }
}

#[test]
fn conjugates_are_exact() {
    // The rotations x y z conjugate the atm letters onto themselves; the conjugated
    // state is the state of c^-1 p c, and optimal costs agree with and without them.
    use rand::{Rng, SeedableRng};
    let c3 = cube3();
    let ctl = Control::default();
    let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
    let model = Model::new(&c3).unwrap();
    let with = Solver::new(
        &c3,
        &atm,
        &OptimalOptions {
            conjugates: 3,
            ..opts(4 << 20)
        },
        &ctl,
    )
    .unwrap();
    assert_eq!(with.conjugators.len(), 3);
    let p = seq(&c3, "R U F' L2 D B");
    let s = model.state_of(&p).unwrap();
    for m in c3
        .moves
        .iter()
        .filter(|m| ["x", "y", "z"].contains(&m.name.as_str()))
    {
        let cinv = model.state_of(&m.perm.inverse()).unwrap();
        let c = model.action(&m.perm).unwrap();
        let (mut a, mut b) = (vec![0u8; model.n], vec![0u8; model.n]);
        model.compose(&cinv, &s, &mut a);
        model.apply(&c, &a, &mut b);
        let q = m.perm.inverse().then(&p).then(&m.perm);
        assert_eq!(b, model.state_of(&q).unwrap());
        model.conjugation_by(&m.perm).unwrap().apply(&s, &mut a);
        assert_eq!(a, b);
    }
    let mut without = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
    without.drop_conjugates();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for _ in 0..6 {
        let mut p = c3.identity();
        for _ in 0..rng.gen_range(3..7) {
            p = p.then(&atm.alphabet.perms[rng.gen_range(0..atm.len())]);
        }
        let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
        let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && b.verified);
        assert_eq!(a.cost, b.cost);
    }
}

#[test]
fn symmetric_positions_search_one_task_per_class() {
    // Positions fixed by rotations are solved from one task per class of first letters
    // (atm keeps canonical sequences canonical under every rotation); the costs agree
    // with the search over every task.
    let c3 = cube3();
    let ctl = Control::default();
    let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
    let with = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
    let mut without = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
    without.symmetries.elements.truncate(1);
    without.symmetries.letters.truncate(1);
    for text in [
        "U2 D2 F2 B2 L2 R2",
        "U D' R L' F B' U D'",
        "R2 L2 U2 D2",
        "F B' U D' R L' F B'",
    ] {
        let p = seq(&c3, text);
        let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
        let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && b.verified, "{text}");
        assert_eq!(a.cost, b.cost, "{text}");
        assert!(a.symmetry > 1, "{text}: {}", a.symmetry);
        assert!(a.nodes <= b.nodes, "{text}");
        assert_eq!(b.symmetry, 1);
    }
}

#[test]
fn skipped_look_ups_never_cut() {
    // A table left out because the parent's value bounds the child's (or because it
    // follows a whole orbit) could not have cut: with every look-up made, the search
    // visits the same nodes and finds the same solutions.
    let c3 = cube3();
    let ctl = Control::default();
    for metric in [
        Metric::htm(&c3, &FACES, &Control::default()).unwrap(),
        Metric::qtm(&c3, &FACES, &Control::default()).unwrap(),
        Metric::atm(&c3, &FACES, &Control::default()).unwrap(),
    ] {
        let mut o = opts(1 << 20);
        o.all = true;
        let lean = Solver::new(&c3, &metric, &o, &ctl).unwrap();
        let mut full = Solver::new(&c3, &metric, &o, &ctl).unwrap();
        full.consistent.iter_mut().for_each(|c| *c = false);
        full.needed.iter_mut().for_each(|c| *c = true);
        for text in ["R U R' U' F2 D B L2 U'", "L2 B' U D2 R F' U2 L"] {
            let p = seq(&c3, text);
            let a = lean.solve(&p, Wanted::All, &ctl).unwrap();
            let b = full.solve(&p, Wanted::All, &ctl).unwrap();
            assert!(a.verified && b.verified, "{text}");
            assert_eq!((a.cost, a.nodes), (b.cost, b.nodes), "{text}");
            assert_eq!(a.solutions, b.solutions, "{text}");
        }
    }
}

/// Superflip is 14 in atm: heavy (large tables), run with --ignored or in the benchmark.
#[test]
#[ignore]
fn superflip_atm() {
    let c3 = cube3();
    let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
    let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    let r = optimal(
        &c3,
        &atm,
        &superflip,
        &OptimalOptions::default(),
        &Control::default(),
    )
    .unwrap();
    assert_eq!(r.cost, 14);
    assert!(r.verified);
}

/// Every look-up the solver makes on the position `p` with every table: (variant, table,
/// value), for the variants it reads that table on.
fn look_ups(s: &Solver, p: &Perm) -> Vec<(usize, usize, u8)> {
    let t = s.model.state_of(p).unwrap();
    let mut inv = vec![0u8; s.model.n];
    s.model.inverse(&t, &mut inv);
    let mut q = vec![0u8; s.model.n];
    let np = s.heuristic.pdbs.len();
    let mut out = Vec::new();
    for v in 0..s.variants.len() {
        s.variant(v, &t, &inv, &mut q);
        for (k, pdb) in s.heuristic.pdbs.iter().enumerate() {
            if s.needed[v * np + k] {
                out.push((v, k, pdb.value(pdb.shape.index(&q))));
            }
        }
    }
    out
}

/// Checks tables over several orbits against optimal costs found with tables of pieces:
/// the same costs, and no look-up (on the position, its inverse, the conjugates) above
/// the cost. Returns how many look-ups were made on those tables.
fn several_orbits_are_lower_bounds(
    puzzle: &Puzzle,
    metric: &Metric,
    shapes: Vec<crate::pdb::Shape>,
    positions: &[Perm],
) -> usize {
    let ctl = Control::default();
    let with = Solver::with_shapes(puzzle, metric, &opts(4 << 20), shapes, &ctl).unwrap();
    let reference = Solver::new(puzzle, metric, &opts(4 << 20), &ctl).unwrap();
    let coords: Vec<usize> = (0..with.heuristic.pdbs.len())
        .filter(|&k| matches!(with.heuristic.pdbs[k].shape, crate::pdb::Shape::Coords(_)))
        .collect();
    let mut made = 0;
    for p in positions {
        let a = with.solve(p, Wanted::Earliest, &ctl).unwrap();
        let b = reference.solve(p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && b.verified && a.proved_optimal);
        assert_eq!(a.cost, b.cost);
        for (v, k, val) in look_ups(&with, p) {
            assert!(
                val as u64 <= b.cost,
                "variant {v} table {k}: {val} > {}",
                b.cost
            );
            made += coords.contains(&k) as usize;
        }
    }
    made
}

#[test]
fn tables_over_several_orbits_are_lower_bounds() {
    use crate::pdb::{several_orbits, Coords, Part, Shape};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    let mut random = |puzzle: &Puzzle, metric: &Metric, n: usize, len: std::ops::Range<usize>| {
        (0..n)
            .map(|_| {
                let mut p = puzzle.identity();
                for _ in 0..rng.gen_range(len.clone()) {
                    p = p.then(&metric.alphabet.perms[rng.gen_range(0..metric.len())]);
                }
                p
            })
            .collect::<Vec<Perm>>()
    };
    // The 2x2x2 <U, R, F> in htm: the corner twists and where the four corners U does not
    // move are, alone (the table of the choice), on near-uniform positions.
    let c2 = cube2();
    let htm2 = Metric::htm(&c2, &[], &Control::default()).unwrap();
    let model2 = Model::new(&c2).unwrap();
    let actions2: Vec<Action> = htm2
        .alphabet
        .perms
        .iter()
        .map(|p| model2.action(p).unwrap())
        .collect();
    let c = several_orbits(&model2, &actions2).unwrap();
    let ps = random(&c2, &htm2, 12, 30..40);
    assert!(several_orbits_are_lower_bounds(&c2, &htm2, vec![Shape::Coords(c)], &ps) > 0);
    // The 3x3x3 in htm: the edge flips with the slice, and the corner twists with the
    // slice (small enough for a test), looked up on the three axes.
    let c3 = cube3();
    let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
    let model = Model::new(&c3).unwrap();
    let actions = crate::testsupport::actions_of(&model, &htm);
    let full = several_orbits(&model, &actions).unwrap();
    let slice = full.parts[0].clone();
    assert!(matches!(slice, Part::Set { orbit: 1, .. }));
    let shapes: Vec<Shape> = [0, 1]
        .iter()
        .map(|&orbit| {
            Shape::Coords(Coords::new(&model, vec![Part::Ori { orbit }, slice.clone()]).unwrap())
        })
        .collect();
    let ps = random(&c3, &htm, 8, 6..9);
    let made = several_orbits_are_lower_bounds(&c3, &htm, shapes.clone(), &ps);
    // Each table on the position, the inverse and two conjugates of each.
    assert_eq!(made, ps.len() * 2 * 6);
    // And in qtm (other letters, other distances).
    let qtm = Metric::qtm(&c3, &FACES, &Control::default()).unwrap();
    let ps = random(&c3, &qtm, 6, 5..8);
    assert!(several_orbits_are_lower_bounds(&c3, &qtm, shapes, &ps) > 0);
}

#[test]
fn tables_in_pairs_solve_as_in_nibbles() {
    // The UD slice's set with the corner twists, reduced by 16 symmetries, in two-bit
    // entries: every look-up a lower bound, and the same costs and solutions (all of
    // them) as with the table in nibbles, in htm and atm.
    use crate::pdb::fixtures::ud_slice;
    use crate::pdb::symmetric::{reduce, tests::cube_symmetries};
    use crate::pdb::{Coords, Part, Shape};
    use rand::{Rng, SeedableRng};
    let c3 = cube3();
    let ctl = Control::default();
    let (model, conj) = cube_symmetries();
    let parts = vec![ud_slice(), Part::Ori { orbit: 0 }];
    let reduced = reduce(
        &model,
        Coords::new(&model, parts).unwrap(),
        &conj,
        u64::MAX,
        None,
        None,
    );
    assert!(reduced.sym.is_some());
    let mut rng = rand::rngs::StdRng::seed_from_u64(29);
    for metric in [
        Metric::htm(&c3, &FACES, &Control::default()).unwrap(),
        Metric::atm(&c3, &FACES, &Control::default()).unwrap(),
    ] {
        let shapes = |pairs: bool| {
            let c = if pairs {
                reduced.clone().in_pairs()
            } else {
                reduced.clone()
            };
            vec![Shape::Coords(c)]
        };
        let mut o = opts(4 << 20);
        o.all = true;
        let mut with = Solver::with_shapes(&c3, &metric, &o, shapes(true), &ctl).unwrap();
        let without = Solver::with_shapes(&c3, &metric, &o, shapes(false), &ctl).unwrap();
        assert!(with.heuristic.pdbs[0].shape.pairs());
        let positions: Vec<String> = (0..6)
            .map(|_| {
                (0..rng.gen_range(5..8))
                    .map(|_| {
                        ["U", "D", "R", "L", "F", "B"][rng.gen_range(0..6)].to_string()
                            + ["", "'", "2"][rng.gen_range(0..3)]
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let texts: Vec<&str> = positions.iter().map(|s| s.as_str()).collect();
        let nodes = same_answers(&c3, &mut with, &without, &texts, Wanted::All);
        // Coarser entries cut no more than the exact ones.
        assert!(nodes.iter().all(|&(a, b)| a >= b), "{nodes:?}");
        let ps: Vec<Perm> = texts.iter().map(|t| seq(&c3, t)).collect();
        assert!(several_orbits_are_lower_bounds(&c3, &metric, shapes(true), &ps) > 0);
    }
}

/// The 3x3x3's half-turn group, whose letters move each piece among 4 places: the solver
/// sees it split (`split.rs`: corners and edges in 5 orbits of 4, the centres, which no
/// letter moves, whole) with tables over whole small orbits, and
/// finds the same optimal costs as a solver on the whole orbits' tables of pieces, on
/// positions of the group; a position outside it is refused.
#[test]
fn a_split_subgroup_solves_as_the_whole_puzzle() {
    let c3 = cube3();
    let ctl = Control::default();
    let gens: Vec<(String, u32)> = FACES.iter().map(|f| (format!("{f}2"), 1)).collect();
    let gens: Vec<(&str, u32)> = gens.iter().map(|(g, c)| (g.as_str(), *c)).collect();
    let half = Metric::explicit(&c3, "half", &gens, &ctl).unwrap();
    let split = crate::split::Split::of(&c3, &half).unwrap();
    let sizes: Vec<usize> = split.puzzle.orbits.iter().map(|o| o.size).collect();
    assert_eq!(sizes, [4, 4, 4, 4, 4, 6]);
    let with = Solver::new(&c3, &half, &opts(64 << 20), &ctl).unwrap();
    assert!(with.split.is_some());
    // The positions the letters reach, counted on the split puzzle: the half-turn group.
    let all: Vec<usize> = (0..with.model.orbits.len()).collect();
    assert_eq!(
        crate::pdb::reachable(&with.model, &with.actions, &all),
        Some(663_552.0)
    );
    assert!(
        with.tables()
            .iter()
            .any(|t| t.contains("orbit 0") && t.contains("orbit 1")),
        "{:?}",
        with.tables()
    );
    let model = Model::new(&c3).unwrap();
    let actions = crate::testsupport::actions_of(&model, &half);
    let shapes = crate::pdb::choose_patterns(&model, &actions, 64 << 20, &[]);
    let without = Solver::with_shapes(&c3, &half, &opts(64 << 20), shapes, &ctl).unwrap();
    assert!(without.split.is_none());
    let positions = [
        "U2 R2 F2",
        "R2 U2 F2 L2 D2 B2 R2 F2",
        "U2 F2 R2 U2 L2 B2 D2 F2 R2 B2 U2 L2 F2",
        "F2 L2 U2 B2 R2 D2 F2 U2 L2 R2",
    ];
    for text in positions {
        let p = seq(&c3, text);
        let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
        let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && a.proved_optimal && b.verified, "{text}");
        assert_eq!(a.cost, b.cost, "{text}");
        // Each solution, applied to the position as given, solves it.
        let w = half.eval(&a.solutions[0].letters, c3.degree());
        assert!(p.then(&w).is_identity(), "{text}");
    }
    // A quarter turn leaves the group: refused, not solved.
    let err = with
        .solve(&seq(&c3, "U"), Wanted::Earliest, &ctl)
        .unwrap_err();
    assert!(err.to_string().contains("never take it"), "{err}");
}
