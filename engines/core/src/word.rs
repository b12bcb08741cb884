//! Nested move sequences ("words") that keep their structure.
//!
//! A [`Word`] is a tree: letters (indices into an [`Alphabet`]), sequences, repetitions,
//! inverses and named macros. `(P F P B)^2` with `P` of length 10^8 stays a few nodes;
//! [`Word::stream`] yields its letters one by one without expanding it, and
//! [`Word::locate`] says where a letter index falls in the user's own definitions.

use crate::perm::Perm;
use std::collections::HashMap;
use std::sync::Arc;

/// The name of the move `name` to the power `p` (taken modulo `order`, the move's order):
/// `U`, `U2`, `U'`; past half the order the inverse is shorter to read (`R2'` for a
/// Megaminx face's `R^3`, as WCA and twsearch write it). `p` of 0 names the move itself.
pub fn power_name(name: &str, p: u64, order: u64) -> String {
    let p = p.checked_rem(order).unwrap_or(p);
    if p <= 1 {
        name.to_string()
    } else if order == 0 {
        format!("{name}{p}")
    } else if p == order - 1 {
        format!("{name}'")
    } else if p > order - p {
        format!("{name}{}'", order - p)
    } else {
        format!("{name}{p}")
    }
}

/// The letters a word is written in: each a named permutation with a known inverse letter.
#[derive(Clone, Debug, Default)]
pub struct Alphabet {
    pub names: Vec<String>,
    pub perms: Vec<Perm>,
    /// `inverse[l]` is the letter whose permutation is the inverse of letter `l`'s.
    pub inverse: Vec<u32>,
}

impl Alphabet {
    /// Builds an alphabet, finding each letter's inverse among the letters.
    /// Returns `None` if some letter's inverse is missing.
    pub fn new(names: Vec<String>, perms: Vec<Perm>) -> Option<Alphabet> {
        let mut inverse = Vec::with_capacity(perms.len());
        for p in &perms {
            let inv = p.inverse();
            inverse.push(perms.iter().position(|q| *q == inv)? as u32);
        }
        Some(Alphabet {
            names,
            perms,
            inverse,
        })
    }

    pub fn len(&self) -> usize {
        self.perms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    pub fn index(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|n| n == name).map(|i| i as u32)
    }
}

/// A nested move sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    /// One letter of the alphabet.
    Letter(u32),
    /// Words one after another.
    Seq(Arc<[Word]>),
    /// A word repeated `n` times.
    Repeat(Arc<Word>, u64),
    /// The inverse of a word: its letters reversed and inverted.
    Inverse(Arc<Word>),
    /// A word with the name the user gave it, kept for reports.
    Named(Arc<str>, Arc<Word>),
}

/// The longest text [`Word::display`] writes.
pub const DISPLAY_LIMIT: usize = 100_000;

/// One level of the path from a word down to one of its letters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// Inside the macro with this name.
    Named(String),
    /// Repetition `k` (1-based) of `n`.
    Repeat { k: u64, n: u64 },
    /// Item `i` (1-based) of a sequence of `n`.
    Item { i: usize, n: usize },
    /// Inside an inverse.
    Inverse,
}

impl Word {
    pub fn empty() -> Word {
        Word::Seq(Arc::from(Vec::new()))
    }

    pub fn seq(items: Vec<Word>) -> Word {
        if items.len() == 1 {
            return items.into_iter().next().unwrap();
        }
        Word::Seq(Arc::from(items))
    }

    /// `self` repeated `n` times; a negative `n` repeats the inverse.
    pub fn pow(self, n: i64) -> Word {
        let base = if n < 0 { self.inverse() } else { self };
        match n.unsigned_abs() {
            1 => base,
            // Streaming `()^1000000000000` would step through every empty repetition;
            // measuring the base costs its size, paid only for large counts.
            k if k > 1 << 16 && base.is_empty() => Word::empty(),
            k => Word::Repeat(Arc::new(base), k),
        }
    }

    pub fn inverse(self) -> Word {
        match self {
            Word::Inverse(w) => (*w).clone(),
            Word::Seq(items) if items.is_empty() => Word::empty(),
            w => Word::Inverse(Arc::new(w)),
        }
    }

    /// The node's identity: its kind, the address of its shared contents and a count
    /// (a letter: its index). A clone of a node is the same node, and contents behind an
    /// `Arc` never change, so equal identities mean equal letters: memo tables over words
    /// key on this. The address alone is not enough: `Repeat(x, 2)`, `Repeat(x, 3)`,
    /// `Inverse(x)` and `Named(n, x)` may all hold the same `x`.
    pub fn node_id(&self) -> (u8, usize, u64) {
        match self {
            Word::Letter(l) => (0, *l as usize, 0),
            Word::Seq(items) => (1, items.as_ptr() as usize, items.len() as u64),
            Word::Repeat(x, n) => (2, Arc::as_ptr(x) as usize, *n),
            Word::Inverse(x) => (3, Arc::as_ptr(x) as usize, 0),
            Word::Named(_, x) => (4, Arc::as_ptr(x) as usize, 0),
        }
    }

    pub fn named(name: &str, w: Word) -> Word {
        Word::Named(Arc::from(name), Arc::new(w))
    }

    /// `[a, b] = a b a' b'`.
    pub fn commutator(a: Word, b: Word) -> Word {
        Word::seq(vec![a.clone(), b.clone(), a.inverse(), b.inverse()])
    }

    /// `[a: b] = a b a'`.
    pub fn conjugate(a: Word, b: Word) -> Word {
        Word::seq(vec![a.clone(), b, a.inverse()])
    }

    /// The number of letters, saturating at `u128::MAX`. A node shared within the word
    /// (`[A, B]` holds `A` and `B` twice each) is measured once, so nested commutators
    /// cost their depth, not their length.
    pub fn len(&self) -> u128 {
        self.len_in(&mut HashMap::new())
    }

    fn len_in(&self, memo: &mut HashMap<(usize, u8, u64), u128>) -> u128 {
        let key = self.shared_key();
        if let Some(v) = key.and_then(|k| memo.get(&k)) {
            return *v;
        }
        let v = match self {
            Word::Letter(_) => 1,
            Word::Seq(items) => items
                .iter()
                .fold(0u128, |acc, w| acc.saturating_add(w.len_in(memo))),
            Word::Repeat(w, n) => w.len_in(memo).saturating_mul(*n as u128),
            Word::Inverse(w) | Word::Named(_, w) => w.len_in(memo),
        };
        if let Some(k) = key {
            memo.insert(k, v);
        }
        v
    }

    /// This node's identity when other words hold its payload too (only those are worth
    /// remembering): the payload's address with the node's kind and count, since
    /// `Repeat(x, 2)`, `Repeat(x, 3)` and `Inverse(x)` may share `x`.
    fn shared_key(&self) -> Option<(usize, u8, u64)> {
        let shared = |w: &Arc<Word>, tag: u8, n: u64| {
            (Arc::strong_count(w) > 1).then_some((Arc::as_ptr(w) as usize, tag, n))
        };
        match self {
            Word::Letter(_) => None,
            Word::Seq(items) => {
                (Arc::strong_count(items) > 1).then(|| (items.as_ptr() as usize, 0, 0))
            }
            Word::Repeat(w, n) => shared(w, 1, *n),
            Word::Inverse(w) => shared(w, 2, 0),
            Word::Named(_, w) => shared(w, 3, 0),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The permutation the word performs (repetitions by repeated squaring; shared nodes
    /// once).
    pub fn eval(&self, alpha: &Alphabet, degree: usize) -> Perm {
        self.eval_in(alpha, degree, &mut HashMap::new())
    }

    fn eval_in(
        &self,
        alpha: &Alphabet,
        degree: usize,
        memo: &mut HashMap<(usize, u8, u64), Perm>,
    ) -> Perm {
        let key = self.shared_key();
        if let Some(v) = key.and_then(|k| memo.get(&k)) {
            return v.clone();
        }
        let v = match self {
            Word::Letter(l) => alpha.perms[*l as usize].clone(),
            Word::Seq(items) => {
                let mut acc = Perm::identity(degree);
                for w in items.iter() {
                    acc = acc.then(&w.eval_in(alpha, degree, memo));
                }
                acc
            }
            Word::Repeat(w, n) => w.eval_in(alpha, degree, memo).pow(*n as i64),
            Word::Inverse(w) => w.eval_in(alpha, degree, memo).inverse(),
            Word::Named(_, w) => w.eval_in(alpha, degree, memo),
        };
        if let Some(k) = key {
            memo.insert(k, v.clone());
        }
        v
    }

    /// The letters in order, streamed from the nested form.
    pub fn stream<'a>(&'a self, alpha: &'a Alphabet) -> Stream<'a> {
        Stream {
            inverse: &alpha.inverse,
            stack: vec![(self, false, 0)],
            empty: HashMap::new(),
        }
    }

    /// All letters in a vector (only for words known to be short).
    pub fn letters(&self, alpha: &Alphabet) -> Vec<u32> {
        self.stream(alpha).collect()
    }

    /// Where letter `index` (0-based) sits in the nested structure, outermost first,
    /// with the letter itself. `None` when the index is past the end.
    pub fn locate(&self, alpha: &Alphabet, index: u128) -> Option<(Vec<Frame>, u32)> {
        let mut memo = HashMap::new();
        self.locate_with(alpha, index, &mut |w| w.len_in(&mut memo))
    }

    /// [`Word::locate`] with the lengths of nodes from `len`, for callers that keep their
    /// own lengths across many look-ups.
    pub fn locate_with(
        &self,
        alpha: &Alphabet,
        index: u128,
        len: &mut dyn FnMut(&Word) -> u128,
    ) -> Option<(Vec<Frame>, u32)> {
        let mut frames = Vec::new();
        let mut node = self;
        let mut inverted = false;
        let mut i = index;
        if i >= len(self) {
            return None;
        }
        loop {
            match node {
                Word::Letter(l) => {
                    let l = if inverted {
                        alpha.inverse[*l as usize]
                    } else {
                        *l
                    };
                    return Some((frames, l));
                }
                Word::Named(name, w) => {
                    frames.push(Frame::Named(name.to_string()));
                    node = w;
                }
                Word::Inverse(w) => {
                    frames.push(Frame::Inverse);
                    inverted = !inverted;
                    node = w;
                }
                Word::Repeat(w, n) => {
                    let l = len(w);
                    let k = (i / l) as u64;
                    i %= l;
                    let k_shown = if inverted { *n - k } else { k + 1 };
                    frames.push(Frame::Repeat { k: k_shown, n: *n });
                    node = w;
                }
                Word::Seq(items) => {
                    let n = items.len();
                    let order: Box<dyn Iterator<Item = usize>> = if inverted {
                        Box::new((0..n).rev())
                    } else {
                        Box::new(0..n)
                    };
                    let mut found = None;
                    for j in order {
                        let l = len(&items[j]);
                        if i < l {
                            found = Some(j);
                            break;
                        }
                        i -= l;
                    }
                    let j = found?;
                    frames.push(Frame::Item { i: j + 1, n });
                    node = &items[j];
                }
            }
        }
    }

    /// Writes the word in cuber's notation with the alphabet's names; a text longer than
    /// [`DISPLAY_LIMIT`] is cut and ends with `…` (nested words can be far longer to write
    /// than to hold).
    pub fn display(&self, alpha: &Alphabet) -> String {
        self.display_upto(alpha, DISPLAY_LIMIT)
    }

    /// [`Word::display`] cut after `limit` bytes (written only that far).
    pub fn display_upto(&self, alpha: &Alphabet, limit: usize) -> String {
        let mut out = String::new();
        self.write(alpha, &mut out, true, limit);
        if out.len() > limit {
            let mut cut = limit;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str(" …");
        }
        out
    }

    fn write(&self, alpha: &Alphabet, out: &mut String, top: bool, limit: usize) {
        if out.len() > limit {
            return;
        }
        let sep = |out: &mut String| {
            if !out.is_empty() && !out.ends_with(' ') && !out.ends_with('(') {
                out.push(' ');
            }
        };
        match self {
            Word::Letter(l) => {
                sep(out);
                out.push_str(&alpha.names[*l as usize]);
            }
            Word::Named(name, _) => {
                sep(out);
                out.push_str(name);
            }
            Word::Seq(items) => {
                if items.is_empty() {
                    sep(out);
                    out.push_str("()");
                    return;
                }
                if !top {
                    sep(out);
                    out.push('(');
                }
                for w in items.iter() {
                    // A sequence inside a sequence keeps its parentheses: `(D2 U2) F`.
                    w.write(
                        alpha,
                        out,
                        !matches!(w, Word::Seq(inner) if inner.len() > 1),
                        limit,
                    );
                }
                if !top {
                    out.push(')');
                }
            }
            Word::Repeat(w, n) => {
                w.write_atom(alpha, out, limit);
                out.push_str(&n.to_string());
            }
            Word::Inverse(w) => {
                w.write_atom(alpha, out, limit);
                out.push('\'');
            }
        }
    }

    fn write_atom(&self, alpha: &Alphabet, out: &mut String, limit: usize) {
        match self {
            Word::Letter(_) | Word::Named(..) => self.write(alpha, out, false, limit),
            Word::Seq(items) if items.len() > 1 => self.write(alpha, out, false, limit),
            _ => {
                let mut s = String::new();
                self.write(alpha, &mut s, true, limit);
                let sep = !out.is_empty() && !out.ends_with(' ') && !out.ends_with('(');
                if sep {
                    out.push(' ');
                }
                out.push('(');
                out.push_str(&s);
                out.push(')');
            }
        }
    }
}

/// Iterator over the letters of a word, with a stack as deep as the nesting.
pub struct Stream<'a> {
    inverse: &'a [u32],
    /// (node, inverted, progress: next item index for Seq, repetitions done for Repeat)
    stack: Vec<(&'a Word, bool, u64)>,
    /// Whether a node (by address) has no letters: a repetition of one is skipped, not
    /// gone through `n` times (`(()^65536)^65536` took minutes to yield nothing).
    empty: HashMap<usize, bool>,
}

impl Stream<'_> {
    fn is_empty(&mut self, w: &Word) -> bool {
        let key = w as *const Word as usize;
        if let Some(&e) = self.empty.get(&key) {
            return e;
        }
        let e = match w {
            Word::Letter(_) => false,
            Word::Seq(items) => items.iter().all(|x| self.is_empty(x)),
            Word::Repeat(x, n) => *n == 0 || self.is_empty(x),
            Word::Inverse(x) | Word::Named(_, x) => self.is_empty(x),
        };
        self.empty.insert(key, e);
        e
    }
}

impl<'a> Iterator for Stream<'a> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        loop {
            let (node, inv, progress) = self.stack.last_mut()?;
            let inv = *inv;
            match node {
                Word::Letter(l) => {
                    let l = *l;
                    self.stack.pop();
                    return Some(if inv { self.inverse[l as usize] } else { l });
                }
                Word::Named(_, w) => {
                    let w: &'a Word = w;
                    self.stack.pop();
                    self.stack.push((w, inv, 0));
                }
                Word::Inverse(w) => {
                    let w: &'a Word = w;
                    self.stack.pop();
                    self.stack.push((w, !inv, 0));
                }
                Word::Repeat(w, n) => {
                    let (w, n, done): (&'a Word, u64, u64) = (w, *n, *progress);
                    if done >= n || (done == 0 && self.is_empty(w)) {
                        self.stack.pop();
                    } else {
                        self.stack.last_mut().expect("on the stack").2 += 1;
                        self.stack.push((w, inv, 0));
                    }
                }
                Word::Seq(items) => {
                    let n = items.len() as u64;
                    if *progress >= n {
                        self.stack.pop();
                    } else {
                        let j = if inv { n - 1 - *progress } else { *progress };
                        *progress += 1;
                        let items: &'a [Word] = items;
                        self.stack.push((&items[j as usize], inv, 0));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha() -> Alphabet {
        // Letters on 3 points: a = (0 1), b = (1 2) and c = (0 1 2), c' = (0 2 1).
        let a = Perm::from_cycles(3, &[vec![0, 1]]).unwrap();
        let b = Perm::from_cycles(3, &[vec![1, 2]]).unwrap();
        let c = Perm::from_cycles(3, &[vec![0, 1, 2]]).unwrap();
        let names = ["a", "b", "c", "c'"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        Alphabet::new(names, vec![a, b, c.clone(), c.inverse()]).unwrap()
    }

    #[test]
    fn repetitions_of_no_letters_stream_nothing() {
        let al = alpha();
        // (`pow` drops an empty base only above 65536 repetitions; tests/limits holds the
        // time this takes to a case's limit.)
        let empty = Arc::new(Word::seq(vec![]));
        let none = Word::Repeat(Arc::new(Word::Repeat(empty, 1 << 16)), 1 << 16);
        let w = Word::seq(vec![
            none.clone(),
            Word::Letter(0),
            Word::Inverse(Arc::new(Word::seq(vec![none, Word::Letter(2)]).pow(2))),
            Word::Letter(1).pow(0),
        ]);
        assert_eq!(w.letters(&al), vec![0, 3, 3]);
    }

    #[test]
    fn shared_nodes_of_different_kinds_are_measured_apart() {
        let al = alpha();
        let x = Word::seq(vec![Word::Letter(0), Word::Letter(2)]);
        let w = Word::seq(vec![
            x.clone().pow(2),
            x.clone().pow(3),
            x.clone().inverse(),
            Word::named("X", x.clone()),
        ]);
        let flat: Vec<u32> = w.stream(&al).collect();
        assert_eq!(w.len(), flat.len() as u128);
        assert_eq!(w.len(), 4 + 6 + 2 + 2);
        let mut p = Perm::identity(al.perms[0].degree());
        for &l in &flat {
            p = p.then(&al.perms[l as usize]);
        }
        assert_eq!(w.eval(&al, p.degree()), p);
    }

    #[test]
    fn stream_matches_eval() {
        let al = alpha();
        let w = Word::seq(vec![
            Word::Letter(0),
            Word::seq(vec![Word::Letter(2), Word::Letter(1)]).pow(3),
            Word::named("X", Word::commutator(Word::Letter(2), Word::Letter(0))),
        ])
        .pow(-2);
        let letters = w.letters(&al);
        assert_eq!(letters.len() as u128, w.len());
        let mut p = Perm::identity(3);
        for l in &letters {
            p = p.then(&al.perms[*l as usize]);
        }
        assert_eq!(p, w.eval(&al, 3));
        assert_eq!(w.clone().inverse().eval(&al, 3), w.eval(&al, 3).inverse());
    }

    #[test]
    fn locate_names_the_macro_and_repetition() {
        let al = alpha();
        let p = Word::named("P", Word::seq(vec![Word::Letter(0), Word::Letter(1)]));
        let w = Word::seq(vec![p.clone(), Word::Letter(2)]).pow(3);
        let (frames, l) = w.locate(&al, 4).unwrap();
        assert_eq!(l, 1);
        assert_eq!(
            frames,
            vec![
                Frame::Repeat { k: 2, n: 3 },
                Frame::Item { i: 1, n: 2 },
                Frame::Named("P".into()),
                Frame::Item { i: 1, n: 2 }
            ]
            .into_iter()
            .take(3)
            .chain([Frame::Item { i: 2, n: 2 }])
            .collect::<Vec<_>>()
        );
        assert!(w.locate(&al, 9).is_none());
        // Every located letter agrees with the stream.
        let inv = w.clone().inverse();
        for (i, l) in inv.stream(&al).enumerate() {
            assert_eq!(inv.locate(&al, i as u128).unwrap().1, l);
        }
    }

    #[test]
    fn display_keeps_structure() {
        let al = alpha();
        let w = Word::seq(vec![
            Word::seq(vec![Word::Letter(0), Word::Letter(1)]).pow(3),
            Word::Letter(2),
        ]);
        assert_eq!(w.display(&al), "(a b)3 c");
        assert_eq!(
            Word::seq(vec![Word::Letter(0), Word::Letter(1)])
                .inverse()
                .display(&al),
            "(a b)'"
        );
    }
}
