//! Defects the fuzzer (`src/bin/puz-fuzz`) found whose diagnostics quote what the
//! machine has (so they are not snapshots under `tests/bad/`): each must be refused with
//! a clear message, not abort or run away.

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
