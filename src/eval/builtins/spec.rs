//! What a builtin declares (its parameters and options, each with the kinds of value it
//! takes, options with their defaults), the one checker that holds every call to that
//! declaration, and what a builtin runs with: evaluated arguments with their spans and a
//! narrow context (the puzzle and metric in use, the Control, the output).

use crate::diag::{Diag, EvalResult};
use crate::eval::jobs::Jobs;
use crate::eval::json::{self, Field};
use crate::eval::names::suggest;
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::{GroupVal, MetricSpec, SeqVal, Value};
use crate::span::Span;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use puz_core::{Control, Perm};
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;

/// A kind of value a parameter or option takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Seq,
    Pos,
    Group,
    Int,
    Bool,
    Metric,
    /// A location, written by its label (`UFR`) or with its orbit (`corners.UFR`); the
    /// interpreter passes the name as written, unevaluated.
    Loc,
    /// A list whose items have one of these kinds; a bracket literal given for it is
    /// read item by item (so `[x, y]` is a list, not a commutator).
    ListOf(&'static [Kind]),
    /// A text in quotes, such as a file name.
    Text,
    /// A puzzle, named by its name (`cube3`) or made by a builtin (`row(3)`).
    Puzzle,
    /// A table of distances (`distances(G)`).
    Distances,
    /// A builtin, written by its name (`optimal`); the interpreter passes the name as
    /// written, unevaluated.
    Builtin,
}

impl Kind {
    pub fn accepts(self, v: &Value) -> bool {
        match (self, v) {
            (Kind::Seq, Value::Seq(_))
            | (Kind::Pos, Value::Pos(..))
            | (Kind::Group, Value::Group(_))
            | (Kind::Int, Value::Int(_))
            | (Kind::Bool, Value::Bool(_))
            | (Kind::Metric, Value::Metric(_))
            | (Kind::Loc, Value::Str(_))
            | (Kind::Text, Value::Str(_))
            | (Kind::Puzzle, Value::Puzzle(_))
            | (Kind::Distances, Value::Distances(_)) => true,
            (Kind::Builtin, Value::Str(_)) => true,
            (Kind::ListOf(inner), Value::List(items)) => {
                items.iter().all(|x| inner.iter().any(|k| k.accepts(x)))
            }
            _ => false,
        }
    }

    fn noun(self) -> String {
        match self {
            Kind::Seq => "a move sequence".into(),
            Kind::Pos => "a position".into(),
            Kind::Group => "a group".into(),
            Kind::Int => "a number".into(),
            Kind::Bool => "true or false".into(),
            Kind::Metric => "a metric".into(),
            Kind::Loc => "a location".into(),
            Kind::Text => "a text in quotes".into(),
            Kind::Puzzle => "a puzzle".into(),
            Kind::Distances => "a distance table".into(),
            Kind::Builtin => "the name of a builtin".into(),
            Kind::ListOf(inner) => format!(
                "a list of {}",
                or_list(&inner.iter().map(|k| k.plural()).collect::<Vec<_>>())
            ),
        }
    }

    fn plural(self) -> String {
        match self {
            Kind::Seq => "move sequences".into(),
            Kind::Pos => "positions".into(),
            Kind::Group => "groups".into(),
            Kind::Int => "numbers".into(),
            Kind::Bool => "booleans".into(),
            Kind::Metric => "metrics".into(),
            Kind::Loc => "locations".into(),
            Kind::Text => "texts".into(),
            Kind::Puzzle => "puzzles".into(),
            Kind::Distances => "distance tables".into(),
            Kind::Builtin => "builtins".into(),
            Kind::ListOf(_) => "lists".into(),
        }
    }

    /// How a value of this kind is written in a signature.
    fn placeholder(self) -> &'static str {
        match self {
            Kind::Seq | Kind::Pos => "x",
            Kind::Group => "G",
            Kind::Int => "n",
            Kind::Bool => "true",
            Kind::Metric => "m",
            Kind::Loc => "loc",
            Kind::Text => "\"file\"",
            Kind::Puzzle => "p",
            Kind::Distances => "d",
            Kind::Builtin => "f",
            Kind::ListOf(_) => "[..]",
        }
    }

    /// What to write instead, when a value of the wrong kind was given.
    fn hint(self) -> Option<&'static str> {
        match self {
            Kind::Group => Some("write a group as `<U, R>`, or `group` for the whole puzzle"),
            Kind::Metric => Some("htm, qtm, stm, atm, or one defined with `metric NAME = {...}`"),
            Kind::Text => Some("write it in double quotes: \"cycle.puz\""),
            Kind::Loc => {
                Some("write a location by its label (`UFR`) or with its orbit (`corners.UFR`)")
            }
            _ => None,
        }
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What kinds of value `kinds` admits, for messages: "a move sequence or a position".
pub fn describe(kinds: &[Kind]) -> String {
    or_list(&kinds.iter().map(|k| k.noun()).collect::<Vec<_>>())
}

/// An option's value when the call does not give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefaultValue {
    Bool(bool),
    Int(i64),
    /// Worked out by the builtin when absent; the text says how.
    Computed(&'static str),
}

impl DefaultValue {
    fn text(self) -> String {
        match self {
            DefaultValue::Bool(b) => b.to_string(),
            DefaultValue::Int(n) => n.to_string(),
            DefaultValue::Computed(s) => s.to_string(),
        }
    }
}

/// A positional parameter.
pub struct Param {
    pub name: &'static str,
    pub kinds: &'static [Kind],
    pub help: &'static str,
}

/// A named option (`metric: atm`).
pub struct Opt {
    pub name: &'static str,
    pub kinds: &'static [Kind],
    pub default: DefaultValue,
    pub help: &'static str,
}

pub const fn param(name: &'static str, kinds: &'static [Kind], help: &'static str) -> Param {
    Param { name, kinds, help }
}

pub const fn opt(
    name: &'static str,
    kinds: &'static [Kind],
    default: DefaultValue,
    help: &'static str,
) -> Opt {
    Opt {
        name,
        kinds,
        default,
        help,
    }
}

pub type Run = fn(&mut Ctx, &Args) -> EvalResult<Value>;

/// A builtin: its parameters and options, what it does, an example, and its
/// implementation. Dispatch, checking, `:help` and completion all read these.
pub struct Builtin {
    pub name: &'static str,
    pub params: &'static [Param],
    pub options: &'static [Opt],
    pub help: &'static str,
    /// A line that runs as it is (it starts with the `use` it needs).
    pub example: &'static str,
    pub run: Run,
}

impl Builtin {
    /// The signature: `chain(G, base: [..], reps: true)`.
    pub fn sig(&self) -> String {
        let mut parts: Vec<String> = self.params.iter().map(|p| p.name.to_string()).collect();
        for o in self.options {
            let ph = if o.kinds.iter().any(|k| matches!(k, Kind::ListOf(_))) {
                "[..]"
            } else {
                o.kinds[0].placeholder()
            };
            parts.push(format!("{}: {ph}", o.name));
        }
        format!("{}({})", self.name, parts.join(", "))
    }

    pub fn usage(&self) -> String {
        format!("usage: {}: {}", self.sig(), self.help)
    }

    pub fn option(&self, name: &str) -> Option<&'static Opt> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The kinds the argument at this place takes: the `i`-th positional one, or the
    /// option `name`; `None` for an argument the builtin does not have.
    pub fn kinds_for(&self, name: Option<&str>, i: usize) -> Option<&'static [Kind]> {
        match name {
            Some(n) => self.option(n).map(|o| o.kinds),
            None => self.params.get(i).map(|p| p.kinds),
        }
    }

    /// `:help NAME`: the signature, what it does, every parameter and option with its
    /// kinds and default, and an example.
    pub fn help_text(&self) -> String {
        let mut s = format!("{}\n  {}\n", self.sig(), self.help);
        let width = self
            .params
            .iter()
            .map(|p| p.name.len())
            .chain(self.options.iter().map(|o| o.name.len() + 1))
            .max()
            .unwrap_or(0);
        if !self.params.is_empty() {
            s.push_str("arguments:\n");
            for p in self.params {
                s.push_str(&format!(
                    "  {:<width$}  {}: {}\n",
                    p.name,
                    describe(p.kinds),
                    p.help
                ));
            }
        }
        if !self.options.is_empty() {
            s.push_str("options:\n");
            for o in self.options {
                s.push_str(&format!(
                    "  {:<width$}  {}: {}\n  {:<width$}  default: {}\n",
                    format!("{}:", o.name),
                    describe(o.kinds),
                    o.help,
                    "",
                    o.default.text(),
                ));
            }
        }
        s.push_str(&format!("example:\n  {}", self.example));
        s
    }

    fn option_list(&self) -> String {
        self.options
            .iter()
            .map(|o| format!("`{}:`", o.name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The checks that need no values: the number of positional arguments, and that
    /// every option exists and is given once. `given` holds, per argument, its option
    /// name and that name's span (`None` for a positional argument).
    pub fn check_shape(&self, given: &[Option<(&str, Span)>], span: Span) -> EvalResult<()> {
        let pos = given.iter().filter(|g| g.is_none()).count();
        let want = self.params.len();
        if pos != want {
            return Err(Diag::new(
                span,
                format!(
                    "`{}` takes {want} argument{}, not {pos}",
                    self.name,
                    if want == 1 { "" } else { "s" }
                ),
            )
            .with_help(self.usage()));
        }
        for (i, (name, nspan)) in given.iter().flatten().enumerate() {
            if self.option(name).is_none() {
                let d = Diag::new(*nspan, format!("`{}` has no option `{name}`", self.name))
                    .with_label("unknown option");
                let names = self.options.iter().map(|o| o.name);
                return Err(match suggest(name, names).first() {
                    _ if self.options.is_empty() => d.with_help(format!(
                        "`{}` takes no options; {}",
                        self.name,
                        self.usage()
                    )),
                    Some(near) => d.with_help(format!(
                        "did you mean `{near}:`? its options are {}",
                        self.option_list()
                    )),
                    None => d.with_help(format!("its options are {}", self.option_list())),
                });
            }
            if let Some((_, first)) = given.iter().flatten().take(i).find(|(n, _)| n == name) {
                return Err(Diag::new(*nspan, format!("`{name}:` is given twice"))
                    .with_label("given again here")
                    .with_related(*first, "first given here"));
            }
        }
        Ok(())
    }

    /// Checks a call with its arguments evaluated (shape, then every value's kind) and
    /// arranges them for the builtin.
    pub fn check(&'static self, given: Vec<Given>, span: Span) -> EvalResult<Args> {
        let shape: Vec<Option<(&str, Span)>> = given
            .iter()
            .map(|g| g.name.as_ref().map(|(n, s)| (n.as_str(), *s)))
            .collect();
        self.check_shape(&shape, span)?;
        let mut pos = Vec::new();
        let mut opts: Vec<Option<Arg>> = self.options.iter().map(|_| None).collect();
        for g in given {
            let arg = Arg {
                value: g.value,
                span: g.span,
                items: g.items,
            };
            match g.name {
                None => {
                    let p = &self.params[pos.len()];
                    if !p.kinds.iter().any(|k| k.accepts(&arg.value)) {
                        let (at, found) = mismatch(&arg, p.kinds);
                        let d = Diag::new(
                            at,
                            format!(
                                "`{}` needs {} here, not {found}",
                                self.name,
                                describe(p.kinds),
                            ),
                        )
                        .with_label(format!("`{}`", p.name));
                        return Err(self.with_hint(d, p.kinds));
                    }
                    pos.push(arg);
                }
                Some((name, _)) => {
                    let i = self.options.iter().position(|o| o.name == name).unwrap();
                    let o = &self.options[i];
                    if !o.kinds.iter().any(|k| k.accepts(&arg.value)) {
                        let (at, found) = mismatch(&arg, o.kinds);
                        let d = Diag::new(
                            at,
                            format!("`{name}:` takes {}, not {found}", describe(o.kinds)),
                        );
                        let own = format!("`{name}:` {} (default: {})", o.help, o.default.text());
                        return Err(match o.kinds.iter().find_map(|k| k.hint()) {
                            Some(h) => d.with_help(format!("{own}; {h}")),
                            None => d.with_help(own),
                        });
                    }
                    opts[i] = Some(arg);
                }
            }
        }
        Ok(Args {
            builtin: self,
            pos,
            opts,
            span,
        })
    }

    fn with_hint(&self, d: Diag, kinds: &[Kind]) -> Diag {
        match kinds.iter().find_map(|k| k.hint()) {
            Some(h) => d.with_help(h),
            None => d.with_help(self.usage()),
        }
    }
}

/// Where a value fails its kinds and what it is there: a list that some `ListOf` kind
/// would take but for one item is reported at that item.
fn mismatch(arg: &Arg, kinds: &[Kind]) -> (Span, String) {
    if let Value::List(items) = &arg.value {
        for k in kinds {
            if let Kind::ListOf(inner) = k {
                if let Some(i) = items
                    .iter()
                    .position(|x| !inner.iter().any(|k| k.accepts(x)))
                {
                    return (
                        arg.item_span(i),
                        format!("a list holding {}", items[i].type_name()),
                    );
                }
            }
        }
    }
    (arg.span, arg.value.type_name().to_string())
}

/// One argument of a call as the interpreter evaluated it.
pub struct Given {
    /// The option's name and its span; `None` for a positional argument.
    pub name: Option<(String, Span)>,
    pub value: Value,
    /// The span of the value.
    pub span: Span,
    /// The spans of a list literal's items (empty for any other value).
    pub items: Vec<Span>,
}

/// An evaluated argument, of a kind its parameter or option takes.
pub struct Arg {
    pub value: Value,
    pub span: Span,
    /// The spans of a list literal's items (empty for any other value).
    pub items: Vec<Span>,
}

/// The values of a checked call. The accessors of a kind may assume it: the checker
/// has held every value to its declared kinds.
pub struct Args {
    builtin: &'static Builtin,
    pos: Vec<Arg>,
    /// Parallel to the builtin's options.
    opts: Vec<Option<Arg>>,
    /// The whole call.
    pub span: Span,
}

impl Args {
    pub fn name(&self) -> &'static str {
        self.builtin.name
    }

    pub fn pos(&self, i: usize) -> &Arg {
        &self.pos[i]
    }

    /// A given option (the name must be declared).
    pub fn opt(&self, name: &str) -> Option<&Arg> {
        let i = self
            .builtin
            .options
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("`{}` declares no option `{name}`", self.builtin.name));
        self.opts[i].as_ref()
    }

    fn default(&self, name: &str) -> DefaultValue {
        self.builtin.option(name).map(|o| o.default).unwrap()
    }

    /// A true/false option, or its default.
    pub fn flag(&self, name: &str) -> bool {
        match self.opt(name) {
            Some(a) => matches!(a.value, Value::Bool(true)),
            None => matches!(self.default(name), DefaultValue::Bool(true)),
        }
    }

    /// A number option, or its default (`None` when the builtin works it out).
    pub fn count(&self, name: &str) -> EvalResult<Option<i64>> {
        match self.opt(name) {
            Some(a) => a.small().map(Some),
            None => Ok(match self.default(name) {
                DefaultValue::Int(n) => Some(n),
                _ => None,
            }),
        }
    }
}

impl Arg {
    /// Where item `i` of a list is written (the whole argument when not a literal).
    pub fn item_span(&self, i: usize) -> Span {
        self.items.get(i).copied().unwrap_or(self.span)
    }

    pub fn seq(&self) -> &SeqVal {
        match &self.value {
            Value::Seq(s) => s,
            v => unreachable!("checked kind, found {}", v.type_name()),
        }
    }

    pub fn group(&self) -> &GroupVal {
        match &self.value {
            Value::Group(g) => g,
            v => unreachable!("checked kind, found {}", v.type_name()),
        }
    }

    pub fn int(&self) -> &BigInt {
        match &self.value {
            Value::Int(i) => i,
            v => unreachable!("checked kind, found {}", v.type_name()),
        }
    }

    pub fn small(&self) -> EvalResult<i64> {
        small(self.int(), self.span)
    }

    /// The effect of a sequence or a position.
    pub fn perm(&self) -> (&Rc<PuzzleCtx>, &Perm) {
        self.value
            .perm()
            .expect("checked kind: a sequence or a position")
    }

    pub fn metric(&self) -> &Rc<MetricSpec> {
        match &self.value {
            Value::Metric(m) => m,
            v => unreachable!("checked kind, found {}", v.type_name()),
        }
    }
}

/// An integer as i64, for counts.
pub fn small(v: &BigInt, span: Span) -> EvalResult<i64> {
    if v.is_negative() && v.abs() > BigInt::from(i64::MAX) {
        return Err(Diag::new(span, "number too large"));
    }
    v.to_i64()
        .ok_or_else(|| Diag::new(span, "number too large"))
}

/// What a builtin may use besides its arguments.
pub struct Ctx<'a> {
    /// The puzzle in use.
    pub puzzle: Option<Rc<PuzzleCtx>>,
    /// The metric chosen by `metric NAME`.
    pub metric: Rc<MetricSpec>,
    /// Ctrl-C, progress and memory checks.
    pub ctl: &'a Control,
    pub out: &'a mut dyn Write,
    /// Results are printed as JSON (`puz run --json`): notes become fields.
    pub json: bool,
    /// What the builtin reported about its result (an optimal solution's length, metric,
    /// checks): the JSON of the result carries them.
    pub fields: Vec<Field>,
    /// Where `batch` runs its items (`puz batch`); `None`: all of them, here.
    pub jobs: Option<&'a mut dyn Jobs>,
    /// Where pattern tables are cached (`--cache DIR`); `None`: the default place.
    pub cache: Option<PathBuf>,
    /// The folder of the script being run: relative file names are read from there
    /// first, then from the working directory (as `use "file"` does).
    pub here: Option<PathBuf>,
    /// Where `optimal` keeps its solver from item to item of a batch (`None`: made
    /// for the call).
    pub solvers: Option<&'a super::solve::SolverMemo>,
}

impl Ctx<'_> {
    pub fn puzzle(&self, span: Span) -> EvalResult<Rc<PuzzleCtx>> {
        self.puzzle.clone().ok_or_else(|| no_puzzle(span))
    }

    pub fn print(&mut self, s: &str) {
        let line = if self.json {
            json::note("note", s).to_string()
        } else {
            s.to_string()
        };
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// A file named in the script: relative to the script's folder when it is there.
    pub fn file(&self, path: &str) -> PathBuf {
        match &self.here {
            Some(dir) if std::path::Path::new(path).is_relative() && dir.join(path).exists() => {
                dir.join(path)
            }
            _ => PathBuf::from(path),
        }
    }

    /// One JSON object as its own line (under `--json`).
    pub fn print_json(&mut self, j: &serde_json::Value) {
        let _ = writeln!(self.out, "{j}");
        let _ = self.out.flush();
    }

    /// A remark on the result: printed as a line, or under `--json` kept as fields of
    /// the result's object (one object a result, so a program reads them together).
    pub fn note(&mut self, text: &str, fields: Vec<Field>) {
        if self.json {
            self.fields.extend(fields);
        } else {
            self.print(text);
        }
    }

    /// The metric option `metric:`, or the one in use.
    pub fn metric(&self, a: &Args) -> Rc<MetricSpec> {
        match a.opt("metric") {
            Some(m) => m.metric().clone(),
            None => self.metric.clone(),
        }
    }
}

/// The error for a statement or builtin that needs a puzzle when none is in use.
pub fn no_puzzle(span: Span) -> Diag {
    Diag::new(span, "no puzzle is in use").with_help(
        "start with `use cube3` (or another stdlib puzzle) or define one with `puzzle NAME { ... }`",
    )
}

/// An engine's interruption (Ctrl-C, memory) as a diagnostic at `span`.
pub fn interrupted(span: Span) -> impl Fn(puz_core::Interrupt) -> Diag {
    move |i| Diag::new(span, i.to_string())
}
