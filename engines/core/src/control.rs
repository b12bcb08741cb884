//! How long computations are steered: cancellation (Ctrl-C), progress lines and the
//! memory check that refuses a computation too large before it starts.

use crate::progress::{Left, PlainLines, Report, Step};
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

type ProgressFn = dyn Fn(&Report) + Send + Sync;

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

    /// Reports progress as plain lines to `f`: every line, and a line a second of the
    /// steps of a phase (see [`PlainLines`]).
    pub fn with_progress(self, f: impl Fn(&str) + Send + Sync + 'static) -> Control {
        let plain = PlainLines::new(std::time::Duration::from_secs(1));
        self.with_reports(move |r| {
            if let Some(line) = plain.line(r) {
                f(&line)
            }
        })
    }

    /// Sends every report to `f` (a progress bar draws the steps).
    pub fn with_reports(mut self, f: impl Fn(&Report) + Send + Sync + 'static) -> Control {
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

    /// A line of its own: a stage begun, a result on the way.
    pub fn progress(&self, msg: &str) {
        if let Some(p) = &self.progress {
            p(&Report::Line(msg.to_string()));
        }
    }

    /// Whether anyone listens (to skip formatting reports nobody reads).
    pub fn reporting(&self) -> bool {
        self.progress.is_some()
    }

    /// How far a phase is: `done` of `total` (0: unknown) `unit`s; `detail` says where
    /// within the phase. Call it at most a few times a second (see
    /// [`Pace`](crate::progress::Pace)).
    pub fn step(&self, phase: &str, detail: &str, done: u64, total: u64, unit: &'static str) {
        self.step_left(phase, detail, (done, total), unit, Left::ByRate);
    }

    /// [`Control::step`] with the time left as the engine foretells it (see [`Left`]).
    pub fn step_left(
        &self,
        phase: &str,
        detail: &str,
        (done, total): (u64, u64),
        unit: &'static str,
        left: Left,
    ) {
        if let Some(p) = &self.progress {
            p(&Report::Step(Step {
                phase: phase.to_string(),
                detail: detail.to_string(),
                done,
                total,
                unit,
                left,
            }));
        }
    }

    /// The phase of the last steps is over.
    pub fn end_phase(&self) {
        if let Some(p) = &self.progress {
            p(&Report::End);
        }
    }

    /// What may be allocated now: the limit, and what the machine, the process's
    /// address-space limit and its control group leave at this moment (threads and
    /// allocator arenas made since the limit was set use some of it).
    pub fn memory_left(&self) -> u64 {
        self.memory_limit.min(available_memory())
    }

    /// Refuses, before starting, a computation that needs more than is left. Small
    /// requests are held to the limit only (reading what is left costs a few file reads,
    /// and hot loops reserve small buffers often).
    pub fn reserve(&self, what: &str, bytes: u64) -> Result<(), Interrupt> {
        self.reserve_growing(|| what.to_string(), bytes, &mut 0)
    }

    /// [`Control::reserve`] for a computation that grows in small steps and asks at each:
    /// asks again only once `bytes` passes `room`, which it sets to what it found left,
    /// at most an eighth more than `bytes` (every byte up to `room` was left when read).
    /// `what` is written only for a refusal.
    pub fn reserve_growing(
        &self,
        what: impl FnOnce() -> String,
        bytes: u64,
        room: &mut u64,
    ) -> Result<(), Interrupt> {
        if bytes <= *room {
            return Ok(());
        }
        let left = if bytes < 64 << 20 {
            self.memory_limit
        } else {
            self.memory_left()
        };
        if bytes > left {
            return Err(Interrupt::TooLarge {
                what: what(),
                needed: bytes,
                available: left,
            });
        }
        *room = left.min(bytes + bytes / 8);
        Ok(())
    }
}

/// The memory a computation may still allocate: the least of what the machine has free
/// (`MemAvailable`), what the process's address-space limit leaves (`ulimit -v`, less
/// what it already maps) and what its control group's limit leaves (cgroup v2
/// `memory.max`, or v1 `memory.limit_in_bytes`, less what the group uses); 8 GiB when
/// none is known. Reading only `MemAvailable` let a limited process abort mid-allocation
/// instead of refusing up front.
pub fn available_memory() -> u64 {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    [
        read("/proc/meminfo").and_then(|s| field_kb(&s, "MemAvailable:")),
        read("/proc/self/limits").and_then(|l| {
            let used = read("/proc/self/status").and_then(|s| field_kb(&s, "VmSize:"));
            address_space_left(&l, used.unwrap_or(0))
        }),
        read("/proc/self/cgroup").and_then(|c| cgroup_left(&c, &read)),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(8 << 30)
}

/// A `Name:   123 kB` line of `/proc/meminfo` or `/proc/self/status`, in bytes.
fn field_kb(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// The soft `Max address space` of `/proc/self/limits` less `used`; `None` if unlimited.
fn address_space_left(limits: &str, used: u64) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse::<u64>().ok().map(|lim| lim.saturating_sub(used))
}

/// The limit of the process's memory control group less its usage; `None` without one.
fn cgroup_left(cgroup: &str, read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let num = |p: String| read(&p).and_then(|s| s.trim().parse::<u64>().ok());
    for line in cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            // cgroup v2; "max" does not parse, meaning no limit.
            let dir = format!("/sys/fs/cgroup{path}");
            if let Some(max) = num(format!("{dir}/memory.max")) {
                let used = num(format!("{dir}/memory.current")).unwrap_or(0);
                return Some(max.saturating_sub(used));
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            let dir = format!("/sys/fs/cgroup/memory{path}");
            let max = num(format!("{dir}/memory.limit_in_bytes"))?;
            // v1 reports "no limit" as a huge number.
            if max >= 1 << 60 {
                return None;
            }
            let used = num(format!("{dir}/memory.usage_in_bytes")).unwrap_or(0);
            return Some(max.saturating_sub(used));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_of_the_process_and_its_group_are_read() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space_left(limits, 1 << 30), Some(3 << 30));
        let unlimited = limits.replace("4294967296", "unlimited");
        assert_eq!(address_space_left(&unlimited, 0), None);
        let files = |p: &str| match p {
            "/sys/fs/cgroup/job/memory.max" => Some("1073741824\n".to_string()),
            "/sys/fs/cgroup/job/memory.current" => Some("73741824\n".to_string()),
            "/sys/fs/cgroup/memory/old/memory.limit_in_bytes" => Some("9223372036854771712".into()),
            _ => None,
        };
        assert_eq!(cgroup_left("0::/job\n", &files), Some(1_000_000_000));
        assert_eq!(cgroup_left("0::/other\n", &files), None);
        assert_eq!(cgroup_left("4:memory:/old\n", &files), None);
        assert_eq!(
            field_kb("MemAvailable:   1000 kB\n", "MemAvailable:"),
            Some(1_024_000)
        );
        assert!(available_memory() > 0);
    }

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
