//! The depth-first search of one thread, below the first letters of a task: at each node,
//! every child's bound is found in sweeps over the children (so the cache misses of the
//! siblings overlap) before the search goes below any of them.

use super::bound::{First, Parent, Probe, Scratch, ROUNDS};
use super::fixed::Kept;
use super::heads::Task;
use super::necklace::Necklace;
use super::plan::Shared;
use super::schedule::Team;
use super::Solver;
use crate::canon::Canon;
use crate::error::SolveError;
use crate::prefetch::prefetch;
use puz_core::Control;

/// Per depth: the buffers of the node there and of its children.
struct Levels {
    /// The node's state.
    bufs: Vec<Vec<u8>>,
    /// The children's states, and their first look-up (hint, index). A child's state is
    /// made for a first look-up that needs it, else once that look-up leaves the child
    /// (`applied`: made already).
    kids: Vec<Vec<u8>>,
    applied: Vec<Vec<bool>>,
    /// The children the rotation, reversal and image rules leave out.
    ruled: Vec<Vec<bool>>,
    /// The symmetries that map the path to the node onto itself (see
    /// [`Necklace::image_below`]).
    tied: Vec<u64>,
    first: Vec<Vec<First>>,
    /// The children's bounds in progress, their upper bounds (as `ubs`), and the children
    /// not cut (so far).
    probes: Vec<Vec<Probe>>,
    kid_ubs: Vec<Vec<u8>>,
    pending: Vec<Vec<usize>>,
    /// Upper bounds of the node's table values, (variant, table) after (variant, table)
    /// (see [`Parent`]).
    ubs: Vec<Vec<u8>>,
    /// The node's followed values, and its children's, child after child (see
    /// [`Incremental`](super::incremental::Incremental)).
    vals: Vec<Vec<u32>>,
    kid_vals: Vec<Vec<u32>>,
    /// The node's look-ups whose value in `ubs` is exact (bits, see `fixed.rs`), and per
    /// child: what it keeps of the node's (see [`Kept`]), and its own exact ones.
    exact: Vec<u64>,
    kept: Vec<Vec<(Kept, u64)>>,
    /// The letters no solution within the bound below the node can end with, and its
    /// children's (see `ends.rs`).
    excluded: Vec<u64>,
    kid_excluded: Vec<Vec<u64>>,
}

/// One thread's search of one task at one cost bound.
pub(super) struct Search<'a> {
    s: &'a Solver,
    canon: &'a Canon,
    bound: u32,
    /// The task searched, and what the threads share (see [`Team`]).
    team: Team<'a>,
    /// The rotation and reversal rules (see [`Necklace`]).
    rules: Necklace<'a>,
    /// Nodes visited, and the least cost above the bound met (the next bound).
    pub(super) nodes: u64,
    pub(super) next_bound: u32,
    ctl: &'a Control,
    solved: Vec<u8>,
    sc: Scratch,
    /// The (variant, table) of the look-up that last cut a node.
    hint: (usize, usize),
    path: Vec<u32>,
    levels: Levels,
    /// The plan of the children of the node being planned (see `plan.rs`).
    shared: Shared,
}

/// A first look-up whose index is computed after every child's values (see `dfs`).
const DEFERRED: u64 = u64::MAX;

/// A thread's buffers, kept from one task to the next (a search allocates its levels
/// once per thread and iteration, not once per task: a cost has thousands of tasks).
pub(super) struct Workspace {
    solved: Vec<u8>,
    sc: Scratch,
    path: Vec<u32>,
    levels: Levels,
    shared: Shared,
}

impl Workspace {
    /// Buffers for searches of `s` to depth `max_depth` at most.
    pub(super) fn new(s: &Solver, solved: &[u8], max_depth: usize) -> Workspace {
        Workspace {
            solved: solved.to_vec(),
            sc: s.scratch(),
            path: Vec::new(),
            shared: Shared::new(s),
            levels: Levels {
                bufs: vec![vec![0u8; s.model.n]; max_depth + 1],
                kids: vec![Vec::new(); max_depth + 1],
                applied: vec![Vec::new(); max_depth + 1],
                ruled: vec![Vec::new(); max_depth + 1],
                tied: vec![0; max_depth + 1],
                kid_ubs: vec![Vec::new(); max_depth + 1],
                probes: (0..=max_depth).map(|_| Vec::new()).collect(),
                pending: vec![Vec::new(); max_depth + 1],
                ubs: vec![s.values_buffer(); max_depth + 1],
                first: vec![Vec::new(); max_depth + 1],
                vals: vec![vec![0; s.incremental.width]; max_depth + 1],
                kid_vals: vec![Vec::new(); max_depth + 1],
                exact: vec![0; max_depth + 1],
                kept: vec![Vec::new(); max_depth + 1],
                excluded: vec![0; max_depth + 1],
                kid_excluded: vec![Vec::new(); max_depth + 1],
            },
        }
    }
}

impl<'a> Search<'a> {
    /// A search of `team`'s task at cost `bound` in the buffers `ws` (every level's
    /// buffers are written before they are read, as between siblings).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        s: &'a Solver,
        canon: &'a Canon,
        bound: u32,
        team: Team<'a>,
        rules: Necklace<'a>,
        ws: Workspace,
        ctl: &'a Control,
    ) -> Search<'a> {
        let Workspace {
            solved,
            sc,
            mut path,
            levels,
            shared,
        } = ws;
        path.clear();
        Search {
            s,
            canon,
            bound,
            team,
            rules,
            nodes: 0,
            next_bound: u32::MAX,
            ctl,
            solved,
            sc,
            // Reset with every task, so the nodes searched do not depend on which tasks
            // a thread ran before.
            hint: (0, usize::MAX),
            path,
            shared,
            levels,
        }
    }

    /// The buffers, for the thread's next task.
    pub(super) fn into_workspace(self) -> Workspace {
        Workspace {
            solved: self.solved,
            sc: self.sc,
            path: self.path,
            levels: self.levels,
            shared: self.shared,
        }
    }

    /// Searches the task `t` from `start`: `Some(next bound)` when it ends at its first
    /// letters (cut, solved, or left out by the rules), `None` once the search below them
    /// is done (its figures in `nodes` and `next_bound`).
    pub(super) fn task(&mut self, start: &[u8], t: &Task) -> Result<Option<u32>, SolveError> {
        let s = self.s;
        let rank = self.rules.rank;
        let (mut st, mut g, mut period) = (0u32, 0u32, 1usize);
        for (depth, &l) in t.letters.iter().enumerate() {
            // A refined automaton may refuse the letters (their sequences are searched
            // through others).
            let Some(next) = self.canon.next(st, l) else {
                return Ok(Some(u32::MAX));
            };
            let r = rank[l as usize];
            if depth > 0 {
                // The rules the search applies below (see `dfs`): the rotation rule from
                // the second letter on (the tasks kept pass it there), the reversal and
                // image rules from the third.
                let floor = self.rules.floor(&self.path, period);
                if r < floor
                    || (depth > 1
                        && (self.rules.reversed_below(&self.path, r)
                            || self.rules.image_below(self.rules.tied(&self.path), l)))
                {
                    return Ok(Some(u32::MAX));
                }
                period = self.rules.period_after(&self.path, floor, period, r);
            }
            st = next;
            g += s.metric.cost[l as usize];
            if let Some(next) = self.enter(depth, start, l, g) {
                return Ok(Some(next));
            }
        }
        let depth = t.letters.len() - 1;
        self.levels.tied[depth] = self.rules.tied(&self.path);
        self.dfs(depth, g, st, period)?;
        Ok(None)
    }

    /// The first letters of a task: applies `l` to the state at `depth - 1` (`start` at
    /// depth 0) into `bufs[depth]`, `g` being the cost so far. `Some(next bound)` when the
    /// node ends there (cut, or solved), `None` when the search goes on below it.
    fn enter(&mut self, depth: usize, start: &[u8], l: u32, g: u32) -> Option<u32> {
        if g > self.bound {
            return Some(g);
        }
        let (done, rest) = self.levels.bufs.split_at_mut(depth);
        let from = done.last().map_or(start, |b| b.as_slice());
        self.s
            .model
            .apply(&self.s.actions[l as usize], from, &mut rest[0]);
        self.path.push(l);
        if self.levels.bufs[depth] == self.solved {
            if g == self.bound {
                self.team.record(&self.path);
                return Some(u32::MAX);
            }
            return Some(g);
        }
        let h = self.h(depth, self.bound - g);
        if g + h > self.bound {
            return Some(g + h);
        }
        // Without a parent every look-up needed was read (`plan`): their values are
        // exact, and those at the cost left exclude last letters as in `dfs`.
        let read = self.sc.probe.read;
        let on_path = depth.checked_sub(1).map_or(0, |d| self.levels.excluded[d]);
        let x = self
            .s
            .excluded(on_path, &self.levels.ubs[depth], read, self.bound - g);
        if self.s.no_last_letter(x) {
            return Some(self.bound + 1);
        }
        self.s
            .followed(&self.levels.bufs[depth], &mut self.levels.vals[depth]);
        self.levels.exact[depth] = read;
        self.levels.excluded[depth] = x;
        None
    }

    /// Lower bound of the distance of `t` (at least 1 when not solved).
    fn h(&mut self, depth: usize, limit: u32) -> u32 {
        self.s.lower_bound(
            &self.levels.bufs[depth],
            limit,
            None,
            &mut self.sc,
            &mut self.hint,
            None,
            &mut self.levels.ubs[depth],
        )
    }

    fn dfs(&mut self, depth: usize, g: u32, state: u32, period: usize) -> Result<(), SolveError> {
        self.nodes += 1;
        // Often enough for a task of a few thousand slow nodes (weak tables on a big
        // puzzle) to see Ctrl-C: the count starts afresh in every task.
        if self.nodes & 0x3ff == 0 {
            self.ctl.check()?;
        }
        let n = self.s.model.n;
        let allowed = self.canon.allowed(state);
        // Every child's bound is found before the search goes below any of them, in
        // sweeps over the children, so the cache misses of the siblings overlap (and no
        // sibling's subtree evicts the lines prefetched for another). First every
        // child's state and the index of its first look-up.
        let mut kids = std::mem::take(&mut self.levels.kids[depth]);
        kids.resize(allowed.len() * n, 0);
        let mut first = std::mem::take(&mut self.levels.first[depth]);
        first.clear();
        let inc = &self.s.incremental;
        let w = inc.width;
        let mut kid_vals = std::mem::take(&mut self.levels.kid_vals[depth]);
        kid_vals.resize(allowed.len() * w, 0);
        let mut applied = std::mem::take(&mut self.levels.applied[depth]);
        applied.clear();
        applied.resize(allowed.len(), false);
        let mut kept = std::mem::take(&mut self.levels.kept[depth]);
        kept.clear();
        kept.resize(allowed.len(), (Kept::default(), 0));
        let exact = self.levels.exact[depth];
        let np = self.s.heuristic.pdbs.len();
        // The children's first look-up: the table and variant with the largest value on
        // this node, likeliest to cut a child; among equals, a followed one (its index
        // needs no child state: see `incremental.rs`), then the last one to cut.
        let ub = &self.levels.ubs[depth];
        let (mut hv, mut ht) = self.hint;
        let followed = |j: usize| inc.slot(j).is_some();
        let (mut best, mut cheap) = if ht < np {
            (ub[hv * np + ht], followed(hv * np + ht))
        } else {
            (0, false)
        };
        for (j, &u) in ub[..ub.len() / 2].iter().enumerate() {
            if u > best || (u == best && !cheap && followed(j)) {
                (best, cheap, hv, ht) = (u, followed(j), j / np, j % np);
            }
        }
        let choice = (hv, ht);
        self.shared.reset(self.s, choice);
        let floor = self.rules.floor(&self.path, period);
        let tied = self.levels.tied[depth];
        let mut ruled = std::mem::take(&mut self.levels.ruled[depth]);
        ruled.clear();
        ruled.resize(allowed.len(), false);
        for (ci, &(l, _)) in allowed.iter().enumerate() {
            if self.rules.rank[l as usize] < floor
                || self
                    .rules
                    .reversed_below(&self.path, self.rules.rank[l as usize])
                || self.rules.image_below(tied, l)
            {
                ruled[ci] = true;
                first.push(None);
                continue;
            }
            let g2 = g + self.s.metric.cost[l as usize];
            if g2 > self.bound {
                first.push(None);
                continue;
            }
            let limit = self.bound - g2;
            // A look-up the letter keeps, exact above the limit, cuts the child at once.
            let k = self.s.kept(l, &self.levels.ubs[depth], exact, limit);
            kept[ci] = (k, 0);
            if k.cut > 0 {
                first.push(None);
                continue;
            }
            // At the bound only the solved state is wanted: no look-up.
            if limit == 0 {
                first.push(None);
                continue;
            }
            // That look-up, unless this node's bound says it cannot cut this child.
            let parent = Parent {
                ub: &self.levels.ubs[depth],
                back: self.s.back[l as usize],
                keep: k.keep,
                flip: k.flip,
            };
            let useless = ht < np && self.s.bounded(Some(parent), hv, ht, limit).is_some();
            // Only the followed values this look-up needs: most children end at it (the
            // others get the rest before their rounds).
            let vals = &mut kid_vals[ci * w..(ci + 1) * w];
            let f = if useless {
                None
            } else if let Some(slot) = (ht < np).then(|| inc.slot(hv * np + ht)).flatten() {
                inc.step_slot(slot, &self.levels.vals[depth], l, vals);
                // Its index once every child's values are known (their classes are
                // prefetched meanwhile, see below).
                inc.prefetch(slot, vals);
                Some(DEFERRED)
            } else {
                let kid = &mut kids[ci * n..(ci + 1) * n];
                self.s
                    .model
                    .apply(&self.s.actions[l as usize], &self.levels.bufs[depth], kid);
                applied[ci] = true;
                self.s.hint_index(kid, choice, &mut self.sc)
            };
            first.push(f.map(|i| (choice, i)));
        }
        if let Some(slot) = (ht < np).then(|| inc.slot(hv * np + ht)).flatten() {
            for (ci, f) in first.iter_mut().enumerate() {
                if let Some((_, i)) = f {
                    if *i == DEFERRED {
                        *i = inc.index(slot, &kid_vals[ci * w..(ci + 1) * w]);
                    }
                }
            }
        }
        // Their prefetches in one burst, after every index (see [`Solver::stage`]).
        for f in first.iter().flatten() {
            let p = &self.s.heuristic.pdbs[f.0 .1];
            prefetch(&p.table, p.byte(f.1));
        }
        // Then each child's first look-up; the children it does not cut are planned (see
        // [`Solver::plan_child`]) and their first round's indices computed.
        let stride = self.levels.ubs[depth].len();
        let mut kub = std::mem::take(&mut self.levels.kid_ubs[depth]);
        kub.resize(allowed.len() * stride, 0);
        let mut probes = std::mem::take(&mut self.levels.probes[depth]);
        if probes.len() < allowed.len() {
            probes.resize_with(allowed.len(), Probe::default);
        }
        let mut pending = std::mem::take(&mut self.levels.pending[depth]);
        pending.clear();
        for (ci, &(l, _)) in allowed.iter().enumerate() {
            // Left out by the rotation, reversal and image rules (in the first sweep).
            if ruled[ci] {
                continue;
            }
            let g2 = g + self.s.metric.cost[l as usize];
            if g2 > self.bound {
                self.next_bound = self.next_bound.min(g2);
                continue;
            }
            let (k, _) = kept[ci];
            if k.cut > 0 {
                self.next_bound = self.next_bound.min(g2 + k.cut);
                continue;
            }
            // A child cut by its first look-up is not solved (its value would be 0), so
            // its state is only made when the look-up leaves it (most children end there).
            let limit = self.bound - g2;
            if let Some(v) = self.s.first_cut(first[ci], limit) {
                self.next_bound = self.next_bound.min(g2 + v);
                continue;
            }
            let kid = &mut kids[ci * n..(ci + 1) * n];
            if !applied[ci] {
                self.s
                    .model
                    .apply(&self.s.actions[l as usize], &self.levels.bufs[depth], kid);
            }
            if kid == &self.solved[..] {
                if g2 == self.bound {
                    self.path.push(l);
                    self.team.record(&self.path);
                    self.path.pop();
                } else {
                    self.next_bound = self.next_bound.min(g2);
                }
                continue;
            }
            // Any other state at the bound is cut: every letter costs at least 1.
            if g2 == self.bound {
                self.next_bound = self.next_bound.min(g2 + 1);
                continue;
            }
            let parent = Parent {
                ub: &self.levels.ubs[depth],
                back: self.s.back[l as usize],
                keep: k.keep,
                flip: k.flip,
            };
            let ub = &mut kub[ci * stride..(ci + 1) * stride];
            let pr = &mut probes[ci];
            self.s
                .plan_child(limit, parent, ub, pr, first[ci], &mut self.shared);
            if w > 0 {
                let vals = &mut kid_vals[ci * w..(ci + 1) * w];
                inc.step(&self.levels.vals[depth], l, vals);
                inc.prefetch_all(vals);
            }
            pending.push(ci);
        }
        // Their first round's indices, once every child's classes are asked for.
        for &ci in &pending {
            let kid = &kids[ci * n..(ci + 1) * n];
            let pr = &mut probes[ci];
            if w > 0 {
                self.s.know(&kid_vals[ci * w..(ci + 1) * w], pr);
            }
            for v in pr.variants_at(0, self.s.variants.len()) {
                self.s.stage(kid, v, 0, pr, &mut self.sc.located);
            }
        }
        // Then round by round over the children still pending: every index, one burst of
        // prefetches, the reads; a child above its limit drops out.
        let nv = self.s.variants.len();
        for r in 0..ROUNDS {
            if r > 0 {
                for &ci in &pending {
                    let kid = &kids[ci * n..(ci + 1) * n];
                    let pr = &mut probes[ci];
                    for v in pr.variants_at(r, nv) {
                        self.s.stage(kid, v, r, pr, &mut self.sc.located);
                    }
                }
            }
            for &ci in &pending {
                for v in probes[ci].variants_at(r, nv) {
                    self.s.fire(v, r, &probes[ci]);
                }
            }
            let mut left = 0;
            for j in 0..pending.len() {
                let ci = pending[j];
                let ub = &mut kub[ci * stride..(ci + 1) * stride];
                let pr = &mut probes[ci];
                let mut at = pr.variants_at(r, nv);
                if at.any(|v| self.s.collect(v, r, pr, ub, &mut self.hint)) {
                    let g2 = g + self.s.metric.cost[allowed[ci].0 as usize];
                    self.next_bound = self.next_bound.min(g2 + pr.h);
                } else {
                    pending[left] = ci;
                    left += 1;
                }
            }
            pending.truncate(left);
        }
        // The children left know their exact look-ups: those read, and those kept exact.
        // A child whose look-ups at its limit leave no letter to end a solution with (with
        // those its path excludes) is cut.
        let mut kid_excluded = std::mem::take(&mut self.levels.kid_excluded[depth]);
        kid_excluded.resize(allowed.len(), 0);
        let on_path = self.levels.excluded[depth];
        let mut left = 0;
        for j in 0..pending.len() {
            let ci = pending[j];
            let (k, ex) = &mut kept[ci];
            *ex = probes[ci].read | (k.keep & exact) | k.flip;
            let limit = self.bound - g - self.s.metric.cost[allowed[ci].0 as usize];
            let ub = &kub[ci * stride..(ci + 1) * stride];
            let x = self.s.excluded(on_path, ub, *ex, limit);
            if self.s.no_last_letter(x) {
                self.next_bound = self.next_bound.min(self.bound + 1);
                continue;
            }
            kid_excluded[ci] = x;
            pending[left] = ci;
            left += 1;
        }
        pending.truncate(left);
        self.levels.probes[depth] = probes;
        // Then the search below the children left, in order (at a shared task's node, the
        // children this thread claims).
        let mut result = Ok(());
        let shared = self.team.shares(depth);
        let mut place = 0;
        loop {
            let j = self.team.take(shared, place);
            place += 1;
            if j >= pending.len() {
                break;
            }
            if shared {
                self.team.subtree(j);
            }
            if self.team.stops() {
                break;
            }
            let ci = pending[j];
            let (l, next) = allowed[ci];
            let g2 = g + self.s.metric.cost[l as usize];
            let p = self
                .rules
                .period_after(&self.path, floor, period, self.rules.rank[l as usize]);
            self.path.push(l);
            self.levels.bufs[depth + 1].copy_from_slice(&kids[ci * n..(ci + 1) * n]);
            self.levels.ubs[depth + 1].copy_from_slice(&kub[ci * stride..(ci + 1) * stride]);
            self.levels.vals[depth + 1].copy_from_slice(&kid_vals[ci * w..(ci + 1) * w]);
            self.levels.exact[depth + 1] = kept[ci].1;
            self.levels.excluded[depth + 1] = kid_excluded[ci];
            self.levels.tied[depth + 1] = self.rules.tied_after(tied, l);
            if let Err(e) = self.dfs(depth + 1, g2, next, p) {
                result = Err(e);
            }
            self.path.pop();
            if result.is_err() {
                break;
            }
        }
        self.levels.kid_ubs[depth] = kub;
        self.levels.pending[depth] = pending;
        self.levels.kids[depth] = kids;
        self.levels.first[depth] = first;
        self.levels.kid_vals[depth] = kid_vals;
        self.levels.kept[depth] = kept;
        self.levels.applied[depth] = applied;
        self.levels.ruled[depth] = ruled;
        self.levels.kid_excluded[depth] = kid_excluded;
        result
    }
}
