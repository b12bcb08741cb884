//! The recursive rule: the runs that land in one coset of `H_l` visit it exactly once.
//!
//! Level 0 is walked with a bitset relative to the first run's start; above, the runs are
//! split at the letters outside `H_{l-1}`, grouped by the coset key of their starts and
//! each group is tiled one level down. A single run that covers its whole coset is
//! remembered (by its segments and level) and never decomposed again.

use super::runs::{each_letter, NodeId, Run, Runs};
use super::{Options, Subgroup};
use puz_core::{Alphabet, Control, Interrupt, Perm, Ranker};
use std::collections::{HashMap, HashSet};

/// Why the tiling stopped early.
pub enum Stop {
    Interrupt(Interrupt),
    /// A budget was exceeded or an oracle contradicted itself: cannot certify.
    Budget(String),
}

impl From<Interrupt> for Stop {
    fn from(i: Interrupt) -> Self {
        Stop::Interrupt(i)
    }
}

/// What the runs of one coset do.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// No position repeats; this many distinct positions are visited.
    Covered(u128),
    /// The earliest repeated position (index of the second visit and of the first).
    Repeat {
        index: u128,
        repeats: u128,
        position: Perm,
        entered: u128,
    },
}

pub struct Tiler<'a> {
    pub runs: Runs<'a>,
    levels: &'a [&'a dyn Subgroup],
    orders: Vec<u128>,
    bottom: &'a dyn Ranker,
    opts: &'a Options,
    ctl: &'a Control,
    /// Runs known to be Hamilton on their whole coset: (level, segments).
    whole: HashSet<(usize, Vec<(NodeId, bool)>)>,
}

impl<'a> Tiler<'a> {
    pub fn new(
        alpha: &'a Alphabet,
        levels: &'a [&'a dyn Subgroup],
        bottom: &'a dyn Ranker,
        opts: &'a Options,
        ctl: &'a Control,
    ) -> Tiler<'a> {
        let member = levels
            .iter()
            .map(|h| alpha.perms.iter().map(|p| h.contains(p)).collect())
            .collect();
        Tiler {
            runs: Runs::new(alpha, member),
            levels,
            orders: levels.iter().map(|h| h.order()).collect(),
            bottom,
            opts,
            ctl,
            whole: HashSet::new(),
        }
    }

    /// Tiles the coset of `H_l` that the runs (in word order, all starting in one coset,
    /// all letters in `H_l`) land in.
    pub fn tile(&mut self, l: usize, runs: Vec<Run<'_>>) -> Result<Outcome, Stop> {
        self.ctl.check()?;
        let single = (runs.len() == 1).then(|| (l, runs[0].key()));
        if let Some(k) = &single {
            if self.whole.contains(k) {
                return Ok(Outcome::Covered(self.orders[l]));
            }
        }
        let out = if l == 0 {
            self.walk(&runs)?
        } else {
            self.split_and_tile(l, &runs)?
        };
        if let (Some(k), Outcome::Covered(n)) = (single, &out) {
            if *n == self.orders[l] {
                self.whole.insert(k);
            }
        }
        Ok(out)
    }

    fn split_and_tile(&mut self, l: usize, runs: &[Run<'_>]) -> Result<Outcome, Stop> {
        let max = self.opts.max_runs;
        let mut subs = Vec::new();
        for r in runs {
            self.ctl.check()?;
            self.runs.split(r, l - 1, max, &mut subs).map_err(|n| {
                Stop::Budget(format!(
                    "more than {max} runs of H{} in one coset of level {l} ({n} so far)",
                    l - 1
                ))
            })?;
        }
        let below = self.levels[l - 1];
        let mut slot: HashMap<Vec<u16>, usize> = HashMap::new();
        let mut groups: Vec<Vec<Run<'_>>> = Vec::new();
        for s in subs {
            let k = below.coset_key(&s.start);
            let g = *slot.entry(k).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(s);
        }
        let mut best: Option<Outcome> = None;
        let mut covered = 0u128;
        for g in groups {
            if let Some(Outcome::Repeat { index, .. }) = &best {
                // Every repeat in this group comes after its first position.
                if g[0].pos0 >= *index {
                    continue;
                }
            }
            match self.tile(l - 1, g)? {
                Outcome::Covered(n) => covered += n,
                rep @ Outcome::Repeat { .. } => {
                    let earlier = match (&rep, &best) {
                        (
                            Outcome::Repeat { index: a, .. },
                            Some(Outcome::Repeat { index: b, .. }),
                        ) => a < b,
                        _ => true,
                    };
                    if earlier {
                        best = Some(rep);
                    }
                }
            }
        }
        Ok(best.unwrap_or(Outcome::Covered(covered)))
    }

    /// Walks the runs of one coset of `H_0` on a bitset, relative to the first start.
    fn walk(&mut self, runs: &[Run<'_>]) -> Result<Outcome, Stop> {
        let n = self.orders[0] as u64;
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
