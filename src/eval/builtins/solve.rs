//! Builtins of metrics, distances and optimal solving (LANGUAGE.md section 4), calling
//! the solver engine: `htm qtm stm atm`, `metric`, `length(w, metric:)`, `distances`,
//! `distance_counts`, `optimal`.

use super::group::group_arg;
use super::Args;
use crate::diag::Diag;
use crate::eval::groups;
use crate::eval::interp::{small, EvalResult, Interp};
use crate::eval::puzzle_ctx::{LetterFor, PuzzleCtx};
use crate::eval::value::{GroupVal, MetricSpec, SeqVal, Value};
use crate::syntax::{Expr, ExprKind, Ident, Span};
use num_bigint::BigInt;
use puz_core::Word;
use puz_solver::{DistanceOptions, Metric, OptimalOptions};
use std::rc::Rc;

pub const METRICS: &[&str] = &["htm", "qtm", "stm", "atm"];

/// `htm`, `qtm`, `stm`, `atm` as values.
pub fn constant(name: &str) -> Option<Value> {
    METRICS
        .contains(&name)
        .then(|| Value::Metric(Rc::new(MetricSpec::Named(name.to_string()))))
}

/// `metric htm` selects a metric; `metric m = {U, U2, U'}` defines one.
pub fn metric_stmt(
    it: &mut Interp,
    name: &Ident,
    value: Option<&Expr>,
    span: Span,
) -> EvalResult<()> {
    match value {
        None => {
            let v = match it.vars.get(&name.name) {
                Some(b) => b.value.clone(),
                None => constant(&name.name).ok_or_else(|| {
                    Diag::new(name.span, format!("unknown metric `{}`", name.name))
                        .with_help("the metrics are htm, qtm, stm, atm, or one defined with `metric NAME = {U, U2, ...}`")
                })?,
            };
            match v {
                Value::Metric(m) => {
                    it.metric = m;
                    Ok(())
                }
                v => Err(Diag::new(
                    name.span,
                    format!("`{}` is {}, not a metric", name.name, v.type_name()),
                )),
            }
        }
        Some(e) => {
            let items = match &e.kind {
                ExprKind::Braces(items) => items.clone(),
                _ => {
                    return Err(Diag::new(
                        e.span,
                        "a metric is a set of generators in braces: `{U, U2, U'}`",
                    ))
                }
            };
            let p = it.require_puzzle(span)?;
            let mut gens = Vec::new();
            for item in &items {
                match it.eval(item)? {
                    Value::Seq(s) => gens.push((s.word.display(&p.alphabet), 1)),
                    v => {
                        return Err(Diag::new(
                            item.span,
                            format!("a generator is a move sequence, not {}", v.type_name()),
                        ))
                    }
                }
            }
            let spec = MetricSpec::Explicit {
                name: name.name.clone(),
                gens,
            };
            // Resolve once now so a bad generator is reported where it is written.
            resolve(&p, &spec, &gen_names(&p, &p.gens), e.span)?;
            let v = Value::Metric(Rc::new(spec));
            it.vars.insert(
                name.name.clone(),
                crate::eval::interp::Binding {
                    value: v,
                    span: name.span,
                    source: it.source.name.clone(),
                },
            );
            Ok(())
        }
    }
}

fn gen_names(p: &PuzzleCtx, moves: &[usize]) -> Vec<String> {
    moves.iter().map(|&m| p.def.moves[m].name.clone()).collect()
}

/// The moves generating a group value (single moves only).
fn group_moves(g: &GroupVal, span: Span) -> EvalResult<Vec<String>> {
    g.gens
        .iter()
        .map(|w| match w {
            Word::Letter(l) => Ok(g.puzzle.def.moves[g.puzzle.letter_moves[*l as usize].0]
                .name
                .clone()),
            _ => Err(Diag::new(
                span,
                format!(
                    "the generators of {} must be single moves for a metric",
                    g.text
                ),
            )
            .with_help("define the generator set explicitly: `metric m = {...}`")),
        })
        .collect()
}

/// The solver's metric for a spec on puzzle `p` over the moves `names`.
pub fn resolve(
    p: &PuzzleCtx,
    spec: &MetricSpec,
    names: &[String],
    span: Span,
) -> EvalResult<Metric> {
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let r = match spec {
        MetricSpec::Named(n) => match n.as_str() {
            "htm" => Metric::htm(&p.def, &refs),
            "qtm" => Metric::qtm(&p.def, &refs),
            "atm" => Metric::atm(&p.def, &refs),
            "stm" => {
                // Slices: the other moves given by cycles (M E S on the 3x3x3).
                let slices: Vec<&str> = p
                    .def
                    .moves
                    .iter()
                    .filter(|m| m.primitive && !refs.contains(&m.name.as_str()))
                    .map(|m| m.name.as_str())
                    .collect();
                Metric::stm(&p.def, &refs, &slices)
            }
            other => return Err(Diag::new(span, format!("unknown metric `{other}`"))),
        },
        MetricSpec::Explicit { name, gens } => {
            let g: Vec<(&str, u32)> = gens.iter().map(|(t, c)| (t.as_str(), *c)).collect();
            Metric::explicit(&p.def, name, &g)
        }
    };
    r.map_err(|e| Diag::new(span, e.to_string()))
}

fn metric_arg(it: &mut Interp, a: &Args) -> EvalResult<Rc<MetricSpec>> {
    match a.named("metric") {
        None => Ok(it.metric.clone()),
        Some(e) => match it.eval(e)? {
            Value::Metric(m) => Ok(m),
            v => Err(Diag::new(
                e.span,
                format!("`metric:` takes a metric, not {}", v.type_name()),
            )
            .with_help("htm, qtm, stm, atm, or one defined with `metric NAME = {...}`")),
        },
    }
}

/// `length(w, metric: m)`.
pub fn length_in(it: &mut Interp, s: &SeqVal, e: &Expr, a: &Args) -> EvalResult<Value> {
    let spec = metric_arg(it, a)?;
    let p = &s.puzzle;
    let names: Vec<String> = p
        .def
        .moves
        .iter()
        .filter(|m| m.primitive)
        .map(|m| m.name.clone())
        .collect();
    let names = if matches!(spec.as_ref(), MetricSpec::Named(n) if n != "stm") {
        gen_names(p, &p.gens)
    } else {
        names
    };
    let m = resolve(p, &spec, &names, a.span)?;
    match puz_solver::length(&s.word, &p.alphabet, &m) {
        Some(n) => Ok(Value::Int(BigInt::from(n))),
        None => Err(Diag::new(
            e.span,
            format!(
                "this sequence uses moves that are not generators of {}",
                spec.name()
            ),
        )),
    }
}

fn dist_args(
    it: &mut Interp,
    a: &Args,
) -> EvalResult<(GroupVal, Metric, DistanceOptions<'static>, Option<usize>)> {
    a.expect(1, 1, &["metric", "depth", "samples", "identify"])?;
    let g = group_arg(it, a, 0)?;
    let spec = metric_arg(it, a)?;
    let names = group_moves(&g, a.span)?;
    let m = resolve(&g.puzzle, &spec, &names, a.span)?;
    let depth = match a.named("depth") {
        Some(e) => match it.eval(e)? {
            Value::Int(i) => Some(small(&i, e.span)?.max(0) as usize),
            v => {
                return Err(Diag::new(
                    e.span,
                    format!("`depth:` takes a number, not {}", v.type_name()),
                ))
            }
        },
        None => None,
    };
    let samples = match a.named("samples") {
        Some(e) => match it.eval(e)? {
            Value::Int(i) => small(&i, e.span)?.max(0) as usize,
            v => {
                return Err(Diag::new(
                    e.span,
                    format!("`samples:` takes a number, not {}", v.type_name()),
                ))
            }
        },
        None => 3,
    };
    let mut rotations = Vec::new();
    if let Some(e) = a.named("identify") {
        let items: Vec<Expr> = match &e.kind {
            ExprKind::Bracket { items, .. } => items.clone(),
            _ => vec![e.clone()],
        };
        for item in &items {
            match it.eval(item)?.perm() {
                Some((_, p)) => rotations.push(p.clone()),
                None => {
                    return Err(Diag::new(
                        item.span,
                        "`identify:` takes whole-puzzle rotations (sequences)",
                    ))
                }
            }
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
        m,
        DistanceOptions {
            depth,
            ranker: None,
            rotations,
            samples,
        },
        depth,
    ))
}

fn run_distances(
    it: &mut Interp,
    a: &Args,
) -> EvalResult<(GroupVal, Metric, puz_solver::Distances)> {
    let (g, m, mut opts, depth) = dist_args(it, a)?;
    let eng = groups::engine(&g, &it.ctl, a.span)?;
    let order = eng.group.order();
    // The dense table needs |G| / 4 bytes; refuse before starting when it cannot fit and no depth is given.
    let fits = u64::try_from(&order)
        .ok()
        .filter(|n| *n / 4 < it.ctl.memory_limit / 2);
    let ctl = it.ctl.clone().with_progress(|msg| eprintln!("  {msg}"));
    let r = if fits.is_some() && opts.rotations.is_empty() {
        let ranker: &dyn puz_core::Ranker = &eng.group;
        let opts = DistanceOptions {
            depth,
            ranker: Some(ranker),
            rotations: vec![],
            samples: opts.samples,
        };
        puz_solver::distances(&g.puzzle.def, &m, &opts, &ctl)
    } else {
        if depth.is_none() {
            let need = &order / 4u32;
            return Err(Diag::new(a.span, format!(
                "{} has {order} positions: a full table needs about {} and only {} is available",
                g.text,
                human(&need),
                puz_core::control::human_bytes(it.ctl.memory_limit)
            ))
            .with_help("give a depth for a breadth-first search of the first layers: `distances(G, depth: 5)`"));
        }
        opts.ranker = None;
        puz_solver::distances(&g.puzzle.def, &m, &opts, &ctl)
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
pub fn distances(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    let (g, m, d) = run_distances(it, a)?;
    let mut out = format!(
        "distances in {} of {} ({} generators)\n",
        m.name,
        g.text,
        m.alphabet.len()
    );
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
    Ok(Value::Text(out))
}

/// `distance_counts(...)`: the same counts as a list, for asserts.
pub fn distance_counts(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    let (_, _, d) = run_distances(it, a)?;
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
        .map(|&(mi, k)| match p.letter(mi, k) {
            LetterFor::Letter(l) => Word::Letter(l),
            LetterFor::Identity => Word::empty(),
            LetterFor::Repeat(l, n) => Word::Letter(l).pow(n),
        })
        .collect();
    if items.len() == 1 {
        items.into_iter().next().unwrap()
    } else {
        Word::Seq(items.into())
    }
}

/// `optimal(position, metric: m, all: true, first: true, memory: bytes)`: a proved-optimal
/// solution, re-checked by applying it. By default the same solution on every run;
/// `first: true` returns the first one any thread finds (often much sooner).
pub fn optimal(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &["metric", "all", "first", "memory"])?;
    let e = a.pos(0).unwrap();
    let v = it.eval(e)?;
    let Some((p, pos)) = v.perm().map(|(p, q)| (p.clone(), q.clone())) else {
        return Err(Diag::new(
            e.span,
            format!(
                "`optimal` needs a position or a sequence, not {}",
                v.type_name()
            ),
        ));
    };
    let spec = metric_arg(it, a)?;
    let m = resolve(&p, &spec, &gen_names(&p, &p.gens), a.span)?;
    let mut opts = OptimalOptions::default();
    if let Some(x) = a.named("all") {
        opts.all = matches!(it.eval(x)?, Value::Bool(true));
    }
    if let Some(x) = a.named("first") {
        opts.first = matches!(it.eval(x)?, Value::Bool(true));
    }
    if let Some(x) = a.named("memory") {
        match it.eval(x)? {
            Value::Int(i) => opts.table_memory = Some(small(&i, x.span)?.max(0) as u64),
            v => {
                return Err(Diag::new(
                    x.span,
                    format!("`memory:` takes a number of bytes, not {}", v.type_name()),
                ))
            }
        }
    }
    let ctl = it.ctl.clone().with_progress(|msg| eprintln!("  {msg}"));
    let r = puz_solver::optimal(&p.def, &m, &pos, &opts, &ctl)
        .map_err(|err| Diag::new(a.span, err.to_string()))?;
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
    it.print(&format!(
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
    ));
    if opts.all {
        Ok(Value::List(seqs))
    } else {
        Ok(seqs
            .into_iter()
            .next()
            .unwrap_or(Value::Seq(SeqVal::new(p.clone(), Word::empty()))))
    }
}
