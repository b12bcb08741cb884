//! Automorphisms of a set of moves: every permutation `c` of the points whose conjugation
//! `c^-1 m c` sends each move `m` onto one of the images allowed for it. On the 3x3x3 with
//! the letters of a metric as the moves (each allowed to become a letter of the same cost
//! and cycle type), these are the 24 rotations and the 24 reflections of the cube: the
//! reflections are no product of moves, so they are found here rather than declared.
//!
//! Backtracking: a point's image is chosen, then the image of each move that moves a
//! mapped point, and every choice is propagated along the chosen moves
//! (`c(m(y)) = h(c(y))` when `c^-1 m c = h`) until a contradiction or a whole map.

use puz_core::Perm;
use std::collections::HashSet;

/// A move and the images its conjugate may have.
pub struct Constraint<'a> {
    pub of: &'a Perm,
    pub images: Vec<&'a Perm>,
}

const UNSET: u16 = u16::MAX;

#[derive(Clone)]
struct Partial {
    /// `c[y]`, or `UNSET`.
    c: Vec<u16>,
    used: Vec<bool>,
    /// The chosen image of each constraint.
    phi: Vec<Option<usize>>,
}

struct Finder<'a> {
    /// The constraints searched on, and all of them (checked on whole maps).
    cons: Vec<&'a Constraint<'a>>,
    all: Vec<&'a Constraint<'a>>,
    /// Points moved by some constraint's move.
    moved: Vec<bool>,
    budget: u64,
    limit: usize,
    exhausted: bool,
    found: Vec<Perm>,
    seen: HashSet<Perm>,
}

/// Every automorphism, the identity included, or `None` when there are more than `limit`
/// or the search takes more than `budget` steps.
pub fn automorphisms<'a>(
    degree: usize,
    constraints: &'a [Constraint<'a>],
    limit: usize,
    budget: u64,
) -> Option<Vec<Perm>> {
    let all: Vec<&Constraint> = constraints.iter().filter(|c| !c.of.is_identity()).collect();
    // The search runs on the fewest constraints (smallest support first) whose moves have
    // the orbits of all of them; the others are checked on each whole map.
    let orbits = |cons: &[&Constraint]| -> Vec<usize> {
        let mut root: Vec<usize> = (0..degree).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        for c in cons {
            for y in 0..degree {
                let (a, b) = (find(&mut root, y), find(&mut root, c.of.image(y)));
                root[a.max(b)] = a.min(b);
            }
        }
        (0..degree).map(|y| find(&mut root, y)).collect()
    };
    let target = orbits(&all);
    let mut by_support = all.clone();
    by_support.sort_by_key(|c| c.of.support());
    let mut cons: Vec<&Constraint> = Vec::new();
    for c in by_support {
        if orbits(&cons) == target {
            break;
        }
        let mut with = cons.clone();
        with.push(c);
        if orbits(&with) != orbits(&cons) {
            cons = with;
        }
    }
    let mut moved = vec![false; degree];
    for c in &cons {
        for (y, m) in moved.iter_mut().enumerate() {
            *m |= c.of.image(y) != y;
        }
    }
    let start = Partial {
        c: vec![UNSET; degree],
        used: vec![false; degree],
        phi: vec![None; cons.len()],
    };
    let mut f = Finder {
        cons,
        all,
        moved,
        budget,
        limit,
        exhausted: false,
        found: Vec::new(),
        seen: HashSet::new(),
    };
    f.go(start);
    (!f.exhausted).then_some(f.found)
}

impl Finder<'_> {
    /// Closes the partial map under the chosen images; false on a contradiction.
    fn propagate(&mut self, p: &mut Partial) -> bool {
        let n = p.c.len();
        loop {
            let mut changed = false;
            for (k, con) in self.cons.iter().enumerate() {
                let Some(j) = p.phi[k] else { continue };
                let h = con.images[j];
                for y in 0..n {
                    let cy = p.c[y];
                    if cy == UNSET {
                        continue;
                    }
                    if self.budget == 0 {
                        self.exhausted = true;
                        return false;
                    }
                    self.budget -= 1;
                    let (y2, z2) = (con.of.image(y), h.image(cy as usize));
                    match p.c[y2] {
                        UNSET => {
                            if p.used[z2] {
                                return false;
                            }
                            p.c[y2] = z2 as u16;
                            p.used[z2] = true;
                            changed = true;
                        }
                        v if v as usize != z2 => return false,
                        _ => {}
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn go(&mut self, p: Partial) {
        if self.exhausted {
            return;
        }
        let n = p.c.len();
        // The image of a move that moves a mapped point.
        let next = (0..self.cons.len()).find(|&k| {
            p.phi[k].is_none() && (0..n).any(|y| p.c[y] != UNSET && self.cons[k].of.image(y) != y)
        });
        if let Some(k) = next {
            for j in 0..self.cons[k].images.len() {
                let mut q = p.clone();
                q.phi[k] = Some(j);
                if self.propagate(&mut q) {
                    self.go(q);
                }
            }
            return;
        }
        // Else the image of a moved point not mapped yet.
        if let Some(y) = (0..n).find(|&y| p.c[y] == UNSET && self.moved[y]) {
            let targets: Vec<usize> = (0..n).filter(|&z| !p.used[z] && self.moved[z]).collect();
            for z in targets {
                let mut q = p.clone();
                q.c[y] = z as u16;
                q.used[z] = true;
                if self.propagate(&mut q) {
                    self.go(q);
                }
            }
            return;
        }
        // Every moved point is mapped, onto moved points: the others stay where they are.
        let images: Vec<u16> = (0..n)
            .map(|y| if p.c[y] == UNSET { y as u16 } else { p.c[y] })
            .collect();
        let c = Perm::from_images_unchecked(images);
        let ci = c.inverse();
        let exact = self.all.iter().all(|con| {
            let h = ci.then(con.of).then(&c);
            con.images.contains(&&h)
        });
        if exact && self.seen.insert(c.clone()) {
            self.found.push(c);
            if self.found.len() > self.limit {
                self.exhausted = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square's 4 corners turned by a quarter turn `r` and flipped by `s`: the moves
    /// `{r, r^-1}` have the dihedral group of order 8 as automorphisms on 4 points, and
    /// `{r}` alone (its image must be `r`) the rotations only.
    #[test]
    fn square() {
        let r = Perm::from_images(vec![1, 2, 3, 0]).unwrap();
        let ri = r.inverse();
        let both = [
            Constraint {
                of: &r,
                images: vec![&r, &ri],
            },
            Constraint {
                of: &ri,
                images: vec![&r, &ri],
            },
        ];
        let all = automorphisms(4, &both, 100, 1 << 20).unwrap();
        assert_eq!(all.len(), 8);
        assert!(all.iter().any(|c| c.is_identity()));
        let one = [Constraint {
            of: &r,
            images: vec![&r],
        }];
        assert_eq!(automorphisms(4, &one, 100, 1 << 20).unwrap().len(), 4);
        // Limits are reported as None.
        assert!(automorphisms(4, &both, 3, 1 << 20).is_none());
        assert!(automorphisms(4, &both, 100, 5).is_none());
    }
}
