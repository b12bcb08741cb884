//! A diagnostic on a very long line (issue 19: a 200 KB line was echoed whole, and an
//! error past column 65535 made the renderer panic) shows the part around the place it
//! points at, with the line and column of the source.

fn error_of(src: &str) -> String {
    let (_, err) = puz::run_to_string("<test>", src);
    err.unwrap_or_else(|| panic!("should fail"))
}

#[test]
fn an_error_early_on_a_long_line_shows_its_start() {
    let src = format!("use cube3\nlet R = {}\n", "R U ".repeat(50_000));
    let e = error_of(&src);
    assert!(e.len() < 2000, "{} bytes:\n{e}", e.len());
    assert!(e.contains("[<test>:2:5]"), "{e}");
    assert!(e.contains(" 2 │ let R = R U R U"), "{e}");
    assert!(e.contains("R…"), "{e}");
}

#[test]
fn an_error_far_along_a_long_line_keeps_its_column() {
    let src = format!(
        "use cube3; let x = {}R )\norder(R)\n",
        "R U ".repeat(50_000)
    );
    let e = error_of(&src);
    assert!(e.len() < 2000, "{} bytes:\n{e}", e.len());
    assert!(e.contains("[<test>:1:200022]"), "{e}");
    assert!(e.contains(" 1 │ …U R U R"), "{e}");
    assert!(e.contains(" 2 │ order(R)"), "{e}");
}
