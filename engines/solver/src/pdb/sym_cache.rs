//! The classes of a reduced table's keys ([`super::symmetric`]) saved in the cache folder
//! beside the tables: forming them writes every key's class at random (a 97 MB table
//! for the 3x3x3's sorted slice, seconds each process), reading them back is one file.
//! The file is named by the reduction's recipe, so `puz cache` lists and clears it with
//! the tables; a file whose checksum or classes do not agree is ignored.

use super::cache::{load_checked, save_checked, FILE_PREFIX, FILE_SUFFIX};
use crate::bigbuf::BigU32;
use puz_core::Control;
use std::path::{Path, PathBuf};

/// The classes: per key, its class `<< 6 |` a symmetry; per class, its representative
/// and stabiliser.
pub(super) struct Classes {
    pub key_class: BigU32,
    pub reps: Vec<u32>,
    pub stab: Vec<u64>,
}

/// Kept apart from the names of tables, which hash other things.
const SALT: u64 = 0x636c_6173_7365_7321;

/// The file of the classes of the reduction with this recipe.
pub(super) fn file(dir: &Path, recipe: u64) -> PathBuf {
    dir.join(format!("{FILE_PREFIX}{:016x}{FILE_SUFFIX}", recipe ^ SALT))
}

/// The classes saved in `path` for `keys` keys and `syms` symmetries, if whole and
/// consistent: every key in a class whose representative is a key, and each
/// representative in its own class by the identity.
pub(super) fn load(path: &Path, keys: u64, syms: usize) -> Option<Classes> {
    let bytes = load_checked(path)?;
    let classes = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    if classes == 0 || classes > keys || bytes.len() as u64 != 8 + 4 * keys + 12 * classes {
        return None;
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut key_class = BigU32::new_max(keys as usize);
    for (k, c) in key_class.iter_mut().enumerate() {
        *c = word(8 + 4 * k);
        if (*c >> 6) as u64 >= classes || (*c & 63) as usize >= syms {
            return None;
        }
    }
    let at = 8 + 4 * keys as usize;
    let reps: Vec<u32> = (0..classes as usize).map(|i| word(at + 4 * i)).collect();
    let at = at + 4 * classes as usize;
    let stab: Vec<u64> = (0..classes as usize)
        .map(|i| u64::from_le_bytes(bytes[at + 8 * i..at + 8 * i + 8].try_into().unwrap()))
        .collect();
    let consistent = reps
        .iter()
        .enumerate()
        .all(|(i, &r)| (r as u64) < keys && key_class[r as usize] == (i as u32) << 6)
        && stab.iter().all(|&m| m >> syms == 0 && m & 1 == 0);
    consistent.then_some(Classes {
        key_class,
        reps,
        stab,
    })
}

/// Saves the classes to `path` whole or not at all (errors are ignored: the classes are
/// formed again next time).
pub(super) fn save(path: &Path, c: &Classes, what: &str, ctl: &Control) {
    let mut bytes = Vec::with_capacity(16 + 4 * c.key_class.len() + 12 * c.reps.len());
    bytes.extend_from_slice(&(c.reps.len() as u64).to_le_bytes());
    for k in c.key_class.iter() {
        bytes.extend_from_slice(&k.to_le_bytes());
    }
    for r in &c.reps {
        bytes.extend_from_slice(&r.to_le_bytes());
    }
    for m in &c.stab {
        bytes.extend_from_slice(&m.to_le_bytes());
    }
    save_checked(path, bytes, what, ctl);
}

#[cfg(test)]
mod tests {
    use super::super::coords::{Coords, Part};
    use super::super::symmetric::{reduce, tests::cube_symmetries};
    use super::*;

    #[test]
    fn saved_classes_read_back_and_damaged_ones_are_refused() {
        // The flip-slice's classes, formed and saved by `reduce`, read back equal; any
        // changed byte makes the file refused (formed anew).
        let (model, conj) = cube_symmetries();
        let dir = std::env::temp_dir().join(format!("puz-symcache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let c = Coords::new(
            &model,
            vec![
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Ori { orbit: 1 },
            ],
        )
        .unwrap();
        let ctl = Control::default();
        let r = reduce(&model, c, &conj, u64::MAX, Some(&ctl), Some(&dir));
        let red = r.sym.clone().unwrap();
        let files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect();
        let [f] = &files[..] else {
            panic!("one file of classes: {files:?}")
        };
        let keys = 1_013_760;
        let got = load(f, keys, red.syms).expect("read back");
        assert_eq!(got.reps.len() as u64, red.classes);
        assert_eq!(red.classes, 64_430);
        for k in (0..keys).step_by(97) {
            let (class, s) = red.class_of(k);
            assert_eq!(got.key_class[k as usize], (class as u32) << 6 | s as u32);
        }
        for (i, &r) in got.reps.iter().enumerate() {
            assert_eq!((r as u64, got.stab[i]), red.rep(i as u64));
        }
        // Other keys or symmetries: refused.
        assert!(load(f, keys + 1, red.syms).is_none());
        let whole = std::fs::read(f).unwrap();
        // The bytes from the header's end on (its padding is not read).
        let b = super::super::cache::FILE_HEADER as usize;
        for at in [
            b + 4,
            b + 5,
            4_000_000,
            whole.len() - 600_000,
            whole.len() - 12,
            whole.len() - 1,
        ] {
            let mut bad = whole.clone();
            bad[at] ^= 4;
            std::fs::write(f, &bad).unwrap();
            assert!(load(f, keys, red.syms).is_none(), "byte {at}");
        }
        std::fs::write(f, &whole[..whole.len() - 8]).unwrap();
        assert!(load(f, keys, red.syms).is_none());
        std::fs::write(f, &whole).unwrap();
        assert!(load(f, keys, red.syms).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
