//! The bridge to the Schreier-Sims engine: a group value's generators become letters
//! of an engine alphabet (a single move brings all its powers; a longer sequence is one
//! letter and its inverse), and engine words are translated back into puzzle sequences.

use super::puzzle_ctx::PuzzleCtx;
use super::value::GroupVal;
use crate::diag::Diag;
use crate::syntax::Span;
use puz_core::{Alphabet, Control, Perm, Word};
use puz_group::{ChainOptions, Group};
use std::rc::Rc;

pub struct GroupEngine {
    pub group: Group,
    pub alpha: Alphabet,
    /// The puzzle sequence each engine letter stands for.
    pub letter_words: Vec<Word>,
}

impl GroupEngine {
    /// The puzzle sequence for an engine word.
    pub fn to_word(&self, letters: &[u32]) -> Word {
        Word::seq(
            letters
                .iter()
                .map(|&l| self.letter_words[l as usize].clone())
                .collect(),
        )
    }
}

/// The engine alphabet for a list of generator words on puzzle `p`: a single move brings
/// all its powers when `all_powers` (so chain words count `U2` as one move), else itself
/// and its inverse (the Cayley graph's edges); a longer sequence is one letter and its
/// inverse. Also returns the puzzle sequence each letter stands for.
pub fn alphabet(p: &PuzzleCtx, gens: &[Word], all_powers: bool) -> (Alphabet, Vec<Word>) {
    let mut names = Vec::new();
    let mut perms: Vec<Perm> = Vec::new();
    let mut words = Vec::new();
    let mut inverse = Vec::new();
    let mut seen_moves = Vec::new();
    for g in gens {
        let single = match g {
            Word::Letter(l) => Some((*l, p.letter_moves[*l as usize].0)),
            _ => None,
        };
        match single {
            Some((letter, mi)) => {
                if seen_moves.contains(&mi) {
                    continue;
                }
                seen_moves.push(mi);
                let mut letters: Vec<u32> = if all_powers {
                    (0..p.alphabet.len() as u32)
                        .filter(|&l| p.letter_moves[l as usize].0 == mi)
                        .collect()
                } else {
                    vec![letter, p.alphabet.inverse[letter as usize]]
                };
                letters.dedup();
                let base = perms.len() as u32;
                for &l in &letters {
                    names.push(p.alphabet.names[l as usize].clone());
                    perms.push(p.alphabet.perms[l as usize].clone());
                    words.push(Word::Letter(l));
                }
                for &l in &letters {
                    let inv = p.alphabet.inverse[l as usize];
                    let k = letters
                        .iter()
                        .position(|&x| x == inv)
                        .expect("powers of a move are closed under inverse");
                    inverse.push(base + k as u32);
                }
            }
            None => {
                let perm = g.eval(&p.alphabet, p.def.degree());
                if perm.is_identity() || perms.contains(&perm) {
                    continue;
                }
                let text = g.display(&p.alphabet);
                let name = if text.contains(' ') {
                    format!("({text})")
                } else {
                    text
                };
                let inv = perm.inverse();
                let base = perms.len() as u32;
                if inv == perm {
                    names.push(name);
                    perms.push(perm);
                    words.push(g.clone());
                    inverse.push(base);
                } else {
                    names.push(name.clone());
                    perms.push(perm);
                    words.push(g.clone());
                    names.push(format!("{name}'"));
                    perms.push(inv);
                    words.push(g.clone().inverse());
                    inverse.extend([base + 1, base]);
                }
            }
        }
    }
    (
        Alphabet {
            names,
            perms,
            inverse,
        },
        words,
    )
}

/// Builds (or returns the cached) engine of a group value.
pub fn engine(g: &GroupVal, ctl: &Control, span: Span) -> Result<Rc<GroupEngine>, Diag> {
    if let Some(e) = g.engine.get() {
        return Ok(e.clone());
    }
    let e = Rc::new(build(
        &g.puzzle,
        &g.gens,
        &ChainOptions::default(),
        ctl,
        span,
    )?);
    let _ = g.engine.set(e.clone());
    Ok(e)
}

pub fn build(
    p: &PuzzleCtx,
    gens: &[Word],
    opts: &ChainOptions,
    ctl: &Control,
    span: Span,
) -> Result<GroupEngine, Diag> {
    let (alpha, letter_words) = alphabet(p, gens, true);
    let all: Vec<u32> = (0..alpha.len() as u32).collect();
    let group = Group::new(p.def.degree(), &alpha, &all, opts, ctl)
        .map_err(|i| Diag::new(span, i.to_string()))?;
    Ok(GroupEngine {
        group,
        alpha,
        letter_words,
    })
}

/// A group value for an engine group that has no generator words of its own
/// (a stabiliser): its letters are sequences of the parent's generators.
pub fn derived_value(puzzle: Rc<PuzzleCtx>, engine: GroupEngine, text: String) -> GroupVal {
    let gens = engine.letter_words.clone();
    let v = GroupVal::new(puzzle, gens, text);
    let _ = v.engine.set(Rc::new(engine));
    v
}
