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

#[test]
fn examples() {
    insta::glob!("../examples", "**/*.puz", |path| {
        let (out, err) = render(path);
        assert!(
            err.is_none(),
            "{} failed:\n{}",
            path.display(),
            err.unwrap()
        );
        insta::assert_snapshot!(out);
    });
}

#[test]
fn scripts() {
    insta::glob!("scripts", "**/*.puz", |path| {
        let (out, err) = render(path);
        assert!(
            err.is_none(),
            "{} failed:\n{}",
            path.display(),
            err.unwrap()
        );
        insta::assert_snapshot!(out);
    });
}

#[test]
fn bad_inputs() {
    insta::glob!("bad", "*.puz", |path| {
        let (out, err) = render(path);
        let err = err.unwrap_or_else(|| panic!("{} should fail", path.display()));
        insta::assert_snapshot!(format!("{out}---\n{err}"));
    });
}
