//! The bottom of the recursion: the runs of one coset of `H_0` walked on a bitset,
//! relative to the first run's start (on coordinates when they can be built, by ranks
//! to locate a repeat exactly).

use super::{Outcome, Stop, Tiler};
use crate::certify::runs::{each_letter, Run};
use crate::coords::{Coords, CoordsError};
use puz_core::Perm;

impl Tiler<'_> {
    /// Walks the runs of one coset of `H_0` on a bitset, relative to the first start.
    pub(super) fn walk(&mut self, runs: &[Run<'_>]) -> Result<Outcome, Stop> {
        self.counts.walks += 1;
        let n = self.orders[0] as u64;
        let steps: u128 = runs.iter().map(|r| r.len + 1).sum();
        self.walked = self.walked.saturating_add(steps);
        if self.walked > self.opts.max_walked {
            return Err(Stop::Budget(format!(
                "the certificate would walk more than {} positions of the bottom group (the \
                 cosets of the bottom group are visited in pieces that are not remembered)",
                self.opts.max_walked
            )));
        }
        if n >= self.opts.fast_walk_from {
            if let Some(out) = self.walk_coords(runs)? {
                return Ok(out);
            }
        }
        self.ctl
            .reserve("a bitset of the bottom group", n.div_ceil(8))?;
        let mut bits = vec![0u64; n.div_ceil(64) as usize];
        let anchor = runs[0].start.clone();
        let anchor_inv = anchor.inverse();
        let mut covered = 0u128;
        let found = self.scan(runs, &anchor_inv, &mut |r, _, _| {
            let (w, m) = ((r >> 6) as usize, 1u64 << (r & 63));
            let seen = bits[w] & m != 0;
            bits[w] |= m;
            covered += 1;
            !seen
        })?;
        let Some((index, rank, rel)) = found else {
            return Ok(Outcome::Covered(covered));
        };
        // The first visit of the repeated position.
        let first = self
            .scan(runs, &anchor_inv, &mut |r, _, _| r != rank)?
            .map(|(i, _, _)| i)
            .expect("a repeated position was seen before");
        Ok(Outcome::Repeat {
            index,
            repeats: first,
            position: anchor.then(&rel),
            entered: runs[0].pos0,
        })
    }

    /// The walk of [`Self::walk`] on coordinates (a table look-up a letter, where ranking
    /// composes and ranks a permutation): `Covered` when no position repeats, `None` when
    /// one does or no coordinates can be built (the exact walk then says where).
    fn walk_coords(&mut self, runs: &[Run<'_>]) -> Result<Option<Outcome>, Stop> {
        let alpha = self.runs.alpha;
        if self.coords.is_none() {
            let degree = runs[0].start.degree();
            let perms: Vec<Perm> = (0..alpha.len() as u32)
                .map(|x| match self.runs.member(0, x) {
                    true => alpha.perms[x as usize].clone(),
                    false => Perm::identity(degree),
                })
                .collect();
            let n = self.orders[0] as u64;
            let max_space = n
                .saturating_mul(8)
                .min(self.ctl.memory_left().saturating_mul(4));
            self.coords = Some(
                match Coords::new(perms, degree, 1 << 25, max_space, self.ctl) {
                    Ok(c) => Some(c),
                    Err(CoordsError::Interrupt(i)) => return Err(i.into()),
                    Err(CoordsError::TooLarge(_)) => None,
                },
            );
        }
        let Some(Some(coords)) = &self.coords else {
            return Ok(None);
        };
        self.ctl.reserve(
            "a bitset of the bottom group's coordinates",
            coords.space.div_ceil(8),
        )?;
        let mut bits = vec![0u64; coords.space.div_ceil(64) as usize];
        let anchor_inv = runs[0].start.inverse();
        let mut covered = 0u128;
        for r in runs {
            let rel = anchor_inv.then(&r.start);
            // Each run's start is checked to lie in the bottom group: its letters keep it there.
            if self.bottom.rank(&rel).is_none() {
                return Err(Stop::Budget(
                    "the coset keys of H0 put positions of different cosets together".to_string(),
                ));
            }
            let Some(c) = coords.encode(&rel) else {
                return Ok(None);
            };
            let mut idx = coords.index(&c);
            let mut mark = |i: u64| {
                let (w, m) = ((i >> 6) as usize, 1u64 << (i & 63));
                let fresh = bits[w] & m == 0;
                bits[w] |= m;
                fresh
            };
            if !mark(idx) {
                return Ok(None);
            }
            covered += 1;
            let mut count = 0u32;
            let mut cancelled = false;
            for &(w, inv) in &r.segs {
                let go = each_letter(alpha, w, inv, &mut |x| {
                    count = count.wrapping_add(1);
                    if count & 0xffff == 0 && self.ctl.cancelled() {
                        cancelled = true;
                        return false;
                    }
                    idx = coords.step_index(idx, x as usize);
                    covered += 1;
                    mark(idx)
                });
                if cancelled {
                    self.ctl.check()?;
                }
                if !go {
                    return Ok(None);
                }
            }
        }
        Ok(Some(Outcome::Covered(covered)))
    }

    /// Visits the positions of the runs in order as ranks relative to the anchor; stops
    /// at the first where `f(rank, index, position)` is false and returns it.
    #[allow(clippy::type_complexity)]
    fn scan(
        &self,
        runs: &[Run<'_>],
        anchor_inv: &Perm,
        f: &mut dyn FnMut(u64, u128, &Perm) -> bool,
    ) -> Result<Option<(u128, u64, Perm)>, Stop> {
        let alpha = self.runs.alpha;
        for r in runs {
            let mut cur = anchor_inv.then(&r.start);
            let mut idx = r.pos0;
            let mut stop: Option<Result<(u128, u64, Perm), Stop>> = None;
            let mut visit = |cur: &Perm, idx: u128, stop: &mut Option<_>| -> bool {
                if idx & 0xffff == 0 {
                    if let Err(e) = self.ctl.check() {
                        *stop = Some(Err(e.into()));
                        return false;
                    }
                }
                let Some(k) = self.bottom.rank(cur) else {
                    *stop = Some(Err(Stop::Budget(
                        "the coset keys of H0 put positions of different cosets together"
                            .to_string(),
                    )));
                    return false;
                };
                if !f(k, idx, cur) {
                    *stop = Some(Ok((idx, k, cur.clone())));
                    return false;
                }
                true
            };
            if visit(&cur, idx, &mut stop) {
                for &(w, inv) in &r.segs {
                    let go = each_letter(alpha, w, inv, &mut |x| {
                        cur.then_assign(&alpha.perms[x as usize]);
                        idx += 1;
                        visit(&cur, idx, &mut stop)
                    });
                    if !go {
                        break;
                    }
                }
            }
            if let Some(s) = stop {
                return s.map(Some);
            }
        }
        Ok(None)
    }
}
