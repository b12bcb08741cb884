//! A pulled level read as bits (`level_bits.rs`), a class at a time with every letter
//! at once, when the rest is two parts and its first has a few dozen values (nxopt's
//! table: the 70 sets of the U layer's corners, then the 2,187 twists). A letter sends
//! the entries of one value of the last part (a *run*: that value with every value of
//! the first) onto one run of its target block, permuting the first part's values
//! ([`PartsNext::first_row`]). The level's bits are held with each block turned
//! ([`LevelBits::transpose_blocks`]), so that a run's bits lie together: the target run's
//! bits, permuted in vector registers, say at once which of the run's entries the letter
//! reaches. Their union over the letters, within the run's unreached entries, is the
//! run's new entries; the class's are turned back and written together. A target run is
//! read once a letter, where the pull of `sym_fill_class.rs` reads a target once for
//! each entry and letter (it stays for processors without AVX-512 VBMI's byte permutes,
//! and for tables of other shapes).

use super::class::by_runs;
use super::{Fill, Letters, Level, Marks, Target};
use crate::pdb::bit_transpose::{transpose, words_for};
use crate::pdb::bitset::{or_bits, read_bits};
use crate::pdb::entries::{bits_words, Entries};
use crate::pdb::level_bits::LevelBits;
use crate::pdb::sym_rest::{LastRow, PartsNext};

/// Runs this long at most: a run's bits are read as the 16 bytes from the one holding its
/// first, less the up to 7 bits before it.
pub(super) const MOST: u32 = 121;
/// Runs shorter than this go entry by entry: a letter's permute would settle few entries.
pub(super) const LEAST: u32 = 16;

/// Whether this processor permutes the bytes of two vectors at once (AVX-512 VBMI).
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Classes pulled across their runs (tests: that a fill went this way).
#[cfg(test)]
pub(super) static PULLED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A class's letter: where its runs go, and the permute of a run's values.
struct Way<'a> {
    base: u64,
    /// Where the letter sends each value of the rest's last part (the run's place).
    row: LastRow<'a>,
    /// Byte `x`: where the run's value `x` (of the first part) goes (0 past the run).
    perm: &'a [u8; 128],
}

/// A thread's buffers for [`Fill::pull_class_runs`], kept from class to class.
#[derive(Default)]
pub(super) struct Scratch {
    natural: Vec<u64>,
    unreached: Vec<u64>,
    found: Vec<u64>,
    /// Per run, the entries some letter reaches (see [`each_run`]).
    acc: Vec<[u64; 2]>,
    letters: Letters,
}

thread_local! {
    /// A thread's buffers for the classes it pulls (see [`Fill::pull_runs`]).
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl<E: Entries> Fill<'_, E> {
    /// Pulls the classes `lo..hi` that are `open` a class at a time (see the module
    /// header); how many entries were set to `lv.d + 1`.
    pub(super) fn pull_runs(
        &self,
        lv: &Level,
        bits: &LevelBits,
        runs: Across,
        (lo, hi): (u64, u64),
        (open, reached): (&Marks, &Marks),
    ) -> u64 {
        let (mut to, mut after) = (Vec::new(), vec![Target::default(); self.letters]);
        let mut classes = (lo..hi).filter(|&c| open.has(c)).peekable();
        if let Some(&c) = classes.peek() {
            self.targets(c, lv.moves, &mut after);
        }
        SCRATCH.with_borrow_mut(|sc| {
            let mut n = 0;
            while let Some(class) = classes.next() {
                std::mem::swap(&mut to, &mut after);
                // The next class's target blocks are asked for while this one is pulled.
                let next = match classes.peek() {
                    Some(&c) => {
                        after.resize(self.letters, Target::default());
                        self.targets(c, lv.moves, &mut after);
                        &after[..]
                    }
                    None => &[],
                };
                let to = (&to[..], next);
                n += self.pull_class_runs(lv, bits, class, to, runs, sc, (open, reached));
            }
            n
        })
    }

    /// A pull's rest moves by parts when its runs go across (see the module header):
    /// two parts, the first's values a run in vectors. Its level's bits are then held
    /// with each block turned (`LevelBits::transpose_blocks`).
    pub(super) fn across(&self) -> Option<Across<'_>> {
        let pn = self.parts_next.as_ref().map(|n| &n[1]);
        let (pn, n) = by_runs::<E>(self.next.as_ref().map(|n| &n[1]), pn)?;
        let p = pn.first_len().filter(|p| (LEAST..=MOST).contains(p))?;
        self.vectors.then_some(Across { pn, p, n })
    }

    /// [`Fill::across`] for a pulled level read as bits.
    pub(super) fn whole_runs(&self, lv: &Level) -> Option<Across<'_>> {
        self.across().filter(|_| lv.unit && lv.bits.is_some())
    }

    /// Pulls the unreached entries of `class` from the level's bits (see the module
    /// header); `to`: each letter's target. How many were set to `lv.d + 1`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pull_class_runs(
        &self,
        lv: &Level,
        bits: &LevelBits,
        class: u64,
        (to, next): (&[Target], &[Target]),
        Across { pn, p, n }: Across,
        sc: &mut Scratch,
        (open, reached): (&Marks, &Marks),
    ) -> u64 {
        let (rest, syms) = (self.red.rest_size, self.red.syms);
        let base = class * rest;
        let words = bits_words(rest).max(words_for(rest));
        for v in [&mut sc.natural, &mut sc.unreached, &mut sc.found] {
            v.resize(words, 0);
        }
        E::code_bits(lv.t, base, rest, E::UNREACHED, &mut sc.natural);
        let total: u64 = sc.natural.iter().map(|w| w.count_ones() as u64).sum();
        if total == 0 {
            open.remove(class);
            return 0;
        }
        transpose(&sc.natural, p as usize, n as usize, &mut sc.unreached);
        // No letter into a block without an entry at the level.
        self.order_letters(lv, to, &[], &mut sc.letters);
        let ways: Vec<Way> = (sc.letters.iter())
            .map(|&(_, l, _)| {
                let sym = to[l].sym;
                Way {
                    base: to[l].base,
                    row: pn.last_row(l, sym, syms),
                    perm: pn.first_row(l, sym, syms),
                }
            })
            .collect();
        sc.found.fill(0);
        sc.acc.clear();
        sc.acc.resize(n as usize, [0; 2]);
        let cut = (&sc.unreached[..], &mut sc.found[..], &mut sc.acc[..]);
        // The next class's target blocks into L2, a share of their lines a run.
        let lines = rest.div_ceil(512);
        let all = lines * next.len() as u64;
        let ahead = |c: u32| {
            let (a, b) = (all * c as u64 / n as u64, all * (c as u64 + 1) / n as u64);
            for k in a..b {
                let (block, line) = (k / lines, k % lines);
                bits.prefetch(next[block as usize].base + line * 512, 1);
            }
        };
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `self.vectors` is set only where `available` says AVX-512 VBMI and BW.
        unsafe {
            vbmi::runs(bits, p, &ways, cut, ahead)
        };
        // `vectors` is never set elsewhere (see `available`).
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (ahead, cut, &ways);
            unreachable!("runs go across only with AVX-512 VBMI");
        }
        transpose(&sc.found, n as usize, p as usize, &mut sc.natural);
        #[cfg(test)]
        PULLED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let alone = E::alone(base, base + rest);
        let marks = (&sc.natural[..], rest as u32);
        let got = E::set_marked(lv.t, base, marks, (lv.new, lv.d + 1), &alone);
        if got > 0 {
            reached.add(class);
        }
        if got == total {
            open.remove(class);
        }
        got
    }
}

/// How a pull goes across its blocks' runs (see [`Fill::across`]): the rest's moves by
/// parts, its first part's values `p`, its last's `n`.
#[derive(Clone, Copy)]
pub(super) struct Across<'a> {
    pn: &'a PartsNext,
    pub p: u32,
    pub n: u32,
}

/// The bits of `n` entries from `lo` (at most 128).
#[inline(always)]
fn bits_of(words: &[u64], lo: u64, n: u32) -> u128 {
    let (lo, n) = (lo as usize, n as usize);
    let hi = n.saturating_sub(64);
    read_bits(words, lo, n.min(64)) as u128 | (read_bits(words, lo + 64, hi) as u128) << 64
}

/// ORs `v` (of `n` bits, at most 128) into `words` from bit `lo` on.
#[inline(always)]
fn or_run(words: &mut [u64], lo: u64, n: u32, v: u128) {
    let (lo, n) = (lo as usize, n as usize);
    or_bits(words, lo, n.min(64), v as u64);
    if n > 64 {
        or_bits(words, lo + 64, n - 64, (v >> 64) as u64);
    }
}

/// Each run's new entries into `found` (the blocks turned: run `c` holds the entries
/// `q * n + c` for every first value `q`, `p` of them): the union over `ways` of their
/// target run's bits permuted, within the run's unreached entries.
#[inline(always)]
fn each_run(
    bits: &LevelBits,
    p: u32,
    ways: &[Way],
    (unreached, found, acc): (&[u64], &mut [u64], &mut [[u64; 2]]),
    ahead: impl Fn(u32),
    permute: impl Fn(u128, usize) -> [u64; 2],
) {
    // Letter by letter over the runs: a letter's target block stays in the nearest
    // cache while its runs are read (`acc` cleared, one pair of words a run).
    for (k, w) in ways.iter().enumerate() {
        for (c, a) in acc.iter_mut().enumerate() {
            if k == 0 {
                ahead(c as u32);
            }
            let at = w.base + w.row.get(c as u32) as u64 * p as u64;
            let [lo, hi] = permute(bits.run(at).wide(), k);
            a[0] |= lo;
            a[1] |= hi;
        }
    }
    for (c, a) in acc.iter().enumerate() {
        let lo = c as u64 * p as u64;
        let new = (a[0] as u128 | (a[1] as u128) << 64) & bits_of(unreached, lo, p);
        if new != 0 {
            or_run(found, lo, p, new);
        }
    }
}

/// The permute one bit at a time: bit `x` of the result is bit `perm[x]` of `v` (the
/// tests' measure of the vectors').
#[cfg(test)]
fn permute_plain(v: u128, perm: &[u8; 128], n: u32) -> u128 {
    (0..n as usize).fold(0, |acc, x| acc | (v >> perm[x] & 1) << x)
}

#[cfg(target_arch = "x86_64")]
mod vbmi {
    use super::{each_run, LevelBits, Way};
    use std::arch::x86_64::*;

    /// The permute in vectors: the bits spread to bytes (all ones or zero), the bytes
    /// permuted across both vectors, their top bits gathered back.
    #[inline(always)]
    pub(super) unsafe fn permute(v: u128, perm: &[__m512i; 2]) -> [u64; 2] {
        let a = _mm512_movm_epi8(v as u64);
        let b = _mm512_movm_epi8((v >> 64) as u64);
        let lo = _mm512_movepi8_mask(_mm512_permutex2var_epi8(a, perm[0], b));
        let hi = _mm512_movepi8_mask(_mm512_permutex2var_epi8(a, perm[1], b));
        [lo, hi]
    }

    /// A way's permute as two vectors of indices.
    #[inline(always)]
    pub(super) unsafe fn indices(perm: &[u8; 128]) -> [__m512i; 2] {
        [
            _mm512_loadu_si512(perm.as_ptr().cast()),
            _mm512_loadu_si512(perm[64..].as_ptr().cast()),
        ]
    }

    /// [`each_run`] in vectors.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn runs(
        bits: &LevelBits,
        p: u32,
        ways: &[Way],
        cut: (&[u64], &mut [u64], &mut [[u64; 2]]),
        ahead: impl Fn(u32),
    ) {
        let perms: Vec<[__m512i; 2]> = ways.iter().map(|w| indices(w.perm)).collect();
        each_run(bits, p, ways, cut, ahead, |v, k| permute(v, &perms[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The vectors' permute is the plain one, on random bits and permutes of every
    /// length the runs may have.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vectors_permute_as_the_plain_loop() {
        if !available() {
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for n in LEAST..=MOST {
            for _ in 0..50 {
                let mut perm = [0u8; 128];
                for p in perm.iter_mut().take(n as usize) {
                    *p = rng.gen_range(0..n) as u8;
                }
                let v: u128 = rng.gen::<u128>() & (u128::MAX >> (128 - n));
                // SAFETY: the processor has AVX-512 VBMI and BW (checked above).
                let got = unsafe { vbmi_permute(v, &perm) };
                assert_eq!(got & (u128::MAX >> (128 - n)), permute_plain(v, &perm, n));
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn vbmi_permute(v: u128, perm: &[u8; 128]) -> u128 {
        let [lo, hi] = vbmi::permute(v, &vbmi::indices(perm));
        lo as u128 | (hi as u128) << 64
    }

    /// Bits read at any offset and ORed back at it round-trip.
    #[test]
    fn bits_of_and_or_run_agree() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        for _ in 0..1000 {
            let n = rng.gen_range(1..=128u32);
            let lo = rng.gen_range(0..500u64);
            let v: u128 = rng.gen::<u128>() & (u128::MAX >> (128 - n));
            let mut w = vec![0u64; 12];
            or_run(&mut w, lo, n, v);
            assert_eq!(bits_of(&w, lo, n), v);
            assert_eq!(
                w.iter().map(|x| x.count_ones()).sum::<u32>(),
                v.count_ones()
            );
        }
    }
}
