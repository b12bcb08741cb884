//! A pulled run's hits written together ([`set_marked`]): in a table of pairs
//! ([`super::pairs`]) an entry written alone costs a division by its line's 252 entries,
//! a read and a write of its byte and a look at its half line's level; a run's hits,
//! marked as bits, are written a byte (four entries) at a time, each half line's level
//! once.

use super::bitset::{bits_at, ones};
use super::pairs::{set, set_alone, LINE, PER_LINE};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Sets entry `lo + x` to `code`, reached at level `d`, for each bit `x` of `marks`
/// (none at `n` or past it), every one [`super::pairs::UNREACHED`] and set by no other
/// thread; how many. Where they are many, line by line: a byte's four fields at once by
/// a mask, its half lines' nibbles once (a pulled run's hits: no division an entry);
/// the lines inside `alone` ([`super::pairs::alone`]) with plain loads and stores, the
/// others by locked writes.
pub fn set_marked(
    t: &[AtomicU8],
    lo: u64,
    (marks, n): (&[u64], u32),
    (code, d): (u8, u8),
    alone: &std::ops::Range<u64>,
) -> u64 {
    let count: u64 = marks.iter().map(|m| m.count_ones() as u64).sum();
    if count * 8 < n as u64 {
        // Few: one by one.
        for i in ones(marks).map(|x| lo + x) {
            let fresh = if alone.contains(&i) {
                set_alone(t, i, code, d)
            } else {
                set(t, i, code, d)
            };
            debug_assert!(fresh);
        }
        return count;
    }
    let clear = (3 & !code) * 0x55;
    for line in lo / PER_LINE..(lo + n as u64).div_ceil(PER_LINE) {
        let first = line * PER_LINE;
        let row = &t[(line * LINE) as usize..][..LINE as usize];
        let plain = alone.start <= first && first + PER_LINE <= alone.end;
        // The line's marks, 64 slots a word (the last word's 60).
        let m: [u64; 4] = std::array::from_fn(|c| {
            let m = bits_at(marks, first as i64 - lo as i64 + 64 * c as i64);
            if c == 3 {
                m & ((1 << (PER_LINE - 192)) - 1)
            } else {
                m
            }
        });
        for (c, &m) in m.iter().enumerate() {
            if m == 0 {
                continue;
            }
            for (j, x) in row[1 + 16 * c..].iter().take(16).enumerate() {
                let fields = FIELDS[((m >> (4 * j)) & 15) as usize];
                if plain {
                    let v = x.load(Relaxed);
                    debug_assert_eq!(v & fields, fields, "a marked entry was reached");
                    x.store(v & !(fields & clear), Relaxed);
                } else if fields != 0 {
                    x.fetch_and(!(fields & clear), Relaxed);
                }
            }
        }
        // Slots below 126 are the low half line's, the rest the high one's.
        let low = m[0] != 0 || m[1] << 2 != 0;
        let high = m[1] >> 62 != 0 || m[2] != 0 || m[3] != 0;
        for (any, sh) in [(low, 0), (high, 4)] {
            let h = &row[0];
            if any && (h.load(Relaxed) >> sh) & 15 == 15 {
                if plain {
                    h.store(h.load(Relaxed) & !((15 & !d) << sh), Relaxed);
                } else {
                    h.fetch_and(!((15 & !d) << sh), Relaxed);
                }
            }
        }
    }
    count
}

/// A byte's fields (both bits) for each of its entries marked in a nibble.
const FIELDS: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 16 {
        let mut j = 0;
        while j < 4 {
            if (k >> j) & 1 == 1 {
                t[k] |= 3 << (2 * j);
            }
            j += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::pairs::{alone, bytes, get, UNREACHED};

    fn atomic(t: &mut [u8]) -> &[AtomicU8] {
        // SAFETY: AtomicU8 has the layout of u8, and the borrow is exclusive.
        unsafe { &*(t as *mut [u8] as *const [AtomicU8]) }
    }

    /// Sets the entries `lo + r` of `rs` (`r` below `n`) of table `t` by
    /// [`set_marked`] and one by one, and compares the tables and counts.
    fn set_both(t: &mut [u8], lo: u64, n: u32, rs: &[u32], alone: std::ops::Range<u64>) {
        let mut u = t.to_vec();
        let mut marks = vec![0u64; (n as usize).div_ceil(64)];
        for &r in rs {
            marks[r as usize / 64] |= 1 << (r % 64);
        }
        let (a, b) = (atomic(t), atomic(&mut u));
        let want = rs.iter().map(|&r| set(a, lo + r as u64, 2, 5) as u64).sum();
        assert_eq!(set_marked(b, lo, (&marks, n), (2, 5), &alone), want);
        assert_eq!(t, &u[..], "lo {lo} n {n} {rs:?}");
    }

    #[test]
    fn marked_entries_are_set_as_one_by_one() {
        // Runs from several starts (a line's first slot, its middle, near its end), dense
        // and sparse marks, some of their lines shared with another writer, on a table
        // part reached already and on a new one.
        let size = 12 * PER_LINE;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (lo, n) in [
            (0, 700),
            (5, 2187),
            (126, 1000),
            (250, 64),
            (253, 130),
            (1, 3),
        ] {
            for (dense, reached) in [(1, 3), (2, 3), (8, 3), (40, 3), (2, 0), (8, 0)] {
                let mut t = vec![u8::MAX; bytes(size) as usize];
                for i in 0..size {
                    if reached > 0 && next() % reached == 0 {
                        set(atomic(&mut t), i, 1, 4);
                    }
                }
                let rs: Vec<u32> = (0..n)
                    .filter(|_| next() % dense == 0)
                    .filter(|&r| get(atomic(&mut t), lo + r as u64) == UNREACHED)
                    .collect();
                set_both(&mut t, lo, n, &rs, alone(lo + 7, lo + n as u64 - 3));
            }
        }
        // Alone in its half line (the low half's last slot, the high half's first), or
        // in the next line's first slots: each half line's level as one by one.
        let line = PER_LINE;
        for (lo, rs) in [
            (line + 120, &[5][..]),
            (line + 120, &[6]),
            (line + 248, &[4, 5, 6, 7]),
        ] {
            let mut t = vec![u8::MAX; bytes(size) as usize];
            set_both(&mut t, lo, 8, rs, alone(0, size));
        }
    }
}
