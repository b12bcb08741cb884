//! Runs: the maximal blocks of a word between letters outside a subgroup, found from the
//! nested tree without expanding it.
//!
//! A node whose letters all lie in the subgroup is kept whole as one *segment*; only
//! nodes holding a connector are descended. Products of nodes are memoised by node
//! identity: the shared contents a node points to (a clone of a node is the same node).
//! Each entry keeps a clone of its node, so that no other node can take its address while
//! the entry lasts: the certificate also measures words it makes and drops (the cuts it
//! tries when recognising rotations), and an entry left by one of those would otherwise
//! answer for whatever node is later allocated in its place.
//!
//! Only nodes worth it are remembered: shared ones (their contents pointed to more than
//! once, or wrapped by a shared inverse, repetition or name) and those whose computation
//! visited at least [`COSTLY`] nodes. A word built level by level holds millions of
//! unshared nodes (one per coset of a level, and the balanced nesting above them); their
//! lengths, purities and products held for all of them took gigabytes, while a node not
//! remembered costs at most [`COSTLY`] visits each time it is asked again.

use crate::compile::pow_u64;
use puz_core::{Alphabet, Control, Frame, Interrupt, Perm, Word};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// A node taken whole, and whether it is read inverted.
pub type Seg<'w> = (&'w Word, bool);

/// A maximal block of letters of one subgroup: its positions lie in `start·H`.
#[derive(Clone, Debug)]
pub struct Run<'w> {
    pub segs: Vec<Seg<'w>>,
    /// The position before its first letter.
    pub start: Perm,
    /// The position index of `start` in the user's word.
    pub pos0: u128,
    /// Letters (the run has `len + 1` positions).
    pub len: u128,
}

/// Why a split stopped.
pub enum SplitStop {
    /// More runs than allowed (this many so far).
    TooMany(usize),
    Interrupt(Interrupt),
}

impl Run<'_> {
    /// The heap and inline bytes of a run of `segs` segments on `degree` points.
    pub fn bytes(segs: usize, degree: usize) -> u64 {
        (std::mem::size_of::<Run>() + 2 * degree + 32 + segs * std::mem::size_of::<Seg>() + 32)
            as u64
    }
}

/// A node's identity ([`Word::node_id`]): equal identities mean equal letters.
pub type NodeId = (u8, usize, u64);

pub fn id(w: &Word) -> NodeId {
    w.node_id()
}

/// A node whose computation visited at least this many nodes is remembered even when
/// not shared (as [`crate::chain::Measure`] does).
pub const COSTLY: u64 = 64;

/// Whether the contents of `w` are pointed to more than once.
fn shared(w: &Word) -> bool {
    match w {
        Word::Letter(_) => false,
        Word::Seq(items) => Arc::strong_count(items) > 1,
        Word::Repeat(x, _) | Word::Inverse(x) | Word::Named(_, x) => Arc::strong_count(x) > 1,
    }
}

/// Membership of letters by level, with memoised purity and products of nodes.
pub struct Runs<'a> {
    pub alpha: &'a Alphabet,
    /// `member[l][letter]`: the letter lies in level `l`.
    member: Vec<Vec<bool>>,
    pure: HashMap<(NodeId, usize), (Word, bool)>,
    prod: HashMap<(NodeId, bool), (Word, Perm)>,
    /// Lengths: `Word::len` recomputes shared nodes, exponential on deep sharing.
    lens: HashMap<NodeId, (Word, u128)>,
    degree: usize,
    /// Nodes visited so far (not answered by a memo), to price each computation.
    visits: u64,
}

impl<'a> Runs<'a> {
    pub fn new(alpha: &'a Alphabet, member: Vec<Vec<bool>>) -> Runs<'a> {
        Runs {
            alpha,
            member,
            pure: HashMap::default(),
            prod: HashMap::default(),
            lens: HashMap::default(),
            degree: alpha.perms.first().map_or(0, |p| p.degree()),
            visits: 0,
        }
    }

    /// Whether `letter` lies in level `l`.
    pub fn member(&self, l: usize, letter: u32) -> bool {
        self.member[l][letter as usize]
    }

    /// The number of letters (saturating), memoised.
    pub fn len(&mut self, w: &Word) -> u128 {
        self.len_in(w, false)
    }

    /// [`Runs::len`] of a node inside a shared wrapper when `wrapped`.
    fn len_in(&mut self, w: &Word, wrapped: bool) -> u128 {
        let x = match w {
            // Letters are most of the nodes of a flat sequence: answered without the memo.
            Word::Letter(_) => return 1,
            // Wrappers are answered by what they wrap (remembered there when worth it).
            Word::Inverse(x) | Word::Named(_, x) => return self.len_in(x, wrapped || shared(w)),
            Word::Repeat(x, n) => {
                return self
                    .len_in(x, wrapped || shared(w))
                    .saturating_mul(*n as u128)
            }
            Word::Seq(x) => x,
        };
        let key = id(w);
        if let Some(&(_, n)) = self.lens.get(&key) {
            return n;
        }
        let v0 = self.visits;
        self.visits += 1 + x.len() as u64;
        let n = x
            .iter()
            .fold(0u128, |acc, x| acc.saturating_add(self.len(x)));
        if wrapped || shared(w) || self.visits - v0 >= COSTLY {
            self.lens.insert(key, (w.clone(), n));
        }
        n
    }

    /// The first `i` letters of `w` (the last `i` when `from_end`), nested, sharing nodes.
    pub fn cut(&mut self, w: &Word, i: u128, from_end: bool) -> Word {
        let len = self.len(w);
        if i == 0 {
            return Word::empty();
        }
        if i >= len {
            return w.clone();
        }
        match w {
            Word::Letter(_) => w.clone(),
            Word::Named(_, x) => self.cut(x, i, from_end),
            Word::Inverse(x) => self.cut(x, i, !from_end).inverse(),
            Word::Repeat(x, _) => {
                let l = self.len(x);
                let (q, r) = ((i / l) as u64, i % l);
                let whole = (Word::Repeat(x.clone(), q), q as u128 * l);
                let part = (self.cut(x, r, from_end), r);
                if from_end {
                    join(vec![part, whole])
                } else {
                    join(vec![whole, part])
                }
            }
            Word::Seq(items) => {
                let mut out = Vec::new();
                let mut left = i;
                let order: Vec<&Word> = if from_end {
                    items.iter().rev().collect()
                } else {
                    items.iter().collect()
                };
                for x in order {
                    if left == 0 {
                        break;
                    }
                    let l = self.len(x);
                    let take = l.min(left);
                    out.push((self.cut(x, take, from_end), take));
                    left -= take;
                }
                if from_end {
                    out.reverse();
                }
                join(out)
            }
        }
    }

    /// Where letter `index` sits, as [`Word::locate`], with the lengths kept here.
    pub fn locate(&mut self, w: &Word, index: u128) -> Option<(Vec<Frame>, u32)> {
        let alpha = self.alpha;
        w.locate_with(alpha, index, &mut |x| self.len(x))
    }

    /// Whether every letter of `w` lies in level `l`.
    pub fn pure(&mut self, w: &Word, l: usize) -> bool {
        self.pure_in(w, l, false)
    }

    /// [`Runs::pure`] of a node inside a shared wrapper when `wrapped`.
    fn pure_in(&mut self, w: &Word, l: usize, wrapped: bool) -> bool {
        let x = match w {
            Word::Letter(x) => return self.member[l][*x as usize],
            Word::Inverse(x) | Word::Named(_, x) => {
                return self.pure_in(x, l, wrapped || shared(w))
            }
            Word::Repeat(x, n) => return *n == 0 || self.pure_in(x, l, wrapped || shared(w)),
            Word::Seq(x) => x,
        };
        let key = (id(w), l);
        if let Some(&(_, b)) = self.pure.get(&key) {
            return b;
        }
        let v0 = self.visits;
        self.visits += 1 + x.len() as u64;
        let b = x.iter().all(|x| self.pure(x, l));
        if wrapped || shared(w) || self.visits - v0 >= COSTLY {
            self.pure.insert(key, (w.clone(), b));
        }
        b
    }

    /// The letter index of the first letter of `w` outside level `l`.
    pub fn first_outside(&mut self, w: &Word, l: usize) -> Option<u128> {
        self.first_out(w, false, l)
    }

    fn first_out(&mut self, w: &Word, inv: bool, l: usize) -> Option<u128> {
        if self.pure(w, l) {
            return None;
        }
        match w {
            Word::Letter(_) => Some(0),
            Word::Named(_, x) => self.first_out(x, inv, l),
            Word::Inverse(x) => self.first_out(x, !inv, l),
            Word::Repeat(x, _) => self.first_out(x, inv, l),
            Word::Seq(items) => {
                let mut acc = 0u128;
                let order: Vec<&Word> = if inv {
                    items.iter().rev().collect()
                } else {
                    items.iter().collect()
                };
                for x in order {
                    if let Some(i) = self.first_out(x, inv, l) {
                        return Some(acc + i);
                    }
                    acc += self.len(x);
                }
                None
            }
        }
    }

    /// The product of `w`'s letters (of its inverse when `inv`).
    pub fn eval(&mut self, w: &Word, inv: bool) -> Perm {
        self.eval_in(w, inv, false)
    }

    /// [`Runs::eval`] of a node inside a shared wrapper when `wrapped`.
    fn eval_in(&mut self, w: &Word, inv: bool, wrapped: bool) -> Perm {
        match w {
            Word::Letter(x) => return self.letter_perm(*x, inv).clone(),
            Word::Inverse(x) => return self.eval_in(x, !inv, wrapped || shared(w)),
            Word::Named(_, x) => return self.eval_in(x, inv, wrapped || shared(w)),
            _ => {}
        }
        let key = (id(w), inv);
        if let Some((_, p)) = self.prod.get(&key) {
            return p.clone();
        }
        let v0 = self.visits;
        self.visits += 1;
        let p = match w {
            Word::Seq(items) => {
                self.visits += items.len() as u64;
                let mut acc = Perm::identity(self.degree);
                for k in 0..items.len() {
                    let x = &items[if inv { items.len() - 1 - k } else { k }];
                    match x {
                        Word::Letter(l) => acc.then_assign(self.letter_perm(*l, inv)),
                        _ => acc.then_assign(&self.eval(x, inv)),
                    }
                }
                acc
            }
            Word::Repeat(x, n) => pow_u64(&self.eval_in(x, inv, wrapped || shared(w)), *n),
            _ => unreachable!("answered above"),
        };
        if wrapped || shared(w) || self.visits - v0 >= COSTLY {
            self.prod.insert(key, (w.clone(), p.clone()));
        }
        p
    }

    fn letter_perm(&self, x: u32, inv: bool) -> &'a Perm {
        let x = if inv {
            self.alpha.inverse[x as usize]
        } else {
            x
        };
        &self.alpha.perms[x as usize]
    }

    /// Splits `run` (all of whose letters lie in level `l + 1`) into its runs over level
    /// `l`, in order, appending them to `out`. Fails with the count when more than `max`
    /// would be made; polls `ctl` as runs are made (a power of a word can make millions).
    pub fn split<'w>(
        &mut self,
        run: &Run<'w>,
        l: usize,
        max: usize,
        out: &mut Vec<Run<'w>>,
        ctl: &Control,
    ) -> Result<(), SplitStop> {
        let mut cur = Run {
            segs: Vec::new(),
            start: run.start.clone(),
            pos0: run.pos0,
            len: 0,
        };
        let mut pos = run.start.clone();
        let mut to = Sink {
            l,
            max,
            ctl,
            cur: &mut cur,
            pos: &mut pos,
            out,
        };
        for &(w, inv) in &run.segs {
            self.descend(w, inv, &mut to)?;
        }
        out.push(cur);
        if out.len() > max {
            return Err(SplitStop::TooMany(out.len()));
        }
        Ok(())
    }

    fn descend<'w>(
        &mut self,
        w: &'w Word,
        inv: bool,
        to: &mut Sink<'_, 'w>,
    ) -> Result<(), SplitStop> {
        let len = self.len(w);
        if len == 0 {
            return Ok(());
        }
        if self.pure(w, to.l) {
            to.cur.segs.push((w, inv));
            to.cur.len += len;
            let e = self.eval(w, inv);
            to.pos.then_assign(&e);
            return Ok(());
        }
        match w {
            Word::Letter(x) => {
                // A connector: the current run ends, the next starts after it.
                let x = if inv {
                    self.alpha.inverse[*x as usize]
                } else {
                    *x
                };
                let next_pos0 = to.cur.pos0 + to.cur.len + 1;
                to.pos.then_assign(&self.alpha.perms[x as usize]);
                let done = std::mem::replace(
                    to.cur,
                    Run {
                        segs: Vec::new(),
                        start: to.pos.clone(),
                        pos0: next_pos0,
                        len: 0,
                    },
                );
                to.out.push(done);
                if to.out.len() > to.max {
                    return Err(SplitStop::TooMany(to.out.len()));
                }
                if to.out.len().is_multiple_of(4096) {
                    to.ctl.check().map_err(SplitStop::Interrupt)?;
                }
            }
            Word::Named(_, x) => self.descend(x, inv, to)?,
            Word::Inverse(x) => self.descend(x, !inv, to)?,
            Word::Repeat(x, n) => {
                for _ in 0..*n {
                    self.descend(x, inv, to)?;
                }
            }
            Word::Seq(items) => {
                if inv {
                    for x in items.iter().rev() {
                        self.descend(x, inv, to)?;
                    }
                } else {
                    for x in items.iter() {
                        self.descend(x, inv, to)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where a split puts what it finds: the run being made and the position after it, the
/// runs made, at level `l`, at most `max` of them.
struct Sink<'a, 'w> {
    l: usize,
    max: usize,
    ctl: &'a Control,
    cur: &'a mut Run<'w>,
    pos: &'a mut Perm,
    out: &'a mut Vec<Run<'w>>,
}

/// A sequence of parts of known lengths, without the empty ones (never asks
/// `Word::len`).
fn join(parts: Vec<(Word, u128)>) -> Word {
    let mut v: Vec<Word> = parts.into_iter().filter(|p| p.1 > 0).map(|p| p.0).collect();
    match v.len() {
        0 => Word::empty(),
        1 => v.pop().unwrap(),
        _ => Word::Seq(v.into()),
    }
}

/// Calls `f` on every letter of `w` (inverted when `inv`), in order; stops when `f`
/// returns false. Returns false when stopped.
pub fn each_letter(alpha: &Alphabet, w: &Word, inv: bool, f: &mut dyn FnMut(u32) -> bool) -> bool {
    match w {
        Word::Letter(x) => f(if inv { alpha.inverse[*x as usize] } else { *x }),
        Word::Named(_, x) => each_letter(alpha, x, inv, f),
        Word::Inverse(x) => each_letter(alpha, x, !inv, f),
        Word::Repeat(x, n) => (0..*n).all(|_| each_letter(alpha, x, inv, f)),
        Word::Seq(items) => {
            if inv {
                items.iter().rev().all(|x| each_letter(alpha, x, inv, f))
            } else {
                items.iter().all(|x| each_letter(alpha, x, inv, f))
            }
        }
    }
}
