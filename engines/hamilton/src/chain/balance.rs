//! Balanced nesting: a long flat sequence (such as the 1.66 million runs `hamilton(<U,R>)`
//! returns) becomes a tree of sequences of at most `fanout` items, so a cut or a rotation
//! makes `O(depth · fanout)` new nodes instead of copying every item.

use puz_core::Word;
use std::collections::HashMap;
use std::sync::Arc;

/// Items per sequence when none is given.
pub const FANOUT: usize = 16;

/// `w` with every sequence of more than `fanout` items replaced by a balanced tree of
/// sequences; the letters are unchanged and shared sub-words stay shared.
pub fn balance(w: &Word, fanout: usize) -> Word {
    assert!(fanout >= 2, "a fan-out of at least two");
    let mut memo = HashMap::new();
    go(w, fanout, &mut memo)
}

fn go(w: &Word, fanout: usize, memo: &mut HashMap<usize, Word>) -> Word {
    match w {
        Word::Letter(_) => w.clone(),
        Word::Named(name, x) => Word::Named(name.clone(), Arc::new(go(x, fanout, memo))),
        Word::Inverse(x) => Word::Inverse(Arc::new(go(x, fanout, memo))),
        Word::Repeat(x, n) => Word::Repeat(Arc::new(go(x, fanout, memo)), *n),
        Word::Seq(items) => {
            let id = items.as_ptr() as *const u8 as usize;
            if let Some(b) = memo.get(&id) {
                return b.clone();
            }
            let mut level: Vec<Word> = items.iter().map(|x| go(x, fanout, memo)).collect();
            while level.len() > fanout {
                level = level
                    .chunks(fanout)
                    .map(|c| {
                        if c.len() == 1 {
                            c[0].clone()
                        } else {
                            Word::Seq(Arc::from(c.to_vec()))
                        }
                    })
                    .collect();
            }
            let out = Word::Seq(Arc::from(level));
            // Every node: one under a shared wrapper is reached many times too.
            memo.insert(id, out.clone());
            out
        }
    }
}

/// The depth of the deepest letter (a letter alone has depth 0), memoised by node.
pub fn depth(w: &Word) -> usize {
    fn go(w: &Word, memo: &mut HashMap<usize, usize>) -> usize {
        match w {
            Word::Letter(_) => 0,
            Word::Named(_, x) | Word::Inverse(x) | Word::Repeat(x, _) => 1 + go(x, memo),
            Word::Seq(items) => {
                let id = items.as_ptr() as *const u8 as usize;
                if let Some(&d) = memo.get(&id) {
                    return d;
                }
                let d = 1 + items.iter().map(|x| go(x, memo)).max().unwrap_or(0);
                memo.insert(id, d);
                d
            }
        }
    }
    go(w, &mut HashMap::new())
}

/// The distinct sequence nodes (by identity) with their item counts.
pub fn nodes(w: &Word) -> HashMap<usize, usize> {
    let mut seen = HashMap::new();
    let mut stack = vec![w];
    while let Some(w) = stack.pop() {
        match w {
            Word::Letter(_) => {}
            Word::Named(_, x) | Word::Inverse(x) | Word::Repeat(x, _) => stack.push(x),
            Word::Seq(items) => {
                let id = items.as_ptr() as *const u8 as usize;
                if items.is_empty() || seen.insert(id, items.len()).is_some() {
                    continue;
                }
                stack.extend(items.iter());
            }
        }
    }
    seen
}

/// The number of distinct sequence nodes and the items they hold.
pub fn census(w: &Word) -> (usize, usize) {
    let n = nodes(w);
    (n.len(), n.values().sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::measure::Measure;
    use puz_testkit::{cycles::*, notation::*};

    #[test]
    fn balanced_words_keep_their_letters_and_cut_cheaply() {
        let a = alphabet(&six_piece(), &["R", "L", "U"]);
        let flat = Word::seq((0..10_000u32).map(|k| Word::Letter(k % 6)).collect());
        let b = balance(&flat, 8);
        assert_eq!(b.letters(&a), flat.letters(&a));
        assert!(depth(&b) <= 6, "depth {}", depth(&b));
        let mut m = Measure::new(&a, 6);
        let (x, y) = m.split_at(&b, 4321);
        let old = nodes(&b);
        let new = nodes(&x).keys().filter(|k| !old.contains_key(k)).count();
        assert!(new <= depth(&b), "the cut shares all but {new} nodes");
        assert_eq!(x.letters(&a), flat.letters(&a)[..4321].to_vec());
        assert_eq!(y.letters(&a).len(), 10_000 - 4321);
        // Shared parts stay shared.
        let s = Word::seq(vec![b.clone(), Word::Letter(2), b.clone().inverse()]);
        let bs = balance(&s, 8);
        let (n1, _) = census(&b);
        let (n2, _) = census(&bs);
        assert!(n2 <= n1 + 2, "{n1} {n2}");
    }
}
