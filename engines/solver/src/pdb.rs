//! Pattern databases: exact distances (in the metric) of the positions of a subset of one
//! orbit's pieces, a lower bound for the whole puzzle.
//!
//! A [`Pattern`] follows `k` pieces of an orbit: their locations (an arrangement,
//! `n!/(n-k)!`) and orientations (`twist^k`, or `twist^(k-1)` for a whole orbit whose
//! orientation sum every move keeps). [`Heuristic::build`] chooses, for each orbit some
//! letter moves, the largest pieces-per-table that covers the orbit within the memory
//! budget, fills the tables breadth-first in parallel (forward while the frontier is
//! small, backward later) and caches them on disk, keyed by a hash of the puzzle, the
//! metric and the pattern.

use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::metric::Metric;
use crate::model::{Action, Model};
use puz_core::Control;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// The pieces of one orbit a table follows.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub orbit: usize,
    pub pieces: Vec<u8>,
    /// Orbit size and twist.
    pub n: usize,
    pub twist: u8,
    /// True: the table also holds the orientation at every location of the orbit (whichever
    /// piece is there), not only the followed pieces' orientations.
    pub all_ori: bool,
    /// Orientation digits stored (`k` or `k - 1`; with `all_ori`, `n` or `n - 1`).
    pub ori_digits: usize,
    /// Entries in the table.
    pub size: u64,
    /// `ori[cell]`: the orientation in a cell.
    ori: Vec<u8>,
    start: usize,
    /// Place values of the arrangement digits and of the orientation digits (the index is
    /// `sum(digit * weight)`, the same number as Horner's rule over the digits).
    perm_weight: Vec<u64>,
    ori_weight: Vec<u64>,
    /// `twist^ori_digits`.
    ori_span: u64,
    /// For [`Pattern::index`], in one pass over the cells without branches: `code[cell]`
    /// is the followed piece in the cell or `k` (none), and `per[i]` is, for piece `i`
    /// (`per[k]` all zero): its arrangement weight, the mask of the pieces before it,
    /// its own bit, and its orientation weight (0 unless stored by piece).
    code: Vec<u8>,
    per: Vec<[u64; 4]>,
    /// The orientation weight of each location (0 unless stored by location).
    loc_ori_weight: Vec<u64>,
}

/// Where every piece is: `loc[start + piece]` and `ori[start + piece]` (orbit `start`).
pub struct Located {
    pub loc: Vec<u8>,
    pub ori: Vec<u8>,
}

/// Finds where every piece of a byte state is, once for all the tables.
pub struct Locator {
    /// (start, size) of each orbit, and its cells split: `split[o][cell]` is (piece,
    /// orientation). A table rather than a division per cell: the division stood out in a
    /// profile of the search, though removing it gained little (51.6 s against 52.5 s on
    /// the atm superflip), its latency being hidden behind the table reads.
    orbits: Vec<(usize, usize)>,
    split: Vec<Vec<(u8, u8)>>,
    n: usize,
}

impl Locator {
    pub fn new(model: &Model) -> Locator {
        Locator {
            orbits: model.orbits.iter().map(|o| (o.start, o.size)).collect(),
            split: model
                .orbits
                .iter()
                .map(|o| {
                    let t = o.twist as usize;
                    (0..o.size * t)
                        .map(|c| ((c / t) as u8, (c % t) as u8))
                        .collect()
                })
                .collect(),
            n: model.n,
        }
    }

    pub fn buffer(&self) -> Located {
        Located {
            loc: vec![0; self.n],
            ori: vec![0; self.n],
        }
    }

    #[inline]
    pub fn locate(&self, s: &[u8], out: &mut Located) {
        for (&(start, size), split) in self.orbits.iter().zip(&self.split) {
            for l in 0..size {
                let (piece, ori) = split[s[start + l] as usize];
                out.loc[start + piece as usize] = l as u8;
                out.ori[start + piece as usize] = ori;
            }
        }
    }
}

fn arrangements(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

impl Pattern {
    pub fn new(model: &Model, orbit: usize, pieces: Vec<u8>) -> Pattern {
        Pattern::with_orientations(model, orbit, pieces, false)
    }

    /// A pattern following `pieces`; with `all_ori` also the orientation at every location
    /// (the orbit must have at most 63 locations).
    pub fn with_orientations(
        model: &Model,
        orbit: usize,
        pieces: Vec<u8>,
        all_ori: bool,
    ) -> Pattern {
        let o = &model.orbits[orbit];
        let all_ori = all_ori && o.twist > 1 && o.size <= 63;
        let k = if all_ori { o.size } else { pieces.len() };
        let ori_digits = if o.twist == 1 {
            0
        } else if k == o.size && o.ori_sum_fixed {
            k - 1
        } else {
            k
        };
        let k = pieces.len();
        let size = arrangements(o.size, k) * (o.twist as u64).pow(ori_digits as u32);
        let t = o.twist as usize;
        let mut slot = vec![255u8; o.size * t];
        for (i, &p) in pieces.iter().enumerate() {
            for k in 0..t {
                slot[p as usize * t + k] = i as u8;
            }
        }
        let ori = (0..o.size * t).map(|c| (c % t) as u8).collect();
        let perm_weight: Vec<u64> = (0..k)
            .map(|i| (i + 1..k).map(|j| (o.size - j) as u64).product())
            .collect();
        let ori_weight: Vec<u64> = (0..ori_digits)
            .map(|i| (o.twist as u64).pow((ori_digits - 1 - i) as u32))
            .collect();
        let code: Vec<u8> = slot
            .iter()
            .map(|&i| if i == 255 { k as u8 } else { i })
            .collect();
        let mut per: Vec<[u64; 4]> = (0..k)
            .map(|i| {
                let w = if !all_ori && i < ori_digits {
                    ori_weight[i]
                } else {
                    0
                };
                [perm_weight[i], (1u64 << i) - 1, 1u64 << i, w]
            })
            .collect();
        per.push([0; 4]);
        let loc_ori_weight = (0..o.size)
            .map(|l| {
                if all_ori && l < ori_digits {
                    ori_weight[l]
                } else {
                    0
                }
            })
            .collect();
        Pattern {
            code,
            per,
            loc_ori_weight,
            ori_span: (o.twist as u64).pow(ori_digits as u32),
            perm_weight,
            ori_weight,
            ori,
            orbit,
            pieces,
            n: o.size,
            twist: o.twist,
            all_ori,
            ori_digits,
            size,
            start: o.start,
        }
    }

    /// The index of a full byte state whose pieces have been located: the same number as
    /// [`Pattern::index`], with independent multiply-adds instead of a chain.
    #[inline]
    pub fn index_located(&self, s: &[u8], w: &Located) -> u64 {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &p) in self.pieces.iter().enumerate() {
            let l = w.loc[self.start + p as usize];
            let below = (used & ((1u64 << l) - 1)).count_ones() as u8;
            r += (l - below) as u64 * self.perm_weight[i];
            used |= 1 << l;
        }
        let mut o = 0u64;
        if self.all_ori {
            let cells = &s[self.start..self.start + self.ori_digits];
            for (&c, &wt) in cells.iter().zip(&self.ori_weight) {
                o += self.ori[c as usize] as u64 * wt;
            }
        } else {
            for (&p, &wt) in self.pieces.iter().zip(&self.ori_weight) {
                o += w.ori[self.start + p as usize] as u64 * wt;
            }
        }
        r * self.ori_span + o
    }

    /// The index of a full byte state: one pass over the orbit's cells, in order of
    /// location, each followed piece's arrangement digit being its location less the
    /// pieces before it already met (at lower locations).
    #[inline]
    pub fn index(&self, s: &[u8]) -> u64 {
        let cells = &s[self.start..self.start + self.n];
        let (mut seen, mut r, mut o) = (0u64, 0u64, 0u64);
        for (l, (&c, &lw)) in cells.iter().zip(&self.loc_ori_weight).enumerate() {
            let [pw, low, bit, ow] = self.per[self.code[c as usize] as usize];
            r += (l as u64 - (seen & low).count_ones() as u64) * pw;
            o += self.ori[c as usize] as u64 * (ow + lw);
            seen |= bit;
        }
        r * self.ori_span + o
    }

    /// Orientations an index holds: per followed piece, or per location with `all_ori`.
    #[inline]
    fn ori_len(&self) -> usize {
        if self.all_ori {
            self.n
        } else {
            self.pieces.len()
        }
    }

    /// The index from the followed pieces' locations and the orientations (digit by digit,
    /// the reference the faster [`Pattern::index`] is tested against).
    #[cfg(test)]
    fn index_of(&self, loc: &[u8], ori: &[u8]) -> u64 {
        self.perm_rank(loc) * self.ori_span + self.encode_ori(ori)
    }

    /// The orientation part of an index from its digits (those stored).
    #[inline]
    fn encode_ori(&self, ori: &[u8]) -> u64 {
        ori[..self.ori_digits]
            .iter()
            .fold(0u64, |r, &o| r * self.twist as u64 + o as u64)
    }

    /// The digits of an orientation part `o < ori_span`, the last one implied by the sum
    /// when it is not stored.
    fn decode_ori(&self, mut o: u64, ori: &mut [u8]) {
        let m = self.ori_len();
        let t = self.twist as u64;
        let mut sum = 0u64;
        for i in (0..self.ori_digits).rev() {
            ori[i] = (o % t) as u8;
            sum += o % t;
            o /= t;
        }
        if self.ori_digits < m {
            ori[m - 1] = if self.twist > 1 && self.ori_digits == m - 1 {
                ((t - sum % t) % t) as u8
            } else {
                0
            };
        }
    }

    /// The arrangement part of an index: the rank of the followed pieces' locations.
    #[inline]
    fn perm_rank(&self, loc: &[u8]) -> u64 {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &l) in loc.iter().enumerate() {
            let below = (used & ((1u64 << l) - 1)).count_ones() as u64;
            r = r * (self.n - i) as u64 + (l as u64 - below);
            used |= 1 << l;
        }
        r
    }

    /// Locations and orientations of the followed pieces at index `r`.
    fn unindex(&self, mut r: u64, loc: &mut [u8], ori: &mut [u8]) {
        let k = self.pieces.len();
        self.decode_ori(r % self.ori_span, ori);
        r /= self.ori_span;
        let mut digits = [0u8; 64];
        for i in (0..k).rev() {
            let radix = (self.n - i) as u64;
            digits[i] = (r % radix) as u8;
            r /= radix;
        }
        let mut used = 0u64;
        for i in 0..k {
            // The digits[i]-th unused location.
            let mut c = digits[i];
            let mut l = 0;
            loop {
                if used & (1 << l) == 0 {
                    if c == 0 {
                        break;
                    }
                    c -= 1;
                }
                l += 1;
            }
            loc[i] = l as u8;
            used |= 1 << l;
        }
    }

    /// Bytes of its table (two entries a byte).
    pub fn bytes(&self) -> u64 {
        self.size.div_ceil(2)
    }

    pub fn describe(&self, model_orbit_name: &str) -> String {
        format!(
            "{} pieces {:?} of {model_orbit_name} ({} entries)",
            self.pieces.len(),
            self.pieces,
            self.size
        )
    }
}

/// One filled table.
pub struct Pdb {
    pub pattern: Pattern,
    pub table: BigBuf,
}

/// Forward maps of the letters on one orbit: piece at `a` goes to `dest[a]` gaining `add[a]`.
fn orbit_maps(model: &Model, orbit: usize, actions: &[Action]) -> Vec<(Vec<u8>, Vec<u8>)> {
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
struct OriTurns<'a> {
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
struct OriTurn {
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
    fn new(p: &'a Pattern, maps: &[(Vec<u8>, Vec<u8>)]) -> OriTurns<'a> {
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
    fn prepare(&self, l: usize, loc: &[u8], turn: &mut OriTurn) {
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
    fn apply(&self, turn: &OriTurn, o: u64) -> u64 {
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

impl Pdb {
    /// Fills the table breadth-first from the solved pattern.
    pub fn build(
        model: &Model,
        pattern: Pattern,
        actions: &[Action],
        cost: &[u32],
        ctl: &Control,
    ) -> Result<Pdb, SolveError> {
        ctl.reserve(
            "a pattern database (one byte an entry while it is filled)",
            pattern.size + pattern.bytes(),
        )?;
        let maps = orbit_maps(model, pattern.orbit, actions);
        let mut buf = BigBuf::new(pattern.size as usize, 255);
        let table = buf.as_atomic();
        let solved = pattern.index(&model.solved());
        table[solved as usize].store(0, Ordering::Relaxed);
        let unit = cost.iter().all(|&c| c == 1);
        let turns = OriTurns::new(&pattern, &maps);
        let span = pattern.ori_span;
        let blocks = pattern.size / span;
        let mut filled = 1u64;
        let max_set = AtomicU8::new(0);
        let mut d: u8 = 0;
        // Blocks of one orientation part each (the arrangement outside, the orientations
        // inside): a letter sends a whole block to one other block, so its arrangement is
        // turned once and the writes stay within a few cache lines.
        let per_chunk = ((1u64 << 15) / span).max(1);
        let nchunks = blocks.div_ceil(per_chunk);
        loop {
            if d as u32 + 1 >= 255 {
                break;
            }
            let pull = unit && filled > pattern.size / 3;
            let newly: u64 = (0..nchunks)
                .into_par_iter()
                .map(|c| -> Result<u64, SolveError> {
                    ctl.check()?;
                    let (mut loc, mut ori, mut nl) = ([0u8; 64], [0u8; 64], [0u8; 64]);
                    let mut list: Vec<u64> = Vec::new();
                    let mut turn = OriTurn::default();
                    let mut n = 0u64;
                    for b in c * per_chunk..((c + 1) * per_chunk).min(blocks) {
                        let base = b * span;
                        list.clear();
                        let want = if pull { 255 } else { d };
                        for o in 0..span {
                            if table[(base + o) as usize].load(Ordering::Relaxed) == want {
                                list.push(o);
                            }
                        }
                        if list.is_empty() {
                            continue;
                        }
                        pattern.unindex(base, &mut loc, &mut ori);
                        let k = pattern.pieces.len();
                        for (l, &cl) in cost.iter().enumerate() {
                            let dest = &maps[l].0;
                            for i in 0..k {
                                nl[i] = dest[loc[i] as usize];
                            }
                            let to = pattern.perm_rank(&nl[..k]) * span;
                            turns.prepare(l, &loc[..k], &mut turn);
                            if pull {
                                let mut i = 0;
                                while i < list.len() {
                                    let o = list[i];
                                    let j = to + turns.apply(&turn, o);
                                    if table[j as usize].load(Ordering::Relaxed) == d {
                                        table[(base + o) as usize].store(d + 1, Ordering::Relaxed);
                                        n += 1;
                                        list.swap_remove(i);
                                    } else {
                                        i += 1;
                                    }
                                }
                                if list.is_empty() {
                                    break;
                                }
                            } else {
                                let nv = d + cl.min(200) as u8;
                                for &o in &list {
                                    let j = (to + turns.apply(&turn, o)) as usize;
                                    if table[j].load(Ordering::Relaxed) <= nv {
                                        continue;
                                    }
                                    let old = table[j].fetch_min(nv, Ordering::Relaxed);
                                    if old == 255 {
                                        n += 1;
                                    }
                                    if old > nv {
                                        max_set.fetch_max(nv, Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                    }
                    Ok(n)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
            filled += newly;
            if pull {
                if newly == 0 {
                    break;
                }
                max_set.fetch_max(d + 1, Ordering::Relaxed);
            }
            ctl.progress(&format!(
                "pattern table {:?}: distance {} ({filled} of {})",
                pattern.pieces,
                d + 1,
                pattern.size
            ));
            d += 1;
            if d > max_set.load(Ordering::Relaxed) {
                break;
            }
        }
        // Two entries a byte, low nibble first; 15 stands for 15 or more (and for patterns
        // no position has), so a look-up never exceeds the true distance.
        let mut packed = BigBuf::new(pattern.bytes() as usize, 0xff);
        packed
            .par_chunks_mut(1 << 16)
            .zip(buf.par_chunks(1 << 17))
            .for_each(|(out, src)| {
                for (o, pair) in out.iter_mut().zip(src.chunks(2)) {
                    let lo = pair[0].min(15);
                    let hi = pair.get(1).map_or(15, |&v| v.min(15));
                    *o = lo | hi << 4;
                }
            });
        drop(buf);
        Ok(Pdb {
            pattern,
            table: packed,
        })
    }

    /// The entry at index `i` (at most 15).
    #[inline]
    pub fn value(&self, i: u64) -> u8 {
        (self.table[(i >> 1) as usize] >> ((i & 1) * 4)) & 15
    }

    /// Every entry, in index order.
    pub fn values(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.pattern.size).map(|i| self.value(i))
    }

    #[inline]
    pub fn get(&self, s: &[u8]) -> u8 {
        self.value(self.pattern.index(s))
    }
}

/// The tables of one puzzle and metric.
pub struct Heuristic {
    pub pdbs: Vec<Pdb>,
    /// One line per table: what it follows and where it came from.
    pub report: Vec<String>,
}

/// FNV-1a, for cache keys.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The default cache directory: `$XDG_CACHE_HOME/puz` or `~/.cache/puz`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("puz"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("puz"))
}

/// At most this many tables in all (every node looks each one up, twice with the inverse).
const MAX_TABLES: usize = 12;

/// Chooses the patterns for a memory budget: for each orbit the letters move, the
/// largest `k` such that `ceil(n / k)` tables of `k` pieces (the last one overlapping)
/// fit in the orbit's share. The budget left over (an orbit's share it did not need, and
/// what the covering tables leave) then goes, round-robin over the orbits, to further
/// `k`-piece tables of other subsets (pieces taken in the orders `(i mod m, i)`,
/// `m = 2, 3, ...`), so the heuristic is the maximum over more tables. Before those, an
/// orbit with orientations gets one table of the orientation at every location together
/// with as many pieces as fit (e.g. the 12 edge flips and 5 edges of the 3x3x3).
pub fn choose_patterns(model: &Model, actions: &[Action], budget: u64) -> Vec<Pattern> {
    let moving: Vec<usize> = (0..model.orbits.len())
        .filter(|&oi| {
            let o = &model.orbits[oi];
            actions.iter().any(|a| {
                (0..o.size)
                    .any(|b| a.src[o.start + b] as usize != o.start + b || a.add[o.start + b] != 0)
            })
        })
        .collect();
    if moving.is_empty() {
        return Vec::new();
    }
    // Each orbit's share is what the orbits before it left, split evenly.
    let mut remaining = budget;
    let mut out = Vec::new();
    // Per orbit: the further subsets not yet used.
    let mut extra: Vec<(usize, usize, Vec<Vec<usize>>)> = Vec::new();
    let mut chosen: Vec<Vec<Vec<u8>>> = Vec::new();
    for (done, &oi) in moving.iter().enumerate() {
        let o = &model.orbits[oi];
        let share = remaining / (moving.len() - done) as u64;
        let mut best = None;
        for k in 1..=o.size.min(63) {
            let chunks = o.size.div_ceil(k) as u64;
            let p = Pattern::new(model, oi, (0..k as u8).collect());
            if p.bytes().saturating_mul(chunks) <= share {
                best = Some(k);
            }
        }
        let Some(k) = best else { continue };
        let chunks = o.size.div_ceil(k);
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for c in 0..chunks {
            let first = (c * k).min(o.size - k);
            let pieces: Vec<u8> = (first as u8..(first + k) as u8).collect();
            seen.push(pieces.clone());
            let p = Pattern::new(model, oi, pieces);
            remaining = remaining.saturating_sub(p.bytes());
            out.push(p);
        }
        // Further subsets, spread over the orbit (every m-th piece first), for the tables
        // added when budget remains.
        let mut more = Vec::new();
        if k < o.size {
            for m in 2..o.size {
                let mut order: Vec<usize> = (0..o.size).collect();
                order.sort_by_key(|&i| (i % m, i));
                more.push(order);
            }
        }
        more.reverse();
        extra.push((oi, k, more));
        chosen.push(seen);
    }
    let mut used: u64 = out.iter().map(|p: &Pattern| p.bytes()).sum();
    // Then, per orbit with orientations not covered by a whole-orbit table, one table of
    // every location's orientation and the largest number of pieces that fits.
    for &(oi, k, _) in &extra {
        let o = &model.orbits[oi];
        if o.twist == 1 || k == o.size || o.size > 63 || out.len() >= MAX_TABLES {
            continue;
        }
        let mut best = None;
        for k in 1..o.size {
            let p = Pattern::with_orientations(model, oi, (0..k as u8).collect(), true);
            if used.saturating_add(p.bytes()) <= budget {
                best = Some(p);
            }
        }
        if let Some(p) = best {
            used += p.bytes();
            out.push(p);
        }
    }
    // Then the largest further subsets the remaining budget holds (never smaller than the
    // first one added), spread over the orbit.
    let mut least: Vec<Option<usize>> = vec![None; extra.len()];
    loop {
        let mut added = false;
        for (e, (oi, k0, orders)) in extra.iter_mut().enumerate() {
            if out.len() >= MAX_TABLES {
                return out;
            }
            let n = model.orbits[*oi].size;
            let floor = least[e].unwrap_or(*k0);
            let Some(k) = (floor..n).rev().find(|&k| {
                used.saturating_add(Pattern::new(model, *oi, (0..k as u8).collect()).bytes())
                    <= budget
            }) else {
                orders.clear();
                continue;
            };
            while let Some(order) = orders.pop() {
                let mut pieces: Vec<u8> = order[..k].iter().map(|&i| i as u8).collect();
                pieces.sort();
                if chosen[e].contains(&pieces) {
                    continue;
                }
                chosen[e].push(pieces.clone());
                let p = Pattern::new(model, *oi, pieces);
                used += p.bytes();
                out.push(p);
                least[e] = Some(k);
                added = true;
                break;
            }
        }
        if !added {
            return out;
        }
    }
}

impl Heuristic {
    /// Builds (or loads from `cache`) the tables for `budget` bytes.
    pub fn build(
        puzzle_key: u64,
        model: &Model,
        metric: &Metric,
        actions: &[Action],
        budget: u64,
        cache: Option<Cache>,
        ctl: &Control,
    ) -> Result<Heuristic, SolveError> {
        let patterns = choose_patterns(model, actions, budget);
        let mut pdbs = Vec::new();
        let mut report = Vec::new();
        for p in patterns {
            let mut key = fnv(b"puz-pdb-v2-nibbles", puzzle_key);
            for (l, a) in actions.iter().enumerate() {
                key = fnv(&a.src, key);
                key = fnv(&a.add, key);
                key = fnv(&metric.cost[l].to_le_bytes(), key);
            }
            key = fnv(&[p.orbit as u8], key);
            key = fnv(&p.pieces, key);
            if p.all_ori {
                key = fnv(b"all-ori", key);
            }
            let file = cache.map(|c| c.dir.join(format!("pdb-{key:016x}.bin")));
            let map = cache.is_some_and(|c| c.map);
            let what = format!(
                "{} pieces {:?}{} of orbit {}",
                p.pieces.len(),
                p.pieces,
                if p.all_ori {
                    " and every orientation"
                } else {
                    ""
                },
                p.orbit
            );
            if let Some(f) = &file {
                if let Some(table) = load(f, p.bytes(), map) {
                    report.push(format!(
                        "{what}: {} entries, loaded from {}",
                        p.size,
                        f.display()
                    ));
                    pdbs.push(Pdb { pattern: p, table });
                    continue;
                }
            }
            let t0 = std::time::Instant::now();
            let pdb = Pdb::build(model, p, actions, &metric.cost, ctl)?;
            let mut line = format!(
                "{what}: {} entries, built in {:.1} s",
                pdb.pattern.size,
                t0.elapsed().as_secs_f64()
            );
            if let Some(f) = &file {
                if store(f, &pdb.table).is_ok() {
                    line.push_str(&format!(", saved to {}", f.display()));
                }
            }
            report.push(line);
            pdbs.push(pdb);
        }
        Ok(Heuristic { pdbs, report })
    }

    /// The largest table value and the table giving it, stopping at the first table
    /// above `limit` ((0, 0) when there are no tables).
    #[inline]
    pub fn eval_arg(&self, s: &[u8], limit: u32) -> (u32, usize) {
        let mut h = 0u32;
        let mut arg = 0;
        for (i, p) in self.pdbs.iter().enumerate() {
            let v = p.get(s) as u32;
            if v > h {
                h = v;
                arg = i;
                if h > limit {
                    break;
                }
            }
        }
        (h, arg)
    }

    /// The largest table value (0 when there are no tables).
    #[inline]
    pub fn eval(&self, s: &[u8], limit: u32) -> u32 {
        let mut h = 0u32;
        for p in &self.pdbs {
            let v = p.get(s) as u32;
            if v > h {
                h = v;
                if h > limit {
                    break;
                }
            }
        }
        h
    }
}

const MAGIC: &[u8; 8] = b"PUZPDB01";

/// Where tables are cached on disk, and how cached ones are loaded.
#[derive(Clone, Copy, Debug)]
pub struct Cache<'a> {
    pub dir: &'a Path,
    /// Map the cache files (read-only, shared with the page cache: ready at once when the
    /// kernel still holds them, and no second copy in memory) rather than read them into
    /// fresh memory. Reading costs the kernel's zeroing and a copy (5-35 s for 8 GiB on the
    /// benchmark machine). A file read through its mapping comes into the page cache in
    /// huge pages (the mapping asks for them) and searches as fast as a copy (the atm
    /// superflip: 8.1 s mapped, 7.5-8.0 s read); one cached by plain reads or writes
    /// keeps its small pages while it stays cached (80-90% huge: 8.9-9.2 s).
    pub map: bool,
}

fn load(path: &Path, size: u64, map: bool) -> Option<BigBuf> {
    let mut f = std::fs::File::open(path).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    if &head[..8] != MAGIC || u64::from_le_bytes(head[8..].try_into().ok()?) != size {
        return None;
    }
    if f.metadata().ok()?.len() != 16 + size {
        return None;
    }
    if map {
        if let Some(table) = BigBuf::map_file(&f, 16, size as usize) {
            return Some(table);
        }
    }
    let mut table = BigBuf::new(size as usize, 0);
    f.read_exact(&mut table).ok()?;
    Some(table)
}

fn store(path: &Path, table: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(table.len() as u64).to_le_bytes())?;
        f.write_all(table)?;
        f.flush()?;
        // Out of the page cache once on disk: pages cached by these writes are small, and
        // a mapping of them would be too (see [`Cache::map`]); read back through the
        // mapping, the file comes in huge pages.
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let f = f.get_ref();
            f.sync_data()?;
            // SAFETY: advice on an open file descriptor; it only drops clean cached pages.
            unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        }
    }
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gods::sparse;
    use crate::testsupport::cube2;
    use proptest::prelude::*;

    /// A metric's letters as actions on the model.
    fn actions_of(model: &Model, metric: &Metric) -> Vec<Action> {
        metric
            .alphabet
            .perms
            .iter()
            .map(|p| model.action(p).unwrap())
            .collect()
    }

    fn setup() -> (Model, Metric, Vec<Action>) {
        let c2 = cube2();
        let model = Model::new(&c2).unwrap();
        let htm = Metric::htm(&c2, &[]).unwrap();
        let actions = actions_of(&model, &htm);
        (model, htm, actions)
    }

    proptest! {
        #[test]
        fn index_round_trips(k in 1usize..=8, r in 0u64..1_000_000) {
            let (model, _, _) = setup();
            let p = Pattern::new(&model, 0, (0..k as u8).collect());
            let r = r % p.size;
            let (mut loc, mut ori) = ([0u8; 64], [0u8; 64]);
            p.unindex(r, &mut loc, &mut ori);
            prop_assert_eq!(p.index_of(&loc[..k], &ori[..k]), r);
        }
    }

    proptest! {
        #[test]
        fn index_round_trips_with_every_orientation(k in 1usize..=7, r in 0u64..1_000_000) {
            let (model, _, _) = setup();
            let p = Pattern::with_orientations(&model, 0, (0..k as u8).collect(), true);
            prop_assert!(p.all_ori);
            let r = r % p.size;
            let (mut loc, mut ori) = ([0u8; 64], [0u8; 64]);
            p.unindex(r, &mut loc, &mut ori);
            prop_assert_eq!(p.index_of(&loc[..k], &ori[..8]), r);
        }
    }

    proptest! {
        #[test]
        fn located_index_is_the_index(
            moves in proptest::collection::vec(0usize..18, 0..30),
            k in 1usize..=7,
            first in 0u8..12,
            all_ori: bool,
        ) {
            // Random 3x3x3 positions; patterns on either orbit.
            let (model, _, actions) = cube3_htm();
            let mut s = model.solved();
            let mut out = s.clone();
            for m in moves {
                model.apply(&actions[m], &s, &mut out);
                std::mem::swap(&mut s, &mut out);
            }
            let locator = Locator::new(&model);
            let mut w = locator.buffer();
            locator.locate(&s, &mut w);
            for orbit in 0..2 {
                let n = model.orbits[orbit].size as u8;
                let pieces: Vec<u8> = (0..k as u8).map(|i| (first + 5 * i) % n).collect();
                let mut pieces = pieces;
                pieces.dedup();
                let p = Pattern::with_orientations(&model, orbit, pieces, all_ori);
                prop_assert_eq!(p.index_located(&s, &w), p.index(&s));
                // And the index from the digits (Horner's rule, as `unindex` reads it).
                let t = model.orbits[orbit].twist;
                let loc: Vec<u8> = p.pieces.iter().map(|&q| w.loc[p.start + q as usize]).collect();
                let ori: Vec<u8> = if p.all_ori {
                    (0..p.n).map(|l| s[p.start + l] % t).collect()
                } else {
                    p.pieces.iter().map(|&q| w.ori[p.start + q as usize]).collect()
                };
                prop_assert_eq!(p.index_of(&loc, &ori), p.index(&s));
            }
        }
    }

    /// The 3x3x3's model, its htm metric and the metric's letters as actions.
    fn cube3_htm() -> (Model, Metric, Vec<Action>) {
        let c3 = crate::testsupport::cube3();
        let model = Model::new(&c3).unwrap();
        let htm = Metric::htm(&c3, &["U", "D", "R", "L", "F", "B"]).unwrap();
        let actions = actions_of(&model, &htm);
        (model, htm, actions)
    }

    /// The 2x2x2's model, its qtm metric and the metric's letters as actions.
    fn cube2_qtm() -> (Model, Metric, Vec<Action>) {
        let c2 = cube2();
        let model = Model::new(&c2).unwrap();
        let qtm = Metric::qtm(&c2, &[]).unwrap();
        let actions = actions_of(&model, &qtm);
        (model, qtm, actions)
    }

    /// Breadth-first distances from `start` under `perms`, `step` giving a neighbour.
    fn bfs<S: Clone + Eq + std::hash::Hash>(
        start: S,
        perms: &[puz_core::Perm],
        step: impl Fn(&S, &puz_core::Perm) -> S,
    ) -> std::collections::HashMap<S, u8> {
        let mut dist = std::collections::HashMap::new();
        dist.insert(start.clone(), 0u8);
        let mut layer = vec![start];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for st in &layer {
                for g in perms {
                    let t = step(st, g);
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d);
                        next.push(t);
                    }
                }
            }
            layer = next;
        }
        dist
    }

    /// Distances of the (location, orientation) points of `pieces` of one orbit under
    /// `perms`, searched directly (points counted from the orbit's first point).
    fn direct_search(
        model: &Model,
        perms: &[puz_core::Perm],
        orbit: usize,
        pieces: &[u8],
    ) -> std::collections::HashMap<Vec<usize>, u8> {
        let o = &model.orbits[orbit];
        let t = o.twist as usize;
        let start: Vec<usize> = pieces.iter().map(|&x| x as usize * t).collect();
        bfs(start, perms, |st, g| {
            st.iter()
                .map(|&pt| g.image(pt + o.offset) - o.offset)
                .collect()
        })
    }

    #[test]
    fn edge_table_matches_a_direct_search() {
        // Three edges of the 3x3x3 in htm: twist 2 (orientations turned by an exclusive
        // or) and unit costs (the table is finished backwards, from the unfilled entries).
        let (model, htm, actions) = cube3_htm();
        let pieces = vec![0u8, 5, 9];
        let p = Pattern::new(&model, 1, pieces.clone());
        assert_eq!(p.size, 12 * 11 * 10 * 8);
        let pdb = Pdb::build(&model, p, &actions, &htm.cost, &Control::default()).unwrap();
        let dist = direct_search(&model, &htm.alphabet.perms, 1, &pieces);
        assert_eq!(dist.len() as u64, pdb.pattern.size);
        for (st, &v) in &dist {
            let loc: Vec<u8> = st.iter().map(|&pt| (pt / 2) as u8).collect();
            let ori: Vec<u8> = st.iter().map(|&pt| (pt % 2) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern.index_of(&loc, &ori)), v);
        }
    }

    #[test]
    fn orientation_table_matches_a_direct_search() {
        // Two corners of the 2x2x2 and the twist at every location, in qtm, searched
        // directly: (points of the two pieces, twist per location).
        let (model, qtm, actions) = cube2_qtm();
        let pieces = vec![2u8, 6];
        let p = Pattern::with_orientations(&model, 0, pieces.clone(), true);
        assert_eq!(p.size, 8 * 7 * 2187);
        let pdb = Pdb::build(&model, p, &actions, &qtm.cost, &Control::default()).unwrap();
        type St = (Vec<usize>, Vec<u8>);
        let start: St = (pieces.iter().map(|&x| x as usize * 3).collect(), vec![0; 8]);
        let dist = bfs(start, &qtm.alphabet.perms, |(pts, oris), g| {
            let np: Vec<usize> = pts.iter().map(|&pt| g.image(pt)).collect();
            let mut no = vec![0u8; 8];
            for (l, &o) in oris.iter().enumerate() {
                let q = g.image(l * 3 + o as usize);
                no[q / 3] = (q % 3) as u8;
            }
            (np, no)
        });
        assert_eq!(pdb.values().filter(|&v| v != 15).count(), dist.len());
        for ((pts, oris), &v) in &dist {
            let loc: Vec<u8> = pts.iter().map(|&pt| (pt / 3) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern.index_of(&loc, oris)), v);
        }
    }

    #[test]
    fn patterns_fill_the_budget() {
        // 3x3x3 edges and corners in htm (tables of 4-bit entries). 512 MiB: the whole corner
        // orbit (44 MB), two 6-edge halves (21 MB each), the 12 edge flips with 5 edges
        // (97 MB), then the largest further subset that fits: 7 edges (255 MB). 1 GiB: two
        // 7-edge tables cover the edges.
        let (model, _, actions) = cube3_htm();
        for (budget, expect) in [(512u64 << 20, [6, 6, 7]), (1 << 30, [7, 7, 7])] {
            let ps = choose_patterns(&model, &actions, budget);
            assert!(ps.iter().map(|p| p.bytes()).sum::<u64>() <= budget);
            let desc: Vec<(usize, bool)> = ps.iter().map(|p| (p.pieces.len(), p.all_ori)).collect();
            assert_eq!(
                desc,
                vec![
                    (8, false),
                    (expect[0], false),
                    (expect[1], false),
                    (5, true),
                    (expect[2], false),
                ]
            );
            let mut sets: Vec<&Vec<u8>> = ps
                .iter()
                .filter(|p| !p.all_ori)
                .map(|p| &p.pieces)
                .collect();
            let n = sets.len();
            sets.sort();
            sets.dedup();
            assert_eq!(sets.len(), n);
        }
    }

    #[test]
    fn table_matches_a_direct_search_on_the_pieces() {
        // Four corners of the 2x2x2 in qtm, searched directly on their (location, twist)
        // points with the letters' permutations.
        let (model, qtm, actions) = cube2_qtm();
        let pieces = vec![1u8, 3, 5, 6];
        let p = Pattern::new(&model, 0, pieces.clone());
        let pdb = Pdb::build(&model, p, &actions, &qtm.cost, &Control::default()).unwrap();
        let dist = direct_search(&model, &qtm.alphabet.perms, 0, &pieces);
        assert_eq!(pdb.values().filter(|&v| v != 15).count(), dist.len());
        for (st, &v) in &dist {
            let loc: Vec<u8> = st.iter().map(|&pt| (pt / 3) as u8).collect();
            let ori: Vec<u8> = st.iter().map(|&pt| (pt % 3) as u8).collect();
            assert_eq!(pdb.value(pdb.pattern.index_of(&loc, &ori)), v);
        }
    }

    /// Heavy (88,179,840 entries): the whole corner orbit of the 2x2x2 is God's algorithm.
    #[test]
    #[ignore]
    fn whole_orbit_table_is_gods_algorithm() {
        // The 2x2x2 <U,R,F> corners orbit, all 8 pieces: the table has 8! 3^7 entries, of
        // which the group reaches 3,674,160 with the same distances as God's algorithm.
        let (model, htm, actions) = setup();
        let p = Pattern::new(&model, 0, (0..8).collect());
        assert_eq!(p.size, 40320 * 2187);
        let pdb = Pdb::build(&model, p, &actions, &htm.cost, &Control::default()).unwrap();
        let mut hist = [0u64; 13];
        for v in pdb.values() {
            if v != 15 {
                hist[v as usize] += 1;
            }
        }
        let d = sparse(&cube2(), &htm, 12, &[], 1, &Control::default()).unwrap();
        assert!(d.complete);
        assert_eq!(&hist[..12], &d.counts[..]);
    }

    #[test]
    fn cache_round_trips() {
        // Built and saved, then loaded mapped and read: the same tables.
        let (model, htm, actions) = setup();
        let dir = std::env::temp_dir().join(format!("puz-pdb-test-{}", std::process::id()));
        let ctl = Control::default();
        let cache = |map| Some(Cache { dir: &dir, map });
        let a = Heuristic::build(7, &model, &htm, &actions, 200_000, cache(true), &ctl).unwrap();
        assert!(
            a.report.iter().all(|l| l.contains("built")),
            "{:?}",
            a.report
        );
        for map in [true, false] {
            let b = Heuristic::build(7, &model, &htm, &actions, 200_000, cache(map), &ctl).unwrap();
            assert!(
                b.report.iter().all(|l| l.contains("loaded")),
                "{:?}",
                b.report
            );
            assert_eq!(a.pdbs.len(), b.pdbs.len());
            for (x, y) in a.pdbs.iter().zip(&b.pdbs) {
                assert_eq!(x.table[..], y.table[..]);
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
