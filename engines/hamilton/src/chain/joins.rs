//! A level where the new letter `d` commutes with no letter of the group `H` below (the
//! 3x3x3's `F` over `<U,R,D,L>`, Norskog's last level): cosets are joined several at once.
//!
//! A *gadget* is an identity `d_0 e_1 d_1 e_2 ... e_k d_k = v`: each `d_i` is `d` or `d'`,
//! each `e_i` the effect of a Hamilton path of `H`, `v` a letter of `H` (Norskog's
//! `F (R'U'R) F' (R'URU'R) F (R'UR) F' = R`). A path walked in one coset, with a letter
//! `v` replaced by `d_0 W_1 d_1 ... W_k d_k` (`W_i` a Hamilton path of `H` with effect
//! `e_i`), keeps its effect and walks `k` more whole cosets, when they are new. Gadgets are
//! found by a meet-in-the-middle search over a short list of effects ([`find_gadgets`]).
//!
//! The cosets form a tree, as in [`super::splice`]: the root `H` walked by a path with the
//! effect of a letter `v` and closed by `v'`; every coset's path offers its letters `v` at
//! a set of splice indices (the same for every coset walked by that path) to the gadgets
//! with host `v`. Since every gadget adds `k` cosets, the index `[G:H]` must be
//! `1 + sum k`: the larger gadgets are taken first, as many as make the rest a multiple of
//! the smallest size (2,048 cosets on the 3x3x3 with gadgets of 5 and 7: one of 7). Greedily, breadth-first, a gadget is taken where all its cosets are
//! new; when no coset offers one, the last cosets are matched exactly: every candidate
//! gadget (a coset, an unused splice index, a gadget whose cosets are all unseen) is
//! listed and an exact cover of the unseen cosets is searched (Algorithm X); when there
//! is none, the most recent greedy gadgets are given back and the cover tried again with
//! more cosets, then with more splice indices.

pub use super::gadgets::{find_gadgets, Gadget};
use super::keys::Seen;
use super::measure::{cat, Measure};
use super::{ChainError, CosetKey};
use puz_core::{Alphabet, Control, Perm, Word};
use std::collections::HashMap;
use std::time::Instant;

/// How to build a joining level.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// Splice indices per path to start with (doubled while cosets remain unreached).
    pub points: usize,
    /// Give up past this many splice indices per path.
    pub max_points: usize,
    /// Steps of the exact-cover search per attempt (at least 2,000 a coset to cover).
    pub cover_steps: u64,
    /// The most greedy gadgets given back at once for one exact cover.
    pub give_back: usize,
    /// The most cosets an exact cover is asked to cover (or an eighth of the index, if
    /// more: the last cosets of a large level are more).
    pub cover_max: usize,
}

impl Default for JoinOptions {
    fn default() -> Self {
        JoinOptions {
            points: 256,
            max_points: 1 << 14,
            cover_steps: 200_000,
            give_back: 64,
            cover_max: 400,
        }
    }
}

/// What a joining level took.
#[derive(Clone, Debug, Default)]
pub struct JoinStats {
    pub cosets: u64,
    /// Gadgets used, by size.
    pub gadgets: Vec<(usize, u64)>,
    /// Gadgets placed by the exact cover at the end, and those given back for it.
    pub covered: u64,
    pub given_back: u64,
    pub points: usize,
    pub seconds: f64,
}

/// A Hamilton path of `H` walked by some cosets, with its splice indices.
struct PathType {
    word: Word,
    len: u128,
    effect: Perm,
    /// (index, letter, prefix product before it) of letters that host a gadget.
    points: Vec<(u128, u32, Perm)>,
    tried: u64,
}

fn add_points(m: &mut Measure, p: &mut PathType, hosts: &[u32], target: usize) {
    let limit = p.tried + 8 * target as u64 + 8;
    while p.points.len() < target && p.tried < limit {
        let frac = (p.tried as f64 * 0.618_033_988_749_894_9).fract();
        p.tried += 1;
        let at = ((p.len as f64) * frac) as u128;
        for &v in hosts {
            let Some(i) = m.find(&p.word, v, at.min(p.len.saturating_sub(1))) else {
                continue;
            };
            if p.points.iter().any(|(j, _, _)| *j == i) {
                continue;
            }
            let pre = m.prefix(&p.word, i);
            p.points.push((i, v, pre));
        }
    }
}

/// One gadget placed: at splice `point` of node `host`, its cosets are nodes
/// `first .. first + k`.
#[derive(Clone, Debug)]
struct Placed {
    host: u32,
    point: u32,
    gadget: u32,
    first: u32,
}

struct Tree {
    anchors: Vec<Perm>,
    keys: Vec<Vec<u16>>,
    path: Vec<u32>,
    /// Splice indices of its path the node has tried.
    done: Vec<u32>,
    /// Splice indices in use, per node.
    used: Vec<Vec<u32>>,
    placed: Vec<Placed>,
}

impl Tree {
    fn push(&mut self, anchor: Perm, key: Vec<u16>, path: u32) {
        self.anchors.push(anchor);
        self.keys.push(key);
        self.path.push(path);
        self.done.push(0);
        self.used.push(Vec::new());
    }

    fn len(&self) -> usize {
        self.anchors.len()
    }
}

/// The anchors and keys of the cosets gadget `g` walks from `y` (the position before its
/// host letter), or `None` when one is seen or two coincide.
fn gadget_cosets(
    alpha: &Alphabet,
    g: &Gadget,
    effects: &[&Perm],
    y: &Perm,
    below: &dyn CosetKey,
    seen: &Seen,
) -> Option<Vec<(Perm, Vec<u16>)>> {
    let mut out: Vec<(Perm, Vec<u16>)> = Vec::with_capacity(g.size());
    let mut x = y.then(&alpha.perms[g.connectors[0] as usize]);
    for (i, &e) in g.effects.iter().enumerate() {
        let key = below.key(&x);
        if seen.get(&key).is_some() || out.iter().any(|(_, k)| *k == key) {
            return None;
        }
        let next = x
            .then(effects[e])
            .then(&alpha.perms[g.connectors[i + 1] as usize]);
        out.push((x, key));
        x = next;
    }
    Some(out)
}

/// A Hamilton cycle of `G = <H, d>` (of order `order`) from Hamilton paths of `H`:
/// `paths[root]` has the effect of a letter (it is walked in `H` and closed by that
/// letter's inverse); `gadgets` refer to `paths` by index for their effects.
#[allow(clippy::too_many_arguments)]
pub fn joining_level(
    alpha: &Alphabet,
    paths: &[Word],
    root: usize,
    gadgets: &[Gadget],
    below: &dyn CosetKey,
    order: u128,
    opts: &JoinOptions,
    ctl: &Control,
) -> Result<(Word, JoinStats), ChainError> {
    let t0 = Instant::now();
    let h_order = below.order();
    if h_order == 0 || !order.is_multiple_of(h_order) {
        return Err(ChainError::Invalid(format!(
            "{order} is not a multiple of the order {h_order} below"
        )));
    }
    let index = order / h_order;
    if index > 1 << 24 {
        return Err(ChainError::Invalid(format!(
            "{index} cosets is more than a joining level handles"
        )));
    }
    let index = index as usize;
    let n = alpha.perms[0].degree();
    let mut m = Measure::new(alpha, n);
    let mut types: Vec<PathType> = Vec::new();
    for w in paths {
        let len = m.len(w);
        if len + 1 != h_order {
            return Err(ChainError::Invalid(format!(
                "a path has {len} letters, the group below {h_order} elements"
            )));
        }
        types.push(PathType {
            word: w.clone(),
            len,
            effect: m.product(w),
            points: Vec::new(),
            tried: 0,
        });
    }
    let effects: Vec<Perm> = types.iter().map(|t| t.effect.clone()).collect();
    for g in gadgets {
        if !g.holds(alpha, &effects) {
            return Err(ChainError::Invalid(format!(
                "a gadget for {} does not hold for the paths' effects",
                alpha.names[g.host as usize]
            )));
        }
    }
    let close = (0..alpha.len() as u32)
        .find(|&l| alpha.perms[l as usize] == types[root].effect)
        .ok_or_else(|| ChainError::Invalid("the root path's effect is not a letter".into()))?;
    let eff_refs: Vec<&Perm> = effects.iter().collect();
    let mut hosts: Vec<u32> = gadgets.iter().map(|g| g.host).collect();
    hosts.sort_unstable();
    hosts.dedup();
    // Gadgets of each size to take: the larger ones first, so that the rest is a multiple
    // of the smallest size.
    let mut sizes: Vec<usize> = gadgets.iter().map(|g| g.size()).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let small = *sizes
        .first()
        .ok_or_else(|| ChainError::Invalid("no gadgets".into()))?;
    let mut quota = quota(index - 1, &sizes).ok_or_else(|| {
        ChainError::Invalid(format!(
            "{} cosets beyond the first are not a sum of gadget sizes {sizes:?}",
            index - 1
        ))
    })?;
    for t in types.iter_mut() {
        add_points(&mut m, t, &hosts, opts.points.max(1));
    }
    let mut tree = Tree {
        anchors: Vec::new(),
        keys: Vec::new(),
        path: Vec::new(),
        done: Vec::new(),
        used: Vec::new(),
        placed: Vec::new(),
    };
    let mut seen = Seen::new(n);
    let id = Perm::identity(n);
    let k0 = below.key(&id);
    seen.insert(&k0, 0);
    tree.push(id, k0, root as u32);
    let mut stats = JoinStats::default();
    let mut head = 0usize;
    let mut give_back = 0usize;
    // Once the greedy pass is exhausted, new splice indices serve the exact cover only
    // (the greedy pass would spend the cosets they reach one gadget at a time).
    let mut endgame = false;
    loop {
        // Greedy, breadth-first; larger gadgets while their quota lasts.
        while head < tree.len() && seen.len() < index {
            ctl.check()?;
            let j = head;
            let ty = &types[tree.path[j] as usize];
            for s in tree.done[j] as usize..ty.points.len() {
                if tree.used[j].contains(&(s as u32)) {
                    continue;
                }
                let (_, v, pre) = &ty.points[s];
                let y = tree.anchors[j].then(pre);
                let mut order_g: Vec<usize> = (0..gadgets.len())
                    .filter(|&g| gadgets[g].host == *v)
                    .filter(|&g| {
                        let sz = gadgets[g].size();
                        sz == small || quota.get(&sz).copied().unwrap_or(0) > 0
                    })
                    .collect();
                order_g.sort_by_key(|&g| std::cmp::Reverse(gadgets[g].size()));
                for g in order_g {
                    let sz = gadgets[g].size();
                    if sz == small && quota[&small] == 0 {
                        continue;
                    }
                    if quota.get(&sz).copied().unwrap_or(0) == 0 {
                        continue;
                    }
                    if let Some(cs) = gadget_cosets(alpha, &gadgets[g], &eff_refs, &y, below, &seen)
                    {
                        place(&mut tree, &mut seen, j, s, g, &gadgets[g], cs);
                        *quota.get_mut(&sz).unwrap() -= 1;
                        break;
                    }
                }
            }
            tree.done[j] = types[tree.path[j] as usize].points.len() as u32;
            head += 1;
        }
        if seen.len() >= index {
            break;
        }
        let larger_left: usize = quota
            .iter()
            .filter(|(s, _)| **s != small)
            .map(|(_, c)| *c)
            .sum();
        // The last cosets by an exact cover with the smallest gadgets.
        if larger_left == 0 {
            endgame = true;
            ctl.progress(&format!(
                "joins: {} of {index} cosets greedily; exact cover of the rest",
                seen.len()
            ));
            let reach = match cover(
                alpha, &types, gadgets, small, &eff_refs, below, &tree, &seen, index, opts, ctl,
            )? {
                Ok(taken) => {
                    stats.covered = taken.len() as u64;
                    for (j, s, g, cs) in taken {
                        place(&mut tree, &mut seen, j, s, g, &gadgets[g], cs);
                        *quota.get_mut(&small).unwrap() -= 1;
                    }
                    break;
                }
                Err(all_reached) => all_reached,
            };
            // No cover: give back the most recent greedy gadgets of the smallest size
            // (more cosets left, and more candidates for each) and try again; past the
            // bounds, more splice indices.
            let last_small = tree
                .placed
                .iter()
                .rposition(|p| gadgets[p.gadget as usize].size() != small)
                .map_or(0, |i| i + 1);
            let can = tree.placed.len() - last_small;
            give_back = (give_back * 2).max(8);
            let left = index - seen.len();
            if !reach {
                ctl.progress("joins: some cosets left are reached by no candidate");
            }
            if give_back <= can
                && give_back <= opts.give_back
                && left + small * give_back <= opts.cover_max.max(index / 8)
            {
                let keep = tree.placed.len() - give_back;
                let cut = tree.placed[keep].first as usize;
                // Later gadgets are placed on later or the same hosts: cut whole gadgets,
                // and only those whose cosets host nothing that stays.
                if tree.placed[..keep].iter().all(|p| (p.host as usize) < cut) {
                    stats.given_back += give_back as u64;
                    undo(&mut tree, &mut seen, keep, n);
                    *quota.get_mut(&small).unwrap() += give_back;
                    // Hosts keep `done`: the cover considers every index anyway.
                    head = tree.len();
                    continue;
                }
            }
            give_back = 0;
        }
        // More splice indices everywhere; the greedy pass sees the new ones.
        let now = types[0].points.len();
        if now * 2 > opts.max_points {
            return Err(ChainError::NotReached {
                reached: seen.len() as u64,
                cosets: index as u64,
            });
        }
        for t in types.iter_mut() {
            let target = t.points.len() * 2;
            add_points(&mut m, t, &hosts, target);
        }
        ctl.progress(&format!(
            "joins: {} of {index} cosets; {} splice indices per path",
            seen.len(),
            types[0].points.len()
        ));
        head = if endgame { tree.len() } else { 0 };
    }
    assert_eq!(tree.len(), index, "every coset once, by the exact keys");
    stats.cosets = tree.len() as u64;
    let mut by: HashMap<usize, u64> = HashMap::new();
    for p in &tree.placed {
        *by.entry(gadgets[p.gadget as usize].size()).or_default() += 1;
    }
    stats.gadgets = by.into_iter().collect();
    stats.gadgets.sort_unstable();
    stats.points = types[0].points.len();
    let word = build(&mut m, &types, &tree, gadgets, close, alpha, ctl)?;
    stats.seconds = t0.elapsed().as_secs_f64();
    Ok((word, stats))
}

/// How many gadgets of each size (`sizes` ascending, distinct) add up to `rest` cosets:
/// the smallest size fills what is left after fewer than `smallest` gadgets of one larger
/// size; `None` when no such sum exists.
pub fn quota(rest: usize, sizes: &[usize]) -> Option<HashMap<usize, usize>> {
    let small = *sizes.first()?;
    let mut quota = HashMap::new();
    let mut rest = rest;
    if !rest.is_multiple_of(small) {
        let (s, c) = sizes[1..].iter().find_map(|&s| {
            (1..small)
                .find(|&c| rest >= c * s && (rest - c * s).is_multiple_of(small))
                .map(|c| (s, c))
        })?;
        quota.insert(s, c);
        rest -= c * s;
    }
    quota.insert(small, rest / small);
    Some(quota)
}

fn place(
    tree: &mut Tree,
    seen: &mut Seen,
    host: usize,
    point: usize,
    g: usize,
    gadget: &Gadget,
    cs: Vec<(Perm, Vec<u16>)>,
) {
    let first = tree.len() as u32;
    for ((x, key), &e) in cs.into_iter().zip(&gadget.effects) {
        seen.insert(&key, tree.len() as u32);
        tree.push(x, key, e as u32);
    }
    tree.used[host].push(point as u32);
    tree.placed.push(Placed {
        host: host as u32,
        point: point as u32,
        gadget: g as u32,
        first,
    });
}

/// Drops the gadgets placed after the first `keep` (and their cosets).
fn undo(tree: &mut Tree, seen: &mut Seen, keep: usize, n: usize) {
    let cut = tree.placed[keep].first as usize;
    for p in &tree.placed[keep..] {
        let u = &mut tree.used[p.host as usize];
        if let Some(i) = u.iter().position(|&s| s == p.point) {
            u.swap_remove(i);
        }
    }
    tree.placed.truncate(keep);
    tree.anchors.truncate(cut);
    tree.keys.truncate(cut);
    tree.path.truncate(cut);
    tree.done.truncate(cut);
    tree.used.truncate(cut);
    *seen = Seen::new(n);
    for (i, k) in tree.keys.iter().enumerate() {
        seen.insert(k, i as u32);
    }
}

type Candidate = (usize, usize, usize, Vec<(Perm, Vec<u16>)>);

/// An exact cover of the unseen cosets by gadgets of size `small` placed on free splice
/// indices of the tree's cosets; else whether the candidates reach every unseen coset.
#[allow(clippy::too_many_arguments)]
fn cover(
    alpha: &Alphabet,
    types: &[PathType],
    gadgets: &[Gadget],
    small: usize,
    effects: &[&Perm],
    below: &dyn CosetKey,
    tree: &Tree,
    seen: &Seen,
    index: usize,
    opts: &JoinOptions,
    ctl: &Control,
) -> Result<Result<Vec<Candidate>, bool>, ChainError> {
    let mut cands: Vec<Candidate> = Vec::new();
    for j in 0..tree.len() {
        ctl.check()?;
        let ty = &types[tree.path[j] as usize];
        for (s, (_, v, pre)) in ty.points.iter().enumerate() {
            if tree.used[j].contains(&(s as u32)) {
                continue;
            }
            let y = tree.anchors[j].then(pre);
            for (g, gd) in gadgets.iter().enumerate() {
                if gd.host != *v || gd.size() != small {
                    continue;
                }
                if let Some(cs) = gadget_cosets(alpha, gd, effects, &y, below, seen) {
                    cands.push((j, s, g, cs));
                }
            }
        }
    }
    // The unseen cosets the candidates reach.
    let mut elems: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut rows: Vec<Vec<usize>> = Vec::with_capacity(cands.len());
    for c in &cands {
        let row: Vec<usize> =
            c.3.iter()
                .map(|(_, k)| {
                    let l = elems.len();
                    *elems.entry(k.clone()).or_insert(l)
                })
                .collect();
        rows.push(row);
    }
    let need = index - seen.len();
    ctl.progress(&format!(
        "joins: {} candidate gadgets reach {} of the {need} cosets left",
        cands.len(),
        elems.len()
    ));
    if elems.len() < need {
        return Ok(Err(false));
    }
    // A splice index takes one gadget: its slot.
    let mut slots: HashMap<(usize, usize), usize> = HashMap::new();
    let slot: Vec<usize> = cands
        .iter()
        .map(|c| {
            let l = slots.len();
            *slots.entry((c.0, c.1)).or_insert(l)
        })
        .collect();
    let problem = super::exact_cover::Problem {
        rows: &rows,
        slot: &slot,
        elems: elems.len(),
    };
    // Larger covers get more steps: a cover of the 4x4x4's last thousand cosets was not
    // found in the steps that cover the 3x3x3's last few hundred.
    let steps = opts.cover_steps.max(2_000 * need as u64);
    let Some(chosen) = super::exact_cover::solve(&problem, steps, ctl)? else {
        return Ok(Err(true));
    };
    let mut out = Vec::new();
    let mut cands: Vec<Option<Candidate>> = cands.into_iter().map(Some).collect();
    for r in chosen {
        out.push(cands[r].take().expect("each row once"));
    }
    Ok(Ok(out))
}

/// The words of the cosets, last placed first: a coset's word is its path with its
/// gadgets (sorted by index) in place of their host letters.
fn build(
    m: &mut Measure,
    types: &[PathType],
    tree: &Tree,
    gadgets: &[Gadget],
    close: u32,
    alpha: &Alphabet,
    ctl: &Control,
) -> Result<Word, ChainError> {
    let count = tree.len();
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, p) in tree.placed.iter().enumerate() {
        kids[p.host as usize].push(i);
    }
    let mut segs: HashMap<(u32, u128, u128), Word> = HashMap::new();
    let mut words: Vec<Option<Word>> = vec![None; count];
    for id in (0..count).rev() {
        if id % 1024 == 0 {
            ctl.check()?;
        }
        let pt = tree.path[id];
        let ty = &types[pt as usize];
        if kids[id].is_empty() {
            words[id] = Some(ty.word.clone());
            continue;
        }
        let mut ch: Vec<(u128, usize)> = kids[id]
            .iter()
            .map(|&i| (ty.points[tree.placed[i].point as usize].0, i))
            .collect();
        ch.sort_unstable();
        let mut items = Vec::new();
        let mut prev = 0u128;
        for (at, i) in ch {
            let p = &tree.placed[i];
            let g = &gadgets[p.gadget as usize];
            let seg = m.slice_once(&mut segs, pt, &ty.word, prev, at);
            items.push(seg);
            items.push(Word::Letter(g.connectors[0]));
            for (c, &conn) in g.connectors[1..].iter().enumerate() {
                let child = p.first as usize + c;
                items.push(words[child].take().expect("a child is built first"));
                items.push(Word::Letter(conn));
            }
            prev = at + 1;
        }
        let seg = m.slice_once(&mut segs, pt, &ty.word, prev, ty.len);
        items.push(seg);
        words[id] = Some(cat(items));
    }
    Ok(cat(vec![
        words[0].take().expect("the root"),
        Word::Letter(alpha.inverse[close as usize]),
    ]))
}
