//! The tasks of a search and their order. A task is a head of the canonical sequences:
//! its first letters. Small costs are searched in pairs of first letters, in order of
//! their bound after them (ties: the largest at the cost before first). Once a cost is
//! large (the cost before took [`NODES_PER_TASK`] nodes for each fine head, see
//! [`OptimalOptions::fine_after`](super::OptimalOptions::fine_after)), its tasks are
//! the heads of the shortest length with at least [`FINE_TASKS`] of them; from the second
//! such cost on they run largest first at the cost before, each size divided by the share
//! of canonical sequences that start in its automaton state (Rokicki's order in nxopt).
//! The last cost, most of a search's time, ends at its first solution, and a head whose
//! subtree was large for its kind at the cost before holds one more often; the pairs,
//! in any order, are too coarse to tell (benches/solver/README.md, "Scheduling").

use super::Solver;
use crate::canon::Canon;
use crate::symmetry::representatives;

/// A search task: its first letters, a head of the canonical sequences (a search follows
/// them through its own automaton, the plain one or its refinement), and the plain
/// automaton's state after them.
#[derive(Clone, Debug)]
pub(super) struct Task {
    pub(super) letters: Vec<u32>,
    pub(super) state: u32,
}

/// The fine heads: the shortest length with at least this many (and at least two
/// letters), so the last cost's order is fine while entering the heads stays cheap.
const FINE_TASKS: usize = 2048;

/// The default of [`OptimalOptions::fine_after`](super::OptimalOptions::fine_after): a
/// cost is searched in fine heads once the cost before took half a node for each. Every
/// task enters its first letters once a cost, which costs about a node, and a cost takes
/// ten to forty times the nodes of the one before: the first cost in fine heads (ordered
/// by bound, no sizes known yet) spends a few percent of its time on them, and from the
/// next on the order is by size.
pub(super) const NODES_PER_TASK: f64 = 0.5;

/// The heads of `len` letters (shorter where the canonical sequences stop), in the order
/// of their letters.
pub(super) fn tasks(canon: &Canon, len: usize) -> Vec<Task> {
    let mut out = Vec::new();
    heads(canon, 0, len, &mut Vec::new(), &mut out);
    out
}

fn heads(canon: &Canon, state: u32, len: usize, path: &mut Vec<u32>, out: &mut Vec<Task>) {
    let allowed = canon.allowed(state);
    if len == 0 || (allowed.is_empty() && !path.is_empty()) {
        out.push(Task {
            letters: path.clone(),
            state,
        });
        return;
    }
    for &(l, next) in allowed {
        path.push(l);
        heads(canon, next, len - 1, path, out);
        path.pop();
    }
}

/// The length of the fine heads (see [`FINE_TASKS`]; where the canonical sequences stop
/// short of that many, their longest), and the number of canonical sequences of that
/// length (the heads but those cut short, which decide nothing).
fn fine_length(canon: &Canon) -> (usize, u128) {
    let counts = canon.count_sequences(12);
    let len = (2..counts.len())
        .find(|&l| counts[l] >= FINE_TASKS as u128 || counts.get(l + 1) == Some(&0))
        .unwrap_or(counts.len() - 1);
    (len, counts[len])
}

/// The relative size of the subtrees of the plain automaton's states: the share of long
/// canonical sequences that start in each (its leading eigenvector, by power iteration).
fn weights(canon: &Canon) -> Vec<f64> {
    let mut w = vec![1.0; canon.states];
    for _ in 0..40 {
        let mut next: Vec<f64> = (0..canon.states)
            .map(|s| {
                canon
                    .allowed(s as u32)
                    .iter()
                    .map(|&(_, t)| w[t as usize])
                    .sum()
            })
            .collect();
        let sum: f64 = next.iter().sum();
        if sum > 0.0 {
            next.iter_mut().for_each(|x| *x /= sum);
        }
        w = next;
    }
    w
}

/// The order of fine heads after a cost: `order[k]` took `sizes[k]` nodes; the largest
/// for its state's `weights` first, equal ones in the order before.
fn by_size(order: &[usize], sizes: &[u64], tasks: &[Task], weights: &[f64]) -> Vec<usize> {
    let mut by: Vec<(f64, usize)> = order
        .iter()
        .zip(sizes)
        .map(|(&t, &n)| {
            (
                n as f64 / weights[tasks[t].state as usize].max(f64::MIN_POSITIVE),
                t,
            )
        })
        .collect();
    by.sort_by(|a, b| b.0.total_cmp(&a.0));
    by.into_iter().map(|(_, t)| t).collect()
}

/// The tasks of one grain and their order.
struct Grain {
    tasks: Vec<Task>,
    order: Vec<usize>,
    /// Each task's bound after its first letters.
    keys: Vec<u32>,
}

/// What the order of the tasks reads: the position and the rules of the search.
pub(super) struct Start<'a> {
    pub(super) fixing: &'a [&'a [u32]],
    pub(super) rank: &'a [u32],
    pub(super) start: &'a [u8],
    pub(super) solved: &'a [u8],
}

impl Grain {
    /// The tasks searched, one per class of first letters under the symmetries fixing
    /// the position (the least of each), and allowed by the rotation rule's ranks, in
    /// order of their bound after their first letters, lowest first (ties: in list order).
    fn new(s: &Solver, tasks: Vec<Task>, at: &Start) -> Grain {
        let keep = representatives(
            &tasks
                .iter()
                .map(|t| t.letters.clone())
                .collect::<Vec<Vec<u32>>>(),
            at.fixing,
        );
        let rank = at.rank;
        let mut order: Vec<usize> = (0..tasks.len())
            .filter(|&t| keep[t])
            .filter(|&t| {
                let ls = &tasks[t].letters;
                ls.len() < 2 || rank[ls[1] as usize] >= rank[ls[0] as usize]
            })
            .collect();
        let mut sc = s.scratch();
        let mut ub = s.values_buffer();
        let (mut a, mut b) = (at.start.to_vec(), vec![0u8; s.model.n]);
        let keys: Vec<u32> = tasks
            .iter()
            .map(|t| {
                a.copy_from_slice(at.start);
                let mut g = 0;
                for &l in &t.letters {
                    s.model.apply(&s.actions[l as usize], &a, &mut b);
                    std::mem::swap(&mut a, &mut b);
                    g += s.metric.cost[l as usize];
                }
                if a == at.solved {
                    return g;
                }
                let hint = &mut (0, usize::MAX);
                g + s.lower_bound(&a, u32::MAX, None, &mut sc, hint, None, &mut ub)
            })
            .collect();
        order.sort_by_key(|&t| keys[t]);
        Grain { tasks, order, keys }
    }
}

/// The tasks of every cost of a search (see the module's head).
pub(super) struct Heads {
    coarse: Grain,
    fine: Option<Grain>,
    fine_len: usize,
    fine_count: u128,
    weights: Vec<f64>,
    /// Whether the cost searched last was in fine heads.
    in_fine: bool,
}

impl Heads {
    pub(super) fn new(s: &Solver, at: &Start) -> Heads {
        let (fine_len, fine_count) = fine_length(&s.canon);
        Heads {
            coarse: Grain::new(s, tasks(&s.canon, 2), at),
            fine: None,
            fine_len,
            fine_count,
            weights: weights(&s.canon),
            in_fine: false,
        }
    }

    /// The tasks of the next cost and their order, the cost before having taken `nodes`.
    pub(super) fn next(&mut self, s: &Solver, at: &Start, nodes: u64) -> (&[Task], &[usize]) {
        self.in_fine = s
            .fine_after
            .is_some_and(|n| nodes as f64 >= n * self.fine_count as f64);
        let g = if self.in_fine {
            self.fine
                .get_or_insert_with(|| Grain::new(s, tasks(&s.canon, self.fine_len), at))
        } else {
            &self.coarse
        };
        (&g.tasks, &g.order)
    }

    /// The order after a cost searched to its end, `sizes[k]` the nodes of the task
    /// `order[k]`: every task was searched whole, so the sizes, and the order, are the
    /// same on every run.
    pub(super) fn searched(&mut self, sizes: &[u64]) {
        if self.in_fine {
            let g = self.fine.as_mut().expect("fine heads searched");
            g.order = by_size(&g.order, sizes, &g.tasks, &self.weights);
        } else {
            // Among equal bounds, the largest first: the most room, so the likeliest to
            // hold a solution, and the longest, so started early.
            let g = &mut self.coarse;
            let mut by: Vec<(u32, std::cmp::Reverse<u64>, usize)> = g
                .order
                .iter()
                .enumerate()
                .map(|(k, &t)| (g.keys[t], std::cmp::Reverse(sizes[k]), t))
                .collect();
            by.sort();
            g.order = by.into_iter().map(|(_, _, t)| t).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Metric;
    use crate::testsupport::cube3;
    use puz_core::Control;

    const FACES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

    fn canons() -> Vec<(&'static str, Canon)> {
        let c3 = cube3();
        let ctl = Control::default();
        vec![
            ("htm", Canon::new(&Metric::htm(&c3, &FACES, &ctl).unwrap())),
            ("qtm", Canon::new(&Metric::qtm(&c3, &FACES, &ctl).unwrap())),
            ("atm", Canon::new(&Metric::atm(&c3, &FACES, &ctl).unwrap())),
        ]
    }

    /// The heads of each length are the canonical sequences of that length, each once,
    /// with the automaton's state after them; the fine ones are the shortest with at
    /// least `FINE_TASKS` of them.
    #[test]
    fn heads_are_the_canonical_sequences() {
        for (name, c) in canons() {
            let counts = c.count_sequences(4);
            for (len, &count) in counts.iter().enumerate().skip(1) {
                let t = tasks(&c, len);
                assert_eq!(t.len() as u128, count, "{name} {len}");
                let distinct: std::collections::HashSet<&[u32]> =
                    t.iter().map(|t| t.letters.as_slice()).collect();
                assert_eq!(distinct.len(), t.len(), "{name} {len}");
                for task in &t {
                    let end = task.letters.iter().try_fold(0, |st, &l| c.next(st, l));
                    assert_eq!(end, Some(task.state), "{name} {:?}", task.letters);
                }
            }
            let (len, n) = fine_length(&c);
            let counts = c.count_sequences(len);
            assert!(
                n >= FINE_TASKS as u128 && counts[len - 1] < FINE_TASKS as u128,
                "{name}"
            );
            assert_eq!(n, tasks(&c, len).len() as u128, "{name}");
        }
        // One face: the sequences stop after a letter, the heads with them.
        let c3 = cube3();
        let u = Canon::new(&Metric::htm(&c3, &["U"], &Control::default()).unwrap());
        assert_eq!(fine_length(&u), (2, 0));
        let one: Vec<Vec<u32>> = tasks(&u, 2).into_iter().map(|t| t.letters).collect();
        let letters: Vec<Vec<u32>> = u.allowed(0).iter().map(|&(l, _)| vec![l]).collect();
        assert_eq!((one.len(), &one), (3, &letters));
    }

    /// A state's weight is its share of the long canonical sequences: of those of 14
    /// letters, the share starting in each state agrees to 1 in 10,000.
    #[test]
    fn weights_are_shares_of_long_sequences() {
        for (name, c) in canons() {
            let w = weights(&c);
            let mut n = vec![1f64; c.states];
            for _ in 0..14 {
                n = (0..c.states)
                    .map(|s| {
                        c.allowed(s as u32)
                            .iter()
                            .map(|&(_, t)| n[t as usize])
                            .sum()
                    })
                    .collect();
            }
            let total: f64 = n.iter().sum();
            for s in 0..c.states {
                let share = n[s] / total;
                assert!((share - w[s]).abs() <= 1e-4 * w[s].max(share), "{name} {s}");
            }
            // Not all alike: after a letter fewer follow than at the start.
            assert!(w[0] > w[c.allowed(0)[0].1 as usize], "{name}");
        }
    }

    /// Fine heads run largest for their state's weight first; equal ones keep their order.
    #[test]
    fn fine_heads_run_largest_for_their_kind_first() {
        let task = |state| Task {
            letters: vec![],
            state,
        };
        let tasks = [task(0), task(1), task(1), task(0), task(1)];
        let weights = [0.25, 0.75];
        // Per node of weight: 120, 80, 120, 0, 40.
        let order = [0, 1, 2, 3, 4];
        let sizes = [30, 60, 90, 0, 30];
        assert_eq!(
            by_size(&order, &sizes, &tasks, &weights),
            vec![0, 2, 1, 4, 3]
        );
        // In the order of the cost before, not of the list.
        let order = [2, 0, 4, 1, 3];
        let sizes = [90, 30, 30, 60, 0];
        assert_eq!(
            by_size(&order, &sizes, &tasks, &weights),
            vec![2, 0, 1, 4, 3]
        );
    }
}
