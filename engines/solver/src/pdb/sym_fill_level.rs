//! One level of the reduced fill ([`super`]) over a range of classes: each class's
//! entries to work on listed (its entries at the level pushed from, from the table or
//! from the record of a sparse level before; or its unreached entries, pulled), its
//! targets' lines asked for one class ahead, then the class pushed or pulled
//! (`sym_fill_class.rs`); a pushed level with its entries listed goes by target class
//! (`sym_fill_gather.rs`).

use super::class::whole_blocks;
use super::gather::{Lists, Pushed, Sources};
use super::record::Record;
use super::{Fill, Letters, Level, Marks, Target};
use crate::pdb::entries::Entries;
use crate::pdb::level_bits::LevelBits;
use std::sync::atomic::AtomicU8;

thread_local! {
    /// A thread's lists of a level's work (see [`Fill::level`]).
    static SCRATCH: std::cell::RefCell<[Vec<u32>; 3]> = const {
        std::cell::RefCell::new([Vec::new(), Vec::new(), Vec::new()])
    };
}

impl<E: Entries> Fill<'_, E> {
    /// One level from distance `d` over the classes `lo..hi`: the entries set to `d + 1`
    /// (`codes`: the code of the entries at `d` and the one to write).
    /// Pushed, only the classes `at` (those holding entries at `d`); pulled, only those
    /// `open` (which may hold unreached entries; a class found without any is removed),
    /// each trying its letters in the order of `density` (per class, its share of
    /// entries at `d`) when given.
    /// Every class given an entry is added to `reached`. A pushed level given its entries
    /// at `d` listed and the ways into each class (`push`) goes by target class instead
    /// (`sym_fill_gather.rs`).
    ///
    /// A class's entries to work on are listed first, and its targets' blocks asked for,
    /// one class ahead of the work on them: the work then finds them in the cache. The
    /// work goes letter by letter over the list, so the reads of one letter wait on no
    /// outcome of another read.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn level(
        &self,
        t: &[AtomicU8],
        (d, (at_code, new)): (u8, (u8, u8)),
        pull: bool,
        cost: &[u32],
        (density, bits, push): (Option<&[AtomicU8]>, Option<&LevelBits>, Option<Pushed>),
        (ways, listed, record): (Option<&Sources>, Option<&Lists>, Option<&Record>),
        (lo, hi): (u64, u64),
        (at, open, reached): (&Marks, &Marks, &Marks),
    ) -> u64 {
        let lv = Level {
            t,
            d,
            at: at_code,
            new,
            cost,
            unit: cost.iter().all(|&c| c == 1),
            moves: if pull { &self.back } else { &self.fwd },
            next: self.next.as_ref().map(|n| &n[pull as usize]),
            parts_next: self.parts_next.as_ref().map(|n| &n[pull as usize]),
            density,
            bits,
            ways: ways.filter(|_| pull && bits.is_some()),
            listed: listed.filter(|_| !pull),
            record: record.filter(|_| !pull),
        };
        // A pushed level with its entries listed goes by target class.
        if let (false, Some(pushed)) = (pull, push) {
            return self.gather(&lv, pushed, (lo, hi), reached);
        }
        // A pulled level read as bits, by runs that fit in vectors: every letter at once.
        if let (true, Some(runs), Some(bits)) = (pull, self.whole_runs(&lv), lv.bits) {
            return self.pull_runs(&lv, bits, runs, (lo, hi), (open, reached));
        }
        let rest = self.red.rest_size;
        // A task covers as few as one class, whose rest may be large: the lists are the
        // thread's, kept from task to task, not allocated (and cleared) for each.
        SCRATCH.with_borrow_mut(|[a, b, hits]| {
            for v in [&mut *a, &mut *b, &mut *hits] {
                if v.len() < rest as usize {
                    v.resize(rest as usize, 0);
                }
            }
            let mut lists = [&mut a[..], &mut b[..]];
            self.level_in(&lv, pull, (lo, hi), (at, open, reached), &mut lists, hits)
        })
    }

    /// [`Fill::level`] with the lists given (each at least the rest's size).
    fn level_in(
        &self,
        lv: &Level,
        pull: bool,
        (lo, hi): (u64, u64),
        (at, open, reached): (&Marks, &Marks, &Marks),
        lists: &mut [&mut [u32]; 2],
        hits: &mut [u32],
    ) -> u64 {
        let (t, at_code, moves) = (lv.t, lv.at, lv.moves);
        let rest = self.red.rest_size;
        let mut to = [
            vec![Target::default(); self.letters],
            vec![Target::default(); self.letters],
        ];
        let mut letters: Letters = Vec::with_capacity(self.letters);
        // Per buffer, the blocks (their firsts) whose letters were gathered.
        let mut done: [Vec<u64>; 2] = Default::default();
        let mut n = 0u64;
        // The class listed one step before: (class, entries listed, its buffers).
        let mut ahead: Option<(u64, usize, usize)> = None;
        for class in lo..=hi {
            let b = match ahead {
                Some((_, _, 0)) => 1,
                _ => 0,
            };
            let mut listed = None;
            if class < hi && (if pull { open.has(class) } else { at.has(class) }) {
                let (base, list) = (class * rest, &mut lists[b]);
                let want = if pull { E::UNREACHED } else { at_code };
                let len = match (pull, lv.ways.zip(lv.bits)) {
                    // A pulled class's first letters gathered, the rest listed.
                    (true, Some(with)) => {
                        self.targets(class, moves, &mut to[b]);
                        let scratch = (&mut letters, &mut done[b]);
                        let (len, got) = self.gather_first(lv, class, &to[b], with, scratch, list);
                        if got > 0 {
                            reached.add(class);
                        }
                        n += got;
                        len
                    }
                    // A sparse pushed level's entries from the record of the level before.
                    _ => match lv.listed {
                        Some(l) => {
                            let of = l.of(class);
                            list[..of.len()].copy_from_slice(of);
                            of.len()
                        }
                        None => E::list(t, base, rest, want, list),
                    },
                };
                if len > 0 {
                    if lv.ways.is_none() {
                        self.targets(class, moves, &mut to[b]);
                    }
                    // A long pulled list's whole blocks are asked for a share at a time,
                    // while the class before is worked on (see `pull_class`).
                    if !whole_blocks(len, rest) {
                        self.prefetch_targets(lv, &list[..len], &to[b]);
                    }
                    listed = Some((class, len, b));
                } else if pull {
                    open.remove(class);
                }
            }
            if let Some((c, len, b)) = ahead {
                n += if pull {
                    let scratch = (&mut hits[..], &mut letters, &done[b][..]);
                    let next = match listed {
                        Some((_, len2, b2)) if whole_blocks(len2, rest) => &to[b2][..],
                        _ => &[],
                    };
                    let list = &mut lists[b][..len];
                    self.pull_class(lv, c, list, &to[b], next, scratch, (open, reached))
                } else {
                    self.push_class(lv, &lists[b][..len], &to[b], hits, reached)
                };
            }
            ahead = listed;
        }
        n
    }
}
