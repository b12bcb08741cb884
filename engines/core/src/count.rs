//! A number with its noun, singular for one: `1 position`, `2 positions`.

use std::fmt::Display;

/// `n` followed by `noun` (its singular), made plural unless `n` is one: `entry`
/// becomes `entries`, other nouns take an `s`.
pub fn count(n: impl Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "position"), "1 position");
        assert_eq!(count(0u64, "position"), "0 positions");
        assert_eq!(count(12, "move"), "12 moves");
        assert_eq!(count(1, "entry"), "1 entry");
        assert_eq!(count(3, "entry"), "3 entries");
        assert_eq!(count(2, "key"), "2 keys");
    }
}
