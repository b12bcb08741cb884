//! A word compiled for fast streaming: inverses pushed down to the letters, small subtrees
//! expanded into leaves of letter slots, shared subtrees kept shared (a DAG).
//!
//! The compiled form is never expanded as a whole. A [`Cursor`] can start at any letter
//! index (so a walk can be split into chunks) and yields whole leaf slices, and
//! [`Compiled::prefix_perms`] gives the effect of the first `i` letters for many `i` at once
//! (the effect of a repeated block is a permutation power).

use puz_core::{Alphabet, Perm, Word};

/// Subtrees with at most this many letters become one leaf.
const LEAF: u128 = 512;
/// Items of a sequence shorter than this are gathered with their neighbours.
const SMALL: u128 = 16;

#[derive(Debug)]
enum Node {
    /// Letter slots in order.
    Leaf(Box<[u16]>),
    /// Children in order with the cumulative letter count after each.
    Seq {
        items: Box<[u32]>,
        ends: Box<[u128]>,
    },
    /// A child repeated `n` times.
    Repeat { child: u32, n: u64 },
}

/// A word compiled for streaming: nodes in post-order (children before parents).
#[derive(Debug)]
pub struct Compiled {
    nodes: Vec<Node>,
    lens: Vec<u128>,
    root: u32,
    /// `letters[s]` is the alphabet letter of slot `s`.
    pub letters: Vec<u32>,
}

struct Builder<'a> {
    alpha: &'a Alphabet,
    nodes: Vec<Node>,
    lens: Vec<u128>,
    /// By node identity ([`Word::node_id`]): clones of a shared node compile once.
    memo: crate::coords::FastMap<((u8, usize, u64), bool), u32>,
    leaves: crate::coords::FastMap<Box<[u16]>, u32>,
    lens_memo: crate::coords::FastMap<(u8, usize, u64), u128>,
    slot_of: Vec<u16>,
    letters: Vec<u32>,
}

impl Builder<'_> {
    fn slot(&mut self, letter: u32) -> u16 {
        let s = self.slot_of[letter as usize];
        if s != u16::MAX {
            return s;
        }
        let s = self.letters.len() as u16;
        self.letters.push(letter);
        self.slot_of[letter as usize] = s;
        s
    }

    fn push(&mut self, node: Node, len: u128) -> u32 {
        self.nodes.push(node);
        self.lens.push(len);
        (self.nodes.len() - 1) as u32
    }

    /// `w.len()`, memoised by node (shared subtrees are measured once).
    fn len_of(&mut self, w: &Word) -> u128 {
        if let Word::Letter(_) = w {
            return 1;
        }
        let key = w.node_id();
        if let Some(&l) = self.lens_memo.get(&key) {
            return l;
        }
        let l = match w {
            Word::Letter(_) => 1,
            Word::Seq(items) => items
                .iter()
                .fold(0u128, |acc, x| acc.saturating_add(self.len_of(x))),
            Word::Repeat(x, n) => self.len_of(x).saturating_mul(*n as u128),
            Word::Inverse(x) | Word::Named(_, x) => self.len_of(x),
        };
        self.lens_memo.insert(key, l);
        l
    }

    /// Appends the letter slots of `w` (inverted when `inv`) without allocating.
    fn expand(&mut self, w: &Word, inv: bool, out: &mut Vec<u16>) {
        match w {
            Word::Letter(l) => {
                let l = if inv {
                    self.alpha.inverse[*l as usize]
                } else {
                    *l
                };
                let s = self.slot(l);
                out.push(s);
            }
            Word::Named(_, x) => self.expand(x, inv, out),
            Word::Inverse(x) => self.expand(x, !inv, out),
            Word::Repeat(x, n) => {
                for _ in 0..*n {
                    self.expand(x, inv, out);
                }
            }
            Word::Seq(items) => {
                if inv {
                    for x in items.iter().rev() {
                        self.expand(x, inv, out);
                    }
                } else {
                    for x in items.iter() {
                        self.expand(x, inv, out);
                    }
                }
            }
        }
    }

    /// A leaf, shared with any earlier leaf of the same letters (a flat sequence of many
    /// runs such as `(U R)104 U' (R U)104 ...` compiles to a few distinct leaves).
    fn leaf(&mut self, letters: Vec<u16>) -> u32 {
        if let Some(&id) = self.leaves.get(&letters[..]) {
            return id;
        }
        let len = letters.len() as u128;
        let key: Box<[u16]> = letters.into_boxed_slice();
        let id = self.push(Node::Leaf(key.clone()), len);
        self.leaves.insert(key, id);
        id
    }

    fn compile(&mut self, w: &Word, inv: bool) -> u32 {
        let key = (w.node_id(), inv);
        if let Some(&id) = self.memo.get(&key) {
            return id;
        }
        let len = self.len_of(w);
        let id = if len <= LEAF {
            let mut v = Vec::with_capacity(len as usize);
            self.expand(w, inv, &mut v);
            self.leaf(v)
        } else {
            match w {
                Word::Letter(_) => unreachable!("a letter is a leaf"),
                Word::Named(_, x) => self.compile(x, inv),
                Word::Inverse(x) => self.compile(x, !inv),
                Word::Repeat(x, n) => {
                    let child = self.compile(x, inv);
                    self.push(Node::Repeat { child, n: *n }, len)
                }
                Word::Seq(items) => {
                    let order: Vec<&Word> = if inv {
                        items.iter().rev().collect()
                    } else {
                        items.iter().collect()
                    };
                    let mut kids = Vec::new();
                    let mut buf: Vec<u16> = Vec::new();
                    for x in order {
                        let l = self.len_of(x);
                        if l == 0 {
                            continue;
                        }
                        if l < SMALL {
                            // Tiny items are gathered into short leaves.
                            self.expand(x, inv, &mut buf);
                            if buf.len() as u128 >= 4 * SMALL {
                                let b = std::mem::take(&mut buf);
                                kids.push(self.leaf(b));
                            }
                        } else {
                            if !buf.is_empty() {
                                let b = std::mem::take(&mut buf);
                                kids.push(self.leaf(b));
                            }
                            kids.push(self.compile(x, inv));
                        }
                    }
                    if !buf.is_empty() {
                        kids.push(self.leaf(buf));
                    }
                    let mut ends = Vec::with_capacity(kids.len());
                    let mut acc = 0u128;
                    for &k in &kids {
                        acc = acc.saturating_add(self.lens[k as usize]);
                        ends.push(acc);
                    }
                    self.push(
                        Node::Seq {
                            items: kids.into_boxed_slice(),
                            ends: ends.into_boxed_slice(),
                        },
                        len,
                    )
                }
            }
        };
        // Small nodes too: a flat word of 1.66 million runs (`hamilton(<U,R>)`) repeats
        // a few distinct runs, each expanded and hashed once rather than at every use.
        self.memo.insert(key, id);
        id
    }
}

impl Compiled {
    pub fn new(word: &Word, alpha: &Alphabet) -> Compiled {
        Compiled::build(word, alpha, false)
    }

    /// Compiles with slot `s` = alphabet letter `s` (to share tables built per alphabet).
    pub fn with_alphabet_slots(word: &Word, alpha: &Alphabet) -> Compiled {
        Compiled::build(word, alpha, true)
    }

    fn build(word: &Word, alpha: &Alphabet, alphabet_slots: bool) -> Compiled {
        let mut b = Builder {
            alpha,
            nodes: Vec::new(),
            lens: Vec::new(),
            memo: Default::default(),
            leaves: Default::default(),
            lens_memo: Default::default(),
            slot_of: vec![u16::MAX; alpha.len()],
            letters: Vec::new(),
        };
        if alphabet_slots {
            for l in 0..alpha.len() as u32 {
                b.slot(l);
            }
        }
        let root = b.compile(word, false);
        Compiled {
            nodes: b.nodes,
            lens: b.lens,
            root,
            letters: b.letters,
        }
    }

    /// The number of compiled nodes.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The number of letters.
    pub fn len(&self) -> u128 {
        self.lens[self.root as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A cursor at letter `index`.
    pub fn seek(&self, index: u128) -> Cursor<'_> {
        let mut stack = Vec::new();
        let mut node = self.root;
        let mut i = index.min(self.len());
        if i == self.len() {
            return Cursor { c: self, stack };
        }
        loop {
            match &self.nodes[node as usize] {
                Node::Leaf(_) => {
                    stack.push((node, i as u64));
                    break;
                }
                Node::Seq { items, ends } => {
                    let j = ends.partition_point(|&e| e <= i);
                    let before = if j == 0 { 0 } else { ends[j - 1] };
                    stack.push((node, j as u64));
                    i -= before;
                    node = items[j];
                }
                Node::Repeat { child, .. } => {
                    let l = self.lens[*child as usize];
                    stack.push((node, (i / l) as u64));
                    i %= l;
                    node = *child;
                }
            }
        }
        Cursor { c: self, stack }
    }

    /// The effect of the whole compiled node `id` for the slot permutations `perms`.
    fn effects(&self, perms: &[Perm], degree: usize) -> Vec<Perm> {
        let mut eff: Vec<Perm> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let p = match node {
                Node::Leaf(ls) => {
                    let mut acc = Perm::identity(degree);
                    for &s in ls.iter() {
                        acc.then_assign(&perms[s as usize]);
                    }
                    acc
                }
                Node::Seq { items, .. } => {
                    let mut acc = Perm::identity(degree);
                    for &k in items.iter() {
                        acc.then_assign(&eff[k as usize]);
                    }
                    acc
                }
                Node::Repeat { child, n } => pow_u64(&eff[*child as usize], *n),
            };
            eff.push(p);
        }
        eff
    }

    /// The effects of the prefixes of lengths `cuts` (sorted ascending), in one pass.
    pub fn prefix_perms(&self, perms: &[Perm], degree: usize, cuts: &[u128]) -> Vec<Perm> {
        let eff = self.effects(perms, degree);
        let mut out = Vec::with_capacity(cuts.len());
        let mut acc = Perm::identity(degree);
        let mut done = 0u128;
        let mut k = 0;
        // Cuts at 0 first.
        while k < cuts.len() && cuts[k] == 0 {
            out.push(acc.clone());
            k += 1;
        }
        self.prefix_rec(
            self.root, &eff, perms, cuts, &mut k, &mut acc, &mut done, &mut out,
        );
        while k < cuts.len() {
            out.push(acc.clone());
            k += 1;
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn prefix_rec(
        &self,
        node: u32,
        eff: &[Perm],
        perms: &[Perm],
        cuts: &[u128],
        k: &mut usize,
        acc: &mut Perm,
        done: &mut u128,
        out: &mut Vec<Perm>,
    ) {
        let len = self.lens[node as usize];
        // No cut strictly inside or at the end of this node: skip it whole.
        if *k >= cuts.len() || cuts[*k] > *done + len {
            acc.then_assign(&eff[node as usize]);
            *done += len;
            return;
        }
        match &self.nodes[node as usize] {
            Node::Leaf(ls) => {
                for &s in ls.iter() {
                    acc.then_assign(&perms[s as usize]);
                    *done += 1;
                    while *k < cuts.len() && cuts[*k] == *done {
                        out.push(acc.clone());
                        *k += 1;
                    }
                }
            }
            Node::Seq { items, .. } => {
                for &c in items.iter() {
                    self.prefix_rec(c, eff, perms, cuts, k, acc, done, out);
                }
            }
            Node::Repeat { child, n } => {
                let l = self.lens[*child as usize];
                let mut r = 0u64;
                while r < *n {
                    if *k >= cuts.len() {
                        break;
                    }
                    // Skip whole repetitions that end before the next cut.
                    let skip = ((cuts[*k] - *done) / l) as u64;
                    let skip = skip.min(*n - r);
                    if skip > 0 {
                        acc.then_assign(&pow_u64(&eff[*child as usize], skip));
                        *done += l * skip as u128;
                        r += skip;
                        while *k < cuts.len() && cuts[*k] == *done {
                            out.push(acc.clone());
                            *k += 1;
                        }
                        continue;
                    }
                    self.prefix_rec(*child, eff, perms, cuts, k, acc, done, out);
                    r += 1;
                }
                if r < *n {
                    acc.then_assign(&pow_u64(&eff[*child as usize], *n - r));
                    *done += l * (*n - r) as u128;
                }
            }
        }
    }
}

/// `p` to the power `n` by repeated squaring.
pub fn pow_u64(p: &Perm, mut n: u64) -> Perm {
    let mut base = p.clone();
    let mut acc = Perm::identity(p.degree());
    while n > 0 {
        if n & 1 == 1 {
            acc.then_assign(&base);
        }
        base = base.then(&base);
        n >>= 1;
    }
    acc
}

/// Streams a compiled word from some letter index, a leaf slice at a time.
pub struct Cursor<'c> {
    c: &'c Compiled,
    /// (node, progress): leaf offset, next item of a sequence, or repetition index.
    stack: Vec<(u32, u64)>,
}

impl<'c> Cursor<'c> {
    /// The next run of letter slots, at most `max` long; empty at the end.
    pub fn next_slice(&mut self, max: u128) -> &'c [u16] {
        loop {
            let Some(&mut (node, ref mut pos)) = self.stack.last_mut() else {
                return &[];
            };
            match &self.c.nodes[node as usize] {
                Node::Leaf(ls) => {
                    let start = *pos as usize;
                    if start >= ls.len() {
                        self.stack.pop();
                        self.advance_parent();
                        continue;
                    }
                    let take = ((ls.len() - start) as u128).min(max) as usize;
                    *pos += take as u64;
                    return &ls[start..start + take];
                }
                Node::Seq { items, .. } => {
                    let j = *pos as usize;
                    if j >= items.len() {
                        self.stack.pop();
                        self.advance_parent();
                        continue;
                    }
                    self.stack.push((items[j], 0));
                }
                Node::Repeat { child, n } => {
                    if *pos >= *n {
                        self.stack.pop();
                        self.advance_parent();
                        continue;
                    }
                    self.stack.push((*child, 0));
                }
            }
        }
    }

    /// After a child finished: move its parent to the next item or repetition.
    fn advance_parent(&mut self) {
        if let Some((_, pos)) = self.stack.last_mut() {
            *pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puz_core::Word;

    fn alpha() -> Alphabet {
        let a = Perm::from_cycles(4, &[vec![0, 1]]).unwrap();
        let b = Perm::from_cycles(4, &[vec![1, 2, 3]]).unwrap();
        let names = ["a", "b", "b'"].iter().map(|s| s.to_string()).collect();
        Alphabet::new(names, vec![a, b.clone(), b.inverse()]).unwrap()
    }

    fn big_word() -> Word {
        let p = Word::named(
            "P",
            Word::seq(vec![Word::Letter(0), Word::Letter(1)]).pow(300),
        );
        let q = Word::seq(vec![
            p.clone(),
            Word::Letter(2),
            p.clone().inverse(),
            Word::Letter(0),
        ]);
        Word::seq(vec![q.clone().pow(3), Word::Letter(1), q.inverse().pow(2)])
    }

    #[test]
    fn cursor_matches_stream_from_any_start() {
        let al = alpha();
        let w = big_word();
        let all = w.letters(&al);
        let c = Compiled::new(&w, &al);
        assert_eq!(c.len(), all.len() as u128);
        for start in [
            0usize,
            1,
            599,
            600,
            601,
            1203,
            3000,
            all.len() - 1,
            all.len(),
        ] {
            let mut cur = c.seek(start as u128);
            let mut got = Vec::new();
            loop {
                let s = cur.next_slice(97);
                if s.is_empty() {
                    break;
                }
                got.extend(s.iter().map(|&x| c.letters[x as usize]));
            }
            assert_eq!(&got[..], &all[start..], "start {start}");
        }
    }

    #[test]
    fn prefix_perms_match_products() {
        let al = alpha();
        let w = big_word();
        let all = w.letters(&al);
        let c = Compiled::new(&w, &al);
        let perms: Vec<Perm> = c
            .letters
            .iter()
            .map(|&l| al.perms[l as usize].clone())
            .collect();
        let cuts: Vec<u128> = vec![0, 0, 5, 600, 601, 1500, 2403, all.len() as u128];
        let got = c.prefix_perms(&perms, 4, &cuts);
        for (cut, p) in cuts.iter().zip(&got) {
            let mut acc = Perm::identity(4);
            for &l in &all[..*cut as usize] {
                acc.then_assign(&al.perms[l as usize]);
            }
            assert_eq!(&acc, p, "cut {cut}");
        }
    }
}
