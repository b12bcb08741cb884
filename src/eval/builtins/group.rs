//! Builtins of groups (LANGUAGE.md section 3), calling the Schreier-Sims engine:
//! order, membership, chain, solve, random, rank/unrank, index, orbit, stabilizer,
//! subgroup tests.

use super::spec::{interrupted, Args, Ctx};
use crate::diag::{Diag, EvalResult};
use crate::eval::groups::{self, GroupEngine};
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::relations::{same_puzzle, why_not};
use crate::eval::value::{GroupVal, SeqVal, Value};
use crate::span::Span;
use num_bigint::{BigInt, BigUint, Sign};
use puz_group::ChainOptions;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

/// The point for a location name (`UFR`, `corners.UFR`, `E`), orientation 0.
fn location_point(p: &PuzzleCtx, v: &Value, span: Span) -> EvalResult<usize> {
    let Value::Str(text) = v else {
        unreachable!("checked kind: a location")
    };
    let text = text.clone();
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
            span,
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
            Diag::new(span, format!("`{text}` is a location of several orbits"))
                .with_help("name the orbit too: `corners.UFR`"),
        ),
    }
}

/// A location or a list of them, each reported at its own span when unknown.
fn location_list(p: &PuzzleCtx, a: &super::spec::Arg) -> EvalResult<Vec<usize>> {
    match &a.value {
        Value::List(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| location_point(p, x, a.item_span(i)))
            .collect(),
        v => Ok(vec![location_point(p, v, a.span)?]),
    }
}

/// `chain(G)` / `chain(G, base: [E, D, C], reps: true)`: the stabiliser chain as a table.
pub fn chain(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let base = match a.opt("base") {
        Some(b) => location_list(&g.puzzle, b)?,
        None => vec![],
    };
    let show_reps = a.flag("reps");
    let opts = ChainOptions {
        base,
        words: true,
        shorten: true,
        ..Default::default()
    };
    // A stabiliser's chain is its own engine's: its generators are not sequences a
    // chain could be built from again, on another base.
    let eng = if g.derived {
        if let Some(b) = a.opt("base") {
            return Err(Diag::new(
                b.span,
                format!("{} keeps the base it was made with", g.text),
            )
            .with_help("leave out `base:` for a stabiliser's chain"));
        }
        g.engine(ctx.ctl, a.span)?
    } else {
        std::rc::Rc::new(groups::build(&g.puzzle, &g.gens, &opts, ctx.ctl, a.span)?)
    };
    let stages = eng.group.stages_ctl(ctx.ctl).map_err(interrupted(a.span))?;
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
pub fn solve(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    let (p, perm) = x.perm();
    let g = a.pos(1).group();
    same_puzzle(p, g, x.span)?;
    let eng = g.engine(ctx.ctl, a.span)?;
    match eng
        .group
        .sift_ctl(perm, ctx.ctl)
        .map_err(interrupted(a.span))?
    {
        Ok(letters) => {
            let word = crate::eval::simplify::simplify(&g.puzzle, &eng.to_word(&letters));
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
            let why = why_not(ctx.ctl, &x.value, g, a.span)?.unwrap_or_default();
            Err(Diag::new(x.span, format!("this position is not in {}", g.text)).with_help(why))
        }
    }
}

pub fn random(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let eng = g.engine(ctx.ctl, a.span)?;
    let seed = a.count("seed")?;
    let one = |rng: &mut ChaCha12Rng| Value::Pos(g.puzzle.clone(), eng.group.random(rng));
    let Some(count) = a.count("count")? else {
        let mut rng = match seed {
            Some(s) => ChaCha12Rng::seed_from_u64(s as u64),
            None => ChaCha12Rng::from_entropy(),
        };
        return Ok(one(&mut rng));
    };
    if !(0..=MAX_COUNT).contains(&count) {
        return Err(Diag::new(
            a.opt("count").map_or(a.span, |c| c.span),
            format!("`count:` is between 0 and {MAX_COUNT}"),
        ));
    }
    // Item i has a seed of its own, so a slice of the list (a shard of a batch) is the
    // same however the list is cut, and the same list on every machine (ChaCha is
    // specified to the bit; rand's StdRng is not promised to stay ChaCha).
    let base = seed.map_or_else(rand::random::<u64>, |s| s as u64);
    let mut items = Vec::with_capacity(count as usize);
    for i in 0..count as u64 {
        ctx.ctl.check().map_err(interrupted(a.span))?;
        let mut rng = ChaCha12Rng::seed_from_u64(splitmix64(base ^ splitmix64(i)));
        items.push(one(&mut rng));
    }
    Ok(Value::List(items))
}

/// The most positions `random(G, count: n)` makes at once.
const MAX_COUNT: i64 = 10_000_000;

/// SplitMix64's finaliser: distinct seeds for the items from one seed and an index.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub fn rank(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    let (p, perm) = x.perm();
    let g = a.pos(1).group();
    same_puzzle(p, g, x.span)?;
    let eng = g.engine(ctx.ctl, a.span)?;
    match eng.group.rank_big(perm) {
        Some(r) => Ok(Value::Int(BigInt::from(r))),
        None => Err(Diag::new(
            x.span,
            format!("this position is not in {}", g.text),
        )),
    }
}

pub fn unrank(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    let g = a.pos(1).group();
    let eng = g.engine(ctx.ctl, a.span)?;
    let order = eng.group.order();
    let (sign, mag) = x.int().clone().into_parts();
    if sign == Sign::Minus || mag >= order {
        return Err(Diag::new(
            x.span,
            format!("a rank of {} is between 0 and {}", g.text, order - 1u32),
        ));
    }
    Ok(Value::Pos(g.puzzle.clone(), eng.group.unrank_big(&mag)))
}

pub fn index(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let h = a.pos(1).group();
    let eg = g.engine(ctx.ctl, a.span)?;
    let eh = h.engine(ctx.ctl, a.span)?;
    match eh.group.index_in(&eg.group) {
        Some(i) => Ok(Value::Int(BigInt::from(i))),
        None => Err(Diag::new(
            a.pos(1).span,
            format!("{} is not a subgroup of {}", h.text, g.text),
        )
        .with_help("index(G, H) is [G : H] for a subgroup H of G")),
    }
}

pub fn orbit(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let loc = a.pos(1);
    let pt = location_point(&g.puzzle, &loc.value, loc.span)?;
    let eng = g.engine(ctx.ctl, a.span)?;
    let orb = eng.group.orbit(pt);
    let names: Vec<String> = orb.iter().map(|&q| g.puzzle.def.point_name(q)).collect();
    Ok(Value::Text(format!(
        "{} places: {}",
        orb.len(),
        names.join(", ")
    )))
}

pub fn stabilizer(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let pts = location_list(&g.puzzle, a.pos(1))?;
    if pts.is_empty() {
        return Err(Diag::new(a.pos(1).span, "no location to fix")
            .with_help("give a location (`UFR`) or a list of them (`[UFR, UF]`)"));
    }
    let eng = g.engine(ctx.ctl, a.span)?;
    let group = eng
        .group
        .stabilizer_of(&pts, ctx.ctl)
        .map_err(interrupted(a.span))?;
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
    Ok(Value::Group(GroupVal::derived(
        g.puzzle.clone(),
        engine,
        text,
    )))
}

/// `why(x, G)`: whether x is in G, and if not, which stage rejects it.
pub fn why(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(1).group();
    match why_not(ctx.ctl, &a.pos(0).value, g, a.span)? {
        None => Ok(Value::Text(format!("in {}", g.text))),
        Some(w) => Ok(Value::Text(format!("not in {}: {w}", g.text))),
    }
}
