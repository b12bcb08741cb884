//! The one parser of move sequences for tests: cuber's notation over an alphabet, kept
//! nested (a `Word`), and the helpers that name letters and moves.

use puz_core::{Alphabet, Perm, Puzzle, Word};

/// The alphabet of the named moves and their inverses (quarter-turn style): for a move `X`
/// of order 2 only `X`, otherwise `X` and `X'`.
pub fn alphabet(p: &Puzzle, moves: &[&str]) -> Alphabet {
    let mut names = Vec::new();
    let mut perms = Vec::new();
    for &m in moves {
        let perm = p.moves[p.move_index(m).unwrap()].perm.clone();
        let inv = perm.inverse();
        names.push(m.to_string());
        perms.push(perm.clone());
        if inv != perm {
            names.push(format!("{m}'"));
            perms.push(inv);
        }
    }
    Alphabet::new(names, perms).unwrap()
}

/// The letter called `name`.
pub fn letter(a: &Alphabet, name: &str) -> u32 {
    a.index(name).unwrap_or_else(|| panic!("no letter {name}"))
}

/// Parses cuber's notation over an alphabet: letters by longest name match (so `R'R'L`
/// needs no spaces), `( ... )` or `[ ... ]` groups, a count after an atom repeats it and
/// `'` after a group inverts it. `macros` are named words usable by name.
pub fn parse(alpha: &Alphabet, s: &str, macros: &[(&str, Word)]) -> Word {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let w = parse_seq(alpha, &chars, &mut i, macros);
    assert_eq!(i, chars.len(), "unparsed input at {i} in {s}");
    w
}

fn parse_seq(alpha: &Alphabet, c: &[char], i: &mut usize, macros: &[(&str, Word)]) -> Word {
    let mut items = Vec::new();
    loop {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
        if *i >= c.len() || c[*i] == ')' || c[*i] == ']' {
            break;
        }
        let mut atom = if c[*i] == '(' || c[*i] == '[' {
            *i += 1;
            let w = parse_seq(alpha, c, i, macros);
            assert!(*i < c.len(), "unclosed group");
            *i += 1;
            w
        } else {
            let rest: String = c[*i..].iter().collect();
            let mut best: Option<(usize, Word)> = None;
            for (k, n) in alpha.names.iter().enumerate() {
                if rest.starts_with(n.as_str()) && best.as_ref().is_none_or(|b| n.len() > b.0) {
                    best = Some((n.len(), Word::Letter(k as u32)));
                }
            }
            for (n, w) in macros {
                if rest.starts_with(n) && best.as_ref().is_none_or(|b| n.len() > b.0) {
                    best = Some((n.len(), w.clone()));
                }
            }
            let (l, w) = best.unwrap_or_else(|| panic!("unknown move at {rest}"));
            *i += rest[..l].chars().count();
            w
        };
        loop {
            if *i < c.len() && c[*i] == '\'' {
                atom = atom.inverse();
                *i += 1;
            } else if *i < c.len() && c[*i].is_ascii_digit() {
                let mut n = 0i64;
                while *i < c.len() && c[*i].is_ascii_digit() {
                    n = n * 10 + c[*i].to_digit(10).unwrap() as i64;
                    *i += 1;
                }
                atom = atom.pow(n);
            } else {
                break;
            }
        }
        items.push(atom);
    }
    Word::seq(items)
}

/// The named move's permutation.
pub fn mv(p: &Puzzle, name: &str) -> Perm {
    p.moves[p
        .move_index(name)
        .unwrap_or_else(|| panic!("no move {name}"))]
    .perm
    .clone()
}

/// The position reached from the solved state by a sequence such as `R U2 R'` or `(R U)3`
/// over all the puzzle's moves.
pub fn seq(p: &Puzzle, text: &str) -> Perm {
    let names: Vec<&str> = p.moves.iter().map(|m| m.name.as_str()).collect();
    let a = alphabet(p, &names);
    parse(&a, text, &[]).eval(&a, p.degree())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycles::cube3_ur;

    #[test]
    fn nested_notation_evaluates_like_the_flat_one() {
        let p = cube3_ur();
        let a = alphabet(&p, &["U", "R"]);
        let sexy = parse(&a, "R U R' U'", &[]);
        let w = parse(&a, "(X)6 [R U]2' U2", &[("X", sexy.clone())]);
        assert_eq!(w.len(), 6 * 4 + 2 * 2 + 2);
        assert_eq!(sexy.clone().pow(6).eval(&a, p.degree()), p.identity());
        assert_eq!(seq(&p, "R U R' U'"), sexy.eval(&a, p.degree()));
        assert_eq!(seq(&p, "R2"), mv(&p, "R").then(&mv(&p, "R")));
        assert_eq!(seq(&p, "U2'"), seq(&p, "U U"));
        assert_eq!(a.names[letter(&a, "R'") as usize], "R'");
    }
}
