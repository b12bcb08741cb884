//! Writing the cache's files whole or not at all: under a temporary name, renamed into
//! place once on disk. A large table goes to disk straight from its memory (direct I/O):
//! no copy into the page cache, which on a VM costs the kernel several times the disk's
//! own time, and little work for a processor, so that it can be written on a thread of its
//! own while the search reads the same memory.

use super::cache::{FILE_HEADER, MAGIC, TEMP_MARK};
use puz_core::Control;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The unit of direct I/O: offsets, lengths and the memory's address are multiples of it.
const BLOCK: usize = 4096;
const _: () = assert!(FILE_HEADER as usize == BLOCK);
/// Files at least this large are written directly.
const DIRECT_MIN: usize = 1 << 20;
/// Written a part at a time, cancellation asked between parts.
const PART: usize = 64 << 20;

/// A block of memory as direct I/O wants it.
#[repr(C, align(4096))]
struct Block([u8; BLOCK]);

/// The first `n` bytes of `bytes` in a block, the rest zeros.
fn block(bytes: &[u8]) -> Box<Block> {
    let mut b = Box::new(Block([0; BLOCK]));
    b.0[..bytes.len()].copy_from_slice(bytes);
    b
}

/// A file's first block: the magic, the bytes' number, zeros.
fn header(len: usize) -> Box<Block> {
    let mut b = block(MAGIC);
    b.0[8..16].copy_from_slice(&(len as u64).to_le_bytes());
    b
}

/// Writes `bytes` to `path` whole or not at all: removed when the write fails or `ctl` is
/// cancelled.
pub(super) fn store(path: &Path, bytes: &[u8], ctl: &Control) -> io::Result<()> {
    start_store(path, bytes.len())?.finish(bytes, Some(ctl))
}

/// A file being written under a temporary name, its room on disk taken (see
/// [`Storing::finish`]).
pub(super) struct Storing {
    file: File,
    /// Opened for direct I/O.
    direct: bool,
    len: usize,
    tmp: PathBuf,
    path: PathBuf,
}

/// The first half of [`store`]: the temporary file of `len` bytes for `path`, made and its
/// room on disk taken, so that a folder that cannot be written or a full disk is said
/// while the caller can still say it.
pub(super) fn start_store(path: &Path, len: usize) -> io::Result<Storing> {
    start(path, len, len >= DIRECT_MIN)
}

fn start(path: &Path, len: usize, direct: bool) -> io::Result<Storing> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A name no other writer uses (processes on other machines sharing the folder may
    // have the same id), renamed into place whole: a reader never sees a partial table.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = path.with_extension(format!("bin{TEMP_MARK}{}-{nanos}", std::process::id()));
    // A file system without direct I/O refuses it when the file is opened.
    let (file, direct) = match direct.then(|| open(&tmp, true)) {
        Some(Ok(f)) => (f, true),
        _ => (open(&tmp, false)?, false),
    };
    let s = Storing {
        file,
        direct,
        len,
        tmp,
        path: path.to_path_buf(),
    };
    match s.reserve() {
        Ok(()) => Ok(s),
        Err(e) => {
            let _ = std::fs::remove_file(&s.tmp);
            Err(e)
        }
    }
}

fn open(tmp: &Path, direct: bool) -> io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(target_os = "linux")]
    if direct {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_DIRECT);
    }
    #[cfg(not(target_os = "linux"))]
    if direct {
        return Err(io::ErrorKind::Unsupported.into());
    }
    o.open(tmp)
}

impl Storing {
    /// The second half of [`store`]: `bytes` (as many as it was started for) written, the
    /// file on disk and out of the page cache, and renamed into place; removed on failure
    /// or when `ctl` is cancelled (a table built whole is written without one, see
    /// [`super::Saving`]). It needs nothing but the bytes, so it may run on a thread of its
    /// own while they are read.
    pub(super) fn finish(mut self, bytes: &[u8], ctl: Option<&Control>) -> io::Result<()> {
        assert_eq!(
            bytes.len(),
            self.len,
            "a file written with the length it was made for"
        );
        let done = self
            .write(bytes, ctl)
            .and_then(|()| self.settle())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        done
    }

    /// The disk's room for the whole file, taken now (where the file system can).
    fn reserve(&self) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let size = FILE_HEADER as i64 + self.len as i64;
            // SAFETY: an open file descriptor; the kernel checks the range.
            if unsafe { libc::fallocate(self.file.as_raw_fd(), 0, 0, size) } != 0 {
                let e = io::Error::last_os_error();
                if !matches!(e.raw_os_error(), Some(libc::EOPNOTSUPP | libc::ENOSYS)) {
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8], ctl: Option<&Control>) -> io::Result<()> {
        if self.direct && (bytes.as_ptr() as usize).is_multiple_of(BLOCK) {
            match self.write_direct(bytes, ctl) {
                Err(e) if e.kind() != io::ErrorKind::Interrupted => {}
                done => return done,
            }
            // The file system opened the file for direct I/O but refused these writes:
            // written again through the page cache.
        }
        if self.direct {
            self.buffered()?;
        }
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&header(bytes.len()).0)?;
        write_parts(&mut self.file, bytes, ctl)?;
        self.file.set_len(FILE_HEADER + bytes.len() as u64)
    }

    /// Every write a whole number of blocks from a block's address; the last block's
    /// padding cut off after.
    fn write_direct(&mut self, bytes: &[u8], ctl: Option<&Control>) -> io::Result<()> {
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&header(bytes.len()).0)?;
        let whole = bytes.len() / BLOCK * BLOCK;
        write_parts(&mut self.file, &bytes[..whole], ctl)?;
        if whole < bytes.len() {
            self.file.write_all(&block(&bytes[whole..]).0)?;
        }
        // The padding, and any room reserved past the end.
        self.file.set_len(FILE_HEADER + bytes.len() as u64)
    }

    /// The file no longer opened for direct I/O.
    fn buffered(&mut self) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let fd = self.file.as_raw_fd();
            // SAFETY: reading and setting the status flags of an open file descriptor.
            let ok = unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFL);
                flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_DIRECT) == 0
            };
            if !ok {
                return Err(io::Error::last_os_error());
            }
        }
        self.direct = false;
        Ok(())
    }

    fn settle(&self) -> io::Result<()> {
        // Out of the page cache once on disk: pages cached by buffered writes are small,
        // and a mapping of them would be too (see [`super::Cache::map`]); read back through
        // the mapping, the file comes in huge pages. So it is renamed into place only
        // after. (Direct writes leave nothing cached.)
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            self.file.sync_data()?;
            if !self.direct {
                // SAFETY: advice on an open file descriptor; it only drops clean cached
                // pages.
                unsafe {
                    libc::posix_fadvise(self.file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED)
                };
            }
        }
        Ok(())
    }
}

fn write_parts(f: &mut File, bytes: &[u8], ctl: Option<&Control>) -> io::Result<()> {
    for part in bytes.chunks(PART) {
        if ctl.is_some_and(|c| c.cancelled()) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        f.write_all(part)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::cache::{is_whole, load, load_bytes};
    use super::*;
    use crate::bigbuf::BigBuf;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("puz-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Bytes no two blocks of which are alike.
    fn bytes(len: usize) -> BigBuf {
        let mut b = BigBuf::new(len, 0);
        for (i, x) in b.iter_mut().enumerate() {
            *x = (i * 7 + i / 4093) as u8;
        }
        b
    }

    #[test]
    fn written_directly_and_through_the_page_cache_alike() {
        // A length that ends inside a block, written both ways from block-aligned memory
        // and once from memory that is not (which falls back to the page cache): the
        // same files, each read back whole, mapped and copied.
        let d = dir("direct");
        let len = (3 << 20) + 1234;
        let table = bytes(len);
        let unaligned = table[..].to_vec();
        let mut files = Vec::new();
        for (k, direct) in [true, false].into_iter().enumerate() {
            let f = d.join(format!("pdb-{k}.bin"));
            let s = start(&f, len, direct).unwrap();
            let wrote_direct = s.direct;
            s.finish(&table, None).unwrap();
            if direct && !wrote_direct {
                eprintln!(
                    "note: {} has no direct I/O; written through the page cache",
                    d.display()
                );
            }
            files.push(f);
        }
        let f = d.join("pdb-2.bin");
        let from = if (unaligned.as_ptr() as usize).is_multiple_of(BLOCK) {
            &unaligned[1..]
        } else {
            &unaligned[..]
        };
        start(&f, from.len(), true)
            .unwrap()
            .finish(from, None)
            .unwrap();
        let want = std::fs::read(&files[1]).unwrap();
        assert_eq!(want.len(), BLOCK + len);
        assert_eq!(&want[..8], MAGIC);
        assert_eq!(std::fs::read(&files[0]).unwrap(), want);
        assert_eq!(load_bytes(&f).unwrap()[..], from[..]);
        for f in &files {
            assert!(is_whole(f, len as u64));
            assert!(!is_whole(f, len as u64 - 1));
            for map in [true, false] {
                assert_eq!(load(f, len as u64, map).unwrap()[..], table[..]);
            }
        }
        // No temporary file left.
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 3);
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn files_written_before_are_read_and_damaged_ones_refused() {
        // The first format (the bytes right after 16 bytes of header) is still read; a
        // file cut short, grown or with another magic is not.
        let d = dir("formats");
        let len = 100_000usize;
        let table = bytes(len);
        let f = d.join("pdb-old.bin");
        let mut old = b"PUZPDB01".to_vec();
        old.extend_from_slice(&(len as u64).to_le_bytes());
        old.extend_from_slice(&table);
        std::fs::write(&f, &old).unwrap();
        assert!(is_whole(&f, len as u64));
        for map in [true, false] {
            assert_eq!(load(&f, len as u64, map).unwrap()[..], table[..]);
        }
        assert_eq!(load_bytes(&f).unwrap()[..], table[..]);
        let bad = |bytes: &[u8]| {
            std::fs::write(&f, bytes).unwrap();
            !is_whole(&f, len as u64)
                && load(&f, len as u64, false).is_none()
                && load_bytes(&f).is_none()
        };
        assert!(bad(&old[..old.len() - 1]));
        assert!(bad(&[&old[..], &[0]].concat()));
        let mut other = old.clone();
        other[7] = b'9';
        assert!(bad(&other));
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_cancelled_direct_write_leaves_no_file() {
        let d = dir("direct-cancel");
        let ctl = Control::default();
        ctl.flag().store(true, std::sync::atomic::Ordering::Relaxed);
        let table = bytes(2 << 20);
        let f = d.join("pdb-0.bin");
        assert!(start(&f, table.len(), true)
            .unwrap()
            .finish(&table, Some(&ctl))
            .is_err());
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        std::fs::remove_dir_all(d).unwrap();
    }
}
