//! The certificate against the walk on groups small enough to walk, corrupted words, bad
//! input, and a Gray code far too large to walk.

use super::testutil::*;
use super::*;
use crate::coset::{replace_step, Step};
use puz_testkit::{cycles::*, notation::*};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Corrupts each word `n` times and cross-checks every corruption; returns how many were
/// rejected, by kind of corruption.
fn corruptions(s: &Setup, words: &[Word], n: usize, seed: u64) -> BTreeMap<&'static str, usize> {
    corruptions_with(s, &s.chain(), words, n, seed)
}

fn corruptions_with(
    s: &Setup,
    chain: &Chain,
    words: &[Word],
    n: usize,
    seed: u64,
) -> BTreeMap<&'static str, usize> {
    let mut rng = Rng(seed);
    let mut rejected = BTreeMap::new();
    let mut done = 0;
    while done < n * words.len() {
        let w = &words[done % words.len()];
        let Some((kind, bad)) = corrupt(w, &s.alpha, &mut rng) else {
            continue;
        };
        done += 1;
        if !matches!(s.compare_with(chain, &bad), Verdict::Certified(_)) {
            *rejected.entry(kind).or_insert(0) += 1;
        }
    }
    rejected
}

fn total(m: &BTreeMap<&str, usize>) -> usize {
    m.values().sum()
}

#[test]
fn six_piece_constructions_and_corruptions() {
    let p = six_piece();
    let s = Setup::new(&p, &["R", "L", "U"], &[&["R"], &["R", "L"]]);
    let a = &s.alpha;
    let printed = parse(
        a,
        "[(LRRL'RRLRRLR'R')4 LRRL'RRLRRLR' U ]4 (RRLRRLR'R'LRRL')4 RRLRRLR'R'LRR U (RRLRRLR'R'LRRL')4 RRLRRLR'R'LRR",
        &[],
    );
    assert_eq!(s.compare(&printed), Verdict::Certified(Kind::Path));
    let c = Word::named("C", parse(a, "(R'R'LRRL'RRLRRL)5", &[]));
    let (rr, ll, u) = (letter(a, "R"), letter(a, "L"), letter(a, "U"));
    let mut steps = vec![Step { h: rr, g: u }; 4];
    steps.push(Step { h: ll, g: u });
    let spliced = crate::coset::coset_splice(&c, a, &steps, true).unwrap();
    assert_eq!(s.compare(&spliced), Verdict::Certified(Kind::Path));
    let dfs = s.coset_path(&c, 1).unwrap();
    assert_eq!(s.compare(&dfs), Verdict::Certified(Kind::Path));
    // No cycle through the 6 cosets closes with one-letter effects: both agree.
    assert!(s.coset_walk(&c, 1, true).is_none());
    // The whole group's cycle found by the engine's search.
    let whole = s.cycle_of(&p, &["R", "L", "U"]);
    assert_eq!(s.compare(&whole), Verdict::Certified(Kind::Cycle));
    let words = vec![printed, spliced, dfs, whole];
    let rejected = corruptions(&s, &words, 400, 7);
    eprintln!("six-piece: rejected {rejected:?}");
    assert!(total(&rejected) > 1200, "{rejected:?}");
}

#[test]
fn row_splices_and_corruptions() {
    // Row of 4: Jaap's commuting-move replacement (one move replaced by a detour through
    // other cosets) leaves a coset visited by two partial runs.
    let p = row(4);
    let s = Setup::new(&p, &["S0", "S1", "S2"], &[&["S0"], &["S0", "S1"]]);
    let m = [
        ("L", Word::Letter(0)),
        ("M", Word::Letter(1)),
        ("R", Word::Letter(2)),
    ];
    let printed = parse(&s.alpha, "(LMLML R)2 LM(R MLMLM R)ML R", &m);
    assert_eq!(s.compare(&printed), Verdict::Certified(Kind::Cycle));
    let base = parse(&s.alpha, "(LMLML R)3", &m);
    assert!(matches!(s.compare(&base), Verdict::NotHamilton(_)));
    let spliced = replace_step(&base, &s.alpha, 14, parse(&s.alpha, "R MLMLM R", &m));
    assert_eq!(s.compare(&spliced), Verdict::Certified(Kind::Cycle));
    let r4 = corruptions(&s, &[printed, spliced], 500, 11);
    // Row of 5 with a chain of three levels.
    let p = row(5);
    let moves = ["S0", "S1", "S2", "S3"];
    let s = Setup::new(&p, &moves, &[&["S0"], &["S0", "S1"], &["S0", "S1", "S2"]]);
    let c = Word::named("C", s.cycle_of(&p, &["S0", "S1"]));
    let path = s
        .coset_path(&c, 1)
        .expect("a coset path of <S0, S1> in row(5)");
    assert_eq!(s.compare(&path), Verdict::Certified(Kind::Path));
    let whole = s.cycle_of(&p, &moves);
    assert_eq!(s.compare(&whole), Verdict::Certified(Kind::Cycle));
    let r5 = corruptions(&s, &[path, whole], 500, 13);
    eprintln!("row(4): rejected {r4:?}; row(5): rejected {r5:?}");
    assert!(total(&r4) > 800 && total(&r5) > 800);
}

#[test]
fn floppy_and_topspin() {
    let p = floppy();
    let s = Setup::new(&p, &["R", "L", "F", "B"], &[&["F", "R"], &["F", "R", "L"]]);
    let a = &s.alpha;
    let pw = Word::named(
        "P",
        parse(a, "(L FRFRFRFRFRF L) FRFRFRFR L (RFRFRFRFRFR L)2 R", &[]),
    );
    let w = parse(a, "PFPB PFPB", &[("P", pw)]);
    assert_eq!(s.compare(&w), Verdict::Certified(Kind::Cycle));
    let rf = corruptions(&s, &[w], 500, 17);
    let p = topspin(6);
    let s = Setup::new(&p, &["T0", "T1", "T2"], &[&["T0"], &["T0", "T1"]]);
    // One-letter coset steps do not reach every coset of <T0, T1> here: the engine's
    // search gives the word.
    let c = Word::named("C", s.cycle_of(&p, &["T0", "T1"]));
    assert!(s.coset_path(&c, 1).is_none());
    let whole = s.cycle_of(&p, &["T0", "T1", "T2"]);
    assert_eq!(s.compare(&whole), Verdict::Certified(Kind::Cycle));
    let rt = corruptions(&s, &[whole], 500, 19);
    eprintln!("floppy: rejected {rf:?}; topspin(6): rejected {rt:?}");
    assert!(total(&rf) > 400 && total(&rt) > 400);
}

#[test]
fn cube2_ur_over_u() {
    let p = cube2();
    let s = Setup::new(&p, &["U", "R"], &[&["U"]]);
    let whole = s.cycle_of(&p, &["U", "R"]);
    assert_eq!(s.compare(&whole), Verdict::Certified(Kind::Cycle));
    let rejected = corruptions(&s, &[whole], 300, 29);
    eprintln!("cube2 <U,R>: rejected {rejected:?}");
    assert!(total(&rejected) > 250);
}

/// Slow (the search alone takes a minute): `cargo test --release -- --ignored cube2`.
#[test]
#[ignore]
fn cube2_chain_u_ur_urf() {
    let p = cube2();
    let s = Setup::new(&p, &["U", "R", "F"], &[&["U"], &["U", "R"]]);
    // One-letter coset steps reach 124 of the 126 cosets of <U, R> from the start, so the
    // word is the engine's search's cycle of the whole group.
    let t = std::time::Instant::now();
    let path = crate::search::hamilton(&s.alpha, &*s.g.0, &Control::default()).unwrap();
    eprintln!("cycle of <U,R,F>: {:?}", t.elapsed());
    assert_eq!(path.len(), 3674160);
    assert_eq!(s.certify(&path), Verdict::Certified(Kind::Cycle));
    eprintln!("certified: {:?}", t.elapsed());
    assert_eq!(s.compare(&path), Verdict::Certified(Kind::Cycle));
    eprintln!("compared: {:?}", t.elapsed());
    let rejected = corruptions(&s, &[path], 4, 23);
    eprintln!("cube2: rejected {rejected:?}");
    assert!(total(&rejected) >= 2);
}

fn six() -> (puz_core::Puzzle, Setup) {
    let p = six_piece();
    let s = Setup::new(&p, &["R", "L", "U"], &[&["R"], &["R", "L"]]);
    (p, s)
}

fn run(s: &Setup, chain: &Chain, w: &Word) -> Result<Verdict, CertifyError> {
    certify(w, &s.alpha, chain, &Options::default(), &Control::default())
}

#[test]
fn bad_chains_are_errors_that_say_which_check_failed() {
    let (_, s) = six();
    let w = parse(&s.alpha, "(R'R'LRRL'RRLRRL)5", &[]);
    let bad = |chain: &Chain, what: &str| match run(&s, chain, &w) {
        Err(CertifyError::BadChain(m)) => assert!(m.contains(what), "{m}"),
        other => panic!("{other:?}"),
    };
    // Not nested: <R, L> below <R>.
    let reversed = Chain {
        levels: vec![&s.levels[1], &s.levels[0]],
        group: &s.g,
        bottom: &s.levels[1],
    };
    bad(&reversed, "is not in H2: not a subgroup");
    // A level outside G: an odd permutation of the six pieces.
    let odd = Enum::new(&[Perm::from_cycles(6, &[vec![0, 1]]).unwrap()]);
    let outside = Chain {
        levels: vec![&odd],
        group: &s.g,
        bottom: &odd,
    };
    bad(&outside, "is not in G");
    // The bottom ranker ranks another group.
    let wrong = Chain {
        levels: vec![&s.levels[0], &s.levels[1]],
        group: &s.g,
        bottom: &s.levels[1],
    };
    bad(&wrong, "the bottom ranker ranks");
}

#[test]
fn letters_outside_the_group_are_errors() {
    let (_, s) = six();
    // G = <R, L>: the word's U is outside.
    let chain = Chain {
        levels: vec![&s.levels[0]],
        group: &s.levels[1],
        bottom: &s.levels[0],
    };
    let w = parse(&s.alpha, "(R L)3 R U L", &[]);
    match run(&s, &chain, &w) {
        Err(CertifyError::LetterOutside { letter, index, .. }) => {
            assert_eq!((letter.as_str(), index), ("U", 7))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn budgets_say_cannot_certify_and_small_words_are_judged() {
    let (_, s) = six();
    let c = Word::named("C", parse(&s.alpha, "(R'R'LRRL'RRLRRL)5", &[]));
    let w = s.coset_path(&c, 1).unwrap();
    let tight = Options {
        max_runs: 3,
        ..Options::default()
    };
    let v = certify(&w, &s.alpha, &s.chain(), &tight, &Control::default()).unwrap();
    assert!(matches!(v, Verdict::CannotCertify(_)), "{v:?}");
    // Less than one coset of the bottom group: nothing can be certified.
    let short_walk = Options {
        max_walked: 1,
        ..Options::default()
    };
    let v = certify(&w, &s.alpha, &s.chain(), &short_walk, &Control::default()).unwrap();
    assert!(matches!(v, Verdict::CannotCertify(_)), "{v:?}");
    assert_eq!(
        s.compare(&Word::empty()),
        Verdict::NotHamilton(Failure::Missing {
            visited: 1,
            size: 360
        })
    );
    assert!(matches!(
        s.compare(&Word::Letter(0)),
        Verdict::NotHamilton(_)
    ));
}

/// `H_j` of `d` dials of radix `base`: the elements that turn only the last `j` dials
/// (`j = d`: the whole group). Keys: the images of the points of the first `d - j` dials
/// (what `H_j` cannot change).
struct Dials {
    d: usize,
    base: usize,
    gens: Vec<Perm>,
    fixed: usize,
}

impl Subgroup for Dials {
    fn contains(&self, p: &Perm) -> bool {
        // Each dial turned by some amount, the first ones not at all.
        p.degree() == self.d * self.base
            && (0..self.d).all(|l| {
                let o = (p.image(l * self.base) + self.base - l * self.base) % self.base;
                (l * self.base >= self.fixed || o == 0)
                    && (0..self.base)
                        .all(|t| p.image(l * self.base + t) == l * self.base + (t + o) % self.base)
            })
    }
    fn generators(&self) -> Vec<Perm> {
        self.gens.clone()
    }
}

impl CosetKey for Dials {
    fn order(&self) -> u128 {
        (self.base as u128).pow(((self.d * self.base - self.fixed) / self.base) as u32)
    }
    fn coset_key(&self, images: &[u16], out: &mut Vec<u16>) {
        let x = &Perm::from_images_unchecked(images.to_vec());
        *out = x.images()[..self.fixed].to_vec();
    }
}

/// The reflected Gray code as [`crate::gray::reflected`] builds it, without asking
/// `Word::len` (which recomputes shared nodes: 3^d calls here).
fn gray_word(digits: &[crate::gray::Digit]) -> Word {
    let mut p = Word::Repeat(
        Arc::new(Word::Letter(digits[0].letter)),
        digits[0].radix - 1,
    );
    for d in &digits[1..] {
        let l = Word::Letter(d.letter);
        let pair = Word::Seq(vec![p.clone(), l.clone(), p.clone().inverse(), l.clone()].into());
        let r = d.radix;
        let pairs = |n: u64| match n {
            1 => pair.clone(),
            n => Word::Repeat(Arc::new(pair.clone()), n),
        };
        p = if r % 2 == 1 {
            Word::Seq(vec![pairs(r / 2), p].into())
        } else if r == 2 {
            Word::Seq(vec![p.clone(), l, p.inverse()].into())
        } else {
            Word::Seq(vec![pairs((r - 2) / 2), p.clone(), l, p.inverse()].into())
        };
    }
    p
}

/// The reflected Gray code of `d` dials of radix `base`, its alphabet and the chain
/// `<M_{d-1}> < <M_{d-2}, M_{d-1}> < ... < G` (bottom enumerated).
fn gray_setup(d: usize, base: u8) -> (Alphabet, Enum, Vec<Dials>, Word) {
    let p = dials(d, base);
    let names: Vec<String> = (0..d).map(|i| format!("M{i}")).collect();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let alpha = alphabet(&p, &names);
    let perm = |n: &str| alpha.perms[letter(&alpha, n) as usize].clone();
    let digits: Vec<crate::gray::Digit> = (0..d)
        .map(|k| crate::gray::Digit {
            letter: letter(&alpha, names[d - 1 - k]),
            radix: base as u64,
        })
        .collect();
    let w = gray_word(&digits);
    let bottom = Enum::new(&[perm(names[d - 1])]);
    let levels = (2..=d)
        .map(|j| Dials {
            d,
            base: base as usize,
            gens: names[d - j..].iter().map(|n| perm(n)).collect(),
            fixed: (d - j) * base as usize,
        })
        .collect();
    (alpha, bottom, levels, w)
}

fn gray_chain<'a>(bottom: &'a Enum, levels: &'a [Dials]) -> Chain<'a> {
    let (g, mid) = levels.split_last().unwrap();
    let mut all: Vec<&dyn Subgroup> = vec![bottom];
    all.extend(mid.iter().map(|h| h as &dyn Subgroup));
    Chain {
        levels: all,
        group: g,
        bottom,
    }
}

#[test]
fn gray_codes_small_against_the_walk() {
    let (_, bottom, levels, w) = gray_setup(4, 6);
    let chain = gray_chain(&bottom, &levels);
    let names = ["M0", "M1", "M2", "M3"];
    let s = Setup::new(&dials(4, 6), &names, &[&["M3"]]);
    assert_eq!(s.compare_with(&chain, &w), Verdict::Certified(Kind::Path));
    let rejected = corruptions_with(&s, &chain, &[w], 600, 31);
    eprintln!("dials(4, 6): rejected {rejected:?}");
    assert!(total(&rejected) > 400);
}

/// 3^40 (about 1.2e19) positions, as many as a third of the 3x3x3's: far beyond a
/// bitset, certified from the nesting. Corrupted codes (a level's letter replaced by the
/// one below, a radix off by one) are rejected.
#[test]
fn gray_code_too_large_to_walk() {
    let t = std::time::Instant::now();
    let (alpha, bottom, levels, w) = gray_setup(40, 3);
    let chain = gray_chain(&bottom, &levels);
    let go =
        |w: &Word| certify(w, &alpha, &chain, &Options::default(), &Control::default()).unwrap();
    let v = go(&w);
    eprintln!("dials(40, 3): {v:?} in {:?}", t.elapsed());
    assert_eq!(v, Verdict::Certified(Kind::Path));
    let digit = |k: usize, letter: usize, radix: u64| crate::gray::Digit {
        letter: puz_testkit::letter(&alpha, &format!("M{}", 39 - letter)),
        radix: if k == letter { radix } else { 3 },
    };
    for k in [1, 2, 10, 25, 39] {
        let mut same: Vec<_> = (0..40).map(|j| digit(j, j, 3)).collect();
        same[k] = digit(k, k - 1, 3);
        for radix in [2, 4] {
            let off: Vec<_> = (0..40)
                .map(|j| digit(j, j, if j == k { radix } else { 3 }))
                .collect();
            let v = go(&gray_word(&off));
            assert!(
                matches!(v, Verdict::NotHamilton(_)),
                "radix {radix} at {k}: {v:?}"
            );
        }
        let v = go(&gray_word(&same));
        assert!(matches!(v, Verdict::NotHamilton(_)), "letter at {k}: {v:?}");
    }
    eprintln!(
        "dials(40, 3): 15 corrupted codes rejected, in all {:?}",
        t.elapsed()
    );
}

/// Runs that are rotations of one cycle are recognised by one cut and one comparison
/// (`tile/rotations.rs`) once one of them was certified by its cosets; a rotation with a
/// letter changed is not, and every outcome agrees with the positions walked one by one.
#[test]
fn rotations_of_a_cycle_are_recognised() {
    let (_, s) = six();
    let a = &s.alpha;
    let c = Word::named("C", parse(a, "(R'R'LRRL'RRLRRL)5", &[]));
    let levels: Vec<&dyn Subgroup> = vec![&s.levels[0], &s.levels[1]];
    let (opts, ctl) = (fast_walks(), Control::default());
    let mut t = tile::Tiler::new(a, &levels, &s.levels[0], &opts, &ctl);
    let n = t.runs.len(&c);
    assert_eq!(n, s.levels[1].order(), "C is a cycle of <R, L>");
    let degree = a.perms[0].degree();
    // Every word is kept alive: node identities are addresses.
    let mut words: Vec<(Word, bool)> = Vec::new();
    for o in [7u128, 23, 41, 58, 12, 30] {
        let tail = t.runs.cut(&c, n - o - 1, true);
        let head = t.runs.cut(&c, o, false);
        words.push((Word::Seq(vec![tail, head].into()), true));
    }
    for o in [9u128, 33] {
        // The last letter of the head replaced by its inverse.
        let tail = t.runs.cut(&c, n - o - 1, true);
        let head = t.runs.cut(&c, o - 1, false);
        let last = t.runs.cut(&c, o, false).letters(a)[o as usize - 1];
        let bad = Word::Letter(a.inverse[last as usize]);
        words.push((Word::Seq(vec![tail, head, bad].into()), false));
    }
    let before = t.counts.rotations;
    for (w, good) in &words {
        let run = runs::Run {
            segs: vec![(w, false)],
            start: Perm::identity(degree),
            pos0: 0,
            len: n - 1,
        };
        let seen_before = t.counts.rotations;
        let out = t.tile(1, vec![run]).ok().expect("no budget is reached");
        let recognised = t.counts.rotations > seen_before;
        let mut p = Perm::identity(degree);
        let mut seen = std::collections::HashSet::from([p.clone()]);
        for x in w.letters(a) {
            p = p.then(&a.perms[x as usize]);
            seen.insert(p.clone());
        }
        let hamilton = seen.len() as u128 == n;
        assert_eq!(hamilton, *good);
        assert_eq!(
            matches!(out, tile::Outcome::Covered(k) if k == n),
            hamilton,
            "{out:?}"
        );
        assert!(!recognised || hamilton);
    }
    let fired = t.counts.rotations - before;
    // The first rotation is certified by its cosets, the next five by the rule (as they
    // are, or cut where the cycle wraps).
    assert_eq!(fired, 5);
}
