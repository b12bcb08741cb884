//! The ranking contract between engines: a bijection between a group and `0..size`.
//!
//! The group engine implements it with its stabiliser chain (mixed radix); the Hamilton
//! and solver engines index bitsets and distance tables by it. Engines depend on this
//! trait, not on each other.

use crate::perm::Perm;

/// A bijection between the elements of a group and `0..size()`.
pub trait Ranker: Sync + Send {
    /// The number of elements (when it fits in a `u64`; otherwise `None`).
    fn size(&self) -> Option<u64>;
    /// The rank of `p`, or `None` when `p` is not in the group.
    fn rank(&self, p: &Perm) -> Option<u64>;
    /// The element with rank `r` (`r < size`).
    fn unrank(&self, r: u64) -> Perm;
}
