//! Tests of the choice of tables (`choice.rs`).

use super::super::fixtures::{cube3_htm, setup};
use super::*;

#[test]
fn patterns_fill_the_budget() {
    // 3x3x3 edges and corners in htm (tables of 4-bit entries). 512 MiB: the whole corner
    // orbit (44 MB), two 6-edge halves (21 MB each), the 12 edge flips with 5 edges
    // (97 MB), then the largest further subset that fits: 7 edges (255 MB). 1 GiB: two
    // 7-edge tables cover the edges.
    let (model, _, actions) = cube3_htm();
    for (budget, expect) in [(512u64 << 20, [6, 6, 7]), (1 << 30, [7, 7, 7])] {
        let ps: Vec<Pattern> = choose_patterns(&model, &actions, budget, &[])
            .into_iter()
            .map(|s| match s {
                Shape::Pieces(p) => p,
                Shape::Coords(c) => panic!("{c:?} does not fit half of {budget}"),
            })
            .collect();
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

#[test]
fn the_slice_is_found_from_the_letters() {
    // 3x3x3 in htm: corner twists, edge flips, and the four edges no letter commuting
    // with the first one (U: U and D) moves: Kociemba's phase-1 coordinates.
    let (model, _, actions) = cube3_htm();
    let c = several_orbits(&model, &actions).unwrap();
    assert_eq!(c.size, 2187 * 2048 * 495);
    let Part::Set { orbit: 1, pieces } = &c.parts[0] else {
        panic!("{:?}", c.parts)
    };
    let moved = |l: usize| {
        (0..12).any(|x| {
            let b = model.orbits[1].start + x;
            pieces.contains(&(x as u8))
                && (actions[l].src[b] as usize != b || actions[l].add[b] != 0)
        })
    };
    // The letters of two opposite faces leave them alone, the other four move them.
    assert_eq!((0..18).filter(|&l| !moved(l)).count(), 6);
    // At 4 GiB it goes first, with the whole corner orbit only: the tables of part of
    // the edges are left out; the same at 1.5 GiB (more than half the budget, but it
    // reads both orbits). At 1 GiB it does not fit.
    let ps = choose_patterns(&model, &actions, 4 << 30, &[]);
    assert!(matches!(ps[0], Shape::Coords(_)), "{ps:?}");
    let rest: Vec<(usize, usize, bool)> = ps[1..]
        .iter()
        .map(|p| match p {
            Shape::Pieces(p) => (p.orbit, p.pieces.len(), p.all_ori),
            Shape::Coords(_) => unreachable!(),
        })
        .collect();
    assert_eq!(rest, [(0, 8, false)]);
    let mid = choose_patterns(&model, &actions, 3 << 29, &[]);
    assert_eq!(format!("{mid:?}"), format!("{ps:?}"));
    let ps = choose_patterns(&model, &actions, 1 << 30, &[]);
    assert!(ps.iter().all(|p| matches!(p, Shape::Pieces(_))));
}

#[test]
fn symmetries_bring_the_sorted_slice_within_four_gib() {
    // With the 3x3x3's rotations and reflections: at 1 GiB the set of the slice's
    // locations, reduced by the 16 symmetries of its axis (70 MB instead of 1.1 GB:
    // Kociemba's 64,430 flip-slice classes times 2,187 twists), beside the corners;
    // from 2 GiB where each of the slice's edges is (1.67 GB instead of 26.6 GB: his
    // 1,523,864 classes of the sorted slice and flips).
    let (model, conj, actions) = crate::pdb::symmetric::tests::cube_symmetries_htm();
    let kinds = |budget: u64| -> Vec<String> {
        choose_patterns(&model, &actions, budget, &conj)
            .iter()
            .map(|s| match s {
                Shape::Coords(c) => format!(
                    "{:?} {}",
                    c.parts
                        .iter()
                        .map(|p| match p {
                            Part::Ori { .. } => "ori",
                            Part::Set { .. } => "set",
                            Part::Places { .. } => "places",
                            Part::Parity { .. } => "parity",
                        })
                        .collect::<Vec<_>>(),
                    c.bytes()
                ),
                Shape::Pieces(p) => format!("{} pieces", p.pieces.len()),
            })
            .collect()
    };
    assert_eq!(
        kinds(1 << 30),
        ["[\"set\", \"ori\", \"ori\"] 70454205", "8 pieces"]
    );
    assert_eq!(
        kinds(2 << 30),
        ["[\"ori\", \"ori\", \"places\"] 1666345284", "8 pieces"]
    );
    // At 4 GiB the same with the parity of the corners' permutation beside it (twice
    // the entries; the entry of the other parity in the same byte).
    assert_eq!(
        kinds(4 << 30),
        [
            "[\"ori\", \"ori\", \"places\", \"parity\"] 3332690568",
            "8 pieces"
        ]
    );
    // At 8 GiB nxopt's table: the set of the slice's locations and the set of the U
    // layer's corners' with every orientation (64,430 classes times 2,187 twists times
    // 70 sets: 4.93 GB).
    assert_eq!(
        kinds(8 << 30),
        [
            "[\"set\", \"set\", \"ori\", \"ori\"] 4931794350",
            "8 pieces"
        ]
    );
    // With two-bit entries allowed (letters that all cost 1), nxopt's table at 3 and 4 GiB
    // (39,141,225 lines of 252 entries, and the line of the base); at 8 GiB it stays
    // in nibbles.
    let in_pairs = |budget: u64| -> Vec<(bool, u64)> {
        let how = How {
            pairs: true,
            ..How::default()
        };
        choose_patterns_until(&model, &actions, budget, &conj, how)
            .iter()
            .map(|s| (s.pairs(), s.bytes()))
            .collect()
    };
    // At 1 GiB where each of the slice's pieces is (3.33 G entries, 846 MB), at 2 GiB
    // with the parity (6.67 G entries, 1.69 GB); at 512 MiB the same as without.
    for (budget, table) in [
        (4u64 << 30, (true, 2_505_038_464)),
        (3 << 30, (true, 2_505_038_464)),
        (1 << 30, (true, 846_397_696)),
        (2 << 30, (true, 1_692_795_328)),
        (1 << 29, (false, 70_454_205)),
        (8 << 30, (false, 4_931_794_350)),
    ] {
        assert_eq!(in_pairs(budget), [table, (false, 44_089_920)], "{budget}");
    }
}

#[test]
fn a_second_table_takes_the_corners_with_the_slice_when_asked_and_it_fits() {
    // Beside nxopt's table at 4 GiB in pairs, the corners' places and twists with the
    // slice's set (2,768 classes of the corners' permutation times 2,187 twists times
    // 495 sets, in pairs: 726 MiB) in place of the corners' table, looked up on the
    // position only. At 2 GiB it does not fit beside the table with the parity.
    let (model, conj, actions) = crate::pdb::symmetric::tests::cube_symmetries_htm();
    let choose = |budget: u64, second: bool| {
        let how = How {
            pairs: true,
            second,
            ..How::default()
        };
        choose_patterns_until(&model, &actions, budget, &conj, how)
    };
    let plain = choose(4 << 30, false);
    let ps = choose(4 << 30, true);
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].bytes(), plain[0].bytes());
    let Shape::Coords(t) = &ps[1] else {
        panic!("{ps:?}")
    };
    let red = t.sym.as_ref().unwrap();
    assert_eq!((red.syms, red.classes), (16, 2768));
    assert_eq!(t.size, 2768 * 2187 * 495);
    assert!(t.pairs && t.whole_places() && ps[1].position_only());
    assert!(!ps[0].position_only() && plain[1].position_only());
    assert!(ps.iter().map(Shape::bytes).sum::<u64>() <= 4 << 30);
    let small = choose(2 << 30, true);
    assert_eq!(
        format!("{small:?}"),
        format!("{:?}", choose(2 << 30, false))
    );
    assert!(matches!(small[1], Shape::Pieces(_)));
}

#[test]
fn the_layers_are_found_from_the_slice_axis() {
    // The 3x3x3 in htm and atm: beside the UD slice, the corners the U letters move.
    for metric in ["htm", "atm"] {
        let (model, _, actions) = crate::pdb::fixtures::cube3_metric(metric);
        let c = several_orbits(&model, &actions).unwrap();
        let s = slice(&model, &actions).unwrap();
        let l = with_layers(&model, &actions, &c, &s).unwrap();
        let sets: Vec<&Part> = l.parts.iter().filter(|p| p.pieces().is_some()).collect();
        assert_eq!(
            sets,
            [
                &Part::Set {
                    orbit: 0,
                    pieces: vec![0, 1, 2, 3]
                },
                &Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11]
                }
            ],
            "{metric}"
        );
    }
}

#[test]
fn no_table_of_several_orbits_when_whole_orbits_fit() {
    // The 2x2x2 <U, R, F>: the whole corner orbit fits in 64 MB, the corner twists with
    // a slice would add nothing; in 200 kB the table of several orbits goes first.
    let (model, _, actions) = setup();
    assert!(several_orbits(&model, &actions).is_some());
    let ps = choose_patterns(&model, &actions, 64 << 20, &[]);
    assert!(ps.iter().all(|p| matches!(p, Shape::Pieces(_))), "{ps:?}");
    let ps = choose_patterns(&model, &actions, 200_000, &[]);
    assert!(matches!(ps[0], Shape::Coords(_)), "{ps:?}");
}
