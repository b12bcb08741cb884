//! Part readers over an orbit's cells at once, in one 16-byte register (SSSE3, which the
//! x86-64-v2 build has): the set of locations of a subset of the pieces, and the
//! orientation digits. They give exactly the values of the cell-by-cell readers in
//! `coords.rs` (test `lanes_read_as_the_cells_do`), which stay for the orbits these do not
//! fit (more than 16 locations, cells past 128) and other targets. The search computes
//! a few of these indices a node, most on inverses, which no move table follows.

/// A part reader over one 16-byte load of the state.
#[derive(Clone, Debug)]
pub(super) struct Lanes {
    /// The load starts at byte `at` of the state; the orbit's location `l` is lane
    /// `first + l`.
    at: usize,
    first: u32,
    /// Locations of the orbit.
    n: u32,
    kind: LaneKind,
}

#[derive(Clone, Debug)]
enum LaneKind {
    /// The set of locations of some pieces: a cell `c` is a member when
    /// `low[c & 15] & HIGH[c >> 4] != 0`; its rank from the members' bits, the low
    /// eight locations' share `ranks[m]`, the high ones' `ranks[256 * (1 + below) + m]`.
    Set { low: [u8; 16], ranks: Box<[u16]> },
    /// The orientation digits of a twist-2 orbit: a cell's orientation is its low bit.
    Flips { digits: u32 },
    /// The orientation digits of a small orbit (`digits` at most 8): a cell's orientation
    /// from two 16-entry tables (cells below 16, and from 16 to 31), the digits' value as
    /// pairs (`pair` multipliers, then `weight` a pair).
    Twists {
        below: [u8; 16],
        above: [u8; 16],
        pair: [i8; 16],
        weight: [i16; 8],
    },
}

/// A set's member test by a cell's high nibble: bit `h` for cells `16h..16h + 15` (cells
/// from 128 on are never members).
const HIGH: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// `C(n, k)` for the small `n` of a set's ranks.
fn choose(n: u32, k: u32) -> u32 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u32, |r, i| r * (n - i) / (i + 1))
}

/// The rank share of the members in `m` (bit `l`: location `base + l`) when `below`
/// members are at lower locations: the `j`-th member overall at location `x` adds
/// `C(x, j)` (the combinatorial number system, as `coords.rs` ranks a set).
fn share(m: u32, base: u32, below: u32) -> u16 {
    let (mut bits, mut j, mut r) = (m, below, 0u32);
    while bits != 0 {
        let l = bits.trailing_zeros();
        bits &= bits - 1;
        j += 1;
        r += choose(base + l, j);
    }
    r as u16
}

impl Lanes {
    /// Where a 16-byte load holds the orbit's `n` locations from `start` in a state of
    /// `len` bytes: ending at the orbit's end, else starting at its start.
    fn place(start: usize, n: usize, len: usize) -> Option<(usize, u32)> {
        if n == 0 || n > 16 || start + n > len {
            return None;
        }
        if start + n >= 16 {
            Some((start + n - 16, (16 - n) as u32))
        } else if len >= start + 16 {
            Some((start, 0))
        } else {
            None
        }
    }

    /// The set of the locations holding `member` cells (cells below 128) of an orbit of
    /// `n` locations from `start`.
    pub(super) fn set(
        start: usize,
        n: usize,
        len: usize,
        member: impl Fn(u8) -> bool,
    ) -> Option<Lanes> {
        let (at, first) = Lanes::place(start, n, len)?;
        if !cfg!(all(target_arch = "x86_64", target_feature = "ssse3")) {
            return None;
        }
        let mut low = [0u8; 16];
        for c in 0..=255u8 {
            if member(c) {
                if c >= 128 {
                    return None;
                }
                low[(c & 15) as usize] |= 1 << (c >> 4);
            }
        }
        let mut ranks = vec![0u16; 256 * 10];
        for m in 0..256u32 {
            ranks[m as usize] = share(m, 0, 0);
            for below in 0..9 {
                ranks[256 * (1 + below as usize) + m as usize] = share(m, 8, below);
            }
        }
        let ranks = ranks.into_boxed_slice();
        Some(Lanes {
            at,
            first,
            n: n as u32,
            kind: LaneKind::Set { low, ranks },
        })
    }

    /// The first `digits` orientations of an orbit of `n` locations from `start`, whose
    /// cells are `piece * twist + orientation`, as the digits of a number in base `twist`
    /// (the first the most significant).
    pub(super) fn ori(
        start: usize,
        n: usize,
        len: usize,
        twist: u8,
        digits: usize,
    ) -> Option<Lanes> {
        let (at, first) = Lanes::place(start, n, len)?;
        if !cfg!(all(target_arch = "x86_64", target_feature = "ssse3")) || digits == 0 || digits > n
        {
            return None;
        }
        let kind = if twist == 2 {
            LaneKind::Flips {
                digits: digits as u32,
            }
        } else {
            let t = twist as u32;
            // Pairs of lanes (2j, 2j + 1) times (t, 1), then weighted t^(digits - 2 - 2j);
            // a last odd digit (1, 0), weighted 1. Every weight must fit 16 signed bits.
            if digits > 8 || n * twist as usize > 32 || t.pow(2) > 127 {
                return None;
            }
            let (mut pair, mut weight) = ([0i8; 16], [0i16; 8]);
            for j in 0..digits.div_ceil(2) {
                if 2 * j + 1 < digits {
                    pair[2 * j] = t as i8;
                    pair[2 * j + 1] = 1;
                    weight[j] = i16::try_from(t.pow((digits - 2 - 2 * j) as u32)).ok()?;
                } else {
                    pair[2 * j] = 1;
                    weight[j] = 1;
                }
            }
            let (mut below, mut above) = ([0u8; 16], [0u8; 16]);
            for c in 0..16u8 {
                below[c as usize] = c % twist;
                above[c as usize] = (c + 16) % twist;
            }
            LaneKind::Twists {
                below,
                above,
                pair,
                weight,
            }
        };
        Some(Lanes {
            at,
            first,
            n: n as u32,
            kind,
        })
    }

    /// The part's value in the state `s`.
    #[inline]
    pub(super) fn value(&self, s: &[u8]) -> u64 {
        let bytes: &[u8; 16] = s[self.at..self.at + 16].try_into().unwrap();
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            simd::value(self, bytes)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            // Never built: the constructors refuse off x86-64 with SSSE3.
            let _ = bytes;
            unreachable!()
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod simd {
    use super::{LaneKind, Lanes};
    use std::arch::x86_64::*;

    #[inline]
    #[allow(unused_unsafe)]
    pub(super) fn value(r: &Lanes, bytes: &[u8; 16]) -> u64 {
        // SAFETY: SSE2 and SSSE3 are enabled at compile time (the cfg above); the load
        // reads the 16 bytes of `bytes`, unaligned.
        unsafe {
            let cells = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
            match &r.kind {
                LaneKind::Set { low, ranks } => {
                    let lo = _mm_and_si128(cells, _mm_set1_epi8(15));
                    let hi = _mm_and_si128(_mm_srli_epi16(cells, 4), _mm_set1_epi8(15));
                    let l = _mm_shuffle_epi8(_mm_loadu_si128(low.as_ptr() as *const __m128i), lo);
                    let h = _mm_shuffle_epi8(
                        _mm_loadu_si128(super::HIGH.as_ptr() as *const __m128i),
                        hi,
                    );
                    let none = _mm_cmpeq_epi8(_mm_and_si128(l, h), _mm_setzero_si128());
                    let members = !(_mm_movemask_epi8(none) as u32) & 0xffff;
                    let m = (members >> r.first) & ((1u32 << r.n) - 1);
                    let (m0, m1) = (m & 255, m >> 8);
                    let below = m0.count_ones() as usize;
                    ranks[m0 as usize] as u64 + ranks[256 * (1 + below) + m1 as usize] as u64
                }
                LaneKind::Flips { digits } => {
                    // Bit 0 of each cell to the top of its byte, then one bit a lane.
                    let bits = _mm_movemask_epi8(_mm_slli_epi16(cells, 7)) as u32;
                    let m = (bits >> r.first) & ((1u32 << r.n) - 1);
                    // Location 0 the most significant digit.
                    let rev = (m as u16).reverse_bits() as u32 >> (16 - r.n);
                    (rev >> (r.n - digits)) as u64
                }
                LaneKind::Twists {
                    below,
                    above,
                    pair,
                    weight,
                } => {
                    // The orbit's lanes first (the pairs' multipliers are lane 0 on).
                    let cells = shift_down(cells, r.first);
                    let small = _mm_cmplt_epi8(cells, _mm_set1_epi8(16));
                    let b =
                        _mm_shuffle_epi8(_mm_loadu_si128(below.as_ptr() as *const __m128i), cells);
                    let a = _mm_shuffle_epi8(
                        _mm_loadu_si128(above.as_ptr() as *const __m128i),
                        _mm_sub_epi8(cells, _mm_set1_epi8(16)),
                    );
                    let digits = _mm_or_si128(_mm_and_si128(small, b), _mm_andnot_si128(small, a));
                    let pairs =
                        _mm_maddubs_epi16(digits, _mm_loadu_si128(pair.as_ptr() as *const __m128i));
                    let sums =
                        _mm_madd_epi16(pairs, _mm_loadu_si128(weight.as_ptr() as *const __m128i));
                    let two = _mm_add_epi32(sums, _mm_shuffle_epi32(sums, 0b01_00_11_10));
                    let one = _mm_add_epi32(two, _mm_shuffle_epi32(two, 0b10_11_00_01));
                    _mm_cvtsi128_si32(one) as u32 as u64
                }
            }
        }
    }

    /// The lanes from `first` on moved to lane 0 (zeros after).
    #[inline]
    #[allow(unused_unsafe)]
    fn shift_down(x: __m128i, first: u32) -> __m128i {
        // SAFETY: SSSE3 is enabled at compile time; the shuffle reads only `x` and `idx`.
        unsafe {
            let base = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let idx = _mm_add_epi8(base, _mm_set1_epi8(first as i8));
            // Lanes past 15 select nothing (their high bit is set once above 127, so
            // clear them by comparison instead).
            let keep = _mm_cmplt_epi8(idx, _mm_set1_epi8(16));
            _mm_and_si128(_mm_shuffle_epi8(x, idx), keep)
        }
    }
}
