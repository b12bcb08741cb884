//! [`xor_mask`]: a block's bit mask turned by a letter that flips orientation bits (twist
//! 2): bit `o` goes to `o ^ x`. The fills spend much of their time here, so 128 bits at a
//! time with byte shuffles where the processor has them (SSSE3, in x86-64-v2), by shifts
//! otherwise.

/// Groups of `1 << i` bits at even positions, for swapping neighbouring groups.
const GROUPS: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

/// `out` gets bit `o ^ x` for each bit `o` of `src`: the mask of a block (span a power of
/// two, `x` below it) turned by a letter that flips the bits `x` of the orientation part.
#[inline]
pub(super) fn xor_mask(src: &[u64], x: u64, out: &mut [u64]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    if src.len() >= 2 {
        simd::xor_mask(src, x, out);
        return;
    }
    xor_mask_words(src, x, out);
}

/// [`xor_mask`] a word at a time: bit `i >= 6` of `x` swaps words, a lower one swaps
/// groups of bits within each word.
#[inline]
fn xor_mask_words(src: &[u64], x: u64, out: &mut [u64]) {
    let hi = (x >> 6) as usize;
    let lo = x & 63;
    for (j, o) in out.iter_mut().enumerate() {
        let mut m = src[j ^ hi];
        // Without branches: the bits of `x` are as good as random.
        for (i, &g) in GROUPS.iter().enumerate() {
            let s = 1 << i;
            let swapped = (m >> s) & g | (m & g) << s;
            let take = 0u64.wrapping_sub(lo >> i & 1);
            m ^= (m ^ swapped) & take;
        }
        *o = m;
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod simd {
    use std::arch::x86_64::*;

    /// Per low three bits of `x`: where the bits of a low nibble and of a high nibble go
    /// within their byte (a permutation is the OR of its parts).
    const NIBBLES: [[[u8; 16]; 2]; 8] = {
        let mut t = [[[0u8; 16]; 2]; 8];
        let mut x = 0;
        while x < 8 {
            let mut n = 0;
            while n < 16 {
                let mut b = 0;
                while b < 4 {
                    if n >> b & 1 != 0 {
                        t[x][0][n] |= 1 << (b ^ x);
                        t[x][1][n] |= 1 << ((b + 4) ^ x);
                    }
                    b += 1;
                }
                n += 1;
            }
            x += 1;
        }
        t
    };

    /// Lanes of 128 bits: bits 7 and up of `x` swap lanes, bits 3 to 6 swap bytes (one
    /// shuffle), bits 0 to 2 move bits within bytes (a shuffle per nibble).
    #[inline]
    pub(super) fn xor_mask(src: &[u64], x: u64, out: &mut [u64]) {
        debug_assert!(src.len().is_multiple_of(2) && out.len() == src.len());
        let hi = (x >> 7) as usize;
        let tables = &NIBBLES[(x & 7) as usize];
        // SAFETY: SSSE3 is enabled at compile time; loads and stores are unaligned, of two
        // words within the slices (lane `j ^ hi` exists: `x` is below the span).
        unsafe {
            let order = _mm_xor_si128(
                _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                _mm_set1_epi8(((x >> 3) & 15) as i8),
            );
            let low = _mm_loadu_si128(tables[0].as_ptr() as *const __m128i);
            let high = _mm_loadu_si128(tables[1].as_ptr() as *const __m128i);
            let nib = _mm_set1_epi8(15);
            for j in 0..src.len() / 2 {
                let v = _mm_loadu_si128(src.as_ptr().add(2 * (j ^ hi)) as *const __m128i);
                let v = _mm_shuffle_epi8(v, order);
                let lo = _mm_and_si128(v, nib);
                let hn = _mm_and_si128(_mm_srli_epi16(v, 4), nib);
                let r = _mm_or_si128(_mm_shuffle_epi8(low, lo), _mm_shuffle_epi8(high, hn));
                _mm_storeu_si128(out.as_mut_ptr().add(2 * j) as *mut __m128i, r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn masks_are_flipped(
            m in 0u32..=4,
            x in any::<u64>(),
            src in proptest::collection::vec(any::<u64>(), 32),
        ) {
            // Spans of 128 to 2048 bits (two to 32 words) against the bits one by one, and
            // the word-at-a-time path against the same.
            let words = 2usize << m;
            let x = x % (64 * words as u64);
            let src = &src[..words];
            let mut want = vec![0u64; words];
            for o in 0..64 * words as u64 {
                if src[(o >> 6) as usize] >> (o & 63) & 1 != 0 {
                    let t = o ^ x;
                    want[(t >> 6) as usize] |= 1 << (t & 63);
                }
            }
            let mut got = vec![0u64; words];
            xor_mask(src, x, &mut got);
            prop_assert_eq!(&got, &want);
            xor_mask_words(src, x, &mut got);
            prop_assert_eq!(&got, &want);
        }

        #[test]
        fn small_masks_are_flipped(m in 0u32..=6, x in any::<u64>(), src in any::<u64>()) {
            // Spans of one to 64 bits: one word, the bits past the span clear.
            let span = 1u64 << m;
            let (x, src) = (x % span, if span == 64 { src } else { src & ((1 << span) - 1) });
            let mut want = 0u64;
            for o in 0..span {
                want |= (src >> o & 1) << (o ^ x);
            }
            let mut got = [0u64];
            xor_mask(&[src], x, &mut got);
            prop_assert_eq!(got[0], want);
        }
    }
}
