//! What long computations report while they run, and how a report becomes a plain line.
//!
//! An engine sends [`Report`]s through its [`Control`](crate::Control): a [`Line`]
//! (a stage begun, a result on the way) or a [`Step`] (how far a phase is: done of
//! total, in some unit). The program decides how to show them (a progress bar on a
//! terminal, [`PlainLines`] otherwise, nothing when quiet); engines never draw.
//!
//! [`Line`]: Report::Line
//! [`Step`]: Report::Step

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far one phase of a computation is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What is being done, the same for every step of the phase (`building tables`).
    pub phase: String,
    /// Where within the phase it is now (`table 2 of 5, distance 8`).
    pub detail: String,
    pub done: u64,
    /// 0 when unknown.
    pub total: u64,
    /// What `done` counts (`entries`, `positions`).
    pub unit: &'static str,
}

/// One report of a long computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Line(String),
    Step(Step),
    /// The phase of the last steps is over (a bar is taken down).
    End,
}

impl Step {
    /// The time left (see [`time_left`]).
    pub fn eta(&self, elapsed: Duration) -> Option<Duration> {
        time_left(self.done, self.total, elapsed)
    }

    /// `building tables: 12.0M of 50.0M entries (24%), table 2 of 5, distance 8, 1m 05s left`.
    pub fn line(&self, elapsed: Duration) -> String {
        let mut s = format!("{}: {}", self.phase, count(self.done));
        if self.total > 0 {
            s.push_str(&format!(
                " of {} {} ({}%)",
                count(self.total),
                self.unit,
                self.done * 100 / self.total
            ));
        } else {
            s.push_str(&format!(" {}", self.unit));
        }
        if !self.detail.is_empty() {
            s.push_str(", ");
            s.push_str(&self.detail);
        }
        if let Some(left) = self.eta(elapsed) {
            s.push_str(&format!(", {} left", duration(left)));
        }
        s
    }
}

/// The time left when `done` of `total` took `elapsed`, from the rate since the phase
/// began; `None` when the total is unknown, and before a tenth is done: a breadth-first
/// fill's first levels are a thousandth of its entries and nothing of its time, so an
/// early rate foretells hours for minutes.
pub fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    if total == 0 || done >= total || done < total.div_ceil(10) {
        return None;
    }
    let per = elapsed.as_secs_f64() / done as f64;
    Some(Duration::from_secs_f64(per * (total - done) as f64))
}

/// `950`, `12.3K`, `4.5M`, `1.2G`.
pub fn count(n: u64) -> String {
    let units = [(1e9, "G"), (1e6, "M"), (1e3, "K")];
    for (v, u) in units {
        if n as f64 >= v {
            return format!("{:.1}{u}", n as f64 / v);
        }
    }
    n.to_string()
}

/// `45s`, `3m 05s`, `2h 10m`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h {:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// Turns reports into lines for a log or a pipe: every [`Report::Line`], and at most one
/// line a `every` of the steps of a phase (its first step at once).
pub struct PlainLines {
    every: Duration,
    /// The phase shown last, when it began and when its last line was written.
    state: Mutex<Option<(String, Instant, Instant)>>,
}

impl PlainLines {
    pub fn new(every: Duration) -> PlainLines {
        PlainLines {
            every,
            state: Mutex::new(None),
        }
    }

    /// The line to write for `r`, if any.
    pub fn line(&self, r: &Report) -> Option<String> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match r {
            Report::Line(s) => Some(s.clone()),
            Report::End => {
                *st = None;
                None
            }
            Report::Step(step) => {
                let now = Instant::now();
                match st.as_mut() {
                    Some((phase, begun, last)) if *phase == step.phase => {
                        if now.duration_since(*last) < self.every {
                            return None;
                        }
                        *last = now;
                        Some(step.line(now.duration_since(*begun)))
                    }
                    _ => {
                        *st = Some((step.phase.clone(), now, now));
                        Some(step.line(Duration::ZERO))
                    }
                }
            }
        }
    }
}

/// Says when an engine's loop should report again: at most once a `every` (a cheap
/// check, safe from many threads at once).
pub struct Pace {
    start: Instant,
    every: u64,
    /// Nanoseconds after `start` of the last report granted.
    last: AtomicU64,
}

impl Pace {
    pub fn new(every: Duration) -> Pace {
        Pace {
            start: Instant::now(),
            every: every.as_nanos() as u64,
            last: AtomicU64::new(0),
        }
    }

    /// True at most once a period, to one caller.
    pub fn due(&self) -> bool {
        let now = self.start.elapsed().as_nanos() as u64;
        let last = self.last.load(Ordering::Relaxed);
        now >= last + self.every
            && self
                .last
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(done: u64) -> Report {
        Report::Step(Step {
            phase: "building tables".into(),
            detail: "distance 3".into(),
            done,
            total: 400,
            unit: "entries",
        })
    }

    #[test]
    fn plain_lines_are_rate_limited_per_phase() {
        let p = PlainLines::new(Duration::from_secs(3600));
        assert_eq!(
            p.line(&step(0)).as_deref(),
            Some("building tables: 0 of 400 entries (0%), distance 3")
        );
        // Within the period: nothing, but a line of its own always shows.
        assert_eq!(p.line(&step(100)), None);
        assert_eq!(p.line(&Report::Line("x".into())).as_deref(), Some("x"));
        // A new phase shows at once.
        p.line(&Report::End);
        assert!(p.line(&step(200)).is_some());
        let every = PlainLines::new(Duration::ZERO);
        every.line(&step(0));
        assert!(every.line(&step(1)).is_some());
    }

    #[test]
    fn time_left_follows_the_rate() {
        let Report::Step(s) = step(100) else {
            unreachable!()
        };
        assert_eq!(
            s.eta(Duration::from_secs(10)),
            Some(Duration::from_secs(30))
        );
        assert!(s
            .line(Duration::from_secs(10))
            .ends_with("(25%), distance 3, 30s left"));
        // Before a tenth is done: no time left said.
        let Report::Step(early) = step(39) else {
            unreachable!()
        };
        assert_eq!(early.eta(Duration::from_secs(10)), None);
        assert_eq!(
            early.line(Duration::from_secs(10)),
            "building tables: 39 of 400 entries (9%), distance 3"
        );
        assert_eq!(
            time_left(40, 400, Duration::from_secs(4)),
            Some(Duration::from_secs(36))
        );
        assert_eq!(time_left(400, 400, Duration::from_secs(4)), None);
        assert_eq!(time_left(5, 0, Duration::from_secs(4)), None);
        assert_eq!(count(12_345_678), "12.3M");
        assert_eq!(duration(Duration::from_secs(185)), "3m 05s");
        let pace = Pace::new(Duration::from_secs(3600));
        assert!(!pace.due());
        assert!(Pace::new(Duration::ZERO).due());
    }
}
