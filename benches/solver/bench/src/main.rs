//! Benchmark driver for puz-solver: God's algorithm, sparse distance counts, optimal
//! solving, and KPuzzle definitions of the same puzzles for twips. See ../run.sh.

use puz_core::{Control, Perm, Puzzle};
use puz_group::{ChainOptions, Group};
use puz_solver::gods::{dense, sparse};
use puz_solver::model::Model;
use puz_solver::optimal::Solver;
use puz_solver::{Metric, OptimalOptions, Wanted};
use puz_testkit::cubies::{cube2, cube2_six, cube3};
use puz_testkit::seq;
use rand::{Rng, SeedableRng};
use std::time::Instant;

const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

fn puzzle(name: &str) -> Puzzle {
    match name {
        "cube2" => cube2(),
        "cube2six" => cube2_six(),
        "cube3" => {
            // Faces only (the KPuzzle has no centres): keep corners and edges.
            cube3()
        }
        _ => panic!("unknown puzzle {name}"),
    }
}

fn metric(p: &Puzzle, name: &str) -> Metric {
    let faces: Vec<&str> = FACES
        .iter()
        .copied()
        .filter(|f| p.move_index(f).is_some())
        .collect();
    let ctl = Control::default();
    match name {
        "htm" => Metric::htm(p, &faces, &ctl).unwrap(),
        "qtm" => Metric::qtm(p, &faces, &ctl).unwrap(),
        "atm" => Metric::atm(p, &faces, &ctl).unwrap(),
        "stm" => Metric::stm(p, &faces, &["M", "E", "S"], &ctl).unwrap(),
        _ => panic!("unknown metric {name}"),
    }
}

/// A KPuzzle (cubing.js / twips) definition of the face moves, orbits without the
/// centres (which face moves never move).
fn kpuzzle(p: &Puzzle) -> String {
    let model = Model::new(p).unwrap();
    let orbits: Vec<usize> = (0..p.orbits.len())
        .filter(|&o| p.orbits[o].name != "centres")
        .collect();
    let mut s = String::new();
    s.push_str(&format!("{{\n  \"name\": \"{}\",\n  \"orbits\": [", p.name));
    let defs: Vec<String> = orbits
        .iter()
        .map(|&o| {
            let ob = &p.orbits[o];
            format!(
                "{{ \"orbitName\": \"{}\", \"numPieces\": {}, \"numOrientations\": {} }}",
                ob.name.to_uppercase(),
                ob.size,
                ob.twist
            )
        })
        .collect();
    s.push_str(&defs.join(", "));
    s.push_str("],\n  \"defaultPattern\": {");
    let defs: Vec<String> = orbits
        .iter()
        .map(|&o| {
            let ob = &p.orbits[o];
            let pieces: Vec<String> = (0..ob.size).map(|i| i.to_string()).collect();
            let oris: Vec<String> = (0..ob.size).map(|_| "0".to_string()).collect();
            format!(
                "\"{}\": {{ \"pieces\": [{}], \"orientation\": [{}] }}",
                ob.name.to_uppercase(),
                pieces.join(", "),
                oris.join(", ")
            )
        })
        .collect();
    s.push_str(&defs.join(", "));
    s.push_str("},\n  \"moves\": {\n");
    let mut moves = Vec::new();
    for m in p.moves.iter().filter(|m| FACES.contains(&m.name.as_str())) {
        let a = model.action(&m.perm).unwrap();
        let parts: Vec<String> = orbits
            .iter()
            .map(|&o| {
                let om = &model.orbits[o];
                let perm: Vec<String> = (0..om.size)
                    .map(|b| (a.src[om.start + b] as usize - om.start).to_string())
                    .collect();
                let ori: Vec<String> = (0..om.size)
                    .map(|b| a.add[om.start + b].to_string())
                    .collect();
                format!(
                    "\"{}\": {{ \"permutation\": [{}], \"orientationDelta\": [{}] }}",
                    p.orbits[o].name.to_uppercase(),
                    perm.join(", "),
                    ori.join(", ")
                )
            })
            .collect();
        moves.push(format!("    \"{}\": {{ {} }}", m.name, parts.join(", ")));
    }
    s.push_str(&moves.join(",\n"));
    s.push_str("\n  }\n}\n");
    s
}

/// Asks the cache for `table[i]`.
#[inline(always)]
fn prefetch(table: &[u8], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(table.as_ptr().add(i) as *const i8);
    }
}

/// Look-ups into `tables` 8-edge tables of the 3x3x3 (2.4 GiB each) from random positions,
/// 16 at a time: each prefetch issued right after its index is computed, against every index
/// first and the prefetches in one burst (see `Solver::stage` in puz-solver).
fn lookups(tables: usize) {
    use puz_solver::bigbuf::BigBuf;
    use puz_solver::pdb::Pattern;
    let p = cube3();
    let model = Model::new(&p).unwrap();
    let m = metric(&p, "htm");
    let actions: Vec<_> = m
        .alphabet
        .perms
        .iter()
        .map(|g| model.action(g).unwrap())
        .collect();
    let edges = (0..model.orbits.len())
        .find(|&o| model.orbits[o].size == 12)
        .unwrap();
    let pats: Vec<Pattern> = (0..tables)
        .map(|t| {
            Pattern::new(
                &model,
                edges,
                (0..8).map(|i| ((i + 2 * t) % 12) as u8).collect(),
            )
        })
        .collect();
    let bufs: Vec<BigBuf> = pats
        .iter()
        .map(|pt| BigBuf::new(pt.bytes() as usize, 1))
        .collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let n = model.n;
    let count = 1 << 20;
    let mut states = Vec::with_capacity(count * n);
    let (mut s, mut t) = (model.solved(), model.solved());
    for _ in 0..count {
        for _ in 0..20 {
            model.apply(&actions[rng.gen_range(0..actions.len())], &s, &mut t);
            std::mem::swap(&mut s, &mut t);
        }
        states.extend_from_slice(&s);
    }
    for burst in [false, true, false, true] {
        let t0 = Instant::now();
        let mut sum = 0u64;
        let mut idx = [0usize; 16];
        for (c, chunk) in states.chunks(16 * n).enumerate() {
            let k = c % tables;
            for (j, st) in chunk.chunks(n).enumerate() {
                idx[j] = (pats[k].index(st) >> 1) as usize;
                if !burst {
                    prefetch(&bufs[k], idx[j]);
                }
            }
            if burst {
                for &i in &idx {
                    prefetch(&bufs[k], i);
                }
            }
            for &i in &idx {
                sum += bufs[k][i] as u64;
            }
        }
        let ns = t0.elapsed().as_secs_f64() * 1e9 / count as f64;
        println!(
            "{} tables of {} MiB, 16 look-ups at a time, {}: {ns:.1} ns a look-up ({sum})",
            tables,
            pats[0].bytes() >> 20,
            if burst {
                "prefetches in one burst"
            } else {
                "each prefetch after its index"
            }
        );
    }
}

/// Progress lines with the seconds since the control was made.
fn ctl() -> Control {
    let start = std::time::Instant::now();
    Control::default()
        .with_progress(move |m| eprintln!("  .. {:8.2} s {m}", start.elapsed().as_secs_f64()))
}

/// The group of a metric's letters (for uniformly random states, and their words).
fn letter_group(p: &Puzzle, m: &Metric) -> Group {
    let gens: Vec<u32> = (0..m.len() as u32).collect();
    Group::new(
        p.degree(),
        &m.alphabet,
        &gens,
        &ChainOptions::default(),
        &ctl(),
    )
    .unwrap()
}

/// `PUZ_REFINE=off` keeps every canonical sequence (no refinement, see puz-solver's
/// `redundant.rs`); `PUZ_REFINE=N` refines after N nodes. `PUZ_FINE=off` searches every
/// cost in pairs of first letters ordered by their bound (see puz-solver's `heads.rs`);
/// `PUZ_FINE=X` in fine heads once the cost before took X nodes a head.
fn refine_from_env(opts: &mut OptimalOptions) {
    match std::env::var("PUZ_REFINE").as_deref() {
        Ok("off") => opts.refine_after = None,
        Ok(n) => opts.refine_after = Some(n.parse().expect("PUZ_REFINE: off or a number")),
        Err(_) => {}
    }
    match std::env::var("PUZ_FINE").as_deref() {
        Ok("off") => opts.fine_after = None,
        Ok(n) => opts.fine_after = Some(n.parse().expect("PUZ_FINE: off or a number")),
        Err(_) => {}
    }
}

/// Which solution the `optimal` command asks for: `PUZ_WANTED=first` for the first one any
/// thread finds (as twips does), else the reproducible earliest task's.
fn wanted() -> Wanted {
    match std::env::var("PUZ_WANTED").as_deref() {
        Ok("first") => Wanted::First,
        _ => Wanted::Earliest,
    }
}

/// The cache folder from `PUZ_CACHE` (set and empty: none, the tables built in memory,
/// nothing read or written, as `twsearch --nowrite`), and the second table
/// ([`OptimalOptions::second_table`]) from `PUZ_SECOND_TABLE`: 1 always, 0 never, unset
/// where it pays.
fn cache_from_env(opts: &mut OptimalOptions) {
    if let Ok(dir) = std::env::var("PUZ_CACHE") {
        opts.cache = (!dir.is_empty()).then(|| dir.into());
    }
    opts.second_table = std::env::var("PUZ_SECOND_TABLE").ok().map(|v| v != "0");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match arg(1).as_str() {
        "kpuzzle" => print!("{}", kpuzzle(&puzzle(&arg(2)))),
        "gods" => {
            // gods <cube2|cube2six> <htm|qtm>: dense table over puz-group's ranker.
            let p = puzzle(&arg(2));
            let m = metric(&p, &arg(3));
            let t0 = Instant::now();
            let gens: Vec<u32> = (0..m.len() as u32).collect();
            let g = Group::new(
                p.degree(),
                &m.alphabet,
                &gens,
                &ChainOptions {
                    shorten: false,
                    ..Default::default()
                },
                &ctl(),
            )
            .unwrap();
            let t1 = Instant::now();
            let d = dense(&p, &m, &g, None, 3, &ctl()).unwrap();
            let t2 = Instant::now();
            println!("puz gods {} {}: {:?}", arg(2), arg(3), d.counts);
            println!(
                "puz gods {} {}: total {} God's number {:?}",
                arg(2),
                arg(3),
                d.total(),
                d.gods_number()
            );
            println!(
                "puz gods {} {}: time {:.2} s (chain {:.2} s + table {:.2} s)",
                arg(2),
                arg(3),
                (t2 - t0).as_secs_f64(),
                (t1 - t0).as_secs_f64(),
                (t2 - t1).as_secs_f64()
            );
        }
        "depth" => {
            // depth <metric> <depth>: sparse counts on the 3x3x3.
            let p = cube3();
            let m = metric(&p, &arg(2));
            let depth: usize = arg(3).parse().unwrap();
            let rot: Vec<Perm> = if arg(2) == "stm" {
                vec![seq(&p, "x"), seq(&p, "y")]
            } else {
                vec![]
            };
            let t0 = Instant::now();
            let d = sparse(&p, &m, depth, &rot, 1, &ctl()).unwrap();
            println!(
                "puz depth {} {depth}: {:?} in {:.2} s",
                arg(2),
                d.counts,
                t0.elapsed().as_secs_f64()
            );
        }
        "scrambles" => {
            // scrambles <n> <seed> [moves]: random htm scrambles (16 moves by default), never
            // the face of the move before.
            let n: usize = arg(2).parse().unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(arg(3).parse().unwrap());
            let moves: usize = arg(4).parse().unwrap_or(16);
            for _ in 0..n {
                let mut out = Vec::new();
                let mut last: Option<usize> = None;
                while out.len() < moves {
                    let f = rng.gen_range(0..6);
                    if last == Some(f) {
                        continue;
                    }
                    last = Some(f);
                    out.push(format!(
                        "{}{}",
                        FACES[f],
                        ["", "2", "'"][rng.gen_range(0..3)]
                    ));
                }
                println!("{}", out.join(" "));
            }
        }
        "states" => {
            // states <n> <seed>: the uniformly random 3x3x3 states of `random htm <n> <seed>`,
            // each as a move sequence that makes it (the inverse of its Schreier-Sims word):
            // input for other solvers, which take sequences.
            let p = cube3();
            let m = metric(&p, "htm");
            let n: usize = arg(2).parse().expect("a number of positions");
            let mut rng = rand::rngs::StdRng::seed_from_u64(arg(3).parse().expect("a seed"));
            let g = letter_group(&p, &m);
            for _ in 0..n {
                let pos = g.random(&mut rng);
                let w = g.sift(&pos).expect("an element of the group");
                let text: Vec<String> = w
                    .iter()
                    .rev()
                    .flat_map(|&l| m.spelling[l as usize].iter().rev())
                    .map(|&(mi, k)| {
                        let k = (-k).rem_euclid(4);
                        format!("{}{}", p.moves[mi].name, ["", "", "2", "'"][k as usize])
                    })
                    .collect();
                let line = text.join(" ");
                assert_eq!(seq(&p, &line), pos, "the sequence makes the state");
                println!("{line}");
            }
        }
        "optimal" => {
            // optimal <metric> <file of scrambles> [table MiB]
            let p = cube3();
            let m = metric(&p, &arg(2));
            let mut opts = OptimalOptions::default();
            if let Ok(mb) = arg(4).parse::<u64>() {
                opts.table_memory = Some(mb << 20);
            }
            if let Ok(c) = std::env::var("PUZ_CONJUGATES").map(|v| v.parse::<usize>()) {
                opts.conjugates = c.expect("PUZ_CONJUGATES: a number");
            }
            refine_from_env(&mut opts);
            // PUZ_TABLES=copy reads cached tables into fresh memory instead of mapping them.
            opts.copy_tables = std::env::var("PUZ_TABLES").as_deref() == Ok("copy");
            cache_from_env(&mut opts);
            let t0 = Instant::now();
            let solver = Solver::new(&p, &m, &opts, &ctl()).unwrap();
            println!(
                "puz tables ready in {:.2} s ({} bytes)",
                t0.elapsed().as_secs_f64(),
                solver.table_bytes()
            );
            for t in solver.tables() {
                println!("  {t}");
            }
            let text = std::fs::read_to_string(arg(3)).unwrap();
            let t1 = Instant::now();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let pos = seq(&p, line);
                let ts = Instant::now();
                let r = solver.solve(&pos, wanted(), &ctl()).unwrap();
                println!(
                    "puz optimal {}: {} ({} moves, proved {}, verified {}, {} nodes, {:.2} s)",
                    arg(2),
                    r.solutions[0].text,
                    r.cost,
                    r.proved_optimal,
                    r.verified,
                    r.nodes,
                    ts.elapsed().as_secs_f64()
                );
            }
            println!("puz optimal total: {:.2} s", t1.elapsed().as_secs_f64());
        }
        "values" => {
            // values <metric> [table MiB]: each table's distribution of values and mean (on
            // the tables cached in PUZ_CACHE, built there when missing).
            let p = cube3();
            let m = metric(&p, &arg(2));
            let mut opts = OptimalOptions::default();
            if let Ok(mb) = arg(3).parse::<u64>() {
                opts.table_memory = Some(mb << 20);
            }
            cache_from_env(&mut opts);
            let solver = Solver::new(&p, &m, &opts, &ctl()).unwrap();
            for (what, bytes, h) in solver.histograms() {
                let n: u64 = h.iter().sum();
                let mean = h
                    .iter()
                    .enumerate()
                    .map(|(v, &c)| v as f64 * c as f64)
                    .sum::<f64>()
                    / n as f64;
                let last = h.iter().rposition(|&c| c > 0).unwrap_or(0);
                println!(
                    "puz values {}: {what}: {n} entries ({:.0} MiB), mean {mean:.3}, counts {:?}",
                    arg(2),
                    bytes as f64 / (1 << 20) as f64,
                    &h[..=last]
                );
            }
        }
        "random" => {
            // random <metric> <n> <seed> [table MiB]: optimal solutions of n uniformly random
            // 3x3x3 states (puz-group's uniform random element of the cube group, seeded).
            // PUZ_LIMIT=s gives up a position after s seconds (its searched depths stay in
            // the log, one line a cost with the nodes so far).
            let p = cube3();
            let m = metric(&p, &arg(2));
            let n: usize = arg(3).parse().expect("a number of positions");
            let mut rng = rand::rngs::StdRng::seed_from_u64(arg(4).parse().expect("a seed"));
            let mut opts = OptimalOptions::default();
            if let Ok(mb) = arg(5).parse::<u64>() {
                opts.table_memory = Some(mb << 20);
            }
            cache_from_env(&mut opts);
            if let Ok(c) = std::env::var("PUZ_CONJUGATES").map(|v| v.parse::<usize>()) {
                opts.conjugates = c.expect("PUZ_CONJUGATES: a number");
            }
            refine_from_env(&mut opts);
            let limit: Option<f64> = std::env::var("PUZ_LIMIT").ok().map(|v| v.parse().unwrap());
            let g = letter_group(&p, &m);
            let positions: Vec<Perm> = (0..n).map(|_| g.random(&mut rng)).collect();
            let t0 = Instant::now();
            let solver = Solver::new(&p, &m, &opts, &ctl()).unwrap();
            println!("puz tables ready in {:.2} s", t0.elapsed().as_secs_f64());
            for t in solver.tables() {
                println!("  {t}");
            }
            let mut times = Vec::new();
            for (i, pos) in positions.iter().enumerate() {
                let c = ctl();
                let flag = c.flag();
                let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                let watch = limit.map(|s| {
                    let (flag, done) = (flag.clone(), done.clone());
                    std::thread::spawn(move || {
                        let t = Instant::now();
                        while !done.load(std::sync::atomic::Ordering::Relaxed) {
                            if t.elapsed().as_secs_f64() > s {
                                flag.store(true, std::sync::atomic::Ordering::Relaxed);
                                return;
                            }
                            std::thread::sleep(std::time::Duration::from_millis(100));
                        }
                    })
                });
                let ts = Instant::now();
                let r = solver.solve(pos, wanted(), &c);
                done.store(true, std::sync::atomic::Ordering::Relaxed);
                if let Some(w) = watch {
                    w.join().unwrap();
                }
                let secs = ts.elapsed().as_secs_f64();
                match r {
                    Ok(r) => {
                        times.push(secs);
                        println!(
                            "puz random {} #{i}: {} ({} moves, proved {}, verified {}, {} nodes, {secs:.2} s)",
                            arg(2),
                            r.solutions[0].text,
                            r.cost,
                            r.proved_optimal,
                            r.verified,
                            r.nodes,
                        );
                    }
                    Err(e) => println!(
                        "puz random {} #{i}: not finished ({e}) after {secs:.2} s",
                        arg(2)
                    ),
                }
            }
            times.sort_by(f64::total_cmp);
            if !times.is_empty() {
                println!(
                    "puz random {}: {} solved, mean {:.2} s, median {:.2} s, max {:.2} s",
                    arg(2),
                    times.len(),
                    times.iter().sum::<f64>() / times.len() as f64,
                    times[times.len() / 2],
                    times[times.len() - 1]
                );
            }
        }
        "superflip" => {
            let p = cube3();
            let m = metric(&p, if arg(2).is_empty() { "atm" } else { &args[2] });
            let mut opts = OptimalOptions::default();
            if let Ok(mb) = arg(3).parse::<u64>() {
                opts.table_memory = Some(mb << 20);
            }
            if let Ok(c) = std::env::var("PUZ_CONJUGATES").map(|v| v.parse::<usize>()) {
                opts.conjugates = c.expect("PUZ_CONJUGATES: a number");
            }
            refine_from_env(&mut opts);
            // PUZ_TABLES=copy reads cached tables into fresh memory instead of mapping them.
            opts.copy_tables = std::env::var("PUZ_TABLES").as_deref() == Ok("copy");
            cache_from_env(&mut opts);
            let t0 = Instant::now();
            let solver = Solver::new(&p, &m, &opts, &ctl()).unwrap();
            let t1 = Instant::now();
            for t in solver.tables() {
                println!("  {t}");
            }
            let sf = seq(&p, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
            // Both ways of choosing the solution, or the one PUZ_WANTED names.
            let modes = match std::env::var("PUZ_WANTED").as_deref() {
                Ok("first") => vec![("first", Wanted::First)],
                Ok("earliest") => vec![("earliest", Wanted::Earliest)],
                _ => vec![("earliest", Wanted::Earliest), ("first", Wanted::First)],
            };
            for (name, w) in modes {
                let t2 = Instant::now();
                let r = solver.solve(&sf, w, &ctl()).unwrap();
                println!(
                    "puz superflip {} ({name}): {} ({} turns, proved {}, verified {}, {} nodes) tables {:.2} s, search {:.2} s",
                    m.name,
                    r.solutions[0].text,
                    r.cost,
                    r.proved_optimal,
                    r.verified,
                    r.nodes,
                    (t1 - t0).as_secs_f64(),
                    t2.elapsed().as_secs_f64()
                );
            }
        }
        "lookups" => lookups(arg(2).parse().unwrap_or(3)),
        _ => eprintln!(
            "usage: bench kpuzzle|gods|depth|scrambles|states|optimal|superflip|lookups ..."
        ),
    }
}
