//! Tests of the symmetry-reduced tables' classes and keys (`symmetric.rs`).

use super::*;
use crate::canon::Canon;
use crate::metric::Metric;
use crate::pdb::fixtures::{u_layer, ud_slice};
use crate::symmetry::Symmetries;
use crate::testsupport::cube3;
use puz_core::Control;

/// The 3x3x3 (with its rotations) in htm, and its 48 symmetries (rotations and
/// reflections) as conjugation maps.
pub(crate) fn cube_symmetries() -> (Model, Vec<(Perm, CellMap)>) {
    let (model, conj, _) = cube_symmetries_htm();
    (model, conj)
}

/// The same, with the htm letters' actions.
pub(crate) fn cube_symmetries_htm() -> (Model, Vec<(Perm, CellMap)>, Vec<crate::model::Action>) {
    let c3 = cube3();
    let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"], &Control::default()).unwrap();
    let model = Model::new(&c3).unwrap();
    let sym = Symmetries::new(&c3, &htm, &Canon::new(&htm));
    let conj = conjugations(&model, &sym.all);
    let actions = crate::testsupport::actions_of(&model, &htm);
    (model, conj, actions)
}

#[test]
fn a_cancelled_reduction_leaves_the_table_whole() {
    // Ctrl-C while the classes are formed: the table stays whole (and nothing is
    // remembered for the next call, which reduces it).
    let (model, conj) = cube_symmetries();
    let c = Coords::new(&model, vec![ud_slice()]).unwrap();
    let ctl = Control::default();
    ctl.flag().store(true, std::sync::atomic::Ordering::Relaxed);
    let r = reduce(&model, c.clone(), &conj, u64::MAX, Some(&ctl), None);
    assert!(r.sym.is_none());
    assert_eq!(r.size, c.size);
    let r = reduce(&model, c, &conj, u64::MAX, None, None);
    assert!(r.sym.is_some());
}

#[test]
fn the_slice_tables_keep_the_sixteen_symmetries_of_their_axis() {
    // The UD slice with the edge flips (Kociemba's flip-slice): of the 24 rotations
    // and 24 reflections, the 16 that keep the UD axis carry it; 1,013,760 keys in
    // classes of 16 or fewer each.
    let (model, conj) = cube_symmetries();
    assert_eq!(conj.len(), 48);
    let c = Coords::new(
        &model,
        vec![Part::Ori { orbit: 1 }, ud_slice(), Part::Ori { orbit: 0 }],
    )
    .unwrap();
    let r = reduce(&model, c, &conj, u64::MAX, None, None);
    let red = r.sym.clone().unwrap();
    assert_eq!(red.syms, 16);
    assert_eq!(red.rest_size, 2187);
    // Kociemba's 64,430 flip-slice classes.
    assert_eq!(red.classes, 64_430);
    assert_eq!(r.size, red.classes * 2187);
}

#[test]
fn a_set_carried_to_its_complement_stays_in_the_rest() {
    // nxopt's table: beside the flip-slice, the U layer's corners' set with the twists.
    // The 8 symmetries that keep U carry that set onto itself, the 8 that swap U and D
    // onto the D layer's; all 16 are kept, the flip-slice stays the key. Were the
    // corners' set the key, 8 would be.
    let (model, conj) = cube_symmetries();
    let layer = u_layer();
    let c = Coords::new(
        &model,
        vec![
            Part::Ori { orbit: 1 },
            ud_slice(),
            Part::Ori { orbit: 0 },
            layer.clone(),
        ],
    )
    .unwrap();
    let red = reduce(&model, c, &conj, u64::MAX, None, None).sym.unwrap();
    assert_eq!(
        (red.syms, red.classes, red.rest_size),
        (16, 64_430, 2187 * 70)
    );
    // A set of three corners of U is no layer: no symmetry swapping U and D carries it.
    let c = Coords::new(
        &model,
        vec![
            ud_slice(),
            Part::Set {
                orbit: 0,
                pieces: vec![0, 1, 2],
            },
        ],
    )
    .unwrap();
    let red = reduce(&model, c, &conj, u64::MAX, None, None).sym;
    assert!(red.is_none_or(|r| r.syms < 16));
}

#[test]
fn the_corners_places_alone_are_the_key_beside_their_twists() {
    // The corners' places and twists with the UD slice's set: the corners' parts
    // together would be a key of 88 M values, past MAX_KEY. Their places alone are the
    // key (Kociemba's 2,768 classes of the corners' permutation under the 16
    // symmetries of the UD axis), the twists and the slice's set the rest. A table
    // with the twists only: the same key.
    let (model, conj) = cube_symmetries();
    let corners = Part::Places {
        orbit: 0,
        pieces: (0..8).collect(),
    };
    let c = Coords::new(
        &model,
        vec![corners.clone(), Part::Ori { orbit: 0 }, ud_slice()],
    )
    .unwrap();
    assert_eq!(c.sizes, [495, 2187, 40320]);
    let red = reduce(&model, c, &conj, u64::MAX, None, None).sym.unwrap();
    assert_eq!(
        (red.syms, red.classes, red.rest_size),
        (16, 2768, 2187 * 495)
    );
    assert_eq!(red.split().0, [2]);
    let c = Coords::new(&model, vec![corners, Part::Ori { orbit: 0 }]).unwrap();
    let split = reduce(&model, c, &conj, u64::MAX, None, None).sym.unwrap();
    assert_eq!((split.classes, split.rest_size), (2768, 2187));
    // The same parts with the key split or whole are different layouts: their
    // recipes (the cache's names) differ.
    let maps: Vec<&CellMap> = conj.iter().map(|(_, m)| m).collect();
    let c = Coords::new(&model, vec![ud_slice(), Part::Ori { orbit: 0 }]).unwrap();
    assert_ne!(
        recipe(&model, &c, &maps, true),
        recipe(&model, &c, &maps, false)
    );
}

#[test]
fn a_set_alone_keeps_only_the_symmetries_that_carry_its_orbits_turns_by_themselves() {
    // The UD slice's set with the edge flips: a flip at a location is carried by
    // whether the edge there is one of the slice's (Kociemba's flip-slice), so with
    // the set alone as the key, the flips in the rest, fewer symmetries carry it.
    let (model, conj) = cube_symmetries();
    let c = Coords::new(&model, vec![ud_slice(), Part::Ori { orbit: 1 }]).unwrap();
    let set = [8u8, 9, 10, 11];
    let count = |alone: bool| {
        (conj.iter())
            .filter(|(_, m)| carries(&model, &c, (1, &set, alone), m))
            .count()
    };
    assert_eq!(count(false), 16);
    assert!(count(true) < 16, "{}", count(true));
}
