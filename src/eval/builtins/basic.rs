//! Builtins on single sequences and positions: order, cycles, length, inverse, moves.

use super::spec::{Args, Ctx};
use crate::diag::EvalResult;
use crate::eval::metrics;
use crate::eval::value::{SeqVal, Value};
use num_bigint::BigInt;

pub fn order(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    match &x.value {
        Value::Group(g) => {
            let e = g.engine(ctx.ctl, x.span)?;
            Ok(Value::Int(BigInt::from(e.group.order())))
        }
        _ => Ok(Value::Int(BigInt::from(x.perm().1.order()))),
    }
}

pub fn cycles(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let (p, perm) = a.pos(0).perm();
    Ok(Value::Text(p.def.cycle_notation(perm)))
}

pub fn length(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    let s = x.seq();
    match a.opt("metric") {
        Some(m) => metrics::length_in(s, m.metric(), x.span, a.span, ctx.ctl),
        None => Ok(Value::Int(BigInt::from(s.word.len()))),
    }
}

pub fn inverse(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    match &a.pos(0).value {
        Value::Seq(s) => Ok(Value::Seq(SeqVal::new(
            s.puzzle.clone(),
            s.word.clone().inverse(),
        ))),
        Value::Pos(p, perm) => Ok(Value::Pos(p.clone(), perm.inverse())),
        _ => unreachable!("checked kind"),
    }
}

pub fn moves(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let p = ctx.puzzle(a.span)?;
    let lines: Vec<String> = p
        .def
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{:<6} order {:<4} {}{}",
                m.name,
                p.move_orders[i],
                p.def.cycle_notation(&m.perm),
                if m.primitive { "" } else { "  (derived)" }
            )
        })
        .collect();
    Ok(Value::Text(lines.join("\n")))
}
