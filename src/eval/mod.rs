//! Evaluation: the interpreter that runs statements, the values it computes with, and
//! the builtins that call the engines (which know nothing of the syntax).
//!
//! Layering: a module imports only modules of later lines, never the other way round.
//! - `interp` (one type over three files: statements in `mod`, expressions and calls in
//!   `expr`, names and juxtaposed words in `words`)
//! - `builtins` (the table) -> its families (`hamilton` -> `chains`; both -> `walks`) ->
//!   `builtins::spec` (kinds, checker, context)
//! - `relations`, `metrics`, `show`, `simplify`, `build_puzzle`, `jobs`, `explain`
//! - `json` (values as JSON objects)
//! - `value`
//! - `groups`, `show_net`, `picture` (nets, diagrams, SVG, terminal), `names`, `split`
//! - `puzzle_ctx`

pub mod build_puzzle;
pub mod builtins;
pub mod explain;
pub mod groups;
pub mod interp;
pub mod jobs;
pub mod json;
pub mod metrics;
pub mod names;
pub mod picture;
pub mod puzzle_ctx;
pub mod relations;
pub mod show;
pub mod show_net;
pub mod simplify;
pub mod split;
pub mod value;

pub use interp::{Interp, CHUNKED};
pub use value::Value;
