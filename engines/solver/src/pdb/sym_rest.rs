//! Where a letter sends a rest value of a table reduced by symmetries
//! ([`super::symmetric`]), carried by a symmetry: the fill's ([`super::sym_fill`]) inner
//! step. One table a letter and symmetry when small enough, else one a part.

use super::coords::MAX_PARTS;
use super::symmetric::Reduction;

/// The rest's moves carried by every symmetry are tabulated up to this many entries (each
/// way). Beyond, each part's are ([`PartsNext`]: nxopt's table's rest, 70 sets of the
/// corners with their twists, would take 44 M entries for the 18 letters of htm and 16
/// symmetries, and 110 M for the 45 of atm; its parts take 0.7 M and 1.6 M).
pub(super) const MAX_NEXT: u64 = 1 << 24;

/// The first of two rest parts is kept alone ([`PartsNext::first_row`]) up to this many
/// values: a pull across runs (`sym_fill_runs.rs`) permutes them in one vector of bits.
pub(super) const FIRST_MOST: usize = 512;

/// The rest's moves carried by every symmetry, part by part: a rest value is split into
/// its parts' values (a division by a constant each, as a multiplication), each part's
/// moved and carried value read from its table, premultiplied by the part's place value.
pub(super) struct PartsNext {
    /// The rest parts, slowest first.
    parts: Vec<PartNext>,
    /// With two parts, the first one's values alone (not times its place value), a row
    /// per letter and symmetry padded to a multiple of 64, when they are at most
    /// [`FIRST_MOST`] (else empty; see [`PartsNext::first_row`]).
    first: Vec<u16>,
    /// The last part's table in 16 bits when its place value is 1 and its values fit
    /// (else empty): a pull reads one of its rows an entry, and half the bytes keep more
    /// of them in the nearest caches. Its rows are a power of two long (a row's index
    /// masked needs no bounds check).
    last: Vec<u16>,
}

/// One rest part's moves carried by every symmetry (see [`PartsNext`]).
pub(super) struct PartNext {
    /// Its place value, and `2^64 / w` rounded up (0 when `w` is 1).
    w: u32,
    m: u64,
    /// Its number of values.
    n: usize,
    /// `t[(l * syms + s) * n + v]`: value `v` moved by letter `l`, carried by symmetry
    /// `s`, times `w`.
    t: Vec<u32>,
}

impl PartsNext {
    /// Where letter `l` sends rest value `r`, carried by symmetry `s` (of `syms`).
    #[inline(always)]
    pub(super) fn to(&self, l: usize, s: usize, syms: usize, r: u32) -> u64 {
        let mut r = r;
        self.parts.iter().map(|p| p.to(l, s, syms, &mut r)).sum()
    }

    /// The values of the last part when its place value is 1 (rest values then come in
    /// runs of that many with the same other parts).
    pub(super) fn run(&self) -> Option<u32> {
        let last = self.parts.last()?;
        (!self.last.is_empty()).then_some(last.n as u32)
    }

    /// The first part's values, when the rest has two parts and goes by runs of the
    /// last (a rest value is then `p * run + c`).
    pub(super) fn first_len(&self) -> Option<u32> {
        (!self.first.is_empty() && !self.last.is_empty()).then(|| self.parts[0].n as u32)
    }

    /// Value `p`: where letter `l` sends the first part's value `p`, carried by symmetry
    /// `s` (see [`PartsNext::first_len`]; 0 past its values, up to the row's length, a
    /// multiple of 64). Made once for every letter and symmetry, when the first part has
    /// at most [`FIRST_MOST`] values.
    #[inline(always)]
    pub(super) fn first_row(&self, l: usize, s: usize, syms: usize) -> &[u16] {
        let n = self.parts[0].n.next_multiple_of(64);
        &self.first[(l * syms + s) * n..][..n]
    }

    /// [`PartsNext::to`] of the parts before the last (rest value `r`).
    #[inline(always)]
    pub(super) fn to_prefix(&self, l: usize, s: usize, syms: usize, r: u32) -> u64 {
        let mut r = r;
        let prefix = &self.parts[..self.parts.len() - 1];
        prefix.iter().map(|p| p.to(l, s, syms, &mut r)).sum()
    }

    /// The last part's values moved by letter `l` and carried by symmetry `s` (when
    /// [`PartsNext::run`] says runs).
    #[inline(always)]
    pub(super) fn last_row(&self, l: usize, s: usize, syms: usize) -> LastRow<'_> {
        let n = self
            .parts
            .last()
            .expect("a rest part")
            .n
            .next_power_of_two();
        LastRow::new(&self.last[(l * syms + s) * n..][..n])
    }
}

/// A row of [`PartsNext`]'s last part: a power of two long, read at an index masked to
/// it, without a bounds check.
#[derive(Clone, Copy)]
pub(super) struct LastRow<'a>(&'a [u16]);

impl<'a> LastRow<'a> {
    #[inline(always)]
    fn new(row: &'a [u16]) -> LastRow<'a> {
        assert!(row.len().is_power_of_two());
        LastRow(row)
    }

    /// The value at `i` (which the masking keeps only when below the row's length).
    #[inline(always)]
    pub(super) fn get(self, i: u32) -> u16 {
        debug_assert!((i as usize) < self.0.len());
        // SAFETY: the length is a power of two, so the mask keeps the index below it.
        unsafe { *self.0.get_unchecked(i as usize & (self.0.len() - 1)) }
    }
}

impl PartNext {
    /// This part's share of where letter `l` sends the rest whose value from this part on
    /// is `r`, carried by symmetry `s`; `r` keeps the parts after it.
    #[inline(always)]
    fn to(&self, l: usize, s: usize, syms: usize, r: &mut u32) -> u64 {
        // Lemire's division of a 32-bit value by `w` through `m`: exact for every 32-bit
        // `r`. The last part's place value is 1 (and a part whose later parts have one
        // value each).
        let v = if self.w == 1 {
            *r
        } else {
            ((self.m as u128 * *r as u128) >> 64) as u32
        };
        *r -= v * self.w;
        self.t[(l * syms + s) * self.n + v as usize] as u64
    }
}

/// Forward and back (`moves`: per part, where each of `letters` letters sends each value,
/// and where it comes from): `t[(l * syms + s) * rest + r]`, the rest `r` moved by letter
/// `l` and carried by symmetry `s`; none past [`MAX_NEXT`] entries.
pub(super) fn whole(
    red: &Reduction,
    moves: [&[Vec<u32>]; 2],
    letters: usize,
) -> Option<[Vec<u32>; 2]> {
    let (rest, syms, l_n) = (red.rest_size, red.syms as u64, letters as u64);
    if rest * syms * l_n > MAX_NEXT {
        return None;
    }
    let (_, rest_parts) = red.split();
    let mut out = [Vec::new(), Vec::new()];
    for (dir, moves) in moves.into_iter().enumerate() {
        let t = &mut out[dir];
        t.resize((rest * syms * l_n) as usize, 0);
        let mut v = [0u32; MAX_PARTS];
        for r in 0..rest {
            red.rest_values(r, &mut v);
            for l in 0..l_n as usize {
                let mut w = v;
                for &p in rest_parts {
                    w[p] = moves[p][v[p] as usize * l_n as usize + l];
                }
                for s in 0..syms as usize {
                    let i = ((l as u64 * syms + s as u64) * rest + r) as usize;
                    t[i] = red.conj_rest_values(&w, s) as u32;
                }
            }
        }
    }
    Some(out)
}

/// The same part by part (see [`PartsNext`]), when the rest's values fit in 32 bits and
/// the tables in [`MAX_NEXT`] entries.
pub(super) fn by_parts(
    red: &Reduction,
    moves: [&[Vec<u32>]; 2],
    letters: usize,
) -> Option<[PartsNext; 2]> {
    let (syms, l_n) = (red.syms, letters);
    let (_, rest_parts) = red.split();
    let (weights, sizes) = red.rest_radix();
    let entries: u64 = sizes.iter().map(|&n| n * (syms * l_n) as u64).sum();
    if red.rest_size > u32::MAX as u64 || entries > MAX_NEXT {
        return None;
    }
    let one = |moves: &[Vec<u32>]| {
        let parts: Vec<PartNext> = (rest_parts.iter().zip(weights.iter().zip(sizes)))
            .enumerate()
            .map(|(i, (&p, (&w, &n)))| {
                let mut t = vec![0u32; (n as usize) * syms * l_n];
                for l in 0..l_n {
                    for s in 0..syms {
                        for v in 0..n as usize {
                            let moved = moves[p][v * l_n + l];
                            t[(l * syms + s) * n as usize + v] =
                                red.conj_part(i, moved, s) * w as u32;
                        }
                    }
                }
                PartNext {
                    w: w as u32,
                    m: if w > 1 { u64::MAX / w + 1 } else { 0 },
                    n: n as usize,
                    t,
                }
            })
            .collect();
        let last = match parts.last() {
            Some(p) if p.w == 1 && p.n <= 1 << 16 => {
                let stride = p.n.next_power_of_two();
                let mut last = vec![0u16; p.t.len() / p.n * stride];
                for (row, t) in last.chunks_mut(stride).zip(p.t.chunks(p.n)) {
                    row.iter_mut().zip(t).for_each(|(x, &v)| *x = v as u16);
                }
                last
            }
            _ => Vec::new(),
        };
        let first = match &parts[..] {
            [f, _] if f.n <= FIRST_MOST => {
                let stride = f.n.next_multiple_of(64);
                let mut first = vec![0u16; f.t.len() / f.n * stride];
                for (row, t) in first.chunks_mut(stride).zip(f.t.chunks(f.n)) {
                    row.iter_mut()
                        .zip(t)
                        .for_each(|(x, &v)| *x = (v / f.w) as u16);
                }
                first
            }
            _ => Vec::new(),
        };
        PartsNext { parts, first, last }
    };
    Some([one(moves[0]), one(moves[1])])
}
