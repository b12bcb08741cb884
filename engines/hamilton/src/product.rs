//! The direct-product zigzag: a Hamilton path of `G x H` from Hamilton paths of `G` and
//! `H` (Jaap: the path in `H` is walked forwards and backwards, with one step of the path
//! in `G` between). It also works when `G`'s letters act on `H` but not the other way.

use crate::surgery::{cat, substitute};
use puz_core::{Alphabet, Word};

/// `Q g1 Q' g2 Q g3 Q' ...` ending with `Q` or `Q'`: `|G| |H| - 1` letters.
pub fn zigzag(path_g: &Word, path_h: &Word, alpha: &Alphabet) -> Word {
    let q = path_h.clone();
    let qi = path_h.clone().inverse();
    let f = |l: u32, odd: bool| {
        Word::seq(vec![
            if odd { qi.clone() } else { q.clone() },
            Word::Letter(l),
        ])
    };
    let body = substitute(path_g, alpha, &f);
    let last = if path_g.len().is_multiple_of(2) {
        q
    } else {
        qi
    };
    cat(vec![body, last])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, Kind, Mode};
    use crate::gray::{reflected, Digit};
    use crate::plain::plain_changes;
    use puz_core::{Control, MoveBuilder, NamedMove, Perm, Puzzle, Ranker};
    use puz_testkit::{notation::*, rankers::*};

    #[test]
    fn product_of_a_row_and_a_dial() {
        // S_4 on a row of 4 times Z_5 on a separate dial.
        let mut p = Puzzle::new("prod");
        p.add_orbit("row", 4, 1, vec![]);
        p.add_orbit("dial", 1, 5, vec![]);
        for i in 0..3 {
            let mut b = MoveBuilder::new(&p);
            b.cycle(0, &[(i, 0), (i + 1, 0)]).unwrap();
            let perm = b.finish();
            p.moves.push(NamedMove {
                name: format!("S{i}"),
                perm,
                primitive: true,
            });
        }
        let mut b = MoveBuilder::new(&p);
        b.cycle(1, &[(0, 1)]).unwrap();
        let perm = b.finish();
        p.moves.push(NamedMove {
            name: "D".into(),
            perm,
            primitive: true,
        });
        let a = alphabet(&p, &["S0", "S1", "S2", "D"]);
        let r = EnumRanker::new(&a.perms);
        assert_eq!(r.size(), Some(120));
        let swaps = [letter(&a, "S0"), letter(&a, "S1"), letter(&a, "S2")];
        let cyc = plain_changes(&swaps, &a);
        let g_path = crate::surgery::drop_last(&cyc, &a);
        let h_path = reflected(&[Digit {
            letter: letter(&a, "D"),
            radix: 5,
        }]);
        for (g, h) in [(&g_path, &h_path), (&h_path, &g_path)] {
            let w = zigzag(g, h, &a);
            assert_eq!(w.len(), 119);
            let rep = check(
                &w,
                &a,
                &Perm::identity(a.perms[0].degree()),
                &r,
                Mode::Hamilton,
                &Control::default(),
            )
            .unwrap();
            assert_eq!(rep.kind, Kind::Path, "{rep:?} {}", w.display(&a));
        }
    }
}
