//! Names a printed sequence holds that the user never gave (`hamilton`'s `H873`,
//! `plain_changes`' `left4`): their definitions, printed after the sequence.

use puz_core::{Alphabet, Word};
use std::collections::HashSet;
use std::sync::Arc;

/// The most lines of definitions; the names left over are counted.
const MAX_LINES: usize = 12;
/// The most names written before a shared definition (`H873, H446 and 117 more = ...`).
const MAX_GROUP: usize = 4;
/// The most characters of a definition shown; longer ones are cut and their length given.
const MAX_TEXT: usize = 72;
/// The most nodes walked looking for names (words are shared graphs of any size).
const MAX_NODES: usize = 200_000;

/// Lines `where H873 = ...` for the names in `w` that `is_users` does not claim, in the
/// order they are first written (then the names inside their definitions); names whose
/// definitions read alike on one line share it. Empty when there are none.
pub fn explain(
    w: &Word,
    alpha: &Alphabet,
    is_users: &dyn Fn(&str, &Arc<Word>) -> bool,
) -> Vec<String> {
    let mut walk = Walk {
        seen: HashSet::new(),
        nodes: 0,
        is_users,
        alpha,
        found: Vec::new(),
    };
    walk.names(w);
    // Names inside the first definitions, after the ones written in the word itself.
    let mut i = 0;
    while i < walk.found.len().min(MAX_LINES * MAX_GROUP) {
        let def = walk.found[i].def.clone();
        walk.names(&def);
        i += 1;
    }
    // One line per definition as shown, its names in order.
    let mut groups: Vec<(Short, Vec<&str>)> = Vec::new();
    for f in &walk.found {
        let s = short(f);
        match groups.iter_mut().find(|g| g.0 == s) {
            Some(g) => g.1.push(&f.name),
            None => groups.push((s, vec![&f.name])),
        }
    }
    let mut lines = Vec::new();
    for (k, ((text, len), names)) in groups.iter().take(MAX_LINES).enumerate() {
        let lead = if k == 0 { "where" } else { "     " };
        let mut who = names[..names.len().min(MAX_GROUP)].join(", ");
        if names.len() > MAX_GROUP {
            who.push_str(&format!(" and {} more", names.len() - MAX_GROUP));
        }
        let each = if names.len() > 1 { " each" } else { "" };
        lines.push(match len {
            Some(n) => format!("{lead} {who} = {text} … ({n} moves{each})"),
            None => format!("{lead} {who} = {text}"),
        });
    }
    if groups.len() > MAX_LINES {
        // Names inside the definitions not walked are not counted: they are not shown.
        let more: usize = groups[MAX_LINES..].iter().map(|g| g.1.len()).sum();
        let more = if walk.nodes >= MAX_NODES {
            "more names".to_string()
        } else {
            format!("{more} more names")
        };
        lines.push(format!(
            "      ... and {more} (`save(x, \"file.puz\")` writes every definition)"
        ));
    }
    lines
}

/// A name found, with the start of its definition's text.
struct Found {
    name: Arc<str>,
    def: Arc<Word>,
    text: String,
}

/// A definition as one line shows it: its text, or its start and its length.
type Short = (String, Option<u128>);

fn short(f: &Found) -> Short {
    if f.text.is_empty() {
        return ("()".into(), None);
    }
    if f.text.chars().count() <= MAX_TEXT {
        return (f.text.clone(), None);
    }
    let mut cut: String = f.text.chars().take(MAX_TEXT).collect();
    if let Some(space) = cut.rfind(' ') {
        cut.truncate(space);
    }
    (cut, Some(f.def.len()))
}

struct Walk<'a> {
    /// Shared nodes already walked (by address).
    seen: HashSet<usize>,
    nodes: usize,
    is_users: &'a dyn Fn(&str, &Arc<Word>) -> bool,
    alpha: &'a Alphabet,
    found: Vec<Found>,
}

impl Walk<'_> {
    /// Records the names `w` writes (not looking inside them) that are new: another node
    /// of the same name and text (constructions rebuild their parts) is the same name.
    fn names(&mut self, w: &Word) {
        if self.nodes >= MAX_NODES {
            return;
        }
        self.nodes += 1;
        match w {
            Word::Letter(_) => {}
            Word::Named(name, def) => {
                if (self.is_users)(name, def) || self.found.iter().any(|f| Arc::ptr_eq(&f.def, def))
                {
                    return;
                }
                // Enough of the text to print one line; parts cut from one definition keep
                // its name, so a name seen again with the same text and length is the same.
                let text = def.display_upto(self.alpha, 4 * MAX_TEXT);
                let same =
                    |f: &Found| f.name == *name && f.text == text && f.def.len() == def.len();
                if !self.found.iter().any(same) {
                    self.found.push(Found {
                        name: name.clone(),
                        def: def.clone(),
                        text,
                    });
                }
            }
            Word::Seq(items) => {
                if self.seen.insert(items.as_ptr() as usize) {
                    for x in items.iter() {
                        self.names(x);
                    }
                }
            }
            Word::Repeat(x, _) | Word::Inverse(x) => {
                if self.seen.insert(Arc::as_ptr(x) as usize) {
                    self.names(x);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha() -> Alphabet {
        let p = puz_core::Perm::identity(2);
        Alphabet {
            names: vec!["R".into(), "U".into()],
            perms: vec![p.clone(), p],
            inverse: vec![0, 1],
        }
    }

    #[test]
    fn machine_names_are_defined_and_the_users_are_not() {
        let h1 = Word::named("H1", Word::seq(vec![Word::Letter(0), Word::Letter(1)]));
        let mine = Word::named("P", Word::Letter(1));
        let inner = Word::named("H2", Word::seq(vec![h1.clone(), Word::Letter(0)]));
        let w = Word::seq(vec![inner, Word::Letter(1), mine.clone(), h1]);
        let Word::Named(_, my_def) = &mine else {
            unreachable!()
        };
        let users = |n: &str, d: &Arc<Word>| n == "P" && Arc::ptr_eq(d, my_def);
        let lines = explain(&w, &alpha(), &users);
        assert_eq!(lines, ["where H2 = H1 R", "      H1 = R U"]);
        assert!(explain(&Word::Letter(0), &alpha(), &users).is_empty());
    }

    #[test]
    fn long_definitions_are_cut_and_alike_ones_share_a_line() {
        let long = |last: u32| {
            let mut v: Vec<Word> = (0..100).map(|i| Word::Letter(i % 2)).collect();
            v.push(Word::Letter(last));
            Word::seq(v)
        };
        // Six names alike on one line (though their ends differ), one of another length.
        let mut names: Vec<Word> = (0..6)
            .map(|k| Word::named(&format!("H{k}"), long(k % 2)))
            .collect();
        names.push(Word::named("G", Word::Letter(0).pow(3)));
        let lines = explain(&Word::seq(names), &alpha(), &|_, _| false);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("where H0, H1, H2, H3 and 2 more = R U R U"),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with(" … (101 moves each)"), "{}", lines[0]);
        assert!(lines[0].chars().count() < 140, "{}", lines[0]);
        assert_eq!(lines[1], "      G = R3");
    }

    #[test]
    fn past_the_lines_the_names_left_are_counted() {
        let names: Vec<Word> = (0..20)
            .map(|k| Word::named(&format!("H{k}"), Word::Letter(0).pow(k + 2)))
            .collect();
        let lines = explain(&Word::seq(names), &alpha(), &|_, _| false);
        assert_eq!(lines.len(), MAX_LINES + 1);
        assert!(lines.last().unwrap().contains("8 more names"), "{lines:?}");
    }
}
