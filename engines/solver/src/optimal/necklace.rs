//! The rotation and reversal rules of central positions (those that commute with every
//! letter): every rotation of a solution solves them too, so the search keeps one rotation
//! of each solution, one whose letters' ranks are a necklace (the least of their
//! rotations); for a central position that is its own inverse, one whose ranks are a
//! bracelet (the least of their rotations and of their reversal's). Also whether the
//! metric's canonical sequences allow the rules at all.

use super::Solver;
use crate::canon::Canon;
use crate::metric::Metric;
use puz_core::Perm;

/// The ranks of the letters under the rules for one position (all 0 when the rotation rule
/// does not apply) and whether the reversal rule applies.
pub(super) struct Rules {
    pub(super) rank: Vec<u32>,
    pub(super) reverse: bool,
}

impl Rules {
    /// The rules for `position`, fixed by the symmetries `fixing` (none when every
    /// solution is `wanted`, `all`).
    pub(super) fn new(s: &Solver, position: &Perm, fixing: &[&[u32]], all: bool) -> Rules {
        // A central position (one that commutes with every letter), where rotations of
        // optimal canonical sequences stay canonical: every rotation of a solution solves
        // it too, so only solutions that start with a lowest-ranked letter are searched.
        let rotate = !all
            && s.rotations
            && s.metric
                .alphabet
                .perms
                .iter()
                .all(|a| a.then(position) == position.then(a));
        let rank = if rotate {
            rotation_ranks(s.metric.len(), fixing)
        } else {
            vec![0; s.metric.len()]
        };
        // Its own inverse too: the reversal rule (see [`Necklace::reversed_below`]).
        let inverse = &s.metric.alphabet.inverse;
        let reverse = rotate
            && s.reversals
            && position.then(position).is_identity()
            && (0..rank.len()).all(|l| rank[inverse[l] as usize] == rank[l]);
        Rules { rank, reverse }
    }

    /// The rules as the search reads them.
    pub(super) fn view(&self) -> Necklace<'_> {
        Necklace {
            rank: &self.rank,
            reverse: self.reverse,
        }
    }
}

/// The rules on a search path: a letter ranked that would make the path's ranks no prefix
/// of a necklace is not searched (see [`Necklace::floor`]; all ranks 0 without the rule),
/// nor one that fails the reversal rule (see [`Necklace::reversed_below`]).
#[derive(Clone, Copy)]
pub(super) struct Necklace<'a> {
    /// Per letter: its rank.
    pub(super) rank: &'a [u32],
    /// Whether the reversal rule applies.
    reverse: bool,
}

impl Necklace<'_> {
    /// The lowest rank a letter after `path` may have, given the period of the path's
    /// ranks (see [`Necklace::period_after`]). The rotation rule keeps, of the rotations of
    /// a solution, one whose ranks are a necklace (the least of their rotations); every
    /// prefix of a necklace passes the test of Fredricksen, Kessler and Maiorana: with
    /// `p` the period of the prefix, the next rank is at least the one `p` places back,
    /// and above it the period becomes the whole prefix.
    #[inline]
    pub(super) fn floor(&self, path: &[u32], period: usize) -> u32 {
        self.rank[path[path.len() - period] as usize]
    }

    /// The reversal rule, for a central position that is its own inverse, where inverting
    /// a letter keeps its rank and reversing optimal canonical sequences keeps them
    /// canonical: the inverse of a solution, read backwards, solves it too, so of the
    /// rotations of a solution and of its inverse the search keeps one whose ranks are the
    /// least (a bracelet). Each prefix of those ranks is at most its own reversal (else a
    /// rotation of the reversed ranks, starting at the prefix's end, would be less): true
    /// when `path` followed by a letter of rank `r` fails that.
    pub(super) fn reversed_below(&self, path: &[u32], r: u32) -> bool {
        if !self.reverse || r != self.rank[path[0] as usize] {
            return false;
        }
        let t = path.len() + 1;
        let at = |k: usize| {
            if k + 1 == t {
                r
            } else {
                self.rank[path[k] as usize]
            }
        };
        for i in 0..t / 2 {
            match at(i).cmp(&at(t - 1 - i)) {
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Greater => return true,
                std::cmp::Ordering::Equal => {}
            }
        }
        false
    }

    /// The period after `path` and a letter of rank `r`, at least `floor` (the path's
    /// [`Necklace::floor`]: lower letters are not searched).
    #[inline]
    pub(super) fn period_after(&self, path: &[u32], floor: u32, period: usize, r: u32) -> usize {
        let next = next_period(floor, path.len(), period, r);
        debug_assert!(next.is_some(), "a letter below the floor was searched");
        next.unwrap_or(period)
    }
}

/// One step of the prenecklace test (see [`Necklace::floor`]): after a prefix of `len` ranks
/// with period `period`, whose rank `period` places back is `back`, a rank `r`: `None`
/// when the prefix stops being a prefix of a necklace, else the new period.
#[inline]
pub(super) fn next_period(back: u32, len: usize, period: usize, r: u32) -> Option<usize> {
    match r.cmp(&back) {
        std::cmp::Ordering::Less => None,
        std::cmp::Ordering::Equal => Some(period),
        std::cmp::Ordering::Greater => Some(len + 1),
    }
}

/// Whether the letters `a b` multiply to the identity or to one cheaper letter: then no
/// optimal sequence holds them side by side.
fn never_optimal(metric: &Metric, a: u32, b: u32) -> bool {
    let perms = &metric.alphabet.perms;
    let ab = perms[a as usize].then(&perms[b as usize]);
    let cost = metric.cost[a as usize] + metric.cost[b as usize];
    ab.is_identity() || (0..metric.len()).any(|c| metric.cost[c] < cost && perms[c] == ab)
}

/// See `Solver::reversals`: every pair the automaton allows, inverted and swapped, is
/// allowed too, unless no optimal sequence holds it. Pairs are read from the state after
/// the first letter alone, which is exact when [`rotations_stay_canonical`] holds (the rule
/// is only used then).
pub(super) fn reversals_stay_canonical(metric: &Metric, canon: &Canon) -> bool {
    let nl = metric.len() as u32;
    let inv = &metric.alphabet.inverse;
    let after: Vec<Option<u32>> = (0..nl).map(|a| canon.next(0, a)).collect();
    let allowed = |a: u32, b: u32| after[a as usize].is_some_and(|s| canon.next(s, b).is_some());
    (0..nl).all(|l| metric.cost[inv[l as usize] as usize] == metric.cost[l as usize])
        && (0..nl).all(|a| {
            (0..nl).all(|b| {
                !allowed(a, b)
                    || allowed(inv[b as usize], inv[a as usize])
                    || never_optimal(metric, a, b)
            })
        })
}

/// See `Solver::rotations`.
pub(super) fn rotations_stay_canonical(metric: &Metric, canon: &Canon) -> bool {
    let nl = metric.len() as u32;
    let after: Vec<Option<u32>> = (0..nl).map(|a| canon.next(0, a)).collect();
    // The state after a letter does not depend on what came before it.
    let first_order = (0..canon.states as u32).all(|s| {
        (0..nl).all(|a| {
            canon
                .next(s, a)
                .is_none_or(|t| Some(t) == after[a as usize])
        })
    });
    first_order
        && (0..nl).all(|a| {
            let Some(sa) = after[a as usize] else {
                return true;
            };
            (0..nl).all(|b| {
                after[b as usize].is_none()
                    || canon.next(sa, b).is_some()
                    || never_optimal(metric, a, b)
            })
        })
}

/// Ranks of the letters for the rotation rule: the classes of letters under the symmetries
/// `maps` fixing the position, the largest classes first (a task starting with a letter of
/// rank `r` searches only letters of rank `r` and up, and the tasks starting in a large
/// class shut the most letters out of the others). Given a solution, its rotation whose
/// ranks are least (a necklace, see [`Necklace::floor`]), conjugated so that its first
/// letters are a searched task, is a solution that the search keeps: conjugation keeps
/// the letters' classes, so the ranks stay a necklace.
pub(crate) fn rotation_ranks(letters: usize, maps: &[&[u32]]) -> Vec<u32> {
    let mut class = vec![usize::MAX; letters];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for l in 0..letters {
        if class[l] != usize::MAX {
            continue;
        }
        let mut members: Vec<usize> = std::iter::once(l)
            .chain(maps.iter().map(|m| m[l] as usize))
            .collect();
        members.sort_unstable();
        members.dedup();
        for &m in &members {
            class[m] = classes.len();
        }
        classes.push(members);
    }
    let mut by_size: Vec<usize> = (0..classes.len()).collect();
    by_size.sort_by_key(|&c| (std::cmp::Reverse(classes[c].len()), classes[c][0]));
    let mut rank = vec![0u32; letters];
    for (r, &c) in by_size.iter().enumerate() {
        for &m in &classes[c] {
            rank[m] = r as u32;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::super::tests::{opts, FACES};
    use super::*;
    use crate::testsupport::{cube3, seq};
    use puz_core::Control;

    #[test]
    fn rotations_rule_only_where_rotations_stay_canonical() {
        let c3 = cube3();
        let htm = Metric::htm(&c3, &FACES, &Control::default()).unwrap();
        let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
        assert!(rotations_stay_canonical(&atm, &Canon::new(&atm)));
        // htm refuses `D U` (searching `U D`), which is no cheaper.
        assert!(!rotations_stay_canonical(&htm, &Canon::new(&htm)));
        // The superflip is fixed by the 48 rotations and reflections: atm letters fall into
        // 6 classes, quarter turns (12), half turns (6) and the axial pairs U^a D^b up to
        // a <-> b and (a, b) <-> (-a, -b): {1 2, 2 3} (12), {1 1, 3 3}, {1 3}, {2 2}.
        let solver = Solver::new(&c3, &atm, &opts(1 << 20), &Control::default()).unwrap();
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let fixing = solver.symmetries.fixing(&superflip);
        assert_eq!(fixing.len(), 48);
        let rank = rotation_ranks(atm.len(), &fixing);
        let mut sizes = vec![0; 1 + *rank.iter().max().unwrap() as usize];
        for &r in &rank {
            sizes[r as usize] += 1;
        }
        assert_eq!(sizes, vec![12, 12, 6, 6, 6, 3]);
        // Without symmetries every letter is its own class.
        let rank = rotation_ranks(atm.len(), &[]);
        assert_eq!(rank, (0..atm.len() as u32).collect::<Vec<_>>());
    }

    /// Whether every prefix of `ranks` passes the prenecklace test.
    fn passes(ranks: &[u32]) -> bool {
        let mut period = 1;
        for len in 1..ranks.len() {
            match next_period(ranks[len - period], len, period, ranks[len]) {
                Some(p) => period = p,
                None => return false,
            }
        }
        true
    }

    #[test]
    fn least_rotations_pass_the_necklace_test() {
        // Every sequence of up to 8 ranks among 3: its least rotation passes (the search
        // keeps it), and so does nothing that starts above its least rank; a sequence that
        // passes is at most each of its rotations on the length of the shorter prefix.
        for len in 1..=8u32 {
            for code in 0..3u32.pow(len) {
                let ranks: Vec<u32> = (0..len).map(|i| code / 3u32.pow(i) % 3).collect();
                let n = ranks.len();
                let rotations: Vec<Vec<u32>> = (0..n)
                    .map(|k| ranks[k..].iter().chain(&ranks[..k]).copied().collect())
                    .collect();
                let least = rotations.iter().min().unwrap();
                assert!(passes(least), "{least:?}");
                if passes(&ranks) {
                    assert_eq!(ranks[0], *ranks.iter().min().unwrap(), "{ranks:?}");
                    for k in 1..n {
                        assert!(ranks[..n - k] <= ranks[k..], "{ranks:?} at {k}");
                    }
                }
            }
        }
    }

    /// The reversal rule of [`Necklace::reversed_below`], on the ranks alone.
    fn reverse_passes(ranks: &[u32]) -> bool {
        (1..=ranks.len()).all(|t| {
            let p = &ranks[..t];
            let r: Vec<u32> = p.iter().rev().copied().collect();
            p[0] != p[t - 1] || p <= &r[..]
        })
    }

    #[test]
    fn least_bracelets_pass_both_tests() {
        // Every sequence of up to 8 ranks among 3: the least of its rotations and of its
        // reversal's rotations passes the necklace test and the reversal rule, and the
        // rule shuts out some necklaces.
        let mut shut = 0;
        for len in 1..=8u32 {
            for code in 0..3u32.pow(len) {
                let ranks: Vec<u32> = (0..len).map(|i| code / 3u32.pow(i) % 3).collect();
                let n = ranks.len();
                let back: Vec<u32> = ranks.iter().rev().copied().collect();
                let least = (0..n)
                    .flat_map(|k| {
                        [&ranks, &back].map(|s| s[k..].iter().chain(&s[..k]).copied().collect())
                    })
                    .min()
                    .unwrap();
                let least: Vec<u32> = least;
                assert!(passes(&least) && reverse_passes(&least), "{least:?}");
                shut += (passes(&ranks) && !reverse_passes(&ranks)) as u32;
            }
        }
        assert!(shut > 0);
        // On the 3x3x3 in atm, reversing keeps canonical sequences canonical; the inverse
        // of every letter has its rank under the superflip's symmetries.
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
        assert!(reversals_stay_canonical(&atm, &Canon::new(&atm)));
        let solver = Solver::new(&c3, &atm, &opts(1 << 20), &Control::default()).unwrap();
        let superflip = seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let rank = rotation_ranks(atm.len(), &solver.symmetries.fixing(&superflip));
        assert!((0..atm.len()).all(|l| rank[atm.alphabet.inverse[l] as usize] == rank[l]));
    }
}
