//! The rustyline helper: completion of names, moves and builtins (puzzle names after
//! `use`, metric names after `metric`, file paths after `:load`), and multi-line input
//! while a bracket is open.

use crate::eval::value::Value;
use crate::eval::Interp;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper, Highlighter, Hinter};

#[derive(Helper, Highlighter, Hinter)]
pub struct PuzHelper {
    names: Vec<String>,
    puzzles: Vec<String>,
    metrics: Vec<String>,
    files: FilenameCompleter,
    /// Whether an entry with an open bracket reads on (at a terminal; piped input is
    /// joined by the session, which sees where the input ends).
    pub read_on: bool,
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
        names.extend([":help", ":load", ":quit", ":time", ":vars", ":reset"].map(String::from));
        let mut metrics: Vec<String> = ["htm", "qtm", "stm", "atm"].map(String::from).to_vec();
        metrics.extend(
            it.vars
                .iter()
                .filter(|(_, b)| matches!(b.value, Value::Metric(_)))
                .map(|(n, _)| n.clone()),
        );
        names.extend(metrics.iter().cloned());
        names.sort();
        names.dedup();
        let mut puzzles: Vec<String> = crate::stdlib::names().map(String::from).collect();
        puzzles.extend(["row(", "topspin("].map(String::from));
        puzzles.extend(it.puzzles.keys().cloned());
        puzzles.sort();
        puzzles.dedup();
        metrics.sort();
        metrics.dedup();
        PuzHelper {
            names,
            puzzles,
            metrics,
            files: FilenameCompleter::new(),
            read_on: true,
        }
    }

    pub fn complete_word(&self, prefix: &str) -> Vec<String> {
        starting(&self.names, prefix)
    }

    /// Candidates for the word `prefix` after `before`: puzzle names after `use`, metric
    /// names after `metric` or `metric:`, anything else otherwise.
    pub fn complete_in(&self, before: &str, prefix: &str) -> Vec<String> {
        let last = before
            .trim_end()
            .rsplit(|c: char| c.is_whitespace() || c == ';' || c == '(' || c == ',')
            .next()
            .unwrap_or("");
        match last {
            "use" => starting(&self.puzzles, prefix),
            "metric" | "metric:" => starting(&self.metrics, prefix),
            _ if prefix.is_empty() => vec![],
            _ => self.complete_word(prefix),
        }
    }
}

fn starting(names: &[String], prefix: &str) -> Vec<String> {
    names
        .iter()
        .filter(|n| n.starts_with(prefix) && n.as_str() != prefix)
        .cloned()
        .collect()
}

impl Completer for PuzHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        if line.trim_start().starts_with(":load ") || line.trim_start().starts_with(":l ") {
            return self.files.complete(line, pos, ctx);
        }
        let start = line[..pos]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map(|i| i + 1)
            .unwrap_or(0);
        let prefix = &line[start..pos];
        let v = self
            .complete_in(&line[..start], prefix)
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
        if self.read_on && crate::syntax::parser::unclosed(ctx.input()).is_some() {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}
