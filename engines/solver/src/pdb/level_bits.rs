//! The entries of one level of a fill of pairs as bits, for a pulled level (see
//! `sym_fill_class.rs`): entry `i` at the level is bit `i`. A pulled entry reads its
//! targets, each a random entry of another class; in pairs a read is a split of the
//! target's offset into a line and a slot (a table read) and a byte's two bits, in bits
//! one byte read at `i / 8`. Built once a level from the table, in one pass over it;
//! half the table's size (a bit an entry against two). The same conversion, a line's
//! codes to bits a word at a time, gives one block's entries of a code as bits
//! ([`block_bits`]: a gathered class's unreached entries, a class's entries listed).

use super::pairs::PER_LINE;
use crate::bigbuf::BigBuf;
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Bits past the last entry, zero: a [`Run`] reads any 16-bit offset from an entry
/// without a bounds check.
const PAD_BITS: u64 = 1 << 16;

/// Lines a task turns into bits: 64 of them hold 252 × 64 entries, 252 whole words.
const LINES_A_TASK: u64 = 64;
const WORDS_A_TASK: usize = PER_LINE as usize;

pub(super) struct LevelBits {
    buf: BigBuf,
    size: u64,
}

impl LevelBits {
    /// Bytes of the bits of a table of `size` entries.
    pub fn bytes(size: u64) -> u64 {
        (size + PAD_BITS).div_ceil(LINES_A_TASK * PER_LINE) * WORDS_A_TASK as u64 * 8
    }

    /// The entries of `t` (pairs, `size` of them, its start 8-byte aligned as a table's
    /// [`BigBuf`] is) whose code is `code`, in the memory of `spare` when it is large
    /// enough. No thread may write `t` meanwhile.
    pub fn of(t: &[AtomicU8], size: u64, code: u8, spare: Option<BigBuf>) -> LevelBits {
        // SAFETY: `AtomicU64` has the layout of eight `AtomicU8`s; nothing writes `t`
        // while it is read, so the wider reads race with no write.
        let (head, lines, _) = unsafe { t.align_to::<AtomicU64>() };
        assert!(head.is_empty(), "a table's start is 8-byte aligned");
        let bytes = LevelBits::bytes(size) as usize;
        // Every word is written below (cleared by its task first, in its cache).
        let mut buf = match spare {
            Some(b) if b.len() >= bytes => b.recycled_as_is(bytes),
            _ => BigBuf::lazy_zeroed(bytes),
        };
        let n = size.div_ceil(PER_LINE) as usize;
        words_mut(&mut buf)
            .par_chunks_mut(WORDS_A_TASK)
            .enumerate()
            .for_each(|(k, out)| {
                out.fill(0);
                let first = k * LINES_A_TASK as usize;
                let last = (first + LINES_A_TASK as usize).min(n);
                lines_as_bits(lines, first..last.max(first), code, out);
            });
        let words = words_mut(&mut buf);
        // The last line's slots past `size` hold codes of no entry: cleared.
        for i in size..(n as u64 * PER_LINE) {
            words[(i / 64) as usize] &= !(1 << (i % 64));
        }
        LevelBits { buf, size }
    }

    /// Turns each of the first `blocks` blocks of `rows * cols` entries, entry
    /// `r * cols + c` of a block, to `c * rows + r` ([`super::bit_transpose`]), in place;
    /// left part-way once `ctl` is cancelled (the fill stops before it reads them).
    pub fn transpose_blocks(&mut self, blocks: u64, rows: u64, cols: u64, ctl: &Control) {
        use super::bit_transpose::{transpose, words_for};
        let n = rows * cols;
        // Blocks of one parity share no word, so each pass writes its blocks at once.
        assert!(n > 128 && blocks * n <= self.size);
        let words = words_mut(&mut self.buf);
        // SAFETY: `AtomicU64` has the layout of `u64`; the words are borrowed mutably.
        let at: &[AtomicU64] = unsafe { &*(words as *mut [u64] as *const [AtomicU64]) };
        let word = |i: u64| at.get(i as usize).map_or(0, |w| w.load(Relaxed));
        for parity in 0..2 {
            let mine = (0..(blocks + 1 - parity) / 2).into_par_iter();
            mine.map(|k| 2 * k + parity).for_each_init(
                || (vec![0u64; words_for(n)], vec![0u64; words_for(n)]),
                |(src, dst), b| {
                    if ctl.cancelled() {
                        return;
                    }
                    let lo = b * n;
                    let (w0, s) = (lo / 64, (lo % 64) as u32);
                    for (i, x) in src.iter_mut().enumerate() {
                        let (a, c) = (word(w0 + i as u64), word(w0 + i as u64 + 1));
                        *x = if s == 0 { a } else { a >> s | c << (64 - s) };
                    }
                    transpose(src, rows as usize, cols as usize, dst);
                    for wi in lo / 64..(lo + n).div_ceil(64) {
                        let (a, b) = ((wi * 64).max(lo), ((wi + 1) * 64).min(lo + n));
                        let ones = if b - a == 64 {
                            !0
                        } else {
                            (1u64 << (b - a)) - 1
                        };
                        let mask = ones << (a - wi * 64);
                        let new = super::bitset::bits_at(dst, wi as i64 * 64 - lo as i64);
                        let w = &at[wi as usize];
                        w.store(w.load(Relaxed) & !mask | new & mask, Relaxed);
                    }
                },
            );
        }
    }

    /// The buffer, for another use.
    pub fn into_buf(self) -> BigBuf {
        self.buf
    }

    /// Whether entry `i` is at the level.
    #[cfg(test)]
    fn has(&self, i: u64) -> bool {
        words(&self.buf)[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// The bits from entry `start` on (below the table's size).
    #[inline(always)]
    pub fn run(&self, start: u64) -> Run<'_> {
        assert!(start < self.size);
        Run {
            // SAFETY: `start / 8` lies inside the bits (`start` is below `size`).
            bytes: unsafe { self.buf.as_ptr().add((start / 8) as usize) },
            shift: (start % 8) as u32,
            _b: std::marker::PhantomData,
        }
    }

    /// Calls `f` on the offset from `lo` of each entry of `lo..lo + n` at the level, in
    /// order.
    #[inline(always)]
    pub fn for_each_in(&self, lo: u64, n: u64, mut f: impl FnMut(u64)) {
        for (j, mut m) in self.words_in(lo, n) {
            while m != 0 {
                f(j * 64 + m.trailing_zeros() as u64 - lo);
                m &= m - 1;
            }
        }
    }

    /// How many entries of `lo..lo + n` are at the level.
    pub fn count_in(&self, lo: u64, n: u64) -> u64 {
        self.words_in(lo, n)
            .map(|(_, m)| m.count_ones() as u64)
            .sum()
    }

    /// The words holding entries `lo..lo + n`, with their indices, the entries outside
    /// the span masked off.
    #[inline(always)]
    fn words_in(&self, lo: u64, n: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let w = words(&self.buf);
        let end = lo + n;
        assert!(end <= self.size);
        let (first, last) = (lo / 64, end.div_ceil(64));
        (first..last).map(move |j| {
            let mut m = w[j as usize];
            if j == first {
                m &= u64::MAX << (lo % 64);
            }
            if j + 1 == last && !end.is_multiple_of(64) {
                m &= (1 << (end % 64)) - 1;
            }
            (j, m)
        })
    }

    /// Asks for the lines of entries `lo..lo + n` into L2.
    #[inline]
    pub fn prefetch(&self, lo: u64, n: u64) {
        let w = words(&self.buf);
        lines(lo, n).for_each(|i| crate::prefetch::prefetch_l2(w, i));
    }

    /// Asks for the lines of entries `lo..lo + n` into the nearest cache.
    #[inline]
    pub fn prefetch_soon(&self, lo: u64, n: u64) {
        let w = words(&self.buf);
        lines(lo, n).for_each(|i| crate::prefetch::prefetch(w, i));
    }
}

/// A word of each line of the bits of entries `lo..lo + n`.
#[inline(always)]
fn lines(lo: u64, n: u64) -> impl Iterator<Item = usize> {
    (lo / 64..(lo + n).div_ceil(64))
        .step_by(8)
        .map(|w| w as usize)
}

/// The bits from one entry on: a read of any 16-bit offset from it is one byte's load.
#[derive(Clone, Copy)]
pub(super) struct Run<'a> {
    bytes: *const u8,
    shift: u32,
    _b: std::marker::PhantomData<&'a [u64]>,
}

impl<'a> Run<'a> {
    /// Whether entry `start + x` is at the level.
    #[inline(always)]
    pub fn has(self, x: u16) -> bool {
        let i = self.shift as usize + x as usize;
        // SAFETY: `start` is below the table's size and the words hold `PAD_BITS` more
        // bits past it, more than `shift + x`.
        unsafe { *self.bytes.add(i / 8) >> (i % 8) & 1 == 1 }
    }

    /// The 64 bytes from the one holding entry `start`, and the bit of `start` in it:
    /// the bits of entries `start..start + 505` at least.
    #[inline(always)]
    pub fn line(self) -> (&'a [u8; 64], u32) {
        // SAFETY: 64 bytes from `start / 8` lie inside the `PAD_BITS` past `start`, and
        // the bits are borrowed for `'a`.
        (unsafe { &*self.bytes.cast::<[u8; 64]>() }, self.shift)
    }
}

/// ORs into `out`, from its bit 0 on, a bit for each entry of the table's `lines` (a
/// line being eight words) whose code is `code`: 252 bits a line. Run in the widest
/// vectors the processor has (the fill's gathered levels read their target blocks
/// through it, and a pulled level's bits are made by it).
fn lines_as_bits(lines: &[AtomicU64], range: std::ops::Range<usize>, code: u8, out: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { lines_as_bits_avx2(lines, range, code, out) };
    }
    lines_as_bits_in(lines, range, code, out)
}

/// [`lines_as_bits`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lines_as_bits_avx2(
    lines: &[AtomicU64],
    range: std::ops::Range<usize>,
    code: u8,
    out: &mut [u64],
) {
    lines_as_bits_in(lines, range, code, out)
}

/// [`lines_as_bits`]: a line's eight words worked alike (so that they go in vectors),
/// their 252 bits packed into four words, then written.
#[inline(always)]
fn lines_as_bits_in(lines: &[AtomicU64], range: std::ops::Range<usize>, code: u8, out: &mut [u64]) {
    // Two bits equal to `code` in every field of a word.
    let want = code as u64 * 0x5555_5555_5555_5555;
    let mut bit = 0usize;
    for line in range {
        let w: [u64; 8] = std::array::from_fn(|j| lines[line * 8 + j].load(Relaxed));
        // The line's bytes 1 to 63, the codes: 32 entries a word, 28 in the last.
        let v: [u64; 8] = std::array::from_fn(|j| {
            let next = if j < 7 { w[j + 1] << 56 } else { 0 };
            w[j] >> 8 | next
        });
        let m: [u64; 8] = std::array::from_fn(|j| {
            let same = !(v[j] ^ want);
            even_bits(same & same >> 1)
        });
        let packed: [u64; 4] = std::array::from_fn(|k| m[2 * k] | m[2 * k + 1] << 32);
        put(out, &mut bit, packed[0], 64);
        put(out, &mut bit, packed[1], 64);
        put(out, &mut bit, packed[2], 64);
        put(out, &mut bit, packed[3] & ((1 << 60) - 1), 60);
    }
}

/// Writes to `out` a bit for each of the entries `lo..lo + n` of a table of pairs `t`
/// (its start 8-byte aligned): bit `x` for entry `lo + x`, set when its code is `code`.
/// `out` holds at least [`block_words`]`(lo, n)` words; its bits from `n` on are left
/// cleared.
pub(super) fn block_bits(t: &[AtomicU8], lo: u64, n: u64, code: u8, out: &mut [u64]) {
    // SAFETY: `AtomicU64` has the layout of eight `AtomicU8`s; the caller's writes to
    // `t` meanwhile (if any) are to other entries, and atomic either way.
    let (head, lines, _) = unsafe { t.align_to::<AtomicU64>() };
    assert!(head.is_empty(), "a table's start is 8-byte aligned");
    let (first, last) = (lo / PER_LINE, (lo + n).div_ceil(PER_LINE));
    out.fill(0);
    let out = &mut out[..block_words(lo, n)];
    lines_as_bits(lines, first as usize..last as usize, code, out);
    // From the first line's start to `lo`: shifted out.
    let skip = (lo - first * PER_LINE) as usize;
    let (w, b) = (skip / 64, skip % 64);
    for i in 0..out.len() {
        let lo_part = out.get(i + w).map_or(0, |&x| x >> b);
        let hi_part = match (b, out.get(i + w + 1)) {
            (0, _) | (_, None) => 0,
            (_, Some(&x)) => x << (64 - b),
        };
        out[i] = lo_part | hi_part;
    }
    let words = n.div_ceil(64) as usize;
    out[words..].fill(0);
    if !n.is_multiple_of(64) {
        out[words - 1] &= (1 << (n % 64)) - 1;
    }
}

/// The words [`block_bits`] works in for entries `lo..lo + n`: their lines' bits.
pub(super) fn block_words(lo: u64, n: u64) -> usize {
    let (first, last) = (lo / PER_LINE, (lo + n).div_ceil(PER_LINE));
    ((last - first) * PER_LINE).div_ceil(64) as usize
}

/// The bits as words.
fn words(buf: &BigBuf) -> &[u64] {
    // SAFETY: the buffer is 2 MiB aligned, initialised, and a whole number of words.
    unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u64>(), buf.len() / 8) }
}

fn words_mut(buf: &mut BigBuf) -> &mut [u64] {
    // SAFETY: as in `words`, borrowed mutably through the buffer.
    unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<u64>(), buf.len() / 8) }
}

/// The even bits of `m` (bits 0, 2, .. 62), packed into its low 32 bits in order.
#[inline(always)]
fn even_bits(mut m: u64) -> u64 {
    m &= 0x5555_5555_5555_5555;
    m = (m | m >> 1) & 0x3333_3333_3333_3333;
    m = (m | m >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    m = (m | m >> 4) & 0x00ff_00ff_00ff_00ff;
    m = (m | m >> 8) & 0x0000_ffff_0000_ffff;
    (m | m >> 16) & 0xffff_ffff
}

/// Writes the `n` low bits of `v` at bit `*bit` of `out` and moves past them.
#[inline(always)]
fn put(out: &mut [u64], bit: &mut usize, v: u64, n: usize) {
    super::bitset::or_bits(out, *bit, n, v);
    *bit += n;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::pairs;

    /// A table of pairs of `size` entries, codes drawn at random from `seed` (3: left
    /// unreached).
    fn random_codes(size: u64, seed: u64) -> BigBuf {
        let mut buf = BigBuf::new(pairs::bytes(size) as usize, 0xff);
        let t = buf.as_atomic();
        let mut x = seed;
        for i in 0..size {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let code = (x % 4) as u8;
            if code != pairs::UNREACHED {
                pairs::set(t, i, code, 1);
            }
        }
        buf
    }

    #[test]
    fn bits_are_the_entries_of_the_code() {
        // A table of a few lines and a part line.
        let size = 3 * LINES_A_TASK * PER_LINE + 7 * PER_LINE + 100;
        let mut buf = random_codes(size, 0x9e37_79b9_7f4a_7c15);
        let t = buf.as_atomic();
        for code in 0..4 {
            // In fresh memory and in memory used before (set all over).
            let spare = BigBuf::new(LevelBits::bytes(size) as usize + 8, 0xff);
            let spare = (code % 2 == 1).then_some(spare);
            let b = LevelBits::of(t, size, code, spare);
            // What `Run::has`'s unchecked read needs: the pad's bits past the last entry.
            assert!(b.buf.len() as u64 * 8 >= size + PAD_BITS);
            for i in 0..size {
                assert_eq!(b.has(i), pairs::get(t, i) == code, "entry {i}, code {code}");
            }
            // Past the last entry: nothing, as far as a run reads.
            for i in size..size + PAD_BITS {
                assert!(!b.has(i));
            }
            for start in [0, 1, 63, 64, 251, 252, 1000, size - 1] {
                let r = b.run(start);
                for x in [0u16, 1, 7, 8, 251, 252, 4000, u16::MAX] {
                    let i = start + x as u64;
                    let want = i < size && pairs::get(t, i) == code;
                    assert_eq!(r.has(x), want, "start {start}, offset {x}");
                }
            }
        }
    }

    /// Without AVX2 (a processor without it), the same bits as with it.
    #[test]
    fn lines_as_bits_in_any_vectors() {
        let size = 7 * PER_LINE;
        let mut buf = random_codes(size, 0x6a09_e667_f3bc_c908);
        let t = buf.as_atomic();
        // SAFETY: eight `AtomicU8`s make an `AtomicU64`; nothing writes `t` meanwhile.
        let (_, lines, _) = unsafe { t.align_to::<AtomicU64>() };
        for code in 0..4 {
            let (mut a, mut b) = (vec![0u64; 28], vec![0u64; 28]);
            lines_as_bits(lines, 0..7, code, &mut a);
            lines_as_bits_in(lines, 0..7, code, &mut b);
            assert_eq!(a, b, "code {code}");
            for i in 0..size {
                assert_eq!(
                    a[(i / 64) as usize] >> (i % 64) & 1 == 1,
                    pairs::get(t, i) == code
                );
            }
        }
    }

    /// Each block's bits turned, the bits between and after the blocks kept; runs read
    /// from the turned blocks where `line` says (short runs, and the longest).
    #[test]
    fn blocks_turned_in_place() {
        for (rows, cols, blocks) in [(13u64, 37u64, 9u64), (505, 11, 3)] {
            blocks_turned(rows, cols, blocks);
        }
    }

    fn blocks_turned(rows: u64, cols: u64, blocks: u64) {
        let size = blocks * rows * cols + 300;
        let mut buf = random_codes(size, 0x3c6e_f372_fe94_f82b);
        let t = buf.as_atomic();
        let mut b = LevelBits::of(t, size, 1, None);
        b.transpose_blocks(blocks, rows, cols, &Control::default());
        let was = |i: u64| pairs::get(t, i) == 1;
        for k in 0..blocks {
            let base = k * rows * cols;
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(b.has(base + c * rows + r), was(base + r * cols + c));
                }
            }
            for c in 0..cols {
                let (line, shift) = b.run(base + c * rows).line();
                for r in 0..rows {
                    let i = (shift as u64 + r) as usize;
                    assert_eq!(line[i / 8] >> (i % 8) & 1 == 1, was(base + r * cols + c));
                }
            }
        }
        for i in blocks * rows * cols..size {
            assert_eq!(b.has(i), was(i));
        }
    }

    #[test]
    fn the_entries_of_a_span() {
        let size = 5 * PER_LINE + 17;
        let mut buf = random_codes(size, 0x51_7cc1_b727_220a);
        let t = buf.as_atomic();
        let b = LevelBits::of(t, size, 2, None);
        for lo in [0, 1, 63, 64, 65, 130, 251, 700] {
            for n in [0, 1, 2, 63, 64, 65, 128, 300, size - lo] {
                let mut got = Vec::new();
                b.for_each_in(lo, n, |x| got.push(x));
                let want: Vec<u64> = (0..n).filter(|&x| pairs::get(t, lo + x) == 2).collect();
                assert_eq!(got, want, "lo {lo}, n {n}");
                assert_eq!(b.count_in(lo, n), want.len() as u64, "lo {lo}, n {n}");
            }
        }
    }

    #[test]
    fn a_block_as_bits_from_any_entry() {
        // Codes drawn at random over a few lines; blocks starting anywhere in a line,
        // short and over several lines, against the codes read one by one.
        let size = 9 * PER_LINE + 31;
        let mut buf = random_codes(size, 0x2545_f491_4f6c_dd1d);
        let t = buf.as_atomic();
        let mut out = vec![u64::MAX; crate::pdb::entries::bits_words(size)];
        for lo in [0, 1, 3, 63, 64, 65, 200, 251, 252, 253, 600] {
            for n in [1, 5, 64, 100, 251, 252, 700, size - lo] {
                for code in 0..4 {
                    out.fill(u64::MAX);
                    block_bits(t, lo, n, code, &mut out);
                    for r in 0..(n + 200).min(64 * out.len() as u64) {
                        let want = r < n && pairs::get(t, lo + r) == code;
                        let got = out[(r / 64) as usize] >> (r % 64) & 1 == 1;
                        assert_eq!(got, want, "lo {lo}, n {n}, code {code}, entry {r}");
                    }
                }
            }
        }
    }
}
