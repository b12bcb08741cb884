//! Bit matrices transposed: a block of a table whose rest is two parts (`p * cols + c`)
//! turned to `c * rows + p`, so that a pulled level's runs over the first part lie
//! together (`sym_fill_runs.rs`). 64 rows by 64 columns at a time, eight by eight at the
//! edges.

use super::bitset::{or_bits, read_bits};

/// The 8 by 8 bit matrix in `x` (byte `i` row `i`, bit `j` of it column `j`) transposed.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The words [`transpose`] needs for `bits` bits (one past them: an 8-bit write may
/// cross into it).
pub(super) fn words_for(bits: u64) -> usize {
    bits.div_ceil(64) as usize + 1
}

/// The 64 by 64 bit matrix in `a` (word `i` row `i`, bit `j` of it column `j`)
/// transposed in place: halves, then quarters, ... swapped across the diagonal.
#[inline(always)]
fn transpose64(a: &mut [u64; 64]) {
    let (mut j, mut m) = (32, 0x0000_0000_FFFF_FFFFu64);
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            for i in k..k + j {
                let t = ((a[i] >> j) ^ a[i + j]) & m;
                a[i] ^= t << j;
                a[i + j] ^= t;
            }
            k += 2 * j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Writes to `dst` (cleared first; [`words_for`]`(rows * cols)` words) the transpose of
/// the `rows` by `cols` bit matrix `src` (bit `r * cols + c` goes to `c * rows + r`):
/// 64 by 64 tiles, and 8 by 8 where a tile has 8 rows or columns or fewer.
pub(super) fn transpose(src: &[u64], rows: usize, cols: usize, dst: &mut [u64]) {
    dst.fill(0);
    let mut a = [0u64; 64];
    for r0 in (0..rows).step_by(64) {
        let rn = (rows - r0).min(64);
        for c0 in (0..cols).step_by(64) {
            let cn = (cols - c0).min(64);
            if rn <= 8 || cn <= 8 {
                small_tile(src, (rows, cols), (r0, rn), (c0, cn), dst);
                continue;
            }
            let mut any = 0;
            for (i, x) in a.iter_mut().enumerate().take(rn) {
                *x = read_bits(src, (r0 + i) * cols + c0, cn);
                any |= *x;
            }
            a[rn..].fill(0);
            if any == 0 {
                continue;
            }
            transpose64(&mut a);
            for (j, &x) in a.iter().enumerate().take(cn) {
                if x != 0 {
                    or_bits(dst, (c0 + j) * rows + r0, rn, x);
                }
            }
        }
    }
}

/// [`transpose`] of one tile of `rn` rows from `r0` and `cn` columns from `c0`, 8 by 8.
fn small_tile(
    src: &[u64],
    (rows, cols): (usize, usize),
    (r0, rn): (usize, usize),
    (c0, cn): (usize, usize),
    dst: &mut [u64],
) {
    for r8 in (r0..r0 + rn).step_by(8) {
        let r8n = (r0 + rn - r8).min(8);
        for c8 in (c0..c0 + cn).step_by(8) {
            let c8n = (c0 + cn - c8).min(8);
            let mut x = 0u64;
            for i in 0..r8n {
                x |= read_bits(src, (r8 + i) * cols + c8, c8n) << (8 * i);
            }
            if x == 0 {
                continue;
            }
            let y = transpose8(x);
            for j in 0..c8n {
                let v = (y >> (8 * j)) & 0xFF;
                if v != 0 {
                    or_bits(dst, (c8 + j) * rows + r8, r8n, v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn bit(w: &[u64], i: usize) -> bool {
        w[i / 64] >> (i % 64) & 1 == 1
    }

    /// Every bit lands where the plain definition puts it, for shapes with and without
    /// whole tiles, and transposing twice gives the matrix back.
    #[test]
    fn a_transpose_moves_each_bit_to_its_place() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for (rows, cols) in [
            (8, 8),
            (70, 2187),
            (2187, 70),
            (3, 5),
            (17, 9),
            (1, 64),
            (64, 1),
            (121, 13),
            (64, 64),
            (130, 200),
        ] {
            let n = rows * cols;
            let mut src = vec![0u64; words_for(n as u64)];
            for i in 0..n {
                if rng.gen_bool(0.4) {
                    src[i / 64] |= 1 << (i % 64);
                }
            }
            let mut dst = vec![u64::MAX; words_for(n as u64)];
            transpose(&src, rows, cols, &mut dst);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(
                        bit(&dst, c * rows + r),
                        bit(&src, r * cols + c),
                        "{rows}x{cols}"
                    );
                }
            }
            assert_eq!(
                dst.iter().map(|w| w.count_ones()).sum::<u32>(),
                src.iter().map(|w| w.count_ones()).sum::<u32>()
            );
            let mut back = vec![0u64; words_for(n as u64)];
            transpose(&dst, cols, rows, &mut back);
            assert_eq!(back, src);
        }
    }
}
