//! How the `puz` command shows the progress engines report: a bar on a terminal (phase,
//! done of total, time left), plain lines a second apart otherwise, nothing with
//! `--quiet`. Engines only send [`Report`]s; drawing happens here.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use puz_core::progress::{duration, Eta, Left, PlainLines, Report};
use puz_core::Control;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where the reports go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// A progress bar on standard error (a terminal).
    Bar,
    /// Plain lines on standard error (a log, a pipe).
    Lines,
    Nothing,
}

impl Show {
    /// A bar when standard error is a terminal (and `TERM` is not `dumb`), else lines;
    /// nothing when quiet.
    pub fn detect(quiet: bool) -> Show {
        if quiet {
            Show::Nothing
        } else if std::io::IsTerminal::is_terminal(&std::io::stderr())
            && std::env::var("TERM").map_or(true, |t| t != "dumb")
        {
            Show::Bar
        } else {
            Show::Lines
        }
    }
}

/// A control reporting as `show` says; the returned [`Bars`] takes down a bar left up
/// (call [`Bars::clear`] when a command ends, however it ended).
pub fn attach(ctl: Control, show: Show) -> (Control, Option<Arc<Bars>>) {
    match show {
        Show::Nothing => (ctl, None),
        Show::Lines => {
            let plain = PlainLines::new(Duration::from_secs(1));
            let ctl = ctl.with_reports(move |r| {
                if let Some(line) = plain.line(r) {
                    eprintln!("  {line}");
                }
            });
            (ctl, None)
        }
        Show::Bar => {
            let bars = Arc::new(Bars::default());
            let b = bars.clone();
            (ctl.with_reports(move |r| b.report(r)), Some(bars))
        }
    }
}

/// The bar of the phase being reported, if any.
#[derive(Default)]
pub struct Bars {
    bar: Mutex<Option<(String, ProgressBar)>>,
    /// The time left the last step foretold, and when (the bar redraws between steps).
    foretold: Foretold,
}

type Foretold = Arc<Mutex<Option<(Left, Instant)>>>;

impl Bars {
    fn report(&self, r: &Report) {
        let mut cur = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        match r {
            Report::Line(s) => match cur.as_ref() {
                Some((_, bar)) => bar.println(format!("  {s}")),
                None => eprintln!("  {s}"),
            },
            Report::End => {
                if let Some((_, bar)) = cur.take() {
                    bar.finish_and_clear();
                }
            }
            Report::Step(step) => {
                if cur.as_ref().is_none_or(|(phase, _)| *phase != step.phase) {
                    if let Some((_, old)) = cur.take() {
                        old.finish_and_clear();
                    }
                    let bar = new_bar(step.total, step.unit, self.foretold.clone());
                    bar.set_prefix(step.phase.clone());
                    *cur = Some((step.phase.clone(), bar));
                }
                *self.foretold.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((step.left, Instant::now()));
                let (_, bar) = cur.as_ref().expect("set above");
                if step.total > 0 {
                    bar.set_length(step.total);
                }
                bar.set_position(step.done);
                bar.set_message(step.detail.clone());
            }
        }
    }

    /// Takes down the bar (a computation that stopped early leaves it up).
    pub fn clear(&self) {
        self.report(&Report::End);
    }
}

fn new_bar(total: u64, unit: &str, foretold: Foretold) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        (total > 0).then_some(total),
        ProgressDrawTarget::stderr_with_hz(5),
    );
    let template = if total > 0 {
        format!(
            "  {{prefix}} [{{bar:25}}] {{human_pos}}/{{human_len}} {unit} ({{percent}}%) {{msg}}\
             {{left}}"
        )
    } else {
        format!("  {{spinner}} {{prefix}}: {{human_pos}} {unit} {{msg}}")
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        // The time left as the plain lines say it: the engine's forecast, counted down
        // since it came, else the rate (none before a tenth is done).
        let eta = Arc::new(Eta::new());
        let style = style.with_key(
            "left",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let last = *foretold.lock().unwrap_or_else(|e| e.into_inner());
                let (said, at) = last.unwrap_or((Left::ByRate, Instant::now()));
                let left = said.shown(at.elapsed(), || {
                    eta.left(s.pos(), s.len().unwrap_or(0), s.elapsed())
                });
                if let Some(left) = left {
                    let _ = write!(w, ", {} left", duration(left));
                }
            },
        );
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
