//! [`Solver`]: a puzzle's model, metric, canonical sequences, tables and symmetries, kept
//! for many positions, and [`Solver::solve`], the iterations of increasing cost.

use super::axes::axes;
use super::ends::{final_letters, mask_of};
use super::fixed::fixed_lookups;
use super::heads::{Heads, Start};
use super::incremental::Incremental;
use super::necklace::{reversals_stay_canonical, rotations_stay_canonical, Rules};
use super::refined::Refined;
use super::schedule::Iteration;
use super::{Optimal, OptimalOptions, Solution, Wanted};
use crate::canon::Canon;
use crate::error::{invalid, SolveError};
use crate::metric::Metric;
use crate::model::{Action, CellMap, Model};
use crate::pdb::{plan, plan_second, symmetric::conjugations, Cache, Heuristic, Locator, Shape};
use crate::split::Split;
use crate::symmetry::Symmetries;
use puz_core::{count, Control, Perm, Puzzle};
use std::path::PathBuf;
use std::sync::Mutex;

/// A solver for one puzzle and metric, keeping its tables for many positions.
pub struct Solver {
    pub(super) model: Model,
    pub(super) metric: Metric,
    pub(super) actions: Vec<Action>,
    pub(super) canon: Canon,
    /// `canon` without sequences holding a redundant factor (see `redundant.rs`), made
    /// once a search is large enough to repay it: per ranks of the letters (all 0 but
    /// under the rotation rule), `None` where the metric does not allow it.
    pub(super) refined: Mutex<Refined>,
    /// Where refined automata are saved and read back (`pdb/refined_cache.rs`): the
    /// cache folder, the puzzle's key and its title.
    pub(super) saved: Option<(PathBuf, u64, String)>,
    pub(super) heuristic: Heuristic,
    /// Symmetries `c` of the puzzle whose conjugation maps the letters onto the letters:
    /// `c^-1 p c` is as far from solved as `p`, so the tables are also looked up on it
    /// (stored as the state of `c^-1` and the action of `c`).
    pub(super) conjugators: Vec<CellMap>,
    pub(super) symmetries: Symmetries,
    pub(super) locator: Locator,
    /// The variants looked up: (conjugator, inverse?), the first one `(None, false)`.
    pub(super) variants: Vec<(Option<usize>, bool)>,
    /// Per variant: its table values follow the rule of [`Parent`](super::bound::Parent)
    /// (it is not an inverse).
    pub(super) consistent: Vec<bool>,
    /// Per (variant, table): whether to look it up. A table that follows every piece of
    /// its orbit holds distances in a quotient group of the puzzle, the same on the
    /// position as on its inverse and its conjugates: it is looked up on the position only.
    pub(super) needed: Vec<bool>,
    /// Per letter: the (variant, table) look-ups it leaves unchanged, as bits `v * tables
    /// + k` (see `fixed.rs`).
    pub(super) fixed: Vec<u64>,
    /// Per letter: the look-ups whose entry on the child is the one beside the parent's
    /// (see `fixed.rs`), as bits.
    pub(super) flipped: Vec<u64>,
    /// Per (variant, table): the letters a solution cannot end with when the look-up's
    /// value is the cost left (see `ends.rs`); the look-ups with any (bits), and every
    /// letter (bits).
    pub(super) final_letters: Vec<u64>,
    pub(super) ending: u64,
    pub(super) letters: u64,
    /// The look-ups whose indices the search follows from node to node.
    pub(super) incremental: Incremental,
    /// Per letter: the cost of its inverse.
    pub(super) back: Vec<u32>,
    /// Whether every rotation of an optimal canonical sequence is canonical: the canonical
    /// automaton only remembers the last letter, and every pair it refuses multiplies to
    /// the identity or to one cheaper letter (so no optimal sequence holds it, even across
    /// the wrap). True in atm on the 3x3x3; not in htm, which refuses `D U` for `U D`.
    pub(super) rotations: bool,
    /// Whether the inverse of an optimal canonical sequence, read backwards, is canonical,
    /// and every letter costs what its inverse costs (see
    /// [`reversals_stay_canonical`]).
    pub(super) reversals: bool,
    pub(super) degree: usize,
    pub(super) max_cost: u32,
    /// See [`OptimalOptions::refine_after`].
    pub(super) refine_after: Option<u64>,
    /// See [`OptimalOptions::fine_after`].
    pub(super) fine_after: Option<f64>,
    /// The puzzle seen with its orbits split by the letters' orbits of places (see
    /// `split.rs`): positions are carried over before they are solved.
    pub(super) split: Option<Split>,
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

/// The puzzle as byte states, and the metric's letters acting on them.
fn model_and_actions(puzzle: &Puzzle, metric: &Metric) -> Result<(Model, Vec<Action>), SolveError> {
    // A pattern ranks its pieces' locations with a 64-bit mask of the locations used.
    if let Some(o) = puzzle.orbits.iter().find(|o| o.size > MAX_PATTERN_ORBIT) {
        return invalid(format!(
            "orbit `{}` has {} locations; optimal's pattern tables handle orbits of at most {MAX_PATTERN_ORBIT}",
            o.name, o.size
        ));
    }
    let mut model = Model::new(puzzle)?;
    let mut actions = Vec::new();
    for p in &metric.alphabet.perms {
        match model.action(p) {
            Some(a) => actions.push(a),
            None => return invalid("a generator is not a position of the puzzle"),
        }
    }
    model.keep_sums_of(&actions);
    Ok((model, actions))
}

/// The bytes of tables: as asked, else a quarter of the memory limit, at most 4 GiB.
pub fn table_budget(opts: &OptimalOptions, ctl: &Control) -> u64 {
    opts.table_memory
        .unwrap_or((ctl.memory_limit / 4).min(DEFAULT_MAX_BUDGET))
}

/// The most the tables take unless asked for more: on the 3x3x3 nxopt's table in two-bit
/// entries (2.5 GB), which solves random positions two to three times sooner than the
/// table with the parity that 2 GiB holds, for a first call that builds it in more than
/// twice the time (`benches/results.md`). A machine with less than 16 GiB free gets less
/// (nxopt's table from 3 GiB).
pub const DEFAULT_MAX_BUDGET: u64 = 4 << 30;

/// What [`Solver::new`] would do about its tables (see [`Solver::table_plan`]).
#[derive(Clone, Debug)]
pub struct TablePlan {
    /// The budget in bytes, and whether it was asked for (`memory:`) or the default.
    pub budget: u64,
    pub asked: bool,
    /// Bytes of the tables, and of those the cache does not hold (to be built).
    pub bytes: u64,
    pub to_build: u64,
    /// Bytes of a second table to be built after those if the tables' means say it
    /// pays (with `second_table` unset; see `pdb::second_pays`), when the cache does not
    /// hold it.
    pub maybe: u64,
    pub cache: Option<PathBuf>,
}

/// The most locations an orbit may have for pattern tables.
const MAX_PATTERN_ORBIT: usize = 64;

impl Solver {
    /// The tables [`Solver::new`] would use with these options, and which must be built,
    /// without building any (to say what is about to happen before a long build).
    pub fn table_plan(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        ctl: &Control,
    ) -> Result<TablePlan, SolveError> {
        let split = Split::of(puzzle, metric);
        let (puzzle, metric) = split
            .as_ref()
            .map_or((puzzle, metric), |s| (&s.puzzle, &s.metric));
        let (model, actions) = model_and_actions(puzzle, metric)?;
        let budget = table_budget(opts, ctl);
        let symmetries = Symmetries::new(puzzle, metric, &Canon::new(metric));
        let conj = conjugations(&model, &symmetries.all);
        let plan_with = |second| {
            let (key, cost, dir) = (puzzle_key(puzzle), &metric.cost, opts.cache.as_deref());
            plan(
                key,
                &model,
                cost,
                &actions,
                (budget, second),
                &conj,
                dir,
                ctl,
            )
        };
        let (planned, maybe) = match opts.second_table {
            Some(second) => (plan_with(second), 0),
            None => {
                let (planned, swap) = plan_second(plan_with);
                let second = swap.filter(|(_, t)| !t.cached);
                (planned, second.map_or(0, |(_, t)| t.shape.bytes()))
            }
        };
        Ok(TablePlan {
            budget,
            asked: opts.table_memory.is_some(),
            bytes: planned.iter().map(|t| t.shape.bytes()).sum(),
            to_build: planned
                .iter()
                .filter(|t| !t.cached)
                .map(|t| t.shape.bytes())
                .sum(),
            maybe,
            cache: opts.cache.clone(),
        })
    }

    /// Prepares the canonical table and the pattern databases (built or loaded).
    pub fn new(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        ctl: &Control,
    ) -> Result<Solver, SolveError> {
        let split = Split::of(puzzle, metric);
        let (puzzle, metric) = split
            .as_ref()
            .map_or((puzzle, metric), |s| (&s.puzzle, &s.metric));
        let (model, actions) = model_and_actions(puzzle, metric)?;
        let canon = Canon::new(metric);
        let budget = table_budget(opts, ctl);
        let title = format!("{}, {}", puzzle.name, metric.name);
        let symmetries = Symmetries::new(puzzle, metric, &canon);
        let heuristic = Heuristic::build_chosen(
            puzzle_key(puzzle),
            &model,
            metric,
            &actions,
            (budget, opts.second_table),
            &conjugations(&model, &symmetries.all),
            opts.cache.as_deref().map(|dir| Cache {
                dir,
                map: !opts.copy_tables,
                title: &title,
            }),
            ctl,
        )?;
        let mut solver = Solver::assemble(
            puzzle, metric, opts, model, actions, canon, heuristic, symmetries,
        )?;
        solver.split = split;
        Ok(solver)
    }

    /// A solver with the tables of `shapes` (tests of the search with chosen tables).
    #[cfg(test)]
    pub(super) fn with_shapes(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        shapes: Vec<crate::pdb::Shape>,
        ctl: &Control,
    ) -> Result<Solver, SolveError> {
        let (model, actions) = model_and_actions(puzzle, metric)?;
        let canon = Canon::new(metric);
        let heuristic = Heuristic::of_shapes(&model, metric, &actions, shapes, ctl)?;
        let symmetries = Symmetries::new(puzzle, metric, &canon);
        Solver::assemble(
            puzzle, metric, opts, model, actions, canon, heuristic, symmetries,
        )
    }

    /// A solver with the tables of `shapes` left empty (tests of indices only: a look-up
    /// would read past them).
    #[cfg(test)]
    pub(super) fn with_shapes_unfilled(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        shapes: Vec<crate::pdb::Shape>,
    ) -> Result<Solver, SolveError> {
        let (model, actions) = model_and_actions(puzzle, metric)?;
        let canon = Canon::new(metric);
        let heuristic = Heuristic {
            pdbs: shapes.into_iter().map(crate::pdb::Pdb::unfilled).collect(),
            report: Vec::new(),
            saving: Default::default(),
        };
        let symmetries = Symmetries::new(puzzle, metric, &canon);
        Solver::assemble(
            puzzle, metric, opts, model, actions, canon, heuristic, symmetries,
        )
    }

    /// The solver without its conjugates: the position and its inverse only (tests that
    /// compare the two). What follows from the variants is worked out again.
    #[cfg(test)]
    pub(super) fn drop_conjugates(&mut self) {
        let np = self.heuristic.pdbs.len();
        let keep: Vec<bool> = self.variants.iter().map(|v| v.0.is_none()).collect();
        self.needed = self
            .needed
            .chunks(np)
            .zip(&keep)
            .filter(|(_, &k)| k)
            .flat_map(|(c, _)| c.iter().copied())
            .collect();
        self.consistent = self
            .variants
            .iter()
            .filter(|v| v.0.is_none())
            .map(|v| !v.1)
            .collect();
        self.variants.retain(|v| v.0.is_none());
        self.conjugators.clear();
        let shapes: Vec<_> = self
            .heuristic
            .pdbs
            .iter()
            .map(|p| p.shape.clone())
            .collect();
        [self.fixed, self.flipped] = fixed_lookups(
            &self.model,
            &self.actions,
            &self.metric.alphabet.inverse,
            &shapes,
            &self.variants,
            &self.conjugators,
            &self.needed,
        );
        self.final_letters = final_letters(
            &self.model,
            &self.actions,
            (self.back == self.metric.cost).then_some(&self.metric.alphabet.inverse[..]),
            &shapes,
            &self.variants,
            &self.conjugators,
            &self.needed,
        );
        self.ending = mask_of(&self.final_letters);
        self.incremental = Incremental::new(
            &self.model,
            &self.actions,
            &shapes,
            &self.variants,
            &self.conjugators,
            &self.needed,
        );
    }

    /// The solver around its tables: the conjugators, the variants and which tables each
    /// one reads, the rules for symmetric positions.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        puzzle: &Puzzle,
        metric: &Metric,
        opts: &OptimalOptions,
        model: Model,
        actions: Vec<Action>,
        canon: Canon,
        heuristic: Heuristic,
        symmetries: Symmetries,
    ) -> Result<Solver, SolveError> {
        let use_inverse = (0..metric.len())
            .all(|l| metric.cost[l] == metric.cost[metric.alphabet.inverse[l] as usize]);
        let mut heuristic = heuristic;
        let mut names = Vec::new();
        let mut conjugators = Vec::new();
        // Beside a table over several orbits, the tables of pieces are read on the position
        // and its inverse only: their conjugates cut 2% of the nodes for 20% more time
        // (16-move 3x3x3 scrambles in htm, benches/results.md).
        let several = heuristic
            .pdbs
            .iter()
            .any(|p| matches!(p.shape, Shape::Coords(_)));
        let piece_conjugates = if several { 0 } else { opts.conjugates };
        for (name, c) in symmetries.generators.iter().take(piece_conjugates) {
            let Some(map) = model.conjugation_by(c) else {
                continue;
            };
            names.push(name.clone());
            conjugators.push(map);
        }
        if !names.is_empty() {
            heuristic.report.push(format!(
                "every table of pieces also looked up on the conjugates by {}",
                names.join(", ")
            ));
        }
        // The tables over several orbits are looked up on one conjugate per slice their
        // symmetries make, and not on the conjugates above unless one of them is such.
        let shapes: Vec<_> = heuristic.pdbs.iter().map(|p| p.shape.clone()).collect();
        let base = conjugators.len();
        let found = axes(&model, &symmetries.generators, &shapes);
        let mut serves: Vec<Vec<usize>> = vec![Vec::new(); base];
        for a in found {
            heuristic.report.push(format!(
                "table {} also looked up on the conjugate by {} (its set then reads pieces {:?})",
                a.tables
                    .iter()
                    .map(|k| (k + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                a.name,
                a.reads
            ));
            conjugators.push(a.map);
            serves.push(a.tables);
        }
        let mut variants = Vec::new();
        for conj in std::iter::once(None).chain((0..conjugators.len()).map(Some)) {
            variants.push((conj, false));
            if use_inverse {
                variants.push((conj, true));
            }
        }
        // Per (variant, table): tables of pieces on the position and the first conjugates,
        // tables over several orbits on the position and their own conjugates; those that
        // `Shape::position_only` says on the position only.
        let needed: Vec<bool> = variants
            .iter()
            .enumerate()
            .flat_map(|(v, &(conj, _))| {
                let serves = &serves;
                heuristic
                    .pdbs
                    .iter()
                    .enumerate()
                    .map(move |(k, p)| match (&p.shape, conj) {
                        _ if p.shape.position_only() => v == 0,
                        (Shape::Pieces(_), None) => true,
                        (Shape::Pieces(_), Some(c)) => c < base,
                        (Shape::Coords(_), None) => true,
                        (Shape::Coords(_), Some(c)) => c >= base && serves[c].contains(&k),
                    })
            })
            .collect();
        let rotations = rotations_stay_canonical(metric, &canon);
        let reversals = reversals_stay_canonical(metric, &canon);
        let incremental =
            Incremental::new(&model, &actions, &shapes, &variants, &conjugators, &needed);
        let [fixed, flipped] = fixed_lookups(
            &model,
            &actions,
            &metric.alphabet.inverse,
            &shapes,
            &variants,
            &conjugators,
            &needed,
        );
        let final_letters = final_letters(
            &model,
            &actions,
            use_inverse.then_some(&metric.alphabet.inverse[..]),
            &shapes,
            &variants,
            &conjugators,
            &needed,
        );
        Ok(Solver {
            ending: mask_of(&final_letters),
            letters: if metric.len() >= 64 {
                u64::MAX
            } else {
                (1 << metric.len()) - 1
            },
            final_letters,
            rotations,
            reversals,
            needed,
            incremental,
            fixed,
            flipped,
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
            refined: Mutex::new(Vec::new()),
            saved: opts.cache.clone().map(|dir| {
                (
                    dir,
                    puzzle_key(puzzle),
                    format!("{}, {}", puzzle.name, metric.name),
                )
            }),
            heuristic,
            degree: puzzle.degree(),
            max_cost: opts.max_cost,
            refine_after: opts.refine_after,
            fine_after: opts.fine_after,
            split: None,
        })
    }

    /// The tables used, one line each.
    pub fn tables(&self) -> &[String] {
        &self.heuristic.report
    }

    /// Bytes of its tables, with the classes of the keys of those reduced by symmetries.
    pub fn table_bytes(&self) -> u64 {
        self.heuristic
            .pdbs
            .iter()
            .map(|p| {
                let classes = match &p.shape {
                    crate::pdb::Shape::Coords(c) => c.sym.as_ref().map_or(0, |r| r.bytes()),
                    crate::pdb::Shape::Pieces(_) => 0,
                };
                p.table.len() as u64 + classes
            })
            .sum()
    }

    /// Per table: what it follows, its bytes, and how many entries hold each value.
    pub fn histograms(&self) -> Vec<(String, u64, [u64; 16])> {
        self.heuristic
            .pdbs
            .iter()
            .map(|p| (p.shape.describe(), p.shape.bytes(), p.histogram()))
            .collect()
    }

    /// An optimal solution of `position`, or all of them (see [`Wanted`]).
    pub fn solve(
        &self,
        position: &Perm,
        wanted: Wanted,
        ctl: &Control,
    ) -> Result<Optimal, SolveError> {
        let all = wanted == Wanted::All;
        let carried;
        let position = match &self.split {
            Some(s) => {
                carried = s.carry(position);
                &carried
            }
            None => position,
        };
        let Some(start) = self.model.state_of(position) else {
            return invalid(if self.split.is_some() {
                "the position moves a piece to a place the metric's letters never take it"
            } else {
                "the position is not a position of this puzzle"
            });
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
        let mut bound = self.root_bound(&start);
        let max_depth = self.max_cost as usize + 2;
        // Listing every solution needs every task; one solution needs one task per class.
        let fixing = if all {
            Vec::new()
        } else {
            self.symmetries.fixing(position)
        };
        let rules = Rules::new(self, position, &fixing, all);
        let at = Start {
            fixing: &fixing,
            rank: &rules.rank,
            start: &start,
            solved: &solved,
        };
        let mut heads = Heads::new(self, &at);
        // The nodes of the cost before, which choose the tasks' grain.
        let mut before = 0;
        // Listing every solution needs every canonical sequence; the rules keeping one
        // image of each solution keep the least one, letters compared by number, which is
        // the refinement's order when letters are numbered by family (see `redundant.rs`
        // and `necklace.rs`).
        let of_letter = &self.metric.families.of_letter;
        let may_refine = !all && (fixing.len() <= 1 || of_letter.is_sorted());
        loop {
            if bound > self.max_cost {
                return invalid(format!("no solution of cost at most {}", self.max_cost));
            }
            ctl.progress(&format!("searching cost {bound}"));
            // Past `refine_after` nodes the next costs are large: the canonical sequences
            // lose those with redundant factors (when `may_refine`).
            let refined = if may_refine && self.refine_after.is_some_and(|n| nodes >= n) {
                self.refined(&rules.rank, ctl)
            } else {
                None
            };
            let canon = refined.as_deref().unwrap_or(&self.canon);
            let (tasks, order) = heads.next(self, &at, before);
            let out = Iteration {
                s: self,
                canon,
                bound,
                wanted,
                tasks,
                order,
                rules: rules.view(),
                start: &start,
                solved: &solved,
                max_depth,
                ctl,
            }
            .run()?;
            nodes += out.nodes;
            ctl.progress(&format!(
                "cost {bound} searched: {} in all",
                count(nodes, "node")
            ));
            if !out.solutions.is_empty() {
                let (solutions, verified) = self.checked(position, out.solutions, all, bound);
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
            if out.next == u32::MAX {
                return invalid("the position cannot be solved with these generators");
            }
            bound = out.next;
            before = out.nodes;
            heads.searched(&out.sizes);
        }
    }

    /// The lower bound of the position `start` (not solved), with fresh buffers.
    fn root_bound(&self, start: &[u8]) -> u32 {
        let mut sc = self.scratch();
        let mut ub = self.values_buffer();
        let hint = &mut (0, usize::MAX);
        self.lower_bound(start, u32::MAX, None, &mut sc, hint, None, &mut ub)
    }

    /// The solution of the lowest key (or every solution, each once), each applied to
    /// `position`: (solutions, whether each one solves it at cost `bound`).
    fn checked(
        &self,
        position: &Perm,
        mut found: Vec<(usize, Vec<u32>)>,
        all: bool,
        bound: u32,
    ) -> (Vec<Solution>, bool) {
        found.sort();
        let mut sols: Vec<Vec<u32>> = found.into_iter().map(|(_, p)| p).collect();
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
                verified &= p.is_identity() && self.metric.cost_of(&letters) == bound as u64;
                Solution {
                    text: self.metric.display(&letters),
                    cost: self.metric.cost_of(&letters),
                    letters,
                }
            })
            .collect();
        (solutions, verified)
    }
}
