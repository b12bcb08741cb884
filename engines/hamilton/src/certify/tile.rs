//! The recursive rule: the runs that land in one coset of `H_l` visit it exactly once.
//!
//! Level 0 is walked with a bitset relative to the first run's start; above, the runs are
//! split at the letters outside `H_{l-1}`, grouped by the coset key of their starts and
//! each group is tiled one level down. A single run that covers its whole coset is
//! remembered (by its segments and level) and never decomposed again.

use super::runs::{id, NodeId, Run, Runs, Seg, SplitStop};
use super::slices::{same_letters, Segs};
use super::{Options, Subgroup};
use crate::coords::Coords;
use puz_core::control::human_bytes;
use puz_core::progress::Pace;
use puz_core::Word;
use puz_core::{Alphabet, Control, Interrupt, Perm, Ranker};
use rustc_hash::FxHashMap as HashMap;
use std::hash::{Hash, Hasher};

mod rotations;
mod walks;

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
    /// A coset of `H_level` too large to search for the exact repeat holds more positions
    /// than it has elements: runs entering at `entered`, again at `again`, ...
    Overfull {
        level: usize,
        entered: u128,
        again: u128,
        positions: u128,
    },
}

impl Outcome {
    /// The outcome moved by `pos0` letters and `start` (from relative to absolute), or
    /// back when `back`.
    fn shift(&self, pos0: u128, start: &Perm, back: bool) -> Outcome {
        let i = |x: u128| if back { x - pos0 } else { x + pos0 };
        match self {
            Outcome::Covered(n) => Outcome::Covered(*n),
            Outcome::Repeat {
                index,
                repeats,
                position,
                entered,
            } => Outcome::Repeat {
                index: i(*index),
                repeats: i(*repeats),
                position: if back {
                    start.inverse().then(position)
                } else {
                    start.then(position)
                },
                entered: i(*entered),
            },
            Outcome::Overfull {
                level,
                entered,
                again,
                positions,
            } => Outcome::Overfull {
                level: *level,
                entered: i(*entered),
                again: i(*again),
                positions: *positions,
            },
        }
    }

    /// Where the failure is, for choosing the earliest.
    fn at(&self) -> Option<u128> {
        match self {
            Outcome::Covered(_) => None,
            Outcome::Repeat { index, .. } => Some(*index),
            Outcome::Overfull { again, .. } => Some(*again),
        }
    }
}

pub struct Tiler<'a> {
    pub runs: Runs<'a>,
    levels: &'a [&'a dyn Subgroup],
    orders: Vec<u128>,
    bottom: &'a dyn Ranker,
    opts: &'a Options,
    ctl: &'a Control,
    /// What a single run does in its coset, by (level, segments), relative to its start
    /// (position indices from 0, positions from the identity): the outcome does not
    /// depend on where the run starts, since left multiplication maps cosets to cosets.
    memo: HashMap<(usize, Vec<(NodeId, bool)>), Outcome>,
    /// Positions walked at the bottom so far.
    walked: u128,
    /// Words certified to visit a whole coset of `H_l` once, by level and product (see
    /// [`super::slices`]).
    #[allow(clippy::type_complexity)]
    paths: Vec<HashMap<Perm, Vec<Vec<(Word, bool)>>>>,
    /// How many words `paths` keeps at each level.
    kept: Vec<usize>,
    /// One word per letter, for the letters that join slices.
    letters: &'static [Word],
    /// Bytes of the runs held by the levels above (being tiled).
    held: u64,
    /// When the top level's progress is next reported.
    pace: Pace,
    /// Coordinates of the bottom group for fast walks (`Some(None)`: they cannot be built).
    coords: Option<Option<Coords>>,
    /// What the certificate did, for its progress line: runs split by level, bottom
    /// cosets walked, runs recognised as rotations or as known paths.
    pub(super) counts: Counts,
}

#[derive(Default, Debug)]
pub(super) struct Counts {
    pub splits: Vec<u64>,
    pub walks: u64,
    pub rotations: u64,
    pub known: u64,
}

/// Steps one comparison of slices with a certified path may take.
const COMPARE_BUDGET: u64 = 1 << 16;
/// Certified paths kept per level: a construction has a few distinct paths of each
/// level, and a new one is certified (and kept) at most once.
const PATHS_KEPT: usize = 1 << 16;
/// Certified paths kept for one product (compared one by one).
const PATHS_PER_PRODUCT: usize = 256;
/// Of those, how many may be rotations left by a run certified the slow way (so that they
/// never crowd out the paths themselves).
pub(super) const ROTATIONS_PER_PRODUCT: usize = 16;

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
            memo: HashMap::default(),
            walked: 0,
            paths: vec![HashMap::default(); levels.len()],
            kept: vec![0; levels.len()],
            // Leaked once per certificate: a word per letter of the alphabet.
            letters: Box::leak(
                (0..alpha.len() as u32)
                    .map(Word::Letter)
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            ),
            held: 0,
            pace: Pace::new(std::time::Duration::from_millis(250)),
            coords: None,
            counts: Counts {
                splits: vec![0; levels.len()],
                ..Counts::default()
            },
        }
    }

    /// Tiles the coset of `H_l` that the runs (in word order, all starting in one coset,
    /// all letters in `H_l`) land in.
    pub fn tile(&mut self, l: usize, runs: Vec<Run<'_>>) -> Result<Outcome, Stop> {
        self.ctl.check()?;
        let single = (runs.len() == 1).then(|| (l, self.key(&runs[0].segs, false)));
        if let Some(k) = &single {
            if let Some(o) = self.memo.get(k) {
                return Ok(o.shift(runs[0].pos0, &runs[0].start, false));
            }
            // The same letters read backwards visit as many distinct positions (those of
            // the run started at its start times the inverse of its product, in reverse).
            let back = (l, self.key(&runs[0].segs, true));
            if let Some(Outcome::Covered(n)) = self.memo.get(&back) {
                return Ok(Outcome::Covered(*n));
            }
        }
        if runs.len() > 1 {
            if let Some(out) = self.slices(l, &runs)? {
                return Ok(out);
            }
        }
        let positions = runs.iter().map(|r| r.len + 1).sum::<u128>();
        let out = if positions > self.orders[l] && self.orders[l] > self.opts.exact_below {
            // More positions than elements: a repeat for certain (pigeonhole); finding the
            // first exactly could mean descending the whole coset.
            Outcome::Overfull {
                level: l,
                entered: runs[0].pos0,
                again: runs.get(1).map_or(runs[0].pos0, |r| r.pos0),
                positions,
            }
        } else if runs.len() == 1 && positions == self.orders[l] && self.rotation(l, &runs[0])? {
            Outcome::Covered(positions)
        } else {
            let out = if l == 0 {
                self.walk(&runs)?
            } else {
                self.split_and_tile(l, &runs)?
            };
            if runs.len() == 1 && matches!(out, Outcome::Covered(n) if n == self.orders[l]) {
                self.register_rotations(l, &runs[0]);
            }
            out
        };
        if let Some(k) = single {
            self.memo
                .insert(k, out.shift(runs[0].pos0, &runs[0].start, true));
            self.register(l, &runs[0], &out);
        }
        Ok(out)
    }

    /// The identity of segments for memoisation (of their inverse when `back`): their
    /// nodes' identities, a letter read inverted named as its inverse letter.
    fn key(&self, segs: &[Seg<'_>], back: bool) -> Vec<(NodeId, bool)> {
        let alpha = self.runs.alpha;
        let one = |&(w, inv): &Seg<'_>| {
            let inv = inv ^ back;
            match w {
                Word::Letter(x) if inv => (id(&Word::Letter(alpha.inverse[*x as usize])), false),
                _ => (id(w), inv),
            }
        };
        if back {
            segs.iter().rev().map(one).collect()
        } else {
            segs.iter().map(one).collect()
        }
    }

    /// Remembers a run that visits a whole coset of `H_l` once, by its product.
    fn register(&mut self, l: usize, run: &Run<'_>, out: &Outcome) {
        if !matches!(out, Outcome::Covered(n) if *n == self.orders[l]) || self.kept[l] >= PATHS_KEPT
        {
            return;
        }
        let product = run.start.inverse().then(&self.end(run));
        let segs: Vec<(Word, bool)> = run.segs.iter().map(|&(w, i)| (w.clone(), i)).collect();
        // Its inverse covers a coset too (read backwards from the other end).
        let back: Vec<(Word, bool)> = segs.iter().rev().map(|(w, i)| (w.clone(), !i)).collect();
        self.keep(l, product.inverse(), back, PATHS_PER_PRODUCT);
        self.keep(l, product, segs, PATHS_PER_PRODUCT);
    }

    /// Keeps a certified path of `H_l` with its product, while there is room.
    pub(super) fn keep(&mut self, l: usize, product: Perm, segs: Vec<(Word, bool)>, cap: usize) {
        if self.kept[l] >= PATHS_KEPT {
            return;
        }
        let bucket = self.paths[l].entry(product).or_default();
        if bucket.len() < cap {
            bucket.push(segs);
            self.kept[l] += 1;
        }
    }

    /// The letter of `H_l` whose permutation is `p`, if any.
    fn letter_in(&self, l: usize, p: &Perm) -> Option<u32> {
        let alpha = self.runs.alpha;
        (0..alpha.len() as u32).find(|&g| alpha.perms[g as usize] == *p && self.runs.member(l, g))
    }

    /// The position after a run's last letter.
    fn end(&mut self, run: &Run<'_>) -> Perm {
        let mut end = run.start.clone();
        for &(w, inv) in &run.segs {
            end = end.then(&self.runs.eval(w, inv));
        }
        end
    }

    /// The order in which the runs of one coset are pieces of one path: each run followed
    /// by the run that starts one letter of `H_l` after its end (word order preferred),
    /// every run once. The runs' indices and the joining letters, or `None`.
    fn chain(&self, l: usize, runs: &[Run<'_>], ends: &[Perm]) -> Option<Vec<(usize, u32)>> {
        let alpha = self.runs.alpha;
        let n = runs.len();
        let letters: Vec<u32> = (0..alpha.len() as u32)
            .filter(|&g| self.runs.member(l, g))
            .collect();
        let joins = |i: usize, j: usize| self.letter_in(l, &ends[i].inverse().then(&runs[j].start));
        let mut next: Vec<Option<(usize, u32)>> = vec![None; n];
        let mut at: HashMap<&Perm, usize> = HashMap::default();
        for (i, r) in runs.iter().enumerate() {
            if at.insert(&r.start, i).is_some() {
                return None; // two runs start at one position
            }
        }
        for i in 0..n {
            next[i] = (i + 1 < n)
                .then(|| joins(i, i + 1).map(|g| (i + 1, g)))
                .flatten()
                .or_else(|| {
                    letters.iter().find_map(|&g| {
                        let p = ends[i].then(&alpha.perms[g as usize]);
                        at.get(&p).filter(|&&j| j != i).map(|&j| (j, g))
                    })
                });
        }
        let mut indeg = vec![0usize; n];
        for &(j, _) in next.iter().flatten() {
            indeg[j] += 1;
        }
        let heads: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
        let head = match heads.len() {
            0 => 0, // the pieces close into a cycle: start anywhere
            1 => heads[0],
            _ => return None,
        };
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut i = head;
        loop {
            seen[i] = true;
            match next[i] {
                Some((j, g)) if !seen[j] && order.len() + 1 < n => {
                    order.push((i, g));
                    i = j;
                }
                _ => {
                    order.push((i, u32::MAX));
                    break;
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// The runs of one coset as slices of one path ([`super::slices`]): put in the order
    /// in which single letters of `H_l` join each to the next (word order when it does),
    /// compared with the paths certified so far that have the same product, or else tiled
    /// as one run (and remembered when it covers the coset). `None` when no such order
    /// exists or the joined run does not cover its positions once: the runs are then tiled
    /// one by one (which also finds the exact first repeat).
    fn slices(&mut self, l: usize, runs: &[Run<'_>]) -> Result<Option<Outcome>, Stop> {
        let ends: Vec<Perm> = runs.iter().map(|r| self.end(r)).collect();
        let Some(order) = self.chain(l, runs, &ends) else {
            return Ok(None);
        };
        let (head, last) = (order[0].0, order[order.len() - 1].0);
        let mut segs = Vec::new();
        let mut len = 0u128;
        for &(i, g) in &order {
            segs.extend(runs[i].segs.iter().copied());
            len += runs[i].len;
            if g != u32::MAX {
                segs.push((&self.letters[g as usize], false));
                len += 1;
            }
        }
        let joined = Run {
            segs,
            start: runs[head].start.clone(),
            pos0: runs[head].pos0,
            len,
        };
        if len + 1 == self.orders[l] {
            let product = runs[head].start.inverse().then(&ends[last]);
            if self.known(l, &joined.segs, &product)? {
                return Ok(Some(Outcome::Covered(len + 1)));
            }
        }
        let out = self.tile(l, vec![joined])?;
        Ok(matches!(out, Outcome::Covered(_)).then_some(out))
    }

    /// Whether `segs` (with this product) spell a path certified to cover a coset of `H_l`.
    fn known(&mut self, l: usize, segs: &[Seg<'_>], product: &Perm) -> Result<bool, Stop> {
        let Some(mut known) = self.paths[l].remove(product) else {
            return Ok(false);
        };
        let mut hit = None;
        for (k, p) in known.iter().enumerate() {
            self.ctl.check()?;
            if same_letters(
                &mut self.runs,
                Segs::Run(segs),
                Segs::Held(p),
                COMPARE_BUDGET,
            ) {
                hit = Some(k);
                break;
            }
        }
        if let Some(k) = hit {
            self.counts.known += 1;
            // The path that matched is tried first next time.
            known[..=k].rotate_right(1);
        }
        self.paths[l].insert(product.clone(), known);
        Ok(hit.is_some())
    }

    fn split_and_tile(&mut self, l: usize, runs: &[Run<'_>]) -> Result<Outcome, Stop> {
        self.counts.splits[l] += runs.len() as u64;
        // Runs are held until their coset is tiled: as many as the memory left holds.
        let degree = runs[0].start.degree();
        let room = self.ctl.memory_left().saturating_sub(self.held) / Run::bytes(1, degree);
        let max = self.opts.max_runs.min(room as usize);
        let mut subs = Vec::new();
        for r in runs {
            self.ctl.check()?;
            match self.runs.split(r, l - 1, max, &mut subs, self.ctl) {
                Ok(()) => {}
                Err(SplitStop::Interrupt(i)) => return Err(i.into()),
                Err(SplitStop::TooMany(_)) if max < self.opts.max_runs => {
                    return Err(Stop::Budget(format!(
                        "more than {max} runs of H{} in one coset of level {l}, more than the \
                         memory left holds ({})",
                        l - 1,
                        human_bytes(self.ctl.memory_left().saturating_sub(self.held))
                    )))
                }
                Err(SplitStop::TooMany(n)) => {
                    return Err(Stop::Budget(format!(
                        "more than {max} runs of H{} in one coset of level {l} ({n} so far)",
                        l - 1
                    )))
                }
            }
        }
        let bytes: u64 = subs.iter().map(|s| Run::bytes(s.segs.len(), degree)).sum();
        self.held += bytes;
        let out = self.tile_groups(l, subs);
        self.held -= bytes;
        out
    }

    /// Groups the runs split from level `l` by the coset of `H_{l-1}` they start in, and
    /// tiles each group.
    fn tile_groups(&mut self, l: usize, subs: Vec<Run<'_>>) -> Result<Outcome, Stop> {
        let below = self.levels[l - 1];
        // Grouped by sorting on a hash of the key (ties kept in order), then each run of
        // equal hashes checked key by key (and split exactly when two cosets share a
        // hash), the groups taken in the order of their first run. A group's runs are
        // gathered only when it is tiled. Keys held for millions of cosets of one or two
        // runs each took more memory than the runs themselves.
        let mut order: Vec<u32> = (0..subs.len() as u32).collect();
        let groups: Vec<(u32, usize, usize)> = {
            let mut buf = Vec::new();
            let key_of = |i: u32, buf: &mut Vec<u16>| {
                buf.clear();
                below.coset_key(subs[i as usize].start.images(), buf);
            };
            let hashes: Vec<u64> = (0..subs.len() as u32)
                .map(|i| {
                    key_of(i, &mut buf);
                    let mut h = rustc_hash::FxHasher::default();
                    buf.hash(&mut h);
                    // The tests share out four hashes only, so that cosets sharing a hash
                    // (rare at 64 bits) are met in every certificate they check.
                    if cfg!(test) {
                        h.finish() & 3
                    } else {
                        h.finish()
                    }
                })
                .collect();
            order.sort_by_key(|&a| hashes[a as usize]);
            let mut gs = Vec::new();
            let (mut first, mut other) = (Vec::new(), Vec::new());
            let mut i = 0;
            while i < order.len() {
                let h = hashes[order[i] as usize];
                let mut j = i + 1;
                while j < order.len() && hashes[order[j] as usize] == h {
                    j += 1;
                }
                key_of(order[i], &mut first);
                let same = order[i + 1..j].iter().all(|&k| {
                    key_of(k, &mut other);
                    other == first
                });
                if same {
                    gs.push((order[i], i, j));
                } else {
                    // Two cosets with one hash: this stretch sorted by the keys themselves.
                    let keys: Vec<Vec<u16>> = order[i..j]
                        .iter()
                        .map(|&k| {
                            key_of(k, &mut other);
                            other.clone()
                        })
                        .collect();
                    let mut idx: Vec<usize> = (0..j - i).collect();
                    idx.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
                    let stretch: Vec<u32> = idx.iter().map(|&a| order[i + a]).collect();
                    order[i..j].copy_from_slice(&stretch);
                    let mut a = 0;
                    while a < idx.len() {
                        let mut b = a + 1;
                        while b < idx.len() && keys[idx[b]] == keys[idx[a]] {
                            b += 1;
                        }
                        gs.push((order[i + a], i + a, i + b));
                        a = b;
                    }
                }
                i = j;
            }
            gs.sort_unstable_by_key(|g| g.0);
            gs
        };
        let mut subs: Vec<Option<Run<'_>>> = subs.into_iter().map(Some).collect();
        let mut best: Option<Outcome> = None;
        let mut covered = 0u128;
        let total = groups.len() as u64;
        let top = l + 1 == self.levels.len();
        for (done, &(_, from, to)) in groups.iter().enumerate() {
            if top && self.ctl.reporting() && self.pace.due() {
                let c = &self.counts;
                let what = format!(
                    "level {} has {total} (runs split by level {:?}, walks {}, known paths {}, rotations {})",
                    l - 1,
                    c.splits,
                    c.walks,
                    c.known,
                    c.rotations
                );
                // No total, so no time left is guessed: the first cosets, where splices
                // split paths, take most of the time, and a rate taken from them
                // foretold hours for a certificate of two minutes.
                self.ctl
                    .step("certificate", &what, done as u64, 0, "cosets");
            }
            let g: Vec<Run<'_>> = order[from..to]
                .iter()
                .map(|&k| subs[k as usize].take().expect("each run in one group"))
                .collect();
            if let Some(at) = best.as_ref().and_then(|b| b.at()) {
                // Every repeat in this group comes after its first position.
                if g[0].pos0 >= at {
                    continue;
                }
            }
            let out = self.tile(l - 1, g)?;
            match out.at() {
                None => {
                    if let Outcome::Covered(n) = out {
                        covered += n
                    }
                }
                Some(at) => {
                    if best.as_ref().and_then(|b| b.at()).is_none_or(|b| at < b) {
                        best = Some(out);
                    }
                }
            }
        }
        Ok(best.unwrap_or(Outcome::Covered(covered)))
    }
}
