//! The `puz` binary's allocator: mimalloc, unless the process runs under an address-space
//! limit (`ulimit -v`, common on clusters), where the system allocator is kept.
//!
//! Certificates and word files allocate and free millions of small nodes, products and
//! memo entries; mimalloc serves them with less time in the allocator than the system's
//! (figures in benches/results.md). But it reserves address space in large arenas, and
//! under `ulimit -v` that reservation counts against the limit, so less would be left
//! for the computations (`Control::memory_left` reads what is left). The choice is made
//! once, at the first allocation (before any thread is started), and never changes, so
//! every block is freed by the allocator that made it. The fuzzer (`puz-fuzz`) keeps the
//! system allocator: it measures its cases under address-space limits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU8, Ordering};

pub struct Chosen;

const UNKNOWN: u8 = 0;
const SYSTEM: u8 = 1;
const MIMALLOC: u8 = 2;

static CHOICE: AtomicU8 = AtomicU8::new(UNKNOWN);

fn choice() -> u8 {
    match CHOICE.load(Ordering::Relaxed) {
        UNKNOWN => {
            // getrlimit allocates nothing, so it may run inside the allocator.
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            let limited = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } == 0
                && lim.rlim_cur != libc::RLIM_INFINITY;
            let c = if limited { SYSTEM } else { MIMALLOC };
            CHOICE.store(c, Ordering::Relaxed);
            c
        }
        c => c,
    }
}

unsafe impl GlobalAlloc for Chosen {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match choice() {
            MIMALLOC => mimalloc::MiMalloc.alloc(layout),
            _ => System.alloc(layout),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match choice() {
            MIMALLOC => mimalloc::MiMalloc.dealloc(ptr, layout),
            _ => System.dealloc(ptr, layout),
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match choice() {
            MIMALLOC => mimalloc::MiMalloc.alloc_zeroed(layout),
            _ => System.alloc_zeroed(layout),
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match choice() {
            MIMALLOC => mimalloc::MiMalloc.realloc(ptr, layout, new_size),
            _ => System.realloc(ptr, layout, new_size),
        }
    }
}
