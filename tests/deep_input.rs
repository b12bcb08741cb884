//! Deeply nested input works or is refused with a diagnostic; it never overflows the
//! stack or runs for the length of the word it describes.

use std::process::Command;

fn run(src: &str) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("puz-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let f = dir.join(format!("deep{n}.puz"));
    std::fs::write(&f, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg("--raw")
        .arg(&f)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn deep_parentheses_primes_and_sums_work() {
    let (code, out, err) = run(&format!(
        "use cube3\n{}R{}",
        "(".repeat(2500),
        ")".repeat(2500)
    ));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "R");
    let (code, _, err) = run(&format!("use cube3\nR{}", "'".repeat(20_000)));
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(&format!("1{}", "+1".repeat(5000)));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "5001");
}

#[test]
fn nested_commutators_cost_their_depth() {
    // [R, [R, ... U]] 5,000 deep: 4^5000 moves, held and measured in its nested form.
    let (code, out, err) = run(&format!(
        "use cube3\nlet c = {}U{}\norder(c)\nlength([R, [R, [R, U]]])",
        "[R, ".repeat(5000),
        "]".repeat(5000)
    ));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "5\n22", "{out}");
}

#[test]
fn too_deep_is_refused_with_a_diagnostic() {
    let (code, _, err) = run(&format!(
        "use cube3\n{}R{}",
        "(".repeat(20_000),
        ")".repeat(20_000)
    ));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("nested too deeply"), "{err}");
}
