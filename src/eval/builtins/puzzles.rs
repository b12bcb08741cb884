//! Builtins that construct puzzles from parameters: `row(n)`.

use super::spec::{Args, Ctx};
use crate::diag::{Diag, EvalResult};
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::Value;
use num_bigint::BigUint;
use puz_core::puzzle::MoveBuilder;
use puz_core::{NamedMove, Puzzle};
use std::rc::Rc;

/// `row(n)`: n pieces in a row, moves `s1..s(n-1)` swap neighbours; for n = 3 and 4 the
/// moves are also named as in Jaap's pages (`L R`, `L M R`).
pub fn row(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let n = count_arg(a, 2)?;
    Ok(Value::Puzzle(Rc::new(row_puzzle(n))))
}

/// The one argument of a puzzle constructor: a count between `min` and 1000.
fn count_arg(a: &Args, min: i64) -> EvalResult<usize> {
    let x = a.pos(0);
    let n = x.small()?;
    if !(min..=1000).contains(&n) {
        return Err(Diag::new(
            x.span,
            format!("`{}(n)` needs {min} <= n <= 1000", a.name()),
        ));
    }
    Ok(n as usize)
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

/// `topspin(n)`: n discs in a loop; `S` slides the loop one place, `T` turns over the
/// turntable holding locations 0..3, as in `stdlib/topspin.puz` (which is `topspin(20)`).
pub fn topspin(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let n = count_arg(a, 4)?;
    Ok(Value::Puzzle(Rc::new(topspin_puzzle(n))))
}

pub fn topspin_puzzle(n: usize) -> PuzzleCtx {
    let mut p = Puzzle::new(format!("topspin{n}"));
    p.add_orbit("discs", n, 1, vec![]);
    let mut b = MoveBuilder::new(&p);
    b.cycle(0, &(0..n).map(|i| (i, 0)).collect::<Vec<_>>())
        .expect("distinct locations");
    let s = b.finish();
    let mut b = MoveBuilder::new(&p);
    b.cycle(0, &[(0, 0), (3, 0)]).expect("distinct locations");
    b.cycle(0, &[(1, 0), (2, 0)]).expect("distinct locations");
    let t = b.finish();
    p.moves.push(NamedMove {
        name: "S".into(),
        perm: s,
        primitive: true,
    });
    p.moves.push(NamedMove {
        name: "T".into(),
        perm: t,
        primitive: true,
    });
    // For n = 4 and 5 the turntable is a reflection of the whole loop: the dihedral group
    // of order 2n. From n = 6 on, S is an n-cycle, odd for even n, so S and T give every
    // permutation; for odd n both are even and they give the alternating group.
    let fact: BigUint = (1..=n).map(BigUint::from).product();
    p.expected_order = Some(match n {
        4 | 5 => BigUint::from(2 * n),
        _ if n.is_multiple_of(2) => fact,
        _ => fact / 2u32,
    });
    PuzzleCtx::new(p, vec![0, 1])
}
