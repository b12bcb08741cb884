//! `save(w, "file")` and `use "file"`: a word written as its definitions reads back as
//! the same word, sharing kept, and a damaged file is refused.

use puz::run_to_string;

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("puz-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

#[test]
fn saved_words_read_back_equal() {
    let f = tmp("w.puz");
    let (out, err) = run_to_string(
        "save.puz",
        &format!(
            "use cube3\nlet Sx = R U R' U'\nlet w = (Sx)6 [Sx: U]2 Sx' (Sx U)^1000000000000\nsave(w, \"{f}\")"
        ),
    );
    assert!(err.is_none(), "{err:?}");
    assert!(out.contains("5000000000046 moves"), "{out}");
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains("let Sx = R U R' U'"), "{text}");
    assert!(text.lines().count() < 10, "{text}");
    let (out, err) = run_to_string(
        "load.puz",
        &format!(
            "use \"{f}\"\nlength(w)\nw == (R U R' U')6 [R U R' U': U]2 (R U R' U')' (R U R' U' U)^1000000000000"
        ),
    );
    assert!(err.is_none(), "{err:?}");
    assert_eq!(out.trim(), "5000000000046\ntrue");
}

#[test]
fn a_damaged_file_is_refused() {
    let f = tmp("d.puz");
    let (_, err) = run_to_string(
        "save.puz",
        &format!("use cube3\nlet w = (R U)^105 (R' U')5\nsave(w, \"{f}\")"),
    );
    assert!(err.is_none(), "{err:?}");
    let text = std::fs::read_to_string(&f).unwrap();
    // Edited: one repetition count changed.
    std::fs::write(&f, text.replace("^105", "^104")).unwrap();
    let (_, err) = run_to_string("load.puz", &format!("use \"{f}\""));
    assert!(
        err.unwrap().contains("assert"),
        "an edited count must fail the check"
    );
    // Truncated: the last lines are gone.
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&f, cut[..cut.len() - 2].join("\n")).unwrap();
    let (out, err) = run_to_string("load.puz", &format!("use \"{f}\"\nlength(w)"));
    assert!(err.is_some(), "a truncated file must not define w: {out}");
}

/// A cycle of 88,179,840 moves built along a chain, saved, then read back and checked
/// in a fresh process, by cosets and by the walk.
#[test]
fn a_saved_cycle_is_checked_in_a_fresh_process() {
    let f = tmp("cycle.puz");
    let (out, err) = run_to_string(
        "save.puz",
        &format!(
            "use cube2\nlet h = hamilton(<U, R, D>, chain: [<U, R>, <U, R, D>])\nsave(h, \"{f}\")"
        ),
    );
    assert!(err.is_none(), "{err:?}");
    assert!(out.contains("88179840 moves"), "{out}");
    let script = tmp("check.puz");
    std::fs::write(
        &script,
        format!(
            "use \"{f}\"\ncheck_hamilton(h, <U, R, D>, chain: [<U, R>])\ncheck_hamilton(h, <U, R, D>)\n"
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["--quiet", &script])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.matches("Hamilton cycle of <U, R, D>: 88179840 moves")
            .count(),
        2,
        "{text}"
    );
}

/// A source past `CHUNKED` bytes runs one statement at a time (a saved word of hundreds of
/// megabytes reads back without holding its whole parse): the results are those of the
/// whole parse, and an error points at its line in the file.
#[test]
fn long_sources_run_statement_by_statement() {
    let n = puz::eval::CHUNKED / 24 + 1000;
    let mut text =
        String::from("use cube3\npuzzle p {\n  orbit a 2\n  move S = (0 1)\n}\nuse cube3\n");
    for i in 0..n {
        text.push_str(&format!("let a{i} = R U R' U' // {i}\n"));
    }
    text.push_str(&format!("let w = [a{}, a0]\nlength(w)\n", n - 1));
    assert!(text.len() > puz::eval::CHUNKED);
    let (out, err) = puz::run_to_string("long.puz", &text);
    assert_eq!(err, None);
    assert!(out.trim_end().ends_with("16"), "{out}");
    let bad = format!("{text}let z = R Q\n");
    let (_, err) = puz::run_to_string("long.puz", &bad);
    let err = err.expect("an unknown move is an error");
    let line = n + 9;
    assert!(err.contains(&format!("long.puz:{line}:")), "{err}");
}

#[test]
fn a_file_not_utf8_is_refused_with_the_place_of_its_first_bad_byte() {
    // It said only "stream did not contain valid UTF-8".
    let f = tmp("latin1.puz");
    std::fs::write(&f, b"use cube3\nlet caf\xe9 = R U\n").unwrap();
    let (_, err) = run_to_string("use.puz", &format!("use \"{f}\""));
    let err = err.expect("refused");
    // The message as one line (the renderer wraps it where the path's length puts it).
    let flat = err
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("not UTF-8 text: byte 17 (line 2, column 8) is 0xE9"),
        "{err}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("byte 17 (line 2, column 8)"), "{err}");
}
