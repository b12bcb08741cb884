//! The disk cache of the tables: where it is, the file of each table, its format, and
//! loading (mapped or read); the writing is in `cache_write.rs`.

use super::cache_write::store;
use super::{Part, Shape};
use crate::bigbuf::BigBuf;
use crate::model::Action;
use puz_core::Control;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// FNV-1a, for cache keys.
pub(super) fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// A checksum of the bytes, word by word (a flipped bit anywhere changes it), for the
/// small files saved beside the tables.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ bytes.len() as u64;
    for w in bytes.chunks(8) {
        let mut b = [0u8; 8];
        b[..w.len()].copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(b)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 29;
    }
    h
}

/// The default cache directory: `$XDG_CACHE_HOME/puz` or `~/.cache/puz`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("puz"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("puz"))
}

/// The cache file of a table: a hash of the puzzle, the letters with their costs, and the
/// table's shape. Tables of several orbits hash under their own prefix, so their names
/// never meet the names of tables of pieces (whose names are unchanged).
pub(super) fn file_name(
    puzzle_key: u64,
    actions: &[Action],
    cost: &[u32],
    shape: &Shape,
) -> String {
    let prefix: &[u8] = match shape {
        Shape::Pieces(_) => b"puz-pdb-v2-nibbles",
        Shape::Coords(_) => b"puz-pdb-coords-v1-nibbles",
    };
    let mut key = fnv(prefix, puzzle_key);
    for (l, a) in actions.iter().enumerate() {
        key = fnv(&a.src, key);
        key = fnv(&a.add, key);
        key = fnv(&cost[l].to_le_bytes(), key);
    }
    match shape {
        Shape::Pieces(p) => {
            key = fnv(&[p.orbit as u8], key);
            key = fnv(&p.pieces, key);
            if p.all_ori {
                key = fnv(b"all-ori", key);
            }
        }
        Shape::Coords(c) => {
            // Each part as its kind, orbit and pieces (with their count), in index order.
            for part in &c.parts {
                match part {
                    Part::Ori { orbit } => key = fnv(&[b'o', *orbit as u8], key),
                    Part::Parity { orbit } => key = fnv(&[b'q', *orbit as u8], key),
                    Part::Set { orbit, pieces } => {
                        key = fnv(&[b's', *orbit as u8, pieces.len() as u8], key);
                        key = fnv(pieces, key);
                    }
                    Part::Places { orbit, pieces } => {
                        key = fnv(&[b'p', *orbit as u8, pieces.len() as u8], key);
                        key = fnv(pieces, key);
                    }
                }
            }
            if let Some(red) = &c.sym {
                // The parts and the symmetries' maps decide where each entry is.
                key = fnv(b"symmetric-v2", key);
                key = red.hash(key, &fnv);
            }
            if c.pairs {
                key = fnv(b"pairs-v2", key);
            }
        }
    }
    format!("{FILE_PREFIX}{key:016x}{FILE_SUFFIX}")
}

/// The magic of the files written now: the bytes start at [`FILE_HEADER`], a block
/// boundary, so that a table goes to disk straight from its memory (direct I/O, see
/// `cache_write.rs`).
pub(super) const MAGIC: &[u8; 8] = b"PUZPDB02";
/// The magic of the files written before, which are still read: the bytes right after the
/// magic and the length.
const MAGIC_V1: &[u8; 8] = b"PUZPDB01";
/// Where the bytes of a file start: the magic and the bytes' number, then zeros.
pub(super) const FILE_HEADER: u64 = 4096;

/// Where the bytes of a file with these first 16 bytes start, and how many they are.
fn body(head: &[u8; 16]) -> Option<(u64, u64)> {
    let size = u64::from_le_bytes(head[8..].try_into().ok()?);
    match &head[..8] {
        m if m == MAGIC => Some((FILE_HEADER, size)),
        m if m == MAGIC_V1 => Some((16, size)),
        _ => None,
    }
}

/// `path` opened, with where its bytes start and how many they are, if it is one of these
/// files and whole.
fn open_whole(path: &Path) -> Option<(std::fs::File, u64, u64)> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    let (offset, size) = body(&head)?;
    (f.metadata().ok()?.len() == offset.checked_add(size)?).then_some((f, offset, size))
}

/// `path` holds a whole table of `size` bytes.
pub(super) fn is_whole(path: &Path, size: u64) -> bool {
    open_whole(path).is_some_and(|(_, _, s)| s == size)
}

/// What a table file's name starts and ends with, and the part a temporary name adds.
pub const FILE_PREFIX: &str = "pdb-";
pub const FILE_SUFFIX: &str = ".bin";
pub const TEMP_MARK: &str = ".tmp";

/// Where tables are cached on disk, and how cached ones are loaded.
#[derive(Clone, Copy, Debug)]
pub struct Cache<'a> {
    pub dir: &'a Path,
    /// Map the cache files (read-only, shared with the page cache: ready at once when the
    /// kernel still holds them, and no second copy in memory) rather than read them into
    /// fresh memory (which costs the kernel's zeroing and a copy). A file read through its
    /// mapping comes into the page cache in huge pages (the mapping asks for them) and
    /// searches as fast as a copy; one cached by plain reads or writes keeps its small
    /// pages while it stays cached, and searches slower (figures in
    /// benches/solver/README.md).
    pub map: bool,
    /// The puzzle and metric, written beside each table (`puz cache` lists them).
    pub title: &'a str,
}

/// The file describing a table's file (`pdb-….txt` beside `pdb-….bin`).
pub fn description_file(table: &Path) -> PathBuf {
    table.with_extension("txt")
}

pub(super) fn load(path: &Path, size: u64, map: bool) -> Option<BigBuf> {
    let (mut f, offset, got) = open_whole(path)?;
    if got != size {
        return None;
    }
    if map {
        if let Some(table) = BigBuf::map_file(&f, offset as usize, size as usize) {
            return Some(table);
        }
    }
    f.seek(SeekFrom::Start(offset)).ok()?;
    let mut table = BigBuf::new(size as usize, 0);
    f.read_exact(&mut table).ok()?;
    Some(table)
}

/// The bytes of a file [`store`] wrote, whatever their number (`None` when the file is
/// missing, foreign or not whole).
pub(super) fn load_bytes(path: &Path) -> Option<Vec<u8>> {
    let (mut f, offset, size) = open_whole(path)?;
    f.seek(SeekFrom::Start(offset)).ok()?;
    let mut bytes = vec![0u8; usize::try_from(size).ok()?];
    f.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

/// The bytes [`save_checked`] saved in `path`, if the file is whole and its checksum
/// agrees.
pub(super) fn load_checked(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = load_bytes(path)?;
    let sum = bytes.split_off(bytes.len().checked_sub(8)?);
    (checksum(&bytes).to_le_bytes()[..] == sum[..]).then_some(bytes)
}

/// Saves `bytes` with their checksum to `path` whole or not at all, and `what` they are
/// beside it (errors are ignored: what the file holds is made again next time).
pub(super) fn save_checked(path: &Path, mut bytes: Vec<u8>, what: &str, ctl: &Control) {
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let _ = std::fs::write(description_file(path), format!("{what}\n"));
    let _ = store(path, &bytes, ctl);
}

/// The lock of a table's file, held while the table is built and saved, so processes
/// sharing one cache folder (shards of a batch on many machines) build each table once:
/// the others wait, then load it. `None` when locks are not available there (each process
/// then builds its own copy, and the rename keeps the file whole).
pub(super) fn lock(path: &Path, waiting: &dyn Fn()) -> Option<std::fs::File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).ok()?;
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_extension("lock"))
        .ok()?;
    if f.try_lock().is_err() {
        waiting();
        f.lock().ok()?;
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::cube3_htm;
    use super::super::{Coords, Pattern};
    use super::*;

    /// The cache name of a table of pieces as it was before tables of several orbits.
    fn name_before(puzzle_key: u64, actions: &[Action], cost: &[u32], p: &Pattern) -> String {
        let mut key = fnv(b"puz-pdb-v2-nibbles", puzzle_key);
        for (l, a) in actions.iter().enumerate() {
            key = fnv(&a.src, key);
            key = fnv(&a.add, key);
            key = fnv(&cost[l].to_le_bytes(), key);
        }
        key = fnv(&[p.orbit as u8], key);
        key = fnv(&p.pieces, key);
        if p.all_ori {
            key = fnv(b"all-ori", key);
        }
        format!("{FILE_PREFIX}{key:016x}{FILE_SUFFIX}")
    }

    #[test]
    fn names_of_tables_of_pieces_are_unchanged() {
        // Tables of pieces keep their names (caches keep working), and tables of several
        // orbits get names of their own.
        let (model, htm, actions) = cube3_htm();
        let mut names = Vec::new();
        for (orbit, pieces, all) in [(1, vec![0, 1, 2, 3, 4], true), (0, (0..8).collect(), false)] {
            let p = Pattern::with_orientations(&model, orbit, pieces, all);
            let name = file_name(7, &actions, &htm.cost, &Shape::Pieces(p.clone()));
            assert_eq!(name, name_before(7, &actions, &htm.cost, &p));
            names.push(name);
        }
        let c = |parts| Shape::Coords(Coords::new(&model, parts).unwrap());
        let slice = || Part::Set {
            orbit: 1,
            pieces: vec![8, 9, 10, 11],
        };
        for shape in [
            c(vec![Part::Ori { orbit: 1 }]),
            c(vec![Part::Ori { orbit: 0 }]),
            c(vec![slice()]),
            c(vec![Part::Ori { orbit: 1 }, slice()]),
            c(vec![
                Part::Ori { orbit: 0 },
                Part::Ori { orbit: 1 },
                slice(),
            ]),
        ] {
            names.push(file_name(7, &actions, &htm.cost, &shape));
        }
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
