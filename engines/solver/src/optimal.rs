//! in progress
pub struct Optimal; pub struct OptimalOptions; pub struct Solution;
pub fn optimal() {}
