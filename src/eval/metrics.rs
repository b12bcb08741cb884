//! The bridge to the solver's metrics: the named metrics as values, and a metric as the
//! user wrote it resolved against a puzzle's moves.

use super::puzzle_ctx::PuzzleCtx;
use super::value::{GroupVal, MetricSpec, SeqVal, Value};
use crate::diag::{Diag, EvalResult};
use crate::span::Span;
use num_bigint::BigInt;
use puz_core::Word;
use puz_solver::Metric;
use std::rc::Rc;

pub const METRICS: &[&str] = &["htm", "qtm", "stm", "atm"];

/// `htm`, `qtm`, `stm`, `atm` as values.
pub fn constant(name: &str) -> Option<Value> {
    METRICS
        .contains(&name)
        .then(|| Value::Metric(Rc::new(MetricSpec::Named(name.to_string()))))
}

/// The names of the moves `moves` (indices) of puzzle `p`.
pub fn gen_names(p: &PuzzleCtx, moves: &[usize]) -> Vec<String> {
    moves.iter().map(|&m| p.def.moves[m].name.clone()).collect()
}

/// The moves generating a group value (single moves only).
pub fn group_moves(g: &GroupVal, span: Span) -> EvalResult<Vec<String>> {
    g.own_gens(span, "measure distances with")?
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
    ctl: &puz_core::Control,
) -> EvalResult<Metric> {
    let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let r = match spec {
        MetricSpec::Named(n) => match n.as_str() {
            "htm" => Metric::htm(&p.def, &refs, ctl),
            "qtm" => Metric::qtm(&p.def, &refs, ctl),
            "atm" => Metric::atm(&p.def, &refs, ctl),
            "stm" => {
                // Slices: the other moves given by cycles (M E S on the 3x3x3).
                let slices: Vec<&str> = p
                    .def
                    .moves
                    .iter()
                    .filter(|m| m.primitive && !refs.contains(&m.name.as_str()))
                    .map(|m| m.name.as_str())
                    .collect();
                Metric::stm(&p.def, &refs, &slices, ctl)
            }
            other => return Err(Diag::new(span, format!("unknown metric `{other}`"))),
        },
        MetricSpec::Explicit { name, gens } => {
            let g: Vec<(&str, u32)> = gens.iter().map(|(t, c)| (t.as_str(), *c)).collect();
            Metric::explicit(&p.def, name, &g, ctl)
        }
    };
    r.map_err(|e| Diag::new(span, e.to_string()))
}

/// The length of a sequence (written at `seq_span`) in a metric.
pub fn length_in(
    s: &SeqVal,
    spec: &MetricSpec,
    seq_span: Span,
    call_span: Span,
    ctl: &puz_core::Control,
) -> EvalResult<Value> {
    let p = &s.puzzle;
    let names = if matches!(spec, MetricSpec::Named(n) if n != "stm") {
        gen_names(p, &p.gens)
    } else {
        p.def
            .moves
            .iter()
            .filter(|m| m.primitive)
            .map(|m| m.name.clone())
            .collect()
    };
    let m = resolve(p, spec, &names, call_span, ctl)?;
    match puz_solver::length(&s.word, &p.alphabet, &m) {
        Some(n) => Ok(Value::Int(BigInt::from(n))),
        None => Err(Diag::new(
            seq_span,
            format!(
                "this sequence uses moves that are not generators of {}",
                spec.name()
            ),
        )),
    }
}
