//! A reduced table's key classes read from small tables (Kociemba's factoring of the
//! sorted-slice classes). When the key's part follows where each of some pieces is (a
//! places part), the key splits into its *sub-key* (the same key with the set of those
//! locations instead of the places) and the *order* of the pieces within that set. The
//! symmetries carry sub-keys (a set's image is a set), so sub-keys have classes of their
//! own, and a key's class is found in three steps:
//!
//! 1. the sub-key's class `sc` and a symmetry `s` taking the sub-key to its representative;
//! 2. the order of the key's image by `s` (a function of the places value and `s`);
//! 3. the class of the key made of that representative and that order, and a symmetry `t`
//!    taking it to the class's representative: the key goes there by `s` then `t`.
//!
//! On the 3x3x3's sorted slice the tables are 4 MB (flip-slice classes), 6 MB and 190 KB,
//! where the whole key's classes are 97 MB: a look-up stays in the cache.

use super::sym_key::KeyMaps;
use crate::bigbuf::BigU32;
use crate::model::{CellMap, Model};

/// The small tables of a key's class.
pub(super) struct Factored {
    /// Place value and size of the places part within the key.
    weight: u64,
    size: u64,
    /// Per places value: its set's number and its order within the set.
    set_of: Vec<u32>,
    /// Values per set, and sets.
    orders: u64,
    sets: u64,
    /// `order_by[v * syms + s]`: the order of the image of places value `v` by `s`.
    order_by: Vec<u8>,
    /// Per sub-key: its class `<< 6 |` a symmetry taking it to the representative.
    sub_class: BigU32,
    /// `class_at[sc * orders + o]`: the key class of the representative of sub-key class
    /// `sc` with order `o` (class `<< 6 |` symmetry), as in the whole key's table.
    class_at: BigU32,
    /// `then[s * syms + t]`: the symmetry that is `s` then `t`.
    then: Vec<u8>,
    syms: usize,
    /// The places part (an index into a tuple of part values) and the key's other parts
    /// with their place values in the sub-key's radix (without the places digit).
    places_part: usize,
    others: Vec<(usize, u64)>,
}

impl Factored {
    /// The factoring of a key whose classes are `key_class` (see
    /// [`super::symmetric::Reduction`]), or `None` when its part is no places part with
    /// more than one order, or when the symmetries' products are not among them.
    pub(super) fn new(
        model: &Model,
        (key_parts, key_weights): (&[usize], &[u64]),
        fast: &KeyMaps,
        maps: &[&CellMap],
        inverse: &[usize],
        key_class: &[u32],
    ) -> Option<Factored> {
        let syms = maps.len();
        let (weight, size) = fast.places();
        let places_part = key_parts[key_weights.iter().position(|&w| w == weight)?];
        let others = key_parts
            .iter()
            .zip(key_weights)
            .filter(|&(&p, _)| p != places_part)
            .map(|(&p, &w)| (p, if w > weight { w / size } else { w }))
            .collect();
        // Number the sets in order of their first places value, and each value's order
        // within its set.
        let mut set_id = std::collections::HashMap::new();
        let mut count: Vec<u32> = Vec::new();
        let mut set_of = Vec::with_capacity(size as usize);
        let mut first = Vec::new();
        for v in 0..size {
            let n = set_id.len() as u32;
            let id = *set_id.entry(fast.mask(v)).or_insert(n);
            if id == n {
                count.push(0);
                first.push(Vec::new());
            }
            first[id as usize].push(v);
            set_of.push(id << 8 | count[id as usize]);
            count[id as usize] += 1;
        }
        let sets = count.len() as u64;
        let orders = count[0] as u64;
        if orders < 2 || orders > 256 || count.iter().any(|&c| c as u64 != orders) {
            return None;
        }
        let key_size = key_class.len() as u64;
        let sub_size = key_size / size * sets;
        let key_of = |sub: u64, order: u64| -> u64 {
            let (other, set) = (sub / sets, sub % sets);
            let v = first[set as usize][order as usize];
            (other / weight) * weight * size + v * weight + other % weight
        };
        let sub_of = |key: u64| -> u64 {
            let v = (key / weight) % size;
            let other = (key / (weight * size)) * weight + key % weight;
            other * sets + (set_of[v as usize] >> 8) as u64
        };
        let mut then = vec![0u8; syms * syms];
        for s in 0..syms {
            for t in 0..syms {
                let st = model.then_map(maps[s], maps[t]);
                then[s * syms + t] = maps.iter().position(|m| model.same_map(m, &st))? as u8;
            }
        }
        let mut order_by = Vec::with_capacity(size as usize * syms);
        for v in 0..size {
            for s in 0..syms {
                let w = (fast.image(v * weight, s) / weight) % size;
                order_by.push((set_of[w as usize] & 255) as u8);
            }
        }
        // Each sub-key not yet in a class is the smallest of its orbit (as in
        // `form_classes`).
        const NONE: u32 = u32::MAX;
        let mut sub_class = BigU32::new_max(sub_size as usize);
        let mut class_at = Vec::new();
        for k in 0..sub_size {
            if sub_class[k as usize] != NONE {
                continue;
            }
            let cls = (class_at.len() as u64 / orders) as u32;
            sub_class[k as usize] = cls << 6;
            for (s, &back) in inverse.iter().enumerate().skip(1) {
                let j = sub_of(fast.image(key_of(k, 0), s));
                if sub_class[j as usize] == NONE {
                    sub_class[j as usize] = cls << 6 | back as u32;
                }
            }
            class_at.extend((0..orders).map(|o| key_class[key_of(k, o) as usize]));
        }
        // In huge pages, as the whole key's classes are: read at random, once a look-up.
        let mut at = BigU32::new_max(class_at.len());
        at.copy_from_slice(&class_at);
        let class_at = at;
        Some(Factored {
            weight,
            size,
            set_of,
            orders,
            sets,
            order_by,
            sub_class,
            class_at,
            then,
            syms,
            places_part,
            others,
        })
    }

    /// The sub-key of the tuple of part values `values`, and its places value.
    #[inline(always)]
    fn sub_of(&self, values: &[u32]) -> (u64, u64) {
        let v = values[self.places_part] as u64;
        let other: u64 = self.others.iter().map(|&(p, w)| values[p] as u64 * w).sum();
        (other * self.sets + (self.set_of[v as usize] >> 8) as u64, v)
    }

    /// The class of `key` and a symmetry taking it to the class's representative.
    #[cfg(test)]
    fn class_of(&self, key: u64) -> (u64, usize) {
        let v = (key / self.weight) % self.size;
        let other = (key / (self.weight * self.size)) * self.weight + key % self.weight;
        self.class_of_sub(other * self.sets + (self.set_of[v as usize] >> 8) as u64, v)
    }

    /// The class of the key of the tuple of part values `values` and a symmetry taking
    /// it to the class's representative.
    #[inline]
    pub(super) fn class_of_values(&self, values: &[u32]) -> (u64, usize) {
        let (sub, v) = self.sub_of(values);
        self.class_of_sub(sub, v)
    }

    #[inline(always)]
    fn class_of_sub(&self, sub: u64, v: u64) -> (u64, usize) {
        let a = self.sub_class[sub as usize];
        let (sc, s) = ((a >> 6) as u64, (a & 63) as usize);
        let o = self.order_by[v as usize * self.syms + s] as u64;
        let b = self.class_at[(sc * self.orders + o) as usize];
        let t = (b & 63) as usize;
        ((b >> 6) as u64, self.then[s * self.syms + t] as usize)
    }

    /// Asks the cache for the first table `class_of` reads.
    #[inline(always)]
    pub(super) fn prefetch(&self, values: &[u32]) {
        let (sub, v) = self.sub_of(values);
        // The first table is small enough to be read here (mostly from the cache); the
        // line of the second it leads to is asked for.
        let a = self.sub_class[sub as usize];
        let (sc, s) = ((a >> 6) as u64, (a & 63) as usize);
        let o = self.order_by[v as usize * self.syms + s] as u64;
        let i = (sc * self.orders + o) as usize;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching never faults; the address is inside the table anyway.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.class_at.as_ptr().add(i) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Bytes it holds.
    pub(super) fn bytes(&self) -> u64 {
        4 * (self.set_of.len() + self.sub_class.len() + self.class_at.len()) as u64
            + (self.order_by.len() + self.then.len()) as u64
    }

    /// Classes of sub-keys.
    #[cfg(test)]
    fn sub_classes(&self) -> u64 {
        self.class_at.len() as u64 / self.orders
    }
}

#[cfg(test)]
mod tests {
    use super::super::coords::{Coords, Part};
    use super::super::symmetric::{reduce, tests::cube_symmetries};

    #[test]
    fn the_sorted_slice_classes_from_small_tables_are_those_of_the_whole_key() {
        // Kociemba's sorted slice with the edge flips: 24,330,240 keys in 1,523,864
        // classes, read through his 64,430 flip-slice classes.
        let (model, conj) = cube_symmetries();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 1 },
                Part::Places {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
                Part::Ori { orbit: 0 },
            ],
        )
        .unwrap();
        let r = reduce(&model, c, &conj, u64::MAX, None, None);
        let red = r.sym.clone().unwrap();
        assert_eq!(red.syms, 16);
        assert_eq!(red.classes, 1_523_864);
        let f = red.factored().expect("a places key is factored");
        assert_eq!(f.sub_classes(), 64_430);
        assert!(f.bytes() < 12 << 20, "{} bytes", f.bytes());
        let syms = red.syms;
        // Every key: the same class, and a symmetry to its representative, which may
        // differ from the whole table's by one fixing the representative.
        let mut other_syms = 0u64;
        for key in 0..24_330_240u64 {
            let (c1, s1) = red.class_of(key);
            let (c2, s2) = f.class_of(key);
            assert_eq!(c1, c2, "key {key}");
            if s1 != s2 {
                other_syms += 1;
                let x = (0..syms)
                    .find(|&x| f.then[s1 * syms + x] as usize == s2)
                    .unwrap();
                assert!(red.rep(c1).1 >> x & 1 == 1, "key {key}: {s1} and {s2}");
            }
        }
        // The keys of classes with a stabiliser may take another symmetry: some do.
        assert!(other_syms > 0);
    }

    #[test]
    fn a_set_key_is_not_factored() {
        let (model, conj) = cube_symmetries();
        let c = Coords::new(
            &model,
            vec![
                Part::Ori { orbit: 1 },
                Part::Set {
                    orbit: 1,
                    pieces: vec![8, 9, 10, 11],
                },
            ],
        )
        .unwrap();
        let red = reduce(&model, c, &conj, u64::MAX, None, None).sym.unwrap();
        assert!(red.factored().is_none());
    }
}
