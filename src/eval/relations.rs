//! The relations between values that operators and `assert` use: equality (by effect
//! for sequences and positions, as groups for groups), membership `x in G`, subgroup
//! tests, and why a position is not in a group. Shared by the interpreter and the
//! builtins, so that neither has to call the other for them.

use super::value::{GroupVal, Value};
use crate::diag::{Diag, EvalResult};
use crate::span::Span;
use crate::syntax::BinOp;
use puz_core::Control;

/// A position's puzzle must be the group's.
pub fn same_puzzle(p: &super::puzzle_ctx::PuzzleCtx, g: &GroupVal, span: Span) -> EvalResult<()> {
    if !p.same(&g.puzzle) {
        return Err(Diag::new(
            span,
            format!(
                "this is a position of `{}`, but the group is on `{}`",
                p.def.name, g.puzzle.def.name
            ),
        ));
    }
    Ok(())
}

/// `x in G`.
pub fn membership(ctl: &Control, l: &Value, r: &Value, span: Span) -> EvalResult<Value> {
    let Value::Group(g) = r else {
        return Err(Diag::new(
            span,
            format!(
                "the right side of `in` must be a group, not {}",
                r.type_name()
            ),
        ));
    };
    let Some((p, perm)) = l.perm() else {
        return Err(Diag::new(
            span,
            format!(
                "the left side of `in` must be a position or a sequence, not {}",
                l.type_name()
            ),
        ));
    };
    same_puzzle(p, g, span)?;
    let e = g.engine(ctl, span)?;
    Ok(Value::Bool(e.group.contains(perm)))
}

/// Why a position is not in a group, in the puzzle's own terms.
pub fn why_not(ctl: &Control, l: &Value, g: &GroupVal, span: Span) -> EvalResult<Option<String>> {
    let Some((p, perm)) = l.perm() else {
        return Ok(None);
    };
    // A position of another puzzle was read with this group's points (out of range).
    same_puzzle(p, g, span)?;
    let e = g.engine(ctl, span)?;
    if !p.def.is_position(perm) {
        return Ok(Some("it is not a position of the puzzle".into()));
    }
    match e.group.check(perm) {
        Ok(()) => Ok(None),
        Err(rej) => {
            let base = p.def.point_name(rej.base_point);
            let at = p.def.point_name(rej.image);
            Ok(Some(format!(
                "{} rejects it at stage {}: after the earlier stages the piece that belongs at {base} is at {at}, and no element of the group brings it back",
                g.text,
                rej.stage + 1
            )))
        }
    }
}

/// `H <= G`, `H >= G`, `H < G`, `H > G` on two groups.
pub fn compare(
    ctl: &Control,
    op: BinOp,
    a: &GroupVal,
    b: &GroupVal,
    span: Span,
) -> EvalResult<bool> {
    if !a.puzzle.same(&b.puzzle) {
        return Err(Diag::new(span, "these groups are on different puzzles"));
    }
    let ea = a.engine(ctl, span)?;
    let eb = b.engine(ctl, span)?;
    let (sub, sup) = match op {
        BinOp::Le | BinOp::Lt => (&ea, &eb),
        _ => (&eb, &ea),
    };
    let is_sub = sub.group.is_subgroup_of(&sup.group);
    let strict = matches!(op, BinOp::Lt | BinOp::Gt);
    Ok(is_sub && (!strict || sub.group.order() != sup.group.order()))
}

/// Equality: same effect for sequences and positions, same group for groups; `None`
/// when the two values cannot be compared.
pub fn values_equal(ctl: &Control, l: &Value, r: &Value, span: Span) -> EvalResult<Option<bool>> {
    Ok(match (l, r) {
        (Value::Int(a), Value::Int(b)) => Some(a == b),
        (Value::Bool(a), Value::Bool(b)) => Some(a == b),
        (Value::Str(a), Value::Str(b)) => Some(a == b),
        (Value::Group(a), Value::Group(b)) => {
            Some(compare(ctl, BinOp::Le, a, b, span)? && compare(ctl, BinOp::Ge, a, b, span)?)
        }
        (Value::List(a), Value::List(b)) => {
            if a.len() != b.len() {
                Some(false)
            } else {
                let mut all = true;
                for (x, y) in a.iter().zip(b) {
                    all &= values_equal(ctl, x, y, span)?.unwrap_or(false);
                }
                Some(all)
            }
        }
        _ => match (l.perm(), r.perm()) {
            (Some((pa, a)), Some((pb, b))) => {
                if !pa.same(pb) || a.degree() != b.degree() {
                    return Err(Diag::new(span, "these are positions of different puzzles"));
                }
                Some(a == b)
            }
            _ => None,
        },
    })
}
