//! The disk cache of the tables: where it is, the file of each table, and loading (mapped
//! or read) and saving them.

use super::{Part, Shape};
use crate::bigbuf::BigBuf;
use crate::model::Action;
use puz_core::Control;
use std::io::{Read, Write};
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

const MAGIC: &[u8; 8] = b"PUZPDB01";
/// The magic and the table's length come before the table.
pub(super) const FILE_HEADER: u64 = 16;
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
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC || u64::from_le_bytes(head[8..].try_into().ok()?) != size {
        return None;
    }
    if f.metadata().ok()?.len() != FILE_HEADER + size {
        return None;
    }
    if map {
        if let Some(table) = BigBuf::map_file(&f, FILE_HEADER as usize, size as usize) {
            return Some(table);
        }
    }
    let mut table = BigBuf::new(size as usize, 0);
    f.read_exact(&mut table).ok()?;
    Some(table)
}

/// The bytes of a file [`store`] wrote, whatever their number (`None` when the file is
/// missing, foreign or not whole).
pub(super) fn load_bytes(path: &Path) -> Option<Vec<u8>> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    let size = u64::from_le_bytes(head[8..].try_into().ok()?);
    if &head[..8] != MAGIC || f.metadata().ok()?.len() != FILE_HEADER + size {
        return None;
    }
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

/// Writes a table to `path` whole or not at all: to a temporary name first, renamed when
/// complete, removed when the write fails or `ctl` is cancelled.
pub(super) fn store(path: &Path, table: &[u8], ctl: &Control) -> std::io::Result<()> {
    start_store(path, table, ctl)?.finish()
}

/// A table written to its temporary file, not yet on disk nor in place (see
/// [`Storing::finish`]).
pub(super) struct Storing {
    file: std::fs::File,
    tmp: PathBuf,
    path: PathBuf,
}

/// The first half of [`store`]: the bytes written (into the page cache), cancellable.
pub(super) fn start_store(path: &Path, table: &[u8], ctl: &Control) -> std::io::Result<Storing> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A name no other writer uses (processes on other machines sharing the folder may
    // have the same id), renamed into place whole: a reader never sees a partial table.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = path.with_extension(format!("bin{TEMP_MARK}{}-{nanos}", std::process::id()));
    match write_whole(&tmp, table, ctl) {
        Ok(file) => Ok(Storing {
            file,
            tmp,
            path: path.to_path_buf(),
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

impl Storing {
    /// The second half of [`store`]: the file on disk, out of the page cache, and renamed
    /// into place (removed on failure). It needs no table, so it may run on a thread of
    /// its own while the table is used.
    pub(super) fn finish(self) -> std::io::Result<()> {
        let done = self
            .settle()
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        done
    }

    fn settle(&self) -> std::io::Result<()> {
        // Out of the page cache once on disk: pages cached by these writes are small, and
        // a mapping of them would be too (see [`Cache::map`]); read back through the
        // mapping, the file comes in huge pages. So it is renamed into place only after.
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            self.file.sync_data()?;
            // SAFETY: advice on an open file descriptor; it only drops clean cached pages.
            unsafe { libc::posix_fadvise(self.file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
        Ok(())
    }
}

fn write_whole(tmp: &Path, table: &[u8], ctl: &Control) -> std::io::Result<std::fs::File> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(tmp)?);
    f.write_all(MAGIC)?;
    f.write_all(&(table.len() as u64).to_le_bytes())?;
    for part in table.chunks(64 << 20) {
        if ctl.cancelled() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "interrupted",
            ));
        }
        f.write_all(part)?;
    }
    f.into_inner().map_err(|e| e.into_error())
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
