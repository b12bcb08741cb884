//! Exact cover for the last cosets of a joining level: Knuth's Algorithm X with the
//! fewest-candidates rule. A row (a gadget placed at one splice index) covers some
//! elements (the cosets it enters) and takes one slot (the splice index); rows that share
//! an element or a slot exclude each other. Every element must be covered exactly once,
//! a slot used at most once.
//!
//! The number of live rows of each element is kept up to date as rows are chosen and
//! given back (as dancing links do), so a step costs the rows it blocks rather than a
//! recount over every candidate: tens of thousands of candidates are searched as fast as
//! a few hundred.

use puz_core::{Control, Interrupt};

/// The rows of a cover problem: `rows[r]` the elements of row `r`, `slot[r]` its slot.
pub struct Problem<'a> {
    pub rows: &'a [Vec<usize>],
    pub slot: &'a [usize],
    pub elems: usize,
}

struct State<'a> {
    p: &'a Problem<'a>,
    by_elem: Vec<Vec<usize>>,
    by_slot: Vec<Vec<usize>>,
    /// How many chosen rows exclude each row (0: the row is live).
    blocked: Vec<u32>,
    /// Live rows of each element.
    live: Vec<u32>,
    covered: Vec<bool>,
    chosen: Vec<usize>,
    steps: u64,
    limit: u64,
}

/// A set of rows covering every element exactly once with no slot twice, found within
/// `limit` search steps; `None` when there is none or the limit was reached.
pub fn solve(p: &Problem, limit: u64, ctl: &Control) -> Result<Option<Vec<usize>>, Interrupt> {
    assert_eq!(p.rows.len(), p.slot.len(), "a slot for every row");
    let mut by_elem = vec![Vec::new(); p.elems];
    let slots = p.slot.iter().max().map_or(0, |&s| s + 1);
    let mut by_slot = vec![Vec::new(); slots];
    let mut live = vec![0u32; p.elems];
    for (r, row) in p.rows.iter().enumerate() {
        for &e in row {
            by_elem[e].push(r);
            live[e] += 1;
        }
        by_slot[p.slot[r]].push(r);
    }
    let mut s = State {
        p,
        by_elem,
        by_slot,
        blocked: vec![0; p.rows.len()],
        live,
        covered: vec![false; p.elems],
        chosen: Vec::new(),
        steps: 0,
        limit,
    };
    Ok(s.search(ctl)?.then_some(s.chosen))
}

impl State<'_> {
    fn block(&mut self, r: usize) {
        self.blocked[r] += 1;
        if self.blocked[r] == 1 {
            for &y in &self.p.rows[r] {
                self.live[y] -= 1;
            }
        }
    }

    fn unblock(&mut self, r: usize) {
        self.blocked[r] -= 1;
        if self.blocked[r] == 0 {
            for &y in &self.p.rows[r] {
                self.live[y] += 1;
            }
        }
    }

    /// Takes row `r`: its elements are covered, and every row meeting them or its slot is
    /// blocked (`r` itself among them).
    fn choose(&mut self, r: usize) {
        let p = self.p;
        for &x in &p.rows[r] {
            self.covered[x] = true;
            for i in 0..self.by_elem[x].len() {
                self.block(self.by_elem[x][i]);
            }
        }
        let s = p.slot[r];
        for i in 0..self.by_slot[s].len() {
            self.block(self.by_slot[s][i]);
        }
        self.chosen.push(r);
    }

    /// Undoes [`State::choose`] exactly, in reverse.
    fn give_back(&mut self, r: usize) {
        let p = self.p;
        self.chosen.pop();
        let s = p.slot[r];
        for i in (0..self.by_slot[s].len()).rev() {
            self.unblock(self.by_slot[s][i]);
        }
        for &x in p.rows[r].iter().rev() {
            for i in (0..self.by_elem[x].len()).rev() {
                self.unblock(self.by_elem[x][i]);
            }
            self.covered[x] = false;
        }
    }

    fn search(&mut self, ctl: &Control) -> Result<bool, Interrupt> {
        self.steps += 1;
        if self.steps > self.limit {
            return Ok(false);
        }
        if self.steps.is_multiple_of(1024) {
            ctl.check()?;
        }
        let best = (0..self.p.elems)
            .filter(|&e| !self.covered[e])
            .min_by_key(|&e| self.live[e]);
        let Some(e) = best else {
            return Ok(true);
        };
        if self.live[e] == 0 {
            return Ok(false);
        }
        for i in 0..self.by_elem[e].len() {
            let r = self.by_elem[e][i];
            if self.blocked[r] != 0 {
                continue;
            }
            self.choose(r);
            if self.search(ctl)? {
                return Ok(true);
            }
            self.give_back(r);
            if self.steps > self.limit {
                return Ok(false);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every subset of rows, smallest first: the reference for small problems.
    fn brute(p: &Problem) -> bool {
        let n = p.rows.len();
        (0u32..1 << n).any(|m| valid(p, &(0..n).filter(|&r| m >> r & 1 == 1).collect::<Vec<_>>()))
    }

    fn valid(p: &Problem, rows: &[usize]) -> bool {
        let mut count = vec![0; p.elems];
        let mut slots = std::collections::HashSet::new();
        for &r in rows {
            if !slots.insert(p.slot[r]) {
                return false;
            }
            for &e in &p.rows[r] {
                count[e] += 1;
            }
        }
        count.iter().all(|&c| c == 1)
    }

    #[test]
    fn knuths_example() {
        // Knuth's exact cover example (rows A..F over 7 columns); the unique cover is A D E
        // in his labelling, rows 0, 3, 4 here.
        let rows = vec![
            vec![2, 4, 5],
            vec![0, 3, 6],
            vec![1, 2, 5],
            vec![0, 3],
            vec![1, 6],
            vec![3, 4, 6],
        ];
        let slot: Vec<usize> = (0..rows.len()).collect();
        let p = Problem {
            rows: &rows,
            slot: &slot,
            elems: 7,
        };
        let mut got = solve(&p, 1000, &Control::default()).unwrap().unwrap();
        got.sort();
        assert_eq!(got, vec![0, 3, 4]);
        // The same rows with A and D on one slot: no cover.
        let slot = vec![0, 1, 2, 0, 4, 5];
        let p = Problem {
            rows: &rows,
            slot: &slot,
            elems: 7,
        };
        assert_eq!(solve(&p, 1000, &Control::default()).unwrap(), None);
    }

    proptest! {
        #[test]
        fn agrees_with_every_subset(
            rows in proptest::collection::vec(proptest::collection::btree_set(0usize..6, 1..4), 1..12),
            slots in proptest::collection::vec(0usize..8, 12),
        ) {
            let rows: Vec<Vec<usize>> = rows.into_iter().map(|s| s.into_iter().collect()).collect();
            let slot = slots[..rows.len()].to_vec();
            let p = Problem { rows: &rows, slot: &slot, elems: 6 };
            let got = solve(&p, u64::MAX, &Control::default()).unwrap();
            match &got {
                Some(r) => prop_assert!(valid(&p, r)),
                None => prop_assert!(!brute(&p)),
            }
        }
    }
}
