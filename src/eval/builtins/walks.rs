//! What the Hamilton builtins share: where a letter sits in the user's macros, in words,
//! and a word with its letters replaced (engine letters back to the puzzle's).

use puz_core::{Frame, Word};

pub(super) fn frames_text(frames: &[Frame]) -> String {
    let parts: Vec<String> = frames
        .iter()
        .filter_map(|f| match f {
            Frame::Named(n) => Some(format!("in `{n}`")),
            Frame::Repeat { k, n } => Some(format!("repetition {k} of {n}")),
            Frame::Item { i, n } if *n > 1 => Some(format!("item {i} of {n}")),
            Frame::Item { .. } => None,
            Frame::Inverse => Some("inverted".to_string()),
        })
        .collect();
    parts.join(", ")
}

/// Replaces every letter of a word by a word (letter maps are closed under inverse, so
/// an inverted letter maps to the inverted image).
pub(super) fn map_letters(w: &Word, f: &dyn Fn(u32) -> Word) -> Word {
    match w {
        Word::Letter(l) => f(*l),
        Word::Seq(items) => Word::Seq(
            items
                .iter()
                .map(|x| map_letters(x, f))
                .collect::<Vec<_>>()
                .into(),
        ),
        Word::Repeat(x, n) => Word::Repeat(map_letters(x, f).into(), *n),
        Word::Inverse(x) => map_letters(x, f).inverse(),
        Word::Named(n, x) => Word::Named(n.clone(), map_letters(x, f).into()),
    }
}

/// The puzzle letters a word uses (an inverted letter as its inverse), each shared node
/// looked at once, so a word of 10^19 moves costs its definitions.
pub(super) fn letters_used(w: &Word, alpha: &puz_core::Alphabet) -> Vec<bool> {
    fn go(
        w: &Word,
        alpha: &puz_core::Alphabet,
        inv: bool,
        seen: &mut std::collections::HashSet<((u8, usize, u64), bool)>,
        out: &mut [bool],
    ) {
        match w {
            Word::Letter(l) => {
                let l = if inv { alpha.inverse[*l as usize] } else { *l };
                out[l as usize] = true;
            }
            _ if !seen.insert((w.node_id(), inv)) => {}
            Word::Seq(items) => items.iter().for_each(|x| go(x, alpha, inv, seen, out)),
            Word::Repeat(x, _) | Word::Named(_, x) => go(x, alpha, inv, seen, out),
            Word::Inverse(x) => go(x, alpha, !inv, seen, out),
        }
    }
    let mut out = vec![false; alpha.len()];
    go(w, alpha, false, &mut Default::default(), &mut out);
    out
}

/// A note when the word moves by letters that are not generators of `g` (nor their
/// inverses): it may visit every position of `g` once, but it is then no walk of the
/// Cayley graph on those generators (`D2` in a cycle checked against `<U, R, D>`). None
/// when every generator is a single move (else its edges are not single letters).
pub(super) fn off_generators(w: &Word, g: &crate::eval::value::GroupVal) -> Option<String> {
    let p = &g.puzzle;
    if g.derived || g.gens.iter().any(|x| !matches!(x, Word::Letter(_))) {
        return None;
    }
    let (ga, _) = crate::eval::groups::alphabet(p, &g.gens, false);
    let used = letters_used(w, &p.alphabet);
    let off: Vec<&str> = (0..p.alphabet.len())
        .filter(|&l| used[l] && !ga.perms.contains(&p.alphabet.perms[l]))
        .map(|l| p.alphabet.names[l].as_str())
        .collect();
    if off.is_empty() {
        return None;
    }
    Some(format!(
        "  note: it also moves by {}, not a generator of {} nor an inverse of one: every position once, but not along that Cayley graph's edges\n",
        off.join(", "),
        g.text
    ))
}
