//! Puzzles written in cycle notation, as the source texts give them. A move is a list of
//! cycles on orbits; `(location, twist added on leaving)` as in the language's `a+i`.

use puz_core::{MoveBuilder, NamedMove, Puzzle};

/// A move as cycles on orbits: `(orbit, [(location, twist added on leaving)])`.
pub type Cycles<'a> = &'a [(usize, &'a [(usize, i64)])];

/// Builds a puzzle from orbits `(name, size, twist)` and moves given as cycles.
pub fn puzzle(name: &str, orbits: &[(&str, usize, u8)], moves: &[(&str, Cycles)]) -> Puzzle {
    let mut p = Puzzle::new(name);
    for &(n, size, twist) in orbits {
        p.add_orbit(n, size, twist, vec![]);
    }
    for &(n, cycles) in moves {
        let mut b = MoveBuilder::new(&p);
        for &(o, c) in cycles {
            b.cycle(o, c).unwrap();
        }
        let perm = b.finish();
        p.moves.push(NamedMove {
            name: n.to_string(),
            perm,
            primitive: true,
        });
    }
    p
}

/// The Floppy Cube (192 positions), as in the brief.
pub fn floppy() -> Puzzle {
    puzzle(
        "floppy",
        &[("corners", 4, 1), ("edges", 4, 2)],
        &[
            ("R", &[(0, &[(1, 0), (2, 0)]), (1, &[(1, 1)])]),
            ("L", &[(0, &[(0, 0), (3, 0)]), (1, &[(3, 1)])]),
            ("F", &[(0, &[(0, 0), (1, 0)]), (1, &[(0, 1)])]),
            ("B", &[(0, &[(2, 0), (3, 0)]), (1, &[(2, 1)])]),
        ],
    )
}

/// Jaap's 6-piece puzzle: three faces of three pieces, any two sharing one piece (360
/// positions). Read off Jaap's tables: R turns locations 1 2 3, L turns 3 4 5 and U turns
/// 1 5 6 (0-based here).
pub fn six_piece() -> Puzzle {
    puzzle(
        "six",
        &[("pieces", 6, 1)],
        &[
            ("R", &[(0, &[(0, 0), (1, 0), (2, 0)])]),
            ("L", &[(0, &[(2, 0), (3, 0), (4, 0)])]),
            ("U", &[(0, &[(0, 0), (4, 0), (5, 0)])]),
        ],
    )
}

/// A row of `n` pieces where a move swaps two adjacent ones: move `S{i}` swaps `i`, `i+1`.
pub fn row(n: usize) -> Puzzle {
    let names: Vec<String> = (0..n - 1).map(|i| format!("S{i}")).collect();
    let cyc: Vec<[(usize, i64); 2]> = (0..n - 1).map(|i| [(i, 0), (i + 1, 0)]).collect();
    let moves: Vec<(usize, &[(usize, i64)])> = cyc.iter().map(|c| (0, &c[..])).collect();
    let mv: Vec<(&str, Cycles)> = names
        .iter()
        .zip(&moves)
        .map(|(n, m)| (n.as_str(), std::slice::from_ref(m)))
        .collect();
    puzzle("row", &[("pieces", n, 1)], &mv)
}

/// Rubik's Cheese: a disc of 6 wedges with two sides; a move flips over one half (three
/// consecutive wedges), reversing their order and turning each over. The whole disc's
/// position is not fixed, so flipping a half or its complement are different moves.
pub fn cheese() -> Puzzle {
    type Flip = (String, Vec<(usize, i64)>, Vec<(usize, i64)>);
    let mut moves: Vec<Flip> = Vec::new();
    for k in 0..3 {
        let (a, b, c) = (k, k + 1, k + 2);
        moves.push((format!("H{k}"), vec![(a, 1), (c, 1)], vec![(b, 1)]));
    }
    let mut p = Puzzle::new("cheese");
    p.add_orbit("wedges", 6, 2, vec![]);
    for (n, swap, fix) in moves {
        let mut b = MoveBuilder::new(&p);
        b.cycle(0, &swap).unwrap();
        b.cycle(0, &fix).unwrap();
        let perm = b.finish();
        p.moves.push(NamedMove {
            name: n,
            perm,
            primitive: true,
        });
    }
    p
}

/// The 2x2x2 cube's corners (Kociemba's numbering URF UFL ULB UBR DFR DLF DBL DRB) with
/// the quarter turns U, R, F (DBL stays fixed). [`crate::cubies::cube2`] is the same group
/// with the language reference's location names.
pub fn cube2() -> Puzzle {
    puzzle(
        "2x2x2",
        &[("corners", 8, 3)],
        &[
            ("U", &[(0, &[(3, 0), (0, 0), (1, 0), (2, 0)])]),
            ("R", &[(0, &[(4, 2), (0, 1), (3, 2), (7, 1)])]),
            ("F", &[(0, &[(1, 1), (0, 2), (4, 1), (5, 2)])]),
        ],
    )
}

/// The 3x3x3 cube with U and R (corners as [`cube2`], edges UR UF UL UB DR DF DL DB FR FL
/// BL BR).
pub fn cube3_ur() -> Puzzle {
    puzzle(
        "3x3x3",
        &[("corners", 8, 3), ("edges", 12, 2)],
        &[
            (
                "U",
                &[
                    (0, &[(3, 0), (0, 0), (1, 0), (2, 0)]),
                    (1, &[(3, 0), (0, 0), (1, 0), (2, 0)]),
                ],
            ),
            (
                "R",
                &[
                    (0, &[(4, 2), (0, 1), (3, 2), (7, 1)]),
                    (1, &[(8, 0), (0, 0), (11, 0), (4, 0)]),
                ],
            ),
        ],
    )
}

/// Lights Out on an `n` x `n` grid: button `B{r}{c}` toggles its light and its neighbours.
pub fn lights_out(n: usize) -> Puzzle {
    let mut p = Puzzle::new("lightsout");
    p.add_orbit("lights", n * n, 2, vec![]);
    for r in 0..n {
        for c in 0..n {
            let mut b = MoveBuilder::new(&p);
            let mut cells = vec![(r, c)];
            if r > 0 {
                cells.push((r - 1, c));
            }
            if r + 1 < n {
                cells.push((r + 1, c));
            }
            if c > 0 {
                cells.push((r, c - 1));
            }
            if c + 1 < n {
                cells.push((r, c + 1));
            }
            for (a, d) in cells {
                b.cycle(0, &[(a * n + d, 1)]).unwrap();
            }
            let perm = b.finish();
            p.moves.push(NamedMove {
                name: format!("B{r}{c}"),
                perm,
                primitive: true,
            });
        }
    }
    p
}

/// A clock-like abelian puzzle: `d` dials mod `base`; move `M{i}` turns dials `i..d` by one
/// (so the moves are independent and the group is `Z_base^d`).
pub fn dials(d: usize, base: u8) -> Puzzle {
    let mut p = Puzzle::new("dials");
    p.add_orbit("dials", d, base, vec![]);
    for i in 0..d {
        let mut b = MoveBuilder::new(&p);
        for j in i..d {
            b.cycle(0, &[(j, 1)]).unwrap();
        }
        let perm = b.finish();
        p.moves.push(NamedMove {
            name: format!("M{i}"),
            perm,
            primitive: true,
        });
    }
    p
}

/// A section of `n` TopSpin pieces whose turntable reverses 4 consecutive pieces at any of
/// the `n - 3` places: move `T{i}` reverses `i..i+4`.
pub fn topspin(n: usize) -> Puzzle {
    let mut p = Puzzle::new("topspin");
    p.add_orbit("pieces", n, 1, vec![]);
    for i in 0..n - 3 {
        let mut b = MoveBuilder::new(&p);
        b.cycle(0, &[(i, 0), (i + 3, 0)]).unwrap();
        b.cycle(0, &[(i + 1, 0), (i + 2, 0)]).unwrap();
        let perm = b.finish();
        p.moves.push(NamedMove {
            name: format!("T{i}"),
            perm,
            primitive: true,
        });
    }
    p
}

/// TopSpin as the interpreter's `topspin(n)`: n discs in a loop, `S` slides the loop one
/// place, `T` turns over the turntable holding locations 0..3.
pub fn topspin_st(n: usize) -> Puzzle {
    let slide: Vec<(usize, i64)> = (0..n).map(|i| (i, 0)).collect();
    puzzle(
        "topspin",
        &[("discs", n, 1)],
        &[
            ("S", &[(0, &slide[..])]),
            ("T", &[(0, &[(0, 0), (3, 0)]), (0, &[(1, 0), (2, 0)])]),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{alphabet, EnumRanker};
    use puz_core::Ranker;

    fn order(p: &Puzzle, moves: &[&str]) -> u64 {
        let a = alphabet(p, moves);
        EnumRanker::new(&a.perms).size().unwrap()
    }

    #[test]
    fn group_orders_match_the_source_texts() {
        assert_eq!(order(&floppy(), &["R", "L", "F", "B"]), 192);
        assert_eq!(order(&six_piece(), &["R", "L", "U"]), 360);
        assert_eq!(order(&six_piece(), &["R", "L"]), 60);
        assert_eq!(order(&row(4), &["S0", "S1", "S2"]), 24);
        assert_eq!(order(&cheese(), &["H0", "H1", "H2"]), 96);
        assert_eq!(order(&cube2(), &["U", "R"]), 29160);
        assert_eq!(order(&dials(3, 12), &["M0", "M1", "M2"]), 1728);
        assert_eq!(order(&topspin_st(6), &["S", "T"]), 720);
    }
}
