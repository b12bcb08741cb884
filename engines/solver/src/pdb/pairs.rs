//! Tables of two bits an entry, after nxopt: half the bytes of nibbles, for a table whose
//! values crowd a few levels. An entry's code says `0`: at most the table's base, `1` and
//! `2`: base + 1 and base + 2 exactly, `3`: at least base + 3 (or no position). A code 0
//! reads the smallest value of its half line, kept in a nibble of the line's first byte:
//! a 64-byte line holds that byte and 252 entries, so a look-up still reads one cache
//! line. Values are lower bounds; those past base + 3 and those under the base are not
//! exact.
//!
//! The fill ([`super::sym_fill`]) writes codes `d mod 3` while it can (an unreached entry
//! next to a `d mod 3` one is at `d + 1`: the entries at `d - 3` and below have no
//! unreached neighbour), keeping each half line's smallest level; once the
//! next level would pass a quarter of the table it turns every reached entry to 0
//! ([`to_base`]) and fills the last two levels as 1 and 2. The base is kept in a trailing
//! line, so a table loaded from the cache reads it back.
//!
//! When nearly every entry left before the last level lies on it (sampled), the fill
//! leaves that level out and turns the unreached entries to code 2 ([`cap`]): a code 2
//! then reads "base + 2 or more", still a lower bound. (On the 3x3x3 in atm, 0.13% of
//! nxopt's table lies past that level, which is the largest pull of its fill.)

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Bytes of a line, and the entries it holds after its first byte.
pub const LINE: u64 = 64;
pub const PER_LINE: u64 = 4 * (LINE - 1);

/// The code of an entry not reached (or not yet).
pub const UNREACHED: u8 = 3;

/// Bytes of a table of `size` entries: its lines and the trailing line with the base.
pub fn bytes(size: u64) -> u64 {
    size.div_ceil(PER_LINE) * LINE + LINE
}

/// The byte holding entry `i`, and the entry's shift in it.
#[inline(always)]
pub fn locate(i: u64) -> (usize, u32) {
    let (line, slot) = (i / PER_LINE, i % PER_LINE);
    ((line * LINE + 1 + slot / 4) as usize, (slot % 4 * 2) as u32)
}

/// Entries `a + x` for small `x` (up to [`NEAR`]), read without a 64-bit division each:
/// `a`'s line's first byte and slot, found once; `x` past the slot is split into lines
/// and slots by the table [`SPLIT`].
#[derive(Clone, Copy)]
pub struct Near {
    line: usize,
    slot: u32,
}

/// The largest offset a [`Near`] reads, plus one.
pub const NEAR: u32 = SPLIT_LEN as u32 - PER_LINE as u32;

const SPLIT_LEN: usize = 8192;

/// For `s` below [`SPLIT_LEN`]: the byte of slot `s` counted from a line's start (lines
/// after it included) times 8, plus the entry's shift in that byte. Past it, up to any
/// slot plus any 16-bit offset, 0 (the line's first byte): a [`Window`] reads it without a
/// mask or a bounds check, and an offset past [`NEAR`] reads a wrong code, not outside
/// the window.
static SPLIT: [u16; SPLIT_WIDE] = {
    let mut t = [0u16; SPLIT_WIDE];
    let mut s = 0;
    while s < SPLIT_LEN {
        let (line, slot) = (s as u64 / PER_LINE, s as u64 % PER_LINE);
        t[s] = (((line * LINE + 1 + slot / 4) << 3) | (slot % 4 * 2)) as u16;
        s += 1;
    }
    t
};

/// [`SPLIT`]'s length: any slot plus any 16-bit offset.
const SPLIT_WIDE: usize = PER_LINE as usize + (1 << 16);

impl Near {
    #[inline(always)]
    pub fn new(a: u64) -> Near {
        Near {
            line: (a / PER_LINE * LINE) as usize,
            slot: (a % PER_LINE) as u32,
        }
    }

    /// The code of entry `a + x` (`x` below [`NEAR`]).
    #[inline(always)]
    pub fn get(self, t: &[AtomicU8], x: u32) -> u8 {
        let pk = split(self.slot, x);
        (t[self.line + (pk >> 3) as usize].load(Relaxed) >> (pk & 7)) & 3
    }
}

/// [`SPLIT`] of slot `slot + x` (`x` below [`NEAR`]).
#[inline(always)]
fn split(slot: u32, x: u32) -> u16 {
    debug_assert!(x < NEAR);
    // The mask keeps in-range indices as they are and spares a bounds check.
    SPLIT[(slot + x) as usize & (SPLIT_LEN - 1)]
}

/// The bytes from a line's start that [`SPLIT`] reaches.
const REACH: usize = {
    let (mut s, mut most) = (0, 0);
    while s < SPLIT_WIDE {
        let b = (SPLIT[s] >> 3) as usize;
        if b > most {
            most = b;
        }
        s += 1;
    }
    most + 1
};

impl Near {
    /// The bytes of `t` this can read, when the table holds all of them (not at its very
    /// end): reads through it need no bounds check.
    #[inline(always)]
    pub fn window(self, t: &[AtomicU8]) -> Option<Window<'_>> {
        let w = t.get(self.line..self.line + REACH)?;
        Some(Window {
            w: w.as_ptr(),
            split: SPLIT[self.slot as usize..].as_ptr(),
            _t: std::marker::PhantomData,
        })
    }
}

/// A [`Near`] with the bytes it reads (see [`Near::window`]): a read is two loads, the
/// split table's from the slot on, then the byte.
#[derive(Clone, Copy)]
pub struct Window<'a> {
    /// The [`REACH`] bytes from the line's start.
    w: *const AtomicU8,
    /// [`SPLIT`] from the slot on: at least `1 << 16` entries.
    split: *const u16,
    _t: std::marker::PhantomData<&'a [AtomicU8]>,
}

impl Window<'_> {
    /// [`Near::get`].
    #[inline(always)]
    pub fn get(self, x: u16) -> u8 {
        debug_assert!((x as u32) < NEAR);
        // SAFETY: the slot is below `PER_LINE`, so `split` holds every 16-bit `x`; every
        // byte `SPLIT` names lies below `REACH`, which `w` holds.
        unsafe {
            let pk = *self.split.add(x as usize);
            ((*self.w.add((pk >> 3) as usize)).load(Relaxed) >> (pk & 7)) & 3
        }
    }
}

/// The first byte of entry `i`'s line (its smallest level).
#[inline(always)]
fn head(i: u64) -> usize {
    (i / PER_LINE * LINE) as usize
}

/// The shift of the nibble of that byte that holds entry `i`'s half line's smallest level
/// (15: none yet).
#[inline(always)]
fn half(i: u64) -> u32 {
    (i % PER_LINE >= PER_LINE / 2) as u32 * 4
}

/// The base of a filled table of `size` entries.
pub fn base(table: &[u8], size: u64) -> u8 {
    table[(size.div_ceil(PER_LINE) * LINE) as usize]
}

/// The lower bound entry `i` holds (see the module header).
#[inline(always)]
pub fn value(table: &[u8], base: u8, i: u64) -> u8 {
    let (b, sh) = locate(i);
    match (table[b] >> sh) & 3 {
        0 => (table[head(i)] >> half(i)) & 15,
        code => base + code,
    }
}

/// The code of entry `i` during a fill.
#[inline(always)]
pub fn get(t: &[AtomicU8], i: u64) -> u8 {
    let (b, sh) = locate(i);
    (t[b].load(Relaxed) >> sh) & 3
}

/// Sets entry `i`, which was [`UNREACHED`] (or is being set to `code` by another thread),
/// to `code`, reached at level `d` (at most 14); true when this call changed it. The half
/// line's nibble keeps the first level that reached one of its entries: the levels come
/// in order, and every writer of one level writes the same.
#[inline(always)]
pub fn set(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool {
    write::<false>(t, i, code, d)
}

/// [`set`] by the only thread that writes entry `i`'s line for now (others may read it;
/// see [`alone`]): a plain load and store instead of a locked read-modify-write.
#[inline(always)]
pub fn set_alone(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool {
    write::<true>(t, i, code, d)
}

/// [`set`], with plain loads and stores when `ALONE`.
#[inline(always)]
fn write<const ALONE: bool>(t: &[AtomicU8], i: u64, code: u8, d: u8) -> bool {
    // Clears the bits of `mask` in `x` and says what it held.
    let clear = |x: &AtomicU8, mask: u8| {
        if ALONE {
            let old = x.load(Relaxed);
            x.store(old & !mask, Relaxed);
            old
        } else {
            x.fetch_and(!mask, Relaxed)
        }
    };
    let (b, sh) = locate(i);
    let changed = (clear(&t[b], (3 & !code) << sh) >> sh) & 3 == UNREACHED;
    if changed {
        let (h, sh) = (&t[head(i)], half(i));
        if (h.load(Relaxed) >> sh) & 15 == 15 {
            clear(h, (15 & !d) << sh);
        }
    }
    changed
}

/// Of the entries `lo..hi`, those whose lines hold no entry outside them: the lines a
/// thread that alone writes `lo..hi` may write with [`set_alone`].
#[inline]
pub fn alone(lo: u64, hi: u64) -> std::ops::Range<u64> {
    lo.next_multiple_of(PER_LINE)..hi / PER_LINE * PER_LINE
}

/// Writes to `out` the offsets from `lo` of the entries of `lo..lo + n` whose code is
/// `code`, in order; how many. The four entries of a byte are tested together (no
/// division an entry, no branch on what a byte holds); `out` holds at least `n`.
pub fn list(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u32]) -> usize {
    let hi = lo + n;
    // One by one up to the first whole byte, and after the last.
    let a = lo.next_multiple_of(4).min(hi);
    let b = (hi / 4 * 4).max(a);
    let len = one_by_one(t, (lo, lo..a), code, out, 0);
    let len = whole_bytes(t, (lo, a, b), code, out, len);
    one_by_one(t, (lo, b..hi), code, out, len)
}

/// [`list`] over the entries `range`, each read alone, after `len` listed.
#[inline(always)]
fn one_by_one(
    t: &[AtomicU8],
    (lo, range): (u64, std::ops::Range<u64>),
    code: u8,
    out: &mut [u32],
    mut len: usize,
) -> usize {
    for i in range {
        out[len] = (i - lo) as u32;
        len += (get(t, i) == code) as usize;
    }
    len
}

/// [`list`] over the entries `a..b` (whole bytes), after `len` listed: each byte's
/// matching fields spread by [`SPREAD`] into one store of four offsets, of which the
/// count is kept.
#[inline(always)]
fn whole_bytes(
    t: &[AtomicU8],
    (lo, a, b): (u64, u64, u64),
    code: u8,
    out: &mut [u32],
    mut len: usize,
) -> usize {
    for_bytes(t, (a, b), code, |g, m| {
        let r = (4 * g - lo) as u32;
        // In bounds: `len` is at most the byte's first offset, and its four are listed.
        let o: &mut [u32; 4] = (&mut out[len..len + 4]).try_into().unwrap();
        let s = &SPREAD[m as usize];
        for j in 0..4 {
            o[j] = r + s[j] as u32;
        }
        len += m.count_ones() as usize;
    });
    len
}

/// How many of the entries `lo..lo + n` have code `code` (whole bytes four at a time).
pub fn count(t: &[AtomicU8], lo: u64, n: u64, code: u8) -> u64 {
    let hi = lo + n;
    let a = lo.next_multiple_of(4).min(hi);
    let b = (hi / 4 * 4).max(a);
    let each = |r: std::ops::Range<u64>| r.filter(|&i| get(t, i) == code).count() as u64;
    let mut k = each(lo..a) + each(b..hi);
    for_bytes(t, (a, b), code, |_, m| k += m.count_ones() as u64);
    k
}

/// Calls `f(g, m)` for each group `g` of four entries in `a..b` (whole bytes), `m` the
/// byte's fields equal to `code` as their low bits (`0b01` each).
#[inline(always)]
fn for_bytes(t: &[AtomicU8], (a, b): (u64, u64), code: u8, mut f: impl FnMut(u64, u8)) {
    let rep = code * 0x55;
    // Group `g` (entries `4g..4g + 4`) is byte `g % 63 + 1` of line `g / 63`.
    let (mut g, end) = (a / 4, b / 4);
    while g < end {
        let (line, k) = (g / (LINE - 1), g % (LINE - 1));
        let n = (LINE - 1 - k).min(end - g);
        let at = (line * LINE + 1 + k) as usize;
        for (x, g) in t[at..at + n as usize].iter().zip(g..) {
            let x = !(x.load(Relaxed) ^ rep);
            f(g, x & (x >> 1) & 0x55);
        }
        g += n;
    }
}

/// For a byte's matching fields `m` (low bits of its four fields): their positions, in
/// order (the rest 0).
static SPREAD: [[u8; 4]; 256] = {
    let mut t = [[0u8; 4]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut j, mut k) = (0, 0);
        while j < 4 {
            if (m >> (2 * j)) & 1 == 1 {
                t[m][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// Asks for the lines of entries `lo..lo + n` (see [`super::coord_fill::prefetch_entries`]).
#[inline]
pub fn prefetch_entries(t: &[AtomicU8], lo: u64, n: u64) {
    lines(t, lo, n).for_each(|i| crate::prefetch::prefetch_l2(t, i));
}

/// Asks for the lines of entries `lo..lo + n` into the nearest cache, for reads soon.
#[inline]
pub fn prefetch_soon(t: &[AtomicU8], lo: u64, n: u64) {
    lines(t, lo, n).for_each(|i| crate::prefetch::prefetch(t, i));
}

/// The first bytes of the lines of entries `lo..lo + n` (those inside `t`).
#[inline(always)]
fn lines(t: &[AtomicU8], lo: u64, n: u64) -> impl Iterator<Item = usize> {
    let (a, b) = (head(lo), head(lo + n) + 1);
    (a..b.min(t.len())).step_by(LINE as usize)
}

/// Every field's low bit, in a word of fields of two bits.
const LOW: u64 = 0x5555_5555_5555_5555;

/// Turns every reached entry of a table of `size` entries to code 0 and records `base`:
/// every entry reached so far is at most `base`, and the next levels are written as
/// 1 and 2. (Between two levels of a fill: no other thread writes.)
pub fn to_base(t: &[AtomicU8], size: u64, base: u8) {
    // A field stays 3 when both its bits are set, else it becomes 0. (A field's high bit
    // shifted down lands on its own low bit; a byte's low bit lands on an odd bit, which
    // `LOW` clears.)
    let lines = recode(t, size, |v| (v & (v >> 1) & LOW) * 3);
    t[lines * LINE as usize].store(base, Relaxed);
}

/// Turns every unreached entry of a table of `size` entries to code 2, when the last
/// level is left out: each is at least base + 2. (Between two levels: no other thread
/// writes.)
pub fn cap(t: &[AtomicU8], size: u64) {
    // A field with both bits set loses its low one; 0, 1 and 2 stay.
    recode(t, size, |v| v & !(v & (v >> 1) & LOW));
}

/// Rewrites every byte of entries (not the lines' first bytes) of a table of `size`
/// entries as `f` says, eight bytes at a time (`f` works on each field of two bits of a
/// word alike); how many lines it has.
fn recode(t: &[AtomicU8], size: u64, f: impl Fn(u64) -> u64 + Sync) -> usize {
    let lines = size.div_ceil(PER_LINE) as usize;
    // SAFETY: `AtomicU64` has the layout of eight `AtomicU8`s; between two levels no
    // other thread writes the table, so the wider accesses race with nothing.
    let (head, words, _) = unsafe { t[..lines * LINE as usize].align_to::<AtomicU64>() };
    assert!(head.is_empty(), "a table's start is 8-byte aligned");
    words.par_chunks(LINE as usize / 8).for_each(|line| {
        // The line's first byte holds its smallest values: kept.
        let first = u64::from_ne_bytes([0xff, 0, 0, 0, 0, 0, 0, 0]);
        let w = line[0].load(Relaxed);
        line[0].store((f(w) & !first) | (w & first), Relaxed);
        for x in &line[1..] {
            x.store(f(x.load(Relaxed)), Relaxed);
        }
    });
    lines
}

/// How many entries hold each value (codes 0 as their half line's smallest level).
pub fn histogram(table: &[u8], size: u64, base: u8) -> [u64; 16] {
    // Line by line (a look-up's division for each entry takes three times as long).
    (0..size.div_ceil(PER_LINE))
        .into_par_iter()
        .fold(
            || [0u64; 16],
            |mut h, l| {
                let line = &table[(l * LINE) as usize..((l + 1) * LINE) as usize];
                for s in 0..(size - l * PER_LINE).min(PER_LINE) {
                    let code = (line[1 + (s / 4) as usize] >> (s % 4 * 2)) & 3;
                    let v = match code {
                        0 => (line[0] >> half(s)) & 15,
                        _ => base + code,
                    };
                    h[v.min(15) as usize] += 1;
                }
                h
            },
        )
        .reduce(
            || [0u64; 16],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atomic(t: &mut [u8]) -> &[AtomicU8] {
        // SAFETY: AtomicU8 has the layout of u8, and the borrow is exclusive.
        unsafe { &*(t as *mut [u8] as *const [AtomicU8]) }
    }

    #[test]
    fn entries_fill_lines_after_their_first_byte() {
        assert_eq!(locate(0), (1, 0));
        assert_eq!(locate(3), (1, 6));
        assert_eq!(locate(4), (2, 0));
        assert_eq!(locate(251), (63, 6));
        assert_eq!(locate(252), (65, 0));
        assert_eq!(bytes(252), 128);
        assert_eq!(bytes(253), 192);
        // Every entry has its own two bits.
        let mut seen = std::collections::HashSet::new();
        for i in 0..3 * PER_LINE {
            let (b, sh) = locate(i);
            assert_ne!(b as u64 % LINE, 0);
            assert!(seen.insert((b, sh)));
        }
    }

    #[test]
    fn codes_levels_and_base() {
        let size = 600;
        let mut t = vec![u8::MAX; bytes(size) as usize];
        {
            let a = atomic(&mut t);
            assert!(set(a, 5, 1, 4));
            assert!(!set(a, 5, 1, 4));
            assert!(set(a, 7, 2, 5));
            assert!(set(a, 300, 0, 6));
            assert_eq!((get(a, 5), get(a, 7), get(a, 6)), (1, 2, UNREACHED));
        }
        // The first level to reach a half line is its smallest.
        assert_eq!((t[0], t[64]), (0xf4, 0xf6));
        to_base(atomic(&mut t), size, 6);
        assert_eq!(base(&t, size), 6);
        {
            let a = atomic(&mut t);
            assert_eq!((get(a, 5), get(a, 7), get(a, 300), get(a, 6)), (0, 0, 0, 3));
            assert!(set(a, 6, 1, 7));
            assert!(set(a, 599, 2, 8));
        }
        assert_eq!(value(&t, 6, 5), 4);
        assert_eq!(value(&t, 6, 300), 6);
        assert_eq!(value(&t, 6, 6), 7);
        assert_eq!(value(&t, 6, 599), 8);
        assert_eq!(value(&t, 6, 8), 9);
        let h = histogram(&t, size, 6);
        assert_eq!(h.iter().sum::<u64>(), size);
        assert_eq!((h[4], h[6], h[7], h[8], h[9]), (2, 1, 1, 1, size - 5));
    }

    #[test]
    fn a_cap_turns_unreached_entries_to_two_and_keeps_the_rest() {
        let size = 2 * PER_LINE + 5;
        let mut t = vec![u8::MAX; bytes(size) as usize];
        let a = atomic(&mut t);
        for i in 0..size {
            let code = (i % 7 % 4) as u8;
            if code != UNREACHED {
                set(a, i, code, 3 + code);
            }
        }
        let heads: Vec<u8> = (0..3).map(|l| t[l * LINE as usize]).collect();
        let a = atomic(&mut t);
        cap(a, size);
        for i in 0..size {
            let code = (i % 7 % 4) as u8;
            assert_eq!(get(a, i), code.min(2), "entry {i}");
        }
        let after: Vec<u8> = (0..3).map(|l| t[l * LINE as usize]).collect();
        assert_eq!(heads, after, "the half lines' smallest levels");
    }

    /// A table of `size` entries whose codes follow `i * i + i / k` (mod 4): no period of
    /// 4 or of a line.
    fn patterned(size: u64, k: u64) -> Vec<u8> {
        let mut t = vec![u8::MAX; bytes(size) as usize];
        let a = atomic(&mut t);
        for i in 0..size {
            let code = ((i * i + i / k) % 4) as u8;
            if code != UNREACHED {
                set(a, i, code, code);
            }
        }
        t
    }

    #[test]
    fn a_window_reads_inside_itself_at_any_16_bit_offset() {
        // Every slot plus any 16-bit offset lies in the table (what `Window::get`'s
        // unchecked read needs) and names a byte below `REACH`; past the offsets a
        // `Near` reads, the line's first byte.
        assert!((PER_LINE as usize - 1 + u16::MAX as usize) < SPLIT.len());
        assert!(SPLIT.iter().all(|&pk| ((pk >> 3) as usize) < REACH));
        assert!(SPLIT[SPLIT_LEN..].iter().all(|&pk| pk == 0));
        assert_eq!(REACH, ((SPLIT[SPLIT_LEN - 1] >> 3) + 1) as usize);
    }

    #[test]
    fn near_reads_are_the_entries_read_one_by_one() {
        // Over enough lines for every offset.
        let size = 3 * PER_LINE + NEAR as u64;
        let mut t = patterned(size, 5);
        let a = atomic(&mut t);
        for lo in [0, 1, 3, 4, 251, 252, 253, 503, 700] {
            let near = Near::new(lo);
            // Every start here leaves the whole reach inside the table.
            let w = near.window(a).expect("a window");
            for x in 0..NEAR.min((size - lo) as u32) {
                assert_eq!(near.get(a, x), get(a, lo + x as u64), "lo {lo} x {x}");
                assert_eq!(w.get(x as u16), get(a, lo + x as u64), "lo {lo} x {x}");
            }
        }
        // Near the table's end there is no window: reads are checked.
        assert!(Near::new(size - 1).window(a).is_none());
    }

    #[test]
    fn lists_and_counts_are_the_entries_of_a_code_from_any_start_and_length() {
        // Over four lines.
        let size = 4 * PER_LINE + 9;
        let mut t = patterned(size, 7);
        let a = atomic(&mut t);
        let mut out = vec![0u32; size as usize];
        for lo in [0, 1, 2, 3, 4, 5, 250, 251, 252, 253, 503, 504, 505] {
            for n in [0, 1, 2, 3, 4, 5, 7, 8, 9, 247, 248, 252, 253, 260, 700] {
                let n = n.min(size - lo);
                for code in 0..4 {
                    let want: Vec<u32> = (0..n)
                        .filter(|&r| get(a, lo + r) == code)
                        .map(|r| r as u32)
                        .collect();
                    // `out` no longer than the entries listed.
                    let len = list(a, lo, n, code, &mut out[..n as usize]);
                    assert_eq!(&out[..len], &want[..], "lo {lo} n {n} code {code}");
                    assert_eq!(count(a, lo, n, code), want.len() as u64);
                }
            }
        }
    }

    #[test]
    fn a_lone_writer_sets_what_a_shared_one_does() {
        let size = 3 * PER_LINE;
        let (mut t, mut u) = (vec![u8::MAX; bytes(size) as usize], Vec::new());
        u.clone_from(&t);
        let (a, b) = (atomic(&mut t), atomic(&mut u));
        for (i, code, d) in [
            (3, 1, 5),
            (2, 2, 6),
            (130, 2, 6),
            (300, 0, 4),
            (301, 1, 7),
            (3, 1, 5),
        ] {
            assert_eq!(set(a, i, code, d), set_alone(b, i, code, d), "{i}");
        }
        assert_eq!(t, u);
        // Only whole lines inside the range are left to the lone writer.
        assert!(alone(PER_LINE, 2 * PER_LINE).contains(&300));
        assert!(!alone(PER_LINE + 1, 2 * PER_LINE).contains(&300));
        assert!(!alone(PER_LINE, 2 * PER_LINE - 1).contains(&300));
    }
}
