//! A whole block's mask of orientation parts turned at once, for turns that add the same
//! digits to every part (followed pieces, twist above 2; see [`super::turns`]). A part
//! `o = hi * lo_span + lo` is a row `hi` of `lo_span` bits: a turn sends row `hi` to the
//! row of `hi` plus the turn's high digits, and permutes the bits inside every row alike
//! (plus its low digits), which tables do a byte of a row at a time. A dense block's turn
//! is then a few operations a row rather than a few look-ups an entry.

use super::bitset::{or_bits, read_bits};

/// A table of a row's bit permutation, per low digits added, per byte of the row and per
/// value of that byte: the bits that byte's set bits go to.
pub(super) struct RowTurns {
    lo_span: usize,
    hi_span: usize,
    /// Bytes a row.
    chunks: usize,
    /// `bits[((a * chunks) + c) * 256 + v]`.
    bits: Vec<u64>,
}

/// Rows are at most a word; the tables at most this many words.
const MAX_WORDS: usize = 1 << 17;

impl RowTurns {
    /// From the digit-wise sums of the low digits (`lo[a * lo_span + o]`, `a` and `o`
    /// below `lo_span`), for parts of `hi_span` rows; `None` when a row is longer than a
    /// word or the tables would be large.
    pub(super) fn new(lo: &[u32], lo_span: usize, hi_span: usize) -> Option<RowTurns> {
        let chunks = lo_span.div_ceil(8);
        if lo_span > 64 || lo_span * chunks * 256 > MAX_WORDS {
            return None;
        }
        let mut bits = vec![0u64; lo_span * chunks * 256];
        for a in 0..lo_span {
            for c in 0..chunks {
                for v in 0..256usize {
                    let mut to = 0u64;
                    for k in 0..8 {
                        let o = c * 8 + k;
                        if v >> k & 1 == 1 && o < lo_span {
                            to |= 1 << lo[a * lo_span + o];
                        }
                    }
                    bits[(a * chunks + c) * 256 + v] = to;
                }
            }
        }
        Some(RowTurns {
            lo_span,
            hi_span,
            chunks,
            bits,
        })
    }

    /// `out` (zeroed here) gets bit `hi_to[hi] * lo_span + (lo plus a)` for each bit
    /// `hi * lo_span + lo` of `m`, where `hi_to` is row `hi`'s destination (the high
    /// digits' sums' row of the turn) and `a` the low digits added.
    #[inline]
    pub(super) fn turn(&self, hi_to: &[u32], a: usize, m: &[u64], out: &mut [u64]) {
        out.fill(0);
        let n = self.lo_span;
        let table = &self.bits[a * self.chunks * 256..(a + 1) * self.chunks * 256];
        for (hi, &to) in hi_to[..self.hi_span].iter().enumerate() {
            let mut row = read_bits(m, hi * n, n);
            if row == 0 {
                continue;
            }
            let mut turned = 0;
            let mut c = 0;
            while row != 0 {
                turned |= table[c * 256 + (row & 255) as usize];
                row >>= 8;
                c += 1;
            }
            or_bits(out, to as usize * n, n, turned);
        }
    }
}
