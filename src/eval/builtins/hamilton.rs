//! Builtins of Hamilton paths and Devil's algorithms (LANGUAGE.md section 5), calling
//! the Hamilton engine: checks, automatic cycles and Jaap's constructions.

use super::spec::{interrupted, small, Args, Ctx};
use super::walks::{frames_text, map_letters, off_generators};
use crate::diag::{Diag, EvalResult};
use crate::eval::groups;
use crate::eval::puzzle_ctx::{LetterFor, PuzzleCtx};
use crate::eval::value::{GroupVal, SeqVal, Value};
use crate::span::Span;
use puz_core::{count, Word};
use puz_hamilton::gray::Digit;
use puz_hamilton::{Kind, Mode, Report};

/// Runs the checker on `w` over the group `g`.
fn run_check(ctx: &mut Ctx, a: &Args, mode: Mode) -> EvalResult<(Report, SeqVal, GroupVal)> {
    let w = a.pos(0);
    let s = w.seq();
    let g = a.pos(1).group();
    if !s.puzzle.same(&g.puzzle) {
        return Err(Diag::new(
            w.span,
            format!(
                "this sequence is on `{}`, the group on `{}`",
                s.puzzle.def.name, g.puzzle.def.name
            ),
        ));
    }
    let start = match a.opt("start") {
        Some(x) => x.perm().1.clone(),
        None => s.puzzle.identity(),
    };
    let eng = g.engine(ctx.ctl, a.span)?;
    let report = puz_hamilton::check(
        &s.word,
        &s.puzzle.alphabet,
        &start,
        &eng.group,
        mode,
        ctx.ctl,
    )
    .map_err(interrupted(a.span))?;
    Ok((report, s.clone(), g.clone()))
}

/// The moves leading to position `index` (all of them when few, else the last ones).
fn prefix_text(s: &SeqVal, index: u128) -> String {
    let alpha = &s.puzzle.alphabet;
    if index <= 24 {
        let v: Vec<&str> = s
            .word
            .stream(alpha)
            .take(index as usize)
            .map(|l| alpha.names[l as usize].as_str())
            .collect();
        format!("after `{}`", v.join(" "))
    } else {
        let skip = (index - 6) as usize;
        let v: Vec<&str> = s
            .word
            .stream(alpha)
            .skip(skip)
            .take(6)
            .map(|l| alpha.names[l as usize].as_str())
            .collect();
        format!(
            "after {}, ending `... {}`",
            count(index, "move"),
            v.join(" ")
        )
    }
}

fn describe(r: &Report, s: &SeqVal, g: &GroupVal, mode: Mode) -> String {
    let p = &s.puzzle;
    let mut out = String::new();
    if let Some(l) = &r.leaves_group {
        let at = if l.frames.is_empty() {
            "the start".to_string()
        } else {
            format!("move {} ({})", l.index, frames_text(&l.frames))
        };
        out.push_str(&format!(
            "not a walk in {}: {at} leaves the group\n",
            g.text
        ));
    }
    match (mode, r.kind) {
        (_, Kind::Cycle) => out.push_str(&format!(
            "Hamilton cycle of {}: {}, {}, returns to start\n",
            g.text,
            count(r.steps, "move"),
            count(r.visited, "distinct position")
        )),
        (_, Kind::Path) => out.push_str(&format!(
            "Hamilton path of {}: {}, all {} once\n",
            g.text,
            count(r.steps, "move"),
            count(r.visited, "position")
        )),
        (Mode::Hamilton, Kind::Neither) => match &r.first_repeat {
            Some(rep) => out.push_str(&format!(
                "not a Hamilton path: position {} repeats position {} ({}{}); {} of {} visited\n  the repeated position: {}\n",
                rep.index,
                rep.repeats,
                prefix_text(s, rep.index),
                if rep.frames.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; the move `{}` is {}",
                        p.alphabet.names[rep.letter as usize],
                        frames_text(&rep.frames)
                    )
                },
                r.visited,
                r.group_size,
                p.def.cycle_notation(&rep.position)
            )),
            None => out.push_str(&format!(
                "not a Hamilton path of {}: {} {} {} of {}\n",
                g.text,
                count(r.steps, "move"),
                if r.steps == 1 { "visits" } else { "visit" },
                count(r.visited, "distinct position"),
                r.group_size
            )),
        },
        (Mode::Devil, Kind::Neither) => {}
    }
    if r.kind != Kind::Neither {
        out.extend(off_generators(&s.word, g));
    }
    if mode == Mode::Devil {
        match r.all_seen_at {
            Some(i) => out.push_str(&format!(
                "Devil's algorithm of {}: every one of the {} positions is seen by move {} of {}\n",
                g.text, r.group_size, i, r.steps
            )),
            None => out.push_str(&format!(
                "not a Devil's algorithm of {}: {} of {} never reached ({})\n",
                g.text,
                r.missing,
                count(r.group_size, "position"),
                count(r.steps, "move")
            )),
        }
    }
    out.trim_end().to_string()
}

pub fn check_hamilton(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    if let Some(c) = a.opt("chain") {
        let (s, g) = by_cosets_args(a)?;
        return Ok(Value::Text(
            super::chains::check_by_cosets(ctx, s, g, c, a.span)?.0,
        ));
    }
    let (r, s, g) = run_check(ctx, a, Mode::Hamilton)?;
    Ok(Value::Text(describe(&r, &s, &g, Mode::Hamilton)))
}

pub fn check_devil(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let (r, s, g) = run_check(ctx, a, Mode::Devil)?;
    Ok(Value::Text(describe(&r, &s, &g, Mode::Devil)))
}

/// `is_hamilton_cycle(w, G)`, `is_hamilton_path(w, G)`, `is_devil(w, G)`: for asserts.
pub fn is_kind(ctx: &mut Ctx, a: &Args, want: Option<Kind>) -> EvalResult<Value> {
    // `is_devil` has no `chain:` (a certificate proves Hamilton walks only).
    if let Some(c) = want.and_then(|_| a.opt("chain")) {
        let k = want.unwrap();
        let (s, g) = by_cosets_args(a)?;
        let (text, got) = super::chains::check_by_cosets(ctx, s, g, c, a.span)?;
        return match got {
            Some(got) => Ok(Value::Bool(got == k)),
            None => Err(Diag::new(a.span, text)),
        };
    }
    let mode = if want.is_some() {
        Mode::Hamilton
    } else {
        Mode::Devil
    };
    let (r, _, _) = run_check(ctx, a, mode)?;
    Ok(Value::Bool(match want {
        Some(k) => r.kind == k && r.leaves_group.is_none(),
        None => r.all_seen_at.is_some() && r.leaves_group.is_none(),
    }))
}

/// The word and group of a check by cosets, which walks from the solved position.
fn by_cosets_args(a: &Args) -> EvalResult<(&SeqVal, &GroupVal)> {
    let (s, g) = (a.pos(0).seq(), a.pos(1).group());
    if !s.puzzle.same(&g.puzzle) {
        return Err(Diag::new(
            a.pos(0).span,
            format!(
                "this sequence is on `{}`, the group on `{}`",
                s.puzzle.def.name, g.puzzle.def.name
            ),
        ));
    }
    if let Some(x) = a.opt("start") {
        if !x.perm().1.is_identity() {
            return Err(
                Diag::new(x.span, "a check by cosets starts from the solved position")
                    .with_help("leave out `start:` with `chain:`"),
            );
        }
    }
    Ok((s, g))
}

/// The chain `hamilton(G)` builds along when G is past a search in memory (more than
/// 2^32 - 2 positions, fewer than 2^128) and has three or more generators, all single
/// moves: the groups of its first two, three, ... generators (Norskog's chain for
/// `<U, R, D, L, F>`).
fn default_chain(g: &GroupVal, eng: &groups::GroupEngine, span: Span) -> Option<super::spec::Arg> {
    let n = g.gens.len();
    let order = eng.group.order();
    // Past 2^128 the levels' orders do not fit (the Megaminx): the search's refusal says so.
    if n < 3
        || g.gens.iter().any(|w| !matches!(w, Word::Letter(_)))
        || order <= num_bigint::BigUint::from(u32::MAX - 2)
        || u128::try_from(&order).is_err()
    {
        return None;
    }
    let names: Vec<String> = g
        .gens
        .iter()
        .map(|w| match w {
            Word::Letter(l) => g.puzzle.alphabet.names[*l as usize].clone(),
            _ => String::new(),
        })
        .collect();
    let groups: Vec<Value> = (2..n)
        .map(|k| {
            Value::Group(GroupVal::new(
                g.puzzle.clone(),
                g.gens[..k].to_vec(),
                format!("<{}>", names[..k].join(", ")),
            ))
        })
        .collect();
    Some(super::spec::Arg {
        items: vec![span; groups.len()],
        value: Value::List(groups),
        span,
    })
}

/// `hamilton(G)`: a Hamilton cycle of the Cayley graph of G on its generators and their
/// inverses, found by the engine and verified by the checker before it is returned.
pub fn hamilton(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    g.own_gens(a.pos(0).span, "walk a Hamilton cycle along")?;
    let p = g.puzzle.clone();
    if let Some(c) = a.opt("chain") {
        let w = super::chains::hamilton_along(ctx, g, c, a.flag("certify"), a.span)?;
        return Ok(Value::Seq(SeqVal::new(p, w)));
    }
    let eng = g.engine(ctx.ctl, a.span)?;
    if let Some(chain) = default_chain(g, &eng, a.span) {
        let names: Vec<&str> = match &chain.value {
            Value::List(hs) => hs
                .iter()
                .filter_map(|h| match h {
                    Value::Group(h) => Some(h.text.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        ctx.ctl.progress(&format!(
            "{} has {} positions, more than a search in memory takes: built along the chain [{}] (`chain:` chooses another)",
            g.text,
            eng.group.order(),
            names.join(", ")
        ));
        let w = super::chains::hamilton_along(ctx, g, &chain, a.flag("certify"), a.span)?;
        return Ok(Value::Seq(SeqVal::new(p, w)));
    }
    if g.gens.iter().any(|w| !matches!(w, Word::Letter(_))) {
        return Err(Diag::new(a.pos(0).span, format!("the generators of {} must be single moves", g.text))
            .with_help("a Hamilton cycle visits a position after every move: make a compound generator one move with `move T1 = S T S'`"));
    }
    let (alpha, words) = groups::alphabet(&p, &g.gens, false);
    if alpha.is_empty() {
        return Err(Diag::new(
            a.span,
            format!("{} has no non-trivial generators", g.text),
        ));
    }
    let w = puz_hamilton::hamilton(&alpha, &eng.group, ctx.ctl)
        .map_err(|e| Diag::new(a.span, e.to_string()))?;
    let word = map_letters(&w, &|l| words[l as usize].clone());
    let report = puz_hamilton::check(
        &word,
        &p.alphabet,
        &p.identity(),
        &eng.group,
        Mode::Hamilton,
        ctx.ctl,
    )
    .map_err(interrupted(a.span))?;
    if report.kind != Kind::Cycle {
        return Err(Diag::new(
            a.span,
            "internal error: the constructed cycle did not verify (please report)",
        ));
    }
    Ok(Value::Seq(SeqVal::new(p, word)))
}

/// The letter of a single-move generator.
fn gen_letters(g: &GroupVal, span: Span) -> EvalResult<Vec<u32>> {
    g.own_gens(span, "walk along")?
        .iter()
        .map(|w| match w {
            Word::Letter(l) => Ok(*l),
            _ => Err(Diag::new(
                span,
                format!("the generators of {} must be single moves here", g.text),
            )),
        })
        .collect()
}

/// `gray(G)`, `gray(G, cycle: true)`, `gray([2, 2, 2])`: mixed-radix Gray codes on an
/// abelian group. With a group, its generators are taken in order and each gets the
/// radix it adds to the group (a generator that adds nothing is skipped: Lights Out's
/// 25 buttons give 23 digits).
/// The names of two of these letters that do not commute, if any.
fn non_commuting(p: &PuzzleCtx, letters: &[u32]) -> Option<(String, String)> {
    for (i, &x) in letters.iter().enumerate() {
        for &y in &letters[i + 1..] {
            let (px, py) = (&p.alphabet.perms[x as usize], &p.alphabet.perms[y as usize]);
            if px.then(py) != py.then(px) {
                let name = |l: u32| p.alphabet.names[l as usize].clone();
                return Some((name(x), name(y)));
            }
        }
    }
    None
}

pub fn gray(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let e = a.pos(0);
    let cycle = a.flag("cycle");
    let (p, digits) = match &e.value {
        Value::Group(g) => {
            let letters = gen_letters(g, e.span)?;
            let p = g.puzzle.clone();
            if let Some((x, y)) = non_commuting(&p, &letters) {
                return Err(Diag::new(
                    e.span,
                    format!("{} is not abelian: {x} and {y} do not commute", g.text),
                )
                .with_help(
                    "Gray codes need moves that commute; use hamilton(G) for other groups",
                ));
            }
            let mut digits = Vec::new();
            let mut prefix: Vec<Word> = Vec::new();
            let mut prev = num_bigint::BigUint::from(1u32);
            for &l in &letters {
                prefix.push(Word::Letter(l));
                let gv = GroupVal::new(p.clone(), prefix.clone(), String::new());
                let order = gv.engine(ctx.ctl, e.span)?.group.order();
                let radix = &order / &prev;
                if radix > num_bigint::BigUint::from(1u32) {
                    let r: u64 = radix
                        .try_into()
                        .map_err(|_| Diag::new(e.span, "a digit's radix is too large"))?;
                    digits.push(Digit {
                        letter: l,
                        radix: r,
                    });
                } else {
                    prefix.pop();
                }
                prev = order;
            }
            (p, digits)
        }
        Value::List(v) => {
            let p = ctx.puzzle(e.span)?;
            let gens = p.gens.clone();
            if v.len() > gens.len() {
                return Err(Diag::new(
                    e.span,
                    format!(
                        "puzzle `{}` has only {}",
                        p.def.name,
                        count(gens.len(), "generator")
                    ),
                ));
            }
            let mut digits = Vec::new();
            for (i, (x, &mi)) in v.iter().zip(&gens).enumerate() {
                let Value::Int(x) = x else {
                    unreachable!("checked kind: a list of numbers")
                };
                let r = small(x, e.item_span(i))?;
                let LetterFor::Letter(l) = p.letter(mi, 1) else {
                    return Err(Diag::new(e.span, "a generator is trivial"));
                };
                if r < 1 {
                    return Err(Diag::new(e.span, "radices are at least 1"));
                }
                digits.push(Digit {
                    letter: l,
                    radix: r as u64,
                });
            }
            let letters: Vec<u32> = digits.iter().map(|d| d.letter).collect();
            if let Some((x, y)) = non_commuting(&p, &letters) {
                return Err(Diag::new(
                    e.span,
                    format!(
                        "these radices take the first {} generators of `{}`, and {x} and {y} do not commute",
                        digits.len(),
                        p.def.name
                    ),
                )
                .with_help("Gray codes need moves that commute; use hamilton(G) for other groups"));
            }
            (p, digits)
        }
        _ => unreachable!("checked kind: a group or a list"),
    };
    let word = if cycle {
        let (w, closed) = puz_hamilton::gray::modular(&digits, &p.alphabet);
        if !closed {
            return Err(Diag::new(
                a.span,
                "no modular Gray cycle for these radices (each radix must divide the next)",
            )
            .with_help("drop `cycle: true` for a reflected Gray path"));
        }
        w
    } else {
        puz_hamilton::gray::reflected(&digits)
    };
    Ok(Value::Seq(SeqVal::new(p, word)))
}

/// `plain_changes(G)`: the bell-ringing cycle, G's generators being the adjacent swaps in order.
/// The largest row `plain_changes` builds.
const MAX_PLAIN_PIECES: u32 = 13;

pub fn plain_changes(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let g = a.pos(0).group();
    let letters = gen_letters(g, a.span)?;
    swaps_in_a_row(g, &letters, a.pos(0).span)?;
    // Building the word takes time growing with the factorial (about 4 s for 13 pieces),
    // and the engine does not poll Ctrl-C: refuse larger rows up front.
    let pieces = letters.len() as u32 + 1;
    if pieces > MAX_PLAIN_PIECES {
        let steps = |n: u32| (1..=n as u128).product::<u128>();
        return Err(Diag::new(
            a.pos(0).span,
            format!(
                "plain changes of {pieces} pieces would have {pieces}! = {} steps; at most {MAX_PLAIN_PIECES} pieces ({MAX_PLAIN_PIECES}! = {} steps)",
                steps(pieces),
                steps(MAX_PLAIN_PIECES)
            ),
        )
        .with_help("hamilton(G, chain: [..]) builds cycles along a chain of subgroups, far beyond memory"));
    }
    let w = puz_hamilton::plain::plain_changes(&letters, &g.puzzle.alphabet);
    Ok(Value::Seq(SeqVal::new(g.puzzle.clone(), w)))
}

/// Plain changes are a Hamilton cycle exactly when the generators, in order, behave as the
/// adjacent swaps of a row: involutions, neighbours of order 3, others commuting (the
/// Coxeter relations of the symmetric group), generating a group of (k + 1)! elements.
fn swaps_in_a_row(g: &GroupVal, letters: &[u32], span: Span) -> EvalResult<()> {
    let perms = &g.puzzle.alphabet.perms;
    let hint = "plain_changes needs the adjacent swaps of a row, in order: `use row(5); plain_changes(group)`";
    if letters.is_empty() {
        return Err(Diag::new(span, format!("{} has no generators", g.text)).with_help(hint));
    }
    let name = |l: u32| g.puzzle.alphabet.names[l as usize].clone();
    for (i, &x) in letters.iter().enumerate() {
        let px = &perms[x as usize];
        if px.is_identity() || !px.then(px).is_identity() {
            return Err(
                Diag::new(span, format!("{} is not a swap (an involution)", name(x)))
                    .with_help(hint),
            );
        }
        for (j, &y) in letters.iter().enumerate().skip(i + 1) {
            let xy = px.then(&perms[y as usize]);
            let want = if j == i + 1 { 3u32 } else { 2 };
            if xy.order() != want.into() {
                return Err(Diag::new(
                    span,
                    format!(
                        "{} {} has order {}, not {want}: not the swaps of a row in order",
                        name(x),
                        name(y),
                        xy.order()
                    ),
                )
                .with_help(hint));
            }
        }
    }
    Ok(())
}

/// `zigzag(P, Q)`: the direct-product path from Hamilton paths P of G and Q of H.
pub fn zigzag(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let pg = a.pos(0).seq();
    let ph = a.pos(1).seq();
    let w = puz_hamilton::product::zigzag(&pg.word, &ph.word, &pg.puzzle.alphabet);
    Ok(Value::Seq(SeqVal::new(pg.puzzle.clone(), w)))
}

/// `path_with_effect(C, m)`: from a Hamilton cycle C of H, a Hamilton path of H with the
/// effect of the move m (the cycle rotated and cut).
pub fn path_with_effect(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let c = a.pos(0).seq();
    let (m, msp) = (a.pos(1).seq(), a.pos(1).span);
    let Word::Letter(l) = single(&m.word) else {
        return Err(Diag::new(msp, "the effect must be a single move"));
    };
    match puz_hamilton::coset::path_with_effect(&c.word, &c.puzzle.alphabet, l) {
        Some(w) => Ok(Value::Seq(SeqVal::new(c.puzzle.clone(), w))),
        None => Err(Diag::new(
            msp,
            "this move (and its inverse) does not occur in the cycle",
        )),
    }
}

fn single(w: &Word) -> Word {
    match w {
        Word::Named(_, x) => single(x),
        Word::Seq(v) if v.len() == 1 => single(&v[0]),
        w => w.clone(),
    }
}

/// `coset_splice(C, h1 g1 h2 g2 ..., tail: true)`: Jaap's walk through the cosets of H
/// (C a Hamilton cycle of H): each `h` is replaced by a Hamilton path of H with its
/// effect, each `g` steps to the next coset; with `tail` a last path of H ends it.
pub fn coset_splice(_: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let c = a.pos(0).seq();
    let (steps, ssp) = (a.pos(1).seq(), a.pos(1).span);
    let tail = a.flag("tail");
    if c.word.is_empty() {
        return Err(Diag::new(a.pos(0).span, "the cycle is empty")
            .with_help("give a Hamilton cycle of H, e.g. one from hamilton(<...>)"));
    }
    // The steps are listed one by one, so they must be few enough to list.
    const MAX_STEPS: u128 = 10_000_000;
    if steps.word.len() > MAX_STEPS {
        return Err(Diag::new(
            ssp,
            format!(
                "{} moves of steps: at most {MAX_STEPS} can be listed",
                steps.word.len()
            ),
        )
        .with_help("a longer walk is built from a shorter one with repetitions: `(W)^n`"));
    }
    let letters = steps.word.letters(&steps.puzzle.alphabet);
    if letters.len() % 2 != 0 {
        return Err(Diag::new(
            ssp,
            "the steps alternate a move of H and a connecting move: an even number of moves",
        ));
    }
    let st: Vec<puz_hamilton::coset::Step> = letters
        .chunks(2)
        .map(|x| puz_hamilton::coset::Step { h: x[0], g: x[1] })
        .collect();
    match puz_hamilton::coset::coset_splice(&c.word, &c.puzzle.alphabet, &st, tail) {
        Some(w) => Ok(Value::Seq(SeqVal::new(c.puzzle.clone(), w))),
        None => Err(Diag::new(
            ssp,
            "a move of H in the steps does not occur in the cycle",
        )),
    }
}
