//! Profiling aid: the checker's walk on a long synthetic word of `<U,R>` on the 3x3x3
//! (Devil mode, so the whole word is walked): `cargo run --release -p puz-hamilton --example hamilton_walk`.

use puz_core::{Control, Perm, Word};
use puz_hamilton::coords::CoordRanker;
use puz_hamilton::{Checker, Mode};
use puz_testkit::{alphabet, cycles::cube3_ur, letter, parse};
use std::time::Instant;

fn main() {
    let p = cube3_ur();
    let a = alphabet(&p, &["U", "R"]);
    let ctl = Control::default();
    let r = CoordRanker::new(a.perms.clone(), p.degree(), &ctl).unwrap();
    let block = parse(&a, "(U R)105 U' (R U)50 R' U U R' U'", &[]);
    let w = Word::named("B", block).pow(200_000);
    let _ = letter(&a, "U");
    let checker = Checker::new(&a, &r, &ctl).unwrap();
    let id = Perm::identity(p.degree());
    for _ in 0..3 {
        let t = Instant::now();
        let rep = checker.check(&w, &id, Mode::Devil, &ctl).unwrap();
        let dt = t.elapsed();
        println!(
            "Devil walk of {} letters: {} distinct in {dt:.3?} = {:.1} million moves/s",
            w.len(),
            rep.visited,
            w.len() as f64 / dt.as_secs_f64() / 1e6
        );
    }
}
