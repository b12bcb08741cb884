//! Gray codes: Hamilton paths and cycles of abelian groups given one letter per digit.
//!
//! A digit `k` has a letter `l_k` of order `r_k` (its radix) and the letters commute and
//! are independent (the group is the product of the cyclic groups they generate), as for
//! Lights Out's 23 independent buttons (radix 2) or Rubik's Clock's 14 moves (radix 12).

use crate::surgery::{cat, drop_last};
use puz_core::{Alphabet, Word};

/// One digit: its letter and its radix.
#[derive(Clone, Copy, Debug)]
pub struct Digit {
    pub letter: u32,
    pub radix: u64,
}

/// The reflected mixed-radix Gray code: a Hamilton path through all `prod r_k` positions.
/// Digit 0 changes fastest. Level `k`: `P l P' l P ...` (`r_k` copies of the lower path
/// `P`, alternately backwards), kept nested as `(P l P' l)^(r/2)`.
pub fn reflected(digits: &[Digit]) -> Word {
    let mut p = Word::empty();
    for d in digits {
        assert!(d.radix >= 1);
        if d.radix == 1 {
            continue;
        }
        let l = Word::Letter(d.letter);
        let pair = cat(vec![p.clone(), l.clone(), p.clone().inverse(), l.clone()]);
        let r = d.radix;
        p = if r % 2 == 1 {
            cat(vec![pair.pow((r / 2) as i64), p])
        } else {
            let half = (r - 2) / 2;
            let mut v = Vec::new();
            if half > 0 {
                v.push(pair.pow(half as i64));
            }
            v.extend([p.clone(), l, p.inverse()]);
            cat(v)
        };
    }
    p
}

/// The binary reflected Gray code closed into a cycle: the path ends with only the last
/// digit set, so one more press of that letter returns to the start.
pub fn binary_cycle(letters: &[u32]) -> Word {
    let digits: Vec<Digit> = letters
        .iter()
        .map(|&letter| Digit { letter, radix: 2 })
        .collect();
    let last = *letters.last().expect("at least one digit");
    cat(vec![reflected(&digits), Word::Letter(last)])
}

/// The modular Gray code: every step adds one to a digit (only the letters `l_k`, never
/// their inverses). Level `k` repeats (lower path, `l_k`) `r_k` times, where the lower
/// path is the lower cycle without its last letter; this closes into a cycle while each
/// radix divides the next. Returns the word and whether it is a cycle (else a path: the
/// levels from the first failing one on are reflected).
pub fn modular(digits: &[Digit], alpha: &Alphabet) -> (Word, bool) {
    let mut cycle: Option<Word> = None; // a Hamilton cycle of the digits so far
    let mut prev_radix = 0u64;
    let mut k = 0;
    while k < digits.len() {
        let d = digits[k];
        let l = Word::Letter(d.letter);
        match &cycle {
            None => cycle = Some(l.pow(d.radix as i64)),
            Some(c) => {
                if !d.radix.is_multiple_of(prev_radix) {
                    break;
                }
                let q = drop_last(c, alpha);
                cycle = Some(cat(vec![q, l]).pow(d.radix as i64));
            }
        }
        prev_radix = d.radix;
        k += 1;
    }
    let c = cycle.unwrap_or_else(Word::empty);
    if k == digits.len() {
        return (c, true);
    }
    // Reflect the remaining digits over the path made from the cycle so far.
    let mut p = if c.is_empty() {
        c
    } else {
        drop_last(&c, alpha)
    };
    for d in &digits[k..] {
        let l = Word::Letter(d.letter);
        let pair = cat(vec![p.clone(), l.clone(), p.clone().inverse(), l.clone()]);
        let r = d.radix;
        p = if r % 2 == 1 {
            cat(vec![pair.pow((r / 2) as i64), p])
        } else {
            let mut v = Vec::new();
            if r > 2 {
                v.push(pair.pow(((r - 2) / 2) as i64));
            }
            v.extend([p.clone(), l, p.inverse()]);
            cat(v)
        };
    }
    (p, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use puz_core::{Control, Perm, Ranker};
    use puz_testkit::{cycles::*, notation::*, rankers::*};

    fn run(w: &Word, a: &Alphabet, r: &dyn Ranker) -> Kind {
        let start = Perm::identity(a.perms[0].degree());
        let rep = check(w, a, &start, r, Mode::Hamilton, &Control::default()).unwrap();
        assert!(rep.leaves_group.is_none());
        rep.kind
    }

    #[test]
    fn lights_out_5x5_gray_path_and_cycle_on_23_independent_buttons() {
        let p = lights_out(5);
        let names: Vec<String> = p.moves.iter().map(|m| m.name.clone()).collect();
        let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let a = alphabet(&p, &refs);
        let r = Gf2Ranker::new(&a.perms);
        assert_eq!(r.size(), Some(1 << 23));
        let basis = r.independent();
        assert_eq!(basis.len(), 23);
        let digits: Vec<Digit> = basis
            .iter()
            .map(|&l| Digit {
                letter: l as u32,
                radix: 2,
            })
            .collect();
        let path = reflected(&digits);
        assert_eq!(path.len(), (1 << 23) - 1);
        assert_eq!(run(&path, &a, &r), Kind::Path);
        let letters: Vec<u32> = basis.iter().map(|&l| l as u32).collect();
        assert_eq!(run(&binary_cycle(&letters), &a, &r), Kind::Cycle);
        // Repeats in a long word are found exactly (the parallel walk, then a sequential one).
        let start = Perm::identity(a.perms[0].degree());
        let x = basis[5] as u32;
        let back = Word::seq(vec![path.clone(), Word::Letter(x), Word::Letter(x)]);
        let rep = check(&back, &a, &start, &r, Mode::Hamilton, &Control::default()).unwrap();
        let f = rep.first_repeat.unwrap();
        // Every position was seen by the end of the path, so the letter after it repeats.
        assert_eq!((f.index, rep.visited), (1 << 23, 1 << 23));
        let at = |w: &Word, i: u128| {
            crate::surgery::split_at(w, &a, i)
                .0
                .eval(&a, start.degree())
        };
        assert_eq!(at(&back, f.repeats), at(&back, f.index));
        assert_eq!(f.position, at(&back, f.index));
        let (p1, p2) = crate::surgery::split_at(&path, &a, 3_000_000);
        let mid = Word::seq(vec![
            p1,
            Word::named("twice", Word::seq(vec![Word::Letter(x), Word::Letter(x)])),
            p2,
        ]);
        let rep = check(&mid, &a, &start, &r, Mode::Hamilton, &Control::default()).unwrap();
        let f = rep.first_repeat.unwrap();
        assert_eq!(
            (f.index, f.repeats, rep.visited),
            (3_000_002, 3_000_000, 3_000_002)
        );
        assert_eq!(
            f.frames,
            vec![
                puz_core::Frame::Item { i: 2, n: 3 },
                puz_core::Frame::Named("twice".into()),
                puz_core::Frame::Item { i: 2, n: 2 }
            ]
        );
        // The same in parallel chunks: a path, the repeat after it, the repeat inside it.
        let mut checker = crate::check::Checker::new(&a, &r, &Control::default()).unwrap();
        checker.parallel = true;
        let ctl = Control::default();
        assert_eq!(
            checker
                .check(&path, &start, Mode::Hamilton, &ctl)
                .unwrap()
                .kind,
            Kind::Path
        );
        let f = checker
            .check(&back, &start, Mode::Hamilton, &ctl)
            .unwrap()
            .first_repeat
            .unwrap();
        assert_eq!(f.index, 1 << 23);
        let f2 = checker
            .check(&mid, &start, Mode::Hamilton, &ctl)
            .unwrap()
            .first_repeat
            .unwrap();
        assert_eq!((f2.index, f2.repeats), (3_000_002, 3_000_000));
        // The first 2^21 letters, then the first 3·2^20 again: each part is distinct (the
        // group is abelian, the second part a translate of a prefix), and with two
        // shares cut at the middle neither share repeats itself, but the second meets
        // positions of the first: seen only when the shares' bitsets are compared.
        let part = |k: u128| crate::surgery::split_at(&path, &a, k).0;
        let twice = Word::seq(vec![part(1 << 21), part(3 << 20)]);
        let f3 = checker
            .check(&twice, &start, Mode::Hamilton, &ctl)
            .unwrap()
            .first_repeat
            .unwrap();
        let seq = check(&twice, &a, &start, &r, Mode::Hamilton, &ctl).unwrap();
        let f4 = seq.first_repeat.unwrap();
        assert!(f3.index > 1 << 21 && f3.repeats < 1 << 21, "{f3:?}");
        assert_eq!((f3.index, f3.repeats), (f4.index, f4.repeats));
        // A dependent button among the digits makes it fail.
        let all: Vec<Digit> = (0..23)
            .map(|l| Digit {
                letter: l,
                radix: 2,
            })
            .collect();
        if (0..23).collect::<Vec<usize>>() != basis {
            assert_eq!(run(&reflected(&all), &a, &r), Kind::Neither);
        }
    }

    #[test]
    fn ternary_and_base_12_codes() {
        for (d, base) in [(4usize, 3u8), (3, 12), (2, 5)] {
            let p = dials(d, base);
            let names: Vec<String> = p.moves.iter().map(|m| m.name.clone()).collect();
            let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            let a = alphabet(&p, &refs);
            let r = EnumRanker::new(&a.perms);
            let digits: Vec<Digit> = refs
                .iter()
                .map(|n| Digit {
                    letter: letter(&a, n),
                    radix: base as u64,
                })
                .collect();
            assert_eq!(
                run(&reflected(&digits), &a, &r),
                Kind::Path,
                "reflected {d} digits base {base}"
            );
            let (m, is_cycle) = modular(&digits, &a);
            assert!(is_cycle);
            assert_eq!(
                run(&m, &a, &r),
                Kind::Cycle,
                "modular {d} digits base {base}"
            );
        }
    }

    #[test]
    fn mixed_radix_codes() {
        // Dials of radix 12 with moves M0 (order 12) and a radix-2/3 mix from Z12's
        // subgroups: digits M1^6 (radix 2) is not a letter, so use separate puzzles:
        // a product of Z2 x Z4 x Z3 as three single-dial orbits.
        let mut p = puz_core::Puzzle::new("mixed");
        for (n, t) in [("a", 2u8), ("b", 4), ("c", 3)] {
            p.add_orbit(n, 1, t, vec![]);
        }
        for o in 0..3 {
            let mut b = puz_core::MoveBuilder::new(&p);
            b.cycle(o, &[(0, 1)]).unwrap();
            let perm = b.finish();
            p.moves.push(puz_core::NamedMove {
                name: format!("D{o}"),
                perm,
                primitive: true,
            });
        }
        let a = alphabet(&p, &["D0", "D1", "D2"]);
        let r = EnumRanker::new(&a.perms);
        assert_eq!(r.size(), Some(24));
        let d = |n: &str, radix| Digit {
            letter: letter(&a, n),
            radix,
        };
        let digits = [d("D0", 2), d("D1", 4), d("D2", 3)];
        assert_eq!(run(&reflected(&digits), &a, &r), Kind::Path);
        // 2 | 4 but 4 does not divide 3: a path.
        let (m, c) = modular(&digits, &a);
        assert!(!c);
        assert_eq!(run(&m, &a, &r), Kind::Path);
        let (m, c) = modular(&[d("D0", 2), d("D1", 4)], &a);
        assert!(c);
        let r2 = EnumRanker::new(&[a.perms[0].clone(), a.perms[1].clone()]);
        assert_eq!(run(&m, &a, &r2), Kind::Cycle);
    }
}
