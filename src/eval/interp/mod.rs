//! The interpreter: runs statements against an environment of puzzles and bindings
//! (here), evaluates expressions to [`Value`]s and calls builtins ([`expr`]), and reads
//! names inside sequences, splitting juxtaposed words ([`words`]).

mod expr;
mod word_lines;
mod words;

use super::build_puzzle;
use super::builtins::{self, spec};
use super::jobs::Jobs;
use super::json::{self, Field};
use super::names::suggest;
use super::puzzle_ctx::PuzzleCtx;
use super::relations;
use super::value::{MetricSpec, SeqVal, Value};
use crate::diag::{Diag, Source};
use crate::syntax::*;
use indexmap::IndexMap;
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
    /// `show` draws coloured pictures (the output is a terminal and `NO_COLOR` is unset).
    pub colour: bool,
    /// Results print after the expression that gave them (`order(R) = 4`), as scripts
    /// run from the command line do; the REPL and `-e` print bare values.
    pub labels: bool,
    /// Print results as JSON objects, one a line (`puz run --json`).
    pub json: bool,
    /// After a printed sequence, define the names in it that the user never gave
    /// (`hamilton`'s `H873`); off for `--raw`.
    pub explain: bool,
    /// Where `batch` runs its items (`puz batch`); `None`: all of them, here.
    pub jobs: Option<Box<dyn Jobs>>,
    /// Where pattern tables are cached (`--cache DIR`); `None`: the default place.
    pub cache: Option<std::path::PathBuf>,
    /// The fields the builtins called by the current statement reported (for `--json`).
    fields: Vec<Field>,
    /// Where warnings go (rendered with `Diag::render_warning`, to standard error
    /// uncoloured, unless set).
    pub warn: Box<dyn FnMut(&Diag)>,
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
            colour: false,
            labels: false,
            json: false,
            explain: true,
            jobs: None,
            cache: None,
            fields: Vec::new(),
            warn: Box::new(|d| eprint!("{}", d.render_warning(false))),
        }
    }

    /// Parses and runs a whole source. Errors carry the source they belong to.
    pub fn run_source(&mut self, name: &str, text: &str) -> Result<(), Diag> {
        if text.len() > CHUNKED {
            return self.run_chunked(name, text);
        }
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

    /// [`Interp::run_source`] one statement at a time, for sources past [`CHUNKED`]
    /// bytes (the word files `save` writes): the parse of a whole file of hundreds of
    /// megabytes holds many times its size, one statement's parse does not.
    fn run_chunked(&mut self, name: &str, text: &str) -> Result<(), Diag> {
        let full = Source {
            name: name.to_string(),
            text: Arc::new(text.to_string()),
        };
        let saved = std::mem::replace(&mut self.source, full.clone());
        let mut result = Ok(());
        self.ctl
            .flag()
            .store(false, std::sync::atomic::Ordering::Relaxed);
        for (start, end) in statements(text) {
            let chunk = &text[start..end];
            if chunk.trim().is_empty() {
                continue;
            }
            // The word's own lines, at memory speed; any other line is parsed.
            let r = self.run_word_let(chunk).map(|r| {
                r.map_err(|mut d| {
                    d.shift(start);
                    d.in_source(&full)
                })
            });
            match r {
                Some(Ok(())) => continue,
                Some(Err(d)) => {
                    result = Err(d);
                    break;
                }
                None => {}
            }
            self.source = Source {
                name: name.to_string(),
                text: Arc::new(chunk.to_string()),
            };
            let r = parse_file(chunk).and_then(|stmts| {
                for s in &stmts {
                    self.ctl
                        .flag()
                        .store(false, std::sync::atomic::Ordering::Relaxed);
                    self.exec(s)?;
                }
                Ok(())
            });
            if let Err(mut d) = r {
                if d.source.is_none() {
                    d.shift(start);
                    d = d.in_source(&full);
                }
                result = Err(d);
                break;
            }
        }
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
                self.warn_if_hiding(&def.name);
                let text = self.source.text.clone();
                let ctx = build_puzzle::build(def, &text, &mut |ctx, e| {
                    let w = self.word_in(ctx, e)?;
                    Ok(w.eval(&ctx.alphabet, ctx.def.degree()))
                })?;
                let ctx = Rc::new(ctx);
                self.puzzles.insert(def.name.name.clone(), ctx.clone());
                self.current = Some(ctx);
                self.check_declared_order(def)
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
                let text =
                    super::show::show(&v, self.colour).map_err(|m| Diag::new(expr.span, m))?;
                if self.json {
                    self.print(&json::note("show", &text).to_string());
                } else {
                    self.print(&text);
                }
                Ok(())
            }
            Stmt::Expr(e) => {
                self.fields.clear();
                let v = self.eval(e)?;
                if matches!(v, Value::Unit) {
                } else if self.json {
                    self.print(&json::result(&v, &self.fields).to_string());
                } else if self.labels {
                    let text = v.to_string();
                    self.print(&labelled(
                        &self.source.text[e.span.start..e.span.end],
                        &text,
                    ));
                } else {
                    self.print(&v.to_string());
                }
                if self.explain && !self.json {
                    if let Value::Seq(s) = &v {
                        for line in self.machine_names(s) {
                            self.print(&line);
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// The definitions of the names in `s` that no binding of the user gave it.
    fn machine_names(&self, s: &SeqVal) -> Vec<String> {
        let shown = match &s.word {
            Word::Named(_, inner) => inner.as_ref(),
            w => w,
        };
        let is_users = |name: &str, def: &Arc<Word>| {
            matches!(self.vars.get(name), Some(Binding { value: Value::Seq(b), .. })
                if matches!(&b.word, Word::Named(_, d) if Arc::ptr_eq(d, def)))
        };
        super::explain::explain(shown, &s.puzzle.alphabet, &is_users)
    }

    /// A puzzle's `order N` is checked against the group its moves generate (the
    /// standard library's are checked by its tests, not on every `use`).
    fn check_declared_order(&mut self, def: &PuzzleDef) -> EvalResult<()> {
        let declared = def.items.iter().find_map(|i| match i {
            PuzzleItem::Order { value, span } => Some((value, *span)),
            _ => None,
        });
        let Some((want, span)) = declared else {
            return Ok(());
        };
        if self.source.name.starts_with("stdlib/") {
            return Ok(());
        }
        let Value::Group(g) = self.eval_name("group", span)? else {
            unreachable!("`group` is a group")
        };
        let got = g.engine(&self.ctl, span)?.group.order();
        if got == *want {
            return Ok(());
        }
        Err(Diag::new(
            span,
            format!(
                "puzzle `{}` declares order {want}, but its moves generate a group of order {got}",
                def.name.name
            ),
        )
        .with_label("declared here")
        .with_help(format!("write `order {got}`, or leave the line out")))
    }

    /// A puzzle defined under a name already in use is allowed (sequences of the earlier
    /// one stay on it), but said: a second `puzzle p`, or a puzzle named as a standard one
    /// (which `use NAME` would no longer reach).
    fn warn_if_hiding(&mut self, name: &Ident) {
        let n = &name.name;
        let d = if self.puzzles.contains_key(n) {
            Diag::new(
                name.span,
                format!("puzzle `{n}` is defined again: what was made with the earlier `{n}` stays on it"),
            )
            .with_label("defined again here")
            .with_help("give the new puzzle another name to keep the two apart")
        } else if crate::stdlib::get(n).is_some() && self.source.name != format!("stdlib/{n}.puz") {
            Diag::new(
                name.span,
                format!("puzzle `{n}` has the name of a standard puzzle: `use {n}` now selects this one"),
            )
            .with_label("defined here")
            .with_help("give it another name to keep the standard puzzle in reach")
        } else {
            return;
        };
        let d = d.in_source(&self.source);
        (self.warn)(&d);
    }

    fn check_bindable(&self, name: &Ident) -> EvalResult<()> {
        if let Some(p) = &self.current {
            // A derived move (`x`, SiGN's `r`) may be hidden: single lower-case letters
            // are common names. A move given by cycles may not.
            if let Some(mi) = p
                .move_index(&name.name)
                .filter(|&mi| p.def.moves[mi].primitive)
            {
                return Err(Diag::new(
                    name.span,
                    format!(
                        "`{}` is already a move of puzzle `{}`",
                        p.def.moves[mi].name, p.def.name
                    ),
                )
                .with_label("redefined here")
                .with_help("choose another name; a `let` may hide a derived move (`x`, `r`), not one given by cycles"));
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
        if let Some(b) = self.vars.get(&m.name.name) {
            // The binding would hide the new move at once.
            let d = Diag::new(
                m.name.span,
                format!("`{}` is already bound by `let`", m.name.name),
            )
            .with_label("a move of that name here")
            .with_help("choose another name for the move");
            return Err(if b.source == self.source.name {
                d.with_related(b.span, "bound here")
            } else {
                d
            });
        }
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
        let text = crate::text_file::read(file)
            .map_err(|e| Diag::new(span, format!("cannot read {}: {e}", file.display())))?;
        match puz_formats::Format::of_path(path) {
            Some(format) => self.import(format, file, text),
            None => self.run_source(&file.display().to_string(), &text),
        }
    }

    /// `use "x.tws"` (or `.def`, `.json`, `.g`): the puzzle another tool's file
    /// defines becomes current, named for the file; the session changes only once the
    /// whole file has been read.
    fn import(
        &mut self,
        format: puz_formats::Format,
        file: &std::path::Path,
        text: String,
    ) -> EvalResult<()> {
        let src = Source {
            name: file.display().to_string(),
            text: Arc::new(text),
        };
        let stem = file
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = stem
            .split('.')
            .next()
            .filter(|s| !s.is_empty())
            .unwrap_or("imported");
        let name = puz_formats::puz_name(stem);
        let imported = puz_formats::import(format, &name, &src.text).map_err(|e| {
            let d = Diag::new(Span::new(e.start, e.end), e.message).with_label("here");
            match e.help {
                Some(h) => d.with_help(h),
                None => d,
            }
            .in_source(&src)
        })?;
        for note in &imported.notes {
            self.print(&format!("note: {}: {note}", src.name));
        }
        let ctx = Rc::new(PuzzleCtx::new(imported.puzzle, imported.gens));
        self.puzzles.insert(name, ctx.clone());
        self.current = Some(ctx);
        Ok(())
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

/// A result after the expression that gave it: `order(R) = 4` for a one-line value;
/// a report of several lines (which says what it is) as it is.
fn labelled(source: &str, value: &str) -> String {
    if value.contains('\n') {
        return value.to_string();
    }
    let src = source.split_whitespace().collect::<Vec<_>>().join(" ");
    let src = if src.chars().count() > 60 {
        format!("{}...", src.chars().take(57).collect::<String>())
    } else {
        src
    };
    if src == value {
        return value.to_string();
    }
    format!("{src} = {value}")
}

/// Sources longer than this run one statement at a time ([`Interp::run_source`]).
pub const CHUNKED: usize = 8 << 20;

/// The byte ranges of the statements of `text`: split at newlines outside `( )`, `[ ]`
/// and `{ }`, comments and strings (`< >` also compare, so they are not counted: a
/// group split over lines is not split correctly, which only word files this large
/// would need and `save` never writes).
pub fn statements(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let (mut out, mut depth, mut start, mut i) = (Vec::new(), 0usize, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' if depth == 0 => {
                out.push((start, i + 1));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < b.len() {
        out.push((start, b.len()));
    }
    out
}
