//! How the letters move the entries of a table: [`orbit_maps`] (where each piece goes) and
//! [`OriTurns`] (the orientation part of an index under a letter), for whole blocks of one
//! arrangement at a time; with twist 2 a letter flips a fixed set of orientation bits, so
//! a whole block's bit mask is turned at once ([`xor_mask`]).

use super::Pattern;
use crate::model::{Action, Model};

/// Forward maps of the letters on one orbit: piece at `a` goes to `dest[a]` gaining `add[a]`.
pub(super) fn orbit_maps(
    model: &Model,
    orbit: usize,
    actions: &[Action],
) -> Vec<(Vec<u8>, Vec<u8>)> {
    let o = &model.orbits[orbit];
    actions
        .iter()
        .map(|a| {
            let mut dest = vec![0u8; o.size];
            let mut add = vec![0u8; o.size];
            for b in 0..o.size {
                let src = a.src[o.start + b] as usize - o.start;
                dest[src] = b as u8;
                add[src] = a.add[o.start + b];
            }
            (dest, add)
        })
        .collect()
}

/// How each letter changes the orientation part of an index (see [`Pattern`]): with the
/// followed pieces' orientations, a letter adds to each digit what the piece's location
/// gets (an exclusive or for twist 2); with every location's orientation, it permutes and
/// adds the digits whatever the arrangement (a table per letter).
pub(super) struct OriTurns<'a> {
    p: &'a Pattern,
    /// Per letter, the orientation added at each location.
    add: Vec<Vec<u8>>,
    /// Digits of every orientation part (twist > 2, followed pieces, small spans).
    digits: Vec<u8>,
    /// With every location's orientation: per letter, the new orientation part of each
    /// (empty when the parts are too many: then they are turned one by one).
    tables: Vec<Vec<u32>>,
    dest: Vec<Vec<u8>>,
}

/// One letter's effect on the orientation parts of one block.
pub(super) struct OriTurn {
    letter: usize,
    xor: u64,
    add: [u8; 64],
}

impl Default for OriTurn {
    fn default() -> OriTurn {
        OriTurn {
            letter: 0,
            xor: 0,
            add: [0; 64],
        }
    }
}

impl<'a> OriTurns<'a> {
    pub(super) fn new(p: &'a Pattern, maps: &[(Vec<u8>, Vec<u8>)]) -> OriTurns<'a> {
        let mut turns = OriTurns {
            p,
            add: maps.iter().map(|(_, a)| a.clone()).collect(),
            digits: Vec::new(),
            tables: Vec::new(),
            dest: maps.iter().map(|(d, _)| d.clone()).collect(),
        };
        // Small spans get their turns (or digits) tabulated once, by the digit-by-digit
        // path itself, so the tests against direct searches check both.
        if p.ori_span <= 1 << 20 {
            let mut a = [0u8; 64];
            if p.all_ori {
                turns.tables = (0..maps.len())
                    .map(|l| {
                        let turn = OriTurn {
                            letter: l,
                            ..OriTurn::default()
                        };
                        (0..p.ori_span)
                            .map(|o| turns.apply(&turn, o) as u32)
                            .collect()
                    })
                    .collect();
            } else if p.twist > 2 {
                for o in 0..p.ori_span {
                    p.decode_ori(o, &mut a);
                    turns.digits.extend_from_slice(&a[..p.ori_digits]);
                }
            }
        }
        turns
    }

    /// Prepares letter `l` for a block whose followed pieces are at `loc`.
    #[inline]
    pub(super) fn prepare(&self, l: usize, loc: &[u8], turn: &mut OriTurn) {
        turn.letter = l;
        if self.p.all_ori || self.p.twist == 1 {
            return;
        }
        let add = &self.add[l];
        turn.xor = 0;
        for (i, &w) in self.p.ori_weight.iter().enumerate() {
            let a = add[loc[i] as usize];
            turn.add[i] = a;
            turn.xor |= a as u64 * w;
        }
    }

    /// The orientation part `o` becomes, under the prepared letter.
    #[inline]
    pub(super) fn apply(&self, turn: &OriTurn, o: u64) -> u64 {
        let p = self.p;
        let t = p.twist;
        if t == 1 {
            return 0;
        }
        if p.all_ori {
            if let Some(row) = self.tables.get(turn.letter) {
                return row[o as usize] as u64;
            }
            let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
            p.decode_ori(o, &mut a);
            let (dest, add) = (&self.dest[turn.letter], &self.add[turn.letter]);
            for l in 0..p.ori_len() {
                b[dest[l] as usize] = (a[l] + add[l]) % t;
            }
            return p.encode_ori(&b);
        }
        if t == 2 {
            return o ^ turn.xor;
        }
        let k = p.ori_digits;
        let mut own = [0u8; 64];
        let digits = if self.digits.is_empty() {
            p.decode_ori(o, &mut own);
            &own[..k]
        } else {
            &self.digits[o as usize * k..(o as usize + 1) * k]
        };
        let mut r = 0u64;
        for ((&d, &a), &w) in digits.iter().zip(&turn.add).zip(&p.ori_weight) {
            let mut s = d + a;
            if s >= t {
                s -= t;
            }
            r += s as u64 * w;
        }
        r
    }
}

impl OriTurns<'_> {
    /// True when every letter flips a fixed set of orientation bits (twist 2, the followed
    /// pieces' orientations): a prepared turn is then `o ^ turn.xor`, see [`xor_mask`].
    pub(super) fn flips(&self) -> bool {
        self.p.twist == 2 && !self.p.all_ori
    }

    /// The bits a prepared turn flips (meaningful when [`OriTurns::flips`]).
    #[inline]
    pub(super) fn xor(turn: &OriTurn) -> u64 {
        turn.xor
    }
}

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
/// Bit `i >= 6` of `x` swaps words, a lower one swaps groups of bits within each word.
#[inline]
pub(super) fn xor_mask(src: &[u64], x: u64, out: &mut [u64]) {
    let hi = (x >> 6) as usize;
    let lo = x & 63;
    for (j, o) in out.iter_mut().enumerate() {
        let mut m = src[j ^ hi];
        for (i, &g) in GROUPS.iter().enumerate() {
            if lo >> i & 1 != 0 {
                let s = 1 << i;
                m = (m >> s) & g | (m & g) << s;
            }
        }
        *o = m;
    }
}
