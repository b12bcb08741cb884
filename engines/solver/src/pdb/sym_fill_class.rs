//! A level of the reduced fill ([`super`]) on one class: its listed entries pushed to
//! their targets, or its unreached entries pulled from them. Both read each letter's
//! targets in the order of the list, so the reads of one letter wait on no outcome; with
//! the rest's moves by parts a run of the last part's values shares its target run,
//! found once, and its entries are read near it ([`Entries::get_near`]); with them
//! tabulated whole, a block small enough is read near its start the same way.

use super::{Fill, Letters, Level, Marks, Target};
use crate::pdb::entries::Entries;
use crate::pdb::sym_rest::PartsNext;
use std::sync::atomic::Ordering::Relaxed;

impl<E: Entries> Fill<'_, E> {
    /// Asks for share `k` of `of` of the blocks `to` (the entries of all of them, in
    /// order, cut in `of` equal spans): their bits when the level reads bits.
    fn prefetch_share(&self, lv: &Level, to: &[Target], k: usize, of: usize) {
        let (t, bits) = (lv.t, lv.bits);
        let rest = self.red.rest_size;
        let all = rest * to.len() as u64;
        let (lo, hi) = (all * k as u64 / of as u64, all * (k as u64 + 1) / of as u64);
        let mut at = lo;
        while at < hi {
            let (block, from) = (at / rest, at % rest);
            let n = (rest - from).min(hi - at);
            match bits {
                Some(b) => b.prefetch(to[block as usize].base + from, n),
                None => E::prefetch(t, to[block as usize].base + from, n),
            }
            at += n;
        }
    }

    /// Pushes the entries `list` of a class at `lv.d` to each letter's target: the
    /// unreached entries they lead to are set to `d + 1` (with their stabiliser's).
    pub(super) fn push_class(
        &self,
        lv: &Level,
        list: &[u32],
        to: &[Target],
        hits: &mut [u32],
        reached: &Marks,
    ) -> u64 {
        let mut n = 0;
        let mut set = Vec::new();
        // A long list's target blocks are asked for whole, a few letters ahead.
        let whole = whole_blocks(list.len(), self.red.rest_size);
        if whole {
            for target in to.iter().take(PUSH_AHEAD) {
                E::prefetch(lv.t, target.base, self.red.rest_size);
            }
        }
        for (l, target) in to.iter().enumerate() {
            if let (true, Some(ahead)) = (whole, to.get(l + PUSH_AHEAD)) {
                E::prefetch(lv.t, ahead.base, self.red.rest_size);
            }
            let mut h = 0;
            let mut unreached = |r2: u64| {
                hits[h] = r2 as u32;
                h += (E::get(lv.t, target.base + r2) == E::UNREACHED) as usize;
            };
            match (self.row(lv, l, target.sym), self.runs(lv)) {
                (Some(row), _) if self.red.rest_size <= E::NEAR as u64 => {
                    let near = E::near(target.base);
                    for &r in list {
                        let x = row[r as usize];
                        hits[h] = x;
                        h += (E::get_near(lv.t, near, x) == E::UNREACHED) as usize;
                    }
                }
                (Some(row), _) => list.iter().for_each(|&r| unreached(row[r as usize] as u64)),
                // By runs, as a pull goes: each target read near its run's.
                (None, Some((pn, n))) => {
                    let (syms, sym) = (self.red.syms, target.sym);
                    let row = pn.last_row(l, sym, syms);
                    for_runs(list, n, |lo, run| {
                        let pre = pn.to_prefix(l, sym, syms, lo);
                        let near = E::near(target.base + pre);
                        for &r in run {
                            let x = row.get(r - lo) as u32;
                            hits[h] = (pre + x as u64) as u32;
                            h += (E::get_near(lv.t, near, x) == E::UNREACHED) as usize;
                        }
                    });
                }
                (None, _) => list
                    .iter()
                    .for_each(|&r| unreached(self.rest_to(lv, l, target.sym, r as u64))),
            }
            let mut k = 0;
            for &r2 in &hits[..h] {
                k += self.push(lv, target, r2 as u64, &mut set);
            }
            if k > 0 {
                reached.add(target.base / self.red.rest_size);
            }
            n += k;
        }
        if let Some(record) = lv.record {
            record.add(&mut set);
        }
        n
    }

    /// Pulls the unreached entries `list` of `class`: each one some letter leads to from
    /// an entry at `lv.d` (with unit costs; else from `d + 1 - cost`) is set to `d + 1`.
    /// The letters into the blocks `skip` (their firsts) are left out: they were gathered
    /// (see [`Fill::gather_first`]).
    ///
    /// The list goes a piece at a time, each piece through every letter before the next
    /// starts. With the rest's moves by parts ([`Fill::runs`]) a piece is a run of the
    /// last part's values, which a letter sends into one run of its target block, found
    /// once: its entries are read near it (else pieces of [`CHUNK`], which alone gained
    /// nothing measurable). The next class's target blocks (`next`) are asked for a share
    /// at a time as the list goes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pull_class(
        &self,
        lv: &Level,
        class: u64,
        list: &mut [u32],
        to: &[Target],
        next: &[Target],
        (hits, letters, skip): (&mut [u32], &mut Letters, &[u64]),
        (open, reached): (&Marks, &Marks),
    ) -> u64 {
        let (rest, syms) = (self.red.rest_size, self.red.syms);
        let base = class * rest;
        // A pull writes only the class's own block, this thread alone: the lines wholly
        // inside it without a lock.
        let alone = E::alone(base, base + rest);
        let runs = self.runs(lv);
        // A run's hits are marked and written together once it has been through every
        // letter: line by line where they are many, no division an entry.
        let mut marks = [0u64; MARK_WORDS];
        let batch = runs.is_some_and(|(_, n)| n as usize <= 64 * MARK_WORDS);
        self.order_letters(lv, to, skip, letters);
        let total = list.len();
        let (mut got, mut issued, mut k) = (0u64, 0, 0);
        while k < total {
            while issued < SHARES && issued * total <= k * SHARES {
                self.prefetch_share(lv, next, issued, SHARES);
                issued += 1;
            }
            let (lo, end) = match runs {
                Some((pn, n)) => {
                    let (lo, end) = run_at(list, k, n);
                    for (_, l, pre) in letters.iter_mut() {
                        *pre = pn.to_prefix(*l, to[*l].sym, syms, lo);
                    }
                    // The next run's target runs, asked for while this one is read.
                    if end < total {
                        let lo = list[end] - list[end] % n;
                        for &(_, l, _) in letters.iter() {
                            let pre = pn.to_prefix(l, to[l].sym, syms, lo);
                            match lv.bits {
                                Some(b) => b.prefetch_soon(to[l].base + pre, n as u64),
                                None => E::prefetch_soon(lv.t, to[l].base + pre, n as u64),
                            }
                        }
                    }
                    (lo, end)
                }
                None => (0, (k + CHUNK).min(total)),
            };
            let piece = &mut list[k..end];
            let mut len = piece.len();
            let mut marked = false;
            for &(_, l, pre) in letters.iter() {
                if len == 0 {
                    break;
                }
                let piece = &mut piece[..len];
                let (kept, h) = if lv.unit {
                    self.sort_letter::<true>(lv, (l, pre, lo), to, runs, piece, hits)
                } else {
                    self.sort_letter::<false>(lv, (l, pre, lo), to, runs, piece, hits)
                };
                if batch {
                    for &r in &hits[..h] {
                        let x = r - lo;
                        marks[(x / 64) as usize] |= 1 << (x % 64);
                    }
                    marked |= h > 0;
                } else {
                    for &r in &hits[..h] {
                        let i = base + r as u64;
                        got += if alone.contains(&i) {
                            E::set_alone(lv.t, i, lv.new, lv.d + 1)
                        } else {
                            E::set(lv.t, i, lv.new, lv.d + 1)
                        } as u64;
                    }
                }
                len = kept;
            }
            if let (true, Some((_, n))) = (marked, runs) {
                let n = n.min((rest - lo as u64) as u32);
                let marks = &mut marks[..(n as usize).div_ceil(64)];
                let to = (lv.new, lv.d + 1);
                got += E::set_marked(lv.t, base + lo as u64, (marks, n), to, &alone);
                marks.fill(0);
            }
            k = end;
        }
        for share in issued..SHARES {
            self.prefetch_share(lv, next, share, SHARES);
        }
        if got > 0 {
            reached.add(class);
        }
        if got == total as u64 {
            open.remove(class);
        }
        got
    }

    /// Sorts the unreached entries `list` of a pulled class by whether letter `l` reaches
    /// them from the level (see [`sort_by`]); `pre` and `lo` place a run's targets (with
    /// `runs`). `UNIT`: every letter costs 1.
    #[inline(always)]
    fn sort_letter<const UNIT: bool>(
        &self,
        lv: &Level,
        (l, pre, lo): (usize, u64, u32),
        to: &[Target],
        runs: Option<(&PartsNext, u32)>,
        list: &mut [u32],
        hits: &mut [u32],
    ) -> (usize, usize) {
        let (target, c) = (&to[l], lv.cost[l]);
        match (runs, self.row(lv, l, target.sym)) {
            (Some((pn, _)), _) => {
                let row = pn.last_row(l, target.sym, self.red.syms);
                let x = |r: u32| row.get(r - lo);
                if let (true, Some(b)) = (UNIT, lv.bits) {
                    let run = b.run(target.base + pre);
                    return sort_by(list, hits, |r| run.has(x(r)));
                }
                let near = E::near(target.base + pre);
                match E::window(lv.t, near) {
                    Some(w) => sort_by(list, hits, |r| {
                        hit::<E, UNIT>(lv, c, E::get_window(w, x(r)))
                    }),
                    None => sort_by(list, hits, |r| {
                        hit::<E, UNIT>(lv, c, E::get_near(lv.t, near, x(r) as u32))
                    }),
                }
            }
            // A whole row into a block small enough to read near its start.
            (None, Some(row)) if self.red.rest_size <= E::NEAR as u64 => {
                let near = E::near(target.base);
                sort_by(list, hits, |r| {
                    hit::<E, UNIT>(lv, c, E::get_near(lv.t, near, row[r as usize]))
                })
            }
            (None, Some(row)) => sort_by(list, hits, |r| {
                hit::<E, UNIT>(lv, c, E::get(lv.t, target.base + row[r as usize] as u64))
            }),
            (None, None) => sort_by(list, hits, |r| {
                let to = target.base + self.rest_to(lv, l, target.sym, r as u64);
                hit::<E, UNIT>(lv, c, E::get(lv.t, to))
            }),
        }
    }

    /// The letters a pulled class tries, as `(share, letter, 0)`: the densest target
    /// blocks first (ties in the letters' order), without those holding no entry at
    /// `lv.d` (none of theirs can reach one) and those into the blocks `skip` (their
    /// firsts). All of them when the level has no shares.
    pub(super) fn order_letters(
        &self,
        lv: &Level,
        to: &[Target],
        skip: &[u64],
        letters: &mut Letters,
    ) {
        let rest = self.red.rest_size;
        letters.clear();
        let tried = to.iter().enumerate();
        letters.extend(tried.filter_map(|(l, target)| {
            if skip.contains(&target.base) {
                return None;
            }
            let dn = lv
                .density
                .map_or(1, |dn| dn[(target.base / rest) as usize].load(Relaxed));
            (dn > 0).then_some((dn, l, 0))
        }));
        letters.sort_by_key(|&(dn, _, _)| std::cmp::Reverse(dn));
    }

    /// The rest's moves by parts, when the last part's place value is 1 and its values
    /// are few enough to read near a run's target ([`Entries::get_near`]).
    pub(super) fn runs<'b>(&self, lv: &Level<'b>) -> Option<(&'b PartsNext, u32)> {
        by_runs::<E>(lv.next, lv.parts_next)
    }

    /// Whether a pulled level reads its targets by runs (where it reads bits, when it
    /// has them).
    pub(super) fn pulls_by_runs(&self) -> bool {
        let next = self.next.as_ref().map(|n| &n[1]);
        by_runs::<E>(next, self.parts_next.as_ref().map(|n| &n[1])).is_some()
    }
}

/// [`Fill::runs`] of a level's tabulated moves.
pub(super) fn by_runs<'b, E: Entries>(
    next: Option<&Vec<u32>>,
    parts_next: Option<&'b PartsNext>,
) -> Option<(&'b PartsNext, u32)> {
    let pn = parts_next?;
    let n = pn.run()?;
    (next.is_none() && n <= E::NEAR).then_some((pn, n))
}

/// The entries of a pulled class taken through all its letters at a time when it is not
/// read by runs.
const CHUNK: usize = 2048;

/// The words of a pulled run's marks: runs of at most `64 * MARK_WORDS` entries are
/// written together.
const MARK_WORDS: usize = 128;

/// The target blocks of a pushed class's letter are asked for this many letters ahead.
const PUSH_AHEAD: usize = 2;

/// The next class's target blocks are asked for in this many shares while a class is
/// pulled.
const SHARES: usize = 16;

/// Whether a class's targets for a list of `len` entries are asked for as whole blocks
/// (`rest` entries each) rather than each target line alone.
pub(super) fn whole_blocks(len: usize, rest: u64) -> bool {
    len as u64 * 64 >= rest
}

/// Sorts the unreached entries `list` of a class by `hit` (whether a letter reaches the
/// entry from the level): those not are kept at the front of `list`, those are written
/// to `hits`; how many of each.
#[inline(always)]
fn sort_by(list: &mut [u32], hits: &mut [u32], hit: impl Fn(u32) -> bool) -> (usize, usize) {
    let n = list.len();
    assert!(hits.len() >= n);
    let (l, hs) = (list.as_mut_ptr(), hits.as_mut_ptr());
    // The entries kept so far are `i - h`: one count, so the loop keeps its values in
    // registers.
    let mut h = 0;
    for i in 0..n {
        // SAFETY: `i` is below `n`, which `list` holds.
        let r = unsafe { *l.add(i) };
        let hit = hit(r);
        // SAFETY: `h` is at most `i`, below `n`, which `list` and `hits` hold.
        unsafe {
            *l.add(i - h) = r;
            *hs.add(h) = r;
        }
        h += hit as usize;
    }
    (n - h, h)
}

/// Whether a letter of cost `c` from an entry of code `y` reaches level `lv.d + 1`
/// (`UNIT`: `lv.unit`, all letters cost 1). (Costs other than 1 come with nibbles only,
/// whose codes are the levels.)
#[inline(always)]
fn hit<E: Entries, const UNIT: bool>(lv: &Level, c: u32, y: u8) -> bool {
    if UNIT {
        y == lv.at
    } else {
        y != E::UNREACHED && y as u32 + c == lv.d as u32 + 1
    }
}

/// The run of `list` (in order) from index `k`: the values sharing `list[k] / n`, as
/// that multiple of `n` and the index past the run.
#[inline(always)]
fn run_at(list: &[u32], k: usize, n: u32) -> (u32, usize) {
    let lo = list[k] - list[k] % n;
    (lo, k + list[k..].partition_point(|&r| r < lo + n))
}

/// Calls `f` on each run of `list` (in order) with its values' multiple of `n`.
#[inline(always)]
fn for_runs(list: &[u32], n: u32, mut f: impl FnMut(u32, &[u32])) {
    let mut k = 0;
    while k < list.len() {
        let (lo, end) = run_at(list, k, n);
        f(lo, &list[k..end]);
        k = end;
    }
}
