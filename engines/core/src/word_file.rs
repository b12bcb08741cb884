//! A word written as its definitions: every node the word reaches more than once, and
//! every node the user named, becomes one `let`, written before its first use. A word of
//! 10^19 letters built from shared pieces is then a file the size of its description, and
//! reading the file back (the interpreter runs the `let`s) rebuilds the same sharing.
//!
//! Nodes are identified by the address of their shared payload (`Arc`), so the walk is
//! linear in the number of distinct nodes, never in the word's length.

use crate::word::{Alphabet, Word};
use std::collections::HashMap;
use std::fmt::Write;

/// The identity of a node with a shared payload ([`Word::node_id`]); letters have none
/// (they are written inline).
type Id = (u8, usize, u64);

fn id(w: &Word) -> Option<Id> {
    match w {
        Word::Letter(_) => None,
        w => Some(w.node_id()),
    }
}

fn children(w: &Word) -> &[Word] {
    match w {
        Word::Letter(_) => &[],
        Word::Seq(items) => items,
        Word::Repeat(x, _) | Word::Inverse(x) | Word::Named(_, x) => std::slice::from_ref(&**x),
    }
}

/// `(definitions, root)`: the `let` lines in dependency order and the root's own text.
/// `taken` are names the file must not define (moves, builtins, keywords); generated
/// names are `_1`, `_2`, ... and a user's name met twice for different nodes gets `_2`...
pub fn definitions(word: &Word, alpha: &Alphabet, taken: &[&str]) -> (Vec<String>, String) {
    // Pass 1: how often each node is reached (children counted once per distinct parent
    // visit, so a shared node's subtree is walked once).
    let mut refs: HashMap<Id, u32> = HashMap::new();
    let mut stack = vec![word];
    while let Some(w) = stack.pop() {
        if let Some(k) = id(w) {
            let c = refs.entry(k).or_insert(0);
            *c += 1;
            if *c > 1 {
                continue;
            }
        }
        stack.extend(children(w));
    }
    // Pass 2: names for the nodes that get a definition.
    let mut used: std::collections::HashSet<String> = taken.iter().map(|s| s.to_string()).collect();
    let mut names: HashMap<Id, String> = HashMap::new();
    let mut generated = 0u64;
    let mut fresh = |base: Option<&str>, used: &mut std::collections::HashSet<String>| {
        let mut k = 0u64;
        loop {
            let cand = match base {
                Some(b) if k == 0 => b.to_string(),
                Some(b) => format!("{b}_{k}"),
                None => {
                    generated += 1;
                    format!("_{generated}")
                }
            };
            k += 1;
            if used.insert(cand.clone()) {
                return cand;
            }
        }
    };
    let mut order = Vec::new();
    post_order(word, &mut |w| {
        let Some(k) = id(w) else { return };
        if names.contains_key(&k) {
            return;
        }
        let shared = refs.get(&k).copied().unwrap_or(0) > 1 && !trivial(w);
        if let Word::Named(n, _) = w {
            names.insert(k, fresh(Some(n), &mut used));
            order.push(w);
        } else if shared {
            names.insert(k, fresh(None, &mut used));
            order.push(w);
        }
    });
    let mut defs = Vec::with_capacity(order.len());
    for w in order {
        let k = id(w).unwrap();
        let body = match w {
            Word::Named(_, x) => x,
            _ => w,
        };
        let mut text = String::new();
        write(body, alpha, &names, Some(k), &mut text, true);
        defs.push(format!("let {} = {}", names[&k], text));
    }
    let mut root = String::new();
    write(word, alpha, &names, None, &mut root, true);
    (defs, root)
}

/// Nodes too small to be worth a name of their own.
fn trivial(w: &Word) -> bool {
    match w {
        Word::Letter(_) => true,
        Word::Seq(items) => items.is_empty(),
        _ => false,
    }
}

/// Visits every distinct node after its children (iteratively: words may nest deeply).
fn post_order<'w>(word: &'w Word, f: &mut impl FnMut(&'w Word)) {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<(&'w Word, bool)> = vec![(word, false)];
    while let Some((w, expanded)) = stack.pop() {
        if expanded {
            f(w);
            continue;
        }
        if let Some(k) = id(w) {
            if !seen.insert(k) {
                continue;
            }
        }
        stack.push((w, true));
        for c in children(w).iter().rev() {
            stack.push((c, false));
        }
    }
}

/// Writes `w` in puz syntax, referring to defined nodes by name (except `this`, the node
/// being defined).
fn write(
    w: &Word,
    alpha: &Alphabet,
    names: &HashMap<Id, String>,
    this: Option<Id>,
    out: &mut String,
    top: bool,
) {
    let sep = |out: &mut String| {
        if !out.is_empty() && !out.ends_with(' ') && !out.ends_with('(') {
            out.push(' ');
        }
    };
    if let Some(k) = id(w) {
        if Some(k) != this {
            if let Some(n) = names.get(&k) {
                sep(out);
                out.push_str(n);
                return;
            }
        }
    }
    match w {
        Word::Letter(l) => {
            sep(out);
            out.push_str(&alpha.names[*l as usize]);
        }
        Word::Named(_, x) => write(x, alpha, names, None, out, top),
        Word::Seq(items) => {
            sep(out);
            if !top || items.is_empty() {
                out.push('(');
            }
            for x in items.iter() {
                write(x, alpha, names, None, out, false);
            }
            if !top || items.is_empty() {
                out.push(')');
            }
        }
        Word::Repeat(x, n) => {
            sep(out);
            out.push('(');
            write(x, alpha, names, None, out, true);
            let _ = write!(out, ")^{n}");
        }
        Word::Inverse(x) if matches!(**x, Word::Letter(_)) => {
            let Word::Letter(l) = **x else { unreachable!() };
            sep(out);
            out.push_str(&alpha.names[alpha.inverse[l as usize] as usize]);
        }
        Word::Inverse(x) => {
            sep(out);
            out.push('(');
            write(x, alpha, names, None, out, true);
            out.push_str(")'");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Perm;

    fn alpha() -> Alphabet {
        let a = Perm::from_cycles(3, &[vec![0, 1]]).unwrap();
        let b = Perm::from_cycles(3, &[vec![0, 1, 2]]).unwrap();
        Alphabet::new(
            vec!["A".into(), "B".into(), "B'".into()],
            vec![a, b.clone(), b.inverse()],
        )
        .unwrap()
    }

    #[test]
    fn shared_nodes_are_defined_once_before_use() {
        let al = alpha();
        let p = Word::seq(vec![Word::Letter(0), Word::Letter(1)]);
        let q = Word::seq(vec![p.clone(), Word::Letter(2), p.clone()]).pow(1_000_000_000_000);
        let w = Word::seq(vec![q.clone(), Word::named("X", q.clone().inverse()), q]);
        let (defs, root) = definitions(&w, &al, &["A", "B"]);
        assert_eq!(defs.len(), 3, "{defs:?}");
        assert_eq!(defs[0], "let _1 = A B");
        assert_eq!(defs[1], "let _2 = (_1 B' _1)^1000000000000");
        assert_eq!(defs[2], "let X = (_2)'");
        assert_eq!(root, "_2 X _2");
    }

    #[test]
    fn nodes_sharing_a_payload_are_told_apart() {
        let al = alpha();
        // One Arc held by a repetition, an inverse and a name at once.
        let x = std::sync::Arc::new(Word::seq(vec![Word::Letter(0), Word::Letter(1)]));
        let w = Word::seq(vec![
            Word::Repeat(x.clone(), 2),
            Word::Inverse(x.clone()),
            Word::Named("X".into(), x.clone()),
            Word::Repeat(x.clone(), 2),
        ]);
        let (defs, root) = definitions(&w, &al, &[]);
        let text = format!("{}\n{root}", defs.join("\n"));
        assert_eq!(
            text,
            "let _1 = A B\nlet _2 = (_1)^2\nlet X = _1\n_2 (_1)' X _2"
        );
    }

    #[test]
    fn a_name_met_twice_for_different_nodes_is_told_apart() {
        let al = alpha();
        let a = Word::named("P", Word::seq(vec![Word::Letter(0), Word::Letter(1)]));
        let b = Word::named("P", Word::seq(vec![Word::Letter(1), Word::Letter(0)]));
        let (defs, root) = definitions(&Word::seq(vec![a, b]), &al, &[]);
        assert_eq!(defs, vec!["let P = A B", "let P_1 = B A"]);
        assert_eq!(root, "P P_1");
    }

    #[test]
    fn deep_words_are_walked_without_recursion() {
        let al = alpha();
        let mut w = Word::Letter(0);
        for _ in 0..2_000 {
            w = Word::seq(vec![w, Word::Letter(1)]);
        }
        let (defs, _) = definitions(&w, &al, &[]);
        assert!(defs.is_empty());
    }
}
