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

use super::{Fill, Level, Marks, Target};
use crate::pdb::bitset::ones;
use crate::pdb::entries::{bits_words, Entries};
use puz_core::Control;
use rayon::prelude::*;
use std::sync::atomic::AtomicU8;
use std::sync::OnceLock;

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
/// none where not set.
pub(super) struct Lists(Vec<OnceLock<Vec<u32>>>);

impl Lists {
    /// Lists to be set class by class.
    pub fn empty(classes: u64) -> Lists {
        Lists((0..classes).map(|_| OnceLock::new()).collect())
    }

    /// Bytes of the lists of `entries` entries in `classes` classes.
    pub fn bytes(entries: u64, classes: u64) -> u64 {
        4 * entries + 32 * classes
    }

    /// The entries listed of `class`.
    fn of(&self, class: u64) -> &[u32] {
        self.0[class as usize].get().map_or(&[], |v| &v[..])
    }

    /// Sets the list of `class` to the set bits of `words`.
    fn set(&self, class: u64, words: &[u64]) {
        let n: u32 = words.iter().map(|w| w.count_ones()).sum();
        if n > 0 {
            let mut list = Vec::with_capacity(n as usize);
            list.extend(ones(words).map(|r| r as u32));
            // Each class is listed once, by the thread that fills it.
            let _ = self.0[class as usize].set(list);
        }
    }
}

impl<E: Entries> Fill<'_, E> {
    /// The entries of code `code` of the classes `at`, listed. Once `ctl` is cancelled
    /// the rest are left empty (the level that follows stops at its first check).
    pub(super) fn lists(&self, t: &[AtomicU8], code: u8, at: &Marks, ctl: &Control) -> Lists {
        let rest = self.red.rest_size;
        let lists = Lists::empty(self.red.classes);
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
        let words = bits_words(rest);
        MARKS.with_borrow_mut(|[marks, open]| {
            for v in [&mut *marks, &mut *open] {
                if v.len() < words {
                    v.resize(words, 0);
                }
            }
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
        let red = self.red;
        let (rest, syms) = (red.rest_size, red.syms);
        let base = class * rest;
        let words = rest.div_ceil(64) as usize;
        marks[..words].fill(0);
        let runs = self.runs(lv);
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
            let (l, sym) = (src.letter as usize, src.sym as usize);
            let mut mark = |x: u64| marks[(x / 64) as usize] |= 1 << (x % 64);
            match runs {
                // By runs: a run's prefix found once, its last part by its row.
                Some((pn, len)) => {
                    let (len, row) = (len as u64, pn.last_row(l, sym, syms));
                    let (mut lo, mut end, mut pre) = (0u64, 0u64, 0u64);
                    for &r in list {
                        let r = r as u64;
                        if r >= end {
                            lo = r - r % len;
                            end = lo + len;
                            pre = pn.to_prefix(l, sym, syms, lo as u32);
                        }
                        mark(pre + row.get((r - lo) as u32) as u64);
                    }
                }
                None => list
                    .iter()
                    .for_each(|&r| mark(self.rest_to(lv, l, sym, r as u64))),
            }
        }
        if !any {
            return 0;
        }
        // Of the entries marked, those unreached.
        E::code_bits(lv.t, base, rest, E::UNREACHED, open);
        for (m, o) in marks[..words].iter_mut().zip(open.iter()) {
            *m &= o;
        }
        // And the images of each by the class's stabiliser, unreached (they hold the
        // same tuples' class, at the same distance).
        let stab = red.rep(class).1;
        if stab != 0 {
            let found: Vec<u64> = ones(&marks[..words]).collect();
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
        let alone = E::alone(base, base + rest);
        let marked = (&marks[..words], rest as u32);
        E::set_marked(lv.t, base, marked, (lv.new, lv.d + 1), &alone)
    }
}

thread_local! {
    /// A thread's marks of a gathered class's entries (see [`Fill::gather`]).
    static MARKS: std::cell::RefCell<[Vec<u64>; 2]> = const {
        std::cell::RefCell::new([Vec::new(), Vec::new()])
    };
}
