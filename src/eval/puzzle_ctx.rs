//! A puzzle as the interpreter holds it: the engine-level [`Puzzle`] plus the alphabet of
//! letters (each move and its powers) that sequences are written in.

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use puz_core::{Alphabet, Perm, Puzzle};
use std::collections::HashMap;

/// Moves of order up to this get a letter for every power; longer ones only `m` and `m'`.
const MAX_POWER_LETTERS: u64 = 64;

/// How a power of a move is written in letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LetterFor {
    /// The power is the identity.
    Identity,
    /// One letter.
    Letter(u32),
    /// A long derived move: its letter repeated.
    Repeat(u32, i64),
}

#[derive(Debug)]
pub struct PuzzleCtx {
    pub def: Puzzle,
    pub alphabet: Alphabet,
    /// (move index, power) -> letter.
    letters: HashMap<(usize, u64), u32>,
    /// Order of each move (saturated to u64::MAX).
    pub move_orders: Vec<u64>,
    /// Move indices generating `group`.
    pub gens: Vec<usize>,
    /// Which move and power each letter is.
    pub letter_moves: Vec<(usize, u64)>,
}

impl PuzzleCtx {
    pub fn new(def: Puzzle, gens: Vec<usize>) -> PuzzleCtx {
        let mut names = Vec::new();
        let mut perms = Vec::new();
        let mut letters = HashMap::new();
        let mut letter_moves = Vec::new();
        let mut move_orders = Vec::new();
        for (mi, m) in def.moves.iter().enumerate() {
            let o = m.perm.order().to_u64().unwrap_or(u64::MAX);
            move_orders.push(o);
            let powers: Vec<u64> = if o <= MAX_POWER_LETTERS {
                (1..o.max(2)).collect()
            } else {
                vec![1, o - 1]
            };
            for p in powers {
                let name = puz_core::power_name(&m.name, p, o);
                letters.insert((mi, p), names.len() as u32);
                letter_moves.push((mi, p));
                names.push(name);
                perms.push(m.perm.pow(p.min(i64::MAX as u64) as i64));
            }
        }
        let inverse = letter_moves
            .iter()
            .enumerate()
            .map(|(l, &(mi, p))| {
                let o = move_orders[mi];
                if o <= 1 {
                    l as u32
                } else {
                    letters[&(mi, o - p)]
                }
            })
            .collect();
        let alphabet = Alphabet {
            names,
            perms,
            inverse,
        };
        PuzzleCtx {
            def,
            alphabet,
            letters,
            move_orders,
            gens,
            letter_moves,
        }
    }

    /// How `move^power` is written (power taken modulo the move's order).
    pub fn letter(&self, mi: usize, power: i64) -> LetterFor {
        let o = self.move_orders[mi];
        let p = if o == u64::MAX {
            power as u64
        } else {
            (power.rem_euclid(o as i64)) as u64
        };
        if p == 0 {
            return LetterFor::Identity;
        }
        match self.letters.get(&(mi, p)) {
            Some(&l) => LetterFor::Letter(l),
            None => LetterFor::Repeat(self.letters[&(mi, 1)], power),
        }
    }

    /// Whether sequences of `other` may be used here: the same puzzle, or one built alike
    /// (`row(9)` twice). A name alone is not enough: a `puzzle` may reuse one, and its
    /// letters then mean other moves (indexing with them went out of bounds).
    pub fn same(&self, other: &PuzzleCtx) -> bool {
        std::ptr::eq(self, other)
            || (self.def.name == other.def.name
                && self.alphabet.names == other.alphabet.names
                && self.alphabet.perms == other.alphabet.perms)
    }

    /// The inverse of `w`: a letter's is its inverse letter (`U'` is one letter of the
    /// alphabet, as the words constructions build have it, not a node around `U`; read
    /// back from a file, a node each made the certificate's work twice as large). A
    /// letter that is its own inverse keeps its prime, so `L'` on the Floppy still shows
    /// as written.
    pub fn inverse_word(&self, w: puz_core::Word) -> puz_core::Word {
        use puz_core::Word;
        match w {
            Word::Letter(l) if self.alphabet.inverse[l as usize] != l => {
                Word::Letter(self.alphabet.inverse[l as usize])
            }
            w => w.inverse(),
        }
    }

    /// Move `mi` to the power `power` as a word: one letter, a repeated letter for long
    /// powers, or the empty word.
    pub fn power_word(&self, mi: usize, power: i64) -> puz_core::Word {
        use puz_core::Word;
        match self.letter(mi, power) {
            LetterFor::Letter(l) => Word::Letter(l),
            LetterFor::Identity => Word::empty(),
            LetterFor::Repeat(l, n) => Word::Letter(l).pow(n),
        }
    }

    pub fn move_index(&self, name: &str) -> Option<usize> {
        self.def.move_index(name)
    }

    pub fn identity(&self) -> Perm {
        self.def.identity()
    }

    /// The letters for the generators of `group`: each generator and its powers.
    pub fn group_letters(&self, moves: &[usize]) -> Vec<u32> {
        (0..self.alphabet.len() as u32)
            .filter(|&l| moves.contains(&self.letter_moves[l as usize].0))
            .collect()
    }

    pub fn summary(&self) -> String {
        let orbits: Vec<String> = self
            .def
            .orbits
            .iter()
            .map(|o| {
                if o.twist > 1 {
                    format!("{} {} twist {}", o.name, o.size, o.twist)
                } else {
                    format!("{} {}", o.name, o.size)
                }
            })
            .collect();
        let moves: Vec<&str> = self.def.moves.iter().map(|m| m.name.as_str()).collect();
        format!(
            "puzzle {} (orbits: {}; moves: {})",
            self.def.name,
            orbits.join(", "),
            moves.join(" ")
        )
    }

    pub fn expected_order(&self) -> Option<&BigUint> {
        self.def.expected_order.as_ref()
    }
}
