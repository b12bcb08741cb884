//! Canonical sequences without redundant factors: the automaton of [`Canon`] refined so
//! that a search also skips sequences holding a short factor that an earlier sequence of
//! no greater length already spells (in the axial metric `(R2 L2) (U2 D2)` is
//! `(U2 D2) (R2 L2)`, though the two axes do not commute letter by letter).
//!
//! Sequences are ordered shortlex: shorter first; of two of one length, the one whose
//! letters' ranks (given, see below) are lexicographically less, then the one whose letters
//! are, letters by family, then by number. The order is kept by concatenation: putting a
//! smaller factor in place of a larger one of the same length gives a smaller sequence.
//! When every letter costs 1 and every element of a family is one letter (htm, atm), each
//! step that makes a sequence canonical (two letters of a family merged, two commuting
//! families put in increasing order) gives a smaller one, as long as the ranks do not
//! undo the families' order (all ranks equal, or no order among commuting families). So
//! the least optimal solution of a position is canonical, and holds no factor `w` for
//! which a smaller `w'` reaches the same position (else `w'` in its place, made canonical,
//! would be smaller still). Skipping every sequence with such a factor keeps that
//! solution. Factors are listed by enumerating canonical sequences length by length, each
//! length in that order, keeping the first of each position; a later one reaching a
//! position already seen is a forbidden factor (minimal: its proper factors are kept
//! ones). The automaton reading them is Aho-Corasick's, run beside the canonical one: a
//! state is a pair (canonical state, longest suffix that begins a forbidden factor).
//!
//! The least solution also passes the search's rules that keep one image of each
//! solution, when those rules keep the least image: a position fixed by symmetries keeps
//! the tasks whose first letters are least among their images (letters numbered by
//! family, so that the orders agree; the images' ranks are equal), and a central one keeps
//! the rotations whose ranks are a necklace, the ranks given here (see
//! `optimal/necklace.rs`). Listing every solution needs the plain [`Canon`].

use crate::canon::Canon;
use crate::metric::Metric;
use crate::model::{Action, Model};
use puz_core::hash::FastSet;
use puz_core::Control;
use rayon::prelude::*;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many sequences the enumeration may keep, in all: the factors' length grows while
/// the next length's sequences stay under it.
const MAX_KEPT: usize = 1_500_000;
/// Bytes the enumeration holds a sequence kept, at most (its layer entry, its code in
/// the set of positions seen, the set's spare room): it takes at most an eighth of the
/// memory left.
const BYTES_A_SEQUENCE: u64 = 128;
/// The longest factor looked for.
const MAX_LEN: usize = 7;

/// The most sequences the enumeration may keep with the memory `ctl` leaves.
pub fn kept_limit(ctl: &Control) -> usize {
    let room = ctl.memory_left() / 8 / BYTES_A_SEQUENCE;
    MAX_KEPT.min(usize::try_from(room).unwrap_or(usize::MAX))
}

/// The refined automaton for the letters' `rank`s (all equal but where the rotation rule
/// ranks them), keeping at most `max_kept` sequences (see [`kept_limit`]), with the
/// length of its longest forbidden factor (`None` when the metric does not allow the
/// argument above, or no factor is found).
pub fn pruned(
    model: &Model,
    actions: &[Action],
    metric: &Metric,
    canon: &Canon,
    rank: &[u32],
    max_kept: usize,
    ctl: &Control,
) -> Option<(Canon, usize)> {
    let given = Given {
        model,
        actions,
        metric,
        canon,
        rank,
    };
    pruned_within(&given, max_kept, ctl)
}

/// What the refinement reads.
struct Given<'a> {
    model: &'a Model,
    actions: &'a [Action],
    metric: &'a Metric,
    canon: &'a Canon,
    rank: &'a [u32],
}

/// [`pruned`], keeping at most `max_kept` sequences.
fn pruned_within(g: &Given, max_kept: usize, ctl: &Control) -> Option<(Canon, usize)> {
    let (model, metric) = (g.model, g.metric);
    let nl = metric.len();
    let fams = &metric.families;
    let single = fams
        .list
        .iter()
        .all(|f| (1..f.elements.len()).all(|e| f.parent[e].is_some_and(|(p, _)| p == 0)));
    if nl == 0 || nl > 255 || !single || metric.cost.iter().any(|&c| c != 1) {
        return None;
    }
    // Ranks that differ must not undo the order of commuting families.
    let ranked = g.rank.iter().any(|&r| r != g.rank[0]);
    let ordered = (0..fams.list.len()).any(|f| (0..f).any(|h| fams.commute[f][h]));
    // A word's key holds a rank a byte.
    if g.rank.len() != nl || g.rank.iter().any(|&r| r > 255) || ranked && ordered {
        return None;
    }
    if model.code_bits() > 128 {
        return None;
    }
    let (factors, len) = forbidden(g, max_kept, ctl)?;
    if factors.is_empty() {
        return None;
    }
    Some((automaton(&factors, nl, g.canon), len))
}

/// A word of at most [`MAX_LEN`] letters, packed a byte a letter, first letter lowest.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Word {
    len: u8,
    bytes: u64,
}

impl Word {
    fn push(self, l: u32) -> Word {
        Word {
            len: self.len + 1,
            bytes: self.bytes | (l as u64) << (8 * self.len),
        }
    }
    /// Its last `k` letters.
    fn suffix(self, k: u8) -> Word {
        let drop = self.len - k;
        Word {
            len: k,
            bytes: self.bytes >> (8 * drop),
        }
    }
    /// The word as one number (its length in the top byte).
    fn key(self) -> u64 {
        self.bytes | (self.len as u64) << 56
    }
    fn letter(self, i: usize) -> u32 {
        (self.bytes >> (8 * i)) as u32 & 0xff
    }
}

/// The minimal forbidden factors, and the longest length enumerated.
fn forbidden(g: &Given, max_kept: usize, ctl: &Control) -> Option<(Vec<Word>, usize)> {
    let (model, actions, metric, canon) = (g.model, g.actions, g.metric, g.canon);
    let fams = &metric.families;
    let mut order: Vec<u32> = (0..metric.len() as u32).collect();
    order.sort_by_key(|&l| (fams.of_letter[l as usize], l));
    // A word's place in the order: its ranks, then its letters' places in `order`.
    let mut place = vec![0u8; metric.len()];
    for (i, &l) in order.iter().enumerate() {
        place[l as usize] = i as u8;
    }
    let ranked = g.rank.iter().any(|&r| r != g.rank[0]);
    let key = |w: Word| {
        let letters = (0..w.len as usize).map(|i| w.letter(i) as usize);
        let ranks = letters.clone().map(|l| g.rank[l] as u8);
        (ranks.chain(letters.map(|l| place[l]))).fold(0u128, |k, b| k << 8 | b as u128)
    };
    let solved = model.encode(&model.solved());
    let mut seen: FastSet<u128> = FastSet::default();
    seen.insert(solved);
    let mut bad: FastSet<u64> = FastSet::default();
    let mut found = Vec::new();
    // Kept sequences of the last length: (word, canonical state, position's code), in
    // order.
    let mut layer = vec![(Word { len: 0, bytes: 0 }, 0u32, solved)];
    let mut kept = 1usize;
    let mut len = 0;
    while len < MAX_LEN {
        let branching = layer
            .iter()
            .map(|&(_, st, _)| canon.allowed(st).len())
            .sum::<usize>();
        if kept + branching > max_kept {
            break;
        }
        // The kept sequences' canonical successors that hold no shorter forbidden factor
        // (as a suffix: the rest is kept), in order when the ranks are equal.
        let stopped = AtomicBool::new(false);
        let mut next: Vec<(Word, u32, u128)> = layer
            .par_chunks(4096)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                if ctl.check().is_err() {
                    stopped.store(true, Ordering::Relaxed);
                    return out;
                }
                let (mut s, mut t) = (vec![0u8; model.n], vec![0u8; model.n]);
                for &(w, st, code) in chunk {
                    model.decode(code, &mut s);
                    for &l in &order {
                        let Some(st2) = canon.next(st, l) else {
                            continue;
                        };
                        let w2 = w.push(l);
                        if (1..w2.len).any(|k| bad.contains(&w2.suffix(k).key())) {
                            continue;
                        }
                        model.apply(&actions[l as usize], &s, &mut t);
                        out.push((w2, st2, model.encode(&t)));
                    }
                }
                out
            })
            .collect();
        drop(layer);
        if stopped.into_inner() {
            return None;
        }
        if ranked {
            next.par_sort_by_cached_key(|&(w, _, _)| key(w));
        }
        // The first of each position is kept, the others are forbidden factors.
        next.retain(|&(w, _, code)| {
            let first = seen.insert(code);
            if !first {
                bad.insert(w.key());
                found.push(w);
            }
            first
        });
        kept += next.len();
        layer = next;
        len += 1;
    }
    Some((found, len))
}

/// The canonical automaton times Aho-Corasick's over `factors`.
fn automaton(factors: &[Word], nl: usize, canon: &Canon) -> Canon {
    // The trie of the factors: node 0 the root; `end` marks a whole factor.
    let mut child: Vec<HashMap<u32, u32>> = vec![HashMap::new()];
    let mut end = vec![false];
    for w in factors {
        let mut n = 0usize;
        for i in 0..w.len as usize {
            let l = w.letter(i);
            n = match child[n].get(&l) {
                Some(&c) => c as usize,
                None => {
                    child.push(HashMap::new());
                    end.push(false);
                    let c = child.len() - 1;
                    child[n].insert(l, c as u32);
                    c
                }
            };
        }
        end[n] = true;
    }
    // Failure links in breadth-first order; `delta` the full transition table. A node is
    // refused when it ends a whole factor: no suffix of another node is one, since the
    // factors are minimal (a proper prefix of one holds no other).
    let nodes = child.len();
    let mut delta = vec![0u32; nodes * nl];
    let mut fail = vec![0u32; nodes];
    let mut queue = VecDeque::new();
    for (l, d) in delta[..nl].iter_mut().enumerate() {
        if let Some(&c) = child[0].get(&(l as u32)) {
            *d = c;
            queue.push_back(c as usize);
        }
    }
    while let Some(n) = queue.pop_front() {
        let f = fail[n] as usize;
        for l in 0..nl {
            match child[n].get(&(l as u32)) {
                Some(&c) => {
                    fail[c as usize] = delta[f * nl + l];
                    delta[n * nl + l] = c;
                    queue.push_back(c as usize);
                }
                None => delta[n * nl + l] = delta[f * nl + l],
            }
        }
    }
    // The pairs reachable from (start, root).
    let mut id: HashMap<(u32, u32), u32> = HashMap::new();
    let mut pairs = vec![(0u32, 0u32)];
    id.insert((0, 0), 0);
    let mut table = Vec::new();
    let mut at = 0;
    while at < pairs.len() {
        let (cs, node) = pairs[at];
        at += 1;
        for l in 0..nl as u32 {
            let next = canon.next(cs, l).and_then(|cs2| {
                let n2 = delta[node as usize * nl + l as usize];
                (!end[n2 as usize]).then_some((cs2, n2))
            });
            table.push(match next {
                None => u32::MAX,
                Some(p) => *id.entry(p).or_insert_with(|| {
                    pairs.push(p);
                    (pairs.len() - 1) as u32
                }),
            });
        }
    }
    Canon::from_table(pairs.len(), nl, table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsupport::{actions_of, cube3};
    use std::collections::HashSet;

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    /// The cube's model, `metric`'s letters on it and their canonical automaton.
    fn setup(metric: &Metric) -> (Model, Vec<Action>, Canon) {
        let model = Model::new(&cube3()).unwrap();
        let acts = actions_of(&model, metric);
        (model, acts, Canon::new(metric))
    }

    fn refined(metric: &Metric, max_kept: usize) -> (Model, Vec<Action>, Canon, Canon, usize) {
        ranked(metric, max_kept, &vec![0; metric.len()]).unwrap()
    }

    /// [`refined`] for the letters' ranks `rank`.
    fn ranked(
        metric: &Metric,
        max_kept: usize,
        rank: &[u32],
    ) -> Option<(Model, Vec<Action>, Canon, Canon, usize)> {
        let (model, acts, canon) = setup(metric);
        let given = Given {
            model: &model,
            actions: &acts,
            metric,
            canon: &canon,
            rank,
        };
        let (p, len) = pruned_within(&given, max_kept, &Control::default())?;
        Some((model, acts, canon, p, len))
    }

    /// The positions the sequences of each length reach for the first time.
    fn new_positions(model: &Model, acts: &[Action], canon: &Canon, depth: usize) -> Vec<usize> {
        let mut seen: HashSet<u128> = HashSet::new();
        seen.insert(model.encode(&model.solved()));
        let mut layer = vec![(model.encode(&model.solved()), 0u32)];
        let mut out = Vec::new();
        let (mut s, mut u) = (vec![0u8; model.n], vec![0u8; model.n]);
        for _ in 0..depth {
            let mut next = Vec::new();
            let mut fresh = 0;
            for &(code, st) in &layer {
                model.decode(code, &mut s);
                for &(b, t) in canon.allowed(st) {
                    model.apply(&acts[b as usize], &s, &mut u);
                    let c = model.encode(&u);
                    fresh += seen.insert(c) as usize;
                    next.push((c, t));
                }
            }
            out.push(fresh);
            layer = next;
        }
        out
    }

    /// The refined sequences still reach every position at its distance, past the length
    /// of the factors looked for (shorter here than in a search); and they are fewer.
    #[test]
    fn refined_sequences_reach_every_position_at_its_distance() {
        let c3 = cube3();
        let ctl = Control::default();
        for (m, depth) in [
            (Metric::htm(&c3, &FACES, &ctl).unwrap(), 5),
            (Metric::atm(&c3, &FACES, &ctl).unwrap(), 4),
        ] {
            let (model, acts, canon, refined, len) = refined(&m, 50_000);
            assert!(len < depth, "{}: factors of {len}", m.name);
            let plain = new_positions(&model, &acts, &canon, depth);
            assert_eq!(
                new_positions(&model, &acts, &refined, depth),
                plain,
                "{}",
                m.name
            );
            let (a, b) = (canon.count_sequences(depth), refined.count_sequences(depth));
            assert!(b[depth] < a[depth], "{}: {a:?} {b:?}", m.name);
            // Up to the factors' length, the sequences are the positions.
            for d in 1..=len {
                assert_eq!(b[d] as usize, plain[d - 1], "{} at {d}", m.name);
            }
        }
    }

    /// Of the canonical sequences of each length up to `depth`, in the order of the module
    /// header (ranks, then letters by family, then number), the first to reach each
    /// position new at that length: the least optimal solution of its inverse.
    fn least_sequences(m: &Metric, canon: &Canon, rank: &[u32], depth: usize) -> Vec<Vec<u32>> {
        let model = Model::new(&cube3()).unwrap();
        let acts = actions_of(&model, m);
        let fam = &m.families.of_letter;
        let solved = model.encode(&model.solved());
        let mut seen: HashSet<u128> = HashSet::from([solved]);
        let mut layer: Vec<(Vec<u32>, u32, u128)> = vec![(vec![], 0, solved)];
        let mut least = Vec::new();
        let (mut s, mut u) = (vec![0u8; model.n], vec![0u8; model.n]);
        for _ in 0..depth {
            let mut next = Vec::new();
            for (w, st, code) in &layer {
                model.decode(*code, &mut s);
                for &(b, t) in canon.allowed(*st) {
                    model.apply(&acts[b as usize], &s, &mut u);
                    let mut w2 = w.clone();
                    w2.push(b);
                    next.push((w2, t, model.encode(&u)));
                }
            }
            let order = |w: &Vec<u32>| {
                let ranks: Vec<u32> = w.iter().map(|&l| rank[l as usize]).collect();
                let letters: Vec<(usize, u32)> = w.iter().map(|&l| (fam[l as usize], l)).collect();
                (ranks, letters)
            };
            next.sort_by_cached_key(|(w, _, _)| order(w));
            for (w, _, c) in &next {
                if seen.insert(*c) {
                    least.push(w.clone());
                }
            }
            layer = next;
        }
        least
    }

    /// The least optimal solution of every position (in the order of the letters' ranks,
    /// then of the letters) passes the refined automaton, past the factors' length: with
    /// every rank equal, with the ranks the rotation rule gives the superflip, and with
    /// ranks that put the half turns first. htm, whose commuting faces stand in an order,
    /// takes no ranks that differ.
    #[test]
    fn the_least_solution_of_every_position_is_kept() {
        let c3 = cube3();
        let ctl = Control::default();
        let atm = Metric::atm(&c3, &FACES, &ctl).unwrap();
        let htm = Metric::htm(&c3, &FACES, &ctl).unwrap();
        let superflip =
            crate::testsupport::seq(&c3, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
        let syms = crate::symmetry::Symmetries::new(&c3, &atm, &Canon::new(&atm));
        let flip_ranks = crate::optimal::rotation_ranks(atm.len(), &syms.fixing(&superflip));
        let half_first: Vec<u32> = (0..atm.len())
            .map(|l| {
                u32::from(
                    !atm.alphabet.perms[l]
                        .then(&atm.alphabet.perms[l])
                        .is_identity(),
                )
            })
            .collect();
        for (m, depth, rank) in [
            (&atm, 4, vec![0; atm.len()]),
            (&atm, 4, flip_ranks),
            (&atm, 4, half_first),
            (&htm, 5, vec![0; htm.len()]),
        ] {
            let (_, _, canon, by_rank, len) = ranked(m, 50_000, &rank).unwrap();
            assert!(len < depth, "{}: factors of {len}", m.name);
            let least = least_sequences(m, &canon, &rank, depth);
            let kept = |w: &[u32]| w.iter().try_fold(0, |st, &l| by_rank.next(st, l)).is_some();
            let lost: Vec<&Vec<u32>> = least.iter().filter(|w| !kept(w)).collect();
            assert!(
                lost.is_empty(),
                "{} {rank:?}: {:?}",
                m.name,
                &lost[..lost.len().min(3)]
            );
            // The same automaton for other ranks would lose some.
            let (_, _, _, plain, _) = refined(m, 50_000);
            let plain_kept = |w: &[u32]| w.iter().try_fold(0, |st, &l| plain.next(st, l)).is_some();
            let differ = rank.iter().any(|&r| r != rank[0]);
            assert_eq!(least.iter().all(|w| plain_kept(w)), !differ, "{}", m.name);
        }
        let one = |l: usize| {
            (0..htm.len())
                .map(|k| u32::from(k != l))
                .collect::<Vec<_>>()
        };
        assert!(ranked(&htm, 50_000, &one(0)).is_none());
    }

    /// In atm `(R2 L2) (U2 D2)` is `(U2 D2) (R2 L2)`: one of the two orders is refused.
    #[test]
    fn one_order_of_two_commuting_products_is_kept() {
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
        let (_, _, canon, refined, _) = refined(&atm, 50_000);
        let letter = |name: &str| atm.alphabet.index(name).unwrap();
        let (x, y) = (letter("(R2 L2)"), letter("(U2 D2)"));
        let kept = |c: &Canon, a: u32, b: u32| c.next(0, a).and_then(|s| c.next(s, b)).is_some();
        assert!(kept(&canon, x, y) && kept(&canon, y, x));
        assert!(kept(&refined, x, y) != kept(&refined, y, x));
    }

    /// The enumeration keeps what an eighth of the memory left holds: shorter factors
    /// under a tight limit, none under a very tight one.
    #[test]
    fn the_enumeration_fits_the_memory_left() {
        let c3 = cube3();
        let atm = Metric::atm(&c3, &FACES, &Control::default()).unwrap();
        let (model, acts, canon) = setup(&atm);
        let within = |bytes: u64| {
            let mut ctl = Control::default();
            ctl.memory_limit = bytes;
            let kept = kept_limit(&ctl);
            pruned(&model, &acts, &atm, &canon, &[0; 45], kept, &ctl).map(|(_, len)| len)
        };
        assert_eq!(within(8 * BYTES_A_SEQUENCE * 50_000), Some(3));
        assert_eq!(within(8 * BYTES_A_SEQUENCE * 1_000), None);
    }

    /// No metric with letters of cost 2, or families whose elements need two letters.
    #[test]
    fn qtm_is_not_refined() {
        let c3 = cube3();
        let qtm = Metric::qtm(&c3, &FACES, &Control::default()).unwrap();
        let (model, acts, canon) = setup(&qtm);
        assert!(pruned(
            &model,
            &acts,
            &qtm,
            &canon,
            &vec![0; qtm.len()],
            MAX_KEPT,
            &Control::default()
        )
        .is_none());
    }
}
