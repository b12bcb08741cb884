//! A fixed sample of the fuzzer (`src/bin/puz-fuzz`): seed 1, the first 4000 cases,
//! each under a one-second limit in a child process. None may panic, abort, or ignore its
//! time limit; the scripts of any that do are written to `target/fuzz-test/`.

use std::process::Command;

#[test]
fn fixed_sample_has_no_panic_abort_or_hang() {
    let out_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/fuzz-test");
    let out = Command::new(env!("CARGO_BIN_EXE_puz-fuzz"))
        .args(["--seed", "1", "--cases", "4000", "--limit-ms", "1000"])
        .args(["--out", out_dir])
        .output()
        .expect("run puz-fuzz");
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = text
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no summary: {text}"));
    let count = |name: &str| -> u64 {
        let at = summary
            .find(&format!("{name} "))
            .unwrap_or_else(|| panic!("no {name} in {summary}"));
        summary[at + name.len() + 1..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count of {name} in {summary}"))
    };
    assert!(summary.starts_with("4000 cases"), "{text}");
    for defect in ["panic", "abort", "hang"] {
        assert_eq!(count(defect), 0, "{defect}s found:\n{text}");
    }
    // The sample must reach the builtins, not stop at syntax errors.
    assert!(count("ok") >= 200, "{text}");
}
