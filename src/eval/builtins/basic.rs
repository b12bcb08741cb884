//! Builtins on single sequences and positions: order, cycles, length, inverse, moves.

use super::Args;
use crate::diag::Diag;
use crate::eval::interp::{EvalResult, Interp};
use crate::eval::value::{SeqVal, Value};
use num_bigint::BigInt;

fn seq_or_pos(it: &mut Interp, a: &Args, i: usize) -> EvalResult<Value> {
    let e = a.pos(i).unwrap();
    let v = it.eval(e)?;
    match v {
        Value::Seq(_) | Value::Pos(..) => Ok(v),
        other => Err(Diag::new(
            e.span,
            format!(
                "`{}` needs a move sequence or a position, not {}",
                a.fname.name,
                other.type_name()
            ),
        )),
    }
}

pub fn order(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &[])?;
    let e = a.pos(0).unwrap();
    let v = it.eval(e)?;
    match &v {
        Value::Group(g) => super::group::order(it, &g.clone(), e.span),
        _ => match v.perm() {
            Some((_, p)) => Ok(Value::Int(BigInt::from(p.order()))),
            None => Err(Diag::new(
                e.span,
                format!(
                    "`order` needs a sequence, a position or a group, not {}",
                    v.type_name()
                ),
            )),
        },
    }
}

pub fn cycles(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &[])?;
    let v = seq_or_pos(it, a, 0)?;
    let (p, perm) = v.perm().unwrap();
    Ok(Value::Text(p.def.cycle_notation(perm)))
}

pub fn length(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &["metric"])?;
    let e = a.pos(0).unwrap();
    match it.eval(e)? {
        Value::Seq(s) if a.named("metric").is_some() => super::solve::length_in(it, &s, e, a),
        Value::Seq(s) => Ok(Value::Int(BigInt::from(s.word.len()))),
        other => Err(Diag::new(
            e.span,
            format!("`length` needs a move sequence, not {}", other.type_name()),
        )),
    }
}

pub fn inverse(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &[])?;
    match seq_or_pos(it, a, 0)? {
        Value::Seq(s) => Ok(Value::Seq(SeqVal::new(
            s.puzzle.clone(),
            s.word.clone().inverse(),
        ))),
        Value::Pos(p, perm) => Ok(Value::Pos(p, perm.inverse())),
        _ => unreachable!(),
    }
}

pub fn moves(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(0, 0, &[])?;
    let p = it.require_puzzle(a.span)?;
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
