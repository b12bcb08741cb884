//! The one random source of the search: a small xorshift generator, so that every search
//! is deterministic (the same group gives the same word).

/// A xorshift64 generator.
pub(super) struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A number in `0..m`.
    pub(super) fn below(&mut self, m: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % m as u64) as usize
    }

    /// Shuffles `v` in place (Fisher-Yates, from the back).
    pub(super) fn shuffle<T>(&mut self, v: &mut [T]) {
        for j in (1..v.len()).rev() {
            let r = self.below(j + 1);
            v.swap(j, r);
        }
    }
}
