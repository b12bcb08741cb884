//! Builtin functions: argument handling and dispatch. Each family lives in its own
//! module and calls an engine; nothing here parses.

mod basic;
pub mod group;
mod hamilton;
mod puzzles;
pub mod solve;

use super::interp::{EvalResult, Interp};
use super::value::Value;
use crate::diag::Diag;
use crate::syntax::{Arg, Expr, ExprKind, Ident, Span};

/// Every builtin name (for completion, suggestions and the rule that `let` may not hide
/// one), taken from the help table so the two cannot disagree.
pub fn names() -> Vec<&'static str> {
    TABLE.iter().map(Builtin::name).collect()
}

pub fn is_builtin(name: &str) -> bool {
    names().contains(&name)
}

/// A builtin: its signature as shown in `:help`, what it does, and its implementation.
pub struct Builtin {
    pub sig: &'static str,
    pub help: &'static str,
    pub run: fn(&mut Interp, &Args) -> EvalResult<Value>,
}

impl Builtin {
    pub fn name(&self) -> &'static str {
        self.sig.split('(').next().unwrap()
    }
}

macro_rules! builtins {
    ($($sig:literal, $help:literal => $run:expr;)*) => {
        &[$(Builtin { sig: $sig, help: $help, run: $run }),*]
    };
}

/// Every builtin: dispatch, `:help`, completion and suggestions all read this table.
pub const TABLE: &[Builtin] = builtins! {
    "order(x)", "order of a sequence or position; |G| of a group" => basic::order;
    "cycles(x)", "the effect of a sequence in cycle notation on the puzzle's orbits" => basic::cycles;
    "length(x, metric: m)", "the number of moves (streamed, never expanded), or its length in a metric" => basic::length;
    "inverse(x)", "the inverse sequence (same as x')" => basic::inverse;
    "moves()", "the moves of the puzzle in use" => basic::moves;
    "row(n)", "n pieces in a row with adjacent swaps s1..s(n-1) (`use row(5)`)" => puzzles::row;
    "topspin(n)", "n discs in a loop: S slides, T turns the turntable over (`use topspin(8)`)" => puzzles::topspin;
    "chain(G, base: [..], reps: true)", "the stabiliser chain: cosets and word lengths per stage" => group::chain;
    "solve(x, G)", "a sequence from the chain that solves position x (re-checked; not optimal)" => group::solve;
    "random(G, seed: n)", "a uniformly random position of G" => group::random;
    "rank(x, G)", "the rank of x in 0..|G|-1 (mixed radix along the chain)" => group::rank;
    "unrank(n, G)", "the position of rank n" => group::unrank;
    "index(G, H)", "[G : H] for a subgroup H of G" => group::index;
    "orbit(G, loc)", "where the piece at a location can go (with orientations)" => group::orbit;
    "stabilizer(G, loc)", "the subgroup fixing a location (or a list of them)" => group::stabilizer;
    "why(x, G)", "whether x is in G, and which stage of the chain rejects it" => group::why;
    "check_hamilton(w, G, start: x)", "is w a Hamilton cycle/path of G? the first repeat, in your own macros" => hamilton::check_hamilton;
    "check_devil(w, G)", "does w reach every position of G (repeats allowed)? by which move?" => hamilton::check_devil;
    "is_hamilton_cycle(w, G)", "true when w is a Hamilton cycle of G" => |it, a| hamilton::is_kind(it, a, Some(puz_hamilton::Kind::Cycle));
    "is_hamilton_path(w, G)", "true when w is a Hamilton path of G" => |it, a| hamilton::is_kind(it, a, Some(puz_hamilton::Kind::Path));
    "is_devil(w, G)", "true when w reaches every position of G" => |it, a| hamilton::is_kind(it, a, None);
    "hamilton(G)", "a Hamilton cycle of the Cayley graph of G on its generators, verified" => hamilton::hamilton;
    "gray(G, cycle: true)", "a mixed-radix Gray code (path, or modular cycle) on an abelian group" => hamilton::gray;
    "plain_changes(G)", "the bell-ringing cycle; G's generators are the adjacent swaps in order" => hamilton::plain_changes;
    "zigzag(P, Q)", "the direct-product path from Hamilton paths P and Q" => hamilton::zigzag;
    "path_with_effect(C, m)", "a Hamilton path of H with the effect of move m, from a Hamilton cycle C of H" => hamilton::path_with_effect;
    "coset_splice(C, h1 g1 h2 g2.., tail: true)", "a walk through the cosets of H, each h replaced by a path of H with its effect" => hamilton::coset_splice;
    "distances(G, metric: m, depth: d)", "God's algorithm: positions at each distance, God's number, antipodes" => solve::distances;
    "distance_counts(G, metric: m, depth: d)", "the same counts as a list, for asserts" => solve::distance_counts;
    "optimal(x, metric: m, all: true, first: true)", "an optimal solution (IDA* with pattern databases), proved and re-checked; first: the first found, not the same every run" => solve::optimal;
};

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
    TABLE
        .iter()
        .find(|b| b.name() == name)
        .map(|b| format!("usage: {}: {}", b.sig, b.help))
        .unwrap_or_else(|| "see `:help`".to_string())
}

pub fn call(it: &mut Interp, name: &Ident, args: &[Arg], span: Span) -> EvalResult<Value> {
    let a = Args {
        fname: name,
        args,
        span,
    };
    if let Some(b) = TABLE.iter().find(|b| b.name() == name.name) {
        return (b.run)(it, &a);
    }
    let other = name.name.as_str();
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
        return Err(
            Diag::new(name.span, format!("`{other}` is not a function")).with_help(format!(
                "to follow `{other}` by a bracketed sequence, put a space: `{other} (...)`"
            )),
        );
    }
    let near = super::names::suggest(other, names().into_iter());
    let d = Diag::new(name.span, format!("unknown function `{other}`")).with_label("not a builtin");
    Err(if near.is_empty() {
        d.with_help(format!("builtins: {}", names().join(", ")))
    } else {
        d.with_help(format!("did you mean `{}`?", near[0]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_are_unique_and_documented() {
        let mut names = names();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a builtin is listed twice");
        for b in TABLE {
            assert!(b.sig.contains('(') && !b.help.is_empty(), "{}", b.sig);
        }
    }
}
