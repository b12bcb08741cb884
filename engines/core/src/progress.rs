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
    /// The time left as the engine foretells it (see [`Left`]).
    pub left: Left,
}

/// The time left of a phase: from the rate of `done` (the engine knows no better), as the
/// engine foretells it from the work it has left (the rate of `done` can mislead: a
/// table's last level finds its entries ever more slowly), or not known (the engine knows
/// the rate of `done` to mislead and has nothing better to say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Left {
    #[default]
    ByRate,
    Foretold(Duration),
    Unknown,
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
    /// `building tables: 12.0M of 50.0M entries (24%), table 2 of 5, distance 8, 1m 05s left`
    /// (`left`: the time left, see [`Step::left_by`]).
    pub fn line(&self, left: Option<Duration>) -> String {
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
        if let Some(left) = left {
            s.push_str(&format!(", {} left", duration(left)));
        }
        s
    }

    /// The time left to show: the engine's own forecast when it has one, else the rate
    /// of `done` through `eta` (`elapsed` since the phase began).
    pub fn left_by(&self, eta: &Eta, elapsed: Duration) -> Option<Duration> {
        self.left
            .shown(Duration::ZERO, || eta.left(self.done, self.total, elapsed))
    }
}

impl Left {
    /// The time left to show `age` after the engine said this: a forecast counted down
    /// since, nothing when unknown, else `by_rate`.
    pub fn shown(
        self,
        age: Duration,
        by_rate: impl FnOnce() -> Option<Duration>,
    ) -> Option<Duration> {
        match self {
            Left::ByRate => by_rate(),
            Left::Foretold(d) => Some(d.saturating_sub(age)),
            Left::Unknown => None,
        }
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

/// Foretells the time left of one phase from its rate since a tenth of it was done
/// (nothing before): the first tenth of a breadth-first fill holds its sparse levels,
/// slow for their entries, and a rate since the start over it foretold nearly twice the
/// time left of a 3x3x3 table. Nothing until the mark is [`Eta::SETTLE`] old (a new
/// mark when `done` went back before it); the rate since the start ([`time_left`]) when
/// nothing was done since the mark.
#[derive(Debug, Default)]
pub struct Eta {
    /// `elapsed` and `done` when a tenth was first seen done.
    mark: Mutex<Option<(Duration, u64)>>,
}

impl Eta {
    /// How long after the mark its rate is trusted.
    pub const SETTLE: Duration = Duration::from_secs(2);

    pub fn new() -> Eta {
        Eta::default()
    }

    /// The time left when `done` of `total` took `elapsed` since the phase began.
    pub fn left(&self, done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
        let since_start = time_left(done, total, elapsed)?;
        let mut mark = self.mark.lock().unwrap_or_else(|e| e.into_inner());
        let (t0, d0) = *mark.get_or_insert((elapsed, done));
        if done < d0 || elapsed < t0 {
            *mark = Some((elapsed, done));
            return None;
        }
        let (dt, dd) = (elapsed - t0, done - d0);
        if dt < Eta::SETTLE {
            return None;
        }
        if dd == 0 {
            return Some(since_start);
        }
        let per = dt.as_secs_f64() / dd as f64;
        Some(Duration::from_secs_f64(per * (total - done) as f64))
    }
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
    /// The phase shown last, when it began, when its last line was written, and its
    /// time left foretold.
    state: Mutex<Option<(String, Instant, Instant, Eta)>>,
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
                    Some((phase, begun, last, eta)) if *phase == step.phase => {
                        if now.duration_since(*last) < self.every {
                            return None;
                        }
                        *last = now;
                        let left = step.left_by(eta, now.duration_since(*begun));
                        Some(step.line(left))
                    }
                    _ => {
                        let eta = Eta::new();
                        let left = step.left_by(&eta, Duration::ZERO);
                        *st = Some((step.phase.clone(), now, now, eta));
                        Some(step.line(left))
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
            left: Left::ByRate,
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
        let left = time_left(s.done, s.total, Duration::from_secs(10));
        assert_eq!(left, Some(Duration::from_secs(30)));
        assert!(s.line(left).ends_with("(25%), distance 3, 30s left"));
        // Before a tenth is done: no time left said.
        let Report::Step(early) = step(39) else {
            unreachable!()
        };
        assert_eq!(time_left(39, 400, Duration::from_secs(10)), None);
        assert_eq!(
            early.line(None),
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

    /// An engine's forecast goes before the rate of `done`, and "unknown" says nothing.
    #[test]
    fn a_forecast_goes_before_the_rate() {
        let p = PlainLines::new(Duration::ZERO);
        let at = |done: u64, left: Left| {
            let Report::Step(mut s) = step(done) else {
                unreachable!()
            };
            s.left = left;
            p.line(&Report::Step(s)).unwrap()
        };
        at(0, Left::ByRate);
        let foretold = at(100, Left::Foretold(Duration::from_secs(75)));
        assert!(
            foretold.ends_with("(25%), distance 3, 1m 15s left"),
            "{foretold}"
        );
        assert!(!at(200, Left::Unknown).contains("left"));
        // The rate of `done`, where the engine has no forecast: a tenth at the start, so
        // nothing yet (the mark has not settled).
        assert!(!at(300, Left::ByRate).contains("left"));
        // A forecast counts down as it ages (the bar redraws between steps).
        let secs = Duration::from_secs;
        assert_eq!(
            Left::Foretold(secs(10)).shown(secs(4), || None),
            Some(secs(6))
        );
        assert_eq!(
            Left::Foretold(secs(3)).shown(secs(4), || None),
            Some(secs(0))
        );
        assert_eq!(Left::Unknown.shown(secs(0), || Some(secs(1))), None);
        assert_eq!(Left::ByRate.shown(secs(9), || Some(secs(1))), Some(secs(1)));
    }

    #[test]
    fn eta_goes_by_the_rate_since_a_tenth() {
        let secs = Duration::from_secs;
        // A fill whose first tenth (100 of 1,000) took 20 s, then 10 a second.
        let eta = Eta::new();
        assert_eq!(eta.left(99, 1000, secs(19)), None);
        // At the mark and until it settles: nothing.
        assert_eq!(eta.left(100, 1000, secs(20)), None);
        assert_eq!(eta.left(110, 1000, secs(21)), None);
        // Then the rate since the mark: 400 more in 40 s, 500 left.
        assert_eq!(eta.left(500, 1000, secs(60)), Some(secs(50)));
        assert_eq!(time_left(500, 1000, secs(60)), Some(secs(60)));
        // No progress since the mark: the rate since the start.
        let still = Eta::new();
        still.left(200, 1000, secs(10));
        assert_eq!(
            still.left(200, 1000, secs(30)),
            time_left(200, 1000, secs(30))
        );
        // Done going back before the mark (a phase begun again under the same name): a
        // new mark.
        let again = Eta::new();
        again.left(500, 1000, secs(10));
        assert_eq!(again.left(300, 1000, secs(20)), None);
        assert_eq!(again.left(400, 1000, secs(30)), Some(secs(60)));
        assert_eq!(again.left(1000, 1000, secs(40)), None);
        // Nothing until a mark settles, however far the phase is.
        assert_eq!(Eta::new().left(500, 1000, secs(1)), None);
    }
}
