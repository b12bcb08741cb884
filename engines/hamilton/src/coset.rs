//! Coset splicing (Jaap's "paths in coset spaces") and the commuting-move replacement.
//!
//! Given a Hamilton cycle `C` of a subgroup `H`, every rotation of `C` is a Hamilton cycle,
//! so for each letter `h` of `C` (or of `C'`) there is a Hamilton path of `H` with the same
//! effect as `h`: rotate `C` to end with `h'` and drop that letter. A walk through the
//! cosets of `H` written `h1 g1 h2 g2 ...` (each `g` a connecting move outside `H`) becomes a
//! Hamilton path or cycle of `G` when each `h` is replaced by such a path.

use crate::surgery::{cat, drop_last, replace_at, rotate};
use puz_core::{Alphabet, Perm, Word};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::Hash;

/// A Hamilton path of `H` with the effect of letter `h`, from a Hamilton cycle of `H`:
/// the cycle rotated to end with `h'`, without that letter (or the same on the reversed
/// cycle). `None` when neither `h` nor `h'` occurs in the cycle.
pub fn path_with_effect(cycle: &Word, alpha: &Alphabet, h: u32) -> Option<Word> {
    let hi = alpha.inverse[h as usize];
    let find = |w: &Word, l: u32| first_index(w, alpha, l, false, &mut HashMap::new());
    if let Some(k) = find(cycle, hi) {
        return Some(drop_last(&rotate(cycle, alpha, k + 1), alpha));
    }
    let rev = cycle.clone().inverse();
    let k = find(&rev, hi)?;
    Some(drop_last(&rotate(&rev, alpha, k + 1), alpha))
}

/// The index of the first `l` in `w` (or in its inverse when `inv`), found on the nested
/// form: a repetition holds it in its first round or not at all, so `x^1000000000000`
/// costs its depth (streaming for it ran through every round).
fn first_index(
    w: &Word,
    alpha: &Alphabet,
    l: u32,
    inv: bool,
    memo: &mut HashMap<(*const Word, bool), Option<u128>>,
) -> Option<u128> {
    let key = (w as *const Word, inv);
    if let Some(r) = memo.get(&key) {
        return *r;
    }
    let r = match w {
        Word::Letter(x) => {
            let x = if inv { alpha.inverse[*x as usize] } else { *x };
            (x == l).then_some(0)
        }
        Word::Named(_, x) => first_index(x, alpha, l, inv, memo),
        Word::Inverse(x) => first_index(x, alpha, l, !inv, memo),
        Word::Repeat(_, 0) => None,
        Word::Repeat(x, _) => first_index(x, alpha, l, inv, memo),
        Word::Seq(items) => {
            let mut before = 0u128;
            let mut found = None;
            let order: Box<dyn Iterator<Item = &Word>> = if inv {
                Box::new(items.iter().rev())
            } else {
                Box::new(items.iter())
            };
            for x in order {
                if let Some(i) = first_index(x, alpha, l, inv, memo) {
                    found = Some(before.saturating_add(i));
                    break;
                }
                before = before.saturating_add(x.len());
            }
            found
        }
    };
    memo.insert(key, r);
    r
}

/// One step through the cosets: a Hamilton path of `H` with the effect of `h`, then the
/// connecting letter `g`.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub h: u32,
    pub g: u32,
}

/// The coset walk `h1 g1 h2 g2 ...` with each `h` replaced by a Hamilton path of `H` of the
/// same effect; with `tail`, a final Hamilton path of `H` (the cycle without its last
/// letter) visits the last coset, giving a path; without it the walk must close (a cycle).
/// Paths are shared between steps with the same `h` and named `H{h}`.
pub fn coset_splice(cycle: &Word, alpha: &Alphabet, steps: &[Step], tail: bool) -> Option<Word> {
    if cycle.is_empty() {
        return None;
    }
    let mut items = splice_items(
        steps.iter().map(|s| (s.h, s.g)),
        |h| format!("H{}", alpha.names[h as usize]),
        |h| path_with_effect(cycle, alpha, h),
    )?;
    if tail {
        items.push(drop_last(cycle, alpha));
    }
    Some(cat(items))
}

/// The items `p1 g1 p2 g2 ...` of a walk through the cosets: for each step `(key, g)` the
/// Hamilton path of `H` given by `path(key)`, made once per key, named `name(key)` and
/// shared between the steps with that key, then the connecting letter `g`. `None` when
/// `path` gives none.
pub fn splice_items<K: Copy + Eq + Hash>(
    steps: impl IntoIterator<Item = (K, u32)>,
    name: impl Fn(K) -> String,
    mut path: impl FnMut(K) -> Option<Word>,
) -> Option<Vec<Word>> {
    let mut paths: HashMap<K, Word> = HashMap::new();
    let mut items = Vec::new();
    for (k, g) in steps {
        let p = match paths.entry(k) {
            Entry::Occupied(e) => e.get().clone(),
            Entry::Vacant(e) => e.insert(Word::named(&name(k), path(k)?)).clone(),
        };
        items.push(p);
        items.push(Word::Letter(g));
    }
    Some(items)
}

/// The first letter index `i` of `w` (from `start`) where the letter is `letter` and the
/// position before it satisfies `pred` (streamed; for words of moderate length).
pub fn find_step(
    w: &Word,
    alpha: &Alphabet,
    start: &Perm,
    letter: u32,
    pred: impl Fn(&Perm) -> bool,
) -> Option<u128> {
    let mut p = start.clone();
    for (i, l) in w.stream(alpha).enumerate() {
        if l == letter && pred(&p) {
            return Some(i as u128);
        }
        p.then_assign(&alpha.perms[l as usize]);
    }
    None
}

/// The commuting-move replacement: letter `i` of `w` replaced by `with`, a longer word of
/// the same effect (as `R (Ham-path with the effect of L) R` for `L` when `L` and `R`
/// commute), so that the walk also visits the cosets `with` passes through.
pub fn replace_step(w: &Word, alpha: &Alphabet, i: u128, with: Word) -> Word {
    replace_at(w, alpha, i, with)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use puz_core::{Control, Ranker};
    use puz_testkit::{cycles::*, notation::*, rankers::*};

    fn kind(w: &Word, a: &Alphabet, r: &dyn Ranker) -> Kind {
        let start = Perm::identity(a.perms[0].degree());
        check(w, a, &start, r, Mode::Hamilton, &Control::default())
            .unwrap()
            .kind
    }

    #[test]
    fn jaaps_359_move_path_of_the_six_piece_puzzle() {
        let a = alphabet(&six_piece(), &["R", "L", "U"]);
        let r = EnumRanker::new(&a.perms);
        // As printed by Jaap.
        let printed = parse(
            &a,
            "[(LRRL'RRLRRLR'R')4 LRRL'RRLRRLR' U ]4 (RRLRRLR'R'LRRL')4 RRLRRLR'R'LRR U (RRLRRLR'R'LRRL')4 RRLRRLR'R'LRR",
            &[],
        );
        assert_eq!(printed.len(), 359);
        assert_eq!(kind(&printed, &a, &r), Kind::Path);
        // Constructed: the 60-cycle of <L,R> spliced along (RU)4 LU.
        let c = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let (rr, ll, u) = (letter(&a, "R"), letter(&a, "L"), letter(&a, "U"));
        let mut steps = vec![Step { h: rr, g: u }; 4];
        steps.push(Step { h: ll, g: u });
        let w = coset_splice(&c, &a, &steps, true).unwrap();
        assert_eq!(w.len(), 359);
        assert_eq!(kind(&w, &a, &r), Kind::Path);
        // Five cosets only and no tail: not a Hamilton path.
        let w = coset_splice(&c, &a, &steps[..4], true).unwrap();
        assert_eq!(kind(&w, &a, &r), Kind::Neither);
    }

    #[test]
    fn row4_by_commuting_move_replacement() {
        let p = row(4);
        let a = alphabet(&p, &["S0", "S1", "S2"]);
        let r = EnumRanker::new(&a.perms);
        let m = [
            ("L", Word::Letter(0)),
            ("M", Word::Letter(1)),
            ("R", Word::Letter(2)),
        ];
        let printed = parse(&a, "(LMLML R)2 LM(R MLMLM R)ML R", &m);
        assert_eq!(kind(&printed, &a, &r), Kind::Cycle);
        // (LMLML R)3 misses the positions with piece 0 on the right.
        let base = parse(&a, "(LMLML R)3", &m);
        assert_eq!(kind(&base, &a, &r), Kind::Neither);
        // Replace an L done with piece 0 in the third place by R MLMLM R: each such place
        // works, Jaap's choice (letter 14) among them.
        let start = Perm::identity(4);
        let first = find_step(&base, &a, &start, 0, |pos| pos.image(0) == 2).unwrap();
        let all: Vec<u128> = {
            let mut v = Vec::new();
            let mut pos = start.clone();
            for (k, l) in base.stream(&a).enumerate() {
                if l == 0 && pos.image(0) == 2 {
                    v.push(k as u128);
                }
                pos.then_assign(&a.perms[l as usize]);
            }
            v
        };
        assert_eq!(first, all[0]);
        assert!(all.contains(&14));
        for &i in &all {
            let w = replace_step(&base, &a, i, parse(&a, "R MLMLM R", &m));
            assert_eq!(kind(&w, &a, &r), Kind::Cycle, "replacing letter {i}");
            if i == 14 {
                assert_eq!(w.letters(&a), printed.letters(&a));
            }
        }
    }

    #[test]
    fn floppy_cube_pfpb_pfpb() {
        let a = alphabet(&floppy(), &["R", "L", "F", "B"]);
        let r = EnumRanker::new(&a.perms);
        let p = Word::named(
            "P",
            parse(&a, "(L FRFRFRFRFRF L) FRFRFRFR L (RFRFRFRFRFR L)2 R", &[]),
        );
        let w = parse(&a, "PFPB PFPB", &[("P", p)]);
        assert_eq!(w.len(), 192);
        assert_eq!(kind(&w, &a, &r), Kind::Cycle);
        // Built from the 12-cycle (FR)6 of <F,R> as Jaap does: Y = (RF(L X_R L)FRFRFRFR L
        // (X_F L)2)2 where X_h is a Ham-path of <F,R> with the effect of h.
        let c = parse(&a, "(FR)6", &[]);
        let (f, rr) = (letter(&a, "F"), letter(&a, "R"));
        let xr = path_with_effect(&c, &a, rr).unwrap();
        let xf = path_with_effect(&c, &a, f).unwrap();
        assert_eq!(xr.letters(&a), parse(&a, "FRFRFRFRFRF", &[]).letters(&a));
        let m = [("X", xr), ("Y", xf)];
        let y = parse(&a, "(RF(L X L)FRFRFRFR L (Y L)2)2", &m);
        let g2 = EnumRanker::new(&[a.perms[0].clone(), a.perms[1].clone(), a.perms[2].clone()]);
        assert_eq!(g2.size(), Some(96));
        assert_eq!(kind(&y, &a, &g2), Kind::Cycle);
    }

    #[test]
    fn small_topspin_by_weaving() {
        // TopSpin section of 5: T0 reverses 0..4, T1 reverses 1..5. Jaap's weave
        // 1234x -> 1x432 -> 34x12 -> 321x4 -> x1234 is T1 T0 T1 T0.
        let p = topspin(5);
        let a = alphabet(&p, &["T0", "T1"]);
        let r = EnumRanker::new(&a.perms);
        let weave = parse(&a, "T1 T0 T1 T0", &[]);
        let e = weave.eval(&a, 5);
        // The weave moves piece 4 from the right end to the left and keeps the order of the
        // others: a cyclic shift.
        assert_eq!(
            (0..5).map(|i| e.image(i)).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 0]
        );
        // Woven five times it sees every position of <T0, T1> twice (a Devil's algorithm);
        // half of it, (T1 T0)5, is a Hamilton cycle.
        assert_eq!(r.size(), Some(10));
        let start = Perm::identity(5);
        let rep = check(
            &weave.clone().pow(5),
            &a,
            &start,
            &r,
            Mode::Devil,
            &Control::default(),
        )
        .unwrap();
        assert_eq!(
            (rep.visited, rep.all_seen_at, rep.kind),
            (10, Some(9), Kind::Neither)
        );
        assert_eq!(kind(&parse(&a, "(T1 T0)5", &[]), &a, &r), Kind::Cycle);
    }
}
