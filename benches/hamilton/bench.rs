//! Benchmark of puz-hamilton (run with `cargo run --release -p puz-hamilton --example hamilton_bench`):
//! the time of `hamilton(G)` and the checker's moves per second on the 3,674,160-move cycle
//! of the 2x2x2 with U, R, F (quarter turns) and the 73,483,200-move cycle of `<U,R>` on
//! the 3x3x3. Pass `small` as the first argument to skip the 3x3x3, `words` to print only
//! a fingerprint of the words `hamilton(G)` returns for the small test puzzles and the
//! 2x2x2 (length, hashes of the letters and of the nested form, the search's stats), to
//! compare a refactoring's output exactly.

use puz_core::{Control, Perm, Ranker};
use puz_hamilton::coords::CoordRanker;
use puz_hamilton::{check, hamilton_stats, Checker, Kind, Mode};
use puz_testkit::alphabet;
use puz_testkit::cycles::{cheese, cube2, cube3_ur, floppy, row, six_piece, topspin, topspin_st};
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// A hash that is the same from run to run (SipHash with fixed keys).
fn hash_of(x: &impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// Prints what `hamilton(G)` returns, in a form to compare between builds.
fn fingerprint(name: &str, p: &puz_core::Puzzle, moves: &[&str]) {
    let ctl = Control::default();
    let a = alphabet(p, moves);
    let r = CoordRanker::new(a.perms.clone(), p.degree(), &ctl).unwrap();
    let t = Instant::now();
    let (w, stats) = hamilton_stats(&a, &r, &ctl).unwrap();
    let dt = t.elapsed();
    let letters: Vec<u32> = w.stream(&a).collect();
    println!(
        "{name}: {} letters, letters hash {:016x}, nested hash {:016x}, {stats:?}",
        w.len(),
        hash_of(&letters),
        hash_of(&w.display(&a)),
    );
    eprintln!("{name}: hamilton(G) in {dt:.2?}");
}

fn bench(name: &str, p: &puz_core::Puzzle, moves: &[&str]) {
    let ctl = Control::default().with_progress(|m| eprintln!("  {m}"));
    let a = alphabet(p, moves);
    let t = Instant::now();
    let r = CoordRanker::new(a.perms.clone(), p.degree(), &ctl).unwrap();
    println!(
        "{name}: group of {} positions ranked (CoordRanker) in {:.2?}",
        r.size().unwrap(),
        t.elapsed()
    );
    let t = Instant::now();
    let (w, stats) = hamilton_stats(&a, &r, &ctl).unwrap();
    let ht = t.elapsed();
    println!("{name}: hamilton(G) in {ht:.2?} (including its own verification): {stats:?}");
    let shown = w.display(&a);
    println!(
        "{name}: word of {} letters, starts {}",
        w.len(),
        &shown[..shown.len().min(100)]
    );
    let id = Perm::identity(p.degree());
    let t = Instant::now();
    let mut checker = Checker::new(&a, &r, &ctl).unwrap();
    println!("{name}: checker tables built once in {:.3?}", t.elapsed());
    for parallel in [false, true] {
        checker.parallel = parallel;
        for run in 0..3 {
            let t = Instant::now();
            let rep = checker.check(&w, &id, Mode::Hamilton, &ctl).unwrap();
            let dt = t.elapsed();
            assert_eq!(rep.kind, Kind::Cycle);
            println!(
                "{name}: Checker::check run {run} (Hamilton, parallel {parallel}): {:?} in {dt:.3?} = {:.1} million moves/s",
                rep.kind,
                w.len() as f64 / dt.as_secs_f64() / 1e6
            );
        }
    }
    let t = Instant::now();
    let rep = checker.check(&w, &id, Mode::Devil, &ctl).unwrap();
    let dt = t.elapsed();
    println!(
        "{name}: Devil mode (sequential): all seen at {:?} in {dt:.3?} = {:.1} million moves/s",
        rep.all_seen_at,
        w.len() as f64 / dt.as_secs_f64() / 1e6
    );
    let t = Instant::now();
    let rep = check(&w, &a, &id, &r, Mode::Hamilton, &ctl).unwrap();
    let dt = t.elapsed();
    println!(
        "{name}: one-shot check() including its tables: {:?} in {dt:.3?} = {:.1} million moves/s",
        rep.kind,
        w.len() as f64 / dt.as_secs_f64() / 1e6
    );
}

fn main() {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("words") {
        fingerprint("floppy <R,L,F,B>", &floppy(), &["R", "L", "F", "B"]);
        fingerprint("cheese <H0,H1,H2>", &cheese(), &["H0", "H1", "H2"]);
        fingerprint("six-piece <R,L,U>", &six_piece(), &["R", "L", "U"]);
        fingerprint("six-piece <R,L>", &six_piece(), &["R", "L"]);
        fingerprint("row 5", &row(5), &["S0", "S1", "S2", "S3"]);
        fingerprint("topspin 6 <T0,T1,T2>", &topspin(6), &["T0", "T1", "T2"]);
        fingerprint("topspin 6 <S,T>", &topspin_st(6), &["S", "T"]);
        fingerprint("topspin 7 <S,T>", &topspin_st(7), &["S", "T"]);
        fingerprint("2x2x2 <U,R>", &cube2(), &["U", "R"]);
        fingerprint("2x2x2 <U,R,F>", &cube2(), &["U", "R", "F"]);
        return;
    }
    let small = arg.as_deref() == Some("small");
    println!("threads: {}", rayon::current_num_threads());
    bench("2x2x2 <U,R,F>", &cube2(), &["U", "R", "F"]);
    if !small {
        bench("3x3x3 <U,R>", &cube3_ur(), &["U", "R"]);
    }
}
