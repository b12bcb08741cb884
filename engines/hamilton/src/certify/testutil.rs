//! Test support for the certifier: subgroups that are obviously right (enumerated), the
//! whole group through puz-group, the cross-check against the walk, coset-path
//! constructions and corruptions of nested words.

use super::*;
use crate::check::{check, Mode};
use crate::coset::{coset_splice, Step};
use crate::words::{replace_at, substitute};
use puz_core::{Puzzle, Ranker};
use puz_group::{ChainOptions, Group};
use puz_testkit::{alphabet, letter};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A subgroup enumerated by breadth-first search; coset keys by the least element, or
/// from a labelling of the whole group's ranks when it is small enough.
pub struct Enum {
    pub elems: Vec<Perm>,
    index: HashMap<Perm, u64>,
    gens: Vec<Perm>,
    labels: Option<(Arc<Group>, Vec<u32>)>,
}

impl Enum {
    pub fn new(gens: &[Perm]) -> Enum {
        let id = Perm::identity(gens[0].degree());
        let mut index = HashMap::from([(id.clone(), 0u64)]);
        let mut elems = vec![id];
        let mut head = 0;
        while head < elems.len() {
            let x = elems[head].clone();
            head += 1;
            for g in gens {
                let y = x.then(g);
                if !index.contains_key(&y) {
                    index.insert(y.clone(), elems.len() as u64);
                    elems.push(y);
                }
            }
        }
        Enum {
            elems,
            index,
            gens: gens.to_vec(),
            labels: None,
        }
    }

    /// Labels every element of `g` by its coset of this subgroup.
    fn label(&mut self, g: Arc<Group>) {
        let n = g.size().unwrap() as usize;
        let mut label = vec![u32::MAX; n];
        let mut next = 0;
        for r in 0..n {
            if label[r] != u32::MAX {
                continue;
            }
            let x = g.unrank(r as u64);
            for h in &self.elems {
                label[g.rank(&x.then(h)).unwrap() as usize] = next;
            }
            next += 1;
        }
        self.labels = Some((g, label));
    }
}

impl Subgroup for Enum {
    fn contains(&self, p: &Perm) -> bool {
        self.index.contains_key(p)
    }
    fn generators(&self) -> Vec<Perm> {
        self.gens.clone()
    }
}

impl CosetKey for Enum {
    fn order(&self) -> u128 {
        self.elems.len() as u128
    }
    fn coset_key(&self, images: &[u16], out: &mut Vec<u16>) {
        let x = &Perm::from_images_unchecked(images.to_vec());
        *out = if let Some((g, label)) = &self.labels {
            let k = label[g.rank(x).unwrap() as usize];
            vec![k as u16, (k >> 16) as u16]
        } else {
            self.elems
                .iter()
                .map(|h| x.then(h))
                .min_by(|a, b| a.images().cmp(b.images()))
                .unwrap()
                .images()
                .to_vec()
        };
    }
}

impl Ranker for Enum {
    fn size(&self) -> Option<u64> {
        Some(self.elems.len() as u64)
    }
    fn rank(&self, p: &Perm) -> Option<u64> {
        self.index.get(p).copied()
    }
    fn unrank(&self, r: u64) -> Perm {
        self.elems[r as usize].clone()
    }
}

/// The whole group, by Schreier-Sims (its only coset is itself: a constant key).
pub struct Whole(pub Arc<Group>);

impl Subgroup for Whole {
    fn contains(&self, p: &Perm) -> bool {
        self.0.contains(p)
    }
    fn generators(&self) -> Vec<Perm> {
        self.0.generators()
    }
}

impl CosetKey for Whole {
    fn order(&self) -> u128 {
        self.0.order().try_into().unwrap()
    }
    fn coset_key(&self, _: &[u16], out: &mut Vec<u16>) {
        out.clear();
    }
}

/// A puzzle's letters (all moves and inverses), its chain levels and the whole group.
pub struct Setup {
    pub alpha: Alphabet,
    pub levels: Vec<Enum>,
    pub g: Whole,
}

impl Setup {
    pub fn new(p: &Puzzle, moves: &[&str], chain: &[&[&str]]) -> Setup {
        let alpha = alphabet(p, moves);
        let mut levels: Vec<Enum> = chain
            .iter()
            .map(|ms| {
                let gens: Vec<Perm> = ms
                    .iter()
                    .map(|m| alpha.perms[letter(&alpha, m) as usize].clone())
                    .collect();
                Enum::new(&gens)
            })
            .collect();
        let all: Vec<u32> = moves.iter().map(|m| letter(&alpha, m)).collect();
        let degree = alpha.perms[0].degree();
        let g = Group::new(
            degree,
            &alpha,
            &all,
            &ChainOptions {
                shorten: false,
                ..ChainOptions::default()
            },
            &Control::default(),
        )
        .unwrap();
        let g = Arc::new(g);
        if g.size().is_some_and(|n| n <= 1 << 23) {
            for h in &mut levels {
                h.label(g.clone());
            }
        }
        Setup {
            alpha,
            levels,
            g: Whole(g),
        }
    }

    pub fn chain(&self) -> Chain<'_> {
        Chain {
            levels: self.levels.iter().map(|h| h as &dyn Subgroup).collect(),
            group: &self.g,
            bottom: &self.levels[0],
        }
    }

    pub fn certify(&self, w: &Word) -> Verdict {
        certify(
            w,
            &self.alpha,
            &self.chain(),
            &fast_walks(),
            &Control::default(),
        )
        .unwrap()
    }

    /// Certifies and walks `w`; asserts they agree (the same first repeat when the walk
    /// sees one). Returns the verdict.
    pub fn compare(&self, w: &Word) -> Verdict {
        self.compare_with(&self.chain(), w)
    }

    /// [`Setup::compare`] with another chain.
    pub fn compare_with(&self, chain: &Chain, w: &Word) -> Verdict {
        let v = certify(w, &self.alpha, chain, &fast_walks(), &Control::default()).unwrap();
        let start = Perm::identity(self.alpha.perms[0].degree());
        let rep = check(
            w,
            &self.alpha,
            &start,
            &*self.g.0,
            Mode::Hamilton,
            &Control::default(),
        )
        .unwrap();
        let shown = || w.display(&self.alpha);
        match (rep.kind, &v) {
            (Kind::Cycle | Kind::Path, Verdict::Certified(k)) => {
                assert_eq!(*k, rep.kind, "{}", shown())
            }
            (Kind::Neither, Verdict::NotHamilton(f)) => match (f, &rep.first_repeat) {
                (
                    Failure::Repeat {
                        index,
                        repeats,
                        position,
                        frames,
                        letter,
                        ..
                    },
                    Some(r),
                ) => {
                    assert_eq!((*index, *repeats), (r.index, r.repeats), "{}", shown());
                    assert_eq!(position, &r.position);
                    assert_eq!((frames, *letter), (&r.frames, r.letter));
                }
                (Failure::Missing { visited, .. }, None) => {
                    assert_eq!(*visited, rep.visited as u128, "{}", shown())
                }
                _ => panic!("walk {rep:?}, certificate {v:?} on {}", shown()),
            },
            _ => panic!("walk {:?}, certificate {v:?} on {}", rep.kind, shown()),
        }
        v
    }

    /// A Hamilton cycle of level `l` (from the engine's search), in this alphabet.
    pub fn cycle_of(&self, p: &Puzzle, moves: &[&str]) -> Word {
        let sub = alphabet(p, moves);
        let ranker = Enum::new(&sub.perms);
        let c = crate::search::hamilton(&sub, &ranker, &Control::default()).unwrap();
        let map: Vec<u32> = sub.names.iter().map(|n| letter(&self.alpha, n)).collect();
        substitute(&c, &sub, &|l, _| Word::Letter(map[l as usize]))
    }

    /// A Hamilton path (or with `close`, cycle) of `G` through the cosets of
    /// `H = levels[l]` by depth-first search over coset steps `h g` (a Hamilton path of `H`
    /// with the effect of `h`, then `g` outside `H`), fewest onward steps first, spliced
    /// with [`coset_splice`] from the cycle `c` of `H`.
    pub fn coset_walk(&self, c: &Word, l: usize, close: bool) -> Option<Word> {
        let h = &self.levels[l];
        let in_c: HashSet<u32> = c.letters(&self.alpha).into_iter().collect();
        let hs: Vec<u32> = (0..self.alpha.len() as u32)
            .filter(|x| in_c.contains(x) || in_c.contains(&self.alpha.inverse[*x as usize]))
            .collect();
        let gs: Vec<u32> = (0..self.alpha.len() as u32)
            .filter(|x| !h.contains(&self.alpha.perms[*x as usize]))
            .collect();
        let mut moves: Vec<(u32, u32)> = hs
            .iter()
            .flat_map(|&a| gs.iter().map(move |&g| (a, g)))
            .collect();
        let mut rng = Rng(0x9e3779b97f4a7c15);
        // Restarts with the moves shuffled: ties of the heuristic are broken differently.
        for _ in 0..200 {
            let mut d = Dfs {
                s: self,
                h,
                moves: moves.clone(),
                index: (self.g.order() / h.order()) as usize,
                close,
                seen: HashSet::new(),
                steps: Vec::new(),
                budget: 5_000,
            };
            let id = Perm::identity(self.alpha.perms[0].degree());
            d.seen.insert(h.key(&id));
            if d.go(id) {
                return coset_splice(c, &self.alpha, &d.steps, !close);
            }
            for i in (1..moves.len()).rev() {
                moves.swap(i, rng.below(i as u64 + 1) as usize);
            }
        }
        None
    }

    pub fn coset_path(&self, c: &Word, l: usize) -> Option<Word> {
        self.coset_walk(c, l, false)
    }
}

struct Dfs<'s> {
    s: &'s Setup,
    h: &'s Enum,
    moves: Vec<(u32, u32)>,
    index: usize,
    close: bool,
    seen: HashSet<Vec<u16>>,
    steps: Vec<Step>,
    budget: usize,
}

impl Dfs<'_> {
    fn next(&self, x: &Perm, a: u32, g: u32) -> Perm {
        let p = &self.s.alpha.perms;
        x.then(&p[a as usize]).then(&p[g as usize])
    }

    fn onward(&self, y: &Perm) -> usize {
        self.moves
            .iter()
            .filter(|&&(a, g)| !self.seen.contains(&self.h.key(&self.next(y, a, g))))
            .count()
    }

    fn go(&mut self, x: Perm) -> bool {
        if self.seen.len() == self.index {
            if !self.close {
                return true;
            }
            let id = Perm::identity(x.degree());
            let last = self.moves.iter().find(|&&(a, g)| self.next(&x, a, g) == id);
            if let Some(&(a, g)) = last {
                self.steps.push(Step { h: a, g });
                return true;
            }
            return false;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let mut cand: Vec<(usize, Perm, Vec<u16>, u32, u32)> = Vec::new();
        for &(a, g) in &self.moves {
            let y = self.next(&x, a, g);
            let k = self.h.key(&y);
            if !self.seen.contains(&k) && !cand.iter().any(|c| c.2 == k) {
                cand.push((0, y, k, a, g));
            }
        }
        for c in &mut cand {
            self.seen.insert(c.2.clone());
            c.0 = self.onward(&c.1);
            self.seen.remove(&c.2);
        }
        cand.sort_by_key(|c| c.0);
        for (_, y, k, a, g) in cand {
            self.seen.insert(k.clone());
            self.steps.push(Step { h: a, g });
            if self.go(y) {
                return true;
            }
            self.steps.pop();
            self.seen.remove(&k);
        }
        false
    }
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Paths (child indices) to every node of `w` satisfying `pred`.
fn nodes(w: &Word, pred: &dyn Fn(&Word) -> bool, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if pred(w) {
        out.push(at.clone());
    }
    let kids: Vec<&Word> = match w {
        Word::Letter(_) => vec![],
        Word::Seq(items) => items.iter().collect(),
        Word::Repeat(x, _) | Word::Inverse(x) | Word::Named(_, x) => vec![x],
    };
    for (i, k) in kids.into_iter().enumerate() {
        at.push(i);
        nodes(k, pred, at, out);
        at.pop();
    }
}

/// `w` with the node at `path` replaced by `f(node)`.
fn edit(w: &Word, path: &[usize], f: &dyn Fn(&Word) -> Word) -> Word {
    let Some((&i, rest)) = path.split_first() else {
        return f(w);
    };
    match w {
        Word::Seq(items) => {
            let mut v = items.to_vec();
            v[i] = edit(&items[i], rest, f);
            Word::Seq(Arc::from(v))
        }
        Word::Repeat(x, n) => Word::Repeat(Arc::new(edit(x, rest, f)), *n),
        Word::Inverse(x) => Word::Inverse(Arc::new(edit(x, rest, f))),
        Word::Named(s, x) => Word::Named(s.clone(), Arc::new(edit(x, rest, f))),
        Word::Letter(_) => unreachable!("a letter has no children"),
    }
}

/// One random corruption of `w`: a letter changed, two items of a sequence swapped, a
/// repetition count off by one, an item repeated (a coset entered twice) or left out.
/// `None` when the chosen kind does not apply.
pub fn corrupt(w: &Word, alpha: &Alphabet, rng: &mut Rng) -> Option<(&'static str, Word)> {
    let pick = |rng: &mut Rng, pred: &dyn Fn(&Word) -> bool| {
        let mut out = Vec::new();
        nodes(w, pred, &mut Vec::new(), &mut out);
        (!out.is_empty()).then(|| out[rng.below(out.len() as u64) as usize].clone())
    };
    let seq2 = |x: &Word| matches!(x, Word::Seq(items) if items.len() >= 2);
    match rng.below(5) {
        0 => {
            let i = rng.below(w.len() as u64) as u128;
            let old = w.locate(alpha, i)?.1;
            let new = (old + 1 + rng.below(alpha.len() as u64 - 1) as u32) % alpha.len() as u32;
            Some(("letter", replace_at(w, alpha, i, Word::Letter(new))))
        }
        1 => {
            let p = pick(rng, &seq2)?;
            let (a, b) = (rng.below(1 << 20), rng.below(1 << 20));
            let f = move |x: &Word| {
                let Word::Seq(items) = x else { unreachable!() };
                let n = items.len() as u64;
                let (i, j) = ((a % n) as usize, (b % n) as usize);
                let mut v = items.to_vec();
                v.swap(i, j);
                Word::Seq(Arc::from(v))
            };
            Some(("swap", edit(w, &p, &f)))
        }
        2 => {
            let p = pick(rng, &|x| matches!(x, Word::Repeat(..)))?;
            let up = rng.below(2) == 1;
            let f = move |x: &Word| {
                let Word::Repeat(y, n) = x else {
                    unreachable!()
                };
                Word::Repeat(y.clone(), if up { n + 1 } else { n - 1 })
            };
            Some(("count", edit(w, &p, &f)))
        }
        k => {
            let p = pick(rng, &seq2)?;
            let a = rng.below(1 << 20);
            let twice = k == 3;
            let f = move |x: &Word| {
                let Word::Seq(items) = x else { unreachable!() };
                let i = (a % items.len() as u64) as usize;
                let mut v = items.to_vec();
                if twice {
                    v.insert(i, items[i].clone());
                } else {
                    v.remove(i);
                }
                Word::Seq(Arc::from(v))
            };
            Some((if twice { "twice" } else { "left out" }, edit(w, &p, &f)))
        }
    }
}

/// The budgets, with every bottom group walked on coordinates (the tests' groups are
/// small): a repeat found there is located again by ranks, so both walks are exercised.
pub fn fast_walks() -> Options {
    Options {
        fast_walk_from: 1,
        ..Options::default()
    }
}
