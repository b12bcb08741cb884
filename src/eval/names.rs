//! Near-name suggestions for unknown names (edit distance).

/// Levenshtein distance between two short strings.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Up to three names close to `name` (case differences count as close), nearest first.
pub fn suggest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut v: Vec<(usize, &str)> = names
        .filter(|n| *n != name)
        .map(|n| {
            let d = if n.eq_ignore_ascii_case(name) {
                0
            } else {
                distance(name, n)
            };
            (d, n)
        })
        .filter(|(d, n)| {
            // One-letter names are all one edit apart: suggest only a case difference.
            if name.len() <= 1 || n.len() <= 1 {
                *d == 0
            } else {
                *d <= (name.len().max(n.len()) / 3).max(1)
            }
        })
        .collect();
    v.sort();
    v.dedup();
    v.into_iter().take(3).map(|(_, n)| n.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(
            suggest("ordr", ["order", "cycles", "show"].into_iter()),
            vec!["order"]
        );
        assert_eq!(suggest("r", ["R", "U"].into_iter()), vec!["R"]);
        assert!(suggest("zzzz", ["R", "U"].into_iter()).is_empty());
    }
}
