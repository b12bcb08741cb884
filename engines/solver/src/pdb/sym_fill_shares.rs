//! Per class, the share of its entries at the level a pull reads ([`super`]): a pulled
//! class tries first the letters whose target blocks hold most.

use super::Fill;
use super::Marks;
use crate::pdb::entries::Entries;
use crate::pdb::level_bits::LevelBits;
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Where the entries at a level are read: the table's codes, or the level as bits.
#[derive(Clone, Copy)]
pub(super) enum AtD<'a> {
    Code(&'a [AtomicU8], u8),
    Bits(&'a LevelBits),
}

impl<E: Entries> Fill<'_, E> {
    /// Per class, the share (of 255, rounded up: 0 only for none) of its entries at the
    /// level (`at_d`): 0 for the classes not in `at`. Once `ctl` is cancelled the rest are
    /// left (the level that follows stops at its first check).
    pub(super) fn densities(&self, at_d: AtD, at: &Marks, out: &[AtomicU8], ctl: &Control) {
        let rest = self.red.rest_size;
        (0..self.red.classes).into_par_iter().for_each(|class| {
            if ctl.cancelled() {
                return;
            }
            let share = if at.has(class) {
                let n = match at_d {
                    // An eighth of the bytes to read, when the level is held as bits.
                    AtD::Bits(bits) => bits.count_in(class * rest, rest),
                    AtD::Code(t, code) => E::count(t, class * rest, rest, code),
                };
                (n * 255).div_ceil(rest) as u8
            } else {
                0
            };
            out[class as usize].store(share, Relaxed);
        });
    }
}
