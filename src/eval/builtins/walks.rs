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
