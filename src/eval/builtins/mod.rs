//! Builtin functions: argument handling and dispatch. Each family lives in its own
//! module and calls an engine; nothing here parses.

mod basic;
pub mod group;
mod hamilton;
mod puzzles;
mod solve;

use super::interp::{EvalResult, Interp};
use super::value::Value;
use crate::diag::Diag;
use crate::syntax::{Arg, BinOp, Expr, ExprKind, Ident, Span};

/// Every builtin name (for completion, suggestions and the rule that `let` may not hide
/// one), taken from the help table so the two cannot disagree.
pub fn names() -> Vec<&'static str> {
    HELP.iter()
        .map(|(sig, _)| sig.split('(').next().unwrap())
        .collect()
}

pub fn is_builtin(name: &str) -> bool {
    names().contains(&name)
}

/// One-line descriptions for `:help`.
pub const HELP: &[(&str, &str)] = &[
    (
        "order(x)",
        "order of a sequence or position; |G| of a group",
    ),
    (
        "cycles(x)",
        "the effect of a sequence in cycle notation on the puzzle's orbits",
    ),
    (
        "length(x)",
        "the number of moves of a sequence (streamed, never expanded)",
    ),
    ("inverse(x)", "the inverse sequence (same as x')"),
    (
        "row(n)",
        "n pieces in a row with adjacent swaps s1..s(n-1) (`use row(5)`)",
    ),
    (
        "topspin(n)",
        "n discs in a loop: S slides, T turns the turntable over (`use topspin(8)`)",
    ),
    ("moves()", "the moves of the puzzle in use"),
    (
        "chain(G, base: [..], reps: true)",
        "the stabiliser chain: cosets and word lengths per stage",
    ),
    (
        "solve(x, G)",
        "a sequence from the chain that solves position x (re-checked; not optimal)",
    ),
    ("random(G, seed: n)", "a uniformly random position of G"),
    (
        "rank(x, G)",
        "the rank of x in 0..|G|-1 (mixed radix along the chain)",
    ),
    ("unrank(n, G)", "the position of rank n"),
    ("index(G, H)", "[G : H] for a subgroup H of G"),
    (
        "orbit(G, loc)",
        "where the piece at a location can go (with orientations)",
    ),
    (
        "stabilizer(G, loc)",
        "the subgroup fixing a location (or a list of them)",
    ),
    (
        "why(x, G)",
        "whether x is in G, and which stage of the chain rejects it",
    ),
    (
        "check_hamilton(w, G, start: x)",
        "is w a Hamilton cycle/path of G? the first repeat, in your own macros",
    ),
    (
        "check_devil(w, G)",
        "does w reach every position of G (repeats allowed)? by which move?",
    ),
    (
        "is_hamilton_cycle(w, G)",
        "true when w is a Hamilton cycle of G",
    ),
    (
        "is_hamilton_path(w, G)",
        "true when w is a Hamilton path of G",
    ),
    ("is_devil(w, G)", "true when w reaches every position of G"),
    (
        "hamilton(G)",
        "a Hamilton cycle of the Cayley graph of G on its generators, verified",
    ),
    (
        "gray(G, cycle: true)",
        "a mixed-radix Gray code (path, or modular cycle) on an abelian group",
    ),
    (
        "plain_changes(G)",
        "the bell-ringing cycle; G's generators are the adjacent swaps in order",
    ),
    (
        "zigzag(P, Q)",
        "the direct-product path from Hamilton paths P and Q",
    ),
    (
        "path_with_effect(C, m)",
        "a Hamilton path of H with the effect of move m, from a Hamilton cycle C of H",
    ),
    (
        "coset_splice(C, h1 g1 h2 g2.., tail: true)",
        "a walk through the cosets of H, each h replaced by a path of H with its effect",
    ),
];

/// The arguments of one call.
pub struct Args<'a> {
    pub fname: &'a Ident,
    pub args: &'a [Arg],
    pub span: Span,
}

impl<'a> Args<'a> {
    /// Checks the number of positional arguments and the allowed named ones.
    pub fn expect(&self, min: usize, max: usize, named: &[&str]) -> EvalResult<()> {
        let pos = self.args.iter().filter(|a| a.name.is_none()).count();
        if pos < min || pos > max {
            let want = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(Diag::new(
                self.span,
                format!(
                    "`{}` takes {want} argument{}, not {pos}",
                    self.fname.name,
                    if max == 1 { "" } else { "s" }
                ),
            )
            .with_help(usage(&self.fname.name)));
        }
        for a in self.args {
            if let Some(n) = &a.name {
                if !named.contains(&n.name.as_str()) {
                    let d = Diag::new(
                        n.span,
                        format!("`{}` has no option `{}`", self.fname.name, n.name),
                    );
                    return Err(if named.is_empty() {
                        d.with_help(usage(&self.fname.name))
                    } else {
                        d.with_help(format!(
                            "its options are {}",
                            named
                                .iter()
                                .map(|s| format!("`{s}:`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    });
                }
            }
        }
        Ok(())
    }

    pub fn pos(&self, i: usize) -> Option<&'a Expr> {
        self.args
            .iter()
            .filter(|a| a.name.is_none())
            .nth(i)
            .map(|a| &a.value)
    }

    pub fn named(&self, name: &str) -> Option<&'a Expr> {
        self.args
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|n| n.name == name))
            .map(|a| &a.value)
    }
}

fn usage(name: &str) -> String {
    HELP.iter()
        .find(|(sig, _)| sig.split('(').next() == Some(name))
        .map(|(sig, what)| format!("usage: {sig}: {what}"))
        .unwrap_or_else(|| "see `:help`".to_string())
}

pub fn call(it: &mut Interp, name: &Ident, args: &[Arg], span: Span) -> EvalResult<Value> {
    let a = Args {
        fname: name,
        args,
        span,
    };
    match name.name.as_str() {
        "order" => basic::order(it, &a),
        "cycles" => basic::cycles(it, &a),
        "length" => basic::length(it, &a),
        "inverse" => basic::inverse(it, &a),
        "moves" => basic::moves(it, &a),
        "row" => puzzles::row(it, &a),
        "topspin" => puzzles::topspin(it, &a),
        "chain" => group::chain(it, &a),
        "solve" => group::solve(it, &a),
        "random" => group::random(it, &a),
        "rank" => group::rank(it, &a),
        "unrank" => group::unrank(it, &a),
        "index" => group::index(it, &a),
        "orbit" => group::orbit(it, &a),
        "stabilizer" => group::stabilizer(it, &a),
        "why" => group::why(it, &a),
        "check_hamilton" => hamilton::check_hamilton(it, &a),
        "check_devil" => hamilton::check_devil(it, &a),
        "is_hamilton_cycle" => hamilton::is_kind(it, &a, Some(puz_hamilton::Kind::Cycle)),
        "is_hamilton_path" => hamilton::is_kind(it, &a, Some(puz_hamilton::Kind::Path)),
        "is_devil" => hamilton::is_kind(it, &a, None),
        "hamilton" => hamilton::hamilton(it, &a),
        "gray" => hamilton::gray(it, &a),
        "plain_changes" => hamilton::plain_changes(it, &a),
        "zigzag" => hamilton::zigzag(it, &a),
        "path_with_effect" => hamilton::path_with_effect(it, &a),
        "coset_splice" => hamilton::coset_splice(it, &a),
        "distances" => solve::distances(it, &a),
        "distance_counts" => solve::distance_counts(it, &a),
        "optimal" => solve::optimal(it, &a),
        other => {
            // Jaap's compact style: `LM(R MLMLM R)` is the word `LM` followed by a group.
            if let [Arg {
                name: None, value, ..
            }] = args
            {
                if it.current.is_some() && !is_builtin(other) {
                    let word = Expr {
                        kind: ExprKind::Word(other.to_string()),
                        span: name.span,
                    };
                    let group = Expr {
                        kind: ExprKind::Seq(vec![value.clone()]),
                        span: Span::new(name.span.end, span.end),
                    };
                    let seq = Expr {
                        kind: ExprKind::Seq(vec![word, group]),
                        span,
                    };
                    if let Ok(v) = it.eval(&seq) {
                        return Ok(v);
                    }
                }
            }
            if it.vars.contains_key(other)
                || it
                    .current
                    .as_ref()
                    .is_some_and(|p| p.move_index(other).is_some())
            {
                return Err(Diag::new(name.span, format!("`{other}` is not a function"))
                    .with_help(format!(
                        "to follow `{other}` by a bracketed sequence, put a space: `{other} (...)`"
                    )));
            }
            let near = super::names::suggest(other, names().into_iter());
            let d = Diag::new(name.span, format!("unknown function `{other}`"))
                .with_label("not a builtin");
            Err(if near.is_empty() {
                d.with_help(format!("builtins: {}", names().join(", ")))
            } else {
                d.with_help(format!("did you mean `{}`?", near[0]))
            })
        }
    }
}

/// Names that evaluate to a value without a call: the metrics.
pub fn constant(_it: &mut Interp, name: &str, _span: Span) -> EvalResult<Option<Value>> {
    Ok(solve::constant(name))
}

pub fn metric_stmt(
    it: &mut Interp,
    name: &Ident,
    value: Option<&Expr>,
    span: Span,
) -> EvalResult<()> {
    solve::metric_stmt(it, name, value, span)
}

pub fn membership(it: &mut Interp, l: &Value, r: &Value, span: Span) -> EvalResult<Value> {
    group::membership(it, l, r, span)
}

pub fn group_compare(
    it: &mut Interp,
    op: BinOp,
    l: &Value,
    r: &Value,
    span: Span,
) -> EvalResult<Value> {
    group::compare(it, op, l, r, span)
}
