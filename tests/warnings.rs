//! Warnings: said, and the script goes on (issue 19: a puzzle name defined twice, or
//! hiding a standard puzzle, passed without a word).

use std::cell::RefCell;
use std::rc::Rc;

/// What `src` prints, and the warnings it gave (rendered).
fn run(src: &str) -> (String, Vec<String>) {
    let buf = puz::SharedBuf::default();
    let mut it = puz::eval::Interp::new(Box::new(buf.clone()));
    let warnings = Rc::new(RefCell::new(Vec::new()));
    let w = warnings.clone();
    it.warn = Box::new(move |d| w.borrow_mut().push(d.render_warning(false)));
    it.run_source("<test>", src).expect("no error");
    let out = buf.take();
    let w = warnings.borrow().clone();
    (out, w)
}

#[test]
fn a_puzzle_defined_twice_is_said() {
    let (out, w) = run("puzzle p {\n  points 2\n  move a = (1 2)\n}\npuzzle p {\n  points 3\n  move a = (1 2 3)\n}\norder(a)");
    assert_eq!(out.trim(), "3");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("⚠ puzzle `p` is defined again"), "{}", w[0]);
    assert!(w[0].contains("[<test>:5:8]"), "{}", w[0]);
}

#[test]
fn a_puzzle_named_as_a_standard_one_is_said() {
    let (out, w) = run("puzzle floppy {\n  points 2\n  move a = (1 2)\n}\nuse floppy\norder(a)");
    assert_eq!(out.trim(), "2");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("puzzle `floppy` has the name of a standard puzzle"),
        "{}",
        w[0]
    );
}

#[test]
fn using_standard_puzzles_warns_of_nothing() {
    let (out, w) = run("use cube3\nuse floppy\nuse cube3\norder(R)");
    assert_eq!(out.trim(), "4");
    assert!(w.is_empty(), "{w:?}");
}
