//! Runtime values of the interpreter and how the REPL prints them.

use super::groups::{self, GroupEngine};
use super::puzzle_ctx::PuzzleCtx;
use crate::diag::Diag;
use crate::span::Span;
use num_bigint::BigInt;
use puz_core::{Control, Perm, Word};
use puz_group::ChainOptions;
use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

/// A move sequence on a puzzle: kept nested, with its effect computed on demand.
#[derive(Clone)]
pub struct SeqVal {
    pub puzzle: Rc<PuzzleCtx>,
    pub word: Word,
    effect: OnceCell<Perm>,
}

impl SeqVal {
    pub fn new(puzzle: Rc<PuzzleCtx>, word: Word) -> SeqVal {
        SeqVal {
            puzzle,
            word,
            effect: OnceCell::new(),
        }
    }

    /// The permutation the sequence performs.
    pub fn effect(&self) -> &Perm {
        self.effect.get_or_init(|| {
            self.word
                .eval(&self.puzzle.alphabet, self.puzzle.def.degree())
        })
    }

    /// The sequence as written; a named macro shows its definition.
    pub fn display(&self) -> String {
        let w = match &self.word {
            Word::Named(_, inner) => inner.as_ref(),
            w => w,
        };
        let s = w.display(&self.puzzle.alphabet);
        if s.is_empty() || s == "()" {
            "()".to_string()
        } else {
            s
        }
    }
}

/// A group given by generators (sequences of one puzzle); its stabiliser chain is
/// built on first use and cached.
#[derive(Clone)]
pub struct GroupVal {
    pub puzzle: Rc<PuzzleCtx>,
    /// The generators as written (`U`, `R U R'`, ...).
    pub gens: Vec<Word>,
    /// How the group was written, for printing.
    pub text: String,
    /// The stabiliser chain, built on first use and shared by copies of this value.
    pub engine: Rc<OnceCell<Rc<GroupEngine>>>,
    /// A group with no generators of its own (a stabiliser): `gens` are then its
    /// parent's, the letters its words are spelt in, not generators of this group.
    pub derived: bool,
}

impl GroupVal {
    pub fn new(puzzle: Rc<PuzzleCtx>, gens: Vec<Word>, text: String) -> GroupVal {
        GroupVal {
            puzzle,
            gens,
            text,
            engine: Rc::new(OnceCell::new()),
            derived: false,
        }
    }

    /// A group value for an engine group that has no generator words of its own
    /// (a stabiliser): its letters are sequences of the parent's generators.
    pub fn derived(puzzle: Rc<PuzzleCtx>, engine: GroupEngine, text: String) -> GroupVal {
        let gens = engine.letter_words.clone();
        let mut v = GroupVal::new(puzzle, gens, text);
        v.derived = true;
        let _ = v.engine.set(Rc::new(engine));
        v
    }

    /// The generators as written, for what needs them (a Hamilton cycle, a metric, a
    /// saved puzzle); a stabiliser has none of its own, so `doing` is refused at `span`.
    pub fn own_gens(&self, span: Span, doing: &str) -> Result<&[Word], Diag> {
        if self.derived {
            return Err(Diag::new(
                span,
                format!("{} has no generators of its own to {doing}", self.text),
            )
            .with_help(
                "a stabiliser answers order, `in`, solve, random, rank, why and chain; for \
                 the rest give its generators as moves or sequences: `<S1, S2, ...>`",
            ));
        }
        Ok(&self.gens)
    }

    /// The stabiliser chain, built on first use (Ctrl-C stops the build).
    pub fn engine(&self, ctl: &Control, span: Span) -> Result<Rc<GroupEngine>, Diag> {
        if let Some(e) = self.engine.get() {
            return Ok(e.clone());
        }
        let e = Rc::new(groups::build(
            &self.puzzle,
            &self.gens,
            &ChainOptions::default(),
            ctl,
            span,
        )?);
        let _ = self.engine.set(e.clone());
        Ok(e)
    }
}

/// A value of the language.
#[derive(Clone)]
pub enum Value {
    Unit,
    Bool(bool),
    Int(BigInt),
    Str(String),
    Seq(SeqVal),
    /// A position reached without a known sequence (`random(G)`, `unrank`).
    Pos(Rc<PuzzleCtx>, Perm),
    Group(GroupVal),
    Puzzle(Rc<PuzzleCtx>),
    List(Vec<Value>),
    /// A report printed as it is (tables, check results).
    Text(String),
    /// A turn metric: a named one or an explicit generator set.
    Metric(Rc<MetricSpec>),
    /// A table of how many positions lie at each distance (`distances`), printed as its
    /// report and drawn by `svg` as a bar chart.
    Distances(Rc<DistanceTable>),
}

#[derive(Debug)]
pub struct DistanceTable {
    /// What was measured, for the chart's title: `distances in htm of <U, R>`.
    pub title: String,
    pub counts: Vec<u128>,
    /// The printed report.
    pub report: String,
}

/// A metric as the user wrote it; resolved against a puzzle when used.
#[derive(Clone, Debug, PartialEq)]
pub enum MetricSpec {
    /// `htm`, `qtm`, `stm`, `atm`.
    Named(String),
    /// `metric m = {U, U2, U'}`: sequences (as text in the puzzle's moves) with costs.
    Explicit {
        name: String,
        gens: Vec<(String, u32)>,
    },
}

impl MetricSpec {
    pub fn name(&self) -> &str {
        match self {
            MetricSpec::Named(n) => n,
            MetricSpec::Explicit { name, .. } => name,
        }
    }
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Unit => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a move sequence",
            Value::Pos(..) => "a position",
            Value::Group(_) => "a group",
            Value::Puzzle(_) => "a puzzle",
            Value::List(_) => "a list",
            Value::Text(_) => "a report",
            Value::Metric(_) => "a metric",
            Value::Distances(_) => "a distance table",
        }
    }

    /// The permutation of a sequence or position.
    pub fn perm(&self) -> Option<(&Rc<PuzzleCtx>, &Perm)> {
        match self {
            Value::Seq(s) => Some((&s.puzzle, s.effect())),
            Value::Pos(p, perm) => Some((p, perm)),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unit => Ok(()),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::Seq(s) => write!(f, "{}", s.display()),
            Value::Pos(p, perm) => write!(f, "position {}", p.def.cycle_notation(perm)),
            Value::Group(g) => write!(f, "{}", g.text),
            Value::Puzzle(p) => write!(f, "{}", p.summary()),
            Value::List(v) => {
                write!(f, "[")?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, "]")
            }
            Value::Text(t) => write!(f, "{}", t.trim_end()),
            Value::Distances(d) => write!(f, "{}", d.report.trim_end()),
            Value::Metric(m) => match m.as_ref() {
                MetricSpec::Named(n) => write!(f, "metric {n}"),
                MetricSpec::Explicit { name, gens } => {
                    write!(
                        f,
                        "metric {name} = {{{}}}",
                        gens.iter()
                            .map(|(g, _)| g.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            },
        }
    }
}
