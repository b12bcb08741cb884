//! Defects the fuzzer (`src/bin/puz-fuzz`) and issue 19 found whose diagnostics quote
//! what the machine has (so they are not snapshots under `tests/bad/`): each must be
//! refused with a clear message, not abort or run away.

fn error_of(src: &str) -> String {
    let (_, err) = puz::run_to_string("<test>", src);
    err.unwrap_or_else(|| panic!("{src} should fail"))
}

#[test]
fn a_walk_by_rank_reserves_its_bitset() {
    // D leaves the group at once, so no coordinates are built and the walk is by rank
    // over all 199991877120000 elements: its bitset was allocated unreserved and aborted.
    let e = error_of("use megaminx\nis_hamilton_path(D, <L B, U DR>)");
    assert!(
        e.contains("a bitset of 199991877120000 positions needs 22.7 TiB"),
        "{e}"
    );
}

#[test]
fn a_sparse_search_counts_its_new_layer_before_allocating_it() {
    // Under 1.5 GB of address space the 3x3x3's distance 7 (100 million positions) was
    // allocated and aborted the process; it must be refused with its figure.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1500000; exec '{}' -q -e 'use cube3; distances(group, depth: 8)'",
            env!("CARGO_BIN_EXE_puz")
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("distance 7") && err.contains("needs"), "{err}");
}

#[test]
fn a_full_table_refused_says_the_rule_it_was_refused_by() {
    // It said "needs about 20.3 GiB and only 23.1 GiB is available" when refusing at half.
    let e = error_of("use cube3\ndistances(group)");
    // The message as one line (the renderer wraps it).
    let flat = e
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ");
    let rule = "a full table needs about 9.4 EiB, and a table may take at most half of the";
    assert!(flat.contains(rule), "{e}");
}
