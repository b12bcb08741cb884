//! Turn metrics: which products of a puzzle's moves count as one turn, and at what cost.
//!
//! A [`Metric`] has its own [`Alphabet`]: in `atm` a letter such as `(U2 D')` is a product
//! that is no letter of the puzzle. Each letter remembers how it is spelled in the
//! puzzle's moves, so solutions print in the puzzle's own notation. Letters are grouped in
//! *families* (the powers of one move; in `atm` all the turns of one axis): see
//! [`Families`], used for canonical sequences and for [`length`].

use crate::error::{invalid, SolveError};
use puz_core::{Alphabet, Control, Interrupt, Perm, Puzzle};
use std::collections::HashMap;

/// A generator set with costs, written in the puzzle's moves.
#[derive(Clone, Debug)]
pub struct Metric {
    /// `htm`, `qtm`, `stm`, `atm`, or the name given to an explicit set.
    pub name: String,
    /// The letters of the metric (closed under inverse).
    pub alphabet: Alphabet,
    /// The cost of each letter (at least 1).
    pub cost: Vec<u32>,
    /// How each letter is written: `(move index in the puzzle, power)` pairs.
    pub spelling: Vec<Vec<(usize, i64)>>,
    /// The families the letters fall into.
    pub families: Families,
}

/// The name of `name` to the power `p` (any sign) for a move of order `order`.
pub fn power_name(name: &str, p: i64, order: u64) -> String {
    let o = order.clamp(1, i64::MAX as u64) as i64;
    puz_core::power_name(name, p.rem_euclid(o) as u64, o as u64)
}

/// A letter's name from its spelling: `U2`, or `(U2 D')` for a product.
fn spelled(puzzle: &Puzzle, sp: &[(usize, i64)]) -> String {
    let text: Vec<String> = sp
        .iter()
        .map(|&(m, k)| power_name(&puzzle.moves[m].name, k, move_order(&puzzle.moves[m].perm)))
        .collect();
    if text.len() == 1 {
        text[0].clone()
    } else {
        format!("({})", text.join(" "))
    }
}

fn move_order(p: &Perm) -> u64 {
    u64::try_from(p.order()).unwrap_or(u64::MAX)
}

fn select_moves(puzzle: &Puzzle, names: &[&str]) -> Result<Vec<usize>, SolveError> {
    if names.is_empty() {
        return Ok((0..puzzle.moves.len()).collect());
    }
    names
        .iter()
        .map(|n| {
            puzzle
                .move_index(n)
                .ok_or_else(|| SolveError::Invalid(format!("the puzzle has no move `{n}`")))
        })
        .collect()
}

/// The most letters `atm` builds (the 3x3x3 has 45).
const MAX_ATM_LETTERS: u128 = 100_000;

/// A shortest chain of pairwise commuting moves from `i` to `j` (breadth first).
fn commuting_path(
    i: usize,
    j: usize,
    n: usize,
    commute: impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    let mut prev = vec![usize::MAX; n];
    prev[i] = i;
    let mut queue = std::collections::VecDeque::from([i]);
    while let Some(a) = queue.pop_front() {
        if a == j {
            break;
        }
        for (b, pb) in prev.iter_mut().enumerate() {
            if *pb == usize::MAX && commute(a, b) {
                *pb = a;
                queue.push_back(b);
            }
        }
    }
    let mut path = vec![j];
    while let Some(&last) = path.last() {
        if last == i || prev[last] == usize::MAX {
            break;
        }
        path.push(prev[last]);
    }
    path.reverse();
    path
}

impl Metric {
    /// Builds a metric from letters `(spelling, cost)`; letters with the same effect are
    /// merged (the cheaper kept) and identity letters dropped.
    pub fn from_letters(
        puzzle: &Puzzle,
        name: &str,
        letters: Vec<(Vec<(usize, i64)>, u32)>,
        ctl: &Control,
    ) -> Result<Metric, SolveError> {
        let mut names = Vec::new();
        let mut perms: Vec<Perm> = Vec::new();
        let mut cost = Vec::new();
        let mut spelling = Vec::new();
        let mut seen: HashMap<Perm, usize> = HashMap::new();
        let id = puzzle.identity();
        for (sp, c) in letters {
            ctl.check()?;
            if c == 0 {
                return invalid("a generator must cost at least 1");
            }
            let mut p = id.clone();
            for &(m, k) in &sp {
                p = p.then(&puzzle.moves[m].perm.pow(k));
            }
            if p.is_identity() {
                continue;
            }
            if let Some(&i) = seen.get(&p) {
                if c < cost[i] {
                    cost[i] = c;
                }
                continue;
            }
            names.push(spelled(puzzle, &sp));
            seen.insert(p.clone(), perms.len());
            perms.push(p);
            cost.push(c);
            spelling.push(sp);
        }
        // Close under inverse: an inverse letter costs what its letter costs.
        for i in 0..perms.len() {
            let inv = perms[i].inverse();
            if !seen.contains_key(&inv) {
                let sp: Vec<(usize, i64)> =
                    spelling[i].iter().rev().map(|&(m, k)| (m, -k)).collect();
                names.push(spelled(puzzle, &sp));
                seen.insert(inv.clone(), perms.len());
                perms.push(inv);
                cost.push(cost[i]);
                spelling.push(sp);
            }
        }
        if perms.is_empty() {
            return invalid("the metric has no generator");
        }
        let alphabet = Alphabet::new(names, perms).expect("closed under inverse");
        let families = Families::new(&alphabet, &cost, puzzle.degree(), ctl)?;
        Ok(Metric {
            name: name.to_string(),
            alphabet,
            cost,
            spelling,
            families,
        })
    }

    /// Half (face) turn metric: every power of every listed move costs 1 (all moves if
    /// `moves` is empty).
    pub fn htm(puzzle: &Puzzle, moves: &[&str], ctl: &Control) -> Result<Metric, SolveError> {
        let ms = select_moves(puzzle, moves)?;
        let mut letters = Vec::new();
        for m in ms {
            let o = move_order(&puzzle.moves[m].perm) as i64;
            for k in 1..o {
                letters.push((vec![(m, k)], 1));
            }
        }
        Metric::from_letters(puzzle, "htm", letters, ctl)
    }

    /// Quarter turn metric: only the smallest turns (`U`, `U'`) are letters, of cost 1; a
    /// half turn is two letters.
    pub fn qtm(puzzle: &Puzzle, moves: &[&str], ctl: &Control) -> Result<Metric, SolveError> {
        let ms = select_moves(puzzle, moves)?;
        let mut letters = Vec::new();
        for m in ms {
            let o = move_order(&puzzle.moves[m].perm) as i64;
            letters.push((vec![(m, 1)], 1));
            if o > 2 {
                letters.push((vec![(m, o - 1)], 1));
            }
        }
        Metric::from_letters(puzzle, "qtm", letters, ctl)
    }

    /// Slice turn metric: `htm` on the faces plus every power of the slice moves.
    pub fn stm(
        puzzle: &Puzzle,
        faces: &[&str],
        slices: &[&str],
        ctl: &Control,
    ) -> Result<Metric, SolveError> {
        let mut all: Vec<&str> = faces.to_vec();
        if faces.is_empty() {
            return invalid("stm needs the face moves listed");
        }
        all.extend_from_slice(slices);
        let mut m = Metric::htm(puzzle, &all, ctl)?;
        m.name = "stm".into();
        Ok(m)
    }

    /// Axial turn metric: any product of commuting moves on one axis costs 1. Axes are the
    /// connected components of the commutation graph of the listed moves (each component
    /// must commute pairwise). 45 generators on the 3x3x3.
    pub fn atm(puzzle: &Puzzle, moves: &[&str], ctl: &Control) -> Result<Metric, SolveError> {
        let ms = select_moves(puzzle, moves)?;
        let perms: Vec<&Perm> = ms.iter().map(|&m| &puzzle.moves[m].perm).collect();
        // Two moves commute when they agree on the points either one moves, so a pair
        // costs its supports, not the puzzle's size (row(1000) has half a million pairs).
        let moved: Vec<Vec<usize>> = perms
            .iter()
            .map(|p| (0..p.degree()).filter(|&x| p.image(x) != x).collect())
            .collect();
        let commute_ix = |i: usize, j: usize| {
            let (a, b) = (perms[i], perms[j]);
            moved[i]
                .iter()
                .chain(&moved[j])
                .all(|&x| a.image(b.image(x)) == b.image(a.image(x)))
        };
        let n = ms.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for i in 0..n {
            ctl.check()?;
            for j in 0..i {
                if commute_ix(i, j) {
                    let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                    parent[ri] = rj;
                }
            }
        }
        let comp: Vec<usize> = (0..n).map(|i| root(&mut parent, i)).collect();
        let mut axes: Vec<Vec<usize>> = Vec::new();
        let mut axis_of: HashMap<usize, usize> = HashMap::new();
        for (i, &c) in comp.iter().enumerate() {
            let a = *axis_of.entry(c).or_insert_with(|| {
                axes.push(Vec::new());
                axes.len() - 1
            });
            axes[a].push(i);
        }
        let name = |i: usize| puzzle.moves[ms[i]].name.as_str();
        for axis in &axes {
            for &i in axis {
                ctl.check()?;
                for &j in axis {
                    if !commute_ix(i, j) {
                        let path = commuting_path(i, j, n, commute_ix);
                        let via: Vec<&str> = path.iter().map(|&k| name(k)).collect();
                        return invalid(format!(
                            "atm: moves {} and {} do not commute, yet a chain of commuting \
                             moves ({}) joins them into one axis; an axis's moves must all \
                             commute, so this puzzle has no axial metric",
                            name(i),
                            name(j),
                            via.join(" - ")
                        ));
                    }
                }
            }
        }
        // Each axis gives every product of its moves' powers: refuse up front what would
        // be too many letters (all 25 moves of Lights Out commute: 2^25).
        let mut count: u128 = 0;
        for axis in &axes {
            let per = axis.iter().try_fold(1u128, |acc, &i| {
                acc.checked_mul(move_order(perms[i]) as u128)
            });
            count = per
                .and_then(|p| count.checked_add(p - 1))
                .unwrap_or(u128::MAX);
        }
        if count > MAX_ATM_LETTERS {
            let biggest = axes.iter().map(|a| a.len()).max().unwrap_or(0);
            let shown = if count == u128::MAX {
                "more than 2^128".to_string()
            } else {
                count.to_string()
            };
            return invalid(format!(
                "atm on {} would have {shown} generators (every product of the \
                 commuting moves of one axis; {biggest} moves commute on one axis), more \
                 than the {MAX_ATM_LETTERS} allowed",
                puzzle.name
            ));
        }
        let mut letters = Vec::new();
        for axis in &axes {
            let orders: Vec<i64> = axis.iter().map(|&i| move_order(perms[i]) as i64).collect();
            let total: i64 = orders.iter().product();
            for code in 1..total {
                let mut c = code;
                let mut sp = Vec::new();
                for (k, &i) in axis.iter().enumerate() {
                    let p = c % orders[k];
                    c /= orders[k];
                    if p != 0 {
                        sp.push((ms[i], p));
                    }
                }
                letters.push((sp, 1));
            }
        }
        Metric::from_letters(puzzle, "atm", letters, ctl)
    }

    /// An explicit generator set: each generator a sequence of the puzzle's moves such as
    /// `"U2 D'"` with its cost. Missing inverses are added at the same cost.
    pub fn explicit(
        puzzle: &Puzzle,
        name: &str,
        gens: &[(&str, u32)],
        ctl: &Control,
    ) -> Result<Metric, SolveError> {
        let mut letters = Vec::new();
        for &(text, c) in gens {
            let mut sp = Vec::new();
            for tok in text.split_whitespace() {
                sp.push(parse_token(puzzle, tok)?);
            }
            letters.push((sp, c));
        }
        Metric::from_letters(puzzle, name, letters, ctl)
    }

    pub fn len(&self) -> usize {
        self.alphabet.len()
    }

    pub fn is_empty(&self) -> bool {
        self.alphabet.is_empty()
    }

    /// True when every letter costs 1.
    pub fn unit_costs(&self) -> bool {
        self.cost.iter().all(|&c| c == 1)
    }

    /// The total cost of a sequence of this metric's letters.
    pub fn cost_of(&self, letters: &[u32]) -> u64 {
        letters.iter().map(|&l| self.cost[l as usize] as u64).sum()
    }

    /// A sequence of letters written in the puzzle's moves (`R U (D2 U2)`).
    pub fn display(&self, letters: &[u32]) -> String {
        let v: Vec<&str> = letters
            .iter()
            .map(|&l| self.alphabet.names[l as usize].as_str())
            .collect();
        v.join(" ")
    }

    /// The permutation a sequence of letters performs.
    pub fn eval(&self, letters: &[u32], degree: usize) -> Perm {
        let mut p = Perm::identity(degree);
        for &l in letters {
            p.then_assign(&self.alphabet.perms[l as usize]);
        }
        p
    }
}

/// Parses `U`, `U2`, `U'`, `U2'`, `U3` into (move index, power).
pub fn parse_token(puzzle: &Puzzle, tok: &str) -> Result<(usize, i64), SolveError> {
    if let Some(m) = puzzle.move_index(tok) {
        return Ok((m, 1));
    }
    let (body, inv) = match tok.strip_suffix('\'') {
        Some(b) => (b, true),
        None => (tok, false),
    };
    let split = body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (name, digits) = body.split_at(split);
    let p: i64 = if digits.is_empty() {
        1
    } else {
        digits
            .parse()
            .map_err(|_| SolveError::Invalid(format!("bad move `{tok}`")))?
    };
    let m = puzzle
        .move_index(name)
        .ok_or_else(|| SolveError::Invalid(format!("the puzzle has no move `{name}`")))?;
    Ok((m, if inv { -p } else { p }))
}

/// The letters grouped into families: letters that commute and whose products stay in
/// the family (the powers of one move; the turns of one axis in `atm`). Each family
/// generates an abelian group `H`; a shortest-path tree over `H` (costs from the metric)
/// fixes one canonical spelling of each element, prefix-closed.
#[derive(Clone, Debug)]
pub struct Families {
    /// The family of each letter.
    pub of_letter: Vec<usize>,
    /// The element of its family's group that each letter is.
    pub elem_of_letter: Vec<usize>,
    pub list: Vec<Family>,
    /// `commute[f][g]`: every letter of `f` commutes with every letter of `g`.
    pub commute: Vec<Vec<bool>>,
}

/// One family: its letters and the group they generate, element 0 the identity.
#[derive(Clone, Debug)]
pub struct Family {
    pub letters: Vec<u32>,
    pub elements: Vec<Perm>,
    /// The least cost of an element written with the family's letters.
    pub cost: Vec<u32>,
    /// The tree edge reaching each element: `(parent element, letter)` (none for 0).
    pub parent: Vec<Option<(usize, u32)>>,
    /// `mult[e * letters + i]` = element `e` followed by letter `letters[i]`.
    pub mult: Vec<usize>,
}

impl Families {
    /// Pairs of letters are compared, quadratic in their number (every power of a
    /// 1000-cycle is a letter in `htm`), so the work polls `ctl`.
    pub fn new(
        alpha: &Alphabet,
        cost: &[u32],
        degree: usize,
        ctl: &Control,
    ) -> Result<Families, Interrupt> {
        let n = alpha.len();
        let perms = &alpha.perms;
        let comm = |a: usize, b: usize| perms[a].commutes_with(&perms[b]);
        let index: HashMap<&Perm, usize> = perms.iter().enumerate().map(|(i, p)| (p, i)).collect();
        let in_cyclic = |a: usize, b: usize| {
            // Is b a power of a?
            let mut x = perms[a].clone();
            for _ in 0..64 {
                if x == perms[b] {
                    return true;
                }
                if x.is_identity() {
                    return false;
                }
                x = x.then(&perms[a]);
            }
            false
        };
        let mut uf: Vec<usize> = (0..n).collect();
        fn find(uf: &mut [usize], x: usize) -> usize {
            let mut x = x;
            while uf[x] != x {
                uf[x] = uf[uf[x]];
                x = uf[x];
            }
            x
        }
        // What each letter moves, as a bitset: letters moving disjoint points commute, and
        // their product can be a letter only if some letter moves exactly the union (on
        // puzzles of many small moves, rows and Lights Out, most pairs are disjoint).
        let words = degree.div_ceil(64).max(1);
        let supports: Vec<Vec<u64>> = perms
            .iter()
            .map(|p| {
                let mut s = vec![0u64; words];
                for i in (0..p.degree()).filter(|&i| p.image(i) != i) {
                    s[i / 64] |= 1 << (i % 64);
                }
                s
            })
            .collect();
        let letter_supports: std::collections::HashSet<&Vec<u64>> = supports.iter().collect();
        for a in 0..n {
            ctl.check()?;
            for b in 0..a {
                let (sa, sb) = (&supports[a], &supports[b]);
                if sa.iter().zip(sb).all(|(x, y)| x & y == 0) {
                    // Not the identity, and b is no power of a: only the product can join them.
                    let union: Vec<u64> = sa.iter().zip(sb).map(|(x, y)| x | y).collect();
                    if letter_supports.contains(&union)
                        && index.contains_key(&perms[a].then(&perms[b]))
                    {
                        let (ra, rb) = (find(&mut uf, a), find(&mut uf, b));
                        uf[ra] = rb;
                    }
                    continue;
                }
                if !comm(a, b) {
                    continue;
                }
                let prod = perms[a].then(&perms[b]);
                if prod.is_identity()
                    || index.contains_key(&prod)
                    || in_cyclic(a, b)
                    || in_cyclic(b, a)
                {
                    let (ra, rb) = (find(&mut uf, a), find(&mut uf, b));
                    uf[ra] = rb;
                }
            }
        }
        // A class must commute pairwise; otherwise split it into single letters (and
        // their inverses).
        let mut classes: HashMap<usize, Vec<u32>> = HashMap::new();
        for a in 0..n {
            let r = find(&mut uf, a);
            classes.entry(r).or_default().push(a as u32);
        }
        let mut groups: Vec<Vec<u32>> = Vec::new();
        let mut keys: Vec<usize> = classes.keys().copied().collect();
        keys.sort_by_key(|k| classes[k][0]);
        for k in keys {
            ctl.check()?;
            let c = &classes[&k];
            let ok = c
                .iter()
                .all(|&a| c.iter().all(|&b| comm(a as usize, b as usize)));
            if ok {
                groups.push(c.clone());
            } else {
                let mut done = vec![false; n];
                for &a in c {
                    if done[a as usize] {
                        continue;
                    }
                    let inv = alpha.inverse[a as usize];
                    done[a as usize] = true;
                    done[inv as usize] = true;
                    groups.push(if inv == a { vec![a] } else { vec![a, inv] });
                }
            }
        }
        let mut of_letter = vec![0; n];
        let mut elem_of_letter = vec![0; n];
        let mut list = Vec::new();
        for (f, letters) in groups.into_iter().enumerate() {
            let fam = Family::new(letters, perms, cost, degree, ctl)?;
            for (i, &l) in fam.letters.iter().enumerate() {
                of_letter[l as usize] = f;
                elem_of_letter[l as usize] = fam.mult[i];
            }
            list.push(fam);
        }
        let nf = list.len();
        let mut commute = vec![vec![false; nf]; nf];
        for f in 0..nf {
            ctl.check()?;
            for g in 0..nf {
                commute[f][g] = list[f].letters.iter().all(|&a| {
                    list[g]
                        .letters
                        .iter()
                        .all(|&b| comm(a as usize, b as usize))
                });
            }
        }
        Ok(Families {
            of_letter,
            elem_of_letter,
            list,
            commute,
        })
    }

    /// The family and element of a permutation, if it is in some family's group.
    pub fn find(&self, p: &Perm) -> Option<(usize, usize)> {
        for (f, fam) in self.list.iter().enumerate() {
            if let Some(e) = fam.elements.iter().position(|q| q == p) {
                return Some((f, e));
            }
        }
        None
    }
}

impl Family {
    fn new(
        letters: Vec<u32>,
        perms: &[Perm],
        cost: &[u32],
        degree: usize,
        ctl: &Control,
    ) -> Result<Family, Interrupt> {
        let mut elements = vec![Perm::identity(degree)];
        let mut index: HashMap<Perm, usize> = HashMap::new();
        index.insert(elements[0].clone(), 0);
        let mut mult = Vec::new();
        let mut e = 0;
        while e < elements.len() {
            ctl.check()?;
            for &l in &letters {
                let q = elements[e].then(&perms[l as usize]);
                let j = *index.entry(q.clone()).or_insert_with(|| {
                    elements.push(q);
                    elements.len() - 1
                });
                mult.push(j);
            }
            e += 1;
        }
        // Dijkstra from the identity (costs are small integers; |H| is small).
        let k = letters.len();
        let m = elements.len();
        let mut best = vec![u32::MAX; m];
        let mut parent = vec![None; m];
        let mut done = vec![false; m];
        best[0] = 0;
        for _ in 0..m {
            ctl.check()?;
            let Some(u) = (0..m)
                .filter(|&u| !done[u] && best[u] != u32::MAX)
                .min_by_key(|&u| best[u])
            else {
                break;
            };
            done[u] = true;
            for (i, &l) in letters.iter().enumerate() {
                let v = mult[u * k + i];
                let c = best[u] + cost[l as usize];
                if c < best[v] {
                    best[v] = c;
                    parent[v] = Some((u, l));
                }
            }
        }
        Ok(Family {
            letters,
            elements,
            cost: best,
            parent,
            mult,
        })
    }

    /// The position of letter `l` in this family's list.
    pub fn letter_pos(&self, l: u32) -> Option<usize> {
        self.letters.iter().position(|&x| x == l)
    }
}

pub use crate::metric_len::length;

#[cfg(test)]
#[path = "metric_tests.rs"]
mod tests;
