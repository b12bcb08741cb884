//! `batch(items, f, ...)`: applies the builtin `f` to every item of a list, one result
//! record each (`eval::json`), and returns the summary of the whole batch. Which items
//! run here, and where the records go, is the [`Jobs`](crate::eval::jobs::Jobs) of the
//! context (`puz batch` runs a shard and writes its lines); without one every item runs
//! in this process.

use super::spec::{Args, Builtin, Ctx, Given};
use crate::diag::{Diag, EvalResult};
use crate::eval::jobs::summary;
use crate::eval::json;
use crate::eval::names::suggest;
use crate::eval::value::Value;
use serde_json::{json, Value as J};
use std::time::Instant;

/// The options `batch` passes on to `f` as they are (each must be one of `f`'s own).
pub const FORWARDED: &[&str] = &["metric", "memory", "depth", "chain", "start"];

/// How an item (or an argument) is written in a record and in the batch's hash.
fn text(v: &Value) -> String {
    match v {
        Value::Pos(p, perm) => p.def.cycle_notation(perm),
        Value::Metric(m) => m.name().to_string(),
        Value::Seq(s) => s.display(),
        v => v.to_string(),
    }
}

fn function(a: &Args) -> EvalResult<&'static Builtin> {
    let f = a.pos(1);
    let Value::Str(name) = &f.value else {
        unreachable!("checked kind: a builtin")
    };
    match super::lookup(name) {
        Some(b) if b.name != "batch" => Ok(b),
        Some(_) => Err(Diag::new(f.span, "a batch cannot run batches")),
        None => {
            let near = suggest(name, super::names().into_iter());
            let d = Diag::new(f.span, format!("`{name}` is not a builtin"));
            Err(match near.first() {
                Some(n) => d.with_help(format!("did you mean `{n}`?")),
                None => d.with_help("give a builtin by its name: `batch(xs, optimal)`"),
            })
        }
    }
}

/// The work as a record states it: `optimal(item, metric: atm)`.
fn describe(f: &Builtin, a: &Args) -> String {
    let mut parts = vec!["item".to_string()];
    if let Some(w) = a.opt("with") {
        parts.push(text(&w.value));
    }
    for o in FORWARDED {
        if let Some(x) = a.opt(o) {
            parts.push(format!("{o}: {}", text(&x.value)));
        }
    }
    format!("{}({})", f.name, parts.join(", "))
}

/// The checked call of `f` on item `i`.
fn call_for(f: &'static Builtin, a: &Args, item: &Value, i: usize) -> EvalResult<Args> {
    let list = a.pos(0);
    let mut given = vec![Given {
        name: None,
        value: item.clone(),
        span: list.item_span(i),
        items: vec![],
    }];
    if let Some(w) = a.opt("with") {
        given.push(Given {
            name: None,
            value: w.value.clone(),
            span: w.span,
            items: w.items.clone(),
        });
    }
    for o in FORWARDED {
        if let Some(x) = a.opt(o) {
            given.push(Given {
                name: Some((o.to_string(), x.span)),
                value: x.value.clone(),
                span: x.span,
                items: x.items.clone(),
            });
        }
    }
    f.check(given, a.span)
}

pub fn batch(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let Value::List(items) = &a.pos(0).value else {
        unreachable!("checked kind: a list")
    };
    let f = function(a)?;
    let extra = usize::from(a.opt("with").is_some());
    if f.params.len() != 1 + extra {
        let d = Diag::new(
            a.pos(1).span,
            format!(
                "`{}` takes {} argument(s): the item{}",
                f.name,
                f.params.len(),
                if extra == 1 { " and `with:`" } else { "" }
            ),
        );
        return Err(if f.params.len() == 2 {
            d.with_help(format!(
                "give its second argument with `with:`: `batch(xs, {}, with: group)`",
                f.name
            ))
        } else {
            d.with_help(f.usage())
        });
    }
    for o in FORWARDED {
        if let Some(x) = a.opt(o) {
            if f.option(o).is_none() {
                return Err(
                    Diag::new(x.span, format!("`{}` has no option `{o}:`", f.name))
                        .with_help(f.usage()),
                );
            }
        }
    }
    // Check every item's call before the first runs: a bad item found after hours of
    // work (or only on another shard) would waste them.
    let calls = items
        .iter()
        .enumerate()
        .map(|(i, x)| call_for(f, a, x, i))
        .collect::<EvalResult<Vec<_>>>()?;
    let work = describe(f, a);
    let inputs: Vec<String> = items.iter().map(text).collect();
    let fail = |m: String| Diag::new(a.span, m);
    let plan = match ctx.jobs.as_deref_mut() {
        Some(j) => j.start(&work, &inputs).map_err(fail)?,
        None => (0..items.len()).collect(),
    };
    let mut records = Vec::new();
    // The items' solver, made once (see `SolverMemo`).
    let solvers = super::solve::SolverMemo::default();
    for (done, &i) in plan.iter().enumerate() {
        ctx.ctl.check().map_err(|e| fail(e.to_string()))?;
        ctx.ctl.progress(&format!(
            "batch: item {i} ({} of {} here)",
            done + 1,
            plan.len()
        ));
        let mut sub = Ctx {
            puzzle: ctx.puzzle.clone(),
            metric: ctx.metric.clone(),
            ctl: ctx.ctl,
            out: &mut std::io::sink(),
            json: true,
            fields: Vec::new(),
            jobs: None,
            cache: ctx.cache.clone(),
            here: ctx.here.clone(),
            solvers: Some(&solvers),
        };
        let t0 = Instant::now();
        let v = (f.run)(&mut sub, &calls[i]).map_err(|d| {
            let help = format!("in item {i} of the batch: {}", inputs[i]);
            match d.help.clone() {
                Some(h) => d.with_help(format!("{h}; {help}")),
                None => d.with_help(help),
            }
        })?;
        let record = json!({
            "index": i,
            "input": inputs[i],
            "result": json::result(&v, &sub.fields),
            "seconds": (t0.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
        });
        match ctx.jobs.as_deref_mut() {
            Some(j) => j.done(&record).map_err(fail)?,
            None => {
                if ctx.json {
                    ctx.print_json(&with_kind(&record, &work, items.len()));
                }
                records.push(record);
            }
        }
    }
    match ctx.jobs.as_deref_mut() {
        Some(j) => Ok(Value::Text(j.finish().map_err(fail)?)),
        None => Ok(Value::Text(summary(&work, &records))),
    }
}

/// A record as `puz run --json` prints it: marked as a batch item, with the work and
/// the number of items (as a shard's lines carry them).
fn with_kind(record: &J, work: &str, total: usize) -> J {
    let mut r = record.clone();
    if let J::Object(m) = &mut r {
        m.insert("kind".into(), J::from("batch_item"));
        m.insert("work".into(), J::from(work));
        m.insert("total".into(), J::from(total));
    }
    r
}
