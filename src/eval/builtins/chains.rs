//! Hamilton cycles past memory, through a chain of subgroups `H_1 < H_2 < ... < G`:
//! `check_hamilton(w, G, chain: [...])` certifies a word by cosets (puz-hamilton's
//! `certify`), `hamilton(G, chain: [...])` builds a cycle level by level (its `chain`
//! module) and checks what it built. The group side comes from puz-group: each level is a
//! stabiliser chain with exact keys of its left cosets.

use super::spec::{interrupted, Arg, Ctx};
use super::walks::{frames_text, map_letters};
use crate::diag::{Diag, EvalResult};
use crate::eval::groups::{self, GroupEngine};
use crate::eval::value::{GroupVal, SeqVal};
use crate::span::Span;
use puz_core::{count, Control, Perm, Word};
use puz_group::cosets::CosetKeys;
use puz_group::Group;
use puz_hamilton::chain::{balance, balance::FANOUT, commuting_level, Measure, SpliceOptions};
use puz_hamilton::subgroup::{CosetKey, Subgroup};
use puz_hamilton::{CertifyError, CertifyOptions, CosetChain, Failure, Kind, Verdict};
use std::rc::Rc;

/// One group of the chain with the keys of its cosets in the group above it.
struct Level<'a> {
    group: &'a Group,
    keys: CosetKeys,
    order: u128,
}

impl CosetKey for Level<'_> {
    fn order(&self) -> u128 {
        self.order
    }
    fn coset_key(&self, x: &[u16], out: &mut Vec<u16>) {
        self.keys.left_key(x, out)
    }
}

impl Subgroup for Level<'_> {
    fn contains(&self, p: &Perm) -> bool {
        self.group.contains(p)
    }
    fn generators(&self) -> Vec<Perm> {
        self.group.generators()
    }
}

/// The groups of `chain:` (ascending) followed by `G`, on `G`'s puzzle, with their
/// engines built; `G` is not repeated when the list ends with it.
fn engines(
    ctx: &Ctx,
    g: &GroupVal,
    chain: &Arg,
    span: Span,
) -> EvalResult<Vec<(GroupVal, Rc<GroupEngine>)>> {
    let mut out = Vec::new();
    for (i, v) in list_items(chain).iter().enumerate() {
        let h = match v {
            crate::eval::value::Value::Group(h) => h.clone(),
            _ => unreachable!("checked kind"),
        };
        if !h.puzzle.same(&g.puzzle) {
            return Err(Diag::new(
                chain.item_span(i),
                format!(
                    "{} is on `{}`, G on `{}`",
                    h.text, h.puzzle.def.name, g.puzzle.def.name
                ),
            ));
        }
        h.own_gens(chain.item_span(i), "build a Hamilton cycle by cosets along")?;
        let e = h.engine(ctx.ctl, chain.item_span(i))?;
        out.push((h, e));
    }
    g.own_gens(span, "build a Hamilton cycle by cosets along")?;
    let eg = g.engine(ctx.ctl, span)?;
    let ends_with_g = out.last().is_some_and(|(_, e)| {
        e.group.order() == eg.group.order() && e.group.is_subgroup_of(&eg.group)
    });
    if !ends_with_g {
        out.push((g.clone(), eg));
    }
    if out.len() < 2 {
        return Err(
            Diag::new(chain.span, "the chain needs at least one group below G")
                .with_help("chain: [H1, H2, ...], ascending, each a subgroup of the next"),
        );
    }
    for (i, w) in out.windows(2).enumerate() {
        if !w[0].1.group.is_subgroup_of(&w[1].1.group) {
            return Err(Diag::new(
                chain.item_span(i),
                format!("{} is not a subgroup of {}", w[0].0.text, w[1].0.text),
            )
            .with_help("chain: [H1, H2, ...], ascending, each a subgroup of the next"));
        }
    }
    Ok(out)
}

/// `new` cut to one move when every other is a power of it (`[D, D2]` -> `[D]`, with
/// `[D2]` beside it); else as is.
fn single_new_move(new: &[u32], p: &crate::eval::puzzle_ctx::PuzzleCtx) -> (Vec<u32>, Vec<u32>) {
    match new
        .iter()
        .find(|&&d| new.iter().all(|&e| groups::is_power_of(p, e, d)))
    {
        Some(&d) if new.len() > 1 => (vec![d], new.iter().copied().filter(|&e| e != d).collect()),
        _ => (new.to_vec(), Vec::new()),
    }
}

fn list_items(a: &Arg) -> &[crate::eval::value::Value] {
    match &a.value {
        crate::eval::value::Value::List(items) => items,
        _ => &[],
    }
}

fn order_of(e: &GroupEngine, text: &str, span: Span) -> EvalResult<u128> {
    u128::try_from(&e.group.order())
        .map_err(|_| Diag::new(span, format!("{text} has more than 2^128 elements")))
}

/// The levels of a chain: every group but the last with keys of its cosets in the next.
fn levels<'a>(
    es: &'a [(GroupVal, Rc<GroupEngine>)],
    ctl: &Control,
    span: Span,
) -> EvalResult<Vec<Level<'a>>> {
    let mut out = Vec::new();
    for (i, (h, e)) in es.iter().enumerate() {
        let within = es.get(i + 1).map(|(_, up)| &up.group);
        let keys = CosetKeys::new(&e.group, within, ctl).map_err(interrupted(span))?;
        out.push(Level {
            group: &e.group,
            keys,
            order: order_of(e, &h.text, span)?,
        });
    }
    Ok(out)
}

/// Certifies `s` as a Hamilton cycle or path of the last of the levels `lv` (made by
/// [`levels`]) from the identity.
fn certify(ctx: &Ctx, s: &SeqVal, lv: &[Level], span: Span) -> EvalResult<Verdict> {
    let (top, below) = lv.split_last().expect("two groups at least");
    let chain = CosetChain {
        levels: below.iter().map(|l| l as &dyn Subgroup).collect(),
        group: top,
        bottom: lv[0].group,
    };
    puz_hamilton::certify(
        &s.word,
        &s.puzzle.alphabet,
        &chain,
        &CertifyOptions::default(),
        ctx.ctl,
    )
    .map_err(|e| match e {
        CertifyError::Interrupted(i) => interrupted(span)(i),
        e => Diag::new(span, e.to_string()),
    })
}

/// `check_hamilton(w, G, chain: [...])`: the verdict in words, and whether it is a cycle.
pub fn check_by_cosets(
    ctx: &mut Ctx,
    s: &SeqVal,
    g: &GroupVal,
    chain: &Arg,
    span: Span,
) -> EvalResult<(String, Option<Kind>)> {
    let es = engines(ctx, g, chain, span)?;
    let names: Vec<&str> = es.iter().map(|(h, _)| h.text.as_str()).collect();
    let by = format!("certified by cosets along {}", names.join(" < "));
    let v = certify(ctx, s, &levels(&es, ctx.ctl, span)?, span)?;
    let p = &s.puzzle;
    Ok(match v {
        Verdict::Certified(k) => {
            let size = order_of(&es.last().unwrap().1, &g.text, span)?;
            let what = match k {
                Kind::Cycle => format!("Hamilton cycle of {}: {}, {}, returns to start", g.text, count(s.word.len(), "move"), count(size, "distinct position")),
                _ => format!("Hamilton path of {}: {}, all {} once", g.text, count(s.word.len(), "move"), count(size, "position")),
            };
            let note = super::walks::off_generators(&s.word, g).unwrap_or_default();
            (format!("{what} ({by}){}", note.trim_end_matches('\n').replace("  note", "\n  note")), Some(k))
        }
        Verdict::NotHamilton(Failure::Repeat { index, repeats, position, frames, letter, .. }) => (
            format!(
                "not a Hamilton path: position {index} repeats position {repeats}{} ({by})\n  the repeated position: {}",
                if frames.is_empty() {
                    String::new()
                } else {
                    format!("; the move `{}` is {}", p.alphabet.names[letter as usize], frames_text(&frames))
                },
                p.def.cycle_notation(&position)
            ),
            Some(Kind::Neither),
        ),
        Verdict::NotHamilton(Failure::Missing { visited, size }) => (
            format!("not a Hamilton path of {}: {} of {size} ({by})", g.text, count(visited, "distinct position")),
            Some(Kind::Neither),
        ),
        Verdict::NotHamilton(Failure::Overfull { level, entered, again, frames, positions, size }) => (
            format!(
                "not a Hamilton path: a coset of {} entered at position {entered} is entered again at position {again}{} and holds {} for its {} ({by})",
                names[level],
                if frames.is_empty() { String::new() } else { format!(" ({})", frames_text(&frames)) },
                count(positions, "position"),
                count(size, "element"),
            ),
            Some(Kind::Neither),
        ),
        Verdict::CannotCertify(why) => (
            format!("cannot certify (nothing is claimed either way): {why}"),
            None,
        ),
    })
}

/// `hamilton(G, chain: [H1, ..., G])`: a Hamilton cycle of `H1` by the search, then one
/// level per group, each adding one move that commutes with a move below it; the result
/// is certified by cosets before it is returned.
pub fn hamilton_along(
    ctx: &mut Ctx,
    g: &GroupVal,
    chain: &Arg,
    proof: bool,
    span: Span,
) -> EvalResult<Word> {
    let es = engines(ctx, g, chain, span)?;
    let p = g.puzzle.clone();
    let (h1, e1) = &es[0];
    let (alpha1, words) = groups::alphabet(&p, &h1.gens, false);
    if h1.gens.iter().any(|w| !matches!(w, Word::Letter(_))) || alpha1.is_empty() {
        return Err(Diag::new(
            chain.item_span(0),
            format!("the generators of {} must be single moves", h1.text),
        ));
    }
    let lv = levels(&es, ctx.ctl, span)?;
    let mut adds = Vec::new();
    let mut alsos = Vec::new();
    for k in 1..es.len() {
        let (hk, _) = &es[k];
        let below = &es[k - 1].0;
        let new: Vec<u32> = hk
            .gens
            .iter()
            .filter_map(|w| match w {
                Word::Letter(l) if !lv[k - 1].group.contains(&p.alphabet.perms[*l as usize]) => {
                    Some(*l)
                }
                _ => None,
            })
            .collect();
        // Moves that are powers of one of them (the half turn D2 beside D) add no
        // position that move does not: the level is built on it, and the others open
        // detours beside it where it commutes with a move below.
        let (new, also) = single_new_move(&new, &p);
        let [d] = new[..] else {
            let at = if k < es.len() - 1 || list_items(chain).len() == es.len() {
                chain.item_span(k.min(list_items(chain).len() - 1))
            } else {
                span
            };
            return Err(Diag::new(
                at,
                format!("{} must add exactly one move to {} (it adds {}, not all powers of one)", hk.text, below.text, new.len()),
            )
            .with_help("each group of the chain adds one move (and its powers, as D2 with D): one that commutes with a move of the group below (as D with U), or the 3x3x3's F over <U, R, D, L>"));
        };
        adds.push(d);
        alsos.push(also);
    }
    let w1 = puz_hamilton::hamilton(&alpha1, &e1.group, ctx.ctl)
        .map_err(|e| Diag::new(span, e.to_string()))?;
    let mut word = balance(&map_letters(&w1, &|l| words[l as usize].clone()), FANOUT);
    let mut cycles = vec![word.clone()];
    for k in 1..es.len() {
        let (hk, _) = &es[k];
        let below = &es[k - 1].0;
        let d = adds[k - 1];
        ctx.ctl.progress(&format!(
            "level {}: {} of {}",
            hk.text,
            count(lv[k].order / lv[k - 1].order.max(1), "coset"),
            below.text
        ));
        let dp = &p.alphabet.perms[d as usize];
        let commutes = below.gens.iter().any(|w| match w {
            Word::Letter(l) => {
                let q = &p.alphabet.perms[*l as usize];
                !q.is_identity() && q.then(dp) == dp.then(q)
            }
            _ => false,
        });
        if !commutes {
            let keys: Vec<&dyn CosetKey> = lv[..k].iter().map(|l| l as &dyn CosetKey).collect();
            let orders: Vec<u128> = lv[..k].iter().map(|l| l.order).collect();
            let ctx_below = super::joins::Below {
                bottom_alpha: &alpha1,
                bottom_cycle: &w1,
                bottom: &e1.group,
                bottom_words: &words,
                cycles: &cycles,
                keys: &keys,
                orders: &orders,
                adds: &adds[..k - 1],
            };
            word = super::joins::join(ctx, &p.alphabet, &ctx_below, d, lv[k].order, span)?;
            cycles.push(word.clone());
            continue;
        }
        let (w, _) = commuting_level(
            &p.alphabet,
            &word,
            &lv[k - 1],
            lv[k].order,
            d,
            &SpliceOptions {
                also: alsos[k - 1].clone(),
                ..SpliceOptions::default()
            },
            ctx.ctl,
        )
        .map_err(|e| match e {
            puz_hamilton::chain::ChainError::Interrupt(i) => interrupted(span)(i),
            e => Diag::new(span, format!("{}: {e}", hk.text)),
        })?;
        word = w;
        cycles.push(word.clone());
    }
    // What the levels were built from is not needed any more: the certificate holds its
    // own memo tables on top of the word, so the cycles of the levels below (words the
    // result does not all share) and the bottom cycle are let go before it starts.
    drop(cycles);
    drop(w1);
    drop(words);
    let top = lv.last().unwrap().order;
    // The check's memo is dropped before the certificate: it holds clones of the nodes
    // it remembers, which the certificate would take for shared ones.
    let checked = {
        let mut m = Measure::new(&p.alphabet, p.def.degree());
        m.len(&word) == top && m.product(&word).is_identity()
    };
    if !checked {
        return Err(Diag::new(
            span,
            "internal error: the constructed word has the wrong length or effect (please report)",
        ));
    }
    if !proof {
        ctx.ctl
            .progress("not certified (certify: false): length, effect and coset count checked");
        return Ok(word);
    }
    let s = SeqVal::new(p.clone(), word);
    ctx.ctl.progress("certifying the cycle by cosets");
    match certify(ctx, &s, &lv, span)? {
        Verdict::Certified(Kind::Cycle) => Ok(s.word),
        Verdict::CannotCertify(why) => Err(Diag::new(
            span,
            format!("built a cycle of {top} moves (length, effect and coset count checked) but could not certify it: {why}"),
        )
        .with_help("`certify: false` returns the construction without the proof")),
        v => Err(Diag::new(span, format!("internal error: the constructed cycle did not certify: {v:?} (please report)"))),
    }
}
