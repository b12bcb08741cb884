//! Asking the cache for a line ahead of a read that would otherwise wait on memory: table
//! look-ups and fills name their next addresses before they read any of them. Off x86-64
//! these do nothing.

/// Asks for the line holding `s[i]`, into the nearest cache (for a read soon).
#[inline(always)]
pub(crate) fn prefetch<T>(s: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address; `wrapping_add` keeps the
    // pointer arithmetic defined even past the slice.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(s.as_ptr().wrapping_add(i) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, i);
}

/// Asks for the line holding `s[i]` into L2 (for a read after other work, which would
/// push it out of L1 first).
#[inline(always)]
pub(crate) fn prefetch_l2<T>(s: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `prefetch`.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        _mm_prefetch::<_MM_HINT_T1>(s.as_ptr().wrapping_add(i) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, i);
}
