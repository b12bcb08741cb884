//! How long computations are steered: cancellation (Ctrl-C), progress lines and the
//! memory check that refuses a computation too large before it starts.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Why a long computation stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The user pressed Ctrl-C (or the cancel flag was set).
    Cancelled,
    /// The computation would need more memory than allowed.
    TooLarge {
        what: String,
        needed: u64,
        available: u64,
    },
}

impl fmt::Display for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interrupt::Cancelled => write!(f, "interrupted"),
            Interrupt::TooLarge {
                what,
                needed,
                available,
            } => write!(
                f,
                "{what} needs {} of memory but only {} is available",
                human_bytes(*needed),
                human_bytes(*available)
            ),
        }
    }
}

impl std::error::Error for Interrupt {}

/// Formats a byte count as `1.5 GiB`.
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

type ProgressFn = dyn Fn(&str) + Send + Sync;

/// Passed to every long-running engine call.
#[derive(Clone)]
pub struct Control {
    cancel: Arc<AtomicBool>,
    progress: Option<Arc<ProgressFn>>,
    /// Bytes a single computation may allocate; defaults to the memory available now.
    pub memory_limit: u64,
}

impl Default for Control {
    fn default() -> Self {
        Control {
            cancel: Arc::new(AtomicBool::new(false)),
            progress: None,
            memory_limit: available_memory(),
        }
    }
}

impl fmt::Debug for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("cancelled", &self.cancelled())
            .field("memory_limit", &self.memory_limit)
            .finish()
    }
}

impl Control {
    /// A control sharing this cancel flag (set it from a Ctrl-C handler).
    pub fn with_flag(cancel: Arc<AtomicBool>) -> Control {
        Control {
            cancel,
            ..Default::default()
        }
    }

    /// Reports progress lines to `f` (the REPL prints them on stderr).
    pub fn with_progress(mut self, f: impl Fn(&str) + Send + Sync + 'static) -> Control {
        self.progress = Some(Arc::new(f));
        self
    }

    pub fn flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once the flag is set: call it in loops with `?`.
    #[inline]
    pub fn check(&self) -> Result<(), Interrupt> {
        if self.cancelled() {
            Err(Interrupt::Cancelled)
        } else {
            Ok(())
        }
    }

    pub fn progress(&self, msg: &str) {
        if let Some(p) = &self.progress {
            p(msg);
        }
    }

    /// Refuses, before starting, a computation that needs more than the limit.
    pub fn reserve(&self, what: &str, bytes: u64) -> Result<(), Interrupt> {
        if bytes > self.memory_limit {
            Err(Interrupt::TooLarge {
                what: what.to_string(),
                needed: bytes,
                available: self.memory_limit,
            })
        } else {
            Ok(())
        }
    }
}

/// The memory available on this machine (`MemAvailable`), or 8 GiB if unknown.
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb * 1024)
        .unwrap_or(8 << 30)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_too_large() {
        let c = Control {
            memory_limit: 1000,
            ..Default::default()
        };
        assert!(c.reserve("table", 999).is_ok());
        let e = c.reserve("table", 5 << 30).unwrap_err();
        assert_eq!(
            e.to_string(),
            "table needs 5.0 GiB of memory but only 1000 B is available"
        );
        c.flag().store(true, Ordering::Relaxed);
        assert_eq!(c.check(), Err(Interrupt::Cancelled));
    }
}
