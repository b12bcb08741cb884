//! Builtins of distances and optimal solving (LANGUAGE.md section 4), calling the
//! solver engine: `distances`, `distance_counts`, `optimal`.

use super::spec::{Args, Ctx};
use crate::diag::{Diag, EvalResult};
use crate::eval::metrics::{gen_names, group_moves, resolve};
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::{DistanceTable, GroupVal, MetricSpec, SeqVal, Value};
use num_bigint::BigInt;
use puz_core::control::human_bytes;
use puz_core::{count, Control, Perm, Word};
use puz_solver::optimal::{without_tables, DEFAULT_MAX_BUDGET};
use puz_solver::{DistanceOptions, Metric, OptimalOptions, Solver, TablePlan};
use serde_json::Value as J;
use std::rc::Rc;

/// The group, the metric's spec and the options of `distances` (the metric is resolved
/// later: on a puzzle of a thousand points that takes seconds, after a refusal that takes
/// none).
fn dist_args(
    ctx: &Ctx,
    a: &Args,
) -> EvalResult<(
    GroupVal,
    Rc<MetricSpec>,
    DistanceOptions<'static>,
    Option<usize>,
)> {
    let g = a.pos(0).group().clone();
    let spec = ctx.metric(a);
    let depth = a.count("depth")?.map(|d| d.max(0) as usize);
    let samples = a.count("samples")?.unwrap_or(3).max(0) as usize;
    let mut rotations = Vec::new();
    if let Some(x) = a.opt("identify") {
        match &x.value {
            Value::List(items) => rotations.extend(
                items
                    .iter()
                    .filter_map(|v| v.perm())
                    .map(|(_, p)| p.clone()),
            ),
            _ => rotations.push(x.perm().1.clone()),
        }
    } else if matches!(spec.as_ref(), MetricSpec::Named(n) if n == "stm") {
        // Slices turn the whole puzzle: identify positions up to its rotations x, y, z.
        for r in ["x", "y", "z"] {
            if let Some(mi) = g.puzzle.move_index(r) {
                rotations.push(g.puzzle.def.moves[mi].perm.clone());
            }
        }
    }
    Ok((
        g,
        spec,
        DistanceOptions {
            depth,
            ranker: None,
            rotations,
            samples,
        },
        depth,
    ))
}

fn run_distances(ctx: &Ctx, a: &Args) -> EvalResult<(GroupVal, Metric, puz_solver::Distances)> {
    let (g, spec, mut opts, depth) = dist_args(ctx, a)?;
    let eng = g.engine(ctx.ctl, a.span)?;
    let order = eng.group.order();
    // The dense table needs |G| / 4 bytes, and may take half the memory; refuse before
    // starting when it cannot fit and no depth is given.
    let fits = u64::try_from(&order)
        .ok()
        .filter(|n| *n / 4 < ctx.ctl.memory_limit / 2);
    if depth.is_none() && (fits.is_none() || !opts.rotations.is_empty()) {
        let need = &order / 4u32;
        return Err(Diag::new(a.span, format!(
            "{} has {order} positions: a full table needs about {}, and a table may take at most half of the {} available",
            g.text,
            human(&need),
            human_bytes(ctx.ctl.memory_limit)
        ))
        .with_help("give a depth for a breadth-first search of the first layers: `distances(G, depth: 5)`"));
    }
    let names = group_moves(&g, a.span)?;
    let m = resolve(&g.puzzle, &spec, &names, a.span, ctx.ctl)?;
    let ctl = ctx.ctl;
    let r = if fits.is_some() && opts.rotations.is_empty() {
        let ranker: &dyn puz_core::Ranker = &eng.group;
        let opts = DistanceOptions {
            depth,
            ranker: Some(ranker),
            rotations: vec![],
            samples: opts.samples,
        };
        puz_solver::distances(&g.puzzle.def, &m, &opts, ctl)
    } else {
        opts.ranker = None;
        puz_solver::distances(&g.puzzle.def, &m, &opts, ctl)
    };
    let d = r.map_err(|e| Diag::new(a.span, e.to_string()))?;
    Ok((g, m, d))
}

fn human(n: &num_bigint::BigUint) -> String {
    match u64::try_from(n) {
        Ok(b) => puz_core::control::human_bytes(b),
        Err(_) => format!("{n} bytes"),
    }
}

/// `distances(G, metric: m, depth: d)`: positions at each distance, God's number, antipodes.
pub fn distances(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let (g, m, d) = run_distances(ctx, a)?;
    let title = format!("distances in {} of {}", m.name, g.text);
    let mut out = format!("{title} ({})\n", count(m.alphabet.len(), "generator"));
    let w = d
        .counts
        .iter()
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(1)
        .max(9);
    out.push_str(&format!("{:>8}  {:>w$}\n", "distance", "positions"));
    for (i, c) in d.counts.iter().enumerate() {
        out.push_str(&format!("{i:>8}  {c:>w$}\n"));
    }
    out.push_str(&format!("{:>8}  {:>w$}\n", "total", d.total()));
    match d.gods_number() {
        Some(n) => out.push_str(&format!("God's number: {n}\n")),
        None => out.push_str(&format!(
            "searched to distance {} (not every position reached)\n",
            d.max_distance
        )),
    }
    for p in &d.antipodes {
        out.push_str(&format!(
            "at distance {}: {}\n",
            d.max_distance,
            g.puzzle.def.cycle_notation(p)
        ));
    }
    Ok(Value::Distances(Rc::new(DistanceTable {
        title,
        counts: d.counts.iter().map(|&c| c as u128).collect(),
        report: out,
    })))
}

/// `distance_counts(...)`: the same counts as a list, for asserts.
pub fn distance_counts(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let (_, _, d) = run_distances(ctx, a)?;
    Ok(Value::List(
        d.counts
            .iter()
            .map(|&c| Value::Int(BigInt::from(c)))
            .collect(),
    ))
}

/// A metric letter as a puzzle sequence: `U2` or `(D2 U2)`.
fn letter_word(p: &PuzzleCtx, spelling: &[(usize, i64)]) -> Word {
    let items: Vec<Word> = spelling
        .iter()
        .map(|&(mi, k)| p.power_word(mi, k))
        .collect();
    if items.len() == 1 {
        items.into_iter().next().unwrap()
    } else {
        Word::Seq(items.into())
    }
}

/// The line said before tables are built: how much, why that much, where they go, and
/// how to change both.
fn announce(plan: &TablePlan) -> String {
    let budget = if plan.asked {
        format!("the {} asked for", human_bytes(plan.budget))
    } else {
        format!(
            "the default budget, {}: a quarter of free memory, at most {}; `optimal(x, memory: BYTES)` changes it",
            human_bytes(plan.budget),
            human_bytes(DEFAULT_MAX_BUDGET)
        )
    };
    let place = match &plan.cache {
        Some(dir) => format!(
            "saved in {} for later runs (`--cache DIR` or XDG_CACHE_HOME moves it; `puz cache` lists, `puz cache clear` removes)",
            dir.display()
        ),
        None => "not saved (no cache folder)".to_string(),
    };
    let second = "if the tables' means say it pays (`second_table: false` leaves it out)";
    let what = match (plan.to_build, plan.maybe) {
        (n, 0) => format!("building {} of pattern tables once", human_bytes(n)),
        (0, m) => format!(
            "building a second table of {} once {second}",
            human_bytes(m)
        ),
        (n, m) => format!(
            "building {} of pattern tables once, and {} more for a second table {second}",
            human_bytes(n),
            human_bytes(m)
        ),
    };
    format!("optimal: {what} ({budget}), {place}")
}

/// The solver of a batch's items, kept from one to the next while their puzzle, metric
/// and options stay the same: its tables are loaded (and its second table's rule
/// weighed) once a batch. Only within a batch: a REPL keeping it would hold tables built
/// in memory past the call, unaccounted for by later computations' memory checks.
#[derive(Default)]
pub struct SolverMemo(std::cell::RefCell<Option<Kept>>);

/// A kept solver, with the puzzle's context and the key of its metric and options.
type Kept = (Rc<PuzzleCtx>, String, Rc<Solver>);

impl SolverMemo {
    /// The kept solver when it is for puzzle `p` and `key` (the metric and options),
    /// else the one `make` gives (the kept one let go first), kept.
    fn get(
        &self,
        p: &Rc<PuzzleCtx>,
        key: String,
        make: impl FnOnce() -> Result<Solver, puz_solver::SolveError>,
    ) -> Result<Rc<Solver>, puz_solver::SolveError> {
        let mut kept = self.0.borrow_mut();
        if let Some((q, k, s)) = &*kept {
            if Rc::ptr_eq(q, p) && *k == key {
                return Ok(s.clone());
            }
        }
        *kept = None;
        let s = Rc::new(make()?);
        *kept = Some((p.clone(), key, s.clone()));
        Ok(s)
    }
}

/// `optimal(position, metric: m, all: true, first: true, memory: bytes, second_table:
/// true)`: a proved-optimal solution, re-checked by applying it. By default the same
/// solution on every run; `first: true` returns the first one any thread finds (often
/// much sooner); `second_table: true` or `false` asks for a second table over several
/// orbits or not (absent: where it pays).
pub fn optimal(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let (p, pos) = a.pos(0).perm();
    let (p, pos) = (p.clone(), pos.clone());
    let spec = ctx.metric(a);
    let m = resolve(&p, &spec, &gen_names(&p, &p.gens), a.span, ctx.ctl)?;
    let opts = OptimalOptions {
        all: a.flag("all"),
        first: a.flag("first"),
        table_memory: a.count("memory")?.map(|n| n.max(0) as u64),
        second_table: a.opt("second_table").map(|_| a.flag("second_table")),
        ..OptimalOptions::default()
    };
    let opts = match &ctx.cache {
        Some(dir) => OptimalOptions {
            cache: Some(dir.clone()),
            ..opts
        },
        None => opts,
    };
    let ctl = ctx.ctl;
    let fail = |err: puz_solver::SolveError| Diag::new(a.span, err.to_string());
    let r = match without_tables(&m, &pos, opts.all) {
        Some(r) => r,
        None => {
            reachable(&p, &m, &pos, ctl, a)?;
            let make = || {
                let plan = Solver::table_plan(&p.def, &m, &opts, ctl)?;
                if plan.to_build + plan.maybe > 0 {
                    ctl.progress(&announce(&plan));
                }
                Solver::new(&p.def, &m, &opts, ctl)
            };
            let solver = match ctx.solvers {
                Some(memo) => memo.get(&p, format!("{m:?}|{:?}", opts.for_tables()), make),
                None => make().map(Rc::new),
            };
            solver
                .and_then(|s| s.solve(&pos, opts.wanted(), ctl))
                .map_err(fail)?
        }
    };
    let mut seqs = Vec::new();
    for s in &r.solutions {
        let word = Word::seq(
            s.letters
                .iter()
                .map(|&l| letter_word(&p, &m.spelling[l as usize]))
                .collect(),
        );
        // Re-check here too: the position followed by the solution is solved.
        if !pos
            .then(&word.eval(&p.alphabet, p.def.degree()))
            .is_identity()
        {
            return Err(Diag::new(
                a.span,
                "internal error: a solution does not solve the position (please report)",
            ));
        }
        seqs.push(Value::Seq(SeqVal::new(p.clone(), word)));
    }
    let status = if r.proved_optimal {
        "proved optimal"
    } else {
        "NOT proved optimal"
    };
    let mut fields = vec![
        ("length", J::from(r.cost)),
        ("metric", J::from(m.name.clone())),
        ("proved_optimal", J::Bool(r.proved_optimal)),
        // Reached only when every solution solved the position (checked above).
        ("rechecked", J::Bool(true)),
        ("symmetry", J::from(r.symmetry)),
    ];
    if opts.all {
        fields.push(("solutions", J::from(seqs.len())));
    }
    let text = format!(
        "// {} {} in {}, {status}, re-checked by applying it{}{}",
        r.cost,
        if r.cost == 1 { "move" } else { "moves" },
        m.name,
        if r.symmetry > 1 {
            format!(
                "; the position has {} symmetries, so one first move per class was searched",
                r.symmetry
            )
        } else {
            String::new()
        },
        if opts.all {
            format!(
                "; {} optimal solution{}",
                seqs.len(),
                if seqs.len() == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    );
    ctx.note(&text, fields);
    if opts.all {
        Ok(Value::List(seqs))
    } else {
        Ok(seqs
            .into_iter()
            .next()
            .unwrap_or(Value::Seq(SeqVal::new(p.clone(), Word::empty()))))
    }
}

/// Refuses a position the metric's letters cannot reach (Schreier-Sims on them): the
/// search would run to its cost limit (`optimal(M)` with face turns only).
fn reachable(p: &PuzzleCtx, m: &Metric, pos: &Perm, ctl: &Control, a: &Args) -> EvalResult<()> {
    let all: Vec<u32> = (0..m.alphabet.len() as u32).collect();
    let reach = puz_group::Group::new(
        p.def.degree(),
        &m.alphabet,
        &all,
        &puz_group::ChainOptions::default(),
        ctl,
    )
    .map_err(|e| Diag::new(a.span, e.to_string()))?;
    if reach.contains(pos) {
        return Ok(());
    }
    Err(Diag::new(
        a.pos(0).span,
        format!(
            "this position cannot be reached with the moves of {} ({})",
            m.name,
            count(m.alphabet.len(), "generator")
        ),
    )
    .with_help("a slice or a rotation moves what face turns cannot (the 3x3x3's centres): give a metric with those moves (`metric: stm`), or a position of the group"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch's solver is made once while the puzzle, metric and options stay, and
    /// made again when they change.
    #[test]
    fn a_batch_keeps_its_solver_while_nothing_changes() {
        let c2 = puz_testkit::cubies::cube2();
        let p = Rc::new(PuzzleCtx::new(c2.clone(), vec![]));
        let q = Rc::new(PuzzleCtx::new(c2.clone(), vec![]));
        let ctl = Control::default();
        let htm = Metric::htm(&c2, &[], &ctl).unwrap();
        let opts = OptimalOptions {
            table_memory: Some(1 << 20),
            cache: None,
            ..OptimalOptions::default()
        };
        let made = std::cell::Cell::new(0);
        let make = || {
            made.set(made.get() + 1);
            Solver::new(&c2, &htm, &opts, &ctl)
        };
        let memo = SolverMemo::default();
        let key = |o: &OptimalOptions| format!("{htm:?}|{:?}", o.for_tables());
        let a = memo.get(&p, key(&opts), make).unwrap();
        let first = OptimalOptions {
            first: true,
            ..opts.clone()
        };
        let b = memo.get(&p, key(&first), make).unwrap();
        assert!(Rc::ptr_eq(&a, &b) && made.get() == 1, "made {}", made.get());
        let other = OptimalOptions {
            table_memory: Some(2 << 20),
            ..opts.clone()
        };
        memo.get(&p, key(&other), make).unwrap();
        assert_eq!(made.get(), 2);
        memo.get(&q, key(&other), make).unwrap();
        assert_eq!(made.get(), 3, "another puzzle's context");
    }

    /// The line before a build says what is built, and a second table only when one may
    /// follow, with how to leave it out.
    #[test]
    fn the_announcement_names_a_second_table_that_may_follow() {
        let plan = |to_build, maybe| TablePlan {
            budget: 4 << 30,
            asked: false,
            bytes: 3 << 30,
            to_build,
            maybe,
            cache: None,
        };
        let (gib, mib) = (human_bytes(1 << 30), human_bytes(726 << 20));
        let first = announce(&plan(1 << 30, 0));
        assert!(first.contains(&format!("building {gib} of pattern tables")));
        assert!(!first.contains("second"), "{first}");
        let both = announce(&plan(1 << 30, 726 << 20));
        assert!(
            both.contains(&format!("{mib} more for a second table")),
            "{both}"
        );
        assert!(both.contains("second_table: false"), "{both}");
        let only = announce(&plan(0, 726 << 20));
        assert!(only.contains(&format!("a second table of {mib}")), "{only}");
        assert!(!only.contains("pattern tables once"), "{only}");
    }
}
