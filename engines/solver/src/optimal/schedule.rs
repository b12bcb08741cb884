//! The threads that run a search's tasks (see `heads.rs` for the tasks and their order):
//! the threads take whole tasks in order, then share the ones still running child by
//! child. Solutions are ordered by (task, child), so [`Wanted::Earliest`] returns the
//! same one on every run.

use super::heads::Task;
use super::necklace::Necklace;
use super::search::{Search, Workspace};
use super::{Solver, Wanted};
use crate::canon::Canon;
use crate::error::SolveError;
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Keys of the subtrees of one task (see [`Team::subtree`]): task `k`'s are `k * SUB + j`,
/// `j` the place of the child in the task's node's list of children left.
const SUB: usize = 1 << 20;

/// A thread's part in an iteration: the task it searches, and what the threads share.
pub(super) struct Team<'a> {
    wanted: Wanted,
    /// The lowest key (see [`SUB`]) whose subtree found a solution (`usize::MAX`: none
    /// yet); with [`Wanted::Earliest`] the subtrees after it stop and those before it go
    /// on, so the solution returned is the same on every run.
    found: &'a AtomicUsize,
    solutions: &'a Mutex<Vec<(usize, Vec<u32>)>>,
    /// The key of the task (`task * SUB`), and of the subtree being searched.
    base: usize,
    key: usize,
    /// Threads may share a task: at depth `claim_depth` (the task's node) each child's
    /// subtree is claimed from this counter, whose value is the next child's place in the
    /// node's (deterministic) list of children left.
    claim: &'a AtomicUsize,
    claim_depth: usize,
}

impl Team<'_> {
    /// Records `path` as a solution of the subtree searched.
    pub(super) fn record(&self, path: &[u32]) {
        self.solutions
            .lock()
            .unwrap()
            .push((self.key, path.to_vec()));
        self.found.fetch_min(self.key, Ordering::Relaxed);
    }

    /// Whether the children at `depth` are shared with other threads (the task's node).
    #[inline]
    pub(super) fn shares(&self, depth: usize) -> bool {
        depth == self.claim_depth
    }

    /// The place of the next child to search: claimed from the shared counter, or `place`.
    #[inline]
    pub(super) fn take(&self, shared: bool, place: usize) -> usize {
        if shared {
            self.claim.fetch_add(1, Ordering::Relaxed)
        } else {
            place
        }
    }

    /// Enters the subtree of the shared node's child at place `j`.
    #[inline]
    pub(super) fn subtree(&mut self, j: usize) {
        self.key = self.base + j;
    }

    /// Whether the subtree searched stops (see [`Wanted::stops`]).
    #[inline]
    pub(super) fn stops(&self) -> bool {
        self.wanted
            .stops(self.found.load(Ordering::Relaxed), self.key)
    }
}

/// One iteration of the search: every task in `order` at cost `bound`.
pub(super) struct Iteration<'a> {
    pub(super) s: &'a Solver,
    /// The canonical automaton followed (the solver's, or its refinement).
    pub(super) canon: &'a Canon,
    pub(super) bound: u32,
    pub(super) wanted: Wanted,
    pub(super) tasks: &'a [Task],
    pub(super) order: &'a [usize],
    pub(super) rules: Necklace<'a>,
    pub(super) start: &'a [u8],
    pub(super) solved: &'a [u8],
    pub(super) max_depth: usize,
    pub(super) ctl: &'a Control,
}

/// What an iteration found.
pub(super) struct Outcome {
    /// The least cost above the bound met (`u32::MAX`: none).
    pub(super) next: u32,
    pub(super) nodes: u64,
    /// The solutions with their keys (see [`Team`]).
    pub(super) solutions: Vec<(usize, Vec<u32>)>,
    /// Nodes of each task, in `order`.
    pub(super) sizes: Vec<u64>,
}

impl Iteration<'_> {
    /// Runs the tasks on the threads of the current rayon pool.
    pub(super) fn run(&self) -> Result<Outcome, SolveError> {
        let (order, wanted) = (self.order, self.wanted);
        let found = AtomicUsize::new(usize::MAX);
        let solutions = Mutex::new(Vec::new());
        let total_nodes = AtomicU64::new(0);
        // Task `order[k]` runs as number `k`, its subtrees with the keys from `k * SUB`
        // on: a solution found in one ends the subtrees after it (with `Earliest`; all
        // of them with `First`), and those before it (still running, or not yet
        // started) go on.
        let claims: Vec<AtomicUsize> = (0..order.len()).map(|_| AtomicUsize::new(0)).collect();
        let task_nodes: Vec<AtomicU64> = (0..order.len()).map(|_| AtomicU64::new(0)).collect();
        // A task some thread has returned from: every child of its node is claimed, so a
        // thread joining it would only enter its first letters again; and its node is
        // counted by the first thread to return.
        let returned: Vec<AtomicBool> = (0..order.len()).map(|_| AtomicBool::new(false)).collect();
        let run = |task: usize, t: &Task, ws: &mut Option<Workspace>| -> Result<u32, SolveError> {
            let base = task * SUB;
            if wanted.stops(found.load(Ordering::Relaxed), base)
                || returned[task].load(Ordering::Relaxed)
            {
                return Ok(u32::MAX);
            }
            self.ctl.check()?;
            let team = Team {
                wanted,
                found: &found,
                solutions: &solutions,
                base,
                key: base,
                claim: &claims[task],
                claim_depth: t.letters.len() - 1,
            };
            let buffers = ws
                .take()
                .unwrap_or_else(|| Workspace::new(self.s, self.solved, self.max_depth));
            let mut search = Search::new(
                self.s, self.canon, self.bound, team, self.rules, buffers, self.ctl,
            );
            let ended = search.task(self.start, t);
            let (nodes, next_bound) = (search.nodes, search.next_bound);
            *ws = Some(search.into_workspace());
            let again = returned[task].swap(true, Ordering::Relaxed);
            if let Some(next) = ended? {
                return Ok(next);
            }
            // A shared task's node is counted once, whichever threads went through it.
            let nodes = nodes - again as u64;
            total_nodes.fetch_add(nodes, Ordering::Relaxed);
            task_nodes[task].fetch_add(nodes, Ordering::Relaxed);
            Ok(next_bound)
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
                let mut ws = None;
                loop {
                    let k = taken.fetch_add(1, Ordering::Relaxed);
                    if k >= order.len() || wanted.stops(found.load(Ordering::Relaxed), k * SUB) {
                        break;
                    }
                    next = next.min(run(k, &self.tasks[order[k]], &mut ws)?);
                }
                for (k, &t) in order.iter().enumerate() {
                    if wanted.stops(found.load(Ordering::Relaxed), k * SUB) {
                        break;
                    }
                    next = next.min(run(k, &self.tasks[t], &mut ws)?);
                }
                Ok(next)
            })
            .try_reduce(|| u32::MAX, |a, b| Ok(a.min(b)))?;
        Ok(Outcome {
            next,
            nodes: total_nodes.load(Ordering::Relaxed),
            solutions: solutions.into_inner().unwrap(),
            sizes: task_nodes
                .iter()
                .map(|n| n.load(Ordering::Relaxed))
                .collect(),
        })
    }
}
