//! A pulled level read as bits (`level_bits.rs`), a class at a time with every letter
//! at once, when the rest is two parts and its first has at most a few hundred values
//! (nxopt's table: the 70 sets of the U layer's corners, then the 2,187 twists; the
//! second table: the 495 sets of the slice's edges, then the twists). A letter sends
//! the entries of one value of the last part (a *run*: that value with every value of
//! the first) onto one run of its target block, permuting the first part's values
//! ([`PartsNext::first_row`]). The level's bits are held with each block turned
//! ([`LevelBits::transpose_blocks`]), so that a run's bits lie together: the target run's
//! bits, permuted in vector registers (each output byte gathers the byte that holds its
//! bit, then each bit is picked from its byte), say at once which of the run's entries
//! the letter reaches. Their union over the letters, within the run's unreached entries,
//! is the run's new entries; the class's are turned back and written together. A target
//! run is read once a letter, where the pull of `sym_fill_class.rs` reads a target once
//! for each entry and letter (it stays for processors without AVX-512 VBMI's byte
//! permutes and BITALG's bit shuffles, and for tables of other shapes).

use super::class::by_runs;
use super::{Fill, Letters, Level, Marks, Target};
use crate::pdb::bit_transpose::{transpose, words_for};
use crate::pdb::bitset::{or_bits, read_bits};
use crate::pdb::entries::{bits_words, Entries};
use crate::pdb::level_bits::LevelBits;
use crate::pdb::sym_rest::{LastRow, PartsNext};

/// Runs this long at most: a run's bits are read as the 64 bytes from the one holding its
/// first, less the up to 7 bits before it.
pub(super) const MOST: u32 = 505;
/// Runs shorter than this go entry by entry: a letter's permute would settle few entries.
pub(super) const LEAST: u32 = 16;

/// Whether this processor permutes the bytes of a vector and picks bits from its bytes
/// (AVX-512 VBMI and BITALG).
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
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
    /// Value `x`: where the run's value `x` (of the first part) goes (0 past the run, up
    /// to a multiple of 64).
    perm: &'a [u16],
}

/// A thread's buffers for [`Fill::pull_class_runs`], kept from class to class.
#[derive(Default)]
pub(super) struct Scratch {
    natural: Vec<u64>,
    unreached: Vec<u64>,
    found: Vec<u64>,
    /// Per run, the entries some letter reaches, a word for each 64 (see [`each_run`]).
    acc: Vec<u64>,
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
        sc.acc.resize(n as usize * p.div_ceil(64) as usize, 0);
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
        // SAFETY: `self.vectors` is set only where `available` says AVX-512 VBMI, BITALG
        // and BW.
        unsafe {
            vbmi::runs(bits, p, &ways, cut, ahead)
        };
        // `vectors` is never set elsewhere (see `available`).
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (ahead, cut, &ways);
            unreachable!("runs go across only with AVX-512 VBMI and BITALG");
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

/// Each run's new entries into `found` (the blocks turned: run `c` holds the entries
/// `q * n + c` for every first value `q`, `p` of them, `G` words of bits): the union over
/// `ways` of their target run's bits permuted, within the run's unreached entries.
#[inline(always)]
fn each_run<const G: usize>(
    bits: &LevelBits,
    p: u32,
    ways: &[Way],
    (unreached, found, acc): (&[u64], &mut [u64], &mut [u64]),
    ahead: impl Fn(u32),
    permute: impl Fn((&[u8; 64], u32), usize) -> [u64; G],
) {
    // Letter by letter over the runs: a letter's target block stays in the nearest
    // cache while its runs are read (`acc` cleared, `G` words a run).
    for (k, w) in ways.iter().enumerate() {
        for (c, a) in acc.chunks_exact_mut(G).enumerate() {
            if k == 0 {
                ahead(c as u32);
            }
            let at = w.base + w.row.get(c as u32) as u64 * p as u64;
            let got = permute(bits.run(at).line(), k);
            a.iter_mut().zip(got).for_each(|(a, g)| *a |= g);
        }
    }
    for (c, a) in acc.chunks_exact(G).enumerate() {
        let lo = c * p as usize;
        for (g, &a) in a.iter().enumerate() {
            let (at, len) = (lo + 64 * g, (p as usize - 64 * g).min(64));
            let new = a & read_bits(unreached, at, len);
            if new != 0 {
                or_bits(found, at, len, new);
            }
        }
    }
}

/// The permute one bit at a time: bit `x` of the result is bit `perm[x]` of the run at
/// `line`'s bit `shift` (the tests' measure of the vectors').
#[cfg(test)]
fn permute_plain((line, shift): (&[u8; 64], u32), perm: &[u16], n: u32) -> Vec<bool> {
    let bit = |i: usize| line[i / 8] >> (i % 8) & 1 == 1;
    (0..n as usize)
        .map(|x| bit(shift as usize + perm[x] as usize))
        .collect()
}

#[cfg(target_arch = "x86_64")]
mod vbmi {
    use super::{each_run, LevelBits, Way};
    use std::arch::x86_64::*;

    /// The permute in vectors: the run's bits shifted down to bit 0 of one vector; for
    /// each 64 bits of the result, byte `x` takes the byte holding the bit it wants, then
    /// bit `x` of the result is picked from byte `x` (`perm`: a way's [`indices`]).
    #[inline(always)]
    pub(super) unsafe fn permute<const G: usize>(
        (line, shift): (&[u8; 64], u32),
        perm: &[[__m512i; 2]; G],
    ) -> [u64; G] {
        let v = _mm512_loadu_si512(line.as_ptr().cast());
        // Each word's bits from `shift` on, the next word's low bits above them (a
        // shift by 64 gives 0).
        let next = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), v);
        let down = _mm512_srl_epi64(v, _mm_cvtsi32_si128(shift as i32));
        let up = _mm512_sll_epi64(next, _mm_cvtsi32_si128(64 - shift as i32));
        let v = _mm512_or_si512(down, up);
        std::array::from_fn(|g| {
            let bytes = _mm512_permutexvar_epi8(perm[g][0], v);
            _mm512_bitshuffle_epi64_mask(bytes, perm[g][1])
        })
    }

    /// A way's permute as vectors, two for each 64 values of the result: the byte
    /// holding the bit each wants, and where that bit lies in its byte counted from its
    /// word of the first vector's result (what the bit shuffle reads).
    #[inline(always)]
    pub(super) fn indices<const G: usize>(perm: &[u16]) -> [[__m512i; 2]; G] {
        std::array::from_fn(|g| {
            let (mut byte, mut bit) = ([0u8; 64], [0u8; 64]);
            for (x, &v) in perm[64 * g..][..64].iter().enumerate() {
                byte[x] = (v >> 3) as u8;
                bit[x] = (x % 8 * 8) as u8 | (v & 7) as u8;
            }
            // SAFETY: unaligned loads of 64 bytes from arrays of 64.
            unsafe {
                [
                    _mm512_loadu_si512(byte.as_ptr().cast()),
                    _mm512_loadu_si512(bit.as_ptr().cast()),
                ]
            }
        })
    }

    /// [`each_run`] in vectors, `G` words a run.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    unsafe fn runs_of<const G: usize>(
        bits: &LevelBits,
        p: u32,
        ways: &[Way],
        cut: (&[u64], &mut [u64], &mut [u64]),
        ahead: impl Fn(u32),
    ) {
        let perms: Vec<[[__m512i; 2]; G]> = ways.iter().map(|w| indices(w.perm)).collect();
        each_run(bits, p, ways, cut, ahead, |run, k| permute(run, &perms[k]))
    }

    /// [`each_run`] in vectors, as many words a run as `p` entries take.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    pub(super) unsafe fn runs(
        bits: &LevelBits,
        p: u32,
        ways: &[Way],
        cut: (&[u64], &mut [u64], &mut [u64]),
        ahead: impl Fn(u32),
    ) {
        match p.div_ceil(64) {
            1 => runs_of::<1>(bits, p, ways, cut, ahead),
            2 => runs_of::<2>(bits, p, ways, cut, ahead),
            3 => runs_of::<3>(bits, p, ways, cut, ahead),
            4 => runs_of::<4>(bits, p, ways, cut, ahead),
            5 => runs_of::<5>(bits, p, ways, cut, ahead),
            6 => runs_of::<6>(bits, p, ways, cut, ahead),
            7 => runs_of::<7>(bits, p, ways, cut, ahead),
            8 => runs_of::<8>(bits, p, ways, cut, ahead),
            _ => unreachable!("runs of at most {} entries", super::MOST),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The vectors' permute is the plain one, on random bits at every shift and random
    /// permutes of every length the runs may have.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vectors_permute_as_the_plain_loop() {
        if !available() {
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for n in LEAST..=MOST {
            for _ in 0..20 {
                let mut perm = vec![0u16; (n as usize).next_multiple_of(64)];
                for p in perm.iter_mut().take(n as usize) {
                    *p = rng.gen_range(0..n) as u16;
                }
                let line: [u8; 64] = std::array::from_fn(|_| rng.gen());
                let shift = rng.gen_range(0..8);
                // SAFETY: the processor has AVX-512 VBMI, BITALG and BW (checked above).
                let got = unsafe { vbmi_permute((&line, shift), &perm) };
                let got: Vec<bool> = (0..n)
                    .map(|x| got[x as usize / 64] >> (x % 64) & 1 == 1)
                    .collect();
                assert_eq!(
                    got,
                    permute_plain((&line, shift), &perm, n),
                    "{n} at {shift}"
                );
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    unsafe fn vbmi_permute(run: (&[u8; 64], u32), perm: &[u16]) -> Vec<u64> {
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
        unsafe fn of<const G: usize>(run: (&[u8; 64], u32), perm: &[u16]) -> Vec<u64> {
            vbmi::permute::<G>(run, &vbmi::indices(perm)).to_vec()
        }
        match perm.len() / 64 {
            1 => of::<1>(run, perm),
            2 => of::<2>(run, perm),
            3 => of::<3>(run, perm),
            4 => of::<4>(run, perm),
            5 => of::<5>(run, perm),
            6 => of::<6>(run, perm),
            7 => of::<7>(run, perm),
            _ => of::<8>(run, perm),
        }
    }
}
