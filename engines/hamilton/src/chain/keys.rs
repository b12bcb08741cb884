//! The set of cosets seen so far, by exact key: keys packed into a `u128` when they fit
//! (a base of the 3x3x3 group: 18 points of 6 bits), else kept whole.

use crate::coords::FoldHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

type Fast = BuildHasherDefault<FoldHasher>;

/// A key ready for insertion.
pub enum Made {
    Packed(u128),
    Whole(Box<[u16]>),
}

/// Coset keys mapped to node numbers.
pub struct Seen {
    bits: u32,
    packed: HashMap<u128, u32, Fast>,
    whole: HashMap<Box<[u16]>, u32, Fast>,
}

impl Seen {
    /// For keys whose entries are points below `degree`.
    pub fn new(degree: usize) -> Seen {
        Seen {
            bits: (usize::BITS - degree.max(2).saturating_sub(1).leading_zeros()).max(1),
            packed: HashMap::default(),
            whole: HashMap::default(),
        }
    }

    fn pack(&self, key: &[u16]) -> Option<u128> {
        if key.len() as u32 * self.bits > 127 {
            return None;
        }
        // A leading 1 bit keeps keys of different lengths apart.
        let mut x: u128 = 1;
        for &k in key {
            x = x << self.bits | k as u128;
        }
        Some(x)
    }

    /// The key in the form [`Seen::insert_made`] takes (made on any thread).
    pub fn make(&self, key: &[u16]) -> Made {
        match self.pack(key) {
            Some(x) => Made::Packed(x),
            None => Made::Whole(key.into()),
        }
    }

    /// [`Seen::insert`] of a key made by [`Seen::make`].
    pub fn insert_made(&mut self, key: Made, id: u32) -> Option<u32> {
        let (map_p, map_w) = (&mut self.packed, &mut self.whole);
        match key {
            Made::Packed(x) => match map_p.entry(x) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(id);
                    None
                }
            },
            Made::Whole(k) => match map_w.entry(k) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(id);
                    None
                }
            },
        }
    }

    /// Inserts `key` with `id`; returns the number already there, if any.
    pub fn insert(&mut self, key: &[u16], id: u32) -> Option<u32> {
        match self.pack(key) {
            Some(x) => match self.packed.entry(x) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(id);
                    None
                }
            },
            None => match self.whole.get(key) {
                Some(&j) => Some(j),
                None => {
                    self.whole.insert(key.into(), id);
                    None
                }
            },
        }
    }

    pub fn get(&self, key: &[u16]) -> Option<u32> {
        match self.pack(key) {
            Some(x) => self.packed.get(&x).copied(),
            None => self.whole.get(key).copied(),
        }
    }

    pub fn len(&self) -> usize {
        self.packed.len() + self.whole.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_and_whole_keys() {
        let mut s = Seen::new(54);
        assert_eq!(s.insert(&[1, 2, 3], 0), None);
        assert_eq!(s.insert(&[1, 2, 3], 1), Some(0));
        assert_eq!(s.insert(&[1, 2], 2), None);
        assert_eq!(s.insert(&[0, 1, 2], 3), None);
        let long: Vec<u16> = (0..40).collect();
        assert_eq!(s.insert(&long, 4), None);
        assert_eq!(s.get(&long), Some(4));
        assert_eq!(s.len(), 4);
    }
}
