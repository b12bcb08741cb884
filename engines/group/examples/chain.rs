//! Prints the stages of a chain with words and how long building them took:
//! `cargo run --release -p puz-group --example chain -- [cube3|cube2|megaminx|cube4] [ball] [shorten]`.

use puz_core::Control;
use puz_group::{ChainOptions, Group};
use puz_testkit::facelets::{alphabet_with_powers, cube3_gap, cube_facelets, megaminx};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("cube3");
    let moves = match which {
        "cube2" => cube_facelets(2),
        "megaminx" => megaminx(),
        "cube4" => cube_facelets(4),
        "cube5" => cube_facelets(5),
        _ => cube3_gap(),
    };
    let (alpha, _) = alphabet_with_powers(&moves);
    let all: Vec<u32> = (0..alpha.len() as u32).collect();
    let mut opts = ChainOptions {
        words: true,
        ..Default::default()
    };
    if let Some(b) = args.get(2) {
        opts.ball = b.parse().expect("ball size");
    }
    if let Some(s) = args.get(3) {
        opts.shorten_budget = s.parse().expect("shorten budget");
        opts.shorten = opts.shorten_budget > 0;
    }
    let t = Instant::now();
    let ctl = Control::default()
        .with_progress(move |m| eprintln!("{:>8.3}s {m}", t.elapsed().as_secs_f64()));
    let g = Group::new(moves[0].1.degree(), &alpha, &all, &opts, &ctl).expect("builds");
    let elapsed = t.elapsed();
    let stages = g.stages();
    let (mut mean, mut max) = (0.0, 0);
    for (i, s) in stages.iter().enumerate() {
        println!(
            "stage {:>2}: base {:>3}, {:>3} cosets, mean {:>6.2}, max {:>4}",
            i + 1,
            s.base_point,
            s.cosets,
            s.mean_len,
            s.max_len
        );
        mean += s.mean_len;
        max += s.max_len;
    }
    println!(
        "{which}: order {}, {} stages, mean {mean:.2}, max {max}, built with words in {elapsed:?}",
        g.order(),
        stages.len()
    );
}
