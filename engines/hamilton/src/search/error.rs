//! Why `hamilton(G)` returned no cycle.

use crate::coords::CoordsError;
use puz_core::Interrupt;
use std::fmt;

/// Why no Hamilton cycle was produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HamiltonError {
    Interrupt(Interrupt),
    /// The group cannot be handled (too large, or the letters are not its generators).
    Unsupported(String),
    /// The search gave up.
    NotFound(String),
}

impl fmt::Display for HamiltonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HamiltonError::Interrupt(i) => write!(f, "{i}"),
            HamiltonError::Unsupported(s) => write!(f, "cannot search a Hamilton cycle: {s}"),
            HamiltonError::NotFound(s) => write!(f, "no Hamilton cycle found: {s}"),
        }
    }
}

impl std::error::Error for HamiltonError {}

impl From<Interrupt> for HamiltonError {
    fn from(i: Interrupt) -> Self {
        HamiltonError::Interrupt(i)
    }
}

impl From<CoordsError> for HamiltonError {
    fn from(e: CoordsError) -> Self {
        match e {
            CoordsError::Interrupt(i) => HamiltonError::Interrupt(i),
            CoordsError::TooLarge(s) => HamiltonError::Unsupported(s),
        }
    }
}
