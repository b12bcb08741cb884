//! Benchmark: puz-group against GAP on the same generators.
//!
//! `cargo run --release -p puz-group --example group_bench -- OUT.g` times puz-group on each case
//! (best of three, with its own clock around the computation only), prints
//! `puz <case> <seconds> <result>` lines, and writes OUT.g: a GAP script that builds the
//! same groups from the same generators and prints `gap <case> <seconds> <result>` lines.
//! `benches/group/run.sh` runs both and prints the table.

use num_bigint::BigUint;
use puz_core::{Control, Perm};
use puz_group::{ChainOptions, Group};
use puz_testkit::facelets::{alphabet_with_powers, cube3_gap, cube_facelets, megaminx};
use rand::SeedableRng;
use std::fmt::Write as _;
use std::time::Instant;

const REPEATS: usize = 3;

fn gap_list(perms: &[Perm]) -> String {
    let items: Vec<String> = perms.iter().map(|p| p.to_string()).collect();
    format!("[{}]", items.join(",\n  "))
}

fn build(moves: &[(String, Perm)]) -> Group {
    let (alpha, firsts) = alphabet_with_powers(moves);
    let degree = moves[0].1.degree();
    let opts = ChainOptions {
        words: false,
        ..Default::default()
    };
    Group::new(degree, &alpha, &firsts, &opts, &Control::default()).expect("builds")
}

fn best<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..REPEATS {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("ran"))
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "bench.g".to_string());
    let mut gap = String::new();
    writeln!(gap, "Best := function(f) local b, i, t, r; b := infinity;").unwrap();
    writeln!(gap, "  for i in [1..{REPEATS}] do t := NanosecondsSinceEpoch(); r := f(); t := NanosecondsSinceEpoch() - t;").unwrap();
    writeln!(
        gap,
        "    if t < b then b := t; fi; od; return [b / 10^9, r]; end;;"
    )
    .unwrap();
    writeln!(gap, "Report := function(name, br) Print(\"gap \", name, \" \", Float(br[1]), \" \", br[2], \"\\n\"); end;;").unwrap();
    let cases: Vec<(&str, Vec<(String, Perm)>)> = vec![
        ("cube3-order", cube3_gap()),
        ("megaminx-order", megaminx()),
        ("cube4-order", cube_facelets(4)),
        ("cube5-order", cube_facelets(5)),
    ];
    for (name, moves) in &cases {
        let perms: Vec<Perm> = moves.iter().map(|m| m.1.clone()).collect();
        let (t, order): (f64, BigUint) = best(|| build(moves).order());
        println!("puz {name} {t:.6} {order}");
        writeln!(gap, "gens := {};;", gap_list(&perms)).unwrap();
        writeln!(
            gap,
            "Report(\"{name}\", Best(function() return Size(Group(gens)); end));"
        )
        .unwrap();
    }
    // The stabiliser of 25 points of the Megaminx (10 corners and 15 edges, each with
    // its orientation), the group's chain built beforehand.
    let moves = megaminx();
    let g = build(&moves);
    let points: Vec<usize> = (0..10)
        .map(|c| 3 * c)
        .chain((0..15).map(|e| 60 + 2 * e))
        .collect();
    let ctl = Control::default();
    let (t, order) = best(|| g.stabilizer_of(&points, &ctl).expect("stabiliser").order());
    println!("puz megaminx-stabilizer-25 {t:.6} {order}");
    let perms: Vec<Perm> = moves.iter().map(|m| m.1.clone()).collect();
    let gap_points: Vec<String> = points.iter().map(|p| (p + 1).to_string()).collect();
    // A group of its own for each repeat, its chain built beforehand: GAP keeps what a
    // stabiliser computation learnt on the group, and a second call takes a tenth.
    writeln!(gap, "gens := {};;", gap_list(&perms)).unwrap();
    writeln!(
        gap,
        "Hs := List([1..{REPEATS}], i -> Group(gens));; List(Hs, Size);; k := 0;;"
    )
    .unwrap();
    writeln!(
        gap,
        "Report(\"megaminx-stabilizer-25\", Best(function() k := k + 1; return Size(Stabilizer(Hs[k], [{}], OnTuples)); end));",
        gap_points.join(", ")
    )
    .unwrap();
    // Membership of 1000 random elements of the 3x3x3 group (chain built beforehand).
    let moves = cube3_gap();
    let g = build(&moves);
    let mut rng = rand::rngs::StdRng::seed_from_u64(2024);
    let elts: Vec<Perm> = (0..1000).map(|_| g.random(&mut rng)).collect();
    let (t, all) = best(|| elts.iter().all(|x| g.contains(x)));
    println!("puz cube3-member-1000 {t:.6} {all}");
    let perms: Vec<Perm> = moves.iter().map(|m| m.1.clone()).collect();
    writeln!(gap, "G := Group({});; Size(G);;", gap_list(&perms)).unwrap();
    writeln!(gap, "elts := {};;", gap_list(&elts)).unwrap();
    writeln!(
        gap,
        "Report(\"cube3-member-1000\", Best(function() return ForAll(elts, x -> x in G); end));"
    )
    .unwrap();
    // Rank of a member (the hot call of the Hamilton and solver engines), per call.
    let mut scratch = puz_group::Scratch::default();
    let t = Instant::now();
    let mut acc = 0u64;
    let rounds = 200;
    for _ in 0..rounds {
        for x in &elts {
            acc = acc.wrapping_add(g.rank_big(x).map_or(0, |_| 1));
        }
    }
    let _ = acc;
    let big_ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * elts.len()) as f64;
    let t = Instant::now();
    let mut hits = 0;
    for _ in 0..rounds {
        for x in &elts {
            hits += g.contains_with(x, &mut scratch) as usize;
        }
    }
    let member_ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * elts.len()) as f64;
    assert_eq!(hits, rounds * elts.len());
    println!("info cube3 contains_with {member_ns:.0} ns/call, rank_big {big_ns:.0} ns/call");
    // Rank and unrank on the 2x2x2 <U, R, F> (order fits u64).
    let c2 = cube_facelets(2);
    let g2 = build(&c2);
    let x2: Vec<Perm> = (0..1000).map(|_| g2.random(&mut rng)).collect();
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..rounds {
        for x in &x2 {
            sum = sum.wrapping_add(g2.rank_with(x, &mut scratch).expect("member"));
        }
    }
    let rank_ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * x2.len()) as f64;
    let mut buf = vec![0u16; g2.degree()];
    let size = g2.order().try_into().unwrap_or(u64::MAX);
    let t = Instant::now();
    for r in 0..(rounds as u64 * 1000) {
        g2.unrank_into((r * 7919) % size, &mut buf);
        sum = sum.wrapping_add(buf[0] as u64);
    }
    let unrank_ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * 1000) as f64;
    println!("info cube2 (24 facelets, order {}) rank_with {rank_ns:.0} ns/call, unrank_into {unrank_ns:.0} ns/call ({sum})", g2.order());
    std::fs::write(&out, gap).expect("write the GAP script");
}
