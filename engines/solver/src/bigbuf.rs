//! Large byte tables in memory the kernel may back with huge pages.
//!
//! Pattern-database look-ups are random reads over hundreds of megabytes: with 4 KiB pages
//! nearly every one misses the TLB as well as the cache. [`BigBuf`] allocates on a 2 MiB
//! boundary and, on Linux, asks for transparent huge pages (`madvise(MADV_HUGEPAGE)`), which
//! is all it takes when the system's setting is `madvise` (the common default). A table
//! cached on disk can instead be mapped from its file ([`BigBuf::map_file`]), read-only.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicU8;
use std::sync::Arc;

const HUGE: usize = 2 << 20;

/// A byte buffer, 2 MiB aligned, dropped like a `Vec`.
pub struct BigBuf {
    ptr: *mut u8,
    len: usize,
    backing: Backing,
}

enum Backing {
    /// Allocated with this layout.
    Heap(Layout),
    /// A read-only shared mapping of a file, `size` bytes from `base` (see
    /// [`BigBuf::map_file`]).
    #[cfg(target_os = "linux")]
    File { base: *mut u8, size: usize },
    /// An anonymous mapping of `size` bytes from `base` (see [`BigBuf::lazy_zeroed`]).
    #[cfg(target_os = "linux")]
    Anon { base: *mut u8, size: usize },
    /// Another buffer's bytes, read-only, kept alive by every holder (see
    /// [`BigBuf::share`]).
    Shared { _whole: Arc<BigBuf> },
}

// The buffer is plain owned bytes.
unsafe impl Send for BigBuf {}
unsafe impl Sync for BigBuf {}

impl BigBuf {
    /// `len` bytes, each `fill`.
    pub fn new(len: usize, fill: u8) -> BigBuf {
        let layout =
            Layout::from_size_align(len.max(1).next_multiple_of(HUGE), HUGE).expect("table size");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(layout) };
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        #[cfg(target_os = "linux")]
        // SAFETY: the range is the allocation just made; the advice only changes paging.
        unsafe {
            libc::madvise(ptr.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        let mut buf = BigBuf {
            ptr,
            len,
            backing: Backing::Heap(layout),
        };
        // On all threads: the first touch of each page (the kernel clearing it) is most of
        // the cost.
        use rayon::prelude::*;
        buf.par_chunks_mut(HUGE).for_each(|c| c.fill(fill));
        buf
    }

    /// `len` zero bytes whose pages the kernel clears only when they are first touched
    /// (an anonymous mapping, asked for huge pages): for a buffer sized by a bound, of
    /// which some may never be used. ([`BigBuf::new`] touches every page at once, on all
    /// threads.)
    #[cfg(target_os = "linux")]
    pub fn lazy_zeroed(len: usize) -> BigBuf {
        let size = len.max(1).next_multiple_of(HUGE) + HUGE;
        // SAFETY: a new anonymous mapping; the kernel checks the arguments.
        let r = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if r == libc::MAP_FAILED {
            return BigBuf::new(len, 0);
        }
        let base = r.cast::<u8>();
        let ptr = (base as usize).next_multiple_of(HUGE) as *mut u8;
        // SAFETY: the range lies inside the mapping just made; the advice only changes
        // paging.
        unsafe {
            let head = ptr as usize - base as usize;
            libc::madvise(ptr.cast(), size - head, libc::MADV_HUGEPAGE);
        }
        BigBuf {
            ptr,
            len,
            backing: Backing::Anon { base, size },
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn lazy_zeroed(len: usize) -> BigBuf {
        BigBuf::new(len, 0)
    }

    /// This buffer's memory as `len` bytes (at most its length), each `fill`: pages the
    /// process has touched already, which the kernel need not clear again.
    pub fn recycled(self, len: usize, fill: u8) -> BigBuf {
        let mut b = self.recycled_as_is(len);
        use rayon::prelude::*;
        b.par_chunks_mut(HUGE).for_each(|c| c.fill(fill));
        b
    }

    /// This buffer's memory as `len` bytes (at most its length), holding what they held:
    /// for a user that writes every byte anyway.
    pub fn recycled_as_is(mut self, len: usize) -> BigBuf {
        self.assert_writable();
        assert!(len <= self.len, "a buffer recycled for at most its length");
        self.len = len;
        self
    }

    /// This buffer, read-only, and a handle to its bytes that keeps them alive for as
    /// long as either is held: a finished table goes on being read through the first
    /// (its bytes are reached as directly as before, with no count on the way) while a
    /// thread writes it to disk through the second.
    pub fn share(self) -> (BigBuf, Arc<BigBuf>) {
        let whole = Arc::new(self);
        let view = BigBuf {
            ptr: whole.ptr,
            len: whole.len,
            backing: Backing::Shared {
                _whole: whole.clone(),
            },
        };
        (view, whole)
    }

    /// `len` bytes of `file` from `offset`, mapped read-only from the page cache (no copy:
    /// a table cached on disk is ready as soon as its pages are in memory, and runs that
    /// load it share them). The mapping starts on a 2 MiB boundary of the file so that the
    /// kernel can map its large folios with huge pages. `None` when the mapping fails
    /// (then read the file instead).
    #[cfg(target_os = "linux")]
    pub fn map_file(file: &std::fs::File, offset: usize, len: usize) -> Option<BigBuf> {
        use std::os::fd::AsRawFd;
        let size = (offset + len).next_multiple_of(4096);
        let mut base = map_whole(file, size)?;
        let small = |base| huge_mapped(base).is_some_and(|b| b < size / 10 * 9);
        // Pages the kernel cached small (read or written before) stay small while cached,
        // and a search over them misses the TLB (see benches/solver/README.md). Then drop
        // them and map again: read back through the mapping, the file comes in huge pages,
        // for this run and the next ones.
        if size >= 64 << 20 && small(base) {
            // SAFETY: unmapping the mapping just made (nothing refers to it yet); the advice
            // only drops clean cached pages of an open file.
            unsafe {
                libc::munmap(base.cast(), size);
                libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
            }
            base = map_whole(file, size)?;
            // Pages read in by this mapping may be mapped small while they are new; a
            // second mapping of the now cached file gets them huge.
            if small(base) {
                // SAFETY: as above.
                unsafe { libc::munmap(base.cast(), size) };
                base = map_whole(file, size)?;
            }
        }
        Some(BigBuf {
            // SAFETY: `offset < size`, inside the mapping.
            ptr: unsafe { base.add(offset) },
            len,
            backing: Backing::File { base, size },
        })
    }

    #[cfg(not(target_os = "linux"))]
    pub fn map_file(_file: &std::fs::File, _offset: usize, _len: usize) -> Option<BigBuf> {
        None
    }

    /// The bytes as atomics, for filling a table from several threads.
    pub fn as_atomic(&mut self) -> &[AtomicU8] {
        self.assert_writable();
        // SAFETY: `AtomicU8` has the size and alignment of `u8`, and `&mut self` guarantees
        // no other reference to the bytes exists while the atomics are borrowed.
        unsafe { std::slice::from_raw_parts(self.ptr as *const AtomicU8, self.len) }
    }
}

impl BigBuf {
    /// Writing to a file mapping would fault: tables loaded from disk are only read.
    fn assert_writable(&self) {
        #[cfg(target_os = "linux")]
        assert!(
            !matches!(self.backing, Backing::File { .. }),
            "a table mapped from its cache file is read-only"
        );
        assert!(
            !matches!(self.backing, Backing::Shared { .. }),
            "a shared buffer is read-only"
        );
    }
}

/// Maps `size` bytes of `file` read-only from offset 0 at a 2 MiB boundary, asks for huge
/// pages and reads every page in.
#[cfg(target_os = "linux")]
fn map_whole(file: &std::fs::File, size: usize) -> Option<*mut u8> {
    use std::os::fd::AsRawFd;
    // Reserve an aligned range, then map the file over it.
    let span = size + HUGE;
    // SAFETY: an anonymous reservation with no access; the kernel checks the arguments.
    let r = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            span,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if r == libc::MAP_FAILED {
        return None;
    }
    let base = (r as usize).next_multiple_of(HUGE) as *mut u8;
    // SAFETY: `base .. base + size` lies inside the reservation just made, which MAP_FIXED
    // replaces; the file descriptor is open for reading.
    let m = unsafe {
        libc::mmap(
            base.cast(),
            size,
            libc::PROT_READ,
            libc::MAP_SHARED | libc::MAP_FIXED,
            file.as_raw_fd(),
            0,
        )
    };
    // SAFETY: unmapping the parts of the reservation outside the file's mapping (or all of
    // it when that failed); advice on the mapping.
    unsafe {
        let head = base as usize - r as usize;
        if m == libc::MAP_FAILED {
            libc::munmap(r, span);
            return None;
        }
        if head > 0 {
            libc::munmap(r, head);
        }
        let tail = span - head - size;
        if tail > 0 {
            libc::munmap(base.add(size).cast(), tail);
        }
        // Huge pages where the page cache has large folios, then every page read in now
        // (the search would fault them in one by one).
        libc::madvise(base.cast(), size, libc::MADV_HUGEPAGE);
        libc::madvise(base.cast(), size, libc::MADV_POPULATE_READ);
    }
    Some(base)
}

/// Bytes of the mapping at `base` that the kernel maps with huge pages (`FilePmdMapped` in
/// `/proc/self/smaps`), when it says.
#[cfg(target_os = "linux")]
fn huge_mapped(base: *mut u8) -> Option<usize> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    file_pmd_mapped(&smaps, base as usize)
}

/// `FilePmdMapped` of the mapping starting at `base`, in bytes, from the text of `smaps`.
#[cfg(any(target_os = "linux", test))]
fn file_pmd_mapped(smaps: &str, base: usize) -> Option<usize> {
    let head = format!("{base:x}-");
    let at = smaps.lines().position(|l| l.starts_with(&head))?;
    smaps
        .lines()
        .skip(at + 1)
        .take_while(|l| {
            // Up to the next mapping's line, which starts with its address range.
            !l.split_whitespace()
                .next()
                .is_some_and(|t| t.contains('-') && !t.ends_with(':'))
        })
        .find_map(|l| l.strip_prefix("FilePmdMapped:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map(|kb| kb << 10)
}

/// A table of `u32` in a [`BigBuf`] (huge pages: a reduced table's classes are read at
/// random, once a look-up).
pub struct BigU32 {
    buf: BigBuf,
}

impl BigU32 {
    /// `len` entries, each `u32::MAX`.
    pub fn new_max(len: usize) -> BigU32 {
        BigU32 {
            buf: BigBuf::new(len * 4, 0xff),
        }
    }
}

impl Deref for BigU32 {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        let bytes: &[u8] = &self.buf;
        // SAFETY: the buffer is 2 MiB aligned, initialised, and a whole number of `u32`s.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u32>(), bytes.len() / 4) }
    }
}

impl DerefMut for BigU32 {
    fn deref_mut(&mut self) -> &mut [u32] {
        let bytes: &mut [u8] = &mut self.buf;
        // SAFETY: as in `deref`, and borrowed mutably through the buffer.
        unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<u32>(), bytes.len() / 4) }
    }
}

impl Deref for BigBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` is valid and initialised for `len` bytes while `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl DerefMut for BigBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.assert_writable();
        // SAFETY: as for `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for BigBuf {
    fn drop(&mut self) {
        match self.backing {
            // SAFETY: allocated in `new` with this layout.
            Backing::Heap(layout) => unsafe { dealloc(self.ptr, layout) },
            #[cfg(target_os = "linux")]
            // SAFETY: mapped in `map_file` or `lazy_zeroed` with this size.
            Backing::File { base, size } | Backing::Anon { base, size } => unsafe {
                libc::munmap(base.cast(), size);
            },
            // The bytes go with the last holder.
            Backing::Shared { .. } => {}
        }
    }
}

impl std::fmt::Debug for BigBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BigBuf({} bytes)", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn filled_aligned_and_writable() {
        let mut b = BigBuf::new(5_000_000, 255);
        assert_eq!(b.len(), 5_000_000);
        assert_eq!(b.as_ptr() as usize % HUGE, 0);
        assert!(b.iter().all(|&v| v == 255));
        b.as_atomic()[7].store(3, Ordering::Relaxed);
        b[8] = 4;
        assert_eq!((b[7], b[8], b[9]), (3, 4, 255));
        assert_eq!(BigBuf::new(0, 1).len(), 0);
    }

    #[test]
    fn zeroed_lazily_and_recycled() {
        let mut b = BigBuf::lazy_zeroed(5_000_000);
        assert_eq!(b.len(), 5_000_000);
        assert_eq!(b.as_ptr() as usize % HUGE, 0);
        assert!(b.iter().all(|&v| v == 0));
        b[4_999_999] = 9;
        let b = b.recycled(3_000_001, 7);
        assert_eq!(b.len(), 3_000_001);
        assert!(b.iter().all(|&v| v == 7));
        let c = BigBuf::new(100, 1).recycled(10, 2);
        assert_eq!(&c[..], &[2; 10]);
    }

    #[test]
    fn shared_bytes_outlive_either_holder() {
        let (view, whole) = BigBuf::new(3 << 20, 5).share();
        assert_eq!(view.as_ptr(), whole.as_ptr());
        assert_eq!(view.len(), 3 << 20);
        let t = std::thread::spawn(move || whole.iter().map(|&b| b as u64).sum::<u64>());
        assert!(view.iter().all(|&b| b == 5));
        drop(view);
        assert_eq!(t.join().unwrap(), 5 * (3 << 20));
    }

    #[test]
    #[should_panic(expected = "read-only")]
    fn shared_bytes_are_read_only() {
        let (mut view, _whole) = BigBuf::new(10, 0).share();
        view[0] = 1;
    }

    #[test]
    fn huge_pages_of_a_mapping_from_smaps() {
        let smaps = "\
7f0000000000-7f0000400000 r--s 00000000 fd:00 12 /a.bin
Size:               4096 kB
FilePmdMapped:      2048 kB
VmFlags: rd sh mr mw me ms hg
7f0000600000-7f0000800000 r--s 00000000 fd:00 13 /b.bin
Size:               2048 kB
VmFlags: rd sh mr mw me ms
7f0000a00000-7f0000c00000 r--s 00000000 fd:00 14 /c.bin
FilePmdMapped:      1024 kB
";
        assert_eq!(file_pmd_mapped(smaps, 0x7f0000000000), Some(2 << 20));
        // No field in its own block: not the next mapping's.
        assert_eq!(file_pmd_mapped(smaps, 0x7f0000600000), None);
        assert_eq!(file_pmd_mapped(smaps, 0x7f0000a00000), Some(1 << 20));
        assert_eq!(file_pmd_mapped(smaps, 0x7f0000200000), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn file_mapped_from_an_offset() {
        use std::io::Write;
        let path = std::env::temp_dir().join(format!("puz-bigbuf-{}", std::process::id()));
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(b"0123456789abcdef").and(f.write_all(&bytes)))
            .unwrap();
        let f = std::fs::File::open(&path).unwrap();
        let b = BigBuf::map_file(&f, 16, bytes.len()).expect("mapped");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(b.len(), bytes.len());
        assert_eq!(b[..], bytes[..]);
        assert_eq!((b.as_ptr() as usize - 16) % HUGE, 0);
    }
}
