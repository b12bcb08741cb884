//! A pushed level of the reduced fill ([`super`]) gathered by target class: each thread
//! takes target classes, and for each the source classes and letters that lead to it
//! ([`Sources`], found once a fill); the entries the sources' entries at the level
//! ([`Lists`]) lead to are marked as bits of the class's block, those unreached kept,
//! and written together ([`Entries::set_marked`]). The same writes as a push class by
//! class ([`Fill::push_class`]), grouped by the block they land in: a target is one bit
//! set in the thread's cache, with no read of the table and no branch on what it holds,
//! and the block is read and written once, its lines this thread's alone (but for its
//! ends), without a lock. A push by source class reads and writes each target in
//! another thread's blocks anywhere in the table, by a locked write.
//!
//! The lists come from one pass over the table, or from the level before when it was
//! gathered too: it lists the entries it sets, class by class, as it writes them.
//!
//! A pulled class's first letters go the same way ([`Fill::gather_first`]): a pull
//! reads, for each letter, every entry of the class still unreached, and the first
//! letters find most of them; gathering a letter costs its source's entries at the level
//! instead (read from the level's bits), fewer while the class has many entries left.

use super::{Fill, Letters, Level, Marks, Target};
use crate::bigbuf::BigBuf;
use crate::pdb::bitset::{count_ones, ones};
use crate::pdb::entries::{bits_words, Entries};
use crate::pdb::level_bits::LevelBits;
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

/// One way into a class: the source class, the letter and the symmetry that carries the
/// letter's image of the source's representative to the class's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Source {
    class: u32,
    letter: u16,
    sym: u16,
}

/// Per target class, the ways into it ([`Source`]), by source class in order.
pub(super) struct Sources {
    /// Where each class's sources start in `all` (one more than the classes).
    starts: Vec<u64>,
    all: Vec<Source>,
}

impl Sources {
    /// The ways into `class`.
    fn of(&self, class: u64) -> &[Source] {
        let c = class as usize;
        &self.all[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// Bytes of the sources of a fill with `classes` classes and `letters` letters.
    pub fn bytes(classes: u64, letters: usize) -> u64 {
        8 * (classes + 1) + classes * letters as u64 * std::mem::size_of::<Source>() as u64
    }
}

/// What a level gathered works with: the entries listed, the ways into each class, and
/// where to list the entries it sets, when the next level is to be gathered too.
pub(super) type Pushed<'a> = (&'a Lists, &'a Sources, Option<&'a Lists>);

/// Per class, its entries at the level pushed from (offsets in its block, in order);
/// none where not set. All in one buffer, which the next level's bits may take over
/// ([`Lists::into_buf`]): its pages are then not cleared by the kernel a second time.
pub(super) struct Lists {
    buf: BigBuf,
    /// The buffer's room, in entries, and how much of it is taken.
    room: u64,
    used: AtomicU64,
    /// Per thread, the part of its last share of the room not yet taken.
    shares: Vec<Mutex<std::ops::Range<u64>>>,
    /// Per class, where its list starts in the buffer, and its length.
    at: Vec<AtomicU64>,
    len: Vec<AtomicU32>,
    /// Whether a list found no room (then the lists are not all there).
    full: AtomicBool,
}

impl Lists {
    /// Room for the lists of about `entries` entries in `classes` classes, to be set class
    /// by class.
    pub fn empty(entries: u64, classes: u64) -> Lists {
        let room = Lists::room(entries);
        Lists {
            // Pages touched as lists are set: the room is a bound.
            buf: BigBuf::lazy_zeroed(4 * room as usize),
            room,
            used: AtomicU64::new(0),
            shares: (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(0..0))
                .collect(),
            at: (0..classes).map(|_| AtomicU64::new(0)).collect(),
            len: (0..classes).map(|_| AtomicU32::new(0)).collect(),
            full: AtomicBool::new(false),
        }
    }

    /// The room made for about `entries` entries: a sixteenth more (the entries of a code
    /// before the base is chosen include a few of earlier levels, and a level foreseen
    /// may grow more than foreseen), and a share for each thread (see [`SHARE`]).
    fn room(entries: u64) -> u64 {
        entries + entries / 16 + (rayon::current_num_threads() as u64 + 1) * SHARE
    }

    /// Bytes of the lists of about `entries` entries in `classes` classes.
    pub fn bytes(entries: u64, classes: u64) -> u64 {
        4 * Lists::room(entries) + 12 * classes
    }

    /// Whether every list set found room.
    pub fn whole(&self) -> bool {
        !self.full.load(Relaxed)
    }

    /// The buffer, for another use.
    pub fn into_buf(self) -> BigBuf {
        self.buf
    }

    /// The entries listed of `class`.
    pub(super) fn of(&self, class: u64) -> &[u32] {
        let n = self.len[class as usize].load(Relaxed) as usize;
        if n == 0 {
            return &[];
        }
        let at = self.at[class as usize].load(Relaxed) as usize;
        // SAFETY: `set` wrote these entries, inside the buffer, before the level that
        // reads them began; nothing writes them after.
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr().cast::<u32>().add(at), n) }
    }

    /// Sets the list of `class` (set once, by the thread that fills the class) to the set
    /// bits of `words`.
    fn set(&self, class: u64, words: &[u64]) {
        let n = count_ones(words);
        if let Some(out) = self.take(class, n) {
            for (o, r) in out.iter_mut().zip(ones(words)) {
                *o = r as u32;
            }
        }
    }

    /// Sets the list of `class` (set once, by one thread) to `offsets`.
    pub(super) fn set_offsets(&self, class: u64, offsets: &[u32]) {
        if let Some(out) = self.take(class, offsets.len() as u32) {
            out.copy_from_slice(offsets);
        }
    }

    /// The room for the list of `class`, of `n` entries (none when `n` is 0, or when the
    /// room is all taken: the lists are then not whole).
    #[allow(clippy::mut_from_ref)]
    fn take(&self, class: u64, n: u32) -> Option<&mut [u32]> {
        if n == 0 {
            return None;
        }
        let k = rayon::current_thread_index().map_or(0, |i| (i + 1).min(self.shares.len() - 1));
        let mut share = self.shares[k].lock().unwrap_or_else(|e| e.into_inner());
        if share.end - share.start < n as u64 {
            let more = (n as u64).next_multiple_of(SHARE);
            let at = self.used.fetch_add(more, Relaxed);
            if at + more > self.room {
                self.full.store(true, Relaxed);
                return None;
            }
            *share = at..at + more;
        }
        let at = share.start;
        share.start += n as u64;
        self.at[class as usize].store(at, Relaxed);
        self.len[class as usize].store(n, Relaxed);
        // SAFETY: the span `at..at + n` is inside the buffer and this call's alone (the
        // count taken above); nothing reads it before the level that set it ends.
        Some(unsafe {
            let p = self.buf.as_ptr().cast::<u32>().cast_mut().add(at as usize);
            std::slice::from_raw_parts_mut(p, n as usize)
        })
    }
}

/// A thread takes the lists' room a huge page at a time: the pages it touches first
/// (which the kernel then clears) are its own, not pages another thread is faulting in.
const SHARE: u64 = (2 << 20) / 4;

impl<E: Entries> Fill<'_, E> {
    /// The entries of code `code` of the classes `at` (about `entries` of them), listed.
    /// Once `ctl` is cancelled the rest are left empty (the level that follows stops at
    /// its first check).
    pub(super) fn lists(
        &self,
        (t, code, entries): (&[AtomicU8], u8, u64),
        at: &Marks,
        ctl: &Control,
    ) -> Lists {
        let rest = self.red.rest_size;
        let lists = Lists::empty(entries, self.red.classes);
        (0..self.red.classes)
            .into_par_iter()
            .for_each_init(Vec::new, |words, class| {
                if at.has(class) && !ctl.cancelled() {
                    words.resize(bits_words(rest), 0);
                    E::code_bits(t, class * rest, rest, code, words);
                    lists.set(class, &words[..rest.div_ceil(64) as usize]);
                }
            });
        lists
    }

    /// The ways into every class, forward (as a push goes).
    pub(super) fn sources(&self) -> Sources {
        let (classes, letters) = (self.red.classes, self.letters);
        let rest = self.red.rest_size;
        let mut to = vec![Target::default(); classes as usize * letters];
        to.par_chunks_mut(letters)
            .enumerate()
            .for_each(|(c, to)| self.targets(c as u64, &self.fwd, to));
        let mut starts = vec![0u64; classes as usize + 1];
        for t in &to {
            starts[(t.base / rest) as usize + 1] += 1;
        }
        for c in 0..classes as usize {
            starts[c + 1] += starts[c];
        }
        let mut at = starts.clone();
        let mut all = vec![
            Source {
                class: 0,
                letter: 0,
                sym: 0
            };
            to.len()
        ];
        for (k, t) in to.iter().enumerate() {
            let slot = &mut at[(t.base / rest) as usize];
            all[*slot as usize] = Source {
                class: u32::try_from(k / letters).expect("classes fit 32 bits"),
                letter: u16::try_from(k % letters).expect("letters fit 16 bits"),
                sym: u16::try_from(t.sym).expect("symmetries fit 16 bits"),
            };
            *slot += 1;
        }
        Sources { starts, all }
    }

    /// Level `lv.d` pushed into the classes `lo..hi` from its entries `lists`: each
    /// unreached entry they lead to set to `lv.new` (with its stabiliser's images) and,
    /// with `next`, listed there; every class given an entry added to `reached`. How
    /// many were set.
    pub(super) fn gather(
        &self,
        lv: &Level,
        (lists, sources, next): Pushed,
        (lo, hi): (u64, u64),
        reached: &Marks,
    ) -> u64 {
        let rest = self.red.rest_size;
        MARKS.with_borrow_mut(|[marks, open]| {
            scratch(rest, [marks, open]);
            let mut n = 0;
            if lo < hi {
                E::prefetch(lv.t, lo * rest, rest);
            }
            for class in lo..hi {
                // The next block is asked for while this one is written.
                if class + 1 < hi {
                    E::prefetch(lv.t, (class + 1) * rest, rest);
                }
                let scratch = (&mut marks[..], &mut open[..]);
                let k = self.gather_class(lv, lists, class, sources.of(class), scratch);
                if k > 0 {
                    reached.add(class);
                    if let Some(next) = next {
                        next.set(class, &marks[..rest.div_ceil(64) as usize]);
                    }
                }
                n += k;
            }
            n
        })
    }

    /// [`Fill::gather`] into one class from its `sources`: the entries they lead to
    /// marked as bits (`marks`), those unreached kept (by `open`, the block's unreached
    /// entries as bits), with the images the class's stabiliser makes of them, and
    /// written together.
    fn gather_class(
        &self,
        lv: &Level,
        lists: &Lists,
        class: u64,
        sources: &[Source],
        (marks, open): (&mut [u64], &mut [u64]),
    ) -> u64 {
        let rest = self.red.rest_size;
        let base = class * rest;
        let words = rest.div_ceil(64) as usize;
        marks[..words].fill(0);
        let mut any = false;
        for (k, src) in sources.iter().enumerate() {
            let list = lists.of(src.class as u64);
            if list.is_empty() {
                continue;
            }
            any = true;
            // The next source's list is asked for while this one's is read.
            if let Some(next) = sources.get(k + 1) {
                let next_list = lists.of(next.class as u64);
                (0..next_list.len())
                    .step_by(16)
                    .for_each(|i| crate::prefetch::prefetch_l2(next_list, i));
            }
            self.mark_way(lv, *src, lists, marks);
        }
        if !any {
            return 0;
        }
        // Of the entries marked, those unreached.
        E::code_bits(lv.t, base, rest, E::UNREACHED, open);
        for (m, o) in marks[..words].iter_mut().zip(open.iter()) {
            *m &= o;
        }
        self.close_marks(class, &mut marks[..words], open);
        let alone = E::alone(base, base + rest);
        let marked = (&marks[..words], rest as u32);
        E::set_marked(lv.t, base, marked, (lv.new, lv.d + 1), &alone)
    }

    /// Marks in `marks` the entries of a class that way `src` into it leads to from its
    /// source class's entries at the level (`at`), by the level's letters forward (`lv`).
    fn mark_way(&self, lv: &Level, src: Source, at: &impl AtLevel, marks: &mut [u64]) {
        let (rest, syms) = (self.red.rest_size, self.red.syms);
        let (l, sym) = (src.letter as usize, src.sym as usize);
        let mut mark = |x: u64| marks[(x / 64) as usize] |= 1 << (x % 64);
        match self.runs(lv) {
            // By runs: a run's prefix found once, its last part by its row.
            Some((pn, len)) => {
                let (len, row) = (len as u64, pn.last_row(l, sym, syms));
                let (mut lo, mut end, mut pre) = (0u64, 0u64, 0u64);
                at.each(src.class as u64, rest, |r| {
                    if r >= end {
                        lo = r - r % len;
                        end = lo + len;
                        pre = pn.to_prefix(l, sym, syms, lo as u32);
                    }
                    mark(pre + row.get((r - lo) as u32) as u64);
                });
            }
            None => at.each(src.class as u64, rest, |r| {
                mark(self.rest_to(lv, l, sym, r))
            }),
        }
    }

    /// Adds to `marks`, unreached entries of `class` (as bits, `open` its unreached
    /// entries), the images of each by the class's stabiliser that are unreached (they
    /// hold the same tuples' class, at the same distance).
    fn close_marks(&self, class: u64, marks: &mut [u64], open: &[u64]) {
        let red = self.red;
        let stab = red.rep(class).1;
        if stab == 0 {
            return;
        }
        let found: Vec<u64> = ones(marks).collect();
        for r in found {
            let mut m = stab;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let x = red.conj_rest(r, s);
                let (w, b) = ((x / 64) as usize, x % 64);
                marks[w] |= open[w] & 1 << b;
            }
        }
    }

    /// A pulled class's first letters gathered: in the order the pull would try them
    /// (see [`Fill::pull_class`]), while a letter's source class holds fewer entries at
    /// the level than the class has entries left unreached, every way from that source
    /// into the class is gathered (as a pushed level's, from the level's `bits`) instead
    /// of read from each entry left. Those found are set (with their stabiliser's images);
    /// the rest are listed in `list` for the pull, which leaves out the letters into the
    /// source classes gathered (their blocks' firsts in `done`). How many are listed, how
    /// many were set.
    pub(super) fn gather_first(
        &self,
        lv: &Level,
        class: u64,
        to: &[Target],
        (ways, bits): (&Sources, &LevelBits),
        (letters, done): (&mut Letters, &mut Vec<u64>),
        list: &mut [u32],
    ) -> (usize, u64) {
        let rest = self.red.rest_size;
        let base = class * rest;
        let words = rest.div_ceil(64) as usize;
        done.clear();
        MARKS.with_borrow_mut(|[marks, open]| {
            scratch(rest, [marks, open]);
            E::code_bits(lv.t, base, rest, E::UNREACHED, open);
            let left = |marks: &[u64]| -> u64 {
                let m = marks[..words].iter().zip(&open[..words]);
                m.map(|(m, o)| (o & !m).count_ones() as u64).sum()
            };
            marks[..words].fill(0);
            let mut unreached = left(marks);
            let fwd = self.forward(lv);
            self.order_letters(lv, to, &[], letters);
            for &(share, l, _) in letters.iter() {
                let source = to[l].base;
                if done.contains(&source) {
                    continue;
                }
                let from = ways
                    .of(class)
                    .iter()
                    .filter(|w| w.class as u64 * rest == source);
                let n = from.clone().count() as u64;
                // The source's entries at the level (from its share, of 255) against
                // those the pull would read.
                let reads = share as u64 * rest / 255 * n;
                if n == 0 || reads as f64 * self.gather_weight >= unreached as f64 {
                    break;
                }
                from.for_each(|&w| self.mark_way(&fwd, w, bits, marks));
                done.push(source);
                unreached = left(marks);
            }
            let mut got = 0;
            if !done.is_empty() {
                for (m, o) in marks[..words].iter_mut().zip(open.iter()) {
                    *m &= o;
                }
                self.close_marks(class, &mut marks[..words], open);
                let alone = E::alone(base, base + rest);
                let marked = (&marks[..words], rest as u32);
                got = E::set_marked(lv.t, base, marked, (lv.new, lv.d + 1), &alone);
            }
            // The rest, for the pull.
            for (m, o) in marks[..words].iter_mut().zip(open.iter()) {
                *m = o & !*m;
            }
            let mut len = 0;
            for (slot, r) in list.iter_mut().zip(ones(&marks[..words])) {
                *slot = r as u32;
                len += 1;
            }
            (len, got)
        })
    }
}

/// Entries of a source class at the level: listed, or as the level's bits.
trait AtLevel {
    /// Calls `f` on each entry of `class` (of `rest` entries) at the level, in order.
    fn each(&self, class: u64, rest: u64, f: impl FnMut(u64));
}

impl AtLevel for Lists {
    #[inline(always)]
    fn each(&self, class: u64, _: u64, mut f: impl FnMut(u64)) {
        self.of(class).iter().for_each(|&r| f(r as u64));
    }
}

impl AtLevel for LevelBits {
    #[inline(always)]
    fn each(&self, class: u64, rest: u64, f: impl FnMut(u64)) {
        self.for_each_in(class * rest, rest, f);
    }
}

/// Sizes a thread's marks for blocks of `rest` entries: what [`Entries::code_bits`]
/// writes.
fn scratch(rest: u64, vs: [&mut Vec<u64>; 2]) {
    let words = bits_words(rest);
    for v in vs {
        if v.len() < words {
            v.resize(words, 0);
        }
    }
}

thread_local! {
    /// A thread's marks of a gathered class's entries (see [`Fill::gather`]).
    static MARKS: std::cell::RefCell<[Vec<u64>; 2]> = const {
        std::cell::RefCell::new([Vec::new(), Vec::new()])
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_what_was_set_and_say_when_one_found_no_room() {
        let lists = Lists::empty(8, 4);
        // Bits 0, 5, 64 and 70 of a class; 66 entries of another.
        let a = [1 | 1 << 5, 1 | 1 << 6];
        lists.set(2, &a);
        assert_eq!(lists.of(2), [0, 5, 64, 70]);
        assert!(lists.whole());
        let b = [u64::MAX, 3];
        lists.set(0, &b);
        assert_eq!(lists.of(0).len(), 66);
        assert!(lists.of(0).iter().enumerate().all(|(i, &r)| r == i as u32));
        assert!(lists.of(1).is_empty() && lists.of(3).is_empty());
        assert!(lists.whole());
        // Lists of a share each until the room is taken: the one past it is not kept,
        // and the lists are not whole.
        let words = vec![u64::MAX; (SHARE / 64) as usize];
        let classes = lists.room / SHARE + 2;
        let lists = Lists::empty(8, classes);
        for c in 0..classes {
            lists.set(c, &words);
            let kept = (c + 1) * SHARE <= lists.room;
            assert_eq!(lists.of(c).len() as u64, if kept { SHARE } else { 0 });
            assert_eq!(lists.whole(), kept);
        }
        assert!(lists.of(0).iter().enumerate().all(|(i, &r)| r == i as u32));
    }
}
