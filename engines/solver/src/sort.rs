//! A parallel sort that a cancel stops within a fraction of a second: a layer of the
//! sparse distance search can hold hundreds of millions of codes, whose sort by
//! `par_sort_unstable` runs to its end once begun, however long that takes.
//!
//! Quicksort, halves sorted in parallel; a part whose pivot equals the pivot that split
//! it off splits off its run of that value (pdqsort's rule: runs of equal codes are
//! common, a layer's candidates hold each position once for every letter reaching it).
//! Each partition looks at the cancel flag every [`POLL`] elements or so, and a part that
//! has split more often than twice its logarithm is handed to the standard sort (so the
//! worst case stays `n log n`).

use puz_core::{Control, Interrupt};

/// Parts at most this long are sorted by the standard sort (short enough not to poll).
const SMALL: usize = 1 << 16;
/// Elements a partition goes through between two looks at the cancel flag.
const POLL: usize = 1 << 16;

/// Sorts `v`, or stops early, leaving it in some order, with `Err` once `ctl` is cancelled.
pub fn par_sort_until<T: Ord + Copy + Send + Sync>(
    v: &mut [T],
    ctl: &Control,
) -> Result<(), Interrupt> {
    let depth = 2 * (usize::BITS - v.len().leading_zeros());
    sort(v, depth, None, ctl);
    ctl.check()
}

fn sort<T: Ord + Copy + Send + Sync>(v: &mut [T], depth: u32, pred: Option<T>, ctl: &Control) {
    if ctl.cancelled() {
        return;
    }
    if v.len() <= SMALL || depth == 0 {
        v.sort_unstable();
        return;
    }
    let p = pivot(v);
    // Every element is at least `pred` (the pivot that split this part off): when the
    // pivot equals it, the run equal to it is split off and left, sorted already.
    if pred == Some(p) {
        let Some(mid) = partition(v, |x| x <= p, ctl) else {
            return;
        };
        return sort(&mut v[mid..], depth - 1, pred, ctl);
    }
    let Some(mid) = partition(v, |x| x < p, ctl) else {
        return;
    };
    let (low, high) = v.split_at_mut(mid);
    rayon::join(
        || sort(low, depth - 1, pred, ctl),
        || sort(high, depth - 1, Some(p), ctl),
    );
}

/// The median of nine elements spread over `v`.
fn pivot<T: Ord + Copy>(v: &[T]) -> T {
    let step = v.len() / 9;
    let mut s: [T; 9] = std::array::from_fn(|i| v[i * step + step / 2]);
    s.sort_unstable();
    s[4]
}

/// Reorders `v` so that the elements `left` holds for come first and returns how many
/// they are; `None` when cancelled part-way. Lomuto's scheme without branches (each
/// element swapped with the first of the others, which then grow by one when it is not
/// `left`): comparisons of random codes mispredict half the time.
fn partition<T: Copy>(v: &mut [T], left: impl Fn(T) -> bool, ctl: &Control) -> Option<usize> {
    let mut lt = 0;
    for block in (0..v.len()).step_by(POLL) {
        if ctl.cancelled() {
            return None;
        }
        for i in block..(block + POLL).min(v.len()) {
            let x = v[i];
            let go = left(x);
            v[i] = v[lt];
            v[lt] = x;
            lt += go as usize;
        }
    }
    Some(lt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn sorts_as_the_standard_sort_does() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let ctl = Control::default();
        // Distinct codes, many repeats, few distinct values, sorted, reversed, tiny.
        let cases: Vec<Vec<u128>> = vec![
            (0..300_000).map(|_| rng.gen()).collect(),
            (0..300_000).map(|_| rng.gen_range(0..5000)).collect(),
            (0..300_000).map(|_| rng.gen_range(0..3)).collect(),
            (0..300_000).collect(),
            (0..300_000).rev().collect(),
            (0..200_000).map(|i| (i % 1000) as u128).collect(),
            vec![7; 100_000],
            vec![3, 1, 2],
            vec![],
        ];
        for mut v in cases {
            let mut want = v.clone();
            want.sort_unstable();
            par_sort_until(&mut v, &ctl).unwrap();
            assert_eq!(v, want);
        }
    }

    #[test]
    fn a_cancelled_sort_returns_at_once() {
        let ctl = Control::default();
        ctl.flag().store(true, std::sync::atomic::Ordering::Relaxed);
        let mut v: Vec<u128> = (0..1_000_000).rev().collect();
        assert!(par_sort_until(&mut v, &ctl).is_err());
        // Nothing was sorted: the flag was looked at before the first partition.
        assert_eq!(v[0], 999_999);
    }
}
