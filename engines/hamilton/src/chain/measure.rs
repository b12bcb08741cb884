//! Lengths, products, letter searches and cuts of nested words that share sub-words.
//!
//! A word built level by level is a DAG: one Hamilton path of a subgroup appears in
//! millions of places. [`Word::len`] and [`Word::eval`] walk it as a tree, which never
//! ends. Here results are memoised by node identity (the address of a `Seq`'s items):
//! a node is remembered when it is shared (`Arc::strong_count > 1`), long, or took many
//! node visits to compute. Sharing alone makes every query linear in the DAG; the visit
//! count bounds the queries that come after: the coset words of a level are unshared and
//! shorter than `long`, yet each holds a whole tree of cosets below it, and every cut of
//! the level above (thousands of them) would otherwise measure that tree again. The memo
//! keeps a clone of each node it remembers, so an address cannot be reused by another
//! node while it is in the table.

use crate::coords::FastMap;
use puz_core::{Alphabet, Perm, Word};
use std::collections::HashMap;
use std::sync::Arc;

/// Letters of a node as a bit set. Without it a search for a letter the word lacks walks
/// the whole DAG as a tree; so the set covers alphabets as large as the big cubes' (the
/// 4x4x4 has more than 128 letters), and only past [`Mask::LETTERS`] is every letter
/// assumed present.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Mask([u64; 8]);

impl Mask {
    const LETTERS: usize = 512;
    const NONE: Mask = Mask([0; 8]);
    const ALL: Mask = Mask([u64::MAX; 8]);

    fn letter(l: u32) -> Mask {
        let mut m = Mask::NONE;
        m.0[l as usize / 64] = 1 << (l % 64);
        m
    }

    fn has(&self, l: u32) -> bool {
        self.0[l as usize / 64] >> (l % 64) & 1 == 1
    }

    fn or(&mut self, o: &Mask) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}

/// Memoised measures of nested words over one alphabet.
pub struct Measure<'a> {
    alpha: &'a Alphabet,
    degree: usize,
    /// Nodes at least this long are remembered even when not shared.
    long: u128,
    lens: FastMap<usize, (Word, u128)>,
    prods: FastMap<usize, (Word, Perm)>,
    masks: FastMap<usize, (Word, Mask)>,
    /// Nodes visited so far (not answered by a memo), to price each computation.
    visits: u64,
}

/// A node whose computation visited at least this many nodes is remembered: so a node not
/// remembered costs at most this many visits each time it is asked again.
const COSTLY: u64 = 64;

fn node_id(items: &Arc<[Word]>) -> usize {
    items.as_ptr() as *const u8 as usize
}

/// A node worth remembering: shared (itself, or the inverse, repetition or name that
/// wraps it: `wrapped`), or with many letters below it.
fn worth(items: &Arc<[Word]>, len: u128, long: u128, wrapped: bool) -> bool {
    !items.is_empty() && (wrapped || Arc::strong_count(items) > 1 || len >= long)
}

/// The word inside a wrapper, and whether the wrapper is shared.
fn inner(x: &Arc<Word>) -> (&Word, bool) {
    (x, Arc::strong_count(x) > 1)
}

impl<'a> Measure<'a> {
    pub fn new(alpha: &'a Alphabet, degree: usize) -> Measure<'a> {
        Measure {
            alpha,
            degree,
            long: 1 << 32,
            lens: FastMap::default(),
            prods: FastMap::default(),
            masks: FastMap::default(),
            visits: 0,
        }
    }

    /// Remembers unshared nodes of at least `long` letters (shared ones always).
    pub fn with_long(mut self, long: u128) -> Measure<'a> {
        self.long = long;
        self
    }

    pub fn alphabet(&self) -> &'a Alphabet {
        self.alpha
    }

    pub fn degree(&self) -> usize {
        self.degree
    }

    /// Forgets everything (the words measured so far may then be dropped safely anyway).
    pub fn clear(&mut self) {
        self.lens.clear();
        self.prods.clear();
        self.masks.clear();
    }

    /// The number of letters (saturating).
    pub fn len(&mut self, w: &Word) -> u128 {
        self.len_in(w, false)
    }

    fn len_in(&mut self, w: &Word, wrapped: bool) -> u128 {
        match w {
            Word::Letter(_) => 1,
            Word::Named(_, x) | Word::Inverse(x) => {
                let (x, sh) = inner(x);
                self.len_in(x, sh)
            }
            Word::Repeat(x, n) => {
                let (x, sh) = inner(x);
                self.len_in(x, sh).saturating_mul(*n as u128)
            }
            Word::Seq(items) => {
                let id = node_id(items);
                if let Some((_, l)) = self.lens.get(&id) {
                    return *l;
                }
                let v0 = self.visits;
                self.visits += items.len() as u64;
                let mut l = 0u128;
                for x in items.iter() {
                    l = l.saturating_add(self.len(x));
                }
                if worth(items, l, self.long, wrapped) || self.visits - v0 >= COSTLY {
                    self.lens.insert(id, (w.clone(), l));
                }
                l
            }
        }
    }

    /// The permutation the word performs.
    pub fn product(&mut self, w: &Word) -> Perm {
        self.product_in(w, false)
    }

    fn product_in(&mut self, w: &Word, wrapped: bool) -> Perm {
        match w {
            Word::Letter(l) => self.alpha.perms[*l as usize].clone(),
            Word::Named(_, x) => {
                let (x, sh) = inner(x);
                self.product_in(x, sh)
            }
            Word::Inverse(x) => {
                let (x, sh) = inner(x);
                self.product_in(x, sh).inverse()
            }
            Word::Repeat(x, n) => {
                let (x, sh) = inner(x);
                self.product_in(x, sh).pow(*n as i64)
            }
            Word::Seq(items) => {
                let id = node_id(items);
                if let Some((_, p)) = self.prods.get(&id) {
                    return p.clone();
                }
                let v0 = self.visits;
                self.visits += items.len() as u64;
                let mut p = Perm::identity(self.degree);
                for x in items.iter() {
                    match x {
                        Word::Letter(l) => p.then_assign(&self.alpha.perms[*l as usize]),
                        _ => {
                            let q = self.product(x);
                            p.then_assign(&q);
                        }
                    }
                }
                let costly = self.visits - v0 >= COSTLY;
                let l = self.len_in(w, wrapped);
                if costly || worth(items, l, self.long, wrapped) {
                    self.prods.insert(id, (w.clone(), p.clone()));
                }
                p
            }
        }
    }

    fn mask(&mut self, w: &Word) -> Mask {
        self.mask_in(w, false)
    }

    fn mask_in(&mut self, w: &Word, wrapped: bool) -> Mask {
        if self.alpha.len() > Mask::LETTERS {
            return Mask::ALL;
        }
        match w {
            Word::Letter(l) => Mask::letter(*l),
            Word::Named(_, x) | Word::Repeat(x, _) => {
                let (x, sh) = inner(x);
                self.mask_in(x, sh)
            }
            Word::Inverse(x) => {
                let (x, sh) = inner(x);
                let m = self.mask_in(x, sh);
                let mut out = Mask::NONE;
                for l in 0..self.alpha.len() as u32 {
                    if m.has(l) {
                        out.or(&Mask::letter(self.alpha.inverse[l as usize]));
                    }
                }
                out
            }
            Word::Seq(items) => {
                let id = node_id(items);
                if let Some((_, m)) = self.masks.get(&id) {
                    return *m;
                }
                let v0 = self.visits;
                self.visits += items.len() as u64;
                let mut m = Mask::NONE;
                for x in items.iter() {
                    let mx = self.mask(x);
                    m.or(&mx);
                }
                let costly = self.visits - v0 >= COSTLY;
                let l = self.len_in(w, wrapped);
                if costly || worth(items, l, self.long, wrapped) {
                    self.masks.insert(id, (w.clone(), m));
                }
                m
            }
        }
    }

    /// The first index `>= from` holding `letter`.
    pub fn find(&mut self, w: &Word, letter: u32, from: u128) -> Option<u128> {
        let len = self.len(w);
        if from >= len || !self.mask(w).has(letter) {
            return None;
        }
        match w {
            Word::Letter(l) => (*l == letter).then_some(0),
            Word::Named(_, x) => self.find(x, letter, from),
            Word::Inverse(x) => {
                // Index j of x' is index len-1-j of x, with the letter inverted.
                let inv = self.alpha.inverse[letter as usize];
                self.rfind(x, inv, len - 1 - from).map(|k| len - 1 - k)
            }
            Word::Repeat(x, n) => {
                let lx = len / *n as u128;
                let k = from / lx;
                if let Some(i) = self.find(x, letter, from % lx) {
                    return Some(k * lx + i);
                }
                if k + 1 < *n as u128 {
                    return self.find(x, letter, 0).map(|i| (k + 1) * lx + i);
                }
                None
            }
            Word::Seq(items) => {
                let mut acc = 0u128;
                for x in items.iter() {
                    let l = self.len(x);
                    if acc + l > from {
                        let local = from.saturating_sub(acc);
                        if let Some(i) = self.find(x, letter, local) {
                            return Some(acc + i);
                        }
                    }
                    acc += l;
                }
                None
            }
        }
    }

    /// The last index `<= upto` holding `letter`.
    pub fn rfind(&mut self, w: &Word, letter: u32, upto: u128) -> Option<u128> {
        let len = self.len(w);
        if len == 0 || !self.mask(w).has(letter) {
            return None;
        }
        let upto = upto.min(len - 1);
        match w {
            Word::Letter(l) => (*l == letter).then_some(0),
            Word::Named(_, x) => self.rfind(x, letter, upto),
            Word::Inverse(x) => {
                let inv = self.alpha.inverse[letter as usize];
                self.find(x, inv, len - 1 - upto).map(|k| len - 1 - k)
            }
            Word::Repeat(x, _) => {
                let lx = self.len(x);
                let k = upto / lx;
                if let Some(i) = self.rfind(x, letter, upto % lx) {
                    return Some(k * lx + i);
                }
                if k > 0 {
                    return self.rfind(x, letter, lx - 1).map(|i| (k - 1) * lx + i);
                }
                None
            }
            Word::Seq(items) => {
                let mut ends = Vec::with_capacity(items.len());
                let mut acc = 0u128;
                for x in items.iter() {
                    acc += self.len(x);
                    ends.push(acc);
                }
                for (j, x) in items.iter().enumerate().rev() {
                    let start = ends[j] - self.len(x);
                    if start > upto {
                        continue;
                    }
                    if let Some(i) = self.rfind(x, letter, upto - start) {
                        return Some(start + i);
                    }
                }
                None
            }
        }
    }

    /// The product of the first `i` letters.
    pub fn prefix(&mut self, w: &Word, i: u128) -> Perm {
        let len = self.len(w);
        assert!(i <= len, "prefix {i} past the end {len}");
        if i == 0 {
            return Perm::identity(self.degree);
        }
        if i == len {
            return self.product(w);
        }
        match w {
            Word::Letter(_) => unreachable!("a letter has no inner prefix"),
            Word::Named(_, x) => self.prefix(x, i),
            Word::Inverse(x) => {
                // x = A B with |B| = i: the first i letters of x' are B' = (A' x)' = x' A.
                let whole = self.product(x).inverse();
                let a = self.prefix(x, len - i);
                whole.then(&a)
            }
            Word::Repeat(x, _) => {
                let lx = self.len(x);
                let q = (i / lx) as i64;
                let p = self.product(x).pow(q);
                p.then(&self.prefix(x, i % lx))
            }
            Word::Seq(items) => {
                let mut p = Perm::identity(self.degree);
                let mut acc = 0u128;
                for x in items.iter() {
                    let l = self.len(x);
                    if acc + l <= i {
                        let q = self.product(x);
                        p.then_assign(&q);
                        acc += l;
                        if acc == i {
                            return p;
                        }
                        continue;
                    }
                    let q = self.prefix(x, i - acc);
                    return p.then(&q);
                }
                unreachable!("prefix inside the sequence")
            }
        }
    }

    /// The first `i` letters and the rest, sharing every untouched sub-word: a cut makes
    /// new nodes only along the path to letter `i`.
    pub fn split_at(&mut self, w: &Word, i: u128) -> (Word, Word) {
        let len = self.len(w);
        assert!(i <= len, "cut {i} past the end {len}");
        if i == 0 {
            return (Word::empty(), w.clone());
        }
        if i == len {
            return (w.clone(), Word::empty());
        }
        match w {
            Word::Letter(_) => unreachable!("a letter has no inner cut"),
            Word::Named(_, x) => self.split_at(x, i),
            Word::Inverse(x) => {
                let (a, b) = self.split_at(x, len - i);
                (inverse(b), inverse(a))
            }
            Word::Repeat(x, n) => {
                let l = self.len(x);
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
                let (a, b) = self.split_at(x, r);
                (cat(vec![whole(q), a]), cat(vec![b, whole(n - q - 1)]))
            }
            Word::Seq(items) => {
                let mut acc = 0u128;
                for (k, x) in items.iter().enumerate() {
                    let l = self.len(x);
                    if acc + l <= i {
                        acc += l;
                        if acc == i {
                            return (cat(items[..=k].to_vec()), cat(items[k + 1..].to_vec()));
                        }
                        continue;
                    }
                    let (a, b) = self.split_at(x, i - acc);
                    let mut left = items[..k].to_vec();
                    left.push(a);
                    let mut right = vec![b];
                    right.extend(items[k + 1..].iter().cloned());
                    return (cat(left), cat(right));
                }
                unreachable!("cut inside the sequence")
            }
        }
    }

    /// Letters `from..to`.
    pub fn slice(&mut self, w: &Word, from: u128, to: u128) -> Word {
        let (a, _) = self.split_at(w, to);
        self.split_at(&a, from).1
    }

    /// [`Measure::slice`], made once per `(key, from, to)` in `made`: the same piece of a
    /// path cut at the same places by several splices is one shared node.
    pub fn slice_once<K: std::hash::Hash + Eq>(
        &mut self,
        made: &mut HashMap<(K, u128, u128), Word>,
        key: K,
        w: &Word,
        from: u128,
        to: u128,
    ) -> Word {
        made.entry((key, from, to))
            .or_insert_with(|| self.slice(w, from, to))
            .clone()
    }

    /// The cyclic rotation starting at letter `i`: `w[i..] w[..i]`.
    pub fn rotate(&mut self, w: &Word, i: u128) -> Word {
        let (a, b) = self.split_at(w, i);
        cat(vec![b, a])
    }

    /// A Hamilton path with the effect of `letter` from a Hamilton cycle: the cycle
    /// rotated to end with the inverse letter, without it (or the same on the reversed
    /// cycle). `None` when neither the letter nor its inverse occurs.
    pub fn path_with_effect(&mut self, cycle: &Word, letter: u32) -> Option<Word> {
        let inv = self.alpha.inverse[letter as usize];
        let (w, k) = match self.find(cycle, inv, 0) {
            Some(k) => (cycle.clone(), k),
            None => {
                let rev = inverse(cycle.clone());
                let k = self.find(&rev, inv, 0)?;
                (rev, k)
            }
        };
        let r = self.rotate(&w, k + 1);
        let l = self.len(&r);
        Some(self.split_at(&r, l - 1).0)
    }
}

/// The inverse, without wrapping a letter of an alphabet that is its own inverse twice.
pub fn inverse(w: Word) -> Word {
    match w {
        Word::Seq(ref items) if items.is_empty() => w,
        w => w.inverse(),
    }
}

/// A sequence without empty parts (a single part stands alone).
pub fn cat(items: Vec<Word>) -> Word {
    let items: Vec<Word> = items
        .into_iter()
        .filter(|w| !matches!(w, Word::Seq(x) if x.is_empty()))
        .collect();
    if items.is_empty() {
        return Word::empty();
    }
    Word::seq(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use puz_testkit::{cycles::*, notation::*};

    fn al() -> Alphabet {
        alphabet(&six_piece(), &["R", "L", "U"])
    }

    /// A word with shared, repeated and inverted parts.
    fn sample(seed: &[u32], reps: u64) -> Word {
        let inner = Word::named(
            "X",
            Word::seq(seed.iter().map(|&l| Word::Letter(l)).collect()),
        );
        let shared = Word::seq(vec![inner.clone(), Word::Letter(2), inner.clone()]);
        Word::seq(vec![
            Word::Letter(4),
            inner.clone().pow(reps as i64),
            shared.clone(),
            inner.inverse().pow(2),
            shared.inverse(),
            Word::Letter(0),
        ])
    }

    proptest! {
        #[test]
        fn measures_agree_with_letters(seed in proptest::collection::vec(0u32..6, 1..6), reps in 1u64..5, cut in 0usize..80, look in 0u32..6) {
            let a = al();
            let w = sample(&seed, reps);
            let all = w.letters(&a);
            let mut m = Measure::new(&a, 6);
            prop_assert_eq!(m.len(&w), all.len() as u128);
            prop_assert_eq!(m.product(&w), w.eval(&a, 6));
            let i = cut % (all.len() + 1);
            let (p, s) = m.split_at(&w, i as u128);
            prop_assert_eq!(p.letters(&a), all[..i].to_vec());
            prop_assert_eq!(s.letters(&a), all[i..].to_vec());
            prop_assert_eq!(m.prefix(&w, i as u128), p.eval(&a, 6));
            let r = m.rotate(&w, i as u128);
            let mut expect = all[i..].to_vec();
            expect.extend(&all[..i]);
            prop_assert_eq!(r.letters(&a), expect);
            let found = all.iter().enumerate().skip(i).find(|x| *x.1 == look).map(|x| x.0 as u128);
            prop_assert_eq!(m.find(&w, look, i as u128), found);
            let last = all.iter().enumerate().take(i + 1).filter(|x| *x.1 == look).map(|x| x.0 as u128).next_back();
            prop_assert_eq!(m.rfind(&w, look, i as u128), last);
        }
    }

    #[test]
    fn a_deep_dag_is_measured_without_expanding_it() {
        // w_{k+1} = w_k U w_k: 3·2^60 - 1 letters, 60 nodes.
        let a = al();
        let mut w = Word::seq(vec![Word::Letter(0), Word::Letter(2)]);
        for _ in 0..60 {
            w = Word::seq(vec![w.clone(), Word::Letter(4), w]);
        }
        let mut m = Measure::new(&a, 6);
        let len = m.len(&w);
        assert_eq!(len, 3 * (1u128 << 60) - 1);
        // The product of w_k: (R L)-ish pattern checked against a short analogue.
        let p = m.product(&w);
        assert_eq!(p.degree(), 6);
        let (x, y) = m.split_at(&w, len / 3);
        assert_eq!(m.len(&x) + m.len(&y), len);
        assert_eq!(m.prefix(&w, len / 3).then(&m.product(&y)), p);
        let i = m.find(&w, 4, len / 2).unwrap();
        assert!(i >= len / 2);
        // A shared inverse around an unshared sequence is remembered too.
        let mut x = Word::seq(vec![Word::Letter(0), Word::Letter(2)]);
        for _ in 0..60 {
            let inv = Word::seq(vec![x, Word::Letter(2)]).inverse();
            x = Word::seq(vec![inv.clone(), Word::Letter(4), inv]);
        }
        assert_eq!(m.len(&x), m.len(&w) + (1u128 << 61) - 2);
        let b = crate::chain::balance::balance(&x, 4);
        assert_eq!(m.len(&b), m.len(&x));
        assert_eq!(m.product(&b), m.product(&x));
        let cycle = Word::seq(vec![w.clone(), w.clone().inverse()]);
        // A letter the word lacks is not searched for letter by letter, in an alphabet of
        // more than 128 letters too (as the 4x4x4's): the walk would never end.
        let mut big = a.clone();
        for k in 0..300u32 {
            big.names.push(format!("X{k}"));
            big.perms.push(a.perms[0].clone());
            big.inverse.push(6 + k);
        }
        let mut mb = Measure::new(&big, 6);
        assert_eq!(mb.find(&w, 250, 0), None);
        assert_eq!(mb.rfind(&w, 250, len - 1), None);
        assert_eq!(mb.find(&w, 4, len / 2), Some(i));
        let path = m.path_with_effect(&cycle, 4).unwrap();
        assert_eq!(m.product(&path), a.perms[4].clone());
    }
}
