//! Times the order of one model, for profiling:
//! `cargo run --release -p puz-group --example order -- [cube3|cube4|cube5|megaminx] [repeats]`.

use puz_core::Control;
use puz_group::{ChainOptions, Group};
use puz_testkit::facelets::{alphabet_with_powers, cube3_gap, cube_facelets, megaminx};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = match args.get(1).map(String::as_str).unwrap_or("cube4") {
        "cube3" => cube3_gap(),
        "cube5" => cube_facelets(5),
        "megaminx" => megaminx(),
        _ => cube_facelets(4),
    };
    let repeats: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let (alpha, firsts) = alphabet_with_powers(&moves);
    let opts = ChainOptions {
        words: false,
        ..Default::default()
    };
    let t = Instant::now();
    let mut order = Default::default();
    for _ in 0..repeats {
        let g = Group::new(
            moves[0].1.degree(),
            &alpha,
            &firsts,
            &opts,
            &Control::default(),
        )
        .expect("builds");
        order = g.order();
    }
    println!(
        "order {order} in {:?} per build",
        t.elapsed() / repeats as u32
    );
}
