//! puz: a language, interpreter and REPL for the group theory of permutation puzzles.
//!
//! Stages: [`syntax`] (pest grammar -> AST with spans), [`eval`] (interpreter, values,
//! builtins calling the engines), [`repl`] (interactive loop), [`batch`] (`puz batch` and
//! `puz merge`: a script's batch split into shards), [`diag`] (diagnostics), [`progress`]
//! (progress bars and lines), [`cache`] (`puz cache`), [`text_file`] (files read as
//! text).
//! The engines are separate crates under `engines/` and know nothing of the syntax.

pub mod batch;
pub mod cache;
mod clip;
pub mod diag;
pub mod eval;
pub mod progress;
pub mod repl;
pub mod span;
pub mod stdlib;
pub mod syntax;
pub mod text_file;

use std::io::Write;

/// Runs a script and returns what it printed, or the rendered diagnostic (no colours).
/// Used by the snapshot tests.
pub fn run_to_string(name: &str, text: &str) -> (String, Option<String>) {
    let buf = SharedBuf::default();
    let mut it = eval::Interp::new(Box::new(buf.clone()));
    let r = it.run_source(name, text);
    let out = buf.take();
    (out, r.err().map(|d| d.render(false)))
}

/// Parses a script without running it (for scripts too long to run in the tests).
pub fn parse_only(text: &str) -> Result<(), String> {
    syntax::parser::parse_file(text)
        .map(|_| ())
        .map_err(|d| d.render(false))
}

/// A cloneable in-memory writer.
#[derive(Clone, Default)]
pub struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuf {
    pub fn take(&self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut *self.0.lock().unwrap())).to_string()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
