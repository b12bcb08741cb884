//! Turns a `puzzle { ... }` definition into a [`PuzzleCtx`], checking it first: names
//! used twice, locations out of range or repeated, orientations on orbits without twist.

use super::names::suggest;
use super::puzzle_ctx::PuzzleCtx;
use crate::diag::Diag;
use crate::syntax::*;
use puz_core::puzzle::MoveBuilder;
use puz_core::{NamedMove, Perm, Puzzle};
use std::collections::HashMap;

/// Resolves a derived move's sequence against the moves defined so far.
pub type SeqResolver<'a> = dyn FnMut(&PuzzleCtx, &Expr) -> Result<Perm, Diag> + 'a;

pub fn build(def: &PuzzleDef, src: &str, resolve: &mut SeqResolver) -> Result<PuzzleCtx, Diag> {
    let mut p = Puzzle::new(def.name.name.clone());
    let mut seen: HashMap<String, Span> = HashMap::new();
    let mut gens: Option<Vec<usize>> = None;
    let mut gens_names: Vec<Ident> = Vec::new();
    // Orbits first, wherever they are written, so moves can refer to any of them.
    for item in &def.items {
        match item {
            PuzzleItem::Orbit {
                name, size, twist, ..
            } => {
                check_new(&mut seen, name, "orbit")?;
                let tw = match twist {
                    Some((0, sp)) => {
                        return Err(Diag::new(*sp, "a twist must be at least 1")
                            .with_help("`twist 2` for pieces that flip, `twist 3` for corners; leave it out for none"))
                    }
                    Some((t, sp)) if *t > 255 => {
                        return Err(Diag::new(*sp, "a twist must be at most 255"))
                    }
                    Some((t, _)) => *t as u8,
                    None => 1,
                };
                let (n, labels) = match size {
                    OrbitSize::Count(n, sp) => {
                        if *n == 0 {
                            return Err(Diag::new(*sp, "an orbit needs at least one location"));
                        }
                        (*n, vec![])
                    }
                    OrbitSize::Labels(ls) => {
                        let mut s: HashMap<&str, Span> = HashMap::new();
                        for l in ls {
                            if let Some(first) = s.insert(&l.name, l.span) {
                                return Err(Diag::new(
                                    l.span,
                                    format!("location `{}` is named twice", l.name),
                                )
                                .with_label("named again here")
                                .with_related(first, "first named here"));
                            }
                        }
                        if ls.is_empty() {
                            return Err(Diag::new(
                                name.span,
                                "an orbit needs at least one location",
                            ));
                        }
                        (ls.len(), ls.iter().map(|l| l.name.clone()).collect())
                    }
                };
                check_degree(&p, n * tw as usize, name.span)?;
                p.add_orbit(name.name.clone(), n, tw, labels);
            }
            PuzzleItem::Points { count, span } => {
                let id = Ident {
                    name: "points".into(),
                    span: *span,
                };
                check_new(&mut seen, &id, "orbit")?;
                if *count == 0 {
                    return Err(Diag::new(
                        *span,
                        "`points 0`: a puzzle needs at least one point",
                    ));
                }
                check_degree(&p, *count, *span)?;
                p.add_orbit(
                    "points",
                    *count,
                    1,
                    (1..=*count).map(|i| i.to_string()).collect(),
                );
            }
            _ => {}
        }
    }
    if p.orbits.is_empty() {
        return Err(Diag::new(
            def.name.span,
            format!("puzzle `{}` has no orbits", def.name.name),
        )
        .with_help("add `orbit NAME COUNT` (with `twist K` for oriented pieces) or `points N`"));
    }
    for item in &def.items {
        match item {
            PuzzleItem::Move(m) => {
                check_new(&mut seen, &m.name, "move")?;
                let perm = move_perm(&p, m, src, resolve)?;
                let primitive =
                    matches!(m.body, MoveBody::Cycles { .. }) && !is_sequence_fallback(&p, m);
                p.moves.push(NamedMove {
                    name: m.name.name.clone(),
                    perm,
                    primitive,
                });
            }
            PuzzleItem::Gens { names, .. } => gens_names.extend(names.iter().cloned()),
            PuzzleItem::Order { value, .. } => p.expected_order = Some(value.clone()),
            _ => {}
        }
    }
    if !gens_names.is_empty() {
        let mut v = Vec::new();
        for g in &gens_names {
            match p.move_index(&g.name) {
                Some(i) => v.push(i),
                None => {
                    let names: Vec<&str> = p.moves.iter().map(|m| m.name.as_str()).collect();
                    return Err(unknown(g, "move", &names));
                }
            }
        }
        gens = Some(v);
    }
    let gens = gens.unwrap_or_else(|| {
        (0..p.moves.len())
            .filter(|&i| p.moves[i].primitive)
            .collect()
    });
    Ok(PuzzleCtx::new(p, gens))
}

fn check_degree(p: &Puzzle, more: usize, span: Span) -> Result<(), Diag> {
    if p.degree() + more > 1 << 16 {
        return Err(Diag::new(
            span,
            "this puzzle has more than 65,536 points (locations x orientations)",
        )
        .with_help("puz represents positions as permutations of at most 65,536 points"));
    }
    Ok(())
}

fn check_new(seen: &mut HashMap<String, Span>, id: &Ident, what: &str) -> Result<(), Diag> {
    if let Some(first) = seen.get(&id.name) {
        return Err(Diag::new(
            id.span,
            format!("`{}` is already defined in this puzzle", id.name),
        )
        .with_label(format!("this {what} is defined again here"))
        .with_related(*first, "first defined here")
        .with_help("every orbit and move of a puzzle needs its own name"));
    }
    seen.insert(id.name.clone(), id.span);
    Ok(())
}

pub fn unknown(id: &Ident, what: &str, names: &[&str]) -> Diag {
    let near = suggest(&id.name, names.iter().copied());
    let d = Diag::new(id.span, format!("unknown {what} `{}`", id.name))
        .with_label(format!("no {what} has this name"));
    if near.is_empty() {
        d.with_help(format!("known: {}", names.join(", ")))
    } else {
        d.with_help(format!(
            "did you mean {}?",
            near.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ))
    }
}

/// `move Y = (R U)` parses as a bare cycle first; it is a sequence when its first
/// element names no location of the puzzle's only orbit but names a move.
fn is_sequence_fallback(p: &Puzzle, m: &MoveDef) -> bool {
    let MoveBody::Cycles { groups, .. } = &m.body else {
        return false;
    };
    groups.iter().any(|g| match &g.orbit {
        Some(o) => p.orbit_index(&o.name).is_none(),
        None => {
            p.orbits.len() == 1
                && g.cycles
                    .iter()
                    .flat_map(|c| &c.elems)
                    .any(|e| p.orbits[0].location(&e.label.name).is_none())
                && g.cycles
                    .iter()
                    .flat_map(|c| &c.elems)
                    .all(|e| e.add == 0 && p.move_index(&e.label.name).is_some())
        }
    })
}

fn move_perm(p: &Puzzle, m: &MoveDef, src: &str, resolve: &mut SeqResolver) -> Result<Perm, Diag> {
    let (groups, span) = match &m.body {
        MoveBody::Seq(e) => return derived(p, e, resolve),
        MoveBody::Cycles { groups, span } => (groups, *span),
    };
    if is_sequence_fallback(p, m) {
        let e = crate::syntax::parse_sequence(&src[span.start..span.end], span.start)?;
        return derived(p, &e, resolve);
    }
    let mut b = MoveBuilder::new(p);
    let mut used: HashMap<(usize, usize), Span> = HashMap::new();
    for g in groups {
        let oi = match &g.orbit {
            Some(o) => match p.orbit_index(&o.name) {
                Some(i) => i,
                None => {
                    let names: Vec<&str> = p.orbits.iter().map(|o| o.name.as_str()).collect();
                    return Err(unknown(o, "orbit", &names));
                }
            },
            None if p.orbits.len() == 1 => 0,
            None => {
                return Err(
                    Diag::new(g.span, "this cycle does not say which orbit it moves")
                        .with_help(format!("write it as `{}(...)`", p.orbits[0].name)),
                )
            }
        };
        let orbit = &p.orbits[oi];
        for c in &g.cycles {
            let mut elems = Vec::new();
            for e in &c.elems {
                let loc = orbit.location(&e.label.name).ok_or_else(|| {
                    let d = Diag::new(
                        e.label.span,
                        format!("orbit `{}` has no location `{}`", orbit.name, e.label.name),
                    );
                    if orbit.labels.is_empty() {
                        d.with_label("out of range")
                            .with_help(format!("locations are numbered 0 to {}", orbit.size - 1))
                    } else {
                        let names: Vec<&str> = orbit.labels.iter().map(|s| s.as_str()).collect();
                        let near = suggest(&e.label.name, names.iter().copied());
                        d.with_label("not a location of this orbit")
                            .with_help(if near.is_empty() {
                                format!("its locations are {}", names.join(" "))
                            } else {
                                format!("did you mean `{}`?", near[0])
                            })
                    }
                })?;
                if let Some(first) = used.insert((oi, loc), e.label.span) {
                    return Err(Diag::new(
                        e.label.span,
                        format!(
                            "location `{}` appears twice in move `{}`",
                            e.label.name, m.name.name
                        ),
                    )
                    .with_label("named again here")
                    .with_related(first, "first named here")
                    .with_help("the cycles of one move must be disjoint"));
                }
                if e.add != 0 && orbit.twist == 1 {
                    return Err(Diag::new(e.span, format!("orbit `{}` has no twist, so its pieces have no orientation", orbit.name))
                        .with_label("orientation change here")
                        .with_help(format!("declare the orbit with `twist K` (e.g. `orbit {} {} twist 2`) or drop the `{:+}`", orbit.name, orbit.size, e.add)));
                }
                elems.push((loc, e.add));
            }
            if elems.is_empty() {
                continue;
            }
            b.cycle(oi, &elems)
                .map_err(|err| Diag::new(c.span, err.to_string()))?;
        }
    }
    Ok(b.finish())
}

fn derived(p: &Puzzle, e: &Expr, resolve: &mut SeqResolver) -> Result<Perm, Diag> {
    let ctx = PuzzleCtx::new(p.clone(), vec![]);
    resolve(&ctx, e)
}
