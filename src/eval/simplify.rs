//! Tidying words the program built (`solve`): adjacent turns of one move merge (`U2 U`
//! is `U'`, `F' F'` is `F2`, `R R'` goes), also across moves that commute with them
//! (`U D U'` is `D`), and a word with no effect is `()`, so the printed answer reads as
//! a cuber would write it.

use super::puzzle_ctx::PuzzleCtx;
use puz_core::Word;

/// Longest word (in letters) that is flattened and tidied; longer ones print as built.
const MAX_LETTERS: u128 = 1 << 20;

/// The word as a tidier sequence of the puzzle's letters with the same effect, or the word
/// unchanged when it is too long or uses letters whose powers cannot be merged.
pub fn simplify(p: &PuzzleCtx, w: &Word) -> Word {
    if w.len() > MAX_LETTERS {
        return w.clone();
    }
    // A word that does nothing is written as nothing.
    if w.eval(&p.alphabet, p.def.degree()).is_identity() {
        return Word::empty();
    }
    let letters = w.letters(&p.alphabet);
    // (move, power) for each letter; a letter standing for a long power stays as it is.
    let mut turns: Vec<(usize, i64)> = Vec::with_capacity(letters.len());
    for &l in &letters {
        let Some(&(mi, power)) = p.letter_moves.get(l as usize) else {
            return w.clone();
        };
        turns.push((mi, power as i64));
    }
    let commute = |a: usize, b: usize| {
        let (x, y) = (&p.def.moves[a].perm, &p.def.moves[b].perm);
        x.then(y) == y.then(x)
    };
    let mut memo = std::collections::HashMap::new();
    let mut out: Vec<(usize, i64)> = Vec::with_capacity(turns.len());
    for (mi, k) in turns {
        // Look back past turns that commute with this one for a turn of the same move.
        let mut j = out.len();
        let mut merged = false;
        while j > 0 {
            let (m2, k2) = out[j - 1];
            if m2 == mi {
                let sum = reduce(p, mi, k2 + k);
                if sum == 0 {
                    out.remove(j - 1);
                } else {
                    out[j - 1] = (mi, sum);
                }
                merged = true;
                break;
            }
            let key = (mi.min(m2), mi.max(m2));
            if !*memo.entry(key).or_insert_with(|| commute(mi, m2)) {
                break;
            }
            j -= 1;
        }
        if !merged {
            out.push((mi, reduce(p, mi, k)));
        }
    }
    Word::seq(
        out.into_iter()
            .map(|(mi, k)| p.power_word(mi, k))
            .filter(|w| !w.is_empty())
            .collect(),
    )
}

/// A power of a move reduced to its order, as the nearest to zero (`U3` is `U'`).
fn reduce(p: &PuzzleCtx, mi: usize, k: i64) -> i64 {
    let o = p.move_orders[mi];
    if o == u64::MAX || o > i64::MAX as u64 {
        return k;
    }
    let o = o as i64;
    let r = k.rem_euclid(o);
    if r * 2 > o {
        r - o
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::interp::Interp;
    use crate::eval::value::Value;

    fn tidy(puzzle: &str, text: &str) -> String {
        let mut it = Interp::new(Box::new(std::io::sink()));
        it.run_source("<test>", &format!("use {puzzle}; let w_ = {text}"))
            .unwrap();
        let Value::Seq(s) = &it.vars["w_"].value else {
            panic!("not a sequence")
        };
        let w = simplify(&s.puzzle, &s.word);
        // Same effect, always.
        assert_eq!(
            w.eval(&s.puzzle.alphabet, s.puzzle.def.degree()),
            s.word.eval(&s.puzzle.alphabet, s.puzzle.def.degree())
        );
        w.display(&s.puzzle.alphabet)
    }

    #[test]
    fn merges_and_cancels() {
        assert_eq!(tidy("cube3", "U2 U"), "U'");
        assert_eq!(tidy("cube3", "F' F'"), "F2");
        assert_eq!(tidy("cube3", "R R' U"), "U");
        assert_eq!(tidy("cube3", "L L2"), "L'");
        assert_eq!(tidy("cube3", "U D U'"), "D");
        assert_eq!(tidy("cube3", "U F U'"), "U F U'");
        assert_eq!(tidy("cube3", "R U U' R'"), "()");
        assert_eq!(tidy("cube3", "(R U R' U')6"), "()");
    }
}
