//! Norskog's chain on the 3x3x3 in the quarter-turn metric (run with `cargo run --release
//! -p puz-hamilton --example hamilton_chain`): a Hamilton cycle of `<U,R>` by the search,
//! then of `<U,R,D>` (2,177,280 cosets of `<U,R>`) and `<U,R,D,L>` (132 cosets of
//! `<U,R,D>`) by commuting splices, as nested words with shared sub-words. Each word is
//! checked by its memoised length (the group's order) and product (the identity), and
//! random pieces of it are walked (no position twice, every position in the group).
//! `effect "R' U R U' R" 4` as the arguments: then also a Hamilton path of `<U,R,D,L>`
//! with that effect (Norskog's `R'U'R`, `R'URU'R`, `U'R'U` for the `F` level): rotations
//! of the `<U,R>` cycle, carried up the same levels.
//! Prints times and the peak resident memory. `ring` as the first argument starts the
//! `<U,R,D>` level with Norskog's 63 cosets `(P_{R'} D)^63`.

use puz_core::{Alphabet, Control, Perm, Word};
use puz_group::cosets::CosetKeys;
use puz_group::Group;
use puz_hamilton::chain::balance::{census, depth, FANOUT};
use puz_hamilton::chain::{balance, commuting_level, CosetKey, Measure, SpliceOptions};
use puz_testkit::{alphabet, letter};
use std::collections::HashSet;
use std::time::Instant;

struct Keys(CosetKeys);

impl CosetKey for Keys {
    fn order(&self) -> u128 {
        self.0.order_u128()
    }
    fn coset_key(&self, x: &[u16], out: &mut Vec<u16>) {
        self.0.left_key(x, out)
    }
}

fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_default()
}

/// Walks `pieces` random stretches of `len` letters: no position twice, all in `g`.
fn walk_pieces(w: &Word, a: &Alphabet, g: &Group, pieces: usize, len: u128, seed: u64) {
    let n = a.perms[0].degree();
    let mut m = Measure::new(a, n);
    let total = m.len(w);
    let mut s = seed;
    for _ in 0..pieces {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let from = (s as u128 * 0x9E37_79B9_7F4A_7C15u128) % (total - len);
        let piece = m.slice(w, from, from + len);
        let mut p = m.prefix(w, from);
        let mut seen = HashSet::new();
        assert!(g.contains(&p));
        seen.insert(p.clone());
        for l in piece.stream(a) {
            p.then_assign(&a.perms[l as usize]);
            assert!(
                seen.insert(p.clone()),
                "a position twice near letter {from}"
            );
        }
        assert!(g.contains(&p));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ring = args.first().map(|s| s.as_str()) == Some("ring");
    // `full`: the whole cube, the F level joining 2,048 cosets of <U,R,D,L> by gadgets.
    let full = args.first().map(|s| s.as_str()) == Some("full");
    // `effect TEXT ROTATIONS`: also a Hamilton path of <U,R,D,L> with that effect.
    let effect: Option<(String, usize)> = (args.first().map(|s| s.as_str()) == Some("effect"))
        .then(|| {
            (
                args[1].clone(),
                args[2].parse().expect("a number of rotations"),
            )
        });
    let ctl = Control::default().with_progress(|m| eprintln!("  {m}"));
    let p = puz_testkit::cubies::cube3();
    let moves = ["U", "R", "D", "L", "F"];
    let a = alphabet(&p, &moves);
    let n = p.degree();
    let t = Instant::now();
    let gs: Vec<Group> = (1..=moves.len())
        .map(|k| {
            let ls: Vec<u32> = moves[..k].iter().map(|m| letter(&a, m)).collect();
            Group::new(n, &a, &ls, &Default::default(), &ctl).unwrap()
        })
        .collect();
    let orders: Vec<u128> = gs.iter().map(|g| g.order().try_into().unwrap()).collect();
    println!("groups {orders:?} in {:.2?}", t.elapsed());

    let t = Instant::now();
    let sub = Alphabet::new(a.names[..4].to_vec(), a.perms[..4].to_vec()).unwrap();
    let base = puz_hamilton::hamilton(&sub, &gs[1], &ctl).unwrap();
    let base = balance(&base, FANOUT);
    println!(
        "<U,R>: hamilton search and balance {:.2?}, depth {}, {:?} (nodes, items); peak {}",
        t.elapsed(),
        depth(&base),
        census(&base),
        peak_rss()
    );

    let mut word = base.clone();
    let mut cycles = vec![Word::empty(), base.clone()];
    for k in 2..4 {
        let t = Instant::now();
        let below = Keys(CosetKeys::new(&gs[k - 1], Some(&gs[k]), &ctl).unwrap());
        let opts = SpliceOptions {
            ring: (ring && k == 2).then(|| letter(&a, "R'")),
            ..Default::default()
        };
        let d = letter(&a, moves[k]);
        let (w, stats) = commuting_level(&a, &word, &below, orders[k], d, &opts, &ctl).unwrap();
        let built = t.elapsed();
        let t = Instant::now();
        let mut m = Measure::new(&a, n);
        let len = m.len(&w);
        let id = m.product(&w).is_identity();
        println!(
            "level {k} (+{}): built in {built:.2?}: {stats:?}; length {len} (order {}), product identity {id}, measured in {:.2?}; depth {}, {:?} (nodes, items); peak {}",
            moves[k],
            orders[k],
            t.elapsed(),
            depth(&w),
            census(&w),
            peak_rss()
        );
        assert_eq!(len, orders[k]);
        assert!(id);
        let t = Instant::now();
        walk_pieces(&w, &a, &gs[k], 20, 200_000, 7 + k as u64);
        println!(
            "level {k}: 20 random pieces of 200,000 letters walked in {:.2?}",
            t.elapsed()
        );
        cycles.push(w.clone());
        word = w;
    }

    // Hamilton paths of <U,R,D,L> with Norskog's effects for the F level: of <U,R> by
    // rotations of its cycle, then carried up by the commuting splices (which keep the
    // effect), each checked by its length and product.
    for (text, rotations) in effect.iter().map(|(t, r)| (t.as_str(), *r)) {
        let t = Instant::now();
        let e = puz_testkit::parse(&a, text, &[]).eval(&a, n);
        let mut path =
            puz_hamilton::chain::posa::rotated_path(&sub, &cycles[1], &gs[1], &e, rotations, &ctl)
                .unwrap()
                .expect("rotations give the effect");
        println!("{text}: path of <U,R> in {:.2?}", t.elapsed());
        for k in 2..4 {
            let t = Instant::now();
            let below = Keys(CosetKeys::new(&gs[k - 1], Some(&gs[k]), &ctl).unwrap());
            let opts = SpliceOptions {
                path: Some(path.clone()),
                ..Default::default()
            };
            let d = letter(&a, moves[k]);
            let (w, stats) =
                commuting_level(&a, &cycles[k - 1], &below, orders[k], d, &opts, &ctl).unwrap();
            let mut m = Measure::new(&a, n);
            let len = m.len(&w);
            let ok = m.product(&w) == e;
            println!(
                "{text}: Hamilton path of level {k} in {:.2?}: {} cosets, length {len} (order - 1 = {}), effect {ok}; peak {}",
                t.elapsed(),
                stats.cosets,
                orders[k] - 1,
                peak_rss()
            );
            assert!(ok && len + 1 == orders[k]);
            path = w;
        }
    }
    if full {
        f_level(&a, &sub, &gs, &orders, &cycles, &ctl);
    }
    let _ = Perm::identity(n);
}

/// Norskog's last level: Hamilton paths of `<U,R,D,L>` with the effects of `R`, `R'`,
/// `U`, `U'` (from its cycle), `R'U'R` and `R'URU'R` (rotations of the `<U,R>` cycle,
/// carried up) and their inverses; gadgets of 3 and 5 cosets found by the search; the
/// 2,048 cosets joined.
fn f_level(
    a: &Alphabet,
    sub: &Alphabet,
    gs: &[Group],
    orders: &[u128],
    cycles: &[Word],
    ctl: &Control,
) {
    use puz_hamilton::chain::joins;
    use puz_hamilton::chain::measure::inverse;
    let n = a.perms[0].degree();
    let t0 = Instant::now();
    let moves = ["U", "R", "D", "L", "F"];
    let mut m = Measure::new(a, n);
    let mut paths = Vec::new();
    for l in ["R", "R'", "U", "U'"] {
        paths.push(m.path_with_effect(&cycles[3], letter(a, l)).unwrap());
    }
    for (text, rotations) in [("R' U' R", 2), ("R' U R U' R", 4)] {
        let t = Instant::now();
        let e = puz_testkit::parse(a, text, &[]).eval(a, n);
        let mut path =
            puz_hamilton::chain::posa::rotated_path(sub, &cycles[1], &gs[1], &e, rotations, ctl)
                .unwrap()
                .expect("rotations give the effect");
        for k in 2..4 {
            let below = Keys(CosetKeys::new(&gs[k - 1], Some(&gs[k]), ctl).unwrap());
            let opts = SpliceOptions {
                path: Some(path.clone()),
                ..Default::default()
            };
            let d = letter(a, moves[k]);
            let (w, _) =
                commuting_level(a, &cycles[k - 1], &below, orders[k], d, &opts, ctl).unwrap();
            path = w;
        }
        let mut m = Measure::new(a, n);
        assert!(m.product(&path) == e && m.len(&path) + 1 == orders[3]);
        println!(
            "{text}: Hamilton path of <U,R,D,L> in {:.2?}; peak {}",
            t.elapsed(),
            peak_rss()
        );
        paths.push(path.clone());
        paths.push(inverse(path));
    }
    let effects: Vec<Perm> = paths.iter().map(|w| m.product(w)).collect();
    let f = letter(a, "F");
    let hosts = [letter(a, "R"), letter(a, "R'")];
    let mut gadgets = joins::find_gadgets(a, &hosts, f, &effects, 3);
    gadgets.extend(joins::find_gadgets(a, &hosts, f, &effects, 5));
    println!("{} gadgets", gadgets.len());
    let t = Instant::now();
    let below = Keys(CosetKeys::new(&gs[3], Some(&gs[4]), ctl).unwrap());
    let (w, stats) = joins::joining_level(
        a,
        &paths,
        0,
        &gadgets,
        &below,
        orders[4],
        &Default::default(),
        ctl,
    )
    .unwrap();
    let built = t.elapsed();
    let t = Instant::now();
    let mut m = Measure::new(a, n);
    let len = m.len(&w);
    let id = m.product(&w).is_identity();
    println!(
        "level 4 (+F): joined in {built:.2?}: {stats:?}; length {len} (order {}), product identity {id}, measured in {:.2?}; depth {}, {:?} (nodes, items); F level total {:.2?}; peak {}",
        orders[4],
        t.elapsed(),
        depth(&w),
        census(&w),
        t0.elapsed(),
        peak_rss()
    );
    assert_eq!(len, orders[4]);
    assert!(id);
    let t = Instant::now();
    walk_pieces(&w, a, &gs[4], 20, 200_000, 11);
    println!(
        "level 4: 20 random pieces of 200,000 letters walked in {:.2?}",
        t.elapsed()
    );
}
