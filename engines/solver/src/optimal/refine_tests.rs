//! Tests of searches over the refined canonical sequences (see `redundant.rs`): the same
//! optimal costs as the plain sequences, for random, symmetric and central positions.

use super::tests::{opts, FACES};
use super::*;
use crate::metric::Metric;
use crate::testsupport::{cube3, seq};
use puz_core::{Control, Perm};

/// Two solvers with 4 MiB of tables: one that never refines its sequences, one that
/// refines them from the first node.
fn plain_and_refined(puzzle: &puz_core::Puzzle, m: &Metric) -> (Solver, Solver) {
    let ctl = Control::default();
    let with = |refine_after| OptimalOptions {
        refine_after,
        ..opts(4 << 20)
    };
    (
        Solver::new(puzzle, m, &with(None), &ctl).unwrap(),
        Solver::new(puzzle, m, &with(Some(0)), &ctl).unwrap(),
    )
}

/// Searches that leave out the sequences with redundant factors from the first node
/// (`refine_after: Some(0)`) find the same optimal costs, verified, in atm (where the
/// factors are many) and htm; listing every solution keeps the plain sequences, with the
/// same answers.
#[test]
fn refined_searches_keep_optimal_costs() {
    use rand::{Rng, SeedableRng};
    let c3 = cube3();
    let ctl = Control::default();
    for (m, moves) in [
        (Metric::atm(&c3, &FACES, &ctl).unwrap(), 6..9),
        (Metric::htm(&c3, &FACES, &ctl).unwrap(), 7..10),
    ] {
        let (plain, refined) = plain_and_refined(&c3, &m);
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for _ in 0..6 {
            let mut p = c3.identity();
            for _ in 0..rng.gen_range(moves.clone()) {
                p = p.then(&m.alphabet.perms[rng.gen_range(0..m.len())]);
            }
            let a = plain.solve(&p, Wanted::Earliest, &ctl).unwrap();
            let b = refined.solve(&p, Wanted::Earliest, &ctl).unwrap();
            assert!(a.verified && b.verified && b.proved_optimal);
            assert_eq!(a.cost, b.cost, "{}", m.name);
        }
        // Made on its first use (fewer sequences: see `redundant.rs`'s tests; in the
        // last cost a refused solution may leave the first one kept in a later task).
        let made = refined.refined.lock().unwrap();
        assert!(made.len() == 1 && made[0].1.is_some());
        drop(made);
        for p in [seq(&c3, "U2 D2 F2 B2 L2 R2"), seq(&c3, "R U R' U'")] {
            let a = plain.solve(&p, Wanted::All, &ctl).unwrap();
            let b = refined.solve(&p, Wanted::All, &ctl).unwrap();
            assert_eq!(a.solutions, b.solutions);
        }
    }
}

/// Positions the rules keep one image of each solution for, searched refined from the
/// first node: the cube's symmetric positions (one task per class) and the Pyraminx with
/// every edge flipped, which commutes with every move (one rotation of each solution,
/// its ranks a necklace; the refined sequences made for those ranks). Same optimal costs as
/// the plain search, verified.
#[test]
fn refined_searches_keep_the_rules_of_symmetric_and_central_positions() {
    let ctl = Control::default();
    let same = |plain: &Solver, refined: &Solver, p: &Perm, what: &str| {
        let a = plain.solve(p, Wanted::Earliest, &ctl).unwrap();
        let b = refined.solve(p, Wanted::Earliest, &ctl).unwrap();
        assert!(a.verified && b.verified && b.proved_optimal, "{what}");
        assert_eq!((a.cost, a.symmetry), (b.cost, b.symmetry), "{what}");
        (b.cost, b.symmetry)
    };
    let c3 = cube3();
    let atm = Metric::atm(&c3, &FACES, &ctl).unwrap();
    let (plain, refined) = plain_and_refined(&c3, &atm);
    for text in [
        "U2 D2 F2 B2 L2 R2",
        "R2 L2 U2 D2",
        "F B' U D' R L' F B'",
        "U D' R L' F B' U D'",
    ] {
        assert!(
            same(&plain, &refined, &seq(&c3, text), text).1 > 1,
            "{text}"
        );
    }
    // Refined with equal ranks (the letters are numbered by family).
    assert!(atm.families.of_letter.is_sorted());
    assert_eq!(refined.refined.lock().unwrap()[0].0, vec![0; atm.len()]);
    let py = crate::testsupport::pyraminx();
    let htm = Metric::htm(&py, &[], &ctl).unwrap();
    let mut flip = puz_core::MoveBuilder::new(&py);
    for e in 0..py.orbits[0].size {
        flip.cycle(0, &[(e, 1)]).unwrap();
    }
    let flip = flip.finish();
    assert!(htm
        .alphabet
        .perms
        .iter()
        .all(|a| a.then(&flip) == flip.then(a)));
    let (plain, refined) = plain_and_refined(&py, &htm);
    // No symmetry of this Pyraminx keeps its letters; the rotation rule ranks each letter
    // alone.
    assert!(same(&plain, &refined, &flip, "pyraminx edges flipped").0 > 4);
    let made = refined.refined.lock().unwrap();
    assert_eq!(made.len(), 1);
    assert!(made[0].0.iter().any(|&r| r != made[0].0[0]) && made[0].1.is_some());
}

/// A solver with a cache folder saves the refined automaton it makes, and another one
/// reads it from there: shown by a different automaton saved under its name, which the
/// next solver then uses.
#[test]
fn refined_automata_are_saved_beside_the_tables_and_read_back() {
    let c3 = cube3();
    let ctl = Control::default();
    let m = Metric::atm(&c3, &FACES, &ctl).unwrap();
    let dir = std::env::temp_dir().join(format!("puz-refined-solver-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let with = OptimalOptions {
        refine_after: Some(0),
        cache: Some(dir.clone()),
        ..opts(4 << 20)
    };
    let p = seq(&c3, "R U2 F' L D2 B R'");
    let made = |s: &Solver| {
        let list = s.refined.lock().unwrap();
        let (rank, c) = &list[0];
        (rank.clone(), c.clone().expect("refined"))
    };
    let first = Solver::new(&c3, &m, &with, &ctl).unwrap();
    let a = first.solve(&p, Wanted::Earliest, &ctl).unwrap();
    let (rank, canon) = made(&first);
    let recipe = crate::pdb::refined_cache::Recipe {
        puzzle_key: first.saved.as_ref().unwrap().1,
        actions: &first.actions,
        cost: &first.metric.cost,
        canon: &first.canon,
        families: &first.metric.families.of_letter,
        rank: &rank,
        max_kept: crate::redundant::kept_limit(&ctl),
    };
    let file = crate::pdb::refined_cache::file(&dir, &recipe);
    let (saved, _) = crate::pdb::refined_cache::load(&file, m.len()).expect("saved");
    assert_eq!(saved.parts(), canon.parts());
    // The plain automaton under that name: the next solver reads it, not its own.
    crate::pdb::refined_cache::save(&file, (&first.canon, 1), "test", &ctl);
    let second = Solver::new(&c3, &m, &with, &ctl).unwrap();
    let b = second.solve(&p, Wanted::Earliest, &ctl).unwrap();
    assert_eq!(made(&second).1.parts(), first.canon.parts());
    assert_ne!(canon.parts(), first.canon.parts());
    assert!(a.verified && b.verified && a.cost == b.cost && a.cost == 7);
    let _ = std::fs::remove_dir_all(&dir);
}
