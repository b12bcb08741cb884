//! The entries a sparse pushed level sets, recorded as they are set, so that the level
//! after it finds them listed instead of looking for them class by class over the whole
//! table (`sym_fill.rs`): on the 3x3x3's nxopt table the first levels of millions of
//! entries lie scattered over all 64,430 classes, a few dozen a class, and each pass
//! over the table to find them read its 2.4 GB.
//!
//! Each class pushed adds its part at once (one lock a class, not a count an entry);
//! past the room foreseen the record is given up and the level after looks for its
//! entries as before.

use super::gather::Lists;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// The entries set by one level, as table indices, in parts as they came.
pub(super) struct Record {
    parts: Mutex<Vec<Vec<u64>>>,
    /// How many entries the record may hold, and how many it holds.
    room: u64,
    held: AtomicU64,
    /// Whether some part found no room (then the record is not whole).
    full: AtomicBool,
}

impl Record {
    /// A record of at most `room` entries.
    pub fn new(room: u64) -> Record {
        Record {
            parts: Mutex::new(Vec::new()),
            room,
            held: AtomicU64::new(0),
            full: AtomicBool::new(false),
        }
    }

    /// Bytes a record of `room` entries may take (its parts, then the lists made of it).
    pub fn bytes(room: u64) -> u64 {
        12 * room
    }

    /// Adds the entries `part` set (leaves `part` empty).
    pub fn add(&self, part: &mut Vec<u64>) {
        if part.is_empty() {
            return;
        }
        let n = part.len() as u64;
        if self.held.fetch_add(n, Relaxed) + n > self.room {
            self.full.store(true, Relaxed);
            part.clear();
            return;
        }
        let part = std::mem::take(part);
        self.parts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(part);
    }

    /// The entries recorded, listed per class of `rest` entries (of `classes`); `None`
    /// when some found no room.
    pub fn into_lists(self, rest: u64, classes: u64) -> Option<Lists> {
        if self.full.load(Relaxed) {
            return None;
        }
        let parts = self.parts.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut all: Vec<u64> = parts.concat();
        drop(parts);
        all.par_sort_unstable();
        let lists = Lists::empty(all.len() as u64, classes);
        // Cut at class boundaries, each class's offsets set by one thread.
        all.par_chunk_by(|a, b| a / rest == b / rest)
            .for_each_init(Vec::new, |offsets, run| {
                offsets.clear();
                offsets.extend(run.iter().map(|&i| (i % rest) as u32));
                lists.set_offsets(run[0] / rest, offsets);
            });
        lists.whole().then_some(lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_lists_its_entries_by_class_in_order() {
        let r = Record::new(100);
        let mut a = vec![7 * 10 + 3, 2 * 10 + 9, 7 * 10 + 1];
        let mut b = vec![2 * 10, 5 * 10 + 5];
        r.add(&mut a);
        r.add(&mut b);
        assert!(a.is_empty() && b.is_empty());
        let lists = r.into_lists(10, 8).expect("whole");
        assert_eq!(lists.of(7), [1, 3]);
        assert_eq!(lists.of(2), [0, 9]);
        assert_eq!(lists.of(5), [5]);
        assert!(lists.of(0).is_empty() && lists.of(3).is_empty());
    }

    #[test]
    fn a_record_past_its_room_is_given_up() {
        let r = Record::new(3);
        r.add(&mut vec![1, 2]);
        r.add(&mut vec![3, 4]);
        assert!(r.into_lists(10, 1).is_none());
    }
}
