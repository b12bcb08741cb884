//! Scripts the fuzzer found running past their time or memory limit, run as the fuzzer
//! runs a case (`puz-fuzz --run`: a time limit whose end sets the cancel flag, a memory
//! limit, the peak resident size measured) one at a time. Each must end as its first line
//! says (`// expect: timeout`, or `error, limit: N ms`, or `timeout, limit: N ms, memory:
//! M MiB`), soon after its time limit and within its memory. The scripts are under `tests/limits/`; those too large to keep
//! as files are written here.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The time limit of a script that does not give one.
const LIMIT_MS: u64 = 500;
/// The memory limit of a case that does not give one (its computations get a sixteenth
/// less).
const MEMORY_MIB: u64 = 512;
/// How long after its time limit a case may still run: a poll of the cancel flag is due
/// every few milliseconds (the machine may be busy with other tests); the defects this
/// keeps away ran on for a quarter of a second to minutes.
const GRACE: Duration = Duration::from_millis(250);

struct Expect {
    outcome: String,
    limit_ms: u64,
    memory_mib: u64,
}

/// `// expect: OUTCOME[, limit: N ms][, memory: M MiB]` on the first line.
fn expectation(text: &str, name: &str) -> Expect {
    let first = text.lines().next().unwrap_or("");
    let rest = first
        .strip_prefix("// expect: ")
        .unwrap_or_else(|| panic!("{name}: the first line must be `// expect: OUTCOME`"));
    let mut parts = rest.split(", ");
    let mut e = Expect {
        outcome: parts.next().unwrap().trim().to_string(),
        limit_ms: LIMIT_MS,
        memory_mib: MEMORY_MIB,
    };
    for p in parts {
        let number = |prefix: &str, unit: &str| {
            p.strip_prefix(prefix)
                .and_then(|n| n.strip_suffix(unit))
                .and_then(|n| n.parse().ok())
        };
        if let Some(ms) = number("limit: ", " ms") {
            e.limit_ms = ms;
        } else if let Some(mib) = number("memory: ", " MiB") {
            e.memory_mib = mib;
        } else {
            panic!("{name}: `{p}` is neither `limit: N ms` nor `memory: M MiB`");
        }
    }
    e
}

/// Runs `text` as a fuzzer case; fails unless it ends as expected, in time and memory.
fn run_case(name: &str, text: &str, expect: &Expect) {
    let dir = std::env::temp_dir().join(format!("puz-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_puz-fuzz"))
        .arg("--run")
        .arg(&file)
        .args(["--limit-ms", &expect.limit_ms.to_string()])
        .args(["--memory-mib", &expect.memory_mib.to_string()])
        .output()
        .expect("run puz-fuzz");
    let _ = std::fs::remove_file(&file);
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // `OUTCOME in SECS s, MIB MiB: DETAIL`
    let mut words = line.split_whitespace();
    let outcome = words
        .next()
        .unwrap_or_else(|| panic!("{name}: no outcome: {stderr}"));
    let secs: f64 = words
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{name}: no time in `{line}`"));
    assert_eq!(outcome, expect.outcome, "{name}: {line}");
    let allowed = Duration::from_millis(expect.limit_ms) + GRACE;
    assert!(
        secs < allowed.as_secs_f64(),
        "{name} ran {secs} s, more than {allowed:?}: {line}"
    );
}

#[test]
fn scripts_end_within_their_limits() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/limits");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".puz"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        run_case(&name, &text, &expectation(&text, &name));
    }
}

/// A puzzle of `n` numbered points with two moves given by their images.
fn puzzle_of(n: usize, a: &[usize], b: &[usize]) -> String {
    let cycles = |p: &[usize]| {
        let mut seen = vec![false; n];
        let mut out = String::new();
        for i in 0..n {
            if seen[i] || p[i] == i {
                continue;
            }
            let mut c = Vec::new();
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                c.push((j + 1).to_string());
                j = p[j];
            }
            out.push_str(&format!("({})", c.join(" ")));
        }
        out
    };
    format!(
        "puzzle p {{\n  points {n}\n  move a = {}\n  move b = {}\n}}\norder(group)\n",
        cycles(a),
        cycles(b)
    )
}

#[test]
fn a_long_cycle_on_many_points_is_refused() {
    // The issue's `points 65536` with a long cycle: the first stage of its chain alone
    // would hold 65536 representatives of 65536 points (16 GiB); it aborted, allocating
    // them before reserving.
    let n = 65536;
    let a: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut b: Vec<usize> = (0..n).collect();
    b.swap(0, 1);
    let expect = Expect {
        outcome: "error".into(),
        limit_ms: 5000,
        memory_mib: MEMORY_MIB,
    };
    run_case("long_cycle.puz", &puzzle_of(n, &a, &b), &expect);
}

#[test]
fn two_random_permutations_of_many_points_are_refused() {
    // The two random permutations on 2,000 points (they generate the symmetric
    // group: a chain of 2,000 stages, 5 GiB).
    let n = 2000;
    let mut state = 12345u64;
    let mut shuffled = || {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.swap(i, (state >> 33) as usize % (i + 1));
        }
        p
    };
    let (a, b) = (shuffled(), shuffled());
    let expect = Expect {
        outcome: "error".into(),
        limit_ms: 5000,
        memory_mib: MEMORY_MIB,
    };
    run_case("two_random.puz", &puzzle_of(n, &a, &b), &expect);
}
