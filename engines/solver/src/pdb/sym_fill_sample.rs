//! The sample a fill of pairs ([`super`]) chooses its last level by (see
//! [`super::super::pairs_levels`]): unreached entries drawn in a fixed order, and whether
//! one or two letters lead to them from the level.

use super::{Fill, Level, Target};
use crate::pdb::entries::Entries;
use crate::pdb::pairs_levels::{draw, SAMPLE_CLASSES, SAMPLE_PER_CLASS};
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::AtomicU8;

impl<E: Entries> Fill<'_, E> {
    /// Of a sample of the unreached entries (a fixed draw: `classes` classes, the first
    /// of the same sequence whatever their number, and entries in each) when those
    /// reached are all at most a level `d` whose entries hold code `at`: how many were
    /// drawn, how many no letter leads to from an entry of code `at` (past level
    /// `d + 1`), and, with `two_steps`, how many of those no two letters lead to (past
    /// `d + 2`; else 0). Unit costs. Once `ctl` is cancelled the rest are not drawn (the
    /// fill stops at its next check, whatever this finds).
    pub(super) fn sample(
        &self,
        (t, at, cost): (&[AtomicU8], u8, &[u32]),
        (classes, two_steps): (u64, bool),
        ctl: &Control,
    ) -> (u64, u64, u64) {
        let red = self.red;
        let rest = red.rest_size;
        let lv = Level {
            t,
            d: 0,
            at,
            new: at,
            cost,
            unit: true,
            moves: &self.back,
            next: self.next.as_ref().map(|n| &n[1]),
            parts_next: self.parts_next.as_ref().map(|n| &n[1]),
            density: None,
            bits: None,
            ways: None,
            listed: None,
            record: None,
        };
        // Whether `hit` holds for an entry (class, rest) that a letter leads to entry `r`
        // from, by `to` (its class's targets).
        let any_from = |to: &[Target], r: u64, hit: &mut dyn FnMut((u64, u64)) -> bool| {
            to.iter()
                .enumerate()
                .any(|(l, target)| hit((target.base / rest, self.rest_to(&lv, l, target.sym, r))))
        };
        let is_at = |(class, r): (u64, u64)| E::get(t, class * rest + r) == at;
        (0..classes)
            .into_par_iter()
            .map(|k| {
                if ctl.cancelled() {
                    return (0, 0, 0);
                }
                let class = draw(k) % red.classes;
                let mut to = vec![Target::default(); self.letters];
                let mut to2 = to.clone();
                self.targets(class, &self.back, &mut to);
                let (mut drawn, mut past1, mut past2) = (0, 0, 0);
                for j in 0..SAMPLE_PER_CLASS {
                    let r = draw(SAMPLE_CLASSES + k * SAMPLE_PER_CLASS + j) % rest;
                    if E::get(t, class * rest + r) != E::UNREACHED {
                        continue;
                    }
                    drawn += 1;
                    if any_from(&to, r, &mut { is_at }) {
                        continue;
                    }
                    past1 += 1;
                    if two_steps {
                        let two = any_from(&to, r, &mut |(c, r)| {
                            self.targets(c, &self.back, &mut to2);
                            any_from(&to2, r, &mut { is_at })
                        });
                        past2 += !two as u64;
                    }
                }
                (drawn, past1, past2)
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }
}
