//! A run that is a rotation of a certified path: recognised by one cut and one comparison
//! instead of splitting it into every coset of the level below.
//!
//! Constructions visit most cosets of a level by rotations of one Hamilton cycle `C`
//! (`c_0 ... c_{N-1}`, `N = |H_l|`) of `H_l`: started after `c_o`, they read
//! `c_{o+1} ... c_{N-1}` then `c_0 ... c_{o-1}`. Such a run `R` is cut where the cycle
//! wraps, `R = A x B` with `x` the single letter `c_{N-1}`: then `B g A` (`g = c_o`)
//! spells `C` less its last letter, a path certified once.
//!
//! Why it is sound, whatever the cut: `R = A x B` from start `s`, `g` the letter whose
//! permutation is the inverse of `R`'s product (compared exactly). The word `J = B g A`,
//! walked from `t = s·A·x` (where `B` starts in `R`), visits `B`'s positions, then
//! `t·B·g = s·R·R⁻¹ = s`, then `A`'s: exactly the positions of `R`, and nothing else. When
//! `J`'s letters equal a path certified to cover a coset of `H_l` once, so do `R`'s.
//! The cut only chooses which comparison to make; a wrong choice fails the comparison.

use super::{Stop, Tiler};
use crate::certify::runs::{Run, Seg};
use puz_core::{Perm, Word};

/// Cuts tried in one run (boundaries between the nodes of its top two levels).
const MAX_CUTS: usize = 1024;

/// A run cut as `A x B` before item `i` of its top nodes: `x⁻¹` (the product of `B g A`)
/// and the last node of `A` without `x` (read inverted as that node was).
struct Cut {
    x_inv: Perm,
    trimmed: Word,
}

impl Tiler<'_> {
    /// Whether `run` (of `|H_l|` positions, letters of `H_l`) spells a certified path, as
    /// it is or cut and rotated; see the module's text.
    pub(super) fn rotation(&mut self, l: usize, run: &Run<'_>) -> Result<bool, Stop> {
        let product = run.start.inverse().then(&self.end(run));
        if self.known(l, &run.segs, &product)? {
            self.counts.rotations += 1;
            return Ok(true);
        }
        let Some((g, items)) = self.cuts(l, run, &product) else {
            return Ok(false);
        };
        for i in 1..items.len() {
            self.ctl.check()?;
            let Some(cut) = self.cut(&items, i, Some(l)) else {
                continue;
            };
            let (a, b) = items.split_at(i);
            let (_, inv) = a[a.len() - 1];
            let mut joined: Vec<Seg<'_>> = b.to_vec();
            joined.push((&self.letters[g as usize], false));
            joined.extend_from_slice(&a[..a.len() - 1]);
            joined.push((&cut.trimmed, inv));
            if self.known(l, &joined, &cut.x_inv)? {
                self.counts.rotations += 1;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// After `run` was certified to cover its coset: remembers its rotations `B g A` (one
    /// per cut, see the module's text) as certified paths too, so that later runs cut at
    /// their own wrap find the form their cycle has unrotated.
    pub(super) fn register_rotations(&mut self, l: usize, run: &Run<'_>) {
        let product = run.start.inverse().then(&self.end(run));
        let Some((g, items)) = self.cuts(l, run, &product) else {
            return;
        };
        for i in 1..items.len() {
            let Some(cut) = self.cut(&items, i, None) else {
                continue;
            };
            let (a, b) = items.split_at(i);
            let (_, inv) = a[a.len() - 1];
            let held = |s: &[Seg<'_>]| s.iter().map(|&(w, i)| (w.clone(), i)).collect::<Vec<_>>();
            let mut joined = held(b);
            joined.push((Word::Letter(g), false));
            joined.extend(held(&a[..a.len() - 1]));
            joined.push((cut.trimmed, inv));
            self.keep(l, cut.x_inv, joined, super::ROTATIONS_PER_PRODUCT);
        }
    }

    /// The letter `g` of `H_l` that closes a run of this product into a cycle, and the
    /// run's top nodes (where it may be cut); `None` when there is no such letter or the
    /// nodes are too many.
    fn cuts<'w>(&mut self, l: usize, run: &Run<'w>, product: &Perm) -> Option<(u32, Vec<Seg<'w>>)> {
        let g = self.letter_in(l, &product.inverse())?;
        Some((g, self.items(run)?))
    }

    /// The cut before `items[i]`; with `known: Some(l)`, only when a path of `H_l` with
    /// its product is certified already (else nothing could match it).
    fn cut(&mut self, items: &[Seg<'_>], i: usize, known: Option<usize>) -> Option<Cut> {
        let alpha = self.runs.alpha;
        let (w, inv) = items[i - 1];
        let x = self.last_letter(w, inv)?;
        let x_inv = alpha.perms[alpha.inverse[x as usize] as usize].clone();
        if known.is_some_and(|l| !self.paths[l].contains_key(&x_inv)) {
            return None;
        }
        let trimmed = self.trim(w, inv);
        Some(Cut { x_inv, trimmed })
    }

    /// The run's nodes down to two levels of sequences, or `None` past [`MAX_CUTS`].
    fn items<'w>(&mut self, run: &Run<'w>) -> Option<Vec<Seg<'w>>> {
        let mut items: Vec<Seg<'w>> = Vec::new();
        for &(w, inv) in &run.segs {
            self.open(w, inv, 2, &mut items);
            if items.len() > MAX_CUTS {
                return None;
            }
        }
        Some(items)
    }

    /// The nodes of `w` down to `depth` levels of sequences (names and inverses are seen
    /// through), in reading order.
    fn open<'w>(&mut self, w: &'w Word, inv: bool, depth: usize, out: &mut Vec<Seg<'w>>) {
        match w {
            Word::Named(_, x) => self.open(x, inv, depth, out),
            Word::Inverse(x) => self.open(x, !inv, depth, out),
            Word::Seq(items) if depth > 0 => {
                if inv {
                    for x in items.iter().rev() {
                        self.open(x, inv, depth - 1, out);
                    }
                } else {
                    for x in items.iter() {
                        self.open(x, inv, depth - 1, out);
                    }
                }
            }
            _ => {
                if self.runs.len(w) > 0 {
                    out.push((w, inv));
                }
            }
        }
    }

    /// The last letter read in `w` (in `w⁻¹` when `inv`).
    fn last_letter(&mut self, w: &Word, inv: bool) -> Option<u32> {
        let alpha = self.runs.alpha;
        match w {
            Word::Letter(x) if inv => Some(alpha.inverse[*x as usize]),
            Word::Letter(x) => Some(*x),
            Word::Named(_, x) => self.last_letter(x, inv),
            Word::Inverse(x) => self.last_letter(x, !inv),
            Word::Repeat(x, n) => (*n > 0).then(|| self.last_letter(x, inv)).flatten(),
            Word::Seq(items) => {
                let pick = |i: usize| if inv { i } else { items.len() - 1 - i };
                for i in 0..items.len() {
                    let x = &items[pick(i)];
                    if self.runs.len(x) > 0 {
                        return self.last_letter(x, inv);
                    }
                }
                None
            }
        }
    }

    /// `w` (read inverted when `inv`) without the last letter read: a node to read the
    /// same way.
    fn trim(&mut self, w: &Word, inv: bool) -> Word {
        let n = self.runs.len(w);
        // The last letter of `w⁻¹` is the inverse of `w`'s first.
        self.runs.cut(w, n - 1, inv)
    }
}
