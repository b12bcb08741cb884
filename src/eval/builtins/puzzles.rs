//! Builtins that construct puzzles from parameters: `row(n)`.

use super::Args;
use crate::diag::Diag;
use crate::eval::interp::{small, EvalResult, Interp};
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::Value;
use num_bigint::BigUint;
use puz_core::puzzle::MoveBuilder;
use puz_core::{NamedMove, Puzzle};
use std::rc::Rc;

/// `row(n)`: n pieces in a row, moves `s1..s(n-1)` swap neighbours; for n = 3 and 4 the
/// moves are also named as in Jaap's pages (`L R`, `L M R`).
pub fn row(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &[])?;
    let e = a.pos(0).unwrap();
    let n = match it.eval(e)? {
        Value::Int(i) => small(&i, e.span)?,
        v => {
            return Err(Diag::new(
                e.span,
                format!("`row` needs a number of pieces, not {}", v.type_name()),
            ))
        }
    };
    if !(2..=1000).contains(&n) {
        return Err(Diag::new(e.span, "`row(n)` needs 2 <= n <= 1000"));
    }
    let n = n as usize;
    Ok(Value::Puzzle(Rc::new(row_puzzle(n))))
}

pub fn row_puzzle(n: usize) -> PuzzleCtx {
    let mut p = Puzzle::new(format!("row{n}"));
    p.add_orbit("pieces", n, 1, (1..=n).map(|i| i.to_string()).collect());
    let jaap: &[&str] = match n {
        3 => &["L", "R"],
        4 => &["L", "M", "R"],
        _ => &[],
    };
    for i in 0..n - 1 {
        let mut b = MoveBuilder::new(&p);
        b.cycle(0, &[(i, 0), (i + 1, 0)])
            .expect("adjacent locations are distinct");
        let perm = b.finish();
        let name = jaap
            .get(i)
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("s{}", i + 1));
        p.moves.push(NamedMove {
            name,
            perm,
            primitive: true,
        });
    }
    p.expected_order = Some((1..=n).map(BigUint::from).product());
    let gens = (0..n - 1).collect();
    PuzzleCtx::new(p, gens)
}
