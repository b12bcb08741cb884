//! Runs that are slices of one path: a coset of `H_l` visited by several runs, each the
//! next piece of one Hamilton path of `H_l` with a single letter left out between pieces
//! (the commuting splices and the joining gadgets replace one letter of a path by a
//! detour through other cosets), is covered exactly once when the pieces joined by those
//! letters spell a path already certified.
//!
//! Why it is sound: the letter `g_j` that joins run `j` to run `j + 1` is exact
//! (`end_j · g_j = start_{j+1}`, permutations compared), so the joined word walked from
//! the first start visits exactly the runs' positions, in order, and nothing else. When
//! its letters equal those of a word already certified to visit a coset of `H_l` once
//! (from any start: left multiplication maps cosets onto cosets), the runs visit their
//! coset once. Letters are compared exactly, skipping nodes shared by both sides at the
//! same offset (equal identity means equal letters); a comparison that would need more
//! than its budget of steps answers "not equal", and the runs are then tiled as before.

use super::runs::{id, Runs, Seg};
use puz_core::Word;

/// A node read whole, or a remaining count of a repetition's copies.
#[derive(Clone)]
struct Item<'w> {
    w: &'w Word,
    inv: bool,
    /// For a repetition being unrolled: copies left (the item stands for `w` once when 1).
    copies: u64,
}

/// A lazy stream of nodes over a list of segments, last item on top.
struct Stream<'w> {
    stack: Vec<Item<'w>>,
}

impl<'w> Stream<'w> {
    fn new(segs: &[Seg<'w>]) -> Stream<'w> {
        Stream {
            stack: segs
                .iter()
                .rev()
                .map(|&(w, inv)| Item { w, inv, copies: 1 })
                .collect(),
        }
    }

    /// Replaces the top item by its parts.
    fn expand(&mut self) {
        let Some(top) = self.stack.pop() else { return };
        if top.copies > 1 {
            self.stack.push(Item {
                copies: top.copies - 1,
                ..top.clone()
            });
            self.stack.push(Item { copies: 1, ..top });
            return;
        }
        match top.w {
            Word::Letter(_) => self.stack.push(top),
            Word::Named(_, x) => self.stack.push(Item {
                w: x,
                inv: top.inv,
                copies: 1,
            }),
            Word::Inverse(x) => self.stack.push(Item {
                w: x,
                inv: !top.inv,
                copies: 1,
            }),
            Word::Repeat(x, n) => {
                if *n > 0 {
                    self.stack.push(Item {
                        w: x,
                        inv: top.inv,
                        copies: *n,
                    })
                }
            }
            Word::Seq(items) => {
                // Pushed so that the first item read comes out first.
                if top.inv {
                    for x in items.iter() {
                        self.stack.push(Item {
                            w: x,
                            inv: true,
                            copies: 1,
                        });
                    }
                } else {
                    for x in items.iter().rev() {
                        self.stack.push(Item {
                            w: x,
                            inv: false,
                            copies: 1,
                        });
                    }
                }
            }
        }
    }
}

/// Whether `a` and `b` spell the same letters, within `budget` steps (false past it).
pub fn same_letters(runs: &mut Runs, a: &[Seg], b: &[Seg], budget: u64) -> bool {
    let alpha = runs.alpha;
    let (mut x, mut y) = (Stream::new(a), Stream::new(b));
    let mut steps = 0u64;
    loop {
        steps += 1;
        if steps > budget {
            return false;
        }
        match (x.stack.last().cloned(), y.stack.last().cloned()) {
            (None, None) => return true,
            (None, Some(t)) | (Some(t), None) => {
                // Only empty nodes may remain on one side.
                if runs.len(t.w) != 0 {
                    return false;
                }
                if x.stack.is_empty() {
                    y.stack.pop();
                } else {
                    x.stack.pop();
                }
            }
            (Some(p), Some(q)) => {
                let (lp, lq) = (runs.len(p.w), runs.len(q.w));
                if lp == 0 {
                    x.stack.pop();
                    continue;
                }
                if lq == 0 {
                    y.stack.pop();
                    continue;
                }
                if p.copies == 1 && q.copies == 1 && p.inv == q.inv && id(p.w) == id(q.w) {
                    x.stack.pop();
                    y.stack.pop();
                    continue;
                }
                let p_letter = p.copies == 1 && matches!(p.w, Word::Letter(_));
                let q_letter = q.copies == 1 && matches!(q.w, Word::Letter(_));
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
                let (sp, sq) = (
                    lp.saturating_mul(p.copies as u128),
                    lq.saturating_mul(q.copies as u128),
                );
                if q_letter || (!p_letter && sp >= sq) {
                    x.expand();
                } else {
                    y.expand();
                }
            }
        }
    }
}
