//! The rules that keep one image of each solution. Central positions (those that commute
//! with every letter): every rotation of a solution solves them too, so the search keeps
//! one rotation of each solution, one whose letters' ranks are a necklace (the least of
//! their rotations); for a central position that is its own inverse, one whose ranks are
//! a bracelet (the least of their rotations and of their reversal's). Positions fixed by
//! symmetries: the conjugates of a solution solve them too, so the search keeps one whose
//! letters are the least of its images' (letter by letter, see [`Necklace::image_below`];
//! the first two letters are the tasks kept, `symmetry::representatives`). Also whether
//! the metric's canonical sequences allow the rotation rules at all.
//!
//! Together the rules keep the least optimal canonical solution ordered by ranks, then by
//! letters: its ranks are the least of its rotations' (and reversal's), and its images
//! under the symmetries have its ranks, so its letters are the least of theirs.

use super::Solver;
use crate::canon::Canon;
use crate::metric::Metric;
use puz_core::Perm;

/// The ranks of the letters under the rules for one position (all 0 when the rotation rule
/// does not apply) and whether the reversal rule applies.
pub(super) struct Rules {
    pub(super) rank: Vec<u32>,
    pub(super) reverse: bool,
    /// The letter maps of the symmetries fixing the position, the identity left out (at
    /// most 64).
    images: Vec<Vec<u32>>,
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
        let images = fixing
            .iter()
            .filter(|m| m.iter().enumerate().any(|(l, &i)| i != l as u32))
            .take(64)
            .map(|m| m.to_vec())
            .collect();
        Rules {
            rank,
            reverse,
            images,
        }
    }

    /// The rules as the search reads them.
    pub(super) fn view(&self) -> Necklace<'_> {
        Necklace {
            rank: &self.rank,
            reverse: self.reverse,
            images: &self.images,
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
    /// See [`Rules`].
    images: &'a [Vec<u32>],
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

    /// The symmetries (bits, of [`Rules`]'s images) that map the letters of `path` each
    /// onto itself: the path is its own image under them.
    pub(super) fn tied(&self, path: &[u32]) -> u64 {
        (0..self.images.len())
            .filter(|&k| path.iter().all(|&l| self.images[k][l as usize] == l))
            .fold(0, |bits, k| bits | 1 << k)
    }

    /// The image rule, after a path that the symmetries `tied` map onto itself (the others
    /// map it above itself, since the search keeps the least of the first letters): true
    /// when letter `l` makes some image of the path less than the path.
    #[inline]
    pub(super) fn image_below(&self, tied: u64, l: u32) -> bool {
        bits(tied).any(|k| self.images[k][l as usize] < l)
    }

    /// The symmetries of `tied` that map the path onto itself after letter `l` too.
    #[inline]
    pub(super) fn tied_after(&self, tied: u64, l: u32) -> u64 {
        bits(tied)
            .filter(|&k| self.images[k][l as usize] == l)
            .fold(0, |b, k| b | 1 << k)
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

/// The places of the bits set in `b`.
fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let k = b.trailing_zeros() as usize;
            b &= b - 1;
            k
        })
    })
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
    use crate::symmetry::representatives;
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

    /// Of each class of canonical sequences of 4 letters under a position's symmetries,
    /// the least one (ranks, then letters) is searched: its first letters are a task kept
    /// and the image rule never leaves it out; and the rule does leave out others. For the
    /// superflip (48 symmetries, ranked by the rotation rule) and `R2 L2` (16, ranks equal).
    #[test]
    fn the_least_image_passes_the_image_rule() {
        let c3 = cube3();
        let ctl = Control::default();
        let atm = Metric::atm(&c3, &FACES, &ctl).unwrap();
        let solver = Solver::new(&c3, &atm, &opts(1 << 20), &ctl).unwrap();
        let canon = &solver.canon;
        let tasks = super::super::heads::tasks(canon, 2);
        let mut words: Vec<(Vec<u32>, u32)> = vec![(vec![], 0)];
        for _ in 0..4 {
            words = words
                .iter()
                .flat_map(|(w, st)| {
                    canon.allowed(*st).iter().map(move |&(l, t)| {
                        let mut w2 = w.clone();
                        w2.push(l);
                        (w2, t)
                    })
                })
                .collect();
        }
        let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
        for (text, central) in [(superflip, true), ("R2 L2", false)] {
            let p = seq(&c3, text);
            let fixing = solver.symmetries.fixing(&p);
            let rules = Rules::new(&solver, &p, &fixing, false);
            assert_eq!(rules.rank.iter().any(|&r| r != 0), central, "{text}");
            let view = rules.view();
            let pairs: Vec<Vec<u32>> = tasks.iter().map(|t| t.letters.clone()).collect();
            let keep = representatives(&pairs, &fixing);
            let kept: std::collections::HashSet<&[u32]> = pairs
                .iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(t, _)| t.as_slice())
                .collect();
            let key = |w: &mut dyn Iterator<Item = u32>| {
                let w: Vec<u32> = w.collect();
                let ranks: Vec<u32> = w.iter().map(|&l| rules.rank[l as usize]).collect();
                (ranks, w)
            };
            let (mut least, mut cut) = (0, 0);
            for (w, _) in &words {
                let passes = kept.contains(&w[..2]) && {
                    let mut tied = view.tied(&w[..2]);
                    w[2..].iter().all(|&l| {
                        let below = view.image_below(tied, l);
                        tied = view.tied_after(tied, l);
                        !below
                    })
                };
                let own = key(&mut w.iter().copied());
                let is_least = fixing
                    .iter()
                    .all(|m| key(&mut w.iter().map(|&l| m[l as usize])) >= own);
                if is_least {
                    assert!(passes, "{text}: {w:?}");
                    least += 1;
                } else if kept.contains(&w[..2]) && !passes {
                    cut += 1;
                }
            }
            assert!(least > 0 && cut > 0, "{text}: {least} {cut}");
        }
    }
}
