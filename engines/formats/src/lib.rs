//! puz-formats: other tools' puzzle files as [`puz_core::Puzzle`]s, and back.
//!
//! - [`tws`]: twsearch / ksolve `.tws` and `.def` definitions (old- and new-style blocks).
//! - [`kpuzzle`]: cubing.js KPuzzle JSON definitions.
//! - [`gap`]: GAP files of generators (`U := (1,3,8,6)(2,5,7,4); G := Group(U, ...);`).
//! - [`scr`]: positions written as twsearch `.scr` scramble blocks.
//! - [`alg`]: the move sequences these files use for derived moves.
//!
//! Every reader either returns the whole puzzle or one [`FormatError`] with the byte
//! range of the offending text; nothing here knows the puz syntax or the interpreter.
//! All formats describe a move the same way once read: for each slot, the piece that
//! lands there and the orientation it gains, which is puz's own "piece at `a` goes to
//! `b` gaining `i`" ([`model`]).

pub mod alg;
pub mod gap;
pub mod kpuzzle;
mod model;
pub mod scr;
pub mod tws;

use puz_core::Puzzle;

/// A puzzle read from a file: the puzzle, which of its moves generate its group, and
/// notes for the reader (moves renamed to be puz names, and the like).
#[derive(Debug)]
pub struct Imported {
    pub puzzle: Puzzle,
    pub gens: Vec<usize>,
    pub notes: Vec<String>,
}

/// Why a file was refused: the message, the byte range of the text at fault (empty at
/// the end of a truncated file), and what to do.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatError {
    pub message: String,
    pub start: usize,
    pub end: usize,
    pub help: Option<String>,
}

impl FormatError {
    pub fn new(range: (usize, usize), message: impl Into<String>) -> FormatError {
        FormatError {
            message: message.into(),
            start: range.0,
            end: range.1,
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> FormatError {
        self.help = Some(help.into());
        self
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for FormatError {}

/// The file formats, told by the file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Tws,
    KPuzzle,
    Gap,
    Scr,
}

impl Format {
    /// `.tws`, `.def` (twsearch/ksolve), `.json` (KPuzzle), `.g`/`.gap`, `.scr`.
    pub fn of_path(path: &str) -> Option<Format> {
        let lower = path.to_ascii_lowercase();
        let ext = lower.rsplit('.').next()?;
        match ext {
            "tws" | "def" | "ksolve" => Some(Format::Tws),
            "json" => Some(Format::KPuzzle),
            "g" | "gap" => Some(Format::Gap),
            "scr" => Some(Format::Scr),
            _ => None,
        }
    }
}

/// Reads a puzzle definition; `name` is the puzzle's name in puz.
pub fn import(format: Format, name: &str, text: &str) -> Result<Imported, FormatError> {
    match format {
        Format::Tws => tws::read(name, text),
        Format::KPuzzle => kpuzzle::read(name, text),
        Format::Gap => gap::read(name, text),
        Format::Scr => Err(FormatError::new(
            (0, 0),
            "a .scr file holds positions, not a puzzle",
        )
        .with_help("load the puzzle's .tws file; .scr files are written by `save(position, \"x.scr\")`")),
    }
}

/// A puz name for a file stem or another tool's name: letters, digits and `_`, not
/// starting with a digit (a leading `_` is added), other characters become `_`.
pub fn puz_name(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || is_keyword(&s) {
        s.insert(0, '_');
    }
    s
}

/// A puz name for another tool's move: kept when puz reads it as one move (a name, or one
/// led by digits or ended by signs as cubers write them: `2R`, `3Rw`, `R++`, `UR5+`),
/// else made a name by [`puz_name`].
pub fn puz_move_name(raw: &str) -> String {
    if is_move_name(raw) {
        raw.to_string()
    } else {
        puz_name(raw)
    }
}

/// Whether puz's grammar reads `s` whole as one move name.
fn is_move_name(s: &str) -> bool {
    let body = s
        .strip_suffix("++")
        .or_else(|| s.strip_suffix("--"))
        .or_else(|| {
            s.strip_suffix(['+', '-'])
                .filter(|b| b.ends_with(|c: char| c.is_ascii_digit()))
        })
        .unwrap_or(s);
    let rest = body.trim_start_matches(|c: char| c.is_ascii_digit());
    let start = if rest.len() < body.len() {
        rest.starts_with(|c: char| c.is_ascii_alphabetic())
    } else {
        rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    };
    start && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !is_keyword(body)
}

/// The words puz reserves, which no move or orbit may be called.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "puzzle"
            | "use"
            | "let"
            | "move"
            | "metric"
            | "assert"
            | "show"
            | "in"
            | "group"
            | "true"
            | "false"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_names_as_cubers_write_them_are_kept() {
        for keep in ["R", "2R", "3Rw", "R++", "D--", "UR5+", "ALL2-", "_x"] {
            assert_eq!(puz_move_name(keep), keep);
        }
        for (raw, made) in [("R+", "R_"), ("R'", "R_"), ("2_", "_2_"), ("use", "_use")] {
            assert_eq!(puz_move_name(raw), made);
        }
    }
}
