use super::super::fixtures::{cube2_qtm, cube3_htm, state_after};
use super::*;
use proptest::prelude::*;

fn edges_slice() -> Vec<Part> {
    vec![
        Part::Ori { orbit: 1 },
        Part::Set {
            orbit: 1,
            pieces: vec![8, 9, 10, 11],
        },
    ]
}

#[test]
fn phase_one_sizes() {
    let (model, _, _) = cube3_htm();
    let mut parts = edges_slice();
    parts.push(Part::Ori { orbit: 0 });
    let c = Coords::new(&model, parts).unwrap();
    assert_eq!(c.sizes, [495, 2048, 2187]);
    assert_eq!(c.size, 2_217_093_120);
    assert_eq!(c.bytes(), 1_108_546_560);
    // Refused: a whole orbit as a set, a repeated piece, twist 1, an unknown orbit.
    let bad = |p: Part| Coords::new(&model, vec![p]).is_none();
    assert!(bad(Part::Set {
        orbit: 1,
        pieces: (0..12).collect()
    }));
    assert!(bad(Part::Set {
        orbit: 1,
        pieces: vec![3, 3]
    }));
    assert!(bad(Part::Ori { orbit: 7 }));
    assert!(Coords::new(&model, vec![]).is_none());
    assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    assert_eq!(binomial(12, 4), 495);
    assert!(Coords::new(&model, vec![Part::Ori { orbit: 1 }, Part::Ori { orbit: 1 }]).is_none());
    // A parity beside a set of the same orbit (its states would move the set).
    assert!(Coords::new(
        &model,
        vec![
            Part::Parity { orbit: 1 },
            Part::Set {
                orbit: 1,
                pieces: vec![0, 1]
            }
        ]
    )
    .is_none());
}

#[test]
fn every_index_is_reached_once() {
    // The index of the states built for each value of each part is that value: a
    // bijection between values and indices (2x2x2: 3^7 orientations, C(8, 3) sets;
    // 3x3x3 edges: 2^11, C(12, 4)).
    let (m2, _, _) = cube2_qtm();
    let (m3, _, _) = cube3_htm();
    let c2 = vec![
        Part::Ori { orbit: 0 },
        Part::Set {
            orbit: 0,
            pieces: vec![1, 4, 6],
        },
    ];
    let places = vec![
        Part::Ori { orbit: 1 },
        Part::Places {
            orbit: 1,
            pieces: vec![11, 2, 8, 5],
        },
    ];
    let parity = vec![Part::Ori { orbit: 0 }, Part::Parity { orbit: 0 }];
    let cases = [
        (m2, c2),
        (m3.clone(), edges_slice()),
        (m3.clone(), places),
        (m3, parity),
    ];
    for (model, parts) in cases {
        let c = Coords::new(&model, parts).unwrap();
        // And all values together, through one state.
        let values: Vec<u64> = c.sizes.iter().map(|&n| n - 1).collect();
        let s = c.state_of_values(&model, &values);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(c.part_value(i, &s), v);
        }
        for i in 0..c.parts.len() {
            let mut seen = vec![false; c.sizes[i] as usize];
            for v in 0..c.sizes[i] {
                let s = c.state_with(&model, i, v);
                assert_eq!(c.part_value(i, &s), v);
                seen[v as usize] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
    }
}

proptest! {
    #[test]
    fn lanes_read_as_the_cells_do(
        moves in proptest::collection::vec(0usize..18, 0..40),
        corners in proptest::collection::btree_set(0u8..8, 1..8),
        edges in proptest::collection::btree_set(0u8..12, 1..12),
    ) {
        // Every 3x3x3 part reader with lanes (both orientations, sets of any pieces of
        // either orbit) gives the cell-by-cell value on a random position.
        let (model, _, actions) = cube3_htm();
        let s = state_after(&model, &actions, &moves);
        let sets = [(0, corners), (1, edges)];
        let mut readers: Vec<Reader> = sets
            .into_iter()
            .filter(|(o, p)| p.len() < model.orbits[*o].size)
            .map(|(orbit, p)| reader(&model, &Part::Set { orbit, pieces: p.into_iter().collect() }))
            .collect();
        readers.push(reader(&model, &Part::Ori { orbit: 0 }));
        readers.push(reader(&model, &Part::Ori { orbit: 1 }));
        for r in &readers {
            prop_assert!(r.lanes.is_some());
            prop_assert_eq!(r.value(&s), r.cell_by_cell(&s));
        }
        // Every orientation digit, not only the first n - 1.
        for (orbit, twist) in [(0usize, 3u8), (1, 2)] {
            let o = &model.orbits[orbit];
            let all = Lanes::ori(o.start, o.size, model.n, twist, o.size).unwrap();
            let t = twist as u64;
            let want = s[o.start..o.start + o.size]
                .iter()
                .fold(0u64, |r, &c| r * t + (c % twist) as u64);
            prop_assert_eq!(all.value(&s), want);
        }
    }

    #[test]
    fn move_tables_follow_the_letters(
        moves in proptest::collection::vec(0usize..18, 0..30),
        l in 0usize..18,
    ) {
        // A random 3x3x3 position's parts, moved by the tables, are the parts of the
        // position after the letter.
        let (model, _, actions) = cube3_htm();
        let mut parts = edges_slice();
        parts.push(Part::Ori { orbit: 0 });
        parts.push(Part::Parity { orbit: 0 });
        let c = Coords::new(&model, parts).unwrap();
        // The parity is the fastest part; on a position the corners' and the edges'
        // parities agree.
        let parity_last = matches!(c.parts.last(), Some(Part::Parity { orbit: 0 }));
        prop_assert!(parity_last);
        prop_assert_eq!(c.weights.last(), Some(&1));
        let mt = c.move_tables(&model, &actions);
        let s = state_after(&model, &actions, &moves);
        let mut out = s.clone();
        model.apply(&actions[l], &s, &mut out);
        let mut idx = 0;
        for (i, moves) in mt.iter().enumerate() {
            let v = c.part_value(i, &s) as usize;
            let after = moves[v * actions.len() + l] as u64;
            prop_assert_eq!(after, c.part_value(i, &out));
            idx += after * c.weights[i];
        }
        prop_assert_eq!(idx, c.index(&out));
        prop_assert!(c.index(&out) < c.size);
        let edges = Coords::new(&model, vec![Part::Parity { orbit: 1 }]).unwrap();
        prop_assert_eq!(edges.part_value(0, &out), c.part_value(c.parts.len() - 1, &out));
    }
}
