//! One case run in this process: a fresh interpreter, a watchdog that sets its cancel
//! flag at the time limit, its memory limit, panics caught, the peak memory measured.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What became of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    Ok,
    /// A diagnostic (the script is wrong, or refused).
    Error,
    /// Stopped by its cancel flag at the time limit.
    Timeout,
    Panic,
    /// The process died (an abort, a signal, an allocation failure).
    Abort,
    /// Still running at five times its limit: it does not check its cancel flag.
    Hang,
    /// Its peak memory passed the case's limit.
    OverMemory,
}

pub const ALL: [Outcome; 7] = [
    Outcome::Ok,
    Outcome::Error,
    Outcome::Timeout,
    Outcome::Panic,
    Outcome::Abort,
    Outcome::Hang,
    Outcome::OverMemory,
];

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error => "error",
            Outcome::Timeout => "timeout",
            Outcome::Panic => "panic",
            Outcome::Abort => "abort",
            Outcome::Hang => "hang",
            Outcome::OverMemory => "over-memory",
        }
    }

    pub fn parse(s: &str) -> Option<Outcome> {
        ALL.into_iter().find(|o| o.name() == s)
    }

    /// A defect to report (the others are answers or clean refusals).
    pub fn is_defect(self) -> bool {
        matches!(
            self,
            Outcome::Panic | Outcome::Abort | Outcome::Hang | Outcome::OverMemory
        )
    }
}

type Armed = Option<(Instant, Arc<AtomicBool>)>;

/// Sets the armed flag once its deadline has passed, and keeps setting it: the
/// interpreter clears the flag before each statement.
pub struct Watchdog(Arc<Mutex<Armed>>);

impl Watchdog {
    pub fn start() -> Watchdog {
        let state: Arc<Mutex<Armed>> = Arc::default();
        let s = state.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(5));
            if let Some((deadline, flag)) = &*s.lock().unwrap() {
                if Instant::now() >= *deadline {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        });
        Watchdog(state)
    }

    fn arm(&self, deadline: Instant, flag: Arc<AtomicBool>) {
        *self.0.lock().unwrap() = Some((deadline, flag));
    }

    fn disarm(&self) {
        *self.0.lock().unwrap() = None;
    }
}

static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Panics are recorded (message and place), not printed.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let mut p = PANIC.lock().unwrap_or_else(|e| e.into_inner());
        if p.is_none() {
            *p = Some(info.to_string().replace('\n', " "));
        }
    }));
}

/// Runs one script; returns its outcome, a one-line detail and the most memory it added
/// to the process, in bytes. Its computations are given `memory` less a sixteenth: they
/// reserve what they allocate against that, and the rest is room for what no reservation
/// counts (the interpreter, its puzzles and values, the allocator's own keeping).
pub fn run(text: &str, limit: Duration, memory: u64, dog: &Watchdog) -> (Outcome, String, u64) {
    reset_peak();
    // What the process holds already (allocator caches, mapped tables) is not the case's.
    let before = status_kb("VmRSS:");
    *PANIC.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let start = Instant::now();
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut it = puz::eval::Interp::new(Box::new(std::io::sink()));
        it.ctl.memory_limit = memory - memory / 16;
        dog.arm(start + limit, it.ctl.flag());
        let r = it.run_source("<fuzz>", text);
        r.err().map(|d| d.render(false))
    }));
    dog.disarm();
    let timed_out = start.elapsed() >= limit;
    let peak = status_kb("VmHWM:").saturating_sub(before);
    let (outcome, detail) = match r {
        Err(_) => {
            let msg = PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
            (Outcome::Panic, msg.unwrap_or_default())
        }
        Ok(_) if timed_out => (Outcome::Timeout, String::new()),
        Ok(None) => (Outcome::Ok, String::new()),
        Ok(Some(msg)) => {
            let first = msg.lines().next().unwrap_or("").trim().to_string();
            (Outcome::Error, first)
        }
    };
    if peak > memory && outcome != Outcome::Panic {
        let detail = format!(
            "{} MiB above what the process held, then {}: {detail}",
            peak >> 20,
            outcome.name()
        );
        return (Outcome::OverMemory, detail, peak);
    }
    (outcome, detail, peak)
}

/// Starts the process's peak resident size afresh (Linux: `clear_refs` 5).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// A size of `/proc/self/status` (`VmHWM:` the peak resident size since the last reset,
/// `VmRSS:` the resident size now), in bytes.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}
