//! The parent side: runs the cases in a child process (this program again, `--child`)
//! under an address-space limit, and starts a new child after one dies (abort) or stops
//! answering at five times the time limit (hang). Children print one line as a case
//! starts and one as it ends; the parent regenerates a failing case's text from its
//! seed and number and writes it to the findings folder.

use crate::case::{Outcome, ALL};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct Plan {
    pub seed: u64,
    pub cases: u64,
    pub seconds: Option<u64>,
    pub limit: Duration,
    pub memory: u64,
    pub out: PathBuf,
    pub verbose: bool,
}

/// Counts per outcome, and the defects found (case number, outcome, detail).
#[derive(Default)]
pub struct Report {
    pub counts: BTreeMap<Outcome, u64>,
    pub defects: Vec<(u64, Outcome, String)>,
    pub run: u64,
}

impl Report {
    pub fn summary(&self, secs: f64) -> String {
        let parts: Vec<String> = ALL
            .iter()
            .map(|o| format!("{} {}", o.name(), self.counts.get(o).copied().unwrap_or(0)))
            .collect();
        format!("{} cases in {secs:.0} s: {}", self.run, parts.join(", "))
    }
}

/// The prefix of the child's protocol lines (anything else it prints is ignored).
pub const TAG: &str = "@puz-fuzz";

pub fn drive(plan: &Plan, text_of: &dyn Fn(u64) -> String) -> Report {
    let started = Instant::now();
    let out_of_time = || {
        plan.seconds
            .is_some_and(|s| started.elapsed().as_secs() >= s)
    };
    let mut report = Report::default();
    let work = std::env::temp_dir().join(format!("puz-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&work);
    let _ = std::fs::create_dir_all(&plan.out);
    let mut next = 0;
    while next < plan.cases && !out_of_time() {
        let mut child = Command::new(std::env::current_exe().expect("own path"))
            .args(["--child", "--seed", &plan.seed.to_string()])
            .args([
                "--start",
                &next.to_string(),
                "--cases",
                &plan.cases.to_string(),
            ])
            .args(["--limit-ms", &plan.limit.as_millis().to_string()])
            .args(["--memory-mib", &(plan.memory >> 20).to_string()])
            .current_dir(&work)
            // Pattern tables `optimal` builds are cached here, not in the user's cache.
            .env("XDG_CACHE_HOME", work.join("cache"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start a child");
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut current: Option<(u64, Instant)> = None;
        let hang_after = plan.limit * 5 + Duration::from_secs(1);
        loop {
            let wait = match current {
                Some((_, t)) => hang_after.saturating_sub(t.elapsed()),
                None => Duration::from_secs(60),
            };
            match rx.recv_timeout(wait) {
                Ok(line) => {
                    let Some(rest) = line.strip_prefix(TAG) else {
                        continue;
                    };
                    let mut f = rest.trim().splitn(4, ' ');
                    match (f.next(), f.next().and_then(|i| i.parse::<u64>().ok())) {
                        (Some("start"), Some(i)) => current = Some((i, Instant::now())),
                        (Some("end"), Some(i)) => {
                            let o = f.next().and_then(Outcome::parse).unwrap_or(Outcome::Abort);
                            let detail = f.next().unwrap_or("").to_string();
                            record(&mut report, plan, text_of, i, o, detail);
                            current = None;
                            next = i + 1;
                            if out_of_time() {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    if let Some((i, _)) = current {
                        let d = format!("still running after {} s", hang_after.as_secs());
                        record(&mut report, plan, text_of, i, Outcome::Hang, d);
                        next = i + 1;
                    } else {
                        // The child stopped between cases: start again after the last one.
                        next += 1;
                    }
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                    if let Some((i, _)) = current {
                        record(&mut report, plan, text_of, i, Outcome::Abort, status);
                        next = i + 1;
                    } else if next < plan.cases {
                        next += 1;
                    }
                    break;
                }
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = std::fs::remove_dir_all(&work);
    report
}

fn record(
    report: &mut Report,
    plan: &Plan,
    text_of: &dyn Fn(u64) -> String,
    i: u64,
    o: Outcome,
    detail: String,
) {
    report.run += 1;
    *report.counts.entry(o).or_default() += 1;
    if plan.verbose && !o.is_defect() {
        println!("{} case {i}: {detail}", o.name());
    }
    if o.is_defect() {
        let file = plan
            .out
            .join(format!("{}-seed{}-case{i}.puz", o.name(), plan.seed));
        let _ = std::fs::write(&file, text_of(i));
        println!("{} case {i}: {detail} ({})", o.name(), file.display());
        report.defects.push((i, o, detail));
    }
}
