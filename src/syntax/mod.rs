//! Syntax: the pest grammar (`grammar/puz.pest`), the AST with spans, and the parser
//! that builds one from the other. Nothing here evaluates anything.

pub mod ast;
pub mod parser;

pub use ast::*;
pub use parser::{parse_file, parse_sequence};

/// The grammar's keywords (`keyword` in `grammar/puz.pest`): never a name.
pub const KEYWORDS: &[&str] = &[
    "puzzle", "use", "let", "move", "metric", "assert", "show", "in",
];
