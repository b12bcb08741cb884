//! The standard library: every puzzle's `order(group)` equals the order its file
//! declares (Schreier-Sims), and the small ones have that many positions by
//! breadth-first search (no group engine involved).

use puz::eval::Interp;
use std::collections::HashSet;

fn load(src: &str) -> Interp {
    let mut it = Interp::new(Box::new(std::io::sink()));
    it.run_source("test", src)
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    it
}

/// `order(group)` as puz prints it, and the order the puzzle declares.
fn computed_and_declared(src: &str) -> (String, String) {
    let buf = puz::SharedBuf::default();
    let mut it = Interp::new(Box::new(buf.clone()));
    it.run_source("test", &format!("{src}\norder(group)"))
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let declared = it.current.as_ref().unwrap().expected_order().cloned();
    let declared = declared.unwrap_or_else(|| panic!("{src}: no declared order"));
    (buf.take().trim().to_string(), declared.to_string())
}

#[test]
fn every_stdlib_puzzle_has_its_declared_order() {
    let names: Vec<&str> = puz::stdlib::names().collect();
    assert!(names.len() >= 12, "{names:?}");
    for name in names {
        let (computed, declared) = computed_and_declared(&format!("use {name}"));
        assert_eq!(computed, declared, "{name}");
    }
}

#[test]
fn parametric_puzzles_have_their_orders() {
    for src in [
        "use row(2)",
        "use row(6)",
        "use topspin(4)",
        "use topspin(5)",
        "use topspin(6)",
        "use topspin(9)",
        "use topspin(20)",
    ] {
        let (computed, declared) = computed_and_declared(src);
        assert_eq!(computed, declared, "{src}");
    }
    assert_eq!(bfs_count("use topspin(7)"), 2520);
}

/// Positions reachable from the start by the generators of `group`, by BFS.
fn bfs_count(src: &str) -> usize {
    let it = load(src);
    let p = it.current.clone().unwrap();
    let gens: Vec<Vec<u16>> = p
        .gens
        .iter()
        .map(|&m| p.def.moves[m].perm.images().to_vec())
        .collect();
    let start: Vec<u16> = p.identity().images().to_vec();
    let mut seen: HashSet<Vec<u16>> = HashSet::from([start.clone()]);
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for x in &frontier {
            for g in &gens {
                let y: Vec<u16> = x.iter().map(|&i| g[i as usize]).collect();
                if seen.insert(y.clone()) {
                    next.push(y);
                }
            }
        }
        frontier = next;
    }
    seen.len()
}

#[test]
fn small_puzzles_by_breadth_first_search() {
    assert_eq!(bfs_count("use floppy"), 192);
    assert_eq!(bfs_count("use cheese"), 96);
    assert_eq!(bfs_count("use sixpiece"), 360);
    assert_eq!(bfs_count("use row(5)"), 120);
}

#[test]
fn cube2_has_3674160_positions_by_breadth_first_search() {
    assert_eq!(bfs_count("use cube2"), 3_674_160);
}

#[test]
fn facts_needing_no_group_engine() {
    let buf = puz::SharedBuf::default();
    let mut it = Interp::new(Box::new(buf.clone()));
    let src = "use cube3
assert order(R U) == 105
let superflip = U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2
assert order(superflip) == 2
assert superflip U == U superflip
assert (U D) == (D U)
assert (R L) == (L R)
assert (U R) != (R U)
assert order(M) == 4
assert (x U x') == F
use megaminx
assert order(U) == 5
use pyraminx
assert order(U) == 3
use clock
assert order(UR) == 12
use lightsout
assert order(a1) == 2
";
    it.run_source("facts", src)
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
}
