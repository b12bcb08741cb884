//! The rustyline helper: completion of names, moves and builtins, and multi-line
//! input while a bracket is open.

use crate::eval::Interp;
use rustyline::completion::{Completer, Pair};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper, Highlighter, Hinter};

#[derive(Helper, Highlighter, Hinter)]
pub struct PuzHelper {
    names: Vec<String>,
}

impl PuzHelper {
    /// Snapshot of the names in scope: bindings, moves of the puzzle in use, builtins,
    /// keywords, stdlib puzzles and REPL commands.
    pub fn new(it: &Interp) -> PuzHelper {
        let mut names: Vec<String> = it.vars.keys().cloned().collect();
        if let Some(p) = &it.current {
            names.extend(p.def.moves.iter().map(|m| m.name.clone()));
        }
        for b in crate::eval::builtins::TABLE {
            names.push(b.name.to_string());
            names.extend(b.options.iter().map(|o| format!("{}:", o.name)));
        }
        names.extend(
            [
                "use", "let", "move", "puzzle", "assert", "show", "metric", "group",
            ]
            .map(String::from),
        );
        names.extend(crate::stdlib::names().map(String::from));
        names.extend([":help", ":load", ":quit"].map(String::from));
        names.sort();
        names.dedup();
        PuzHelper { names }
    }

    pub fn complete_word(&self, prefix: &str) -> Vec<String> {
        self.names
            .iter()
            .filter(|n| n.starts_with(prefix) && n.as_str() != prefix)
            .cloned()
            .collect()
    }
}

impl Completer for PuzHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let start = line[..pos]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map(|i| i + 1)
            .unwrap_or(0);
        let prefix = &line[start..pos];
        if prefix.is_empty() {
            return Ok((pos, vec![]));
        }
        let v = self
            .complete_word(prefix)
            .into_iter()
            .map(|n| Pair {
                display: n.clone(),
                replacement: n,
            })
            .collect();
        Ok((start, v))
    }
}

impl Validator for PuzHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        if crate::syntax::parser::unclosed(ctx.input()).is_some() {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}
