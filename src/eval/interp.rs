//! The interpreter: runs statements against an environment of puzzles and bindings,
//! and evaluates expressions to [`Value`]s.

use super::build_puzzle;
use super::builtins::{self, spec};
use super::metrics;
use super::names::suggest;
use super::puzzle_ctx::{LetterFor, PuzzleCtx};
use super::relations;
use super::split::{self, Piece};
use super::value::{GroupVal, MetricSpec, SeqVal, Value};
use crate::diag::{Diag, Source};
use crate::syntax::*;
use indexmap::IndexMap;
use num_bigint::BigInt;
use num_traits::Zero;
use puz_core::{Control, NamedMove, Word};
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

/// A name bound by `let`, with where it was defined.
#[derive(Clone)]
pub struct Binding {
    pub value: Value,
    pub span: Span,
    pub source: String,
}

pub struct Interp {
    pub vars: IndexMap<String, Binding>,
    pub puzzles: IndexMap<String, Rc<PuzzleCtx>>,
    pub current: Option<Rc<PuzzleCtx>>,
    pub out: Box<dyn Write>,
    pub ctl: Control,
    /// The REPL lets `let` rebind a name; scripts do not.
    pub allow_rebind: bool,
    /// The source being run (for diagnostics).
    pub source: Source,
    /// The metric chosen by `metric NAME` (htm until then).
    pub metric: Rc<MetricSpec>,
}

pub use crate::diag::EvalResult;

impl Interp {
    pub fn new(out: Box<dyn Write>) -> Interp {
        Interp {
            vars: IndexMap::new(),
            puzzles: IndexMap::new(),
            current: None,
            out,
            ctl: Control::default(),
            allow_rebind: false,
            source: Source {
                name: "<input>".into(),
                text: Arc::new(String::new()),
            },
            metric: Rc::new(MetricSpec::Named("htm".into())),
        }
    }

    /// Parses and runs a whole source. Errors carry the source they belong to.
    pub fn run_source(&mut self, name: &str, text: &str) -> Result<(), Diag> {
        let src = Source {
            name: name.to_string(),
            text: Arc::new(text.to_string()),
        };
        let saved = std::mem::replace(&mut self.source, src.clone());
        let result = (|| {
            let stmts = parse_file(text).map_err(|d| d.in_source(&src))?;
            for s in &stmts {
                self.ctl
                    .flag()
                    .store(false, std::sync::atomic::Ordering::Relaxed);
                self.exec(s).map_err(|d| d.in_source(&src))?;
            }
            Ok(())
        })();
        self.source = saved;
        result
    }

    pub fn print(&mut self, s: &str) {
        let _ = writeln!(self.out, "{s}");
        let _ = self.out.flush();
    }

    pub fn exec(&mut self, stmt: &Stmt) -> EvalResult<()> {
        match stmt {
            Stmt::Puzzle(def) => {
                let text = self.source.text.clone();
                let ctx = build_puzzle::build(def, &text, &mut |ctx, e| {
                    let w = self.word_in(ctx, e)?;
                    Ok(w.eval(&ctx.alphabet, ctx.def.degree()))
                })?;
                let ctx = Rc::new(ctx);
                self.puzzles.insert(def.name.name.clone(), ctx.clone());
                self.current = Some(ctx);
                Ok(())
            }
            Stmt::Use { name, args, .. } => self.use_puzzle(name, args),
            Stmt::UseFile {
                path, path_span, ..
            } => self.use_file(path, *path_span),
            Stmt::Let { name, value, .. } => {
                self.check_bindable(name)?;
                let v = self.eval(value)?;
                let v = match v {
                    Value::Seq(s) => Value::Seq(SeqVal::new(
                        s.puzzle.clone(),
                        Word::named(&name.name, s.word.clone()),
                    )),
                    Value::Group(mut g) => {
                        g.text = name.name.clone();
                        Value::Group(g)
                    }
                    v => v,
                };
                self.vars.insert(
                    name.name.clone(),
                    Binding {
                        value: v,
                        span: name.span,
                        source: self.source.name.clone(),
                    },
                );
                Ok(())
            }
            Stmt::Move(m) => self.add_move(m),
            Stmt::Metric { name, value, span } => self.metric_stmt(name, value.as_ref(), *span),
            Stmt::Assert { expr, .. } => self.assert(expr),
            Stmt::Show { expr, .. } => {
                let v = self.eval(expr)?;
                let text = super::show::show(&v).map_err(|m| Diag::new(expr.span, m))?;
                self.print(&text);
                Ok(())
            }
            Stmt::Expr(e) => {
                let v = self.eval(e)?;
                if !matches!(v, Value::Unit) {
                    self.print(&v.to_string());
                }
                Ok(())
            }
        }
    }

    fn check_bindable(&self, name: &Ident) -> EvalResult<()> {
        if let Some(p) = &self.current {
            if p.move_index(&name.name).is_some() {
                return Err(Diag::new(
                    name.span,
                    format!(
                        "`{}` is already a move of puzzle `{}`",
                        name.name, p.def.name
                    ),
                )
                .with_label("redefined here")
                .with_help("choose another name; a `let` may not hide a move"));
            }
        }
        if builtins::is_builtin(&name.name) || name.name == "group" {
            return Err(
                Diag::new(name.span, format!("`{}` is a builtin", name.name))
                    .with_label("redefined here")
                    .with_help("choose another name"),
            );
        }
        if !self.allow_rebind {
            if let Some(b) = self.vars.get(&name.name) {
                let d = Diag::new(name.span, format!("`{}` is already defined", name.name))
                    .with_label("defined again here")
                    .with_help("choose another name (names are bound once in a script)");
                return Err(if b.source == self.source.name {
                    d.with_related(b.span, "first defined here")
                } else {
                    d
                });
            }
        }
        Ok(())
    }

    fn add_move(&mut self, m: &MoveDef) -> EvalResult<()> {
        let cur = self.require_puzzle(m.span)?;
        if cur.move_index(&m.name.name).is_some() {
            return Err(Diag::new(
                m.name.span,
                format!(
                    "`{}` is already a move of puzzle `{}`",
                    m.name.name, cur.def.name
                ),
            )
            .with_label("redefined here")
            .with_help("choose another name"));
        }
        let perm = match &m.body {
            MoveBody::Seq(e) => self.word_in(&cur, e)?.eval(&cur.alphabet, cur.def.degree()),
            MoveBody::Cycles { .. } => {
                // Cycles at top level: build through a one-move puzzle definition.
                let def = PuzzleDef {
                    name: Ident {
                        name: cur.def.name.clone(),
                        span: m.span,
                    },
                    items: vec![],
                    span: m.span,
                };
                let _ = def;
                return Err(Diag::new(
                    m.span,
                    "moves given by cycles belong inside a `puzzle { ... }` definition",
                )
                .with_help("outside a puzzle, define a move from other moves: `move R2 = R R`"));
            }
        };
        let mut def = cur.def.clone();
        def.moves.push(NamedMove {
            name: m.name.name.clone(),
            perm,
            primitive: false,
        });
        let ctx = Rc::new(PuzzleCtx::new(def, cur.gens.clone()));
        self.puzzles.insert(ctx.def.name.clone(), ctx.clone());
        self.current = Some(ctx);
        Ok(())
    }

    /// `use "file.puz"`: runs the file here, as if its statements stood in its place. A
    /// relative path is read from the folder of the script that names it, then from the
    /// working directory.
    fn use_file(&mut self, path: &str, span: Span) -> EvalResult<()> {
        let here = std::path::Path::new(&self.source.name).parent();
        let candidates: Vec<std::path::PathBuf> = match here {
            Some(dir) if std::path::Path::new(path).is_relative() && dir.is_dir() => {
                vec![dir.join(path), path.into()]
            }
            _ => vec![path.into()],
        };
        let found = candidates.iter().find(|c| c.is_file());
        let Some(file) = found else {
            return Err(Diag::new(span, format!("no file {path}"))
                .with_help("`use \"FILE\"` reads a .puz file (relative paths: from the script's folder, then the working directory); `use NAME` loads a puzzle"));
        };
        let text = std::fs::read_to_string(file)
            .map_err(|e| Diag::new(span, format!("cannot read {}: {e}", file.display())))?;
        self.run_source(&file.display().to_string(), &text)
    }

    fn use_puzzle(&mut self, name: &Ident, args: &[Arg]) -> EvalResult<()> {
        if !args.is_empty() {
            let v = self.call(name, args, name.span.to(args.last().unwrap().span))?;
            return match v {
                Value::Puzzle(p) => {
                    self.puzzles.insert(p.def.name.clone(), p.clone());
                    self.current = Some(p);
                    Ok(())
                }
                other => Err(Diag::new(
                    name.span,
                    format!(
                        "`{}(...)` gives {}, not a puzzle",
                        name.name,
                        other.type_name()
                    ),
                )),
            };
        }
        if let Some(p) = self.puzzles.get(&name.name) {
            self.current = Some(p.clone());
            return Ok(());
        }
        match crate::stdlib::get(&name.name) {
            Some(text) => {
                let file = format!("stdlib/{}.puz", name.name);
                self.run_source(&file, text)?;
                match self.puzzles.get(&name.name) {
                    Some(p) => {
                        self.current = Some(p.clone());
                        Ok(())
                    }
                    None => Err(Diag::new(
                        name.span,
                        format!("{file} does not define puzzle `{}`", name.name),
                    )),
                }
            }
            None => {
                let mut known: Vec<&str> = crate::stdlib::names().collect();
                known.extend(self.puzzles.keys().map(|s| s.as_str()));
                let near = suggest(&name.name, known.iter().copied());
                let d = Diag::new(name.span, format!("no puzzle named `{}`", name.name))
                    .with_label("not in the standard library");
                Err(if near.is_empty() {
                    d.with_help(format!("the standard library has: {}", known.join(", ")))
                } else {
                    d.with_help(format!("did you mean `{}`?", near[0]))
                })
            }
        }
    }

    fn assert(&mut self, expr: &Expr) -> EvalResult<()> {
        let v = self.eval(expr)?;
        match v {
            Value::Bool(true) => Ok(()),
            Value::Bool(false) => {
                let detail = match &expr.kind {
                    ExprKind::Binary {
                        op: BinOp::In,
                        lhs,
                        rhs,
                    } => {
                        let l = self.eval(lhs)?;
                        match self.eval(rhs)? {
                            Value::Group(g) => relations::why_not(&self.ctl, &l, &g, expr.span)?
                                .unwrap_or_default(),
                            _ => String::new(),
                        }
                    }
                    ExprKind::Binary { lhs, rhs, .. } => {
                        let l = self.eval(lhs)?;
                        let r = self.eval(rhs)?;
                        format!("left side: {}; right side: {}", brief(&l), brief(&r))
                    }
                    _ => "the expression is false".to_string(),
                };
                Err(Diag::new(expr.span, "assertion failed")
                    .with_label("this is false")
                    .with_help(detail))
            }
            other => Err(Diag::new(
                expr.span,
                format!(
                    "`assert` needs a true/false value, not {}",
                    other.type_name()
                ),
            )
            .with_help("compare with `==`, `!=`, `<`, `in`, ...")),
        }
    }

    pub fn require_puzzle(&self, span: Span) -> EvalResult<Rc<PuzzleCtx>> {
        self.current.clone().ok_or_else(|| spec::no_puzzle(span))
    }

    // ---- expressions ----

    pub fn eval(&mut self, e: &Expr) -> EvalResult<Value> {
        self.ctl
            .check()
            .map_err(|i| Diag::new(e.span, i.to_string()))?;
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(BigInt::from(i.clone()))),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Word(name) => self.eval_name(name, e.span),
            ExprKind::Seq(items) => {
                if items.len() == 1 {
                    return self.eval(&items[0]);
                }
                let p = self.require_puzzle(e.span)?;
                let vals = items
                    .iter()
                    .map(|i| self.eval(i))
                    .collect::<EvalResult<Vec<_>>>()?;
                if vals.iter().any(|v| matches!(v, Value::Pos(..))) {
                    // A position followed by moves is the position they reach.
                    let mut acc = p.identity();
                    for (v, it) in vals.iter().zip(items) {
                        match v.perm() {
                            Some((q, perm)) if q.def.degree() == acc.degree() => {
                                acc = acc.then(perm)
                            }
                            _ => {
                                return Err(Diag::new(
                                    it.span,
                                    format!(
                                        "expected a position or a sequence, found {}",
                                        v.type_name()
                                    ),
                                ))
                            }
                        }
                    }
                    return Ok(Value::Pos(p, acc));
                }
                let mut words = Vec::new();
                for (v, it) in vals.into_iter().zip(items) {
                    words.push(self.seq_value(&p, v, it.span)?);
                }
                Ok(Value::Seq(SeqVal::new(p, Word::seq(words))))
            }
            ExprKind::Power(inner, k) => {
                if let ExprKind::Word(name) = &inner.kind {
                    if let Some(v) = self.split_postfix(name, inner.span, |w| w.pow(*k))? {
                        return Ok(v);
                    }
                }
                match self.eval(inner)? {
                    Value::Seq(s) => Ok(Value::Seq(SeqVal::new(s.puzzle, s.word.pow(*k)))),
                    Value::Pos(p, perm) => Ok(Value::Pos(p, perm.pow(*k))),
                    Value::Int(i) if *k >= 0 => Ok(Value::Int(num_traits::pow(i, *k as usize))),
                    v => Err(Diag::new(
                        e.span,
                        format!("cannot take a power of {}", v.type_name()),
                    )),
                }
            }
            ExprKind::Prime(inner) => {
                if let ExprKind::Word(name) = &inner.kind {
                    if let Some(v) = self.split_postfix(name, inner.span, |w| w.inverse())? {
                        return Ok(v);
                    }
                }
                match self.eval(inner)? {
                    Value::Seq(s) => Ok(Value::Seq(SeqVal::new(s.puzzle, s.word.inverse()))),
                    Value::Pos(p, perm) => Ok(Value::Pos(p, perm.inverse())),
                    v => Err(
                        Diag::new(e.span, format!("cannot invert {}", v.type_name()))
                            .with_help("`'` inverts a move sequence or a position"),
                    ),
                }
            }
            ExprKind::Call { name, args } => self.call(name, args, e.span),
            ExprKind::Group(items) => {
                let p = self.require_puzzle(e.span)?;
                let mut gens = Vec::new();
                let mut texts = Vec::new();
                for it in items {
                    gens.push(self.seq_operand(&p, it)?);
                    texts.push(self.source_text(it.span));
                }
                Ok(Value::Group(GroupVal::new(
                    p,
                    gens,
                    format!("<{}>", texts.join(", ")),
                )))
            }
            ExprKind::Bracket { items, colon } => {
                if *colon {
                    if items.len() != 2 {
                        return Err(Diag::new(e.span, "a conjugate has two parts: `[A: B]`"));
                    }
                    let p = self.require_puzzle(e.span)?;
                    let a = self.seq_operand(&p, &items[0])?;
                    let b = self.seq_operand(&p, &items[1])?;
                    return Ok(Value::Seq(SeqVal::new(p, Word::conjugate(a, b))));
                }
                let vals = items
                    .iter()
                    .map(|i| self.eval(i))
                    .collect::<EvalResult<Vec<_>>>()?;
                if vals.len() == 2 && vals.iter().all(|v| matches!(v, Value::Seq(_))) {
                    // The items are evaluated once: evaluating them again would double the
                    // work at every level of nested commutators.
                    let p = self.require_puzzle(e.span)?;
                    let mut it = vals.into_iter();
                    let a = self.seq_value(&p, it.next().unwrap(), items[0].span)?;
                    let b = self.seq_value(&p, it.next().unwrap(), items[1].span)?;
                    return Ok(Value::Seq(SeqVal::new(p, Word::commutator(a, b))));
                }
                Ok(Value::List(vals))
            }
            ExprKind::Braces(items) => {
                let p = self.require_puzzle(e.span)?;
                let mut words = Vec::new();
                for it in items {
                    words.push(self.seq_operand(&p, it)?);
                }
                Ok(Value::Seq(SeqVal::new(p, Word::seq(words))))
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.span),
        }
    }

    // ---- calls ----

    /// A call: a builtin from the table, with its arguments evaluated (by the kinds the
    /// table declares for them) and checked before it runs; otherwise Jaap's compact
    /// juxtaposition `LM(R MLMLM R)`.
    fn call(&mut self, name: &Ident, args: &[Arg], span: Span) -> EvalResult<Value> {
        let Some(b) = builtins::lookup(&name.name) else {
            return self.not_a_builtin(name, args, span);
        };
        let shape: Vec<Option<(&str, Span)>> = args
            .iter()
            .map(|a| a.name.as_ref().map(|n| (n.name.as_str(), n.span)))
            .collect();
        b.check_shape(&shape, span)?;
        let mut given = Vec::new();
        let mut positional = 0;
        for a in args {
            let kinds = b
                .kinds_for(a.name.as_ref().map(|n| n.name.as_str()), positional)
                .unwrap_or(&[]);
            if a.name.is_none() {
                positional += 1;
            }
            let (value, items) = self.eval_arg(&a.value, kinds)?;
            given.push(spec::Given {
                name: a.name.as_ref().map(|n| (n.name.clone(), n.span)),
                value,
                span: a.value.span,
                items,
            });
        }
        let args = b.check(given, span)?;
        let mut ctx = spec::Ctx {
            puzzle: self.current.clone(),
            metric: self.metric.clone(),
            ctl: &self.ctl,
            out: &mut *self.out,
        };
        (b.run)(&mut ctx, &args)
    }

    /// Evaluates an argument. Two forms are read from the syntax, by the kinds the
    /// argument takes: a bracket literal where a list is taken is a list of its items
    /// (`[x, y]` there is not a commutator), and a location is its name as written
    /// (`UFR` there is not the word `U F R`). Also returns a list literal's item spans.
    fn eval_arg(&mut self, e: &Expr, kinds: &[spec::Kind]) -> EvalResult<(Value, Vec<Span>)> {
        if let ExprKind::Bracket {
            items,
            colon: false,
        } = &e.kind
        {
            let inner = kinds.iter().find_map(|k| match k {
                spec::Kind::ListOf(inner) => Some(*inner),
                _ => None,
            });
            if let Some(inner) = inner {
                let mut vals = Vec::new();
                for i in items {
                    vals.push(self.eval_arg(i, inner)?.0);
                }
                return Ok((Value::List(vals), items.iter().map(|i| i.span).collect()));
            }
        }
        if kinds.contains(&spec::Kind::Loc) {
            match &e.kind {
                ExprKind::Word(w) => return Ok((Value::Str(w.clone()), vec![])),
                ExprKind::Int(i) => return Ok((Value::Str(i.to_string()), vec![])),
                ExprKind::Str(s) => return Ok((Value::Str(s.clone()), vec![])),
                _ => {}
            }
        }
        Ok((self.eval(e)?, vec![]))
    }

    fn not_a_builtin(&mut self, name: &Ident, args: &[Arg], span: Span) -> EvalResult<Value> {
        let other = name.name.as_str();
        // Jaap's compact style: `LM(R MLMLM R)` is the word `LM` followed by a group.
        if let [Arg {
            name: None, value, ..
        }] = args
        {
            if self.current.is_some() {
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
                if let Ok(v) = self.eval(&seq) {
                    return Ok(v);
                }
            }
        }
        if self.vars.contains_key(other)
            || self
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
        let names = builtins::names();
        let near = suggest(other, names.iter().copied());
        let d =
            Diag::new(name.span, format!("unknown function `{other}`")).with_label("not a builtin");
        Err(if near.is_empty() {
            d.with_help(format!("builtins: {}", names.join(", ")))
        } else {
            d.with_help(format!("did you mean `{}`?", near[0]))
        })
    }

    /// `metric htm` selects a metric; `metric m = {U, U2, U'}` defines one.
    fn metric_stmt(&mut self, name: &Ident, value: Option<&Expr>, span: Span) -> EvalResult<()> {
        let Some(e) = value else {
            let v = match self.vars.get(&name.name) {
                Some(b) => b.value.clone(),
                None => metrics::constant(&name.name).ok_or_else(|| {
                    Diag::new(name.span, format!("unknown metric `{}`", name.name))
                        .with_help("the metrics are htm, qtm, stm, atm, or one defined with `metric NAME = {U, U2, ...}`")
                })?,
            };
            return match v {
                Value::Metric(m) => {
                    self.metric = m;
                    Ok(())
                }
                v => Err(Diag::new(
                    name.span,
                    format!("`{}` is {}, not a metric", name.name, v.type_name()),
                )),
            };
        };
        let ExprKind::Braces(items) = &e.kind else {
            return Err(Diag::new(
                e.span,
                "a metric is a set of generators in braces: `{U, U2, U'}`",
            ));
        };
        let p = self.require_puzzle(span)?;
        let mut gens = Vec::new();
        for item in items {
            match self.eval(item)? {
                Value::Seq(s) => gens.push((s.word.display(&p.alphabet), 1)),
                v => {
                    return Err(Diag::new(
                        item.span,
                        format!("a generator is a move sequence, not {}", v.type_name()),
                    ))
                }
            }
        }
        let spec = MetricSpec::Explicit {
            name: name.name.clone(),
            gens,
        };
        // Resolve once now so a bad generator is reported where it is written.
        metrics::resolve(&p, &spec, &metrics::gen_names(&p, &p.gens), e.span)?;
        self.vars.insert(
            name.name.clone(),
            Binding {
                value: Value::Metric(Rc::new(spec)),
                span: name.span,
                source: self.source.name.clone(),
            },
        );
        Ok(())
    }

    fn source_text(&self, span: Span) -> String {
        self.source
            .text
            .get(span.start..span.end)
            .unwrap_or("?")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A word in a sequence context on puzzle `p`.
    fn seq_operand(&mut self, p: &Rc<PuzzleCtx>, e: &Expr) -> EvalResult<Word> {
        let v = self.eval(e)?;
        self.seq_value(p, v, e.span)
    }

    fn seq_value(&mut self, p: &Rc<PuzzleCtx>, v: Value, span: Span) -> EvalResult<Word> {
        match v {
            Value::Seq(s) => {
                if !Rc::ptr_eq(&s.puzzle, p) && s.puzzle.def.name != p.def.name {
                    return Err(Diag::new(
                        span,
                        format!(
                            "this sequence is on puzzle `{}`, not `{}`",
                            s.puzzle.def.name, p.def.name
                        ),
                    ));
                }
                Ok(s.word)
            }
            v => Err(Diag::new(
                span,
                format!("expected a move sequence, found {}", v.type_name()),
            )
            .with_help("only moves, macros and bracketed sequences can be juxtaposed")),
        }
    }

    /// Evaluates an expression that must be a sequence on `ctx` (used for derived moves
    /// while a puzzle is being defined).
    pub fn word_in(&mut self, ctx: &PuzzleCtx, e: &Expr) -> EvalResult<Word> {
        let saved = self.current.take();
        let tmp = Rc::new(PuzzleCtx::new(ctx.def.clone(), ctx.gens.clone()));
        self.current = Some(tmp.clone());
        let saved_vars = std::mem::take(&mut self.vars);
        let r = self.seq_operand(&tmp, e);
        self.vars = saved_vars;
        self.current = saved;
        r
    }

    /// `LRRL'`: a prime or power on a juxtaposed word applies to its last piece.
    fn split_postfix(
        &mut self,
        name: &str,
        span: Span,
        f: impl Fn(Word) -> Word,
    ) -> EvalResult<Option<Value>> {
        if self.vars.contains_key(name)
            || self
                .current
                .as_ref()
                .is_none_or(|p| p.move_index(name).is_some())
        {
            return Ok(None);
        }
        let p = self.require_puzzle(span)?;
        let mut pieces = self.split_word(&p, name, span)?;
        if pieces.len() < 2 {
            return Ok(None);
        }
        let last = pieces.pop().unwrap();
        pieces.push(f(last));
        Ok(Some(Value::Seq(SeqVal::new(p, Word::seq(pieces)))))
    }

    fn eval_name(&mut self, name: &str, span: Span) -> EvalResult<Value> {
        if let Some(b) = self.vars.get(name) {
            return Ok(b.value.clone());
        }
        match name {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "group" => {
                let p = self.require_puzzle(span)?;
                let gens: Vec<Word> = p
                    .gens
                    .iter()
                    .filter_map(|&mi| match p.letter(mi, 1) {
                        LetterFor::Letter(l) => Some(Word::Letter(l)),
                        _ => None,
                    })
                    .collect();
                return Ok(Value::Group(GroupVal::new(p, gens, "group".into())));
            }
            _ => {}
        }
        if let Some(v) = metrics::constant(name) {
            return Ok(v);
        }
        if self.current.is_none() {
            if let Some(p) = self.puzzles.get(name) {
                return Ok(Value::Puzzle(p.clone()));
            }
            return Err(self.unknown_name(name, span));
        }
        let p = self.current.clone().unwrap();
        let pieces = self.split_word(&p, name, span)?;
        Ok(Value::Seq(SeqVal::new(p, Word::seq(pieces))))
    }

    fn unknown_name(&self, name: &str, span: Span) -> Diag {
        let mut names: Vec<&str> = self.vars.keys().map(|s| s.as_str()).collect();
        if let Some(p) = &self.current {
            names.extend(p.def.moves.iter().map(|m| m.name.as_str()));
        }
        names.extend(builtins::names());
        let near = suggest(name, names.iter().copied());
        let d = Diag::new(span, format!("unknown name `{name}`"))
            .with_label("not a move, macro or builtin");
        if !near.is_empty() {
            return d.with_help(format!(
                "did you mean {}?",
                near.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        match &self.current {
            None => d.with_help("no puzzle is in use: `use cube3` (or another stdlib puzzle) or define one with `puzzle`"),
            Some(p) => d.with_help(format!(
                "puzzle `{}` has moves {}",
                p.def.name,
                p.def.moves.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(" ")
            )),
        }
    }

    /// Resolves a name or juxtaposed word on puzzle `p` into words, one per piece.
    fn split_word(&mut self, p: &Rc<PuzzleCtx>, name: &str, span: Span) -> EvalResult<Vec<Word>> {
        let vars = &self.vars;
        let is_name = |s: &str| {
            p.move_index(s).is_some()
                || matches!(
                    vars.get(s),
                    Some(Binding {
                        value: Value::Seq(_),
                        ..
                    })
                )
        };
        // A declared name, possibly with a power (`UR`, `UR2`), is read whole.
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if is_name(name) || (!stem.is_empty() && stem.len() < name.len() && is_name(stem)) {
            let (n, power) = if is_name(name) {
                (name, None)
            } else {
                (stem, name[stem.len()..].parse::<u64>().ok())
            };
            if is_name(name) || power.is_some() {
                let piece = Piece {
                    name: n.to_string(),
                    power,
                    offset: 0,
                    len: name.len(),
                };
                return Ok(vec![self.piece_word(p, &piece, span)?]);
            }
        }
        let all = split::splits(name, &is_name, 6);
        match all.len() {
            0 => {
                // A move name with a power: `R2`, `R3`, `R2'`.
                Err(self.unknown_name(name, span))
            }
            1 => all[0]
                .iter()
                .map(|piece| self.piece_word(p, piece, span))
                .collect(),
            _ => {
                let cands: Vec<String> = all
                    .iter()
                    .map(|s| format!("`{}`", split::show(s)))
                    .collect();
                Err(
                    Diag::new(span, format!("`{name}` can be read in more than one way"))
                        .with_label("ambiguous word")
                        .with_help(format!(
                            "it splits as {}; separate the moves with spaces",
                            cands.join(" or ")
                        )),
                )
            }
        }
    }

    fn piece_word(&self, p: &Rc<PuzzleCtx>, piece: &Piece, span: Span) -> EvalResult<Word> {
        let power = piece.power.unwrap_or(1);
        if let Some(mi) = p.move_index(&piece.name) {
            let pw = i64::try_from(power).map_err(|_| Diag::new(span, "power too large"))?;
            return Ok(match p.letter(mi, pw) {
                LetterFor::Letter(l) => Word::Letter(l),
                LetterFor::Identity => Word::empty(),
                LetterFor::Repeat(l, k) => Word::Letter(l).pow(k),
            });
        }
        match self.vars.get(&piece.name) {
            Some(Binding {
                value: Value::Seq(s),
                ..
            }) => Ok(s.word.clone().pow(power as i64)),
            _ => unreachable!("split pieces are names"),
        }
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span) -> EvalResult<Value> {
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        let mismatch = |l: &Value, r: &Value| {
            Diag::new(
                span,
                format!(
                    "cannot apply `{}` to {} and {}",
                    op.symbol(),
                    l.type_name(),
                    r.type_name()
                ),
            )
        };
        match op {
            BinOp::Eq | BinOp::Ne => {
                let eq = relations::values_equal(&self.ctl, &l, &r, span)?
                    .ok_or_else(|| mismatch(&l, &r))?;
                Ok(Value::Bool(eq == (op == BinOp::Eq)))
            }
            BinOp::In => relations::membership(&self.ctl, &l, &r, span),
            BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt => match (&l, &r) {
                (Value::Int(a), Value::Int(b)) => Ok(Value::Bool(match op {
                    BinOp::Le => a <= b,
                    BinOp::Ge => a >= b,
                    BinOp::Lt => a < b,
                    _ => a > b,
                })),
                (Value::Group(a), Value::Group(b)) => {
                    Ok(Value::Bool(relations::compare(&self.ctl, op, a, b, span)?))
                }
                _ => Err(mismatch(&l, &r)),
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => match (&l, &r) {
                (Value::Int(a), Value::Int(b)) => {
                    if matches!(op, BinOp::Div | BinOp::Rem) && b.is_zero() {
                        return Err(Diag::new(rhs.span, "division by zero"));
                    }
                    Ok(Value::Int(match op {
                        BinOp::Add => a + b,
                        BinOp::Sub => a - b,
                        BinOp::Mul => a * b,
                        BinOp::Div => a / b,
                        _ => a % b,
                    }))
                }
                _ => Err(mismatch(&l, &r).with_help(
                    "arithmetic works on integers; juxtapose sequences to compose them",
                )),
            },
        }
    }
}

/// A short rendering of a value for assertion messages.
pub fn brief(v: &Value) -> String {
    let s = match v {
        Value::Seq(s) => format!(
            "{} (effect {})",
            s.display(),
            s.puzzle.def.cycle_notation(s.effect())
        ),
        v => v.to_string(),
    };
    if s.len() > 300 {
        format!(
            "{}...",
            &s[..s.char_indices().nth(300).map(|(i, _)| i).unwrap_or(s.len())]
        )
    } else {
        s
    }
}
