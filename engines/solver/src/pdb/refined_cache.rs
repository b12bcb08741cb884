//! Refined automata (`redundant.rs`) saved in the cache folder beside the tables: making
//! one enumerates a million short sequences, a fraction of a second in every process that
//! refines a search; reading it back is one small file. The file is named by what the
//! automaton is made from (the puzzle, the letters with their costs, the canonical
//! automaton, the letters' families and ranks, the sequences the enumeration may keep), so `puz cache`
//! lists and clears it with the tables; a file whose checksum or transitions do not
//! agree is ignored.

use super::cache::{fnv, load_checked, save_checked, FILE_PREFIX, FILE_SUFFIX};
use crate::canon::Canon;
use crate::model::Action;
use puz_core::Control;
use std::path::{Path, PathBuf};

/// What a refined automaton is made from (see [`crate::redundant::pruned`]).
pub(crate) struct Recipe<'a> {
    pub puzzle_key: u64,
    pub actions: &'a [Action],
    pub cost: &'a [u32],
    pub canon: &'a Canon,
    /// The family of each letter (the enumeration orders letters by family first).
    pub families: &'a [usize],
    pub rank: &'a [u32],
    pub max_kept: usize,
}

/// The file of the refined automaton made from `r`.
pub(crate) fn file(dir: &Path, r: &Recipe) -> PathBuf {
    // Its own prefix keeps it apart from the names of tables and classes.
    let mut key = fnv(b"puz-refined-v1", r.puzzle_key);
    for (l, a) in r.actions.iter().enumerate() {
        key = fnv(&a.src, key);
        key = fnv(&a.add, key);
        key = fnv(&r.cost[l].to_le_bytes(), key);
    }
    let (states, letters, table) = r.canon.parts();
    key = fnv(&(states as u64).to_le_bytes(), key);
    key = fnv(&(letters as u64).to_le_bytes(), key);
    for &x in table.iter().chain(r.rank) {
        key = fnv(&x.to_le_bytes(), key);
    }
    for &f in r.families {
        key = fnv(&(f as u64).to_le_bytes(), key);
    }
    key = fnv(&(r.max_kept as u64).to_le_bytes(), key);
    dir.join(format!("{FILE_PREFIX}{key:016x}{FILE_SUFFIX}"))
}

/// The refined automaton saved in `path` for `letters` letters, with the length of its
/// longest forbidden factor, if whole and consistent (every transition to a state or
/// refused).
pub(crate) fn load(path: &Path, letters: usize) -> Option<(Canon, usize)> {
    let bytes = load_checked(path)?;
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
    };
    let (states, n, len) = (word(0)? as usize, word(8)? as usize, word(16)? as usize);
    if n != letters || states == 0 || bytes.len() != 24 + 4 * states.checked_mul(n)? {
        return None;
    }
    let table: Vec<u32> = bytes[24..]
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let consistent = table
        .iter()
        .all(|&t| t == u32::MAX || (t as usize) < states);
    consistent.then(|| (Canon::from_table(states, n, table), len))
}

/// Saves the refined automaton to `path` whole or not at all (errors are ignored: it is
/// made again next time).
pub(crate) fn save(path: &Path, (canon, len): (&Canon, usize), what: &str, ctl: &Control) {
    let (states, letters, table) = canon.parts();
    let mut bytes = Vec::with_capacity(32 + 4 * table.len());
    for x in [states, letters, len] {
        bytes.extend_from_slice(&(x as u64).to_le_bytes());
    }
    for x in table {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    save_checked(path, bytes, what, ctl);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_automaton_reads_back_and_damaged_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("puz-refined-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Three letters, four states; letter 2 refused after letter 1.
        let none = u32::MAX;
        let table = vec![1, 2, 3, 1, 2, 3, 1, none, 3, 1, 2, none];
        let canon = Canon::from_table(4, 3, table.clone());
        let ctl = Control::default();
        let recipe = |rank: &'static [u32]| Recipe {
            puzzle_key: 7,
            actions: &[],
            cost: &[],
            canon: &canon,
            families: &[0, 1, 2],
            rank,
            max_kept: 100,
        };
        let f = file(&dir, &recipe(&[0, 0, 0]));
        assert_ne!(f, file(&dir, &recipe(&[0, 1, 0])), "ranks name the file");
        let other = Recipe {
            families: &[0, 0, 1],
            ..recipe(&[0, 0, 0])
        };
        assert_ne!(f, file(&dir, &other), "families name the file");
        save(&f, (&canon, 3), "test", &ctl);
        let (got, len) = load(&f, 3).expect("read back");
        assert_eq!((got.parts().2, got.states, len), (&table[..], 4, 3));
        assert_eq!(got.allowed(2), canon.allowed(2));
        // Other letters: refused.
        assert!(load(&f, 4).is_none());
        let whole = std::fs::read(&f).unwrap();
        // The bytes from the header's end on (its padding is not read).
        let b = super::super::cache::FILE_HEADER as usize;
        for at in [
            b,
            b + 4,
            b + 14,
            b + 24,
            b + 44,
            whole.len() - 9,
            whole.len() - 1,
        ] {
            let mut bad = whole.clone();
            bad[at] ^= 2;
            std::fs::write(&f, &bad).unwrap();
            assert!(load(&f, 3).is_none(), "byte {at}");
        }
        std::fs::write(&f, &whole[..whole.len() - 4]).unwrap();
        assert!(load(&f, 3).is_none());
        // A transition past the states, with a checksum that agrees: refused.
        let bad = Canon::from_table(4, 3, vec![1, 2, 3, 1, 2, 4, 1, none, 3, 1, 2, none]);
        save(&f, (&bad, 3), "test", &ctl);
        assert!(load(&f, 3).is_none());
        std::fs::write(&f, &whole).unwrap();
        assert!(load(&f, 3).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
