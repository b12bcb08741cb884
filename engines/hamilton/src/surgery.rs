//! Surgery on nested words that keeps them nested: cut at a letter index, rotate a cycle,
//! replace one letter by a word, substitute letters by the parity of their index, and
//! build a nested word from a long letter stream by folding periodic runs.

use puz_core::{Alphabet, Word};
use std::collections::HashMap;
use std::sync::Arc;

/// The first `i` letters and the rest, both nested (repetitions are split, not expanded).
#[allow(clippy::only_used_in_recursion)]
pub fn split_at(w: &Word, alpha: &Alphabet, i: u128) -> (Word, Word) {
    let len = w.len();
    assert!(i <= len, "cut {i} past the end {len}");
    if i == 0 {
        return (Word::empty(), w.clone());
    }
    if i == len {
        return (w.clone(), Word::empty());
    }
    match w {
        Word::Letter(_) => unreachable!("a letter has no inner cut"),
        Word::Named(_, x) => split_at(x, alpha, i),
        Word::Inverse(x) => {
            // (x)' = (a b)' = b' a' with |b| = i.
            let (a, b) = split_at(x, alpha, len - i);
            (b.inverse(), a.inverse())
        }
        Word::Repeat(x, n) => {
            let l = x.len();
            let (q, r) = ((i / l) as u64, i % l);
            let whole = |k: u64| -> Word {
                match k {
                    0 => Word::empty(),
                    1 => (**x).clone(),
                    k => Word::Repeat(x.clone(), k),
                }
            };
            if r == 0 {
                return (whole(q), whole(n - q));
            }
            let (a, b) = split_at(x, alpha, r);
            (cat(vec![whole(q), a]), cat(vec![b, whole(n - q - 1)]))
        }
        Word::Seq(items) => {
            let mut left = Vec::new();
            let mut acc = 0u128;
            for (k, x) in items.iter().enumerate() {
                let l = x.len();
                if acc + l <= i {
                    left.push(x.clone());
                    acc += l;
                    if acc == i {
                        return (cat(left), cat(items[k + 1..].to_vec()));
                    }
                    continue;
                }
                let (a, b) = split_at(x, alpha, i - acc);
                left.push(a);
                let mut right = vec![b];
                right.extend(items[k + 1..].iter().cloned());
                return (cat(left), cat(right));
            }
            unreachable!("cut inside the sequence")
        }
    }
}

/// A sequence without empty parts (a single part stands alone).
pub fn cat(items: Vec<Word>) -> Word {
    let items: Vec<Word> = items.into_iter().filter(|w| !w.is_empty()).collect();
    if items.is_empty() {
        return Word::empty();
    }
    Word::seq(items)
}

/// The cyclic rotation starting at letter `i`: `w[i..] w[..i]`.
pub fn rotate(w: &Word, alpha: &Alphabet, i: u128) -> Word {
    let (a, b) = split_at(w, alpha, i);
    cat(vec![b, a])
}

/// `w` without its last letter.
pub fn drop_last(w: &Word, alpha: &Alphabet) -> Word {
    split_at(w, alpha, w.len() - 1).0
}

/// `w` with letter `i` replaced by `repl`.
pub fn replace_at(w: &Word, alpha: &Alphabet, i: u128, repl: Word) -> Word {
    let (a, b) = split_at(w, alpha, i);
    let (_, c) = split_at(&b, alpha, 1);
    cat(vec![a, repl, c])
}

/// Replaces every letter by `f(letter, parity of its index)` (letters of inverses are
/// inverted first), keeping repetitions: a repeated block of even length maps to one
/// repeated image, one of odd length to a repeated pair of images.
pub fn substitute(w: &Word, alpha: &Alphabet, f: &dyn Fn(u32, bool) -> Word) -> Word {
    let mut memo = HashMap::new();
    subst(w, alpha, f, false, false, &mut memo)
}

type Memo = HashMap<(*const Word, bool, bool), Word>;

fn subst(
    w: &Word,
    alpha: &Alphabet,
    f: &dyn Fn(u32, bool) -> Word,
    inv: bool,
    odd: bool,
    memo: &mut Memo,
) -> Word {
    let key = (w as *const Word, inv, odd);
    if let Some(x) = memo.get(&key) {
        return x.clone();
    }
    let out = match w {
        Word::Letter(l) => f(if inv { alpha.inverse[*l as usize] } else { *l }, odd),
        Word::Named(name, x) => {
            let inner = subst(x, alpha, f, inv, odd, memo);
            if inv {
                inner
            } else {
                Word::Named(name.clone(), Arc::new(inner))
            }
        }
        Word::Inverse(x) => subst(x, alpha, f, !inv, odd, memo),
        Word::Repeat(x, n) => {
            let a = subst(x, alpha, f, inv, odd, memo);
            if x.len() % 2 == 0 {
                a.pow(*n as i64)
            } else {
                let b = subst(x, alpha, f, inv, !odd, memo);
                let pairs = Word::seq(vec![a.clone(), b]).pow((*n / 2) as i64);
                let mut v = Vec::new();
                if *n >= 2 {
                    v.push(pairs);
                }
                if n % 2 == 1 {
                    v.push(a);
                }
                cat(v)
            }
        }
        Word::Seq(items) => {
            let mut v = Vec::with_capacity(items.len());
            let mut par = odd;
            let order: Vec<&Word> = if inv {
                items.iter().rev().collect()
            } else {
                items.iter().collect()
            };
            for x in order {
                v.push(subst(x, alpha, f, inv, par, memo));
                par ^= x.len() % 2 == 1;
            }
            cat(v)
        }
    };
    memo.insert(key, out.clone());
    out
}

/// Builds a nested word from letters, folding runs of period 1 and 2 (`U4`, `(U R)105`).
/// Equal runs are one shared node: a cycle of `<U,R>` holds 1.66 million runs but few
/// distinct ones, and the checker compiles, the certificate memoises and `save` writes
/// each distinct node once.
pub struct Folder {
    items: Vec<Word>,
    runs: HashMap<(u32, Option<u32>, u64), Word>,
    /// The current run: its period letters and how many full periods.
    a: Option<u32>,
    b: Option<u32>,
    count: u64,
    /// Letters seen since the last completed period (0 or 1 letters).
    half: bool,
}

impl Default for Folder {
    fn default() -> Self {
        Folder::new()
    }
}

impl Folder {
    pub fn new() -> Folder {
        Folder {
            items: Vec::new(),
            runs: HashMap::new(),
            a: None,
            b: None,
            count: 0,
            half: false,
        }
    }

    fn flush(&mut self) {
        let (Some(a), b) = (self.a, self.b) else {
            return;
        };
        if self.count > 0 {
            let count = self.count;
            let run = self.runs.entry((a, b, count)).or_insert_with(|| {
                let unit = match b {
                    Some(b) => Word::seq(vec![Word::Letter(a), Word::Letter(b)]),
                    None => Word::Letter(a),
                };
                unit.pow(count as i64)
            });
            self.items.push(run.clone());
        }
        if self.half {
            self.items.push(Word::Letter(a));
        }
        self.a = None;
        self.b = None;
        self.count = 0;
        self.half = false;
    }

    pub fn push(&mut self, l: u32) {
        match (self.a, self.b) {
            (None, _) => {
                self.a = Some(l);
                self.half = true;
            }
            (Some(a), None) => {
                // A period-1 run, or the start of a period-2 one.
                if l == a {
                    if self.half {
                        self.half = false;
                        self.count += 1;
                    }
                    self.count += 1;
                } else if self.half && self.count == 0 {
                    self.b = Some(l);
                    self.half = false;
                    self.count = 1;
                } else {
                    // A run of a's: fold it, start again with l.
                    if self.half {
                        self.half = false;
                        self.count += 1;
                    }
                    self.flush();
                    self.push(l);
                }
            }
            (Some(a), Some(b)) => {
                if !self.half && l == a {
                    self.half = true;
                } else if self.half && l == b {
                    self.half = false;
                    self.count += 1;
                } else if self.count == 1 && !self.half {
                    // Only one (a b) so far: emit a, continue a run from b.
                    self.items.push(Word::Letter(a));
                    self.a = Some(b);
                    self.b = None;
                    self.count = 0;
                    self.half = true;
                    self.push(l);
                } else {
                    self.flush();
                    self.push(l);
                }
            }
        }
    }

    pub fn finish(mut self) -> Word {
        if self.a.is_some() && self.b.is_none() && self.half {
            self.half = false;
            self.count += 1;
        }
        self.flush();
        cat(self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use puz_testkit::{cycles::*, notation::*};

    fn al() -> Alphabet {
        alphabet(&six_piece(), &["R", "L", "U"])
    }

    fn sample(seed: &[u32], reps: u64) -> Word {
        let inner = Word::named(
            "X",
            Word::seq(seed.iter().map(|&l| Word::Letter(l)).collect()),
        );
        Word::seq(vec![
            Word::Letter(4),
            inner.clone().pow(reps as i64),
            inner.inverse().pow(2),
            Word::Letter(0),
        ])
    }

    proptest! {
        #[test]
        fn split_rotate_replace_agree_with_letters(seed in proptest::collection::vec(0u32..6, 1..6), reps in 1u64..5, cut in 0usize..40) {
            let a = al();
            let w = sample(&seed, reps);
            let all = w.letters(&a);
            let i = cut % (all.len() + 1);
            let (p, s) = split_at(&w, &a, i as u128);
            prop_assert_eq!(p.letters(&a), all[..i].to_vec());
            prop_assert_eq!(s.letters(&a), all[i..].to_vec());
            let r = rotate(&w, &a, i as u128);
            let mut expect = all[i..].to_vec();
            expect.extend(&all[..i]);
            prop_assert_eq!(r.letters(&a), expect);
            if i < all.len() {
                let rep = replace_at(&w, &a, i as u128, Word::seq(vec![Word::Letter(2), Word::Letter(3)]));
                let mut e = all[..i].to_vec();
                e.extend([2, 3]);
                e.extend(&all[i + 1..]);
                prop_assert_eq!(rep.letters(&a), e);
            }
        }

        #[test]
        fn substitution_sees_the_parity(seed in proptest::collection::vec(0u32..6, 1..6), reps in 1u64..6) {
            let a = al();
            let w = sample(&seed, reps);
            let f = |l: u32, odd: bool| if odd { Word::seq(vec![Word::Letter(l), Word::Letter(l)]) } else { Word::Letter(l) };
            let got = substitute(&w, &a, &f).letters(&a);
            let mut e = Vec::new();
            for (k, l) in w.letters(&a).into_iter().enumerate() {
                e.push(l);
                if k % 2 == 1 { e.push(l); }
            }
            prop_assert_eq!(got, e);
        }

        #[test]
        fn folding_keeps_the_letters(ls in proptest::collection::vec(0u32..3, 0..60)) {
            let mut f = Folder::new();
            for &l in &ls { f.push(l); }
            let w = f.finish();
            prop_assert_eq!(w.letters(&al()), ls);
        }
    }

    #[test]
    fn folding_finds_alternations() {
        let a = al();
        let mut f = Folder::new();
        for _ in 0..105 {
            f.push(0);
            f.push(2);
        }
        f.push(1);
        assert_eq!(f.finish().display(&a), "(R L)105 R'");
    }

    #[test]
    fn equal_runs_are_one_node() {
        let mut f = Folder::new();
        for block in [[0, 2], [4, 4], [0, 2]] {
            for _ in 0..7 {
                f.push(block[0]);
                f.push(block[1]);
            }
            f.push(1);
        }
        let Word::Seq(items) = f.finish() else {
            panic!("a sequence")
        };
        assert_eq!(items.len(), 6);
        let (Word::Repeat(x, 7), Word::Repeat(y, 7)) = (&items[0], &items[4]) else {
            panic!("runs of 7: {items:?}")
        };
        assert!(Arc::ptr_eq(x, y), "the two (R L)7 share one node");
    }
}
