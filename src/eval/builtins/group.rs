//! Builtins of groups (LANGUAGE.md section 3), calling the Schreier-Sims engine:
//! order, membership, chain, solve, random, rank/unrank, index, orbit, stabilizer,
//! subgroup tests.

use super::Args;
use crate::diag::Diag;
use crate::eval::groups::{self, GroupEngine};
use crate::eval::interp::{EvalResult, Interp};
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::{GroupVal, SeqVal, Value};
use crate::syntax::{BinOp, Expr, ExprKind, Span};
use num_bigint::{BigInt, BigUint, Sign};
use puz_group::ChainOptions;
use std::rc::Rc;

pub fn group_arg(it: &mut Interp, a: &Args, i: usize) -> EvalResult<GroupVal> {
    let e = a
        .pos(i)
        .ok_or_else(|| Diag::new(a.span, format!("`{}` needs a group argument", a.fname.name)))?;
    match it.eval(e)? {
        Value::Group(g) => Ok(g),
        v => Err(Diag::new(
            e.span,
            format!(
                "`{}` needs a group here, not {}",
                a.fname.name,
                v.type_name()
            ),
        )
        .with_help("write a group as `<U, R>`, or `group` for the whole puzzle")),
    }
}

fn engine(it: &Interp, g: &GroupVal, span: Span) -> EvalResult<Rc<GroupEngine>> {
    groups::engine(g, &it.ctl, span)
}

fn pos_arg(
    it: &mut Interp,
    a: &Args,
    i: usize,
) -> EvalResult<(Rc<PuzzleCtx>, puz_core::Perm, Span)> {
    let e = a.pos(i).unwrap();
    let v = it.eval(e)?;
    match v.perm() {
        Some((p, perm)) => Ok((p.clone(), perm.clone(), e.span)),
        None => Err(Diag::new(
            e.span,
            format!(
                "`{}` needs a position or a sequence here, not {}",
                a.fname.name,
                v.type_name()
            ),
        )),
    }
}

fn same_puzzle(p: &PuzzleCtx, g: &GroupVal, span: Span) -> EvalResult<()> {
    if p.def.name != g.puzzle.def.name || p.def.degree() != g.puzzle.def.degree() {
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

pub fn order(it: &mut Interp, g: &GroupVal, span: Span) -> EvalResult<Value> {
    let e = engine(it, g, span)?;
    Ok(Value::Int(BigInt::from(e.group.order())))
}

/// `x in G`.
pub fn membership(it: &mut Interp, l: &Value, r: &Value, span: Span) -> EvalResult<Value> {
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
    let e = engine(it, g, span)?;
    Ok(Value::Bool(e.group.contains(perm)))
}

/// Why a position is not in a group, in the puzzle's own terms.
pub fn why_not(it: &mut Interp, l: &Value, g: &GroupVal, span: Span) -> EvalResult<Option<String>> {
    let Some((p, perm)) = l.perm() else {
        return Ok(None);
    };
    let e = engine(it, g, span)?;
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

/// `H <= G`, `H >= G`, `H < G`, `H > G`.
pub fn compare(it: &mut Interp, op: BinOp, l: &Value, r: &Value, span: Span) -> EvalResult<Value> {
    let (Value::Group(a), Value::Group(b)) = (l, r) else {
        unreachable!()
    };
    if a.puzzle.def.name != b.puzzle.def.name {
        return Err(Diag::new(span, "these groups are on different puzzles"));
    }
    let ea = engine(it, a, span)?;
    let eb = engine(it, b, span)?;
    let (sub, sup) = match op {
        BinOp::Le | BinOp::Lt => (&ea, &eb),
        _ => (&eb, &ea),
    };
    let is_sub = sub.group.is_subgroup_of(&sup.group);
    let strict = matches!(op, BinOp::Lt | BinOp::Gt);
    Ok(Value::Bool(
        is_sub && (!strict || sub.group.order() != sup.group.order()),
    ))
}

/// The point for a location name (`UFR`, `corners.UFR`, `E`), orientation 0.
fn location_point(p: &PuzzleCtx, e: &Expr) -> EvalResult<usize> {
    let text = match &e.kind {
        ExprKind::Word(w) => w.clone(),
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Str(s) => s.clone(),
        _ => {
            return Err(Diag::new(
                e.span,
                "expected a location name such as `UFR` or `corners.UFR`",
            ))
        }
    };
    let (orbit, label) = match text.split_once('.') {
        Some((o, l)) => (Some(o), l),
        None => (None, text.as_str()),
    };
    let mut found = Vec::new();
    for o in &p.def.orbits {
        if orbit.is_some_and(|n| n != o.name) {
            continue;
        }
        if let Some(l) = o.location(label) {
            found.push(o.point(l, 0));
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(Diag::new(
            e.span,
            format!("puzzle `{}` has no location `{text}`", p.def.name),
        )
        .with_help(format!(
            "locations: {}",
            p.def
                .orbits
                .iter()
                .map(|o| format!(
                    "{}: {}",
                    o.name,
                    (0..o.size.min(12))
                        .map(|l| o.label(l))
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ))),
        _ => Err(
            Diag::new(e.span, format!("`{text}` is a location of several orbits"))
                .with_help("name the orbit too: `corners.UFR`"),
        ),
    }
}

fn location_list(p: &PuzzleCtx, e: &Expr) -> EvalResult<Vec<usize>> {
    match &e.kind {
        ExprKind::Bracket {
            items,
            colon: false,
        } => items.iter().map(|i| location_point(p, i)).collect(),
        _ => Ok(vec![location_point(p, e)?]),
    }
}

/// `chain(G)` / `chain(G, base: [E, D, C], reps: true)`: the stabiliser chain as a table.
pub fn chain(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &["base", "reps"])?;
    let g = group_arg(it, a, 0)?;
    let base = match a.named("base") {
        Some(e) => location_list(&g.puzzle, e)?,
        None => vec![],
    };
    let show_reps = match a.named("reps") {
        Some(e) => matches!(it.eval(e)?, Value::Bool(true)),
        None => false,
    };
    let opts = ChainOptions {
        base,
        words: true,
        shorten: true,
        ..Default::default()
    };
    let eng = groups::build(&g.puzzle, &g.gens, &opts, &it.ctl, a.span)?;
    let stages = eng
        .group
        .stages_ctl(&it.ctl)
        .map_err(|i| Diag::new(a.span, i.to_string()))?;
    let p = &g.puzzle;
    let mut rows = vec![[
        "stage".to_string(),
        "fixes".into(),
        "cosets".into(),
        "mean".into(),
        "max".into(),
    ]];
    let mut total_mean = 0.0;
    let mut total_max = 0;
    let mut product = BigUint::from(1u32);
    let mut reps_text = String::new();
    let mut k = 0;
    for s in stages.iter().filter(|s| s.cosets > 1) {
        k += 1;
        total_mean += s.mean_len;
        total_max += s.max_len;
        product *= BigUint::from(s.cosets);
        rows.push([
            k.to_string(),
            p.def.point_name(s.base_point),
            s.cosets.to_string(),
            format!("{:.2}", s.mean_len),
            s.max_len.to_string(),
        ]);
        if show_reps {
            reps_text.push_str(&format!(
                "stage {k} ({}):\n",
                p.def.point_name(s.base_point)
            ));
            for (pt, w) in &s.reps {
                let word = eng.to_word(w);
                let text = if w.is_empty() {
                    "-".to_string()
                } else {
                    word.display(&p.alphabet)
                };
                reps_text.push_str(&format!(
                    "  {} -> {}: {}\n",
                    p.def.point_name(*pt),
                    p.def.point_name(s.base_point),
                    text
                ));
            }
        }
    }
    rows.push([
        "total".into(),
        String::new(),
        product.to_string(),
        format!("{total_mean:.2}"),
        total_max.to_string(),
    ]);
    debug_assert_eq!(product, eng.group.order());
    let widths: Vec<usize> = (0..5)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap())
        .collect();
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 1 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
        if i == 0 || i == rows.len() - 2 {
            out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 8));
            out.push('\n');
        }
    }
    if show_reps {
        out.push_str(&reps_text);
    }
    Ok(Value::Text(out))
}

/// `solve(position, G)`: a sequence from the chain that solves the position, re-checked.
pub fn solve(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let (p, perm, sp) = pos_arg(it, a, 0)?;
    let g = group_arg(it, a, 1)?;
    same_puzzle(&p, &g, sp)?;
    let eng = engine(it, &g, a.span)?;
    match eng
        .group
        .sift_ctl(&perm, &it.ctl)
        .map_err(|i| Diag::new(a.span, i.to_string()))?
    {
        Ok(letters) => {
            let word = eng.to_word(&letters);
            let check = perm.then(&word.eval(&p.alphabet, p.def.degree()));
            if !check.is_identity() {
                return Err(Diag::new(
                    a.span,
                    "internal error: the solution does not solve the position (please report)",
                ));
            }
            Ok(Value::Seq(SeqVal::new(g.puzzle.clone(), word)))
        }
        Err(_) => {
            let why = why_not(it, &Value::Pos(p.clone(), perm), &g, a.span)?.unwrap_or_default();
            Err(Diag::new(sp, format!("this position is not in {}", g.text)).with_help(why))
        }
    }
}

pub fn random(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(1, 1, &["seed"])?;
    let g = group_arg(it, a, 0)?;
    let eng = engine(it, &g, a.span)?;
    let perm = match a.named("seed") {
        Some(e) => {
            let seed = match it.eval(e)? {
                Value::Int(i) => crate::eval::interp::small(&i, e.span)? as u64,
                v => {
                    return Err(Diag::new(
                        e.span,
                        format!("a seed is a number, not {}", v.type_name()),
                    ))
                }
            };
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
            eng.group.random(&mut rng)
        }
        None => eng.group.random(&mut rand::thread_rng()),
    };
    Ok(Value::Pos(g.puzzle.clone(), perm))
}

pub fn rank(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let (p, perm, sp) = pos_arg(it, a, 0)?;
    let g = group_arg(it, a, 1)?;
    same_puzzle(&p, &g, sp)?;
    let eng = engine(it, &g, a.span)?;
    match eng.group.rank_big(&perm) {
        Some(r) => Ok(Value::Int(BigInt::from(r))),
        None => Err(Diag::new(sp, format!("this position is not in {}", g.text))),
    }
}

pub fn unrank(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let e = a.pos(0).unwrap();
    let n = match it.eval(e)? {
        Value::Int(i) => i,
        v => {
            return Err(Diag::new(
                e.span,
                format!("`unrank` needs a number, not {}", v.type_name()),
            ))
        }
    };
    let g = group_arg(it, a, 1)?;
    let eng = engine(it, &g, a.span)?;
    let order = eng.group.order();
    let (sign, mag) = n.into_parts();
    if sign == Sign::Minus || mag >= order {
        return Err(Diag::new(
            e.span,
            format!("a rank of {} is between 0 and {}", g.text, order - 1u32),
        ));
    }
    Ok(Value::Pos(g.puzzle.clone(), eng.group.unrank_big(&mag)))
}

pub fn index(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let g = group_arg(it, a, 0)?;
    let h = group_arg(it, a, 1)?;
    let eg = engine(it, &g, a.span)?;
    let eh = engine(it, &h, a.span)?;
    match eh.group.index_in(&eg.group) {
        Some(i) => Ok(Value::Int(BigInt::from(i))),
        None => Err(Diag::new(
            a.pos(1).unwrap().span,
            format!("{} is not a subgroup of {}", h.text, g.text),
        )
        .with_help("index(G, H) is [G : H] for a subgroup H of G")),
    }
}

pub fn orbit(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let g = group_arg(it, a, 0)?;
    let pt = location_point(&g.puzzle, a.pos(1).unwrap())?;
    let eng = engine(it, &g, a.span)?;
    let orb = eng.group.orbit(pt);
    let names: Vec<String> = orb.iter().map(|&q| g.puzzle.def.point_name(q)).collect();
    Ok(Value::Text(format!(
        "{} places: {}",
        orb.len(),
        names.join(", ")
    )))
}

pub fn stabilizer(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let g = group_arg(it, a, 0)?;
    let pts = location_list(&g.puzzle, a.pos(1).unwrap())?;
    let eng = engine(it, &g, a.span)?;
    let mut group = eng
        .group
        .stabilizer(pts[0], &it.ctl)
        .map_err(|i| Diag::new(a.span, i.to_string()))?;
    for &q in &pts[1..] {
        group = group
            .stabilizer(q, &it.ctl)
            .map_err(|i| Diag::new(a.span, i.to_string()))?;
    }
    let text = format!(
        "stabilizer({}, {})",
        g.text,
        pts.iter()
            .map(|&q| g.puzzle.def.point_name(q))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let engine = GroupEngine {
        group,
        alpha: eng.alpha.clone(),
        letter_words: eng.letter_words.clone(),
    };
    Ok(Value::Group(groups::derived_value(
        g.puzzle.clone(),
        engine,
        text,
    )))
}

/// `why(x, G)`: whether x is in G, and if not, which stage rejects it.
pub fn why(it: &mut Interp, a: &Args) -> EvalResult<Value> {
    a.expect(2, 2, &[])?;
    let e = a.pos(0).unwrap();
    let v = it.eval(e)?;
    let g = group_arg(it, a, 1)?;
    if v.perm().is_none() {
        return Err(Diag::new(
            e.span,
            format!(
                "`why` needs a position or a sequence, not {}",
                v.type_name()
            ),
        ));
    }
    match why_not(it, &v, &g, a.span)? {
        None => Ok(Value::Text(format!("in {}", g.text))),
        Some(w) => Ok(Value::Text(format!("not in {}: {w}", g.text))),
    }
}
