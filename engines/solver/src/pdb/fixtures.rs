//! Test fixtures of the pattern databases: models with a metric's letters as actions.

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
    let c3 = crate::testsupport::cube3();
    let model = Model::new(&c3).unwrap();
    let htm = Metric::htm(
        &c3,
        &["U", "D", "R", "L", "F", "B"],
        &puz_core::Control::default(),
    )
    .unwrap();
    let actions = actions_of(&model, &htm);
    (model, htm, actions)
}

/// The 2x2x2's model, its qtm metric and the metric's letters as actions.
pub(super) fn cube2_qtm() -> (Model, Metric, Vec<Action>) {
    let c2 = cube2();
    let model = Model::new(&c2).unwrap();
    let qtm = Metric::qtm(&c2, &[], &puz_core::Control::default()).unwrap();
    let actions = actions_of(&model, &qtm);
    (model, qtm, actions)
}
