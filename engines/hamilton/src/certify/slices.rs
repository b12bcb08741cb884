//! Runs that are slices of one path: a coset of `H_l` visited by several runs, each a
//! piece of one Hamilton path of `H_l` with a single letter left out between pieces (the
//! commuting splices and the joining gadgets replace one letter of a path by a detour
//! through other cosets; a rotation of a cycle cuts a path of the level below in two and
//! visits the pieces in the other order), is covered exactly once when the pieces, put in
//! the order in which single letters join them, spell a path already certified.
//!
//! Why it is sound: the letter `g_j` that joins a run to the next in that order is exact
//! (`end · g_j = start'`, permutations compared), and every run is used once, so the
//! joined word walked from the first start visits exactly the runs' positions and
//! nothing else. When its letters equal those of a word already certified to visit a
//! coset of `H_l` once (from any start: left multiplication maps cosets onto cosets), the
//! runs visit their coset once. A certified word read backwards (each node inverted) is
//! certified too: it visits the positions of the word started at its start times the
//! inverse of its product. Letters are compared exactly, skipping nodes (and copies of a
//! repetition) shared by both sides at the same offset (equal identity means equal
//! letters); a comparison that would need more than its budget of steps answers "not
//! equal", and the runs are then tiled as before.

use super::runs::{id, Runs, Seg};
use puz_core::Word;

/// A node read whole, or a remaining count of a repetition's copies.
#[derive(Clone, Copy)]
struct Item<'w> {
    w: &'w Word,
    inv: bool,
    /// For a repetition being unrolled: copies left (the item stands for `w` once when 1).
    copies: u64,
    /// Letters of `w` once, [`UNKNOWN`] until asked: most items are skipped as shared
    /// nodes without it, and a look-up is most of a step's cost.
    len: u128,
}

const UNKNOWN: u128 = u128::MAX;

impl Item<'_> {
    fn letter(&self) -> bool {
        self.copies == 1 && matches!(self.w, Word::Letter(_))
    }
}

/// Segments borrowed from a run, or held by a certified path.
#[derive(Clone, Copy)]
pub enum Segs<'w> {
    Run(&'w [Seg<'w>]),
    Held(&'w [(Word, bool)]),
}

impl<'w> Segs<'w> {
    fn len(&self) -> usize {
        match self {
            Segs::Run(s) => s.len(),
            Segs::Held(s) => s.len(),
        }
    }

    fn get(&self, i: usize) -> (&'w Word, bool) {
        match *self {
            Segs::Run(s) => s[i],
            Segs::Held(s) => (&s[i].0, s[i].1),
        }
    }
}

/// A lazy stream of nodes over a list of segments: the opened items (last on top), then
/// the segments not yet read (so a comparison that fails early costs little).
struct Stream<'w> {
    segs: Segs<'w>,
    next: usize,
    stack: Vec<Item<'w>>,
}

impl<'w> Stream<'w> {
    fn new(segs: Segs<'w>) -> Stream<'w> {
        Stream {
            segs,
            next: 0,
            stack: Vec::new(),
        }
    }

    /// The top item, reading the next segment when nothing opened is left.
    fn top(&mut self) -> Option<Item<'w>> {
        while self.stack.is_empty() && self.next < self.segs.len() {
            let (w, inv) = self.segs.get(self.next);
            self.next += 1;
            self.push(w, inv, 1);
        }
        self.stack.last().copied()
    }

    fn push(&mut self, w: &'w Word, inv: bool, copies: u64) {
        if copies > 0 {
            self.stack.push(Item {
                w,
                inv,
                copies,
                len: UNKNOWN,
            });
        }
    }

    /// The letters of the top item (all its copies), looked up once.
    fn top_total(&mut self, runs: &mut Runs) -> u128 {
        let top = self.stack.last_mut().expect("a top item");
        if top.len == UNKNOWN {
            top.len = runs.len(top.w);
        }
        top.len.saturating_mul(top.copies as u128)
    }

    /// Drops `c` copies of the top item.
    fn skip(&mut self, c: u64) {
        let top = self.stack.last_mut().expect("an item to skip");
        if top.copies > c {
            top.copies -= c;
        } else {
            self.stack.pop();
        }
    }

    /// Replaces the top item by its parts.
    fn expand(&mut self) {
        let Some(top) = self.stack.pop() else { return };
        if top.copies > 1 {
            self.stack.push(Item {
                copies: top.copies - 1,
                ..top
            });
            self.stack.push(Item { copies: 1, ..top });
            return;
        }
        match top.w {
            Word::Letter(_) => self.stack.push(top),
            Word::Named(_, x) => self.push(x, top.inv, 1),
            Word::Inverse(x) => self.push(x, !top.inv, 1),
            Word::Repeat(x, n) => self.push(x, top.inv, *n),
            Word::Seq(items) => {
                // Pushed so that the first item read comes out first.
                if top.inv {
                    for x in items.iter() {
                        self.push(x, true, 1);
                    }
                } else {
                    for x in items.iter().rev() {
                        self.push(x, false, 1);
                    }
                }
            }
        }
    }
}

/// Whether `a` and `b` spell the same letters, within `budget` steps (false past it).
pub fn same_letters(runs: &mut Runs, a: Segs, b: Segs, budget: u64) -> bool {
    let alpha = runs.alpha;
    let (mut x, mut y) = (Stream::new(a), Stream::new(b));
    let mut steps = 0u64;
    loop {
        steps += 1;
        if steps > budget {
            return false;
        }
        let (Some(p), Some(q)) = (x.top(), y.top()) else {
            // Only empty nodes may remain on one side.
            let rest = if x.stack.is_empty() { &mut y } else { &mut x };
            if rest.top().is_none() {
                return true;
            }
            if rest.top_total(runs) != 0 {
                return false;
            }
            rest.stack.pop();
            continue;
        };
        if p.inv == q.inv && id(p.w) == id(q.w) {
            // The same node: as many copies as both have left are skipped at once.
            let c = p.copies.min(q.copies);
            x.skip(c);
            y.skip(c);
            continue;
        }
        let (sp, sq) = (x.top_total(runs), y.top_total(runs));
        if sp == 0 {
            x.stack.pop();
            continue;
        }
        if sq == 0 {
            y.stack.pop();
            continue;
        }
        let (p_letter, q_letter) = (p.letter(), q.letter());
        if p_letter && q_letter {
            let l = |w: &Word, inv: bool| match w {
                Word::Letter(l) if inv => alpha.inverse[*l as usize],
                Word::Letter(l) => *l,
                _ => unreachable!(),
            };
            if l(p.w, p.inv) != l(q.w, q.inv) {
                return false;
            }
            x.stack.pop();
            y.stack.pop();
            continue;
        }
        // The longer (or the one that is not a letter) is opened up.
        if q_letter || (!p_letter && sp >= sq) {
            x.expand();
        } else {
            y.expand();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use puz_core::Alphabet;

    fn letters(alpha: &Alphabet, w: &Word) -> Vec<u32> {
        let mut v = Vec::new();
        super::super::runs::each_letter(alpha, w, false, &mut |x| {
            v.push(x);
            true
        });
        v
    }

    /// Nested words over four letters (two moves and their inverses), sharing nodes.
    fn word() -> impl Strategy<Value = Word> {
        let leaf = (0u32..4).prop_map(Word::Letter);
        leaf.prop_recursive(5, 64, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(|v| Word::Seq(v.into())),
                (inner.clone(), 0u64..4).prop_map(|(w, n)| Word::Repeat(w.into(), n)),
                inner.clone().prop_map(|w| Word::Inverse(w.into())),
                // The same node twice: identities are shared.
                inner.prop_map(|w| Word::Seq(vec![w.clone(), w].into())),
            ]
        })
    }

    proptest! {
        /// Equal letters are recognised however the nodes are cut and nested, and
        /// different letters never are.
        #[test]
        fn same_letters_is_letter_equality(w in word(), v in word(), cut in 0u128..64) {
            let p = puz_testkit::cubies::cube2();
            let alpha = puz_testkit::alphabet(&p, &["U", "R"]);
            let mut runs = Runs::new(&alpha, vec![vec![true; 4]]);
            let n = runs.len(&w);
            let i = cut.min(n);
            let head = runs.cut(&w, i, false);
            let tail = runs.cut(&w, n - i, true);
            // The same letters, cut in two and compared with the whole.
            prop_assert!(same_letters(&mut runs, Segs::Run(&[(&head, false), (&tail, false)]), Segs::Run(&[(&w, false)]), u64::MAX));
            // Read inverted on both sides.
            let inv = Word::Inverse(w.clone().into());
            prop_assert!(same_letters(&mut runs, Segs::Run(&[(&tail, true), (&head, true)]), Segs::Run(&[(&inv, false)]), u64::MAX));
            // Any two words: true exactly when their letters are equal.
            let equal = letters(&alpha, &w) == letters(&alpha, &v);
            prop_assert_eq!(same_letters(&mut runs, Segs::Run(&[(&w, false)]), Segs::Held(&[(v.clone(), false)]), u64::MAX), equal);
            prop_assert_eq!(same_letters(&mut runs, Segs::Run(&[(&head, false), (&tail, false)]), Segs::Run(&[(&v, false)]), u64::MAX), equal);
        }
    }
}
