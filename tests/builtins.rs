//! The builtin table is the one source of each builtin's shape: every example it gives
//! runs, and calls that do not fit the declaration are refused with the table's words.

use puz::eval::builtins::TABLE;

/// Every builtin's example runs as written (the slow solvers with small tables).
#[test]
fn every_example_in_the_table_runs() {
    for b in TABLE {
        let (_, err) = puz::run_to_string(b.name, b.example);
        assert!(err.is_none(), "{}: {}\n{}", b.name, b.example, err.unwrap());
    }
}

fn error(src: &str) -> String {
    puz::run_to_string("t", src)
        .1
        .unwrap_or_else(|| panic!("{src} should fail"))
}

#[test]
fn option_kinds_are_checked() {
    let e = error("use cube3; optimal(R U, first: 1)");
    assert!(
        e.contains("`first:` takes true or false, not an integer"),
        "{e}"
    );
    let e = error("use cube3; distances(<U>, depth: true)");
    assert!(e.contains("`depth:` takes a number, not a boolean"), "{e}");
    let e = error("use cube3; distances(<U>, samples: R)");
    assert!(e.contains("`samples:` takes a number"), "{e}");
    let e = error("use cube3; length(R, metric: 3)");
    assert!(
        e.contains("`metric:` takes a metric, not an integer"),
        "{e}"
    );
    let e = error("use cube3; gray(group, cycle: 0)");
    assert!(e.contains("`cycle:` takes true or false"), "{e}");
}

#[test]
fn unknown_and_repeated_options_are_refused() {
    let e = error("use cube3; distances(<U>, dept: 3)");
    assert!(e.contains("`distances` has no option `dept`"), "{e}");
    assert!(e.contains("did you mean `depth:`?"), "{e}");
    let e = error("use cube3; chain(<U>, reps: true, reps: false)");
    assert!(e.contains("`reps:` is given twice"), "{e}");
    let e = error("use cube3; random(group, sed: 1)");
    assert!(e.contains("did you mean `seed:`?"), "{e}");
}

#[test]
fn declared_options_are_accepted() {
    for src in [
        "use cube2; distance_counts(<U, R>, metric: qtm, depth: 2, samples: 1)",
        "use cube3; distances(<U, R>, depth: 2, identify: [x, y])",
        "use cube3; distances(<U, R>, depth: 2, identify: x)",
        "use cube3; check_hamilton(R U, <U, R>, start: R)",
        "use cube3; chain(<U, R>, base: UFR, reps: false)",
        "use cube3; order(stabilizer(group, UFR))",
    ] {
        let (_, err) = puz::run_to_string("t", src);
        assert!(err.is_none(), "{src}: {}", err.unwrap());
    }
}

#[test]
fn a_list_item_of_the_wrong_kind_is_pointed_at() {
    let e = error("use cube3; gray([2, R U])");
    assert!(
        e.contains(
            "`gray` needs a group or a list of numbers here, not a list holding a move sequence"
        ),
        "{e}"
    );
    assert!(e.contains("gray([2, R U])\n") && e.contains("───"), "{e}");
}

#[test]
fn a_list_item_that_is_not_a_location_is_pointed_at() {
    let e = error("use cube3; chain(group, base: [UFR, QQ])");
    assert!(e.contains("no location `QQ`"), "{e}");
}
