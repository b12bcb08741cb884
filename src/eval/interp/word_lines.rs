//! The lines of a word file, read without the general parser.
//!
//! `save` writes a long word as lines `let NAME = WORD` whose words hold only names,
//! parentheses, primes and integer powers. The general parser keeps a parse tree of many
//! allocations per letter, so a file of 10^8 letters took minutes to read; here such a
//! line is evaluated straight from its text. It builds the very word the general path
//! builds: the same constructors (`Word::seq`, `inverse`, `pow`, `named`) applied in the
//! same places, and names resolved in the same order (a binding, then a move, then a move
//! with a power). Anything else, or anything this reader is unsure of (a keyword, a call,
//! a name that is not a sequence of this puzzle, a newline outside brackets, a comment),
//! declines the whole line with `None` before any change to the session, and the general
//! path reads it, so every diagnostic keeps its one implementation. `tests` checks the two
//! paths against each other on saved words and on random lines.

use super::{Binding, Interp};
use crate::diag::{Diag, EvalResult};
use crate::eval::metrics;
use crate::eval::puzzle_ctx::PuzzleCtx;
use crate::eval::value::{SeqVal, Value};
use crate::syntax::{Span, KEYWORDS};
use indexmap::IndexMap;
use puz_core::Word;
use std::rc::Rc;

/// Parentheses nested deeper than this are left to the general parser (which grows its
/// stack as it needs).
const MAX_DEPTH: usize = 256;

impl Interp {
    /// Runs `chunk` if it is one `let NAME = WORD` line this reader knows; `None` (and
    /// the session unchanged) otherwise. Ctrl-C is looked at once a line (a line is read
    /// at memory speed, so that is often enough).
    pub(super) fn run_word_let(&mut self, chunk: &str) -> Option<EvalResult<()>> {
        let p = self.current.clone()?;
        if let Err(i) = self.ctl.check() {
            return Some(Err(Diag::new(Span::new(0, chunk.len()), i.to_string())));
        }
        let b = chunk.as_bytes();
        let mut r = Reader {
            b,
            i: 0,
            p: &p,
            vars: &self.vars,
        };
        r.blanks(false);
        if !r.b[r.i..].starts_with(b"let") || !matches!(r.b.get(r.i + 3), Some(b' ' | b'\t')) {
            return None;
        }
        r.i += 3;
        r.blanks(false);
        let (start, end) = r.name()?;
        let name = &chunk[start..end];
        r.blanks(false);
        if r.b.get(r.i) != Some(&b'=') {
            return None;
        }
        r.i += 1;
        let word = r.seq(0)?;
        r.blanks(true);
        if r.i != b.len() {
            return None;
        }
        if KEYWORDS.contains(&name) {
            return None;
        }
        let ident = crate::syntax::Ident {
            name: name.to_string(),
            span: Span::new(start, end),
        };
        self.check_bindable(&ident).ok()?;
        let value = Value::Seq(SeqVal::new(p, Word::named(name, word)));
        self.vars.insert(
            ident.name,
            Binding {
                value,
                span: ident.span,
                source: self.source.name.clone(),
            },
        );
        Some(Ok(()))
    }
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
    p: &'a Rc<PuzzleCtx>,
    vars: &'a IndexMap<String, Binding>,
}

impl Reader<'_> {
    /// Skips spaces and tabs, and newlines where `newlines` (inside brackets, and after
    /// the statement).
    fn blanks(&mut self, newlines: bool) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b' ' | b'\t' => {}
                b'\n' | b'\r' if newlines => {}
                _ => break,
            }
            self.i += 1;
        }
    }

    /// A name `[A-Za-z_][A-Za-z0-9_]*`: its byte range.
    fn name(&mut self) -> Option<(usize, usize)> {
        let start = self.i;
        match self.b.get(self.i) {
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
            _ => return None,
        }
        while matches!(self.b.get(self.i), Some(c) if c.is_ascii_alphanumeric() || *c == b'_') {
            self.i += 1;
        }
        Some((start, self.i))
    }

    /// Terms up to a `)` (or the end of the statement at depth 0). One term is that
    /// term; none or several are a `Word::seq` (as the general path's `Seq` does).
    fn seq(&mut self, depth: usize) -> Option<Word> {
        let mut terms = Vec::new();
        loop {
            self.blanks(depth > 0);
            match self.b.get(self.i) {
                None | Some(b')') => break,
                Some(b'\n' | b'\r') if depth == 0 => break,
                _ => terms.push(self.term(depth)?),
            }
        }
        if depth == 0 && terms.is_empty() {
            return None;
        }
        Some(if terms.len() == 1 {
            terms.pop().unwrap()
        } else {
            Word::seq(terms)
        })
    }

    /// An atom (a name or a parenthesised sequence) and its postfixes, written without
    /// spaces between them.
    fn term(&mut self, depth: usize) -> Option<Word> {
        let mut w = match *self.b.get(self.i)? {
            b'(' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let inner = self.seq(depth + 1)?;
                if self.b.get(self.i) != Some(&b')') {
                    return None;
                }
                self.i += 1;
                inner
            }
            _ => {
                let (start, end) = self.name()?;
                if self.b.get(self.i) == Some(&b'(') {
                    return None; // a call
                }
                let name = std::str::from_utf8(&self.b[start..end]).ok()?;
                self.resolve(name)?
            }
        };
        loop {
            match self.b.get(self.i) {
                Some(b'\'') => {
                    self.i += 1;
                    w = self.p.inverse_word(w);
                }
                Some(b'^') => {
                    self.i += 1;
                    let negative = self.b.get(self.i) == Some(&b'-');
                    if negative {
                        self.i += 1;
                    }
                    let k = self.digits()?;
                    w = w.pow(if negative { -k } else { k });
                }
                Some(c) if c.is_ascii_digit() => {
                    let k = self.digits()?;
                    w = w.pow(k);
                }
                _ => break,
            }
        }
        Some(w)
    }

    /// A power's digits (at least one, fitting an `i64`); a name after `^` is declined.
    fn digits(&mut self) -> Option<i64> {
        let start = self.i;
        while matches!(self.b.get(self.i), Some(c) if c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start
            || matches!(self.b.get(self.i), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        {
            return None;
        }
        std::str::from_utf8(&self.b[start..self.i])
            .ok()?
            .parse()
            .ok()
    }

    /// A name as `Interp::eval_name` and `split_word` read it, for the cases that need no
    /// splitting: a sequence bound on this puzzle, a move, either with a power (`U2`, `x2`).
    fn resolve(&self, name: &str) -> Option<Word> {
        if KEYWORDS.contains(&name) {
            return None;
        }
        let vars = self.vars;
        if let Some(b) = vars.get(name) {
            return match &b.value {
                Value::Seq(s) if Rc::ptr_eq(&s.puzzle, self.p) => Some(s.word.clone()),
                _ => None,
            };
        }
        if matches!(name, "true" | "false" | "group") || metrics::constant(name).is_some() {
            return None;
        }
        if let Some(mi) = self.p.move_index(name) {
            return Some(self.p.power_word(mi, 1));
        }
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if stem.is_empty() || stem.len() == name.len() {
            return None;
        }
        let power: u32 = name[stem.len()..].parse().ok()?;
        match vars.get(stem) {
            Some(b) => match &b.value {
                Value::Seq(s) if Rc::ptr_eq(&s.puzzle, self.p) => {
                    Some(s.word.clone().pow(power as i64))
                }
                _ => None,
            },
            None => Some(self.p.power_word(self.p.move_index(stem)?, power as i64)),
        }
    }
}

#[cfg(test)]
mod tests;
