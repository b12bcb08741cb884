//! How a table's fill reports its progress: entries done of the build's total, the
//! distance being filled, and the time left.
//!
//! The time left of a breadth-first fill is not the rate of its entries: its levels cost
//! very different amounts per entry (nxopt's table finds 2.8 G entries at distance 10 in
//! a fifth of the time distance 11 takes for 6.1 G, and distance 11 finds its entries ever
//! more slowly as its unreached ones thin out). A fill that goes level by level over
//! chunks of its table (`coord_fill::levels`) says instead how far the level is in its
//! chunks, whose cost is even: the level's time left follows from that, and it is the
//! table's time left when the fill knows the level to be its last (`sym_fill.rs` in
//! two-bit entries, once its base is chosen). Other levels say their own time left beside
//! their distance, and no time left for the whole.

use puz_core::progress::{Left, Pace};
use puz_core::Control;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How a fill reports its progress: as part of a build of several tables, `before`
/// entries of which are done, `total` in all.
pub(super) struct Meter<'a> {
    pub ctl: &'a Control,
    /// `table 2 of 5 (7 edges)`.
    pub what: String,
    pub before: u64,
    pub total: u64,
    pace: Pace,
    /// Entries this table's fill expects to settle at once at its end (a last level
    /// left out, see `pairs_levels.rs`), counted done from the moment it expects so.
    ahead: AtomicU64,
    /// The level under way: when it began (nanoseconds after `born`), its chunks (0: no
    /// level is counted by chunks) and those done, and whether it is the table's last.
    born: Instant,
    level_at: AtomicU64,
    chunks: AtomicU64,
    chunks_done: AtomicU64,
    last: AtomicBool,
    /// Per level begun, whether it was said to be the last (tests).
    #[cfg(test)]
    pub(super) lasts: std::sync::Mutex<Vec<bool>>,
}

/// A level's time left is foretold once this much of it has passed and this share of
/// its chunks are done (before, a chunk or two of uneven cost would sway it).
const SETTLE: Duration = Duration::from_millis(500);
const SETTLE_SHARE: u64 = 100;

impl<'a> Meter<'a> {
    pub fn new(ctl: &'a Control, what: String, before: u64, total: u64) -> Meter<'a> {
        Meter {
            ctl,
            what,
            before,
            total,
            pace: Pace::new(Duration::from_millis(200)),
            ahead: Default::default(),
            born: Instant::now(),
            level_at: Default::default(),
            chunks: Default::default(),
            chunks_done: Default::default(),
            last: Default::default(),
            #[cfg(test)]
            lasts: Default::default(),
        }
    }

    /// Counts `n` entries done ahead of their fill (0: none; see [`Meter::ahead`]).
    pub(super) fn settle_ahead(&self, n: u64) {
        self.ahead.store(n, Relaxed);
    }

    /// The entries counted done ahead of their fill.
    pub(super) fn ahead(&self) -> u64 {
        self.ahead.load(Relaxed)
    }

    /// The level about to be filled is the table's last (said before
    /// [`Meter::begin_level`]; [`Meter::end_level`] forgets it).
    pub(super) fn last_level(&self) {
        self.last.store(true, Relaxed);
    }

    /// A level of `chunks` chunks begins.
    pub(super) fn begin_level(&self, chunks: u64) {
        self.chunks_done.store(0, Relaxed);
        self.level_at
            .store(self.born.elapsed().as_nanos() as u64, Relaxed);
        self.chunks.store(chunks, Relaxed);
        #[cfg(test)]
        self.lasts.lock().unwrap().push(self.last.load(Relaxed));
    }

    /// A chunk of the level under way is done.
    pub(super) fn chunk_done(&self) {
        self.chunks_done.fetch_add(1, Relaxed);
    }

    /// The level under way is over.
    pub(super) fn end_level(&self) {
        self.chunks.store(0, Relaxed);
        self.last.store(false, Relaxed);
    }

    /// The time left of the whole (see [`Left`]) and of the level under way.
    fn left(&self) -> (Left, Option<Duration>) {
        let chunks = self.chunks.load(Relaxed);
        if chunks == 0 {
            return (Left::ByRate, None);
        }
        let since = Duration::from_nanos(
            (self.born.elapsed().as_nanos() as u64).saturating_sub(self.level_at.load(Relaxed)),
        );
        let level = level_left(since, self.chunks_done.load(Relaxed), chunks);
        match (self.last.load(Relaxed), level) {
            (true, Some(l)) => (Left::Foretold(l), None),
            (_, level) => (Left::Unknown, level),
        }
    }

    /// `filled` entries of this table are done, the frontier at distance `d`.
    pub(super) fn report(&self, d: u8, filled: u64, force: bool) {
        if self.ctl.reporting() && (force || self.pace.due()) {
            let (left, level) = self.left();
            let mut detail = format!("{}, distance {d}", self.what);
            if let Some(l) = level {
                detail.push_str(&format!(
                    " (this distance: {} left)",
                    puz_core::progress::duration(l)
                ));
            }
            self.ctl.step_left(
                "building pattern tables",
                &detail,
                (
                    (self.before + filled + self.ahead()).min(self.total),
                    self.total,
                ),
                "entries",
                left,
            );
        }
    }
}

/// The time left of a level `since` under way with `done` of its `chunks` done, at the
/// rate so far; `None` until it has settled (see [`SETTLE`]) or once it is done.
fn level_left(since: Duration, done: u64, chunks: u64) -> Option<Duration> {
    if since < SETTLE || done == 0 || done * SETTLE_SHARE < chunks || done >= chunks {
        return None;
    }
    Some(since.mul_f64((chunks - done) as f64 / done as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use puz_core::progress::Report;
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_levels_time_left_goes_by_its_chunks() {
        let s = Duration::from_secs;
        assert_eq!(level_left(s(10), 250, 1000), Some(s(30)));
        assert_eq!(level_left(s(10), 1, 1000), None, "too few chunks done");
        assert_eq!(level_left(Duration::from_millis(100), 500, 1000), None);
        assert_eq!(level_left(s(10), 0, 1000), None);
        assert_eq!(level_left(s(10), 1000, 1000), None);
    }

    /// The last level's time left is the whole's; another level's is said beside its
    /// distance, and the whole's is then not known; without chunks, the rate of entries.
    #[test]
    fn the_last_level_foretells_the_whole() {
        let steps = Arc::new(Mutex::new(Vec::new()));
        let seen = steps.clone();
        let ctl = Control::default().with_reports(move |r| {
            if let Report::Step(step) = r {
                seen.lock().unwrap().push((step.detail.clone(), step.left));
            }
        });
        let mut meter = Meter::new(&ctl, "table 1 of 1".into(), 0, 100);
        // Born a minute ago, so that a level can be moved back to begin 4 s ago.
        meter.born = Instant::now()
            .checked_sub(Duration::from_secs(60))
            .unwrap_or(meter.born);
        meter.report(3, 5, true);
        // A level half done, begun long enough ago (moved back by hand).
        let half_done = |last: bool| {
            if last {
                meter.last_level();
            }
            meter.begin_level(10);
            let back = Duration::from_secs(4).as_nanos() as u64;
            meter
                .level_at
                .fetch_sub(back.min(meter.level_at.load(Relaxed)), Relaxed);
            for _ in 0..5 {
                meter.chunk_done();
            }
        };
        half_done(false);
        meter.report(4, 50, true);
        meter.end_level();
        half_done(true);
        meter.report(5, 80, true);
        meter.end_level();
        meter.report(5, 90, true);
        let steps = steps.lock().unwrap();
        assert_eq!(steps[0], ("table 1 of 1, distance 3".into(), Left::ByRate));
        assert!(steps[1]
            .0
            .starts_with("table 1 of 1, distance 4 (this distance: "));
        assert_eq!(steps[1].1, Left::Unknown);
        assert_eq!(steps[2].0, "table 1 of 1, distance 5");
        let Left::Foretold(l) = steps[2].1 else {
            panic!("{:?}", steps[2])
        };
        // Half the chunks in about 4 s: about 4 s left.
        assert!(
            l >= Duration::from_secs(4) && l < Duration::from_secs(5),
            "{l:?}"
        );
        assert_eq!(steps[3].1, Left::ByRate);
    }
}
