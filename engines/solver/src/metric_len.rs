//! The length of a nested word in a metric, computed on its structure: each node is
//! summarised by its first and last runs of one family and the cost of the complete runs
//! between, summaries concatenate associatively, and a repetition is its summary raised
//! by repeated squaring. `(R U)^1000000000000` costs its depth, not its length (counting
//! letter by letter ran for hours).

use crate::metric::Metric;
use puz_core::{Alphabet, Perm, Word};
use std::collections::HashMap;
use std::sync::Arc;

/// A run of consecutive letters of one family: the family and their product.
#[derive(Clone)]
struct Run(usize, Perm);

#[derive(Clone)]
enum Summary {
    Empty,
    /// All letters in one family.
    One(Run),
    /// A first run, the cost of the complete runs between, a last run.
    Many(Run, u64, Run),
}

struct Ctx<'a> {
    alpha: &'a Alphabet,
    metric: &'a Metric,
    family: HashMap<u32, usize>,
    memo: HashMap<(usize, u8, u64, bool), Summary>,
}

impl Ctx<'_> {
    fn cost(&self, r: &Run) -> Option<u64> {
        let fam = &self.metric.families.list[r.0];
        let e = fam.elements.iter().position(|q| *q == r.1)?;
        Some(fam.cost[e] as u64)
    }

    /// `a` then `b`.
    fn join(&self, a: Summary, b: Summary) -> Option<Summary> {
        use Summary::*;
        Some(match (a, b) {
            (Empty, x) | (x, Empty) => x,
            (One(x), One(y)) if x.0 == y.0 => One(Run(x.0, x.1.then(&y.1))),
            (One(x), One(y)) => Many(x, 0, y),
            (One(x), Many(h, c, t)) if x.0 == h.0 => Many(Run(x.0, x.1.then(&h.1)), c, t),
            (One(x), Many(h, c, t)) => {
                let c = c.saturating_add(self.cost(&h)?);
                Many(x, c, t)
            }
            (Many(h, c, t), One(y)) if t.0 == y.0 => Many(h, c, Run(t.0, t.1.then(&y.1))),
            (Many(h, c, t), One(y)) => Many(h, c.saturating_add(self.cost(&t)?), y),
            (Many(h1, c1, t1), Many(h2, c2, t2)) => {
                let middle = if t1.0 == h2.0 {
                    self.cost(&Run(t1.0, t1.1.then(&h2.1)))?
                } else {
                    self.cost(&t1)?.saturating_add(self.cost(&h2)?)
                };
                Many(h1, c1.saturating_add(middle).saturating_add(c2), t2)
            }
        })
    }

    fn pow(&self, s: Summary, mut k: u64) -> Option<Summary> {
        let (mut base, mut acc) = (s, Summary::Empty);
        while k > 0 {
            if k & 1 == 1 {
                acc = self.join(acc, base.clone())?;
            }
            k >>= 1;
            if k > 0 {
                base = self.join(base.clone(), base)?;
            }
        }
        Some(acc)
    }

    fn letter(&mut self, l: u32) -> Option<Summary> {
        let f = match self.family.get(&l) {
            Some(&f) => f,
            None => {
                let (f, _) = self.metric.families.find(&self.alpha.perms[l as usize])?;
                self.family.insert(l, f);
                f
            }
        };
        Some(Summary::One(Run(f, self.alpha.perms[l as usize].clone())))
    }

    /// The summary of `w`, or of its inverse when `inv`.
    fn of(&mut self, w: &Word, inv: bool) -> Option<Summary> {
        let key = shared_key(w).map(|(p, t, n)| (p, t, n, inv));
        if let Some(s) = key.and_then(|k| self.memo.get(&k)) {
            return Some(s.clone());
        }
        let s = match w {
            Word::Letter(l) if inv => self.letter(self.alpha.inverse[*l as usize])?,
            Word::Letter(l) => self.letter(*l)?,
            Word::Seq(items) => {
                let mut acc = Summary::Empty;
                let order: Box<dyn Iterator<Item = &Word>> = if inv {
                    Box::new(items.iter().rev())
                } else {
                    Box::new(items.iter())
                };
                for x in order {
                    let s = self.of(x, inv)?;
                    acc = self.join(acc, s)?;
                }
                acc
            }
            Word::Repeat(_, 0) => Summary::Empty,
            Word::Repeat(x, k) => {
                let s = self.of(x, inv)?;
                self.pow(s, *k)?
            }
            Word::Inverse(x) => self.of(x, !inv)?,
            Word::Named(_, x) => self.of(x, inv)?,
        };
        if let Some(k) = key {
            self.memo.insert(k, s.clone());
        }
        Some(s)
    }
}

/// A node whose payload other words share too, by the payload's address, the node's
/// kind and count: only those are worth remembering.
fn shared_key(w: &Word) -> Option<(usize, u8, u64)> {
    let shared = |x: &Arc<Word>, tag: u8, n: u64| {
        (Arc::strong_count(x) > 1).then_some((Arc::as_ptr(x) as usize, tag, n))
    };
    match w {
        Word::Letter(_) => None,
        Word::Seq(items) => (Arc::strong_count(items) > 1).then(|| (items.as_ptr() as usize, 0, 0)),
        Word::Repeat(x, n) => shared(x, 1, *n),
        Word::Inverse(x) => shared(x, 2, 0),
        Word::Named(_, x) => shared(x, 3, 0),
    }
}

/// The length of `word` (written in `alpha`, whose letters are positions of the puzzle)
/// in `metric`: runs of consecutive letters of one family count as the least cost of
/// their product (in `atm`, `U D` is 1; in `qtm`, `U2` is 2). `None` when a letter or a
/// run is not expressible in the metric. Saturates at `u64::MAX`.
pub fn length(word: &Word, alpha: &Alphabet, metric: &Metric) -> Option<u64> {
    let mut ctx = Ctx {
        alpha,
        metric,
        family: HashMap::new(),
        memo: HashMap::new(),
    };
    match ctx.of(word, false)? {
        Summary::Empty => Some(0),
        Summary::One(r) => ctx.cost(&r),
        Summary::Many(h, c, t) => Some(
            ctx.cost(&h)?
                .saturating_add(c)
                .saturating_add(ctx.cost(&t)?),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::{cube3, word_in};

    /// `length` letter by letter: what the structural one must agree with.
    fn length_streamed(word: &puz_core::Word, alpha: &Alphabet, metric: &Metric) -> Option<u64> {
        let fams = &metric.families;
        let mut total = 0u64;
        let mut cur: Option<(usize, Perm)> = None;
        for l in word.stream(alpha) {
            let (f, _) = fams.find(&alpha.perms[l as usize])?;
            let p = &alpha.perms[l as usize];
            cur = match cur.take() {
                Some((g, acc)) if g == f => Some((f, acc.then(p))),
                Some((g, acc)) => {
                    total += run_cost(metric, g, &acc)?;
                    Some((f, p.clone()))
                }
                None => Some((f, p.clone())),
            };
        }
        if let Some((g, acc)) = cur {
            total += run_cost(metric, g, &acc)?;
        }
        Some(total)
    }

    fn run_cost(metric: &Metric, f: usize, p: &Perm) -> Option<u64> {
        let fam = &metric.families.list[f];
        let e = fam.elements.iter().position(|q| q == p)?;
        Some(fam.cost[e] as u64)
    }

    #[test]
    fn nested_lengths_agree_with_streaming_and_do_not_expand() {
        let c3 = cube3();
        let faces = ["U", "D", "R", "L", "F", "B"];
        let htm = Metric::htm(&c3, &faces, &puz_core::Control::default()).unwrap();
        let metrics = [
            htm.clone(),
            Metric::qtm(&c3, &faces, &puz_core::Control::default()).unwrap(),
            Metric::atm(&c3, &faces, &puz_core::Control::default()).unwrap(),
        ];
        let w = |s: &str| word_in(&htm.alphabet, s);
        let a = w("U D' R");
        let b = w("R' U2 D");
        let words = [
            Word::commutator(a.clone(), b.clone()),
            Word::conjugate(w("U"), w("U D")).pow(3),
            a.clone().pow(-5),
            Word::seq(vec![w("U"), a.clone().inverse(), w("D2"), b.clone().pow(4)]),
            Word::seq(vec![w("U"), w("U").pow(3), w("D")]).pow(2),
            Word::named("x", w("U2 D2 U2")).pow(7),
        ];
        for m in &metrics {
            for x in &words {
                assert_eq!(
                    length(x, &htm.alphabet, m),
                    length_streamed(x, &htm.alphabet, m),
                    "{} in {}",
                    x.display(&htm.alphabet),
                    m.name
                );
            }
        }
        let huge = w("R U").pow(1_000_000_000_000);
        assert_eq!(
            length(&huge, &htm.alphabet, &metrics[1]),
            Some(2_000_000_000_000)
        );
        let runs = w("U").pow(1_000_000_000_001);
        assert_eq!(length(&runs, &htm.alphabet, &metrics[0]), Some(1));
    }
}
