//! How a fill reads and writes a table's entries: [`Nibbles`] hold the distance itself
//! (up to 14; 15 not reached), [`Pairs`] a two-bit code (see `pairs.rs`). The fill of a
//! reduced table ([`super::sym_fill`]) is written once for both.

use super::bitset::ones;
use super::{coord_fill, level_bits, pairs, pairs_marks};
use std::sync::atomic::AtomicU8;

pub(super) trait Entries: Sync {
    /// Two-bit entries (codes, not levels: see `pairs.rs`).
    const PAIRS: bool;
    /// The code of an entry not reached yet.
    const UNREACHED: u8;
    /// The code of entry `i`.
    fn get(t: &[AtomicU8], i: u64) -> u8;
    /// Sets entry `i` from unreached to `code`, reached at level `d`; true when this call
    /// changed it.
    fn set(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool;
    /// Of the entries `lo..hi`, those whose bytes hold no entry outside them: a thread
    /// that alone writes `lo..hi` (a pulled class's block) may write those with
    /// [`Entries::set_alone`].
    fn alone(lo: u64, hi: u64) -> std::ops::Range<u64>;
    /// [`Entries::set`] by the only writer of entry `i`'s bytes: a plain load and store
    /// instead of a locked read-modify-write.
    fn set_alone(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool;
    /// A way to read entries `a + x` for `x` below [`Entries::NEAR`], cheaper than
    /// [`Entries::get`] one by one (see [`Entries::get_near`]).
    type Near: Copy;
    const NEAR: u32;
    fn near(a: u64) -> Self::Near;
    /// The code of entry `a + x`, `a` given as [`Entries::near`] made it.
    fn get_near(t: &[AtomicU8], a: Self::Near, x: u32) -> u8;
    /// A [`Entries::Near`] with the bytes it reads, when that spares reads their bounds
    /// checks (none: read by [`Entries::get_near`]).
    type Window<'a>: Copy;
    fn window(t: &[AtomicU8], a: Self::Near) -> Option<Self::Window<'_>>;
    /// [`Entries::get_near`] through a window.
    fn get_window(w: Self::Window<'_>, x: u16) -> u8;
    /// Asks for the lines of entries `lo..lo + n`.
    fn prefetch(t: &[AtomicU8], lo: u64, n: u64);
    /// [`Entries::prefetch`] into the nearest cache, for reads soon.
    #[inline(always)]
    fn prefetch_soon(t: &[AtomicU8], lo: u64, n: u64) {
        Self::prefetch(t, lo, n)
    }
    /// Writes to `out` the offsets from `lo` of the entries of `lo..lo + n` whose code is
    /// `code`, in order; how many (`out` holds at least `n`).
    #[inline(always)]
    fn list(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u32]) -> usize {
        let mut len = 0;
        for r in 0..n {
            out[len] = r as u32;
            len += (Self::get(t, lo + r) == code) as usize;
        }
        len
    }
    /// Sets entry `lo + x` to `code`, reached at level `d`, for each bit `x` of `marks`
    /// (none at `n` or past it), every one unreached and set by no other thread; how
    /// many. Those inside `alone` ([`Entries::alone`]) may be written without a lock.
    #[inline(always)]
    fn set_marked(
        t: &[AtomicU8],
        lo: u64,
        (marks, _n): (&[u64], u32),
        (code, d): (u8, u8),
        alone: &std::ops::Range<u64>,
    ) -> u64 {
        let set = |i| match alone.contains(&i) {
            true => Self::set_alone(t, i, code, d),
            false => Self::set(t, i, code, d),
        };
        ones(marks).filter(|&x| set(lo + x)).count() as u64
    }
    /// How many of the entries `lo..lo + n` have code `code`.
    #[inline(always)]
    fn count(t: &[AtomicU8], lo: u64, n: u64, code: u8) -> u64 {
        (lo..lo + n).filter(|&i| Self::get(t, i) == code).count() as u64
    }
    /// Writes to `out` (at least [`bits_words`]`(n)` words) bit `x` for each entry
    /// `lo + x` of `lo..lo + n` whose code is `code`; its bits from `n` on cleared.
    fn code_bits(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u64]) {
        out.fill(0);
        for x in 0..n {
            out[(x / 64) as usize] |= ((Self::get(t, lo + x) == code) as u64) << (x % 64);
        }
    }
}

/// The words [`Entries::code_bits`] needs for `n` entries.
pub(super) fn bits_words(n: u64) -> usize {
    // Pairs work in whole lines of 252 entries around them.
    (n + 2 * pairs::PER_LINE).div_ceil(64) as usize
}

/// Four bits an entry, two a byte.
pub(super) struct Nibbles;

impl Entries for Nibbles {
    const PAIRS: bool = false;
    const UNREACHED: u8 = 15;
    type Near = u64;
    const NEAR: u32 = u32::MAX;
    #[inline(always)]
    fn near(a: u64) -> u64 {
        a
    }
    type Window<'a> = std::convert::Infallible;
    #[inline(always)]
    fn window(_: &[AtomicU8], _: u64) -> Option<std::convert::Infallible> {
        None
    }
    #[inline(always)]
    fn get_window(w: std::convert::Infallible, _: u16) -> u8 {
        match w {}
    }
    #[inline(always)]
    fn get_near(t: &[AtomicU8], a: u64, x: u32) -> u8 {
        Self::get(t, a + x as u64)
    }
    #[inline(always)]
    fn get(t: &[AtomicU8], i: u64) -> u8 {
        coord_fill::get(t, i)
    }
    #[inline(always)]
    fn set(t: &[AtomicU8], i: u64, code: u8, _: u8) -> bool {
        coord_fill::set(t, i, code)
    }
    #[inline(always)]
    fn alone(lo: u64, hi: u64) -> std::ops::Range<u64> {
        coord_fill::alone(lo, hi)
    }
    #[inline(always)]
    fn set_alone(t: &[AtomicU8], i: u64, code: u8, _: u8) -> bool {
        coord_fill::set_alone(t, i, code)
    }
    #[inline(always)]
    fn prefetch(t: &[AtomicU8], lo: u64, n: u64) {
        coord_fill::prefetch_entries(t, lo, n)
    }
}

/// Two bits an entry, 252 a 64-byte line.
pub(super) struct Pairs;

impl Entries for Pairs {
    const PAIRS: bool = true;
    const UNREACHED: u8 = pairs::UNREACHED;
    type Near = pairs::Near;
    const NEAR: u32 = pairs::NEAR;
    #[inline(always)]
    fn near(a: u64) -> pairs::Near {
        pairs::Near::new(a)
    }
    #[inline(always)]
    fn get_near(t: &[AtomicU8], a: pairs::Near, x: u32) -> u8 {
        a.get(t, x)
    }
    type Window<'a> = pairs::Window<'a>;
    #[inline(always)]
    fn window(t: &[AtomicU8], a: pairs::Near) -> Option<pairs::Window<'_>> {
        a.window(t)
    }
    #[inline(always)]
    fn get_window(w: pairs::Window<'_>, x: u16) -> u8 {
        w.get(x)
    }
    #[inline(always)]
    fn get(t: &[AtomicU8], i: u64) -> u8 {
        pairs::get(t, i)
    }
    #[inline(always)]
    fn set(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool {
        pairs::set(t, i, code, d)
    }
    #[inline(always)]
    fn alone(lo: u64, hi: u64) -> std::ops::Range<u64> {
        pairs::alone(lo, hi)
    }
    #[inline(always)]
    fn set_alone(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool {
        pairs::set_alone(t, i, code, d)
    }
    #[inline(always)]
    fn prefetch(t: &[AtomicU8], lo: u64, n: u64) {
        pairs::prefetch_entries(t, lo, n)
    }
    #[inline(always)]
    fn prefetch_soon(t: &[AtomicU8], lo: u64, n: u64) {
        pairs::prefetch_soon(t, lo, n)
    }
    #[inline(always)]
    fn list(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u32]) -> usize {
        pairs::list(t, lo, n, code, out)
    }
    #[inline(always)]
    fn count(t: &[AtomicU8], lo: u64, n: u64, code: u8) -> u64 {
        pairs::count(t, lo, n, code)
    }
    fn code_bits(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u64]) {
        level_bits::block_bits(t, lo, n, code, out)
    }
    #[inline(always)]
    fn set_marked(
        t: &[AtomicU8],
        lo: u64,
        marks: (&[u64], u32),
        to: (u8, u8),
        alone: &std::ops::Range<u64>,
    ) -> u64 {
        pairs_marks::set_marked(t, lo, marks, to, alone)
    }
}
