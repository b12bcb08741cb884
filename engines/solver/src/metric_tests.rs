use super::*;
use crate::testsupport::{cube2, cube3, word_in};

#[test]
fn generator_counts() {
    let c3 = cube3();
    let faces = ["U", "D", "R", "L", "F", "B"];
    assert_eq!(
        Metric::htm(&c3, &faces, &Control::default()).unwrap().len(),
        18
    );
    assert_eq!(
        Metric::qtm(&c3, &faces, &Control::default()).unwrap().len(),
        12
    );
    assert_eq!(
        Metric::stm(&c3, &faces, &["M", "E", "S"], &Control::default())
            .unwrap()
            .len(),
        27
    );
    let atm = Metric::atm(&c3, &faces, &Control::default()).unwrap();
    assert_eq!(atm.len(), 45);
    assert_eq!(atm.families.list.len(), 3);
    assert!(atm
        .alphabet
        .names
        .iter()
        .any(|n| n == "(U2 D')" || n == "(D' U2)"));
    let c2 = cube2();
    assert_eq!(Metric::htm(&c2, &[], &Control::default()).unwrap().len(), 9);
    assert_eq!(Metric::qtm(&c2, &[], &Control::default()).unwrap().len(), 6);
}

#[test]
fn lengths_in_each_metric() {
    let c3 = cube3();
    let faces = ["U", "D", "R", "L", "F", "B"];
    let htm = Metric::htm(&c3, &faces, &Control::default()).unwrap();
    let qtm = Metric::qtm(&c3, &faces, &Control::default()).unwrap();
    let atm = Metric::atm(&c3, &faces, &Control::default()).unwrap();
    // The word is written in the htm alphabet.
    let w = |s: &str| word_in(&htm.alphabet, s);
    let pons = w("U2 D2 F2 B2 L2 R2");
    assert_eq!(length(&pons, &htm.alphabet, &htm), Some(6));
    assert_eq!(length(&pons, &htm.alphabet, &qtm), Some(12));
    assert_eq!(length(&pons, &htm.alphabet, &atm), Some(3));
    let sexy = w("R U R' U'");
    for m in [&htm, &qtm, &atm] {
        assert_eq!(length(&sexy, &htm.alphabet, m), Some(4));
    }
    assert_eq!(length(&w("U U'"), &htm.alphabet, &htm), Some(0));
    // A letter outside the metric has no length.
    let c3m = Metric::htm(&c3, &["M"], &Control::default()).unwrap();
    assert_eq!(length(&w("U"), &htm.alphabet, &c3m), None);
}

#[test]
fn powers_past_half_the_order_are_named_as_inverses() {
    let names: Vec<String> = (1..5).map(|p| power_name("R", p, 5)).collect();
    assert_eq!(names, ["R", "R2", "R2'", "R'"]);
    assert_eq!(power_name("U", 2, 4), "U2");
    assert_eq!(power_name("U", -1, 4), "U'");
    assert_eq!(power_name("X", 3, 6), "X3");
    assert_eq!(power_name("X", 4, 6), "X2'");
    // Every name parses back to its power.
    let c3 = cube3();
    for p in 1..4 {
        let (m, q) = parse_token(&c3, &power_name("U", p, 4)).unwrap();
        assert_eq!((c3.moves[m].name.as_str(), q.rem_euclid(4)), ("U", p));
    }
}

#[test]
fn explicit_adds_inverses() {
    let c3 = cube3();
    let m = Metric::explicit(
        &c3,
        "two-gen",
        &[("R", 1), ("U2", 1), ("R U", 3)],
        &Control::default(),
    )
    .unwrap();
    // R, R', U2, (R U), (U' R')
    assert_eq!(m.len(), 5);
    let i = m.alphabet.index("(U' R')").unwrap();
    assert_eq!(m.cost[i as usize], 3);
    assert!(Metric::explicit(&c3, "bad", &[("Q", 1)], &Control::default()).is_err());
}
