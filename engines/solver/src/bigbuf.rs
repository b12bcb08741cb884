//! Large byte tables in memory the kernel may back with huge pages.
//!
//! Pattern-database look-ups are random reads over hundreds of megabytes: with 4 KiB pages
//! nearly every one misses the TLB as well as the cache. [`BigBuf`] allocates on a 2 MiB
//! boundary and, on Linux, asks for transparent huge pages (`madvise(MADV_HUGEPAGE)`), which
//! is all it takes when the system's setting is `madvise` (the common default).

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicU8;

const HUGE: usize = 2 << 20;

/// A byte buffer, 2 MiB aligned, dropped like a `Vec`.
pub struct BigBuf {
    ptr: *mut u8,
    len: usize,
    layout: Layout,
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
        // SAFETY: `ptr` is valid for `layout.size() >= len` bytes.
        unsafe { std::ptr::write_bytes(ptr, fill, len) };
        BigBuf { ptr, len, layout }
    }

    /// The bytes as atomics, for filling a table from several threads.
    pub fn as_atomic(&mut self) -> &[AtomicU8] {
        // SAFETY: `AtomicU8` has the size and alignment of `u8`, and `&mut self` guarantees
        // no other reference to the bytes exists while the atomics are borrowed.
        unsafe { std::slice::from_raw_parts(self.ptr as *const AtomicU8, self.len) }
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
        // SAFETY: as for `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for BigBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr, self.layout) }
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
}
