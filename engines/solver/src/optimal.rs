//! Optimal solving: iterative deepening A* over canonical sequences, pruned by pattern
//! databases on the position and on its inverse (a position and its inverse are at the
//! same distance when every letter costs what its inverse costs), in parallel over the
//! first moves (tasks of two letters, shared by the threads child by child). Positions
//! fixed by symmetries search one task per class; central ones keep one rotation (and,
//! when self-inverse, one reversal) of each solution. Every solution is re-checked by
//! applying it to the position.

use crate::canon::Canon;
use crate::error::{invalid, SolveError};
use crate::metric::Metric;
use crate::model::{Action, CellMap, Model};
use crate::pdb::{default_cache_dir, Cache, Heuristic, Located, Locator};
use crate::symmetry::{representatives, Symmetries};
use puz_core::{Control, Perm, Puzzle};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Options of the optimal solver.
#[derive(Clone, Debug)]
pub struct OptimalOptions {
    /// List every optimal canonical solution instead of one.
    pub all: bool,
    /// Return the first solution any search thread finds instead of the reproducible one
    /// (see [`Wanted`]).
    pub first: bool,
    /// Bytes for the pattern databases (default: a quarter of the memory limit, at most 1 GiB).
    pub table_memory: Option<u64>,
    /// Where tables are cached (`None`: not cached). Default: `$XDG_CACHE_HOME/puz` or `~/.cache/puz`.
    pub cache: Option<PathBuf>,
    /// Read cached tables into fresh memory instead of mapping their files (see
    /// [`Cache::map`]): slower to load, a little faster to search.
    pub copy_tables: bool,
    /// Give up above this cost.
    pub max_cost: u32,
    /// At most this many symmetries whose conjugates are looked up too (each costs look-ups
    /// at every node).
    pub conjugates: usize,
}

impl Default for OptimalOptions {
    fn default() -> Self {
        OptimalOptions {
            all: false,
            first: false,
            table_memory: None,
            cache: default_cache_dir(),
            copy_tables: false,
            max_cost: 40,
            conjugates: MAX_CONJUGATORS,
        }
    }
}

/// One solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Letters of the metric.
    pub letters: Vec<u32>,
    /// Written in the puzzle's moves, `(D2 U2)` for a simultaneous pair.
    pub text: String,
    pub cost: u64,
}

/// The answer of [`optimal`].
#[derive(Clone, Debug)]
pub struct Optimal {
    /// The optimal cost.
    pub cost: u64,
    pub solutions: Vec<Solution>,
    /// True: every cheaper sequence was excluded by the search (admissible bounds only).
    pub proved_optimal: bool,
    /// True: every solution, applied to the position, gives the solved state.
    pub verified: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// The pattern databases used.
    pub tables: Vec<String>,
    /// Symmetries of the puzzle fixing the position, the identity included: the search
    /// ran one task per class of first letters under them (1: every task).
    pub symmetry: usize,
}

/// A solver for one puzzle and metric, keeping its tables for many positions.
pub struct Solver {
    model: Model,
    metric: Metric,
    actions: Vec<Action>,
    canon: Canon,
    heuristic: Heuristic,
    /// Symmetries `c` of the puzzle whose conjugation maps the letters onto the letters:
    /// `c^-1 p c` is as far from solved as `p`, so the tables are also looked up on it
    /// (stored as the state of `c^-1` and the action of `c`).
    conjugators: Vec<CellMap>,
    symmetries: Symmetries,
    locator: Locator,
    /// The variants looked up: (conjugator, inverse?), the first one `(None, false)`.
    variants: Vec<(Option<usize>, bool)>,
    /// Per variant: its table values follow the rule of [`Parent`] (it is not an inverse).
    consistent: Vec<bool>,
    /// Per (variant, table): whether to look it up. A table that follows every piece of
    /// its orbit holds distances in a quotient group of the puzzle, the same on the
    /// position as on its inverse and its conjugates: it is looked up on the position only.
    needed: Vec<bool>,
    /// Per letter: the cost of its inverse.
    back: Vec<u32>,
    /// Whether every rotation of an optimal canonical sequence is canonical: the canonical
    /// automaton only remembers the last letter, and every pair it refuses multiplies to
    /// the identity or to one cheaper letter (so no optimal sequence holds it, even across
    /// the wrap). True in atm on the 3x3x3; not in htm, which refuses `D U` for `U D`.
    rotations: bool,
    /// Whether the inverse of an optimal canonical sequence, read backwards, is canonical,
    /// and every letter costs what its inverse costs (see [`reversals_stay_canonical`]).
    reversals: bool,
    degree: usize,
    max_cost: u32,
}

fn puzzle_key(puzzle: &Puzzle) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for o in &puzzle.orbits {
        for b in [o.size as u64, o.twist as u64] {
            h = (h ^ b).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// Buffers of one search thread for [`Solver::lower_bound`].
struct Scratch {
    b: Vec<u8>,
    probe: Probe,
    located: Located,
}

/// One bound in progress (see [`Solver::plan`]).
#[derive(Default)]
struct Probe {
    inv: Vec<u8>,
    /// Every variant's state, one after another.
    vars: Vec<u8>,
    /// Table indices, variant after variant.
    idx: Vec<u64>,
    /// The round of each look-up (`u8::MAX`: not made).
    round: Vec<u8>,
    /// Which variants' states are in `vars`.
    staged: Vec<bool>,
    /// Whether `inv` holds the inverse (computed when a variant first needs it).
    inverted: bool,
    limit: u32,
    /// The largest value read so far.
    h: u32,
}

/// The rounds of look-ups of a bound (see [`Solver::plan`]).
const ROUNDS: u8 = 4;

/// Asks the cache for `table[i]` ahead of reading it.
#[inline(always)]
fn prefetch(table: &[u8], i: u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching never faults; the address is inside the table anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(table.as_ptr().add(i as usize) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, i);
}

struct Search<'a> {
    s: &'a Solver,
    bound: u32,
    wanted: Wanted,
    /// The lowest key (see [`SUB`]) whose subtree found a solution (`usize::MAX`: none
    /// yet); with [`Wanted::Earliest`] the subtrees after it stop and those before it go
    /// on, so the solution returned is the same on every run.
    found: &'a AtomicUsize,
    /// The key of the task (`task * SUB`), and of the subtree being searched.
    base: usize,
    key: usize,
    /// Threads may share a task: at depth `claim_depth` (the task's node) each child's
    /// subtree is claimed from this counter, whose value is the next child's place in the
    /// node's (deterministic) list of children left.
    claim: &'a AtomicUsize,
    claim_depth: usize,
    /// Letters ranked for the rotation rule (see [`Solver::rotations`]): a letter ranked
    /// that would make the path's ranks no prefix of a necklace is not searched (see
    /// [`Search::floor`]; all ranks 0 without the rule).
    rank: &'a [u32],
    /// The reversal rule (see [`Search::reversed_below`]).
    reverse: bool,
    solutions: &'a Mutex<Vec<(usize, Vec<u32>)>>,
    nodes: u64,
    next_bound: u32,
    ctl: &'a Control,
    solved: Vec<u8>,
    bufs: Vec<Vec<u8>>,
    sc: Scratch,
    hint: (usize, usize),
    path: Vec<u32>,
    /// Per depth: the children's states, and their first look-up (hint, index).
    kids: Vec<Vec<u8>>,
    first: Vec<Vec<First>>,
    /// Per depth: the children's bounds in progress, their upper bounds (as `ubs`), and
    /// the children not cut (so far).
    probes: Vec<Vec<Probe>>,
    kid_ubs: Vec<Vec<u8>>,
    pending: Vec<Vec<usize>>,
    /// Per depth: upper bounds of the node's table values, (variant, table) after
    /// (variant, table) (see [`Parent`]).
    ubs: Vec<Vec<u8>>,
}

/// What a node's look-ups say about its children. A table's value on the position or on a
/// conjugate of it is a distance in the table's abstract puzzle, so one letter changes it
/// by at most the letter's cost: a child's value is at most the parent's plus the cost of
/// the letter back. A table whose bound stays within the child's limit cannot cut the
/// child and is not looked up. (Values on the inverse move by the letter from the other
/// side and follow no such rule; they are always looked up.)
#[derive(Clone, Copy)]
struct Parent<'a> {
    /// The parent's upper bounds, (variant, table) after (variant, table).
    ub: &'a [u8],
    /// The cost of the inverse of the letter from the parent to the child.
    back: u32,
}

/// Which optimal solutions [`Solver::solve`] returns. The search runs tasks (pairs of first
/// letters) in a fixed order on every thread; the last iteration ends when a task finds a
/// solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The solution of the earliest task that has one: the same on every run. The tasks
    /// before it are searched to their end, which can take longer than finding it
    /// (the atm superflip at 8 GiB: 8.5-10.4 s, against 7.0-8.6 s for [`Wanted::First`]).
    Earliest,
    /// The first solution found, by whichever thread: every thread stops then. Still
    /// proved optimal (every cheaper cost was searched to its end), but which of several
    /// optimal solutions comes first may change from run to run.
    First,
    /// Every optimal canonical solution (no symmetry shortcuts).
    All,
}

impl Wanted {
    /// Whether task `task` stops, the earliest task with a solution being `found`
    /// (`usize::MAX`: none yet).
    fn stops(self, found: usize, task: usize) -> bool {
        match self {
            Wanted::Earliest => found <= task,
            Wanted::First => found != usize::MAX,
            Wanted::All => false,
        }
    }
}

/// Keys of the subtrees of one task (see [`Search::key`]): task `k`'s are `k * SUB + j`,
/// `j` the place of the child in the task's node's list of children left.
const SUB: usize = 1 << 20;

/// A search task: the first letter, its automaton state, and the second letter with its state.
type Task = (u32, u32, Option<(u32, u32)>);

/// A look-up already computed (and prefetched): the (variant, table) hint and the index.
type First = Option<((usize, usize), u64)>;

impl Search<'_> {
    /// Records the path as a solution of this task.
    fn record(&self) {
        self.solutions
            .lock()
            .unwrap()
            .push((self.key, self.path.clone()));
        self.found.fetch_min(self.key, Ordering::Relaxed);
    }

    /// The first letters of a task: applies `l` to the state at `depth - 1` (`start` at
    /// depth 0) into `bufs[depth]`, `g` being the cost so far. `Some(next bound)` when the
    /// node ends there (cut, or solved), `None` when the search goes on below it.
    fn enter(&mut self, depth: usize, start: &[u8], l: u32, g: u32) -> Option<u32> {
        if g > self.bound {
            return Some(g);
        }
        let (done, rest) = self.bufs.split_at_mut(depth);
        let from = done.last().map_or(start, |b| b.as_slice());
        self.s
            .model
            .apply(&self.s.actions[l as usize], from, &mut rest[0]);
        self.path.push(l);
        if self.bufs[depth] == self.solved {
            if g == self.bound {
                self.record();
                return Some(u32::MAX);
            }
            return Some(g);
        }
        let h = self.h(depth, self.bound - g);
        (g + h > self.bound).then_some(g + h)
    }

    /// Lower bound of the distance of `t` (at least 1 when not solved).
    fn h(&mut self, depth: usize, limit: u32) -> u32 {
        self.s.lower_bound(
            &self.bufs[depth],
            limit,
            None,
            &mut self.sc,
            &mut self.hint,
            None,
            &mut self.ubs[depth],
        )
    }

    /// The lowest rank a letter after the path may have, given the period of the path's
    /// ranks (see [`Search::period_after`]). The rotation rule keeps, of the rotations of a
    /// solution, one whose ranks are a necklace (the least of their rotations); every
    /// prefix of a necklace passes the test of Fredricksen, Kessler and Maiorana: with
    /// `p` the period of the prefix, the next rank is at least the one `p` places back,
    /// and above it the period becomes the whole prefix.
    fn floor(&self, period: usize) -> u32 {
        self.rank[self.path[self.path.len() - period] as usize]
    }

    /// The reversal rule, for a central position that is its own inverse, where inverting
    /// a letter keeps its rank and reversing optimal canonical sequences keeps them
    /// canonical: the inverse of a solution, read backwards, solves it too, so of the
    /// rotations of a solution and of its inverse the search keeps one whose ranks are the
    /// least (a bracelet). Each prefix of those ranks is at most its own reversal (else a
    /// rotation of the reversed ranks, starting at the prefix's end, would be less): true
    /// when the path followed by a letter of rank `r` fails that.
    fn reversed_below(&self, r: u32) -> bool {
        if !self.reverse || r != self.rank[self.path[0] as usize] {
            return false;
        }
        let t = self.path.len() + 1;
        let at = |k: usize| {
            if k + 1 == t {
                r
            } else {
                self.rank[self.path[k] as usize]
            }
        };
        for i in 0..t / 2 {
            match at(i).cmp(&at(t - 1 - i)) {
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Greater => return true,
                std::cmp::Ordering::Equal => {}
            }
        }
        false
    }

    /// The period after a letter of rank `r`, at least `floor` (the path's
    /// [`Search::floor`]: lower letters are not searched).
    fn period_after(&self, floor: u32, period: usize, r: u32) -> usize {
        let next = next_period(floor, self.path.len(), period, r);
        debug_assert!(next.is_some(), "a letter below the floor was searched");
        next.unwrap_or(period)
    }

    fn dfs(&mut self, depth: usize, g: u32, state: u32, period: usize) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes & 0xffff == 0 {
            self.ctl.check()?;
        }
        let n = self.s.model.n;
        let allowed = self.s.canon.allowed(state);
        // Every child's bound is found before the search goes below any of them, in
        // sweeps over the children, so the cache misses of the siblings overlap (and no
        // sibling's subtree evicts the lines prefetched for another). First every
        // child's state and the index of its first look-up.
        let mut kids = std::mem::take(&mut self.kids[depth]);
        kids.resize(allowed.len() * n, 0);
        let mut first = std::mem::take(&mut self.first[depth]);
        first.clear();
        let np = self.s.heuristic.pdbs.len();
        // The children's first look-up: the table and variant with the largest value on
        // this node (the last one to cut among equals), likeliest to cut a child.
        let ub = &self.ubs[depth];
        let (mut hv, mut ht) = self.hint;
        let mut best = if ht < np { ub[hv * np + ht] } else { 0 };
        for (j, &u) in ub.iter().enumerate() {
            if u > best {
                (best, hv, ht) = (u, j / np, j % np);
            }
        }
        let choice = (hv, ht);
        let floor = self.floor(period);
        for (ci, &(l, _)) in allowed.iter().enumerate() {
            if self.rank[l as usize] < floor || self.reversed_below(self.rank[l as usize]) {
                first.push(None);
                continue;
            }
            let kid = &mut kids[ci * n..(ci + 1) * n];
            self.s
                .model
                .apply(&self.s.actions[l as usize], &self.bufs[depth], kid);
            // That look-up, unless this node's bound says it cannot cut this child.
            let limit = self
                .bound
                .saturating_sub(g + self.s.metric.cost[l as usize]);
            let parent = Parent {
                ub: &self.ubs[depth],
                back: self.s.back[l as usize],
            };
            let useless = ht < np && self.s.bounded(Some(parent), hv, ht, limit).is_some();
            let f = if useless {
                None
            } else {
                self.s.hint_index(kid, choice, &mut self.sc)
            };
            first.push(f.map(|i| (choice, i)));
        }
        // Their prefetches in one burst, after every index (see [`Solver::stage`]).
        for f in first.iter().flatten() {
            prefetch(&self.s.heuristic.pdbs[f.0 .1].table, f.1 >> 1);
        }
        // Then each child's first look-up; the children it does not cut are planned (see
        // [`Solver::plan`]) and their first round's indices computed.
        let stride = self.ubs[depth].len();
        let mut kub = std::mem::take(&mut self.kid_ubs[depth]);
        kub.resize(allowed.len() * stride, 0);
        let mut probes = std::mem::take(&mut self.probes[depth]);
        if probes.len() < allowed.len() {
            probes.resize_with(allowed.len(), Probe::default);
        }
        let mut pending = std::mem::take(&mut self.pending[depth]);
        pending.clear();
        for (ci, &(l, _)) in allowed.iter().enumerate() {
            if self.rank[l as usize] < floor || self.reversed_below(self.rank[l as usize]) {
                continue;
            }
            let g2 = g + self.s.metric.cost[l as usize];
            if g2 > self.bound {
                self.next_bound = self.next_bound.min(g2);
                continue;
            }
            let kid = &kids[ci * n..(ci + 1) * n];
            if kid == &self.solved[..] {
                if g2 == self.bound {
                    self.path.push(l);
                    self.record();
                    self.path.pop();
                } else {
                    self.next_bound = self.next_bound.min(g2);
                }
                continue;
            }
            let limit = self.bound - g2;
            if let Some(v) = self.s.first_cut(first[ci], limit) {
                self.next_bound = self.next_bound.min(g2 + v);
                continue;
            }
            let parent = Parent {
                ub: &self.ubs[depth],
                back: self.s.back[l as usize],
            };
            let ub = &mut kub[ci * stride..(ci + 1) * stride];
            let pr = &mut probes[ci];
            self.s.plan(limit, Some(parent), ub, pr, first[ci]);
            for v in 0..self.s.variants.len() {
                self.s.stage(kid, v, 0, pr, &mut self.sc.located);
            }
            pending.push(ci);
        }
        // Then round by round over the children still pending: every index, one burst of
        // prefetches, the reads; a child above its limit drops out.
        let nv = self.s.variants.len();
        for r in 0..ROUNDS {
            if r > 0 {
                for &ci in &pending {
                    let kid = &kids[ci * n..(ci + 1) * n];
                    for v in 0..nv {
                        self.s
                            .stage(kid, v, r, &mut probes[ci], &mut self.sc.located);
                    }
                }
            }
            for &ci in &pending {
                for v in 0..nv {
                    self.s.fire(v, r, &probes[ci]);
                }
            }
            let mut kept = 0;
            for j in 0..pending.len() {
                let ci = pending[j];
                let ub = &mut kub[ci * stride..(ci + 1) * stride];
                let pr = &mut probes[ci];
                if (0..nv).any(|v| self.s.collect(v, r, pr, ub, &mut self.hint)) {
                    let g2 = g + self.s.metric.cost[allowed[ci].0 as usize];
                    self.next_bound = self.next_bound.min(g2 + pr.h);
                } else {
                    pending[kept] = ci;
                    kept += 1;
                }
            }
            pending.truncate(kept);
        }
        self.probes[depth] = probes;
        // Then the search below the children left, in order (at a shared task's node, the
        // children this thread claims).
        let mut result = Ok(());
        let claim = (depth == self.claim_depth).then_some(self.claim);
        let mut place = 0;
        loop {
            let j = match claim {
                Some(c) => c.fetch_add(1, Ordering::Relaxed),
                None => place,
            };
            place += 1;
            if j >= pending.len() {
                break;
            }
            if claim.is_some() {
                self.key = self.base + j;
            }
            if self
                .wanted
                .stops(self.found.load(Ordering::Relaxed), self.key)
            {
                break;
            }
            let ci = pending[j];
            let (l, next) = allowed[ci];
            let g2 = g + self.s.metric.cost[l as usize];
            let p = self.period_after(floor, period, self.rank[l as usize]);
            self.path.push(l);
            self.bufs[depth + 1].copy_from_slice(&kids[ci * n..(ci + 1) * n]);
            self.ubs[depth + 1].copy_from_slice(&kub[ci * stride..(ci + 1) * stride]);
            if let Err(e) = self.dfs(depth + 1, g2, next, p) {
                result = Err(e);
            }
            self.path.pop();
            if result.is_err() {
                break;
            }
        }
        self.kid_ubs[depth] = kub;
        self.pending[depth] = pending;
        self.kids[depth] = kids;
        self.first[depth] = first;
        result
    }
}

impl Solver {
    /// Prepares the canonical table and the pattern databases (built or loaded).
    pub fn new(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        ctl: &Control,
    ) -> Result<Solver, SolveError> {
        let model = Model::new(puzzle)?;
        let mut actions = Vec::new();
        for p in &metric.alphabet.perms {
            match model.action(p) {
                Some(a) => actions.push(a),
                None => return invalid("a generator is not a position of the puzzle"),
            }
        }
        let canon = Canon::new(metric);
        let budget = opts
            .table_memory
            .unwrap_or((ctl.memory_limit / 4).min(1 << 30));
        let heuristic = Heuristic::build(
            puzzle_key(puzzle),
            &model,
            metric,
            &actions,
            budget,
            opts.cache.as_deref().map(|dir| Cache {
                dir,
                map: !opts.copy_tables,
            }),
            ctl,
        )?;
        let use_inverse = (0..metric.len())
            .all(|l| metric.cost[l] == metric.cost[metric.alphabet.inverse[l] as usize]);
        let mut heuristic = heuristic;
        let symmetries = Symmetries::new(puzzle, metric, &canon);
        let mut names = Vec::new();
        let mut conjugators = Vec::new();
        for (name, c) in symmetries.generators.iter().take(opts.conjugates) {
            let (Some(cinv), Some(ca)) = (model.state_of(&c.inverse()), model.action(c)) else {
                continue;
            };
            names.push(name.clone());
            conjugators.push(model.conjugation(&cinv, &ca));
        }
        if !names.is_empty() {
            heuristic.report.push(format!(
                "every table also looked up on the conjugates by {}",
                names.join(", ")
            ));
        }
        let mut variants = Vec::new();
        for conj in std::iter::once(None).chain((0..conjugators.len()).map(Some)) {
            variants.push((conj, false));
            if use_inverse {
                variants.push((conj, true));
            }
        }
        let whole: Vec<bool> = heuristic
            .pdbs
            .iter()
            .map(|p| p.pattern.pieces.len() == p.pattern.n)
            .collect();
        let needed = (0..variants.len())
            .flat_map(|v| whole.iter().map(move |&w| v == 0 || !w))
            .collect();
        let rotations = rotations_stay_canonical(metric, &canon);
        let reversals = reversals_stay_canonical(metric, &canon);
        Ok(Solver {
            rotations,
            reversals,
            needed,
            locator: Locator::new(&model),
            consistent: variants.iter().map(|v| !v.1).collect(),
            back: (0..metric.len())
                .map(|l| metric.cost[metric.alphabet.inverse[l] as usize])
                .collect(),
            variants,
            conjugators,
            symmetries,
            model,
            metric: metric.clone(),
            actions,
            canon,
            heuristic,
            degree: puzzle.degree(),
            max_cost: opts.max_cost,
        })
    }

    /// The variants of `t` whose distance equals `t`'s: `t` itself, its inverse (when every
    /// letter costs what its inverse costs), and their conjugates. Writes variant `v` of `t`
    /// (whose inverse is `inv`) to `out`.
    #[inline]
    fn variant(&self, v: usize, t: &[u8], inv: &[u8], out: &mut [u8]) {
        let (conj, inverse) = self.variants[v];
        let src = if inverse { inv } else { t };
        match conj {
            None => out.copy_from_slice(src),
            Some(k) => self.conjugators[k].apply(src, out),
        }
    }

    /// The parent's bound on table `k`'s value on variant `v` of the child, when it says
    /// that the look-up cannot go above `limit` (see [`Parent`]).
    #[inline]
    fn bounded(&self, parent: Option<Parent>, v: usize, k: usize, limit: u32) -> Option<u8> {
        let p = parent?;
        let b = p.ub[v * self.heuristic.pdbs.len() + k] as u32 + p.back;
        (self.consistent[v] && b <= limit).then_some(b as u8)
    }

    /// The table index of the hinted look-up, to prefetch before [`Solver::lower_bound`].
    #[inline]
    fn hint_index(&self, t: &[u8], hint: (usize, usize), sc: &mut Scratch) -> Option<u64> {
        let (hv, ht) = hint;
        let pdb = self.heuristic.pdbs.get(ht)?;
        if hv == 0 {
            return Some(pdb.pattern.index(t));
        }
        if self.variants[hv].1 {
            self.model.inverse(t, &mut sc.probe.inv);
        }
        self.variant(hv, t, &sc.probe.inv, &mut sc.b);
        Some(pdb.pattern.index(&sc.b))
    }

    /// Lower bound of the distance of `t` (at least 1; `t` is not solved): the largest table
    /// value over every variant of `t`. The hinted look-up (the one that last went above a
    /// limit) is tried first; then the rounds of [`Solver::plan`], variant by variant,
    /// each variant's look-ups prefetched together. Above `limit`, the hint is updated.
    /// When the bound stays within `limit`, `ub` receives an upper bound of every
    /// (variant, table) value.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn lower_bound(
        &self,
        t: &[u8],
        limit: u32,
        first: First,
        sc: &mut Scratch,
        hint: &mut (usize, usize),
        parent: Option<Parent>,
        ub: &mut [u8],
    ) -> u32 {
        let np = self.heuristic.pdbs.len();
        let first = match first {
            Some(f) => Some(f),
            None if hint.1 < np && self.bounded(parent, hint.0, hint.1, limit).is_none() => {
                self.hint_index(t, *hint, sc).map(|i| (*hint, i))
            }
            None => None,
        };
        if let Some(v) = self.first_cut(first, limit) {
            return v;
        }
        // The rounds variant by variant: a variant's look-ups are prefetched together, so
        // their misses overlap, then read; the first value above the limit ends it.
        let mut pr = std::mem::take(&mut sc.probe);
        self.plan(limit, parent, ub, &mut pr, first);
        let mut h = None;
        'rounds: for r in 0..ROUNDS {
            for v in 0..self.variants.len() {
                self.stage(t, v, r, &mut pr, &mut sc.located);
                self.fire(v, r, &pr);
                if self.collect(v, r, &mut pr, ub, hint) {
                    h = Some(pr.h);
                    break 'rounds;
                }
            }
        }
        let h = h.unwrap_or(pr.h.max(1));
        sc.probe = pr;
        h
    }

    /// Starts a bound in `pr`: which look-ups to make, in up to four rounds, the
    /// likeliest to cut first: the tables whose value on the parent was above the
    /// child's limit (they cut unless the letter brought the value down), the largest of
    /// them alone, then the others, then those at the limit, then the rest. With a
    /// `parent`, the look-ups that cannot go above `limit` are left out (see [`Parent`]);
    /// `ub` gets the parent's bound for them. `read` is a look-up already made (and within
    /// the limit): its value goes to `ub` and it is not made again.
    fn plan(&self, limit: u32, parent: Option<Parent>, ub: &mut [u8], pr: &mut Probe, read: First) {
        let np = self.heuristic.pdbs.len();
        let nv = self.variants.len();
        let n = self.model.n;
        pr.limit = limit;
        pr.h = 0;
        pr.vars.resize(nv * n, 0);
        pr.inv.resize(n, 0);
        pr.idx.resize(nv * np, 0);
        pr.round.resize(nv * np, 0);
        pr.staged.clear();
        pr.staged.resize(nv, false);
        pr.inverted = false;
        // The look-up already read (within the limit) is not made again.
        let read = read.map(|((v, k), i)| (v * np + k, self.heuristic.pdbs[k].value(i)));
        // Of those above the limit, the largest on the parent goes alone first: in the
        // sweeps over the children each child pending makes one look-up, and most are cut
        // by it.
        let mut best: Option<usize> = None;
        for v in 0..nv {
            for k in 0..np {
                let j = v * np + k;
                pr.round[j] = match (self.bounded(parent, v, k, limit), parent) {
                    _ if read.is_some_and(|(r, _)| r == j) => {
                        ub[j] = read.map_or(0, |(_, val)| val);
                        pr.h = ub[j] as u32;
                        u8::MAX
                    }
                    _ if !self.needed[j] => {
                        ub[j] = 0;
                        u8::MAX
                    }
                    (Some(b), _) => {
                        ub[j] = b;
                        u8::MAX
                    }
                    (None, None) => 0,
                    (None, Some(p)) => match (p.ub[j] as u32).cmp(&limit) {
                        std::cmp::Ordering::Greater => {
                            if best.is_none_or(|b| p.ub[j] > p.ub[b]) {
                                best = Some(j);
                            }
                            1
                        }
                        std::cmp::Ordering::Equal => 2,
                        std::cmp::Ordering::Less => 3,
                    },
                };
            }
        }
        if let Some(b) = best {
            pr.round[b] = 0;
        }
    }

    /// Computes the indices of the look-ups of round `r` of variant `v` of `t`.
    ///
    /// Every index is computed first and the prefetches are issued together after
    /// ([`Solver::fire`]): a prefetch issued between index computations stalls until its
    /// miss is under way (260 ns a look-up interleaved, 65 ns in bursts, in a
    /// micro-benchmark on this machine).
    #[inline]
    fn stage(&self, t: &[u8], v: usize, r: u8, pr: &mut Probe, located: &mut Located) {
        let pdbs = &self.heuristic.pdbs;
        let np = pdbs.len();
        let n = self.model.n;
        let mine = &pr.round[v * np..(v + 1) * np];
        if !mine.contains(&r) {
            return;
        }
        let state = &mut pr.vars[v * n..(v + 1) * n];
        if !pr.staged[v] {
            pr.staged[v] = true;
            if v == 0 {
                state.copy_from_slice(t);
            } else {
                if self.variants[v].1 && !pr.inverted {
                    pr.inverted = true;
                    self.model.inverse(t, &mut pr.inv);
                }
                self.variant(v, t, &pr.inv, state);
            }
        }
        // One look-up reads its orbit's cells directly; several share one pass locating
        // every piece.
        if mine.iter().filter(|&&m| m == r).count() == 1 {
            let k = mine.iter().position(|&m| m == r).unwrap_or(0);
            pr.idx[v * np + k] = pdbs[k].pattern.index(state);
            return;
        }
        self.locator.locate(state, located);
        for (k, p) in pdbs.iter().enumerate() {
            if mine[k] == r {
                pr.idx[v * np + k] = p.pattern.index_located(state, located);
            }
        }
    }

    /// Prefetches the look-ups of round `r` of variant `v` (indices from [`Solver::stage`]).
    #[inline]
    fn fire(&self, v: usize, r: u8, pr: &Probe) {
        let np = self.heuristic.pdbs.len();
        for (k, p) in self.heuristic.pdbs.iter().enumerate() {
            if pr.round[v * np + k] == r {
                prefetch(&p.table, pr.idx[v * np + k] >> 1);
            }
        }
    }

    /// Reads the look-ups of round `r` of variant `v` into `pr.h` and `ub`: true when the
    /// bound went above the limit (the hint is then that look-up).
    #[inline]
    fn collect(
        &self,
        v: usize,
        r: u8,
        pr: &mut Probe,
        ub: &mut [u8],
        hint: &mut (usize, usize),
    ) -> bool {
        let np = self.heuristic.pdbs.len();
        for (k, p) in self.heuristic.pdbs.iter().enumerate() {
            let j = v * np + k;
            if pr.round[j] != r {
                continue;
            }
            let val = p.value(pr.idx[j]);
            ub[j] = val;
            if val as u32 > pr.h {
                pr.h = val as u32;
                if pr.h > pr.limit {
                    *hint = (v, k);
                    return true;
                }
            }
        }
        false
    }

    /// The value of a first look-up (see [`First`]) when it is above `limit`.
    #[inline]
    fn first_cut(&self, first: First, limit: u32) -> Option<u32> {
        let ((_, table), i) = first?;
        let v = self.heuristic.pdbs[table].value(i) as u32;
        (v > limit).then_some(v)
    }

    fn scratch(&self) -> Scratch {
        Scratch {
            b: vec![0; self.model.n],
            probe: Probe {
                inv: vec![0; self.model.n],
                ..Probe::default()
            },
            located: self.locator.buffer(),
        }
    }

    /// The tables used, one line each.
    pub fn tables(&self) -> &[String] {
        &self.heuristic.report
    }

    /// An optimal solution of `position`, or all of them (see [`Wanted`]).
    pub fn solve(
        &self,
        position: &Perm,
        wanted: Wanted,
        ctl: &Control,
    ) -> Result<Optimal, SolveError> {
        let all = wanted == Wanted::All;
        let Some(start) = self.model.state_of(position) else {
            return invalid("the position is not a position of this puzzle");
        };
        let solved = self.model.solved();
        let mut nodes = 0u64;
        let tables = self.heuristic.report.clone();
        if start == solved {
            return Ok(Optimal {
                cost: 0,
                solutions: vec![Solution {
                    letters: vec![],
                    text: String::new(),
                    cost: 0,
                }],
                proved_optimal: true,
                verified: true,
                nodes: 1,
                tables,
                symmetry: 1,
            });
        }
        let mut bound = {
            let mut sc = self.scratch();
            let mut ub = vec![0; self.variants.len() * self.heuristic.pdbs.len()];
            let hint = &mut (0, usize::MAX);
            self.lower_bound(&start, u32::MAX, None, &mut sc, hint, None, &mut ub)
        };
        let max_depth = self.max_cost as usize + 2;
        // Listing every solution needs every task; one solution needs one task per class.
        let fixing = if all {
            Vec::new()
        } else {
            self.symmetries.fixing(position)
        };
        // One task per canonical pair of first letters, so the threads stay busy to
        // the end of an iteration (one task per first letter left one idle for long).
        let tasks: Vec<Task> = self
            .canon
            .allowed(0)
            .iter()
            .flat_map(|&(l1, st1)| {
                let then = self.canon.allowed(st1);
                let pairs: Vec<_> = if then.is_empty() {
                    vec![(l1, st1, None)]
                } else {
                    then.iter().map(|&next| (l1, st1, Some(next))).collect()
                };
                pairs
            })
            .collect();
        // A position fixed by symmetries: one task per class of first letters.
        let keep = representatives(
            &tasks
                .iter()
                .map(|&(l, _, then)| std::iter::once(l).chain(then.map(|t| t.0)).collect())
                .collect::<Vec<Vec<u32>>>(),
            &fixing,
        );
        // A central position (one that commutes with every letter), where rotations of
        // optimal canonical sequences stay canonical: every rotation of a solution solves
        // it too, so only solutions that start with a lowest-ranked letter are searched.
        let rotate = !all
            && self.rotations
            && self
                .metric
                .alphabet
                .perms
                .iter()
                .all(|a| a.then(position) == position.then(a));
        let rank = if rotate {
            rotation_ranks(self.metric.len(), &fixing)
        } else {
            vec![0; self.metric.len()]
        };
        // Its own inverse too: the reversal rule (see [`Search::reversed_below`]).
        let inverse = &self.metric.alphabet.inverse;
        let reverse = rotate
            && self.reversals
            && position.then(position).is_identity()
            && (0..rank.len()).all(|l| rank[inverse[l] as usize] == rank[l]);
        let keys;
        let mut order: Vec<usize> = (0..tasks.len())
            .filter(|&t| keep[t])
            .filter(|&t| {
                let (l, _, then) = tasks[t];
                then.is_none_or(|(l2, _)| rank[l2 as usize] >= rank[l as usize])
            })
            .collect();
        // The tasks run in order of their bound after the first letters, lowest first (ties:
        // see the end of the loop): the subtrees with the most room hold solutions most
        // often, and the last iteration ends at the first solution (10 positions of 16
        // random moves at 8 GiB: 598 s in list order, 344 s in this one; see
        // benches/solver/README.md).
        {
            let mut sc = self.scratch();
            let mut ub = vec![0; self.variants.len() * self.heuristic.pdbs.len()];
            let (mut a, mut b) = (vec![0u8; self.model.n], vec![0u8; self.model.n]);
            let key: Vec<u32> = tasks
                .iter()
                .map(|&(l, _, then)| {
                    self.model.apply(&self.actions[l as usize], &start, &mut a);
                    let mut g = self.metric.cost[l as usize];
                    if let Some((l2, _)) = then {
                        self.model.apply(&self.actions[l2 as usize], &a, &mut b);
                        std::mem::swap(&mut a, &mut b);
                        g += self.metric.cost[l2 as usize];
                    }
                    if a == solved {
                        return g;
                    }
                    let hint = &mut (0, usize::MAX);
                    g + self.lower_bound(&a, u32::MAX, None, &mut sc, hint, None, &mut ub)
                })
                .collect();
            order.sort_by_key(|&t| key[t]);
            keys = key;
        }
        loop {
            if bound > self.max_cost {
                return invalid(format!("no solution of cost at most {}", self.max_cost));
            }
            ctl.progress(&format!("searching cost {bound}"));
            let found = AtomicUsize::new(usize::MAX);
            let solutions = Mutex::new(Vec::new());
            let total_nodes = AtomicU64::new(0);
            // Task `order[k]` runs as number `k`, its subtrees with the keys from `k * SUB`
            // on: a solution found in one ends the subtrees after it (with `Earliest`; all
            // of them with `First`), and those before it (still running, or not yet
            // started) go on.
            let claims: Vec<AtomicUsize> = (0..order.len()).map(|_| AtomicUsize::new(0)).collect();
            let task_nodes: Vec<AtomicU64> = (0..order.len()).map(|_| AtomicU64::new(0)).collect();
            let rooted: Vec<AtomicBool> =
                (0..order.len()).map(|_| AtomicBool::new(false)).collect();
            let run = |task: usize, &(l, st, then): &Task| -> Result<u32, SolveError> {
                let base = task * SUB;
                let mut search = Search {
                    s: self,
                    bound,
                    wanted,
                    found: &found,
                    base,
                    key: base,
                    claim: &claims[task],
                    claim_depth: if then.is_some() { 1 } else { 0 },
                    rank: &rank,
                    reverse,
                    solutions: &solutions,
                    nodes: 0,
                    next_bound: u32::MAX,
                    ctl,
                    solved: solved.clone(),
                    bufs: vec![vec![0u8; self.model.n]; max_depth + 1],
                    sc: self.scratch(),
                    kids: vec![Vec::new(); max_depth + 1],
                    kid_ubs: vec![Vec::new(); max_depth + 1],
                    probes: (0..=max_depth).map(|_| Vec::new()).collect(),
                    pending: vec![Vec::new(); max_depth + 1],
                    ubs: vec![
                        vec![0; self.variants.len() * self.heuristic.pdbs.len()];
                        max_depth + 1
                    ],
                    first: vec![Vec::new(); max_depth + 1],
                    hint: (0, usize::MAX),
                    path: Vec::new(),
                };
                if wanted.stops(found.load(Ordering::Relaxed), base) {
                    return Ok(u32::MAX);
                }
                let g = self.metric.cost[l as usize];
                if let Some(next) = search.enter(0, &start, l, g) {
                    return Ok(next);
                }
                let (depth, g, st, period) = match then {
                    None => (0, g, st, 1),
                    Some((l2, st2)) => {
                        let g2 = g + self.metric.cost[l2 as usize];
                        let p2 = search.period_after(rank[l as usize], 1, rank[l2 as usize]);
                        if let Some(next) = search.enter(1, &start, l2, g2) {
                            return Ok(next);
                        }
                        (1, g2, st2, p2)
                    }
                };
                search.dfs(depth, g, st, period)?;
                // A shared task's node is counted once, whichever threads went through it.
                if rooted[task].swap(true, Ordering::Relaxed) {
                    search.nodes -= 1;
                }
                total_nodes.fetch_add(search.nodes, Ordering::Relaxed);
                task_nodes[task].fetch_add(search.nodes, Ordering::Relaxed);
                Ok(search.next_bound)
            };
            // The threads take whole tasks in order, one at a time (with `First`, the
            // threads search different tasks and the first solution in any ends them all);
            // then, when none is left, they join the tasks still running, in order, and
            // claim their children left: no thread idles while the tasks before a solution
            // are searched to their end.
            let taken = AtomicUsize::new(0);
            let next = (0..rayon::current_num_threads().max(1))
                .into_par_iter()
                .map(|_| -> Result<u32, SolveError> {
                    let mut next = u32::MAX;
                    loop {
                        let k = taken.fetch_add(1, Ordering::Relaxed);
                        if k >= order.len() || wanted.stops(found.load(Ordering::Relaxed), k * SUB)
                        {
                            break;
                        }
                        next = next.min(run(k, &tasks[order[k]])?);
                    }
                    for k in 0..order.len() {
                        if wanted.stops(found.load(Ordering::Relaxed), k * SUB) {
                            break;
                        }
                        next = next.min(run(k, &tasks[order[k]])?);
                    }
                    Ok(next)
                })
                .try_reduce(|| u32::MAX, |a, b| Ok(a.min(b)))?;
            nodes += total_nodes.load(Ordering::Relaxed);
            ctl.progress(&format!("cost {bound} searched: {nodes} nodes in all"));
            let mut found_sols = solutions.into_inner().unwrap();
            if !found_sols.is_empty() {
                // The lowest task's solution (or every solution, each once).
                found_sols.sort();
                let mut sols: Vec<Vec<u32>> = found_sols.into_iter().map(|(_, p)| p).collect();
                if all {
                    sols.sort();
                    sols.dedup();
                } else {
                    sols.truncate(1);
                }
                let mut verified = true;
                let solutions: Vec<Solution> = sols
                    .into_iter()
                    .map(|letters| {
                        let p = position.then(&self.metric.eval(&letters, self.degree));
                        verified &=
                            p.is_identity() && self.metric.cost_of(&letters) == bound as u64;
                        Solution {
                            text: self.metric.display(&letters),
                            cost: self.metric.cost_of(&letters),
                            letters,
                        }
                    })
                    .collect();
                return Ok(Optimal {
                    cost: bound as u64,
                    solutions,
                    proved_optimal: true,
                    verified,
                    nodes,
                    tables,
                    symmetry: fixing.len().max(1),
                });
            }
            if next == u32::MAX {
                return invalid("the position cannot be solved with these generators");
            }
            bound = next;
            // Among tasks of equal bound, the largest at this cost first at the next: the
            // most room, so the likeliest to hold a solution, and the longest, so started
            // early (10 positions of 16 random moves at 8 GiB: 211.7 s -> 110.4 s; see
            // benches/solver/README.md). Every task was searched to its end, so the sizes,
            // and the order, are the same on every run.
            let size: Vec<u64> = task_nodes
                .iter()
                .map(|n| n.load(Ordering::Relaxed))
                .collect();
            let mut by: Vec<(u32, std::cmp::Reverse<u64>, usize)> = order
                .iter()
                .enumerate()
                .map(|(k, &t)| (keys[t], std::cmp::Reverse(size[k]), t))
                .collect();
            by.sort();
            order = by.into_iter().map(|(_, _, t)| t).collect();
        }
    }
}

/// One step of the prenecklace test (see [`Search::floor`]): after a prefix of `len` ranks
/// with period `period`, whose rank `period` places back is `back`, a rank `r`: `None`
/// when the prefix stops being a prefix of a necklace, else the new period.
fn next_period(back: u32, len: usize, period: usize, r: u32) -> Option<usize> {
    match r.cmp(&back) {
        std::cmp::Ordering::Less => None,
        std::cmp::Ordering::Equal => Some(period),
        std::cmp::Ordering::Greater => Some(len + 1),
    }
}

/// Whether the letters `a b` multiply to the identity or to one cheaper letter: then no
/// optimal sequence holds them side by side.
fn never_optimal(metric: &Metric, a: u32, b: u32) -> bool {
    let perms = &metric.alphabet.perms;
    let ab = perms[a as usize].then(&perms[b as usize]);
    let cost = metric.cost[a as usize] + metric.cost[b as usize];
    ab.is_identity() || (0..metric.len()).any(|c| metric.cost[c] < cost && perms[c] == ab)
}

/// See [`Solver::reversals`]: every pair the automaton allows, inverted and swapped, is
/// allowed too, unless no optimal sequence holds it. Pairs are read from the state after
/// the first letter alone, which is exact when [`rotations_stay_canonical`] holds (the rule
/// is only used then).
fn reversals_stay_canonical(metric: &Metric, canon: &Canon) -> bool {
    let nl = metric.len() as u32;
    let inv = &metric.alphabet.inverse;
    let after: Vec<Option<u32>> = (0..nl).map(|a| canon.next(0, a)).collect();
    let allowed = |a: u32, b: u32| after[a as usize].is_some_and(|s| canon.next(s, b).is_some());
    (0..nl).all(|l| metric.cost[inv[l as usize] as usize] == metric.cost[l as usize])
        && (0..nl).all(|a| {
            (0..nl).all(|b| {
                !allowed(a, b)
                    || allowed(inv[b as usize], inv[a as usize])
                    || never_optimal(metric, a, b)
            })
        })
}

/// See [`Solver::rotations`].
fn rotations_stay_canonical(metric: &Metric, canon: &Canon) -> bool {
    let nl = metric.len() as u32;
    let after: Vec<Option<u32>> = (0..nl).map(|a| canon.next(0, a)).collect();
    // The state after a letter does not depend on what came before it.
    let first_order = (0..canon.states as u32).all(|s| {
        (0..nl).all(|a| {
            canon
                .next(s, a)
                .is_none_or(|t| Some(t) == after[a as usize])
        })
    });
    first_order
        && (0..nl).all(|a| {
            let Some(sa) = after[a as usize] else {
                return true;
            };
            (0..nl).all(|b| {
                after[b as usize].is_none()
                    || canon.next(sa, b).is_some()
                    || never_optimal(metric, a, b)
            })
        })
}

/// Ranks of the letters for the rotation rule: the classes of letters under the symmetries
/// `maps` fixing the position, the largest classes first (a task starting with a letter of
/// rank `r` searches only letters of rank `r` and up, and the tasks starting in a large
/// class shut the most letters out of the others). Given a solution, its rotation whose
/// ranks are least (a necklace, see [`Search::floor`]), conjugated so that its first
/// letters are a searched task, is a solution that the search keeps: conjugation keeps
/// the letters' classes, so the ranks stay a necklace.
fn rotation_ranks(letters: usize, maps: &[&[u32]]) -> Vec<u32> {
    let mut class = vec![usize::MAX; letters];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for l in 0..letters {
        if class[l] != usize::MAX {
            continue;
        }
        let mut members: Vec<usize> = std::iter::once(l)
            .chain(maps.iter().map(|m| m[l] as usize))
            .collect();
        members.sort_unstable();
        members.dedup();
        for &m in &members {
            class[m] = classes.len();
        }
        classes.push(members);
    }
    let mut by_size: Vec<usize> = (0..classes.len()).collect();
    by_size.sort_by_key(|&c| (std::cmp::Reverse(classes[c].len()), classes[c][0]));
    let mut rank = vec![0u32; letters];
    for (r, &c) in by_size.iter().enumerate() {
        for &m in &classes[c] {
            rank[m] = r as u32;
        }
    }
    rank
}

/// Conjugates looked up by default. Each one costs table look-ups at every node: on the
/// 16-move position of the benchmark with 8 GiB of tables, 0, 1 and 3 took 118, 109 and
/// 125 s (20.6, 14.2 and 11.7 M nodes).
const MAX_CONJUGATORS: usize = 1;

/// An optimal solution of `position` in `metric` (see [`Solver`] to solve many).
pub fn optimal(
    puzzle: &Puzzle,
    metric: &Metric,
    position: &Perm,
    opts: &OptimalOptions,
    ctl: &Control,
) -> Result<Optimal, SolveError> {
    let wanted = if opts.all {
        Wanted::All
    } else if opts.first {
        Wanted::First
    } else {
        Wanted::Earliest
    };
    Solver::new(puzzle, metric, opts, ctl)?.solve(position, wanted, ctl)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::length;
    use crate::testsupport::{cube2, cube3, seq};
    use puz_core::Word;

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    fn opts(mem: u64) -> OptimalOptions {
        OptimalOptions {
            table_memory: Some(mem),
            cache: None,
            max_cost: 30,
            ..OptimalOptions::default()
        }
    }

    #[test]
    fn cube3_small_cases() {
        let c3 = cube3();
        let ctl = Control::default();
        let htm = Metric::htm(&c3, &FACES).unwrap();
        let qtm = Metric::qtm(&c3, &FACES).unwrap();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        let pons = seq(&c3, "U2 D2 F2 B2 L2 R2");
        let sexy = seq(&c3, "R U R' U'");
        let solve = |m: &Metric, p: &Perm| {
            let r = optimal(&c3, m, p, &opts(4 << 20), &ctl).unwrap();
            assert!(r.proved_optimal && r.verified);
            r
        };
        assert_eq!(solve(&htm, &pons).cost, 6);
        let a = solve(&atm, &pons);
        assert_eq!(a.cost, 3);
        assert!(a.solutions[0].text.contains('('), "{}", a.solutions[0].text);
        assert_eq!(solve(&htm, &sexy).cost, 4);
        assert_eq!(solve(&qtm, &sexy).cost, 4);
        // The solution's own length in the metric is its cost.
        let s = solve(&atm, &pons);
        let w = Word::seq(
            s.solutions[0]
                .letters
                .iter()
                .map(|&l| Word::Letter(l))
                .collect(),
        );
        assert_eq!(length(&w, &atm.alphabet, &atm), Some(3));
        // The first solution found has the same cost, proved and verified.
        let solver = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
        for p in [&pons, &sexy, &seq(&c3, "R U2 D' B D' F2 L")] {
            let e = solver.solve(p, Wanted::Earliest, &ctl).unwrap();
            let f = solver.solve(p, Wanted::First, &ctl).unwrap();
            assert!(f.proved_optimal && f.verified);
            assert_eq!((f.cost, f.solutions.len()), (e.cost, 1));
        }
    }

    /// The reproducible solution (and the list of all of them) does not depend on how many
    /// threads share the tasks, nor on their timing.
    #[test]
    fn earliest_is_the_same_on_any_number_of_threads() {
        let c3 = cube3();
        let ctl = Control::default();
        let htm = Metric::htm(&c3, &FACES).unwrap();
        let solver = Solver::new(&c3, &htm, &opts(4 << 20), &ctl).unwrap();
        let positions = ["R U2 D' B D' F2 L", "U2 D2 F2 B2 L2 R2", "F R' U L2 B D' R"];
        let run = |threads: usize| -> Vec<(Optimal, Optimal)> {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                positions
                    .iter()
                    .map(|p| {
                        let p = seq(&c3, p);
                        (
                            solver.solve(&p, Wanted::Earliest, &ctl).unwrap(),
                            solver.solve(&p, Wanted::All, &ctl).unwrap(),
                        )
                    })
                    .collect()
            })
        };
        let one = run(1);
        for threads in [2, 3] {
            for ((e1, a1), (e, a)) in one.iter().zip(run(threads)) {
                assert_eq!(e.solutions, e1.solutions);
                assert_eq!(a.solutions, a1.solutions);
                assert_eq!(a.nodes, a1.nodes);
            }
        }
    }

    #[test]
    fn all_solutions_of_a_short_position() {
        let c3 = cube3();
        let ctl = Control::default();
        let htm = Metric::htm(&c3, &FACES).unwrap();
        // U D (= D U): one canonical solution U' D'.
        let mut o = opts(1 << 20);
        o.all = true;
        let r = optimal(&c3, &htm, &seq(&c3, "U D"), &o, &ctl).unwrap();
        assert_eq!(r.cost, 2);
        assert_eq!(r.solutions.len(), 1);
        assert_eq!(r.solutions[0].text, "U' D'");
        // R U2: the only optimal solution is U2 R'.
        let r = optimal(&c3, &htm, &seq(&c3, "R U2"), &o, &ctl).unwrap();
        assert_eq!(
            r.solutions
                .iter()
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>(),
            vec!["U2 R'"]
        );
    }

    /// Optimal costs agree with God's algorithm on random 2x2x2 positions.
    #[test]
    fn agrees_with_breadth_first_search() {
        use rand::{Rng, SeedableRng};
        let c2 = cube2();
        let ctl = Control::default();
        let htm = Metric::htm(&c2, &[]).unwrap();
        let model = Model::new(&c2).unwrap();
        let solver = Solver::new(&c2, &htm, &opts(1 << 20), &ctl).unwrap();
        // Distances of all positions within 7 by BFS.
        let mut dist = std::collections::HashMap::new();
        let mut layer = vec![model.solved()];
        dist.insert(model.solved(), 0u64);
        let acts: Vec<Action> = htm
            .alphabet
            .perms
            .iter()
            .map(|p| model.action(p).unwrap())
            .collect();
        for d in 1..=7u64 {
            let mut next = Vec::new();
            for s in &layer {
                for a in &acts {
                    let mut t = vec![0u8; model.n];
                    model.apply(a, s, &mut t);
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d);
                        next.push(t);
                    }
                }
            }
            layer = next;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20 {
            let mut p = c2.identity();
            for _ in 0..rng.gen_range(1..12) {
                p = p.then(&htm.alphabet.perms[rng.gen_range(0..htm.len())]);
            }
            let r = solver.solve(&p, Wanted::Earliest, &ctl).unwrap();
            assert!(r.verified);
            if let Some(&d) = dist.get(&model.state_of(&p).unwrap()) {
                assert_eq!(r.cost, d);
            } else {
                assert!(r.cost > 7);
            }
        }
    }

    #[test]
    fn conjugates_are_exact() {
        // The rotations x y z conjugate the atm letters onto themselves; the conjugated
        // state is the state of c^-1 p c, and optimal costs agree with and without them.
        use rand::{Rng, SeedableRng};
        let c3 = cube3();
        let ctl = Control::default();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        let model = Model::new(&c3).unwrap();
        let with = Solver::new(
            &c3,
            &atm,
            &OptimalOptions {
                conjugates: 3,
                ..opts(4 << 20)
            },
            &ctl,
        )
        .unwrap();
        assert_eq!(with.conjugators.len(), 3);
        let p = seq(&c3, "R U F' L2 D B");
        let s = model.state_of(&p).unwrap();
        for m in c3
            .moves
            .iter()
            .filter(|m| ["x", "y", "z"].contains(&m.name.as_str()))
        {
            let cinv = model.state_of(&m.perm.inverse()).unwrap();
            let c = model.action(&m.perm).unwrap();
            let (mut a, mut b) = (vec![0u8; model.n], vec![0u8; model.n]);
            model.compose(&cinv, &s, &mut a);
            model.apply(&c, &a, &mut b);
            let q = m.perm.inverse().then(&p).then(&m.perm);
            assert_eq!(b, model.state_of(&q).unwrap());
            model.conjugation(&cinv, &c).apply(&s, &mut a);
            assert_eq!(a, b);
        }
        let mut without = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
        without.conjugators.clear();
        without.variants.retain(|v| v.0.is_none());
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..6 {
            let mut p = c3.identity();
            for _ in 0..rng.gen_range(3..7) {
                p = p.then(&atm.alphabet.perms[rng.gen_range(0..atm.len())]);
            }
            let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
            let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
            assert!(a.verified && b.verified);
            assert_eq!(a.cost, b.cost);
        }
    }

    #[test]
    fn symmetric_positions_search_one_task_per_class() {
        // Positions fixed by rotations are solved from one task per class of first letters
        // (atm keeps canonical sequences canonical under every rotation); the costs agree
        // with the search over every task.
        let c3 = cube3();
        let ctl = Control::default();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        let with = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
        let mut without = Solver::new(&c3, &atm, &opts(4 << 20), &ctl).unwrap();
        without.symmetries.elements.truncate(1);
        without.symmetries.letters.truncate(1);
        for text in [
            "U2 D2 F2 B2 L2 R2",
            "U D' R L' F B' U D'",
            "R2 L2 U2 D2",
            "F B' U D' R L' F B'",
        ] {
            let p = seq(&c3, text);
            let a = with.solve(&p, Wanted::Earliest, &ctl).unwrap();
            let b = without.solve(&p, Wanted::Earliest, &ctl).unwrap();
            assert!(a.verified && b.verified, "{text}");
            assert_eq!(a.cost, b.cost, "{text}");
            assert!(a.symmetry > 1, "{text}: {}", a.symmetry);
            assert!(a.nodes <= b.nodes, "{text}");
            assert_eq!(b.symmetry, 1);
        }
    }

    #[test]
    fn skipped_look_ups_never_cut() {
        // A table left out because the parent's value bounds the child's (or because it
        // follows a whole orbit) could not have cut: with every look-up made, the search
        // visits the same nodes and finds the same solutions.
        let c3 = cube3();
        let ctl = Control::default();
        for metric in [
            Metric::htm(&c3, &FACES).unwrap(),
            Metric::qtm(&c3, &FACES).unwrap(),
            Metric::atm(&c3, &FACES).unwrap(),
        ] {
            let mut o = opts(1 << 20);
            o.all = true;
            let lean = Solver::new(&c3, &metric, &o, &ctl).unwrap();
            let mut full = Solver::new(&c3, &metric, &o, &ctl).unwrap();
            full.consistent.iter_mut().for_each(|c| *c = false);
            full.needed.iter_mut().for_each(|c| *c = true);
            for text in ["R U R' U' F2 D B L2 U'", "L2 B' U D2 R F' U2 L"] {
                let p = seq(&c3, text);
                let a = lean.solve(&p, Wanted::All, &ctl).unwrap();
                let b = full.solve(&p, Wanted::All, &ctl).unwrap();
                assert!(a.verified && b.verified, "{text}");
                assert_eq!((a.cost, a.nodes), (b.cost, b.nodes), "{text}");
                assert_eq!(a.solutions, b.solutions, "{text}");
            }
        }
    }

    #[test]
    fn rotations_rule_only_where_rotations_stay_canonical() {
        let c3 = cube3();
        let htm = Metric::htm(&c3, &FACES).unwrap();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        assert!(rotations_stay_canonical(&atm, &Canon::new(&atm)));
        // htm refuses `D U` (searching `U D`), which is no cheaper.
        assert!(!rotations_stay_canonical(&htm, &Canon::new(&htm)));
        // The superflip is fixed by the 48 rotations and reflections: atm letters fall into
        // 6 classes, quarter turns (12), half turns (6) and the axial pairs U^a D^b up to
        // a <-> b and (a, b) <-> (-a, -b): {1 2, 2 3} (12), {1 1, 3 3}, {1 3}, {2 2}.
        let solver = Solver::new(&c3, &atm, &opts(1 << 20), &Control::default()).unwrap();
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let fixing = solver.symmetries.fixing(&superflip);
        assert_eq!(fixing.len(), 48);
        let rank = rotation_ranks(atm.len(), &fixing);
        let mut sizes = vec![0; 1 + *rank.iter().max().unwrap() as usize];
        for &r in &rank {
            sizes[r as usize] += 1;
        }
        assert_eq!(sizes, vec![12, 12, 6, 6, 6, 3]);
        // Without symmetries every letter is its own class.
        let rank = rotation_ranks(atm.len(), &[]);
        assert_eq!(rank, (0..atm.len() as u32).collect::<Vec<_>>());
    }

    /// Whether every prefix of `ranks` passes the prenecklace test.
    fn passes(ranks: &[u32]) -> bool {
        let mut period = 1;
        for len in 1..ranks.len() {
            match next_period(ranks[len - period], len, period, ranks[len]) {
                Some(p) => period = p,
                None => return false,
            }
        }
        true
    }

    #[test]
    fn least_rotations_pass_the_necklace_test() {
        // Every sequence of up to 8 ranks among 3: its least rotation passes (the search
        // keeps it), and so does nothing that starts above its least rank; a sequence that
        // passes is at most each of its rotations on the length of the shorter prefix.
        for len in 1..=8u32 {
            for code in 0..3u32.pow(len) {
                let ranks: Vec<u32> = (0..len).map(|i| code / 3u32.pow(i) % 3).collect();
                let n = ranks.len();
                let rotations: Vec<Vec<u32>> = (0..n)
                    .map(|k| ranks[k..].iter().chain(&ranks[..k]).copied().collect())
                    .collect();
                let least = rotations.iter().min().unwrap();
                assert!(passes(least), "{least:?}");
                if passes(&ranks) {
                    assert_eq!(ranks[0], *ranks.iter().min().unwrap(), "{ranks:?}");
                    for k in 1..n {
                        assert!(ranks[..n - k] <= ranks[k..], "{ranks:?} at {k}");
                    }
                }
            }
        }
    }

    /// The reversal rule of [`Search::reversed_below`], on the ranks alone.
    fn reverse_passes(ranks: &[u32]) -> bool {
        (1..=ranks.len()).all(|t| {
            let p = &ranks[..t];
            let r: Vec<u32> = p.iter().rev().copied().collect();
            p[0] != p[t - 1] || p <= &r[..]
        })
    }

    #[test]
    fn least_bracelets_pass_both_tests() {
        // Every sequence of up to 8 ranks among 3: the least of its rotations and of its
        // reversal's rotations passes the necklace test and the reversal rule, and the
        // rule shuts out some necklaces.
        let mut shut = 0;
        for len in 1..=8u32 {
            for code in 0..3u32.pow(len) {
                let ranks: Vec<u32> = (0..len).map(|i| code / 3u32.pow(i) % 3).collect();
                let n = ranks.len();
                let back: Vec<u32> = ranks.iter().rev().copied().collect();
                let least = (0..n)
                    .flat_map(|k| {
                        [&ranks, &back].map(|s| s[k..].iter().chain(&s[..k]).copied().collect())
                    })
                    .min()
                    .unwrap();
                let least: Vec<u32> = least;
                assert!(passes(&least) && reverse_passes(&least), "{least:?}");
                shut += (passes(&ranks) && !reverse_passes(&ranks)) as u32;
            }
        }
        assert!(shut > 0);
        // On the 3x3x3 in atm, reversing keeps canonical sequences canonical; the inverse
        // of every letter has its rank under the superflip's symmetries.
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        assert!(reversals_stay_canonical(&atm, &Canon::new(&atm)));
        let solver = Solver::new(&c3, &atm, &opts(1 << 20), &Control::default()).unwrap();
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let rank = rotation_ranks(atm.len(), &solver.symmetries.fixing(&superflip));
        assert!((0..atm.len()).all(|l| rank[atm.alphabet.inverse[l] as usize] == rank[l]));
    }

    /// Superflip is 14 in atm: heavy (large tables), run with --ignored or in the benchmark.
    #[test]
    #[ignore]
    fn superflip_atm() {
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES).unwrap();
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let r = optimal(
            &c3,
            &atm,
            &superflip,
            &OptimalOptions::default(),
            &Control::default(),
        )
        .unwrap();
        assert_eq!(r.cost, 14);
        assert!(r.verified);
    }
}
