//! The error type of the solver: an interruption (Ctrl-C, memory) or an invalid request.

use puz_core::Interrupt;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Cancelled, or refused because it would need too much memory.
    Interrupt(Interrupt),
    /// The request does not make sense (unknown move, position outside the puzzle...).
    Invalid(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Interrupt(i) => write!(f, "{i}"),
            SolveError::Invalid(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<Interrupt> for SolveError {
    fn from(i: Interrupt) -> Self {
        SolveError::Interrupt(i)
    }
}

pub(crate) fn invalid<T>(msg: impl Into<String>) -> Result<T, SolveError> {
    Err(SolveError::Invalid(msg.into()))
}
