//! Which look-ups a bound makes, and in which round ([`Solver::plan`]). In the search every
//! child of a node is planned from the node's values; the children of one node share
//! their limit and the cost of the letter back (every letter costs 1 in htm and atm), so
//! their plans differ only in the look-ups each letter keeps or flips (`fixed.rs`). A
//! node's plan is made once without those ([`Shared`]) and patched per child
//! ([`Solver::plan_child`]).

use super::bound::{has, First, Parent, Probe, ROUNDS, UNKNOWN};
use super::Solver;

/// A node's plan for its children before each letter's kept and flipped look-ups.
pub(super) struct Shared {
    /// The node's first look-up of every child (`usize::MAX`: none), and the (limit,
    /// letter back) the plan was made for (`None`: not made at this node).
    read_at: usize,
    key: Option<(u32, u32)>,
    round: Vec<u8>,
    /// The children's bounds, as `ub` (see [`super::bound::other`]).
    ub: Vec<u8>,
    at: [u64; ROUNDS as usize],
    /// The look-up moved to round 0 (`usize::MAX`: none), and whether the first look-up
    /// is one no rule bounds (see [`Solver::classify`]).
    best: usize,
    open: bool,
}

impl Shared {
    pub(super) fn new(s: &Solver) -> Shared {
        let nl = s.variants.len() * s.heuristic.pdbs.len();
        Shared {
            read_at: usize::MAX,
            key: None,
            round: vec![u8::MAX; nl],
            ub: s.values_buffer(),
            at: [0; ROUNDS as usize],
            best: usize::MAX,
            open: false,
        }
    }

    /// A new node, whose children's first look-up is `read` (`(variant, table)`; see
    /// `search.rs`).
    pub(super) fn reset(&mut self, s: &Solver, read: (usize, usize)) {
        let np = s.heuristic.pdbs.len();
        self.read_at = if read.1 < np {
            read.0 * np + read.1
        } else {
            usize::MAX
        };
        self.key = None;
    }
}

impl Solver {
    /// Starts a bound in `pr`: which look-ups to make, in up to four rounds, the
    /// likeliest to cut first: the tables whose value on the parent was above the
    /// child's limit (they cut unless the letter brought the value down), the largest of
    /// them alone, then the others, then those at the limit, then the rest. With a
    /// `parent`, the look-ups that cannot go above `limit` are left out (see [`Parent`]);
    /// `ub` gets the parent's bound for them. `read` is a look-up already made (and within
    /// the limit): its value goes to `ub` and it is not made again.
    pub(super) fn plan(
        &self,
        limit: u32,
        parent: Option<Parent>,
        ub: &mut [u8],
        pr: &mut Probe,
        read: First,
    ) {
        let np = self.heuristic.pdbs.len();
        self.start(limit, pr);
        // The look-up already read (within the limit) is not made again.
        let read_at = read.map_or(usize::MAX, |((v, k), _)| v * np + k);
        match parent {
            None => {
                let at = &mut pr.at;
                *at = [0; ROUNDS as usize];
                for (j, r) in pr.round.iter_mut().enumerate() {
                    *r = if j == read_at {
                        u8::MAX
                    } else if self.needed[j] {
                        if j / np < 64 {
                            at[0] |= 1 << (j / np);
                        }
                        0
                    } else {
                        ub[j] = 0;
                        u8::MAX
                    };
                }
            }
            Some(p) => {
                self.classify(limit, p, read_at, &mut pr.round, ub, &mut pr.at);
            }
        }
        self.take_read(read, ub, pr);
    }

    /// [`Solver::plan`] of a child of the node `shared` is for, through the node's shared
    /// plan (made on the first child, or again when a child's limit or letter back
    /// differs): the same rounds, bounds and masks.
    pub(super) fn plan_child(
        &self,
        limit: u32,
        p: Parent,
        ub: &mut [u8],
        pr: &mut Probe,
        read: First,
        shared: &mut Shared,
    ) {
        let np = self.heuristic.pdbs.len();
        let read_at = read.map_or(usize::MAX, |((v, k), _)| v * np + k);
        // A child without its first look-up has it bounded by the node (see `search.rs`):
        // the shared plan or the patch below gives that bound.
        if read_at != usize::MAX && read_at != shared.read_at {
            return self.plan(limit, Some(p), ub, pr, read);
        }
        let patch = p.keep | p.flip;
        if shared.key != Some((limit, p.back)) {
            let node = Parent {
                keep: 0,
                flip: 0,
                ..p
            };
            (shared.best, shared.open) = self.classify(
                limit,
                node,
                shared.read_at,
                &mut shared.round,
                &mut shared.ub,
                &mut shared.at,
            );
            shared.key = Some((limit, p.back));
        }
        // The look-up moved to round 0 left out (another goes first), or a first look-up
        // not made that nothing bounds (not met in the search): planned afresh.
        if has(patch, shared.best) || (read.is_none() && shared.open && !has(patch, shared.read_at))
        {
            return self.plan(limit, Some(p), ub, pr, read);
        }
        self.start(limit, pr);
        pr.round.copy_from_slice(&shared.round);
        ub.copy_from_slice(&shared.ub);
        pr.at = shared.at;
        let nl = pr.round.len();
        let (pu, po) = p.ub.split_at(nl);
        let mut bits = patch;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // `plan`'s order: the look-up read, then the tables not needed, come first.
            if j >= nl || j == read_at || !self.needed[j] {
                continue;
            }
            (ub[j], ub[nl + j]) = if has(p.keep, j) {
                (pu[j], po[j])
            } else {
                (po[j], pu[j])
            };
            let was = std::mem::replace(&mut pr.round[j], u8::MAX);
            let v = j / np;
            if was < ROUNDS && v < 64 && !pr.round[v * np..(v + 1) * np].contains(&was) {
                pr.at[was as usize] &= !(1 << v);
            }
        }
        self.take_read(read, ub, pr);
    }

    /// A probe sized for this solver and cleared for a bound within `limit`.
    fn start(&self, limit: u32, pr: &mut Probe) {
        let np = self.heuristic.pdbs.len();
        let nv = self.variants.len();
        let nl = nv * np;
        let n = self.model.n;
        pr.limit = limit;
        pr.h = 0;
        pr.read = 0;
        pr.inverted = false;
        // Sized once: this runs for every child not cut by its first look-up.
        if pr.round.len() != nl || pr.inv.len() != n {
            pr.vars.resize(nv * n, 0);
            pr.inv.resize(n, 0);
            pr.idx.resize(nl, 0);
            pr.known.resize(nl, UNKNOWN);
            pr.round.resize(nl, 0);
            pr.staged.resize(nv, false);
        }
        pr.known.fill(UNKNOWN);
        pr.staged.fill(false);
    }

    /// The look-up read already: its value and the one beside it into `ub`.
    fn take_read(&self, read: First, ub: &mut [u8], pr: &mut Probe) {
        if let Some(((v, k), i)) = read {
            let np = self.heuristic.pdbs.len();
            let nl = pr.round.len();
            let j = v * np + k;
            let p = &self.heuristic.pdbs[k];
            (ub[j], ub[nl + j]) = (p.value(i), p.value(i ^ 1));
            pr.read = if j < 64 { 1 << j } else { 0 };
            pr.h = ub[j] as u32;
        }
    }

    /// The rounds of a child of `p` (see [`Solver::plan`]) into `round`, its bounds for
    /// the look-ups not made into `ub`, and each round's variants into `at`; the look-up
    /// moved to round 0 (`usize::MAX`: none), and whether `read_at` is one no rule bounds.
    fn classify(
        &self,
        limit: u32,
        p: Parent,
        read_at: usize,
        round: &mut [u8],
        ub: &mut [u8],
        at: &mut [u64; ROUNDS as usize],
    ) -> (usize, bool) {
        let np = self.heuristic.pdbs.len();
        let nl = round.len();
        let (lo, hi) = ub.split_at_mut(nl);
        let (pu, po) = p.ub.split_at(nl);
        *at = [0; ROUNDS as usize];
        // Of those above the limit, the largest on the parent goes alone first: in the
        // sweeps over the children each child pending makes one look-up, and most are cut
        // by it. Among equals a followed one, whose index needs no variant state.
        let followed = |j: usize| self.incremental.slot(j).is_some();
        let (mut best, mut open) = (usize::MAX, false);
        let (mut v, mut k) = (0, 0);
        for j in 0..nl {
            let consistent = self.consistent[v];
            let u = pu[j] as u32;
            // The look-up read goes after those the rules bound: a child of a shared plan
            // whose first look-up was not made (bounded by the node) gets their bounds.
            let r = if !self.needed[j] {
                lo[j] = 0;
                u8::MAX
            } else if has(p.keep, j) {
                // Kept or flipped, the entry beside comes along.
                (lo[j], hi[j]) = (pu[j], po[j]);
                u8::MAX
            } else if has(p.flip, j) {
                (lo[j], hi[j]) = (po[j], pu[j]);
                u8::MAX
            } else if consistent && u + p.back <= limit {
                (lo[j], hi[j]) = ((u + p.back) as u8, 0);
                u8::MAX
            } else if j == read_at {
                open = true;
                u8::MAX
            } else if u > limit {
                if best == usize::MAX
                    || pu[j] > pu[best]
                    || (pu[j] == pu[best] && followed(j) && !followed(best))
                {
                    best = j;
                }
                1
            } else if u == limit {
                2
            } else {
                3
            };
            round[j] = r;
            if r < ROUNDS && v < 64 {
                at[r as usize] |= 1 << v;
            }
            k += 1;
            if k == np {
                (v, k) = (v + 1, 0);
            }
        }
        if best != usize::MAX {
            // It leaves round 1 for round 0.
            round[best] = 0;
            let v = best / np;
            if v < 64 {
                at[0] |= 1 << v;
                if !round[v * np..(v + 1) * np].contains(&1) {
                    at[1] &= !(1 << v);
                }
            }
        }
        (best, open)
    }
}

#[cfg(test)]
mod tests {
    use super::super::bound::{Parent, Probe, ROUNDS};
    use super::Shared;
    use crate::optimal::tests::{cube3_atm_three_conjugates, cube3_htm_4gib_unfilled};

    /// After `plan`, each round visits exactly the variants with a look-up planned in it
    /// (the rounds skip the others without looking), over random parent bounds and limits
    /// on the 3x3x3 in atm with three conjugates (eight variants).
    #[test]
    fn a_round_visits_the_variants_planned_in_it() {
        use rand::{Rng, SeedableRng};
        let s = cube3_atm_three_conjugates();
        let (np, nv) = (s.heuristic.pdbs.len(), s.variants.len());
        assert!(nv > 2, "{nv} variants");
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let (mut pr, mut ub) = (Probe::default(), s.values_buffer());
        let mut used = [false; ROUNDS as usize];
        for _ in 0..300 {
            let parent_ub: Vec<u8> = (0..ub.len()).map(|_| rng.gen_range(0..12)).collect();
            let parent = Parent {
                ub: &parent_ub,
                back: 1,
                keep: 0,
                flip: 0,
            };
            s.plan(rng.gen_range(1..12), Some(parent), &mut ub, &mut pr, None);
            for r in 0..ROUNDS {
                let planned: Vec<usize> = (0..nv)
                    .filter(|&v| pr.round[v * np..(v + 1) * np].contains(&r))
                    .collect();
                assert_eq!(pr.variants_at(r, nv).collect::<Vec<_>>(), planned);
                used[r as usize] |= !planned.is_empty();
            }
        }
        assert_eq!(used, [true; ROUNDS as usize]);
    }

    /// Among look-ups of equal parent value above the limit, round 0 takes a followed one
    /// (its index needs no variant state), whichever variant comes first.
    #[test]
    fn round_zero_prefers_a_followed_look_up_among_equals() {
        // Tables not filled: only the plan is looked at.
        let s = cube3_htm_4gib_unfilled();
        let nl = s.variants.len() * s.heuristic.pdbs.len();
        let needed: Vec<usize> = (0..nl).filter(|&j| s.needed[j]).collect();
        let followed: Vec<usize> = needed
            .iter()
            .copied()
            .filter(|&j| s.incremental.slot(j).is_some())
            .collect();
        let (mut pr, mut ub) = (Probe::default(), s.values_buffer());
        // Every look-up at 9 on the parent, above the child's limit of 5, but the first
        // followed one at 8; of those at 9, the first is not followed.
        let mut parent_ub = vec![9u8; ub.len()];
        parent_ub[followed[0]] = 8;
        let at_nine: Vec<usize> = needed
            .iter()
            .copied()
            .filter(|&j| j != followed[0])
            .collect();
        assert!(
            followed.len() > 1 && !followed.contains(&at_nine[0]),
            "{needed:?} {followed:?}"
        );
        let parent = Parent {
            ub: &parent_ub,
            back: 1,
            keep: 0,
            flip: 0,
        };
        s.plan(5, Some(parent), &mut ub, &mut pr, None);
        let first: Vec<usize> = (0..nl).filter(|&j| pr.round[j] == 0).collect();
        assert_eq!(first.len(), 1);
        assert!(followed[1..].contains(&first[0]), "{first:?} {followed:?}");
    }

    /// A child planned through its node's shared plan gets exactly the plan of its own:
    /// the same rounds, round masks, bounds of the look-ups not made, look-up read and
    /// value, over random nodes, limits, letters back, kept and flipped look-ups and first
    /// look-ups (made or not), in htm (4 GiB choice) and in atm (eight variants).
    #[test]
    fn a_shared_plan_patched_is_the_childs_own() {
        use rand::{Rng, SeedableRng};
        let solvers = [cube3_htm_4gib_unfilled(), cube3_atm_three_conjugates()];
        let mut rng = rand::rngs::StdRng::seed_from_u64(17);
        let mut shared_used = 0;
        for s in solvers {
            let np = s.heuristic.pdbs.len();
            let nl = s.variants.len() * np;
            let mut shared = Shared::new(s);
            let (mut own, mut via) = (Probe::default(), Probe::default());
            let (mut ub_own, mut ub_via) = (s.values_buffer(), s.values_buffer());
            for node in 0..400 {
                let parent_ub: Vec<u8> = (0..2 * nl).map(|_| rng.gen_range(0..12)).collect();
                let choice = if node % 7 == 0 {
                    (0, usize::MAX)
                } else {
                    let j = rng.gen_range(0..nl);
                    (j / np, j % np)
                };
                shared.reset(s, choice);
                let limit = rng.gen_range(1..12);
                for _child in 0..6 {
                    // Mostly the node's limit and letter back, as in htm and atm.
                    let (limit, back) = if rng.gen_bool(0.8) {
                        (limit, 1)
                    } else {
                        (rng.gen_range(1..12), rng.gen_range(1..3))
                    };
                    let mask = |rng: &mut rand::rngs::StdRng| {
                        (0..nl.min(64))
                            .filter(|_| rng.gen_bool(0.15))
                            .fold(0u64, |m, j| m | 1 << j)
                    };
                    let (keep, flip) = (mask(&mut rng), mask(&mut rng));
                    // The unfilled tables hold one line.
                    let entries = if s.heuristic.pdbs[0].table.len() > 64 {
                        1000
                    } else {
                        2
                    };
                    let read = (choice.1 < np && rng.gen_bool(0.7))
                        .then(|| (choice, rng.gen_range(0..entries)));
                    let parent = Parent {
                        ub: &parent_ub,
                        back,
                        keep,
                        flip,
                    };
                    ub_own.fill(0xee);
                    ub_via.fill(0xdd);
                    s.plan(limit, Some(parent), &mut ub_own, &mut own, read);
                    let key = shared.key;
                    s.plan_child(limit, parent, &mut ub_via, &mut via, read, &mut shared);
                    shared_used += usize::from(key == shared.key && key.is_some());
                    assert_eq!(own.round, via.round);
                    assert_eq!(own.at, via.at);
                    assert_eq!((own.read, own.h, own.limit), (via.read, via.h, via.limit));
                    assert_eq!((&own.known, &own.staged), (&via.known, &via.staged));
                    for j in (0..nl).filter(|&j| own.round[j] == u8::MAX) {
                        assert_eq!(ub_own[j], ub_via[j], "look-up {j}");
                        if s.needed[j] {
                            assert_eq!(ub_own[nl + j], ub_via[nl + j], "beside {j}");
                        }
                    }
                }
            }
        }
        // Most children met a shared plan made already at their node.
        assert!(shared_used > 2000, "{shared_used}");
    }
}
