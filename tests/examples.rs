//! Runs every script under `examples/` and `tests/scripts/` and snapshots what it
//! prints (and its diagnostic, if any); runs every file under `tests/bad/` and
//! snapshots its diagnostic, which must exist.

fn render(path: &std::path::Path) -> (String, Option<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    puz::run_to_string(&name, &text)
}

/// What a script that must succeed prints.
fn run_ok(path: &std::path::Path) -> String {
    let (out, err) = render(path);
    if let Some(err) = err {
        panic!("{} failed:\n{err}", path.display());
    }
    out
}

/// Examples that take minutes say so on their first line; they are benchmarks, run by
/// `benches/`, and here only parsed.
const NOT_RUN: &str = "// not run by the tests:";

#[test]
fn examples() {
    insta::glob!("../examples", "**/*.puz", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        if text.starts_with(NOT_RUN) {
            puz::parse_only(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            return;
        }
        insta::assert_snapshot!(run_ok(path))
    });
}

#[test]
fn scripts() {
    insta::glob!("scripts", "**/*.puz", |path| insta::assert_snapshot!(
        run_ok(path)
    ));
}

#[test]
fn bad_inputs() {
    insta::glob!("bad", "*.puz", |path| {
        let (out, err) = render(path);
        let err = err.unwrap_or_else(|| panic!("{} should fail", path.display()));
        insta::assert_snapshot!(format!("{out}---\n{err}"));
    });
}
