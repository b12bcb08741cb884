//! The group side as the Hamilton engine needs it. The caller implements these with a
//! group engine (the interpreter uses puz-group's stabiliser chains and `CosetKeys`), so
//! this crate depends on puz-core only.

use puz_core::Perm;

/// A subgroup `H` known by its order and exact keys of its left cosets (what a
/// construction along a chain needs).
pub trait CosetKey: Sync {
    /// `|H|` (saturating).
    fn order(&self) -> u128;
    /// An exact key of the left coset `x·H = {x.then(h)}` (`x` as images) into `out`:
    /// equal keys exactly when `x⁻¹·x'` lies in `H`.
    fn coset_key(&self, x: &[u16], out: &mut Vec<u16>);

    /// The key of `x`'s coset, in a vector of its own.
    fn key(&self, x: &Perm) -> Vec<u16> {
        let mut out = Vec::new();
        self.coset_key(x.images(), &mut out);
        out
    }
}

/// A subgroup as a certificate needs it: also membership and generators, to check that
/// the chain given is a chain.
pub trait Subgroup: CosetKey {
    fn contains(&self, p: &Perm) -> bool;
    fn generators(&self) -> Vec<Perm>;
}
