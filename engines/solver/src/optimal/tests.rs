//! Tests of the whole solver: optimal costs against other searches, the same answers on
//! any number of threads, and the shortcuts (symmetries, skipped look-ups) changing nothing.

use super::*;
use crate::metric::length;
use crate::model::{Action, Model};
use crate::testsupport::{cube2, cube3, seq};
use puz_core::Word;

pub(super) const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

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
    let acts: Vec<Action> = htm
        .alphabet
        .perms
        .iter()
        .map(|p| model.action(p).unwrap())
        .collect();
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
        model.conjugation(&cinv, &c).apply(&s, &mut a);
        assert_eq!(a, b);
    }
    let mut without = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
    without.conjugators.clear();
    without.variants.retain(|v| v.0.is_none());
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
