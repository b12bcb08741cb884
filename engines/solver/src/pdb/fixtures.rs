//! Test fixtures of the pattern databases: models with a metric's letters as actions.

use super::Part;
use crate::metric::Metric;
use crate::model::{Action, Model};
use crate::testsupport::{actions_of, cube2};

pub(super) fn setup() -> (Model, Metric, Vec<Action>) {
    let c2 = cube2();
    let model = Model::new(&c2).unwrap();
    let htm = Metric::htm(&c2, &[], &puz_core::Control::default()).unwrap();
    let actions = actions_of(&model, &htm);
    (model, htm, actions)
}

/// The 3x3x3's model, its htm metric and the metric's letters as actions.
pub(super) fn cube3_htm() -> (Model, Metric, Vec<Action>) {
    cube3_metric("htm")
}

/// The 3x3x3's model, its metric `name` (htm, qtm or atm) of the face turns and the
/// metric's letters as actions.
pub(crate) fn cube3_metric(name: &str) -> (Model, Metric, Vec<Action>) {
    let c3 = crate::testsupport::cube3();
    let model = Model::new(&c3).unwrap();
    let faces = ["U", "D", "R", "L", "F", "B"];
    let ctl = puz_core::Control::default();
    let metric = match name {
        "qtm" => Metric::qtm(&c3, &faces, &ctl),
        "atm" => Metric::atm(&c3, &faces, &ctl),
        _ => Metric::htm(&c3, &faces, &ctl),
    }
    .unwrap();
    let actions = actions_of(&model, &metric);
    (model, metric, actions)
}

/// The 2x2x2's model, its qtm metric and the metric's letters as actions.
pub(super) fn cube2_qtm() -> (Model, Metric, Vec<Action>) {
    let c2 = cube2();
    let model = Model::new(&c2).unwrap();
    let qtm = Metric::qtm(&c2, &[], &puz_core::Control::default()).unwrap();
    let actions = actions_of(&model, &qtm);
    (model, qtm, actions)
}

/// The 3x3x3's UD slice as a set part: where its four edges are.
pub(crate) fn ud_slice() -> Part {
    Part::Set {
        orbit: 1,
        pieces: vec![8, 9, 10, 11],
    }
}

/// The 3x3x3's U layer's corners as a set part.
pub(super) fn u_layer() -> Part {
    Part::Set {
        orbit: 0,
        pieces: vec![0, 1, 2, 3],
    }
}

/// The state the letters `moves` (indices into `actions`) make from the solved one.
pub(super) fn state_after(model: &Model, actions: &[Action], moves: &[usize]) -> Vec<u8> {
    let mut s = model.solved();
    let mut out = s.clone();
    for &m in moves {
        model.apply(&actions[m], &s, &mut out);
        std::mem::swap(&mut s, &mut out);
    }
    s
}
