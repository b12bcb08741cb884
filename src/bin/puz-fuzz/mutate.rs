//! Byte-level mutation of the example scripts: ranges deleted, duplicated or swapped in
//! from another script, tokens and stray bytes inserted (typographic primes, a BOM,
//! invalid UTF-8, huge numbers, unbalanced brackets).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::path::Path;

/// Every `.puz` under `examples/` and `stdlib/`, sorted so a seed means one case.
pub fn corpus(root: &Path) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for dir in ["examples", "stdlib", "tests/bad"] {
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    files.iter().filter_map(|f| std::fs::read(f).ok()).collect()
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "puz") {
            out.push(p);
        }
    }
}

const TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b"<",
    b">",
    b",",
    b":",
    b";",
    b"\n",
    b"'",
    b"^",
    b"-",
    b"2",
    b"0",
    b"-1",
    b"^1000000000000",
    b"1000000000000",
    b"2^1000000000",
    "\u{2019}".as_bytes(),
    "\u{2032}".as_bytes(),
    "\u{feff}".as_bytes(),
    b"\xff",
    b"\xc3",
    b"\"",
    b"//",
    b"use ",
    b"let x = ",
    b"puzzle q { points 3 }",
    b"metric: atm",
    b"metric: qtm",
    b"depth: 9",
    b"group",
    b"<>",
    b"[]",
    b"()",
    b"twist 3",
    b" in ",
    b"==",
    b"order 7",
    b"points 65536",
    b"\t",
    b"\r",
    b"\0",
];

/// One mutant of a script picked from the corpus.
pub fn mutant(rng: &mut StdRng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut s = corpus.choose(rng).cloned().unwrap_or_default();
    let n = rng.gen_range(1..=8);
    for _ in 0..n {
        let len = s.len();
        let at = rng.gen_range(0..=len);
        match rng.gen_range(0..6) {
            0 if len > 0 => {
                let end = (at + rng.gen_range(1..=16)).min(len);
                s.drain(at.min(end)..end);
            }
            1 if len > 0 => {
                let a = rng.gen_range(0..len);
                let b = (a + rng.gen_range(1..=64)).min(len);
                let piece = s[a..b].to_vec();
                s.splice(at..at, piece);
            }
            2 => {
                let other = corpus.choose(rng).cloned().unwrap_or_default();
                if !other.is_empty() {
                    let a = rng.gen_range(0..other.len());
                    let b = (a + rng.gen_range(1..=200)).min(other.len());
                    s.splice(at..at, other[a..b].iter().copied());
                }
            }
            3 if len > 0 => {
                let i = rng.gen_range(0..len);
                s[i] = rng.gen();
            }
            _ => {
                let t = TOKENS.choose(rng).unwrap();
                s.splice(at..at, t.iter().copied());
            }
        }
    }
    s
}
