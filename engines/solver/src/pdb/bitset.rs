//! [`Bitset`]: one bit an entry of a table, shared by the threads of a fill, in huge
//! pages. A block of a table (the entries of one arrangement) is read into a local mask and
//! ORed back from one at any bit offset, so a fill handles a block's entries a word at a
//! time, and its random reads are an eighth of a byte table's.

use crate::bigbuf::BigBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words past the end, so that reading or ORing a whole mask at the last block stays in
/// bounds (the bits there are always zero).
const PAD: usize = 4;

pub(super) struct Bitset {
    /// Owns the words.
    _buf: BigBuf,
    words: *const AtomicU64,
    len: usize,
}

// SAFETY: the words are atomics, reached only through `words()`.
unsafe impl Send for Bitset {}
unsafe impl Sync for Bitset {}

impl Bitset {
    /// `bits` zero bits.
    pub fn new(bits: u64) -> Bitset {
        let mut buf = BigBuf::new(Bitset::bytes(bits) as usize, 0);
        let len = buf.len() / 8;
        let words = buf.as_atomic().as_ptr() as *const AtomicU64;
        Bitset {
            _buf: buf,
            words,
            len,
        }
    }

    /// Bytes a set of `bits` takes.
    pub fn bytes(bits: u64) -> u64 {
        (bits.div_ceil(64) + PAD as u64) * 8
    }

    #[inline]
    pub fn words(&self) -> &[AtomicU64] {
        // SAFETY: the buffer is 2 MiB aligned, `len * 8` bytes long and owned by `self`;
        // `AtomicU64` has the size of `u64`, and the bytes are only reached as these atomics.
        unsafe { std::slice::from_raw_parts(self.words, self.len) }
    }

    /// Clears the words holding bits `lo..hi` (`lo` a multiple of 64).
    pub fn clear_range(&self, lo: u64, hi: u64) {
        for w in &self.words()[(lo >> 6) as usize..hi.div_ceil(64) as usize] {
            w.store(0, Relaxed);
        }
    }

    /// Clears every bit, on all threads.
    pub fn clear(&self) {
        use rayon::prelude::*;
        self.words()
            .par_chunks(1 << 15)
            .for_each(|c| c.iter().for_each(|w| w.store(0, Relaxed)));
    }

    /// Asks for the word holding bit `start` ahead of a [`Bitset::read`].
    #[inline]
    pub fn prefetch(&self, start: u64) {
        crate::prefetch::prefetch(self.words(), (start >> 6) as usize);
    }

    /// The mask of `out.len() * 64` bits from bit `start` (the caller clears what lies
    /// past its block).
    #[inline]
    pub fn read(&self, start: u64, out: &mut [u64]) {
        let w = self.words();
        let (w0, sh) = ((start >> 6) as usize, start & 63);
        if sh == 0 {
            for (j, o) in out.iter_mut().enumerate() {
                *o = w[w0 + j].load(Relaxed);
            }
        } else {
            let mut lo = w[w0].load(Relaxed);
            for (j, o) in out.iter_mut().enumerate() {
                let hi = w[w0 + j + 1].load(Relaxed);
                *o = lo >> sh | hi << (64 - sh);
                lo = hi;
            }
        }
    }

    /// Sets the bits of `mask` at bit `start` on, leaving out those set in `except`;
    /// returns how many were not set before.
    #[inline]
    pub fn or(&self, start: u64, mask: &[u64], except: &Bitset) -> u64 {
        let (w, e) = (self.words(), except.words());
        let (w0, sh) = ((start >> 6) as usize, start & 63);
        let mut newly = 0;
        let mut put = |i: usize, bits: u64| {
            if bits == 0 {
                return;
            }
            let bits = bits & !e[i].load(Relaxed);
            if bits & !w[i].load(Relaxed) != 0 {
                newly += (bits & !w[i].fetch_or(bits, Relaxed)).count_ones() as u64;
            }
        };
        for (j, &m) in mask.iter().enumerate() {
            if m == 0 {
                continue;
            }
            if sh == 0 {
                put(w0 + j, m);
            } else {
                put(w0 + j, m << sh);
                put(w0 + j + 1, m >> (64 - sh));
            }
        }
        newly
    }
}

/// The mask of bits `lo..hi` of a block of `span` bits (`words` words).
pub(super) fn window(span: u64, lo: u64, hi: u64, out: &mut [u64]) {
    debug_assert!(lo <= hi && hi <= span);
    for (j, o) in out.iter_mut().enumerate() {
        let (a, b) = ((j as u64 * 64).max(lo), ((j as u64 + 1) * 64).min(hi));
        *o = if a >= b {
            0
        } else {
            let n = b - a;
            let ones = if n == 64 { !0 } else { (1u64 << n) - 1 };
            ones << (a - j as u64 * 64)
        };
    }
}

/// Bits `o..o + 64` of `marks` (0 where `marks` has none, below 0 too).
#[inline(always)]
pub(super) fn bits_at(marks: &[u64], o: i64) -> u64 {
    if o <= -64 {
        return 0;
    }
    if o < 0 {
        return marks.first().map_or(0, |&m| m << -o);
    }
    let (w, s) = ((o / 64) as usize, (o % 64) as u32);
    let at = |w: usize| marks.get(w).copied().unwrap_or(0);
    match s {
        0 => at(w),
        _ => at(w) >> s | at(w + 1) << (64 - s),
    }
}

/// The `n` bits (at most 64) of `words` from bit `at`.
#[inline(always)]
pub(super) fn read_bits(words: &[u64], at: usize, n: usize) -> u64 {
    let v = bits_at(words, at as i64);
    if n < 64 {
        v & ((1 << n) - 1)
    } else {
        v
    }
}

/// `v` (of `n` bits, at most 64) ORed into `words` from bit `at`.
#[inline(always)]
pub(super) fn or_bits(words: &mut [u64], at: usize, n: usize, v: u64) {
    let (w, s) = (at / 64, at % 64);
    words[w] |= v << s;
    if s + n > 64 {
        words[w + 1] |= v >> (64 - s);
    }
}

/// How many bits of `words` are set.
pub(super) fn count_ones(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

/// The positions of the set bits of a mask.
#[inline]
pub(super) fn ones(mask: &[u64]) -> impl Iterator<Item = u64> + '_ {
    mask.iter().enumerate().flat_map(|(j, &m)| {
        let mut m = m;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let b = m.trailing_zeros() as u64;
                m &= m - 1;
                j as u64 * 64 + b
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_read_and_ored_across_words() {
        let mut w = vec![0u64; 3];
        or_bits(&mut w, 60, 27, (1 << 27) - 1);
        assert_eq!(w, vec![0xf << 60, (1 << 23) - 1, 0]);
        assert_eq!(read_bits(&w, 60, 27), (1 << 27) - 1);
        assert_eq!(read_bits(&w, 59, 27), ((1 << 27) - 1) & !1);
        or_bits(&mut w, 128, 64, u64::MAX);
        assert_eq!(read_bits(&w, 128, 64), u64::MAX);
    }
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn masks_read_what_was_ored(
            start in 0u64..300,
            mask in proptest::collection::vec(any::<u64>(), 1..5),
            except in any::<u64>(),
        ) {
            // Against a plain vector of bools.
            let bits = 600u64;
            let set = Bitset::new(bits);
            let ex = Bitset::new(bits);
            ex.words()[(start >> 6) as usize].store(except, Relaxed);
            let mut want = vec![false; 600 + 64 * 6];
            let n = set.or(start, &mask, &ex);
            let mut count = 0;
            for (j, &m) in mask.iter().enumerate() {
                for b in 0..64 {
                    let i = start as usize + j * 64 + b;
                    let excluded = i >> 6 == (start >> 6) as usize && except >> (i & 63) & 1 == 1;
                    if m >> b & 1 == 1 && !excluded {
                        want[i] = true;
                        count += 1;
                    }
                }
            }
            prop_assert_eq!(n, count);
            let mut got = vec![0u64; mask.len()];
            set.read(start, &mut got);
            for (j, &g) in got.iter().enumerate() {
                for b in 0..64 {
                    prop_assert_eq!(g >> b & 1 == 1, want[start as usize + j * 64 + b]);
                }
            }
        }
    }

    #[test]
    fn windows_cover_their_range() {
        let mut m = [0u64; 3];
        window(150, 10, 140, &mut m);
        assert_eq!(m[0], !0 << 10);
        assert_eq!(m[1], !0);
        assert_eq!(m[2], (1 << 12) - 1);
        window(150, 70, 70, &mut m);
        assert_eq!(m, [0, 0, 0]);
    }
}
