//! Names inside sequences: a bound name, a move or a macro, and words that are no name
//! split into declared moves and macros (`PFPB`, `LRRL'`).

use super::{Binding, Interp};
use crate::diag::{Diag, EvalResult};
use crate::eval::builtins::{self};
use crate::eval::metrics;
use crate::eval::names::suggest;
use crate::eval::puzzle_ctx::{LetterFor, PuzzleCtx};
use crate::eval::split::{self, Piece};
use crate::eval::value::{GroupVal, SeqVal, Value};
use crate::syntax::*;
use puz_core::Word;
use std::rc::Rc;

impl Interp {
    /// `LRRL'`: a prime or power on a juxtaposed word applies to its last piece.
    pub(super) fn split_postfix(
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

    pub(super) fn eval_name(&mut self, name: &str, span: Span) -> EvalResult<Value> {
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
        match self.split_word(&p, name, span) {
            Ok(pieces) => Ok(Value::Seq(SeqVal::new(p, Word::seq(pieces)))),
            // A word that is no sequence of moves may name a puzzle (`save(cube3, ..)`).
            Err(e) => match self.puzzles.get(name) {
                Some(q) => Ok(Value::Puzzle(q.clone())),
                None => Err(e),
            },
        }
    }

    pub(super) fn unknown_name(&self, name: &str, span: Span) -> Diag {
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
            Some(p) if p.def.moves.is_empty() => d.with_help(format!(
                "puzzle `{}` has no moves: its definition gives them (`move a = (1 2)`)",
                p.def.name
            )),
            Some(p) => d.with_help(format!(
                "puzzle `{}` has moves {}",
                p.def.name,
                p.def.moves.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(" ")
            )),
        }
    }

    /// Resolves a name or juxtaposed word on puzzle `p` into words, one per piece.
    pub(super) fn split_word(
        &mut self,
        p: &Rc<PuzzleCtx>,
        name: &str,
        span: Span,
    ) -> EvalResult<Vec<Word>> {
        let vars = &self.vars;
        // A binding hides a move of its name, whatever it holds.
        let is_name = |s: &str| match vars.get(s) {
            Some(b) => matches!(b.value, Value::Seq(_)),
            None => p.move_index(s).is_some(),
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
        // WCA Clock amounts: `UR5+` is `UR5`, `UR5-` its inverse.
        if let Some((stem, inverse)) = split::direction(name) {
            let w = Word::seq(self.split_word(p, stem, span)?);
            return Ok(vec![if inverse { w.inverse() } else { w }]);
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

    pub(super) fn piece_word(
        &self,
        p: &Rc<PuzzleCtx>,
        piece: &Piece,
        span: Span,
    ) -> EvalResult<Word> {
        let power = piece.power.unwrap_or(1);
        if let Some(mi) = p
            .move_index(&piece.name)
            .filter(|_| !self.vars.contains_key(&piece.name))
        {
            let pw = i64::try_from(power).map_err(|_| Diag::new(span, "power too large"))?;
            return Ok(p.power_word(mi, pw));
        }
        match self.vars.get(&piece.name) {
            Some(Binding {
                value: Value::Seq(s),
                ..
            }) if !s.puzzle.same(p) => Err(Diag::new(
                span,
                format!(
                    "`{}` is a sequence on puzzle `{}`, not `{}`",
                    piece.name, s.puzzle.def.name, p.def.name
                ),
            )),
            Some(Binding {
                value: Value::Seq(s),
                ..
            }) => Ok(s.word.clone().pow(power as i64)),
            _ => unreachable!("split pieces are names"),
        }
    }
}
