//! Splitting a juxtaposed word such as `RFRFR` or `PFPB2` into declared names, each
//! with an optional power (`B2`). A split must be unique.

/// One piece of a split word: a declared name and its power digits (empty for none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub name: String,
    pub power: Option<u64>,
    /// Byte offset of the piece within the word.
    pub offset: usize,
    pub len: usize,
}

/// All splits of `word` into `names` (each optionally followed by a power), up to `limit`.
/// A split using `R` + `2` is dropped when `R2` is itself a name.
pub fn splits(word: &str, is_name: &dyn Fn(&str) -> bool, limit: usize) -> Vec<Vec<Piece>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    go(word, 0, is_name, limit, &mut cur, &mut out);
    out
}

fn go(
    word: &str,
    at: usize,
    is_name: &dyn Fn(&str) -> bool,
    limit: usize,
    cur: &mut Vec<Piece>,
    out: &mut Vec<Vec<Piece>>,
) {
    if out.len() >= limit {
        return;
    }
    if at == word.len() {
        out.push(cur.clone());
        return;
    }
    let rest = &word[at..];
    for end in 1..=rest.len() {
        let name = &rest[..end];
        if !is_name(name) {
            continue;
        }
        let digits = rest[end..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 && is_name(&rest[..end + digits]) {
            continue; // `R2` is a name itself: that reading is the one taken
        }
        let power = if digits > 0 {
            match rest[end..end + digits].parse::<u64>() {
                Ok(p) => Some(p),
                Err(_) => continue,
            }
        } else {
            None
        };
        cur.push(Piece {
            name: name.to_string(),
            power,
            offset: at,
            len: end + digits,
        });
        go(word, at + end + digits, is_name, limit, cur, out);
        cur.pop();
    }
}

/// A turn with its direction, as WCA Clock scrambles write it: `UR5+` is `UR5`, `UR5-` is
/// `UR5'`. The stem and whether the direction inverts it, for a word ending in one sign
/// after a digit.
pub fn direction(word: &str) -> Option<(&str, bool)> {
    let (stem, inverse) = match word.strip_suffix('+') {
        Some(s) => (s, false),
        None => (word.strip_suffix('-')?, true),
    };
    stem.ends_with(|c: char| c.is_ascii_digit())
        .then_some((stem, inverse))
}

/// Writes a split as `R F R` for messages.
pub fn show(split: &[Piece]) -> String {
    split
        .iter()
        .map(|p| match p.power {
            Some(k) => format!("{}{}", p.name, k),
            None => p.name.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_and_ambiguous_splits() {
        let names = |s: &str| ["R", "F", "L", "B", "P"].contains(&s);
        let s = splits("PFPB2", &names, 10);
        assert_eq!(s.len(), 1);
        assert_eq!(show(&s[0]), "P F P B2");
        let names2 = |s: &str| ["R", "RF", "FR", "F"].contains(&s);
        assert_eq!(splits("RFR", &names2, 10).len(), 3);
        assert!(splits("RXR", &names2, 10).is_empty());
        let names3 = |s: &str| ["R", "R2"].contains(&s);
        let s = splits("R2R", &names3, 10);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0][0].name, "R2");
        // A name led by digits is found too; a digit after a name is its power.
        let names4 = |s: &str| ["2R", "R", "U"].contains(&s);
        assert_eq!(show(&splits("2R2U", &names4, 10)[0]), "2R2 U");
        assert_eq!(show(&splits("U2R", &names4, 10)[0]), "U2 R");
    }

    #[test]
    fn directions() {
        assert_eq!(direction("UR5+"), Some(("UR5", false)));
        assert_eq!(direction("ALL2-"), Some(("ALL2", true)));
        assert_eq!(direction("R++"), None);
        assert_eq!(direction("R-"), None);
        assert_eq!(direction("UR5"), None);
    }
}
