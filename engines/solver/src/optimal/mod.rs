//! Optimal solving: iterative deepening A* over canonical sequences, pruned by pattern
//! databases on the position and on its inverse (a position and its inverse are at the
//! same distance when every letter costs what its inverse costs), in parallel over the
//! first moves (tasks of two letters, shared by the threads child by child). Positions
//! fixed by symmetries search one image of each solution (one task per class, and below
//! it the least image letter by letter); central ones keep one rotation (and,
//! when self-inverse, one reversal) of each solution. Every solution is re-checked by
//! applying it to the position.
//!
//! - `solver`: [`Solver`], its tables and rules, and the iterations of increasing cost.
//! - `bound`: the lower bound of a position, in rounds of table look-ups.
//! - `plan`: which look-ups a bound makes in which round, shared by a node's children.
//! - `axes`: the conjugates the tables over several orbits are looked up on.
//! - `fixed`: the look-ups a letter leaves unchanged (on inverses).
//! - `ends`: the letters a solution cannot end with, from the look-ups on the position.
//! - `incremental`: their indices on the position and its conjugates, followed from node
//!   to node by move tables.
//! - `search`: the depth-first search of one thread below a task's first letters.
//! - `schedule`: the tasks, their order, and the threads that share them.
//! - `necklace`: the rules that keep one image of each solution (rotations and reversals
//!   for central positions, symmetric images for symmetric ones).

mod axes;
mod bound;
mod ends;
mod fixed;
mod heads;
mod incremental;
mod necklace;
mod plan;
#[cfg(test)]
mod refine_tests;
mod refined;
mod schedule;
mod search;
mod solver;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use necklace::rotation_ranks;
pub use solver::{table_budget, Solver, TablePlan, DEFAULT_MAX_BUDGET};

use crate::error::SolveError;
use crate::metric::Metric;
use crate::pdb::default_cache_dir;
use puz_core::{Control, Perm, Puzzle};
use std::path::PathBuf;

/// Options of the optimal solver.
#[derive(Clone, Debug)]
pub struct OptimalOptions {
    /// List every optimal canonical solution instead of one.
    pub all: bool,
    /// Return the first solution any search thread finds instead of the reproducible one
    /// (see [`Wanted`]).
    pub first: bool,
    /// Bytes for the pattern databases (default: a quarter of the memory limit, at most 4 GiB).
    pub table_memory: Option<u64>,
    /// Where tables are cached (`None`: not cached). Default: `$XDG_CACHE_HOME/puz` or `~/.cache/puz`.
    pub cache: Option<PathBuf>,
    /// Read cached tables into fresh memory instead of mapping their files (see
    /// [`Cache::map`](crate::pdb::Cache::map)): slower to load, a little faster to search.
    pub copy_tables: bool,
    /// Give up above this cost.
    pub max_cost: u32,
    /// At most this many symmetries whose conjugates are looked up too (each costs look-ups
    /// at every node).
    pub conjugates: usize,
    /// After this many nodes, a search leaves out the canonical sequences that hold a
    /// redundant factor (see `redundant.rs`; `None`: never). The refinement is made once
    /// per solver (and once more for the rotation rule of a central position), in about
    /// the time of a few hundred thousand nodes.
    pub refine_after: Option<u64>,
    /// A cost is searched in fine heads (see `heads.rs`), in the order of their sizes at
    /// the cost before, once that cost took this many nodes for each fine head (`None`:
    /// never: pairs of first letters in order of their bound).
    pub fine_after: Option<f64>,
    /// Beside the first table over several orbits, a second one when it fits: every piece
    /// of an orbit with the slice's set, in place of that orbit's table (see
    /// `pdb/choice.rs`). `None`: where it pays, as the tables' means say (see
    /// `pdb::second_pays`: on the 3x3x3 at 4 GiB, in atm and not in htm); `Some`: always
    /// or never.
    pub second_table: Option<bool>,
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
            refine_after: Some(10_000),
            fine_after: Some(heads::NODES_PER_TASK),
            second_table: None,
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

/// Which optimal solutions [`Solver::solve`] returns. The search runs tasks (pairs of first
/// letters) in a fixed order on every thread; the last iteration ends when a task finds a
/// solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The solution of the earliest task that has one: the same on every run. The tasks
    /// before it are searched to their end, which can take longer than finding it (see
    /// benches/solver/README.md).
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
    #[inline]
    fn stops(self, found: usize, task: usize) -> bool {
        match self {
            Wanted::Earliest => found <= task,
            Wanted::First => found != usize::MAX,
            Wanted::All => false,
        }
    }
}

/// Conjugates looked up by default. Each one costs table look-ups at every node and saves
/// nodes; one was the fastest on the benchmark (see benches/solver/README.md).
const MAX_CONJUGATORS: usize = 1;

/// An optimal solution of `position` in `metric` (see [`Solver`] to solve many).
pub fn optimal(
    puzzle: &Puzzle,
    metric: &Metric,
    position: &Perm,
    opts: &OptimalOptions,
    ctl: &Control,
) -> Result<Optimal, SolveError> {
    if let Some(r) = without_tables(metric, position, opts.all) {
        return Ok(r);
    }
    Solver::new(puzzle, metric, opts, ctl)?.solve(position, opts.wanted(), ctl)
}

impl OptimalOptions {
    /// The options with what only `Solver::solve` reads (`all`, `first`) left at their
    /// defaults: two option sets whose `for_tables` agree make the same solver.
    pub fn for_tables(&self) -> OptimalOptions {
        OptimalOptions {
            all: false,
            first: false,
            ..self.clone()
        }
    }

    /// Which solutions the options ask for.
    pub fn wanted(&self) -> Wanted {
        if self.all {
            Wanted::All
        } else if self.first {
            Wanted::First
        } else {
            Wanted::Earliest
        }
    }
}

/// The answers that need no table: the solved position, and a position one cheapest
/// letter away (nothing costs less, so that letter is optimal).
pub fn without_tables(metric: &Metric, position: &Perm, all: bool) -> Option<Optimal> {
    let answer = |solutions: Vec<Solution>, cost: u64| Optimal {
        cost,
        solutions,
        proved_optimal: true,
        verified: true,
        nodes: 1,
        tables: vec![],
        symmetry: 1,
    };
    if position.is_identity() {
        let none = Solution {
            letters: vec![],
            text: String::new(),
            cost: 0,
        };
        return Some(answer(vec![none], 0));
    }
    let cheapest = *metric.cost.iter().min()?;
    let mut found = Vec::new();
    for (l, perm) in metric.alphabet.perms.iter().enumerate() {
        if metric.cost[l] == cheapest && position.then(perm).is_identity() {
            found.push(Solution {
                letters: vec![l as u32],
                text: metric.display(&[l as u32]),
                cost: cheapest as u64,
            });
            if !all {
                break;
            }
        }
    }
    (!found.is_empty()).then(|| answer(found, cheapest as u64))
}
