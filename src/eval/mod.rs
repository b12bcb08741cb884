//! Evaluation: the interpreter that runs statements, the values it computes with, and
//! the builtins that call the engines (which know nothing of the syntax).
//!
//! Layering (each module imports only those below it): `interp` -> `builtins` ->
//! `relations`, `metrics`, `show` -> `value` -> `groups` -> `puzzle_ctx`; `build_puzzle`,
//! `names` and `split` serve the interpreter.

pub mod build_puzzle;
pub mod builtins;
pub mod groups;
pub mod interp;
pub mod metrics;
pub mod names;
pub mod puzzle_ctx;
pub mod relations;
pub mod show;
pub mod show_net;
pub mod split;
pub mod value;

pub use interp::Interp;
pub use value::Value;
