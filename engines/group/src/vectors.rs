//! Test vectors: the figures of the brief and the seed, computed on puzzles built here.

use crate::{ChainOptions, Group};
use num_bigint::BigUint;
use puz_core::{Alphabet, Control, MoveBuilder, NamedMove, Perm, Puzzle, Ranker};
use puz_testkit::facelets::{alphabet_with_powers, cube3_gap, megaminx};
use rand::SeedableRng;

fn big(s: &str) -> BigUint {
    s.replace(',', "").parse().unwrap()
}

fn apply(alpha: &Alphabet, p: &Perm, w: &[u32]) -> Perm {
    let mut q = p.clone();
    for &l in w {
        q = q.then(&alpha.perms[l as usize]);
    }
    q
}

/// The alphabet with powers and the letters of the named moves (and their powers).
fn letters_of(firsts: &[u32], moves: &[(String, Perm)], names: &[&str]) -> Vec<u32> {
    names
        .iter()
        .map(|n| firsts[moves.iter().position(|(m, _)| m == n).unwrap()])
        .collect()
}

fn cube3() -> (Alphabet, Vec<u32>, Vec<(String, Perm)>) {
    let moves = cube3_gap();
    let (alpha, firsts) = alphabet_with_powers(&moves);
    (alpha, firsts, moves)
}

fn no_words() -> ChainOptions {
    ChainOptions {
        words: false,
        ..Default::default()
    }
}

#[test]
fn cube3_order_and_subgroup_indices() {
    let ctl = Control::default();
    let (alpha, firsts, moves) = cube3();
    let g = |names: &[&str]| {
        Group::new(
            48,
            &alpha,
            &letters_of(&firsts, &moves, names),
            &no_words(),
            &ctl,
        )
        .unwrap()
    };
    let full = g(&["U", "L", "F", "R", "B", "D"]);
    assert_eq!(full.order(), big("43,252,003,274,489,856,000"));
    let ur = g(&["U", "R"]);
    assert_eq!(ur.order(), big("73,483,200"));
    let urd = g(&["U", "R", "D"]);
    let urdl = g(&["U", "R", "D", "L"]);
    assert_eq!(ur.index_in(&urd), Some(big("2,177,280")));
    assert_eq!(urd.index_in(&urdl), Some(BigUint::from(132u32)));
    assert_eq!(urdl.index_in(&full), Some(BigUint::from(2048u32)));
    assert!(urdl.is_subgroup_of(&full));
    assert!(!full.is_subgroup_of(&urdl));
    assert_eq!(full.index_in(&urdl), None);
    // Random elements are members; an edge flip on its own is not.
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..50 {
        let x = full.random(&mut rng);
        assert!(full.contains(&x));
        assert_eq!(full.unrank_big(&full.rank_big(&x).unwrap()), x);
    }
    let flip = Perm::from_cycles(48, &[vec![1, 33]]).unwrap(); // UB edge: facelets 2 and 34
    assert!(!full.contains(&flip));
    assert!(full.sift(&flip).is_err());
    assert!(!urdl.contains(&moves[4].1));
}

#[test]
fn cube3_solve_words_are_rechecked() {
    let ctl = Control::default();
    let (alpha, _, _) = cube3();
    let opts = ChainOptions {
        words: true,
        ..Default::default()
    };
    let all: Vec<u32> = (0..alpha.len() as u32).collect();
    let g = Group::new(48, &alpha, &all, &opts, &ctl).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for _ in 0..30 {
        let x = g.random(&mut rng);
        let w = g.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
    }
    let stages = g.stages();
    for s in &stages {
        for (pt, w) in &s.reps {
            // The solving word brings the piece at `pt` to the base point.
            let p = apply(&alpha, &Perm::identity(48), w);
            assert_eq!(p.image(*pt), s.base_point);
        }
    }
    // Stage 1 words are shortest: compare with distances by breadth-first search.
    let first = &stages[0];
    let mut dist = vec![usize::MAX; 48];
    dist[first.base_point] = 0;
    let mut queue = std::collections::VecDeque::from([first.base_point]);
    while let Some(x) = queue.pop_front() {
        for p in &alpha.perms {
            let y = p.image(x);
            if dist[y] == usize::MAX {
                dist[y] = dist[x] + 1;
                queue.push_back(y);
            }
        }
    }
    for (pt, w) in &first.reps {
        assert_eq!(w.len(), dist[*pt]);
    }
}

fn cube2() -> (Puzzle, Alphabet, Vec<u32>, Vec<(String, Perm)>) {
    let mut pz = Puzzle::new("cube2");
    let names = ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"];
    pz.add_orbit(
        "corners",
        8,
        3,
        names.iter().map(|s| s.to_string()).collect(),
    );
    let mut moves = Vec::new();
    let defs: [(&str, [(&str, i64); 4]); 3] = [
        ("U", [("UFR", 0), ("ULF", 0), ("UBL", 0), ("URB", 0)]),
        ("R", [("UFR", 2), ("URB", 1), ("DBR", 2), ("DRF", 1)]),
        ("F", [("UFR", 1), ("DRF", 2), ("DFL", 1), ("ULF", 2)]),
    ];
    for (name, cyc) in defs {
        let mut b = MoveBuilder::new(&pz);
        let elems: Vec<(usize, i64)> = cyc
            .iter()
            .map(|&(l, i)| (pz.orbits[0].location(l).unwrap(), i))
            .collect();
        b.cycle(0, &elems).unwrap();
        moves.push((name.to_string(), b.finish()));
    }
    for (name, perm) in &moves {
        pz.moves.push(NamedMove {
            name: name.clone(),
            perm: perm.clone(),
            primitive: true,
        });
    }
    let (alpha, firsts) = alphabet_with_powers(&moves);
    (pz, alpha, firsts, moves)
}

#[test]
fn cube2_orders_and_exhaustive_ranking() {
    let ctl = Control::default();
    let (_, alpha, firsts, _) = cube2();
    let urf = Group::new(24, &alpha, &firsts, &no_words(), &ctl).unwrap();
    assert_eq!(urf.order(), BigUint::from(3_674_160u32));
    let ur = Group::new(24, &alpha, &firsts[..2], &no_words(), &ctl).unwrap();
    assert_eq!(ur.order(), BigUint::from(29_160u32));
    // rank/unrank is a bijection on all of <U, R>.
    let size = ur.size().unwrap();
    assert_eq!(size, 29_160);
    let mut seen = vec![false; size as usize];
    for r in 0..size {
        let x = ur.unrank(r);
        assert!(ur.contains(&x));
        assert_eq!(ur.rank(&x), Some(r));
        let f = urf.rank(&x).unwrap() as usize;
        assert!(f < 3_674_160);
        seen[r as usize] = true;
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(ur.rank(&alpha.perms[firsts[2] as usize]), None);
}

/// Rubik's Cheese: six pieces A..F with flips, F held; B, C, D turn over three pieces.
fn cheese() -> (Puzzle, Alphabet) {
    let mut pz = Puzzle::new("cheese");
    pz.add_orbit(
        "pieces",
        6,
        2,
        ["A", "B", "C", "D", "E", "F"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    let mut names = Vec::new();
    let mut perms = Vec::new();
    for (name, mid) in [("B", 1usize), ("C", 2), ("D", 3)] {
        let mut b = MoveBuilder::new(&pz);
        b.cycle(0, &[(mid - 1, 1), (mid + 1, 1)]).unwrap();
        b.cycle(0, &[(mid, 1)]).unwrap();
        names.push(name.to_string());
        perms.push(b.finish());
    }
    let alpha = Alphabet::new(names, perms).unwrap();
    (pz, alpha)
}

#[test]
fn cheese_chain_matches_the_seed() {
    let ctl = Control::default();
    let (pz, alpha) = cheese();
    let o = &pz.orbits[0];
    let base = vec![o.point(4, 0), o.point(3, 0), o.point(2, 0)];
    let opts = ChainOptions {
        base: base.clone(),
        words: true,
        ..Default::default()
    };
    let g = Group::new(pz.degree(), &alpha, &[0, 1, 2], &opts, &ctl).unwrap();
    assert_eq!(g.order(), BigUint::from(96u32));
    let stages = g.stages();
    assert_eq!(
        stages.iter().map(|s| s.cosets).collect::<Vec<_>>(),
        vec![6, 4, 4]
    );
    assert_eq!(
        stages.iter().map(|s| s.base_point).collect::<Vec<_>>(),
        base
    );
    let mean: f64 = stages.iter().map(|s| s.mean_len).sum();
    let max: usize = stages.iter().map(|s| s.max_len).sum();
    // The seed's chain: means 11/6 + 6/4 + 14/4 = 6.83, maximum 3 + 3 + 7 = 13.
    assert!(
        mean <= 11.0 / 6.0 + 6.0 / 4.0 + 14.0 / 4.0 + 1e-9 && max <= 13,
        "mean {mean} max {max}"
    );
    // Every representative word solves its piece, and every position is solved.
    for s in &stages {
        for (pt, w) in &s.reps {
            assert_eq!(
                apply(&alpha, &Perm::identity(12), w).image(*pt),
                s.base_point
            );
        }
    }
    for r in 0..96 {
        let x = g.unrank(r);
        let w = g.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
    }
    // Flipping piece A alone is impossible: stage 1 (solving E) accepts it, a later one not.
    let mut b = MoveBuilder::new(&pz);
    b.cycle(0, &[(0, 1)]).unwrap();
    let flip = b.finish();
    let rej = g.sift(&flip).unwrap_err();
    assert!(rej.stage >= 1);
}

fn megaminx_group(ctl: &Control) -> Group {
    let moves = megaminx();
    let (alpha, firsts) = alphabet_with_powers(&moves);
    Group::new(120, &alpha, &firsts, &no_words(), ctl).unwrap()
}

#[test]
fn megaminx_order() {
    let ctl = Control::default();
    let g = megaminx_group(&ctl);
    assert_eq!(
        g.order(),
        big("100,669,616,553,523,347,122,516,032,313,645,505,168,688,116,411,019,768,627,200,000,000,000")
    );
}

#[test]
fn stabiliser_of_many_points() {
    // The Megaminx fixing 10 corners and 15 edges (one point each fixes the piece and its
    // orientation): the other corners' even permutations and twists, the other edges'
    // even permutations and flips. One point at a time, the generators multiplied with
    // every stage and the chain's random phase stopped short of the order: the orders
    // came out too small past about nine points.
    let ctl = Control::default();
    let g = megaminx_group(&ctl);
    let points: Vec<usize> = (0..10)
        .map(|c| 3 * c)
        .chain((0..15).map(|e| 60 + 2 * e))
        .collect();
    let h = g.stabilizer_of(&points, &ctl).unwrap();
    let fact = |n: u32| (1..=n).map(BigUint::from).product::<BigUint>();
    let two = BigUint::from(2u32);
    let want = fact(10) / &two * BigUint::from(3u32).pow(9) * fact(15) / &two * two.pow(14);
    assert_eq!(h.order(), want);
    assert!(h.is_subgroup_of(&g));
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..20 {
        let x = h.random(&mut rng);
        assert!(points.iter().all(|&p| x.image(p) == p));
        assert!(g.contains(&x));
    }
    // Its generators as words, found on first use, and its transversals' words (the
    // fill chose each stage's generators from over 10^5 Schreier generators, which
    // took minutes): words that solve its elements.
    let (alpha, _) = alphabet_with_powers(&megaminx());
    for _ in 0..3 {
        let x = h.random(&mut rng);
        let w = h.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
    }
    // One point after another gives the same group.
    let mut k = g.stabilizer(points[0], &ctl).unwrap();
    for &p in &points[1..4] {
        k = k.stabilizer(p, &ctl).unwrap();
    }
    assert_eq!(
        k.order(),
        g.stabilizer_of(&points[..4], &ctl).unwrap().order()
    );
}

#[test]
fn a_stabilisers_words_come_on_first_use() {
    // `stabilizer_of` gives a chain generated by strong generators without words; its
    // generators as words are found when solving in it first needs them.
    let ctl = Control::default();
    let (alpha, firsts, _) = cube3();
    let g = Group::new(48, &alpha, &firsts, &no_words(), &ctl).unwrap();
    // The U face's four corner facelets and two of its edge facelets.
    let points = [0, 2, 5, 7, 1, 3];
    let h = g.stabilizer_of(&points, &ctl).unwrap();
    let mut k = g.stabilizer(points[0], &ctl).unwrap();
    for &p in &points[1..] {
        k = k.stabilizer(p, &ctl).unwrap();
    }
    assert_eq!(h.order(), k.order());
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for _ in 0..10 {
        let x = h.random(&mut rng);
        assert!(points.iter().all(|&p| x.image(p) == p));
        let w = h.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
        let w = k.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
    }
    // A letter moving the first point is outside.
    let outside = alpha.perms[firsts[0] as usize].clone();
    assert_ne!(outside.image(points[0]), points[0]);
    assert!(h.sift(&outside).is_err());
    assert!(!h.contains(&outside));
}

#[test]
fn a_known_order_not_reached_at_random_is_verified() {
    // Thousands of generators (a stabiliser's Schreier generators, kept whole, were that
    // many) leave product replacement far from uniform: its random phase can stop short
    // of the order the caller knows. The chain must be complete all the same.
    let ctl = Control::default();
    let g = megaminx_group(&ctl);
    let order = g.order();
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    // Elements of a small subgroup first, then a few of the whole group.
    let h = g
        .stabilizer_of(&(0..20).map(|c| 3 * c).collect::<Vec<_>>(), &ctl)
        .unwrap();
    let mut gens: Vec<Vec<u16>> = (0..3000)
        .map(|_| h.random(&mut rng).images().to_vec())
        .collect();
    gens.extend((0..3).map(|_| g.random(&mut rng).images().to_vec()));
    for seed in 0..3 {
        let opts = crate::chain::BuildOptions {
            base: &[],
            target: Some(&order),
            verify: true,
            seed,
        };
        let c = crate::chain::build(120, &gens, &opts, &ctl).unwrap();
        assert_eq!(c.order(), order, "seed {seed}");
    }
}

#[test]
fn stabiliser_of_a_facelet() {
    let ctl = Control::default();
    let (_, alpha, firsts, _) = cube2();
    let g = Group::new(
        24,
        &alpha,
        &firsts,
        &ChainOptions {
            words: true,
            ..Default::default()
        },
        &ctl,
    )
    .unwrap();
    let orbit = g.orbit(0);
    assert_eq!(orbit.len(), 21, "DLB never moves");
    let h = g.stabilizer(0, &ctl).unwrap();
    assert_eq!(h.order() * BigUint::from(21u32), g.order());
    assert!(h.is_subgroup_of(&g));
    assert_eq!(h.orbit(0), vec![0]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    for _ in 0..20 {
        let x = h.random(&mut rng);
        assert_eq!(x.image(0), 0);
        let w = h.sift(&x).unwrap();
        assert!(apply(&alpha, &x, &w).is_identity());
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn urf() -> &'static Group {
        static G: OnceLock<Group> = OnceLock::new();
        G.get_or_init(|| {
            let (_, alpha, firsts, _) = cube2();
            Group::new(24, &alpha, &firsts, &no_words(), &Control::default()).unwrap()
        })
    }

    proptest! {
        #[test]
        fn unrank_rank_round_trip(r in 0u64..3_674_160) {
            let g = urf();
            let x = g.unrank(r);
            prop_assert!(g.contains(&x));
            prop_assert_eq!(g.rank(&x), Some(r));
        }

        #[test]
        fn rank_unrank_round_trip(seed in any::<u64>()) {
            let g = urf();
            let x = g.random(&mut rand::rngs::StdRng::seed_from_u64(seed));
            let r = g.rank(&x).unwrap();
            prop_assert_eq!(g.unrank(r), x);
        }
    }
}

#[test]
fn trivial_group_and_interrupts() {
    let ctl = Control::default();
    let (alpha, firsts, _) = cube3();
    let triv = Group::new(48, &alpha, &[], &ChainOptions::default(), &ctl).unwrap();
    assert_eq!(triv.order(), BigUint::from(1u32));
    assert!(triv.contains(&Perm::identity(48)));
    assert_eq!(triv.sift(&Perm::identity(48)), Ok(vec![]));
    assert_eq!(triv.rank(&Perm::identity(48)), Some(0));
    assert!(!triv.contains(&alpha.perms[0]));
    // A cancelled control stops the build; a tiny memory limit refuses it with its figure.
    let cancelled = Control::default();
    cancelled
        .flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        Group::new(48, &alpha, &firsts, &no_words(), &cancelled).unwrap_err(),
        puz_core::Interrupt::Cancelled
    );
    let mut small = Control::default();
    small.memory_limit = 1000;
    assert!(matches!(
        Group::new(48, &alpha, &firsts, &no_words(), &small),
        Err(puz_core::Interrupt::TooLarge { .. })
    ));
}

#[test]
fn rejection_names_the_stage_and_points() {
    let ctl = Control::default();
    let (pz, alpha) = cheese();
    let o = &pz.orbits[0];
    let base = vec![o.point(4, 0), o.point(3, 0), o.point(2, 0)];
    let opts = ChainOptions {
        base,
        words: true,
        ..Default::default()
    };
    let g = Group::new(pz.degree(), &alpha, &[0, 1, 2], &opts, &ctl).unwrap();
    // Swapping pieces E and F: the piece for E sits at F, which no move reaches.
    let mut b = MoveBuilder::new(&pz);
    b.cycle(0, &[(4, 0), (5, 0)]).unwrap();
    let swap = b.finish();
    let rej = g.sift(&swap).unwrap_err();
    assert_eq!(
        (rej.stage, rej.base_point, rej.image),
        (0, o.point(4, 0), o.point(5, 0))
    );
    assert_eq!(g.orbit(o.point(4, 0)).len(), 6);
    assert_eq!(g.orbit(o.point(5, 0)), vec![o.point(5, 0)]);
}

mod brute_force {
    //! Small random groups checked against their elements enumerated by breadth-first search.
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn perm(n: usize) -> impl Strategy<Value = Perm> {
        Just((0..n).collect::<Vec<usize>>())
            .prop_shuffle()
            .prop_map(|v| Perm::from_images(v).unwrap())
    }

    fn closure(gens: &[Perm], n: usize) -> HashSet<Perm> {
        let mut seen: HashSet<Perm> = HashSet::from([Perm::identity(n)]);
        let mut queue = vec![Perm::identity(n)];
        while let Some(x) = queue.pop() {
            for g in gens {
                let y = x.then(g);
                if seen.insert(y.clone()) {
                    queue.push(y);
                }
            }
        }
        seen
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn chain_agrees_with_enumeration(gens in prop::collection::vec(perm(7), 1..4), probe in perm(7)) {
            let n = 7;
            let names: Vec<String> = (0..gens.len()).map(|i| format!("g{i}")).collect();
            // Letters: each generator and its inverse.
            let mut all_names = Vec::new();
            let mut perms = Vec::new();
            for (name, g) in names.iter().zip(&gens) {
                all_names.push(name.clone());
                perms.push(g.clone());
                all_names.push(format!("{name}'"));
                perms.push(g.inverse());
            }
            let alpha = Alphabet::new(all_names, perms).unwrap();
            let letters: Vec<u32> = (0..gens.len() as u32).map(|i| 2 * i).collect();
            let opts = ChainOptions { words: true, ..Default::default() };
            let g = Group::new(n, &alpha, &letters, &opts, &Control::default()).unwrap();
            let elements = closure(&gens, n);
            prop_assert_eq!(g.order(), BigUint::from(elements.len()));
            prop_assert_eq!(g.contains(&probe), elements.contains(&probe));
            // rank is a bijection onto 0..order; unrank inverts it; words solve every element.
            let mut ranks = HashSet::new();
            for x in &elements {
                let r = g.rank(x).unwrap();
                prop_assert!(r < elements.len() as u64);
                prop_assert!(ranks.insert(r));
                prop_assert_eq!(&g.unrank(r), x);
                let w = g.sift(x).unwrap();
                prop_assert!(apply(&alpha, x, &w).is_identity());
            }
            if !elements.contains(&probe) {
                prop_assert!(g.sift(&probe).is_err());
                prop_assert_eq!(g.rank(&probe), None);
            }
        }
    }
}
