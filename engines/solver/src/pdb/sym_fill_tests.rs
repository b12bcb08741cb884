//! Tests of the reduced fill (`sym_fill.rs`): against the whole table, and pairs against
//! nibbles.

use super::super::coord_fill::{fill_coords, nibble};
use super::super::coords::Part;
use super::super::fixtures::{cube3_metric, u_layer, ud_slice};
use super::super::symmetric::{reduce, tests::cube_symmetries};
use super::*;
use puz_core::Control;

/// Fills `parts` whole and reduced; every tuple's entry in the reduced table is its
/// entry in the whole one (walked over every tuple of values).
fn same_as_whole(parts: Vec<Part>, metric: &str) -> u64 {
    same_as_whole_tabulated(parts, metric, Tabulate::Whole)
}

fn same_as_whole_tabulated(parts: Vec<Part>, metric: &str, tabulate: Tabulate) -> u64 {
    let (model, conj) = cube_symmetries();
    let ctl = Control::default();
    let mut m = cube3_metric(metric).1;
    if metric == "weighted" {
        // Half turns cost 2: every level pulled, looking `cost` levels back.
        for (l, sp) in m.spelling.iter().enumerate() {
            m.cost[l] = if sp[0].1.abs() == 2 { 2 } else { 1 };
        }
        assert!(m.cost.contains(&2));
    }
    let metric = m;
    let actions = crate::testsupport::actions_of(&model, &metric);
    let whole = Coords::new(&model, parts).unwrap();
    let reduced = reduce(&model, whole.clone(), &conj, u64::MAX, None, None);
    let red = reduced.sym.clone().expect("reduced");
    assert!(reduced.size < whole.size);
    let meter = Meter::new(&ctl, String::new(), 0, whole.size);
    let a = fill_coords(&model, &whole, &actions, &metric.cost, &meter).unwrap();
    let b = fill::<Nibbles>(
        &model,
        &reduced,
        &actions,
        &metric.cost,
        &meter,
        (tabulate, Aid::Memory(GATHER_WEIGHT)),
        Base::Rule,
    )
    .unwrap();
    let n = whole.parts.len();
    let mut v = [0u32; MAX_PARTS];
    for i in 0..whole.size {
        for (x, (&w, &m)) in v.iter_mut().zip(whole.weights.iter().zip(&whole.sizes)) {
            *x = ((i / w) % m) as u32;
        }
        let j = red.index(&v[..n]);
        assert!(j < reduced.size);
        assert_eq!(nibble(&a, i), nibble(&b, j), "tuple {:?}", &v[..n]);
    }
    red.syms as u64
}

#[test]
fn reduced_slice_and_twists_are_the_whole_table() {
    // The UD slice's set with the corner twists (a set as the whole key, the twists
    // as the rest), in htm: 1,082,565 tuples.
    let syms = same_as_whole(slice_and_twists(), "htm");
    assert_eq!(syms, 16);
}

#[test]
fn reduced_fill_with_the_rest_moves_computed_is_the_whole_table() {
    // The paths taken when the rest's moves are too many to tabulate whole, or even
    // part by part, pushed and pulled, with unit and with dearer half turns.
    for metric in ["htm", "weighted"] {
        for tabulate in [Tabulate::Parts, Tabulate::No] {
            let parts = vec![
                ud_slice(),
                Part::Ori { orbit: 0 },
                Part::Parity { orbit: 0 },
            ];
            assert_eq!(same_as_whole_tabulated(parts, metric, tabulate), 16);
        }
    }
}

#[test]
fn reduced_slice_places_and_twists_are_the_whole_table() {
    // Where each of the UD slice's edges is (Kociemba's sorted slice) with the corner
    // twists, in qtm: 25,981,560 tuples.
    let syms = same_as_whole(
        vec![
            Part::Places {
                orbit: 1,
                pieces: vec![8, 9, 10, 11],
            },
            Part::Ori { orbit: 0 },
        ],
        "qtm",
    );
    assert_eq!(syms, 16);
}

#[test]
fn reduced_corners_with_their_twists_in_the_rest_are_the_whole_table() {
    // The corners' places and twists, the places alone the key (the whole orbit's parts
    // would be a key past MAX_KEY), the twists the rest: 88,179,840 tuples in htm.
    let syms = same_as_whole(
        vec![
            Part::Places {
                orbit: 0,
                pieces: (0..8).collect(),
            },
            Part::Ori { orbit: 0 },
        ],
        "htm",
    );
    assert_eq!(syms, 16);
}

#[test]
fn reduced_tables_with_dearer_half_turns_are_the_whole_table() {
    let syms = same_as_whole(slice_and_twists(), "weighted");
    assert_eq!(syms, 16);
}

#[test]
fn reduced_flip_slice_is_the_whole_table() {
    // Kociemba's flip-slice (the key: the set and the orientations of its orbit), in
    // qtm: 1,013,760 tuples.
    let syms = same_as_whole(vec![Part::Ori { orbit: 1 }, ud_slice()], "qtm");
    assert_eq!(syms, 16);
}

#[test]
fn reduced_slice_and_layer_are_the_whole_table() {
    // The UD slice's set (the key) and the U layer's corners' set: the symmetries
    // that swap U and D carry that set to its complement (34,650 tuples).
    for metric in ["htm", "qtm"] {
        let syms = same_as_whole(vec![ud_slice(), u_layer()], metric);
        assert_eq!(syms, 16);
    }
}

#[test]
fn reduced_slice_layer_and_twists_are_the_whole_table() {
    // The same with the corner twists (75,789,450 tuples), the rest's moves by parts
    // (too many to tabulate whole: 44 M).
    let parts = vec![ud_slice(), u_layer(), Part::Ori { orbit: 0 }];
    assert_eq!(same_as_whole_tabulated(parts, "htm", Tabulate::Whole), 16);
}

#[test]
fn reduced_slice_twists_and_parity_are_the_whole_table() {
    // The UD slice's set, the corner twists and the parity of the corners'
    // permutation (the fastest part, see `Part::Parity`): 2,165,130 tuples, in htm
    // (half turns keep the parity, quarter turns change it) and qtm.
    for metric in ["htm", "qtm"] {
        let syms = same_as_whole(
            vec![
                ud_slice(),
                Part::Ori { orbit: 0 },
                Part::Parity { orbit: 0 },
            ],
            metric,
        );
        assert_eq!(syms, 16);
    }
}

/// What [`pairs_as_nibbles`] found: the base chosen, the one the rule gives from the
/// nibbles' counts, whether the last level was left out, and the nibbles' counts.
struct Found {
    base: u8,
    rule: Option<u8>,
    capped: bool,
    count: [u64; 16],
    /// The entries the progress counted done before the fill reached them.
    ahead: u64,
    /// Per level of the pairs' fill, whether it was said to be the last (its time left
    /// then the table's, see `meter.rs`).
    lasts: Vec<bool>,
}

/// Fills `parts` reduced, in nibbles and in pairs (the base chosen as `when` says):
/// every entry of the pairs is what `pairs.rs` makes of the nibbles' (at most the
/// base: the smallest such value of its half line; base + 1 and base + 2 exact; beyond,
/// base + 3, or base + 2 when the last level was left out).
fn pairs_as_nibbles(parts: Vec<Part>, metric: &str, when: Base, tabulate: Tabulate) -> Found {
    let (model, conj) = cube_symmetries();
    let metric = cube3_metric(metric).1;
    let actions = crate::testsupport::actions_of(&model, &metric);
    let whole = Coords::new(&model, parts).unwrap();
    let reduced = reduce(&model, whole, &conj, u64::MAX, None, None);
    assert!(reduced.sym.is_some());
    // Someone reads the progress: the fill then foresees a left-out last level.
    let ctl = Control::default().with_reports(|_| {});
    let meter = Meter::new(&ctl, String::new(), 0, reduced.size);
    let (cost, size) = (&metric.cost, reduced.size);
    let a = fill::<Nibbles>(
        &model,
        &reduced,
        &actions,
        cost,
        &meter,
        (tabulate, Aid::Memory(GATHER_WEIGHT)),
        when,
    );
    let a = a.unwrap();
    let in_pairs = reduced.in_pairs();
    let pairs = |aid| {
        fill::<Pairs>(
            &model,
            &in_pairs,
            &actions,
            cost,
            &meter,
            (tabulate, aid),
            when,
        )
    };
    let first = Meter::new(&ctl, String::new(), 0, size);
    let b = fill::<Pairs>(
        &model,
        &in_pairs,
        &actions,
        cost,
        &first,
        (tabulate, Aid::Memory(GATHER_WEIGHT)),
        when,
    )
    .unwrap();
    // A pulled level read as bits, its classes' first letters gathered as the weight says
    // or all of them (weight 0), and a pushed one gathered from lists, or every level class
    // by class over the table alone: the same table.
    // Where the processor has the vectors, a pulled level whose runs fit goes across
    // them (`sym_fill_runs.rs`), and entry by entry when told.
    let entrywise = [Aid::Entrywise(GATHER_WEIGHT), Aid::Entrywise(0.0)];
    for aid in [Aid::Memory(0.0), Aid::No].into_iter().chain(entrywise) {
        assert!(b[..] == pairs(aid).unwrap()[..], "aided as {aid:?} or not");
    }
    assert_eq!(b.len() as u64, in_pairs.bytes());
    let nib = |i: u64| nibble(&a, i);
    let base = pairs::base(&b, size);
    // Left out: no entry is still unreached, though some lie past base + 2.
    let capped = {
        let t = &b[..];
        (0..size).all(|i| (t[pairs::locate(i).0] >> pairs::locate(i).1) & 3 != 3)
            && (0..size).any(|i| nib(i) > base + 2)
    };
    // Half lines: their smallest values are kept apart.
    let h = pairs::PER_LINE / 2;
    for half in 0..size.div_ceil(h) {
        let (lo, hi) = (half * h, ((half + 1) * h).min(size));
        let least = (lo..hi).map(nib).filter(|&v| v <= base).min();
        for i in lo..hi {
            let v = nib(i);
            let want = match v {
                _ if v <= base => least.unwrap(),
                _ if v <= base + 2 => v,
                _ if capped => base + 2,
                _ => base + 3,
            };
            assert_eq!(
                pairs::value(&b, base, i),
                want,
                "entry {i} of {v}, base {base}"
            );
        }
    }
    // The rule from the counts: before level d, the entries up to d and the next
    // level foreseen from the growth of the last.
    let mut count = [0u64; 16];
    (0..size).for_each(|i| count[nib(i) as usize] += 1);
    let rule = (1..14u8).find(|&d| {
        let filled: u64 = count[..=d as usize].iter().sum();
        let (frontier, last) = (count[d as usize], count[d as usize - 1]);
        Base::Rule.now(d, filled, frontier, last, size)
    });
    Found {
        base,
        rule,
        capped,
        count,
        ahead: first.ahead(),
        lasts: first.lasts.into_inner().unwrap(),
    }
}

/// The UD slice's set and the corner twists.
fn slice_and_twists() -> Vec<Part> {
    vec![ud_slice(), Part::Ori { orbit: 0 }]
}

#[test]
fn pairs_hold_what_nibbles_hold_from_each_base() {
    // Every base up to the last level, and one past it: then every entry reached is
    // at most the last level plus one.
    let f = pairs_as_nibbles(slice_and_twists(), "htm", Base::Rule, Tabulate::Whole);
    assert_eq!(Some(f.base), f.rule);
    for b in 1..=f.base + 3 {
        let got = pairs_as_nibbles(slice_and_twists(), "htm", Base::At(b), Tabulate::Whole);
        assert_eq!(got.base, b);
        assert!(!got.capped);
    }
    let got = pairs_as_nibbles(slice_and_twists(), "htm", Base::At(30), Tabulate::Whole);
    assert!(got.base > f.base, "{}", got.base);
}

#[test]
fn pairs_hold_what_nibbles_hold_in_other_metrics_and_ways() {
    // Quarter turns and axial turns, the rest's moves whole, by parts and computed.
    for metric in ["qtm", "atm"] {
        let f = pairs_as_nibbles(slice_and_twists(), metric, Base::Rule, Tabulate::Whole);
        assert_eq!(Some(f.base), f.rule, "{metric}");
    }
    // nxopt's shape of rest (the layer's 70 sets, then the twists): by parts, a pulled
    // level goes across its runs where the processor has the vectors.
    let layer = vec![ud_slice(), u_layer(), Part::Ori { orbit: 0 }];
    let across = || super::runs::PULLED.load(std::sync::atomic::Ordering::Relaxed);
    for tabulate in [Tabulate::Parts, Tabulate::No] {
        let before = across();
        let f = pairs_as_nibbles(layer.clone(), "htm", Base::Rule, tabulate);
        assert_eq!(Some(f.base), f.rule, "{tabulate:?}");
        if tabulate == Tabulate::Parts && super::runs::available() {
            assert!(across() > before, "no class was pulled across its runs");
        }
    }
}

#[test]
fn the_last_level_is_left_out_only_when_few_entries_lie_past_it() {
    // The shares past the last level of these tables lie between 0.025 and 0.32: the
    // rule's one in a hundred leaves none out, one in twelve those under 0.06 (the
    // sample's error is about 0.002).
    let layer = || vec![ud_slice(), u_layer(), Part::Ori { orbit: 0 }];
    let flip_slice = || vec![ud_slice(), Part::Ori { orbit: 1 }];
    let (mut kept, mut left_out) = (0, 0);
    for (parts, metric) in [
        (slice_and_twists(), "htm"),
        (slice_and_twists(), "atm"),
        (layer(), "atm"),
        (flip_slice(), "htm"),
        (flip_slice(), "qtm"),
        (flip_slice(), "atm"),
    ] {
        let f = pairs_as_nibbles(parts.clone(), metric, Base::Leaving(12), Tabulate::Whole);
        let b = f.base as usize;
        let past: u64 = f.count[b + 3..].iter().sum();
        let share = past as f64 / (past + f.count[b + 2]) as f64;
        assert_eq!(f.capped, share <= 1.0 / 12.0, "{metric}: {share}");
        // Foreseen two levels ahead: the entries left out counted done from there.
        let settled: u64 = f.count[b + 2..].iter().sum();
        if f.capped {
            let off = (f.ahead as f64 - settled as f64).abs() / settled as f64;
            assert!(off < 0.1, "{metric}: {} for {settled}", f.ahead);
        } else {
            assert_eq!(f.ahead, 0, "{metric}");
        }
        // The last level filled, and it alone, was said to be the last: left out, the
        // one before it (foreseen); kept, base + 2.
        let lasts: Vec<usize> = (0..f.lasts.len()).filter(|&l| f.lasts[l]).collect();
        assert_eq!(lasts, [f.lasts.len() - 1], "{metric}");
        assert_eq!(f.lasts.len(), b + 2 - f.capped as usize, "{metric}");
        if f.capped {
            left_out += 1;
            let g = pairs_as_nibbles(parts, metric, Base::Rule, Tabulate::Whole);
            assert!(!g.capped && share > 1.0 / 100.0, "{metric}: {share}");
        } else {
            kept += 1;
        }
    }
    assert!(kept >= 2 && left_out >= 2, "{kept} {left_out}");
}
