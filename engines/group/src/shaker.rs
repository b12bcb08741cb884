//! Product replacement (Celler, Leedham-Green, Murray, Niemeyer, O'Brien): nearly
//! uniform random elements of the group of some generators, for random Schreier-Sims.

use crate::raw;
use crate::rng::Rng;

/// Product replacement: nearly uniform random elements from generators.
pub(crate) struct Shaker {
    slots: Vec<Vec<u16>>,
    acc: Vec<u16>,
    rng: Rng,
}

impl Shaker {
    pub(crate) fn new(gens: &[Vec<u16>], n: usize, seed: u64) -> Shaker {
        let mut slots: Vec<Vec<u16>> = Vec::new();
        let count = gens.len().max(10);
        for i in 0..count {
            slots.push(if gens.is_empty() {
                raw::identity(n)
            } else {
                gens[i % gens.len()].clone()
            });
        }
        let mut s = Shaker {
            slots,
            acc: raw::identity(n),
            rng: Rng::new(seed),
        };
        for _ in 0..60 {
            s.next();
        }
        s
    }

    pub(crate) fn next(&mut self) -> Vec<u16> {
        let m = self.slots.len();
        let i = self.rng.below(m);
        let mut j = self.rng.below(m - 1);
        if j >= i {
            j += 1;
        }
        let (a, b) = if i < j {
            let (lo, hi) = self.slots.split_at_mut(j);
            (&mut lo[i], &hi[0])
        } else {
            let (lo, hi) = self.slots.split_at_mut(i);
            (&mut hi[0], &lo[j])
        };
        if self.rng.below(2) == 0 {
            raw::then_assign(a, b);
        } else {
            let mut t = b.clone();
            raw::then_assign(&mut t, a);
            a.copy_from_slice(&t);
        }
        raw::then_assign(&mut self.acc, &self.slots[i]);
        self.acc.clone()
    }
}
