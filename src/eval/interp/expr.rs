//! Expressions: values of literals, names and operators, and calls checked against the
//! builtin table before they run.

use super::{Binding, Interp};
use crate::diag::{Diag, EvalResult};
use crate::eval::builtins::{self, spec};
use crate::eval::metrics;
use crate::eval::names::suggest;
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::relations;
use crate::eval::value::{GroupVal, MetricSpec, SeqVal, Value};
use crate::syntax::*;
use num_bigint::BigInt;
use num_traits::Zero;
use puz_core::Word;
use std::rc::Rc;

/// The most bits a number computed by a power may have (a million decimal digits about 3
/// times over; enough for any group order).
const MAX_INT_BITS: u128 = 1 << 22;

impl Interp {
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
                    let w = self
                        .seq_value(&p, v, it.span)
                        .map_err(|d| self.hidden_move(&p, it, d))?;
                    words.push(w);
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
                    Value::Int(i) if *k >= 0 => {
                        // The bits of the result, bounded before computing it (2^1000000000
                        // took minutes and ignored Ctrl-C).
                        let bits = (i.bits().saturating_sub(1) as u128) * (*k as u128);
                        if bits > MAX_INT_BITS {
                            return Err(Diag::new(
                                e.span,
                                format!("this power would have about {bits} bits; numbers may have at most {MAX_INT_BITS}"),
                            ));
                        }
                        Ok(Value::Int(num_traits::pow(i, *k as usize)))
                    }
                    v => Err(Diag::new(
                        e.span,
                        format!("cannot take a power of {}", v.type_name()),
                    )),
                }
            }
            ExprKind::PowerBy(inner, name, negative) => {
                let k = match self.eval(&Expr {
                    kind: ExprKind::Word(name.name.clone()),
                    span: name.span,
                })? {
                    Value::Int(i) => i64::try_from(&i).map_err(|_| {
                        Diag::new(
                            name.span,
                            format!("the power `{}` = {i} is too large", name.name),
                        )
                    })?,
                    v => {
                        return Err(Diag::new(
                            name.span,
                            format!(
                                "a power must be an integer; `{}` is {}",
                                name.name,
                                v.type_name()
                            ),
                        )
                        .with_help("bind a number first: `let n = 3`, then `(R U)^n`"))
                    }
                };
                let k = if *negative { -k } else { k };
                self.eval(&Expr {
                    kind: ExprKind::Power(inner.clone(), k),
                    span: e.span,
                })
            }
            ExprKind::Prime(inner) => {
                if let ExprKind::Word(name) = &inner.kind {
                    let p = self.current.clone();
                    let inv = |w: Word| match &p {
                        Some(p) => p.inverse_word(w),
                        None => w.inverse(),
                    };
                    if let Some(v) = self.split_postfix(name, inner.span, inv)? {
                        return Ok(v);
                    }
                }
                match self.eval(inner)? {
                    Value::Seq(s) => {
                        let w = s.puzzle.inverse_word(s.word);
                        Ok(Value::Seq(SeqVal::new(s.puzzle, w)))
                    }
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
                let mut perms: Vec<(puz_core::Perm, Span)> = Vec::new();
                for it in items {
                    let w = self.seq_operand(&p, it)?;
                    let perm = w.eval(&p.alphabet, p.def.degree());
                    // One simultaneous twist is only meaningful for parts that commute.
                    if let Some((_, other)) =
                        perms.iter().find(|(q, _)| q.then(&perm) != perm.then(q))
                    {
                        let text = &self.source.text;
                        let (a, b) = (
                            text.get(other.start..other.end).unwrap_or("?"),
                            text.get(it.span.start..it.span.end).unwrap_or("?"),
                        );
                        return Err(Diag::new(
                            it.span,
                            format!("`{b}` does not commute with `{a}`, so they are not one simultaneous twist"),
                        )
                        .with_related(*other, "this part")
                        .with_help(
                            "braces group moves that commute (`{U D'}`, one twist in atm); write the sequence without braces",
                        ));
                    }
                    perms.push((perm, it.span));
                    words.push(w);
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
    pub(super) fn call(&mut self, name: &Ident, args: &[Arg], span: Span) -> EvalResult<Value> {
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
            json: self.json,
            fields: Vec::new(),
            jobs: self
                .jobs
                .as_mut()
                .map(|j| &mut **j as &mut dyn crate::eval::jobs::Jobs),
            cache: self.cache.clone(),
            here: std::path::Path::new(&self.source.name)
                .parent()
                .filter(|d| d.is_dir())
                .map(|d| d.to_path_buf()),
            solvers: None,
        };
        let r = (b.run)(&mut ctx, &args);
        let fields = std::mem::take(&mut ctx.fields);
        self.fields.extend(fields);
        r
    }

    /// Evaluates an argument. Two forms are read from the syntax, by the kinds the
    /// argument takes: a bracket literal where a list is taken is a list of its items
    /// (`[x, y]` there is not a commutator), and a location is its name as written
    /// (`UFR` there is not the word `U F R`). Also returns a list literal's item spans.
    pub(super) fn eval_arg(
        &mut self,
        e: &Expr,
        kinds: &[spec::Kind],
    ) -> EvalResult<(Value, Vec<Span>)> {
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
        if kinds.contains(&spec::Kind::Builtin) {
            if let ExprKind::Word(w) = &e.kind {
                return Ok((Value::Str(w.clone()), vec![]));
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

    pub(super) fn not_a_builtin(
        &mut self,
        name: &Ident,
        args: &[Arg],
        span: Span,
    ) -> EvalResult<Value> {
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
    pub(super) fn metric_stmt(
        &mut self,
        name: &Ident,
        value: Option<&Expr>,
        span: Span,
    ) -> EvalResult<()> {
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
        let names = metrics::gen_names(&p, &p.gens);
        metrics::resolve(&p, &spec, &names, e.span, &self.ctl)?;
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

    pub(super) fn source_text(&self, span: Span) -> String {
        self.source
            .text
            .get(span.start..span.end)
            .unwrap_or("?")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A word in a sequence context on puzzle `p`.
    pub(super) fn seq_operand(&mut self, p: &Rc<PuzzleCtx>, e: &Expr) -> EvalResult<Word> {
        let v = self.eval(e)?;
        self.seq_value(p, v, e.span)
    }

    pub(super) fn seq_value(
        &mut self,
        p: &Rc<PuzzleCtx>,
        v: Value,
        span: Span,
    ) -> EvalResult<Word> {
        match v {
            Value::Seq(s) => {
                if !s.puzzle.same(p) {
                    return Err(Diag::new(
                        span,
                        if s.puzzle.def.name == p.def.name {
                            format!(
                                "this sequence is on an earlier puzzle `{}`, defined anew since",
                                p.def.name
                            )
                        } else {
                            format!(
                                "this sequence is on puzzle `{}`, not `{}`",
                                s.puzzle.def.name, p.def.name
                            )
                        },
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

    /// `d`, with a word of the sequence that a binding hides a move by: say so.
    fn hidden_move(&self, p: &PuzzleCtx, e: &Expr, d: Diag) -> Diag {
        match &e.kind {
            ExprKind::Word(name)
                if self.vars.contains_key(name) && p.move_index(name).is_some() =>
            {
                let b = &self.vars[name];
                let d = d.with_help(format!(
                    "`{name}` here is the binding made by `let`, which hides the move `{name}` of `{}`; give the binding another name to use the move",
                    p.def.name
                ));
                if b.source == self.source.name {
                    d.with_related(b.span, "bound here")
                } else {
                    d
                }
            }
            _ => d,
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

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> EvalResult<Value> {
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
