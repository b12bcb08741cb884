//! The disk cache of the tables: where it is, the file of each table, and loading (mapped
//! or read) and saving them.

use super::Pattern;
use crate::bigbuf::BigBuf;
use crate::model::Action;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// FNV-1a, for cache keys.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
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
/// pattern.
pub(super) fn file_name(puzzle_key: u64, actions: &[Action], cost: &[u32], p: &Pattern) -> String {
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
    format!("pdb-{key:016x}.bin")
}

const MAGIC: &[u8; 8] = b"PUZPDB01";

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
}

pub(super) fn load(path: &Path, size: u64, map: bool) -> Option<BigBuf> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC || u64::from_le_bytes(head[8..].try_into().ok()?) != size {
        return None;
    }
    if f.metadata().ok()?.len() != 16 + size {
        return None;
    }
    if map {
        if let Some(table) = BigBuf::map_file(&f, 16, size as usize) {
            return Some(table);
        }
    }
    let mut table = BigBuf::new(size as usize, 0);
    f.read_exact(&mut table).ok()?;
    Some(table)
}

pub(super) fn store(path: &Path, table: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A name no other writer uses (processes on other machines sharing the folder may
    // have the same id), renamed into place whole: a reader never sees a partial table.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = path.with_extension(format!("tmp{}-{nanos}", std::process::id()));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(table.len() as u64).to_le_bytes())?;
        f.write_all(table)?;
        f.flush()?;
        // Out of the page cache once on disk: pages cached by these writes are small, and
        // a mapping of them would be too (see [`Cache::map`]); read back through the
        // mapping, the file comes in huge pages.
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let f = f.get_ref();
            f.sync_data()?;
            // SAFETY: advice on an open file descriptor; it only drops clean cached pages.
            unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
    }
    std::fs::rename(tmp, path)
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
