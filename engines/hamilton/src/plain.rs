//! Plain changes (bell ringing, Steinhaus-Johnson-Trotter): a Hamilton cycle of a row of
//! `n` pieces whose moves swap adjacent pieces.
//!
//! The cycle for `n` pieces weaves the new piece through the cycle for `n - 1`: before
//! each letter of the smaller cycle the new piece sweeps across the row, alternately to
//! the left (then the smaller letter acts one place further right) and back to the right.
//! The smaller cycle is transformed letter by letter with [`crate::surgery::substitute`], so
//! the result stays nested (one level per piece).

use crate::surgery::substitute;
use puz_core::{Alphabet, Word};

/// The plain-changes cycle on `swaps.len() + 1` pieces, where letter `swaps[i]` swaps the
/// pieces at places `i` and `i + 1`. It has `(swaps.len() + 1)!` letters.
pub fn plain_changes(swaps: &[u32], alpha: &Alphabet) -> Word {
    assert!(!swaps.is_empty(), "plain changes need at least two pieces");
    let mut w = Word::Letter(swaps[0]).pow(2);
    for m in 2..=swaps.len() {
        // Pieces 0..m (m + 1 pieces); swaps[0..m].
        let left: Vec<Word> = (0..m).rev().map(|i| Word::Letter(swaps[i])).collect();
        let right: Vec<Word> = (0..m).map(|i| Word::Letter(swaps[i])).collect();
        let left = Word::named(&format!("left{}", m + 1), Word::seq(left));
        let right = Word::named(&format!("right{}", m + 1), Word::seq(right));
        let f = |l: u32, odd: bool| {
            let i = swaps.iter().position(|&s| s == l).expect("a swap letter");
            if odd {
                Word::seq(vec![right.clone(), Word::Letter(l)])
            } else {
                Word::seq(vec![left.clone(), Word::Letter(swaps[i + 1])])
            }
        };
        w = substitute(&w, alpha, &f);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use puz_core::{Control, Perm};
    use puz_testkit::{cycles::*, notation::*, rankers::*};

    #[test]
    fn bell_ringing_cycles() {
        for n in 2..=7 {
            let p = row(n);
            let names: Vec<String> = p.moves.iter().map(|m| m.name.clone()).collect();
            let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            let a = alphabet(&p, &refs);
            let r = EnumRanker::new(&a.perms);
            let swaps: Vec<u32> = refs.iter().map(|s| letter(&a, s)).collect();
            let w = plain_changes(&swaps, &a);
            assert_eq!(w.len(), (1..=n as u128).product::<u128>());
            let rep = check(
                &w,
                &a,
                &Perm::identity(n),
                &r,
                Mode::Hamilton,
                &Control::default(),
            )
            .unwrap();
            assert_eq!(rep.kind, Kind::Cycle, "n = {n}");
        }
    }

    #[test]
    fn three_bells_are_the_hexagon() {
        let p = row(3);
        let a = alphabet(&p, &["S0", "S1"]);
        let w = plain_changes(&[0, 1], &a);
        assert_eq!(w.letters(&a), vec![1, 0, 1, 0, 1, 0]);
    }
}
