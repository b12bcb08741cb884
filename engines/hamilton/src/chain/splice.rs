//! One level of the chain where the new letter `d` commutes with a letter `v` of the
//! group `H` below (Jaap's `R MLMLM R` for `L`; Norskog's levels `<U,R,D>` and
//! `<U,R,D,L>`).
//!
//! `P` is a Hamilton path of `H` with the effect of `v`. Walked from an anchor `x` it
//! visits the coset `x·H` and ends at `x·v`. At a letter `v` of `P` (index `i`, prefix
//! product `p_i`) the detour `d W d'`, with `W` any walk of effect `v`, has the effect
//! `d v d' = v`; it enters the coset `x·p_i·d·H` (and `d' W d` enters `x·p_i·d'·H`). So
//! the cosets form a tree: breadth-first from `H` itself (anchor the identity), a coset
//! with anchor `x` offers at each splice index `i` (a fixed set for all cosets) the
//! children with anchors `x·p_i·d` and `x·p_i·d'`, one taken when its coset is new (exact
//! keys). Indices are added while cosets remain unreached. The word of a coset is `P` with its children's detours in
//! place of their `v` letters; the stretches of `P` between splice indices are shared
//! words, so a coset costs `4·children + 1` items and a leaf costs nothing (it is `P`).
//!
//! Other letters commuting with `v` open detours as `d` does (`SpliceOptions::also`: the
//! half turn `D2` beside `D`, so a level of the half-turn metric uses half turns): a
//! splice index then offers one coset for each.
//!
//! Norskog's start: with a path `P_e` of effect `e` where `e·d` has order `k`, the walk
//! `(P_e d)^k` closes after `k` cosets; these form the roots instead of `H` alone.

use super::keys::{Made, Seen};
use super::measure::{cat, Measure};
use super::{ChainError, CosetKey};
use puz_core::{Alphabet, Control, Perm, Word};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;

/// Nodes whose candidate keys are computed together (in parallel).
const BATCH: usize = 2048;

/// How to build a commuting level.
#[derive(Clone, Debug)]
pub struct SpliceOptions {
    /// The letter of `H` to replace (it must commute with the new letter); by default the
    /// first letter of the cycle that does.
    pub splice_letter: Option<u32>,
    /// Norskog's ring `(P_e d)^k` from the effect letter `e`; without it the root is `H`.
    pub ring: Option<u32>,
    /// A Hamilton path of `H` (from the identity) with any effect `e`, walked at the root
    /// in place of the cycle: the result is a Hamilton path of `<H, d>` with the same
    /// effect (the detours do not change it). Not with `ring`.
    pub path: Option<Word>,
    /// Splice indices to start with (doubled while cosets remain unreached).
    pub points: usize,
    /// Give up when this many splice indices still leave cosets unreached.
    pub max_points: usize,
    /// Further letters that commute with the splice letter and open detours `e W e'` as
    /// `d` does (the half turn `D2` beside `D`): each splice index offers a coset for each.
    pub also: Vec<u32>,
}

impl Default for SpliceOptions {
    fn default() -> Self {
        SpliceOptions {
            splice_letter: None,
            ring: None,
            path: None,
            points: 16,
            max_points: 4096,
            also: Vec::new(),
        }
    }
}

/// What a level took.
#[derive(Clone, Debug, Default)]
pub struct SpliceStats {
    pub cosets: u64,
    /// Coset keys computed.
    pub keys: u64,
    /// Splice indices per path at the end, and how many times they were doubled.
    pub points: usize,
    pub rounds: u32,
    /// Depth of the coset tree (roots at depth 0).
    pub tree_depth: u32,
    pub ring: u64,
    pub seconds_tree: f64,
    pub seconds_words: f64,
}

/// A Hamilton path of `H` with the letters where detours may start.
struct Path {
    word: Word,
    len: u128,
    /// Splice indices in `word` (letter `v`), in the order they were added.
    points: Vec<u128>,
    /// Slots: `p_i · e` for each splice index `i` and each letter `e` opening a detour
    /// (`d`, then `d'` when `d` is not its own inverse: the detour `d' W d` has the effect
    /// of `v` too; then [`SpliceOptions::also`]), as images.
    steps: Vec<Vec<u16>>,
    /// Places tried for splice indices so far.
    tried: u64,
}

struct Tree {
    degree: usize,
    parent: Vec<u32>,
    slot: Vec<u32>,
    path: Vec<u8>,
    depth: Vec<u32>,
    /// Splice indices of its path each node has tried.
    done: Vec<u32>,
    anchors: Vec<u16>,
}

impl Tree {
    fn anchor(&self, id: usize) -> &[u16] {
        &self.anchors[id * self.degree..(id + 1) * self.degree]
    }

    fn push(&mut self, parent: u32, slot: u32, path: u8, depth: u32, anchor: &[u16]) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(parent);
        self.slot.push(slot);
        self.path.push(path);
        self.depth.push(depth);
        self.done.push(0);
        self.anchors.extend_from_slice(anchor);
        id
    }

    fn len(&self) -> usize {
        self.parent.len()
    }
}

fn commute(a: &Perm, b: &Perm) -> bool {
    a.then(b) == b.then(a)
}

/// Adds splice indices to a path until it has `target` (fewer when `v` is rare): the
/// first `v` at or after places spread by the golden ratio, so new places fall between
/// the old ones.
fn add_points(m: &mut Measure, p: &mut Path, v: u32, opens: &[Perm], target: usize) {
    let limit = p.tried + 8 * target as u64 + 8;
    while p.points.len() < target && p.tried < limit {
        let frac = (p.tried as f64 * 0.618_033_988_749_894_9).fract();
        p.tried += 1;
        let at = ((p.len as f64) * frac) as u128;
        let Some(i) = m.find(&p.word, v, at.min(p.len - 1)) else {
            continue;
        };
        if p.points.contains(&i) {
            continue;
        }
        let pre = m.prefix(&p.word, i);
        p.points.push(i);
        for e in opens {
            p.steps.push(pre.then(e).images().to_vec());
        }
    }
}

/// A Hamilton cycle of `<H, d>` (of order `order`) from a Hamilton cycle of `H`, when
/// `d` commutes with a letter of `H` (with [`SpliceOptions::path`], a Hamilton path of
/// the same effect as that path).
#[allow(clippy::too_many_arguments)]
pub fn commuting_level(
    alpha: &Alphabet,
    cycle: &Word,
    below: &dyn CosetKey,
    order: u128,
    d: u32,
    opts: &SpliceOptions,
    ctl: &Control,
) -> Result<(Word, SpliceStats), ChainError> {
    let t0 = Instant::now();
    let n = alpha.perms[d as usize].degree();
    let dp = alpha.perms[d as usize].clone();
    let di = alpha.inverse[d as usize];
    let h_order = below.order();
    if !order.is_multiple_of(h_order) {
        return Err(ChainError::Invalid(format!(
            "{order} is not a multiple of the order {h_order} below"
        )));
    }
    let index = order / h_order;
    if index > u32::MAX as u128 {
        return Err(ChainError::Invalid(format!(
            "{index} cosets is more than one level handles"
        )));
    }
    let index = index as u64;
    let mut m = Measure::new(alpha, n);
    let clen = m.len(cycle);
    if clen != h_order || !m.product(cycle).is_identity() {
        return Err(ChainError::Invalid(format!(
            "the cycle below has {clen} letters and must close, the group below {h_order} elements"
        )));
    }
    let v = match opts.splice_letter {
        Some(v) => v,
        None => (0..alpha.len() as u32)
            .find(|&l| {
                !alpha.perms[l as usize].is_identity()
                    && l != d
                    && l != di
                    && commute(&alpha.perms[l as usize], &dp)
                    && m.find(cycle, l, 0).is_some()
            })
            .ok_or_else(|| {
                ChainError::Invalid(format!(
                    "no letter of the cycle commutes with {}",
                    alpha.names[d as usize]
                ))
            })?,
    };
    if !commute(&alpha.perms[v as usize], &dp) {
        return Err(ChainError::Invalid(format!(
            "{} does not commute with {}",
            alpha.names[v as usize], alpha.names[d as usize]
        )));
    }
    // The letters that open a detour, with the letter that closes it.
    let mut entries = vec![(d, di)];
    if di != d {
        entries.push((di, d));
    }
    for &e in &opts.also {
        let ei = alpha.inverse[e as usize];
        if entries.iter().any(|&(x, _)| x == e) || alpha.perms[e as usize].is_identity() {
            continue;
        }
        if !commute(&alpha.perms[v as usize], &alpha.perms[e as usize]) {
            return Err(ChainError::Invalid(format!(
                "{} does not commute with {}",
                alpha.names[v as usize], alpha.names[e as usize]
            )));
        }
        entries.push((e, ei));
        if ei != e {
            entries.push((ei, e));
        }
    }
    let opens: Vec<Perm> = entries
        .iter()
        .map(|&(e, _)| alpha.perms[e as usize].clone())
        .collect();
    if opts.ring.is_some() && opts.path.is_some() {
        return Err(ChainError::Invalid(
            "a ring or a path at the root, not both".into(),
        ));
    }
    let mut paths = Vec::new();
    for effect in std::iter::once(Some(v))
        .chain(opts.ring.map(Some))
        .chain(opts.path.as_ref().map(|_| None))
    {
        let word = match effect {
            Some(effect) => {
                let w = m.path_with_effect(cycle, effect).ok_or_else(|| {
                    ChainError::Invalid(format!(
                        "neither {} nor its inverse occurs in the cycle",
                        alpha.names[effect as usize]
                    ))
                })?;
                debug_assert_eq!(m.product(&w), alpha.perms[effect as usize]);
                w
            }
            None => opts.path.clone().expect("a root path"),
        };
        let len = m.len(&word);
        if effect.is_none() && len + 1 != h_order {
            return Err(ChainError::Invalid(format!(
                "the root path has {len} letters, the group below {h_order} elements"
            )));
        }
        let mut p = Path {
            word,
            len,
            points: Vec::new(),
            steps: Vec::new(),
            tried: 0,
        };
        add_points(&mut m, &mut p, v, &opens, opts.points.max(1));
        paths.push(p);
    }
    ctl.progress(&format!(
        "chain: {index} cosets, splicing {} (x) {}",
        alpha.names[v as usize], alpha.names[d as usize]
    ));

    let mut stats = SpliceStats::default();
    let mut tree = Tree {
        degree: n,
        parent: Vec::new(),
        slot: Vec::new(),
        path: Vec::new(),
        depth: Vec::new(),
        done: Vec::new(),
        anchors: Vec::new(),
    };
    let mut seen = Seen::new(n);
    let mut key = Vec::new();
    // Slots per splice index: one for each letter opening a detour.
    let kinds = entries.len() as u32;
    // Roots: H itself (walked by P_v or the given path), or the ring (e d)^j H.
    match opts.ring {
        None => {
            below.coset_key(Perm::identity(n).images(), &mut key);
            seen.insert(&key, 0);
            let root_path = if opts.path.is_some() { 1 } else { 0 };
            tree.push(u32::MAX, u32::MAX, root_path, 0, Perm::identity(n).images());
        }
        Some(e) => {
            let ed = alpha.perms[e as usize].then(&dp);
            let k: u64 = ed.order().try_into().unwrap_or(u64::MAX);
            if k > index {
                return Err(ChainError::Invalid(format!(
                    "the ring of {k} cosets is longer than the {index} cosets"
                )));
            }
            let mut x = Perm::identity(n);
            for j in 0..k {
                below.coset_key(x.images(), &mut key);
                if seen.insert(&key, j as u32).is_some() {
                    return Err(ChainError::Invalid(format!(
                        "the ring from {} meets a coset twice",
                        alpha.names[e as usize]
                    )));
                }
                tree.push(u32::MAX, u32::MAX, 1, 0, x.images());
                x = x.then(&ed);
            }
            stats.ring = k;
        }
    }
    let mut a = vec![0u16; n];
    let mut head = 0usize;
    loop {
        // Breadth-first: expand each node with the splice indices it has not tried, the
        // keys of a batch of nodes in parallel, inserted in order (the same tree on any
        // number of threads).
        while head < tree.len() && (seen.len() as u64) < index {
            ctl.check()?;
            let end = (head + BATCH).min(tree.len());
            let jobs: Vec<(u32, u32)> = (head..end)
                .flat_map(|j| {
                    let have = paths[tree.path[j] as usize].steps.len() as u32;
                    (tree.done[j]..have).map(move |s| (j as u32, s))
                })
                .collect();
            let tree_ref = &tree;
            let paths_ref = &paths;
            let seen_ref = &seen;
            let made: Vec<Made> = jobs
                .par_iter()
                .map_init(
                    || (vec![0u16; n], Vec::new()),
                    |(a, key), &(j, s)| {
                        let path = &paths_ref[tree_ref.path[j as usize] as usize];
                        let step = &path.steps[s as usize];
                        for (o, &y) in a.iter_mut().zip(tree_ref.anchor(j as usize)) {
                            *o = step[y as usize];
                        }
                        below.coset_key(a, key);
                        seen_ref.make(key)
                    },
                )
                .collect();
            stats.keys += jobs.len() as u64;
            // A splice index takes one detour: its other slots are skipped once one made
            // a child.
            let mut taken: Option<(u32, u32)> = None;
            for (&(j, s), k) in jobs.iter().zip(made) {
                if taken == Some((j, s / kinds)) {
                    continue;
                }
                let id = tree.len() as u32;
                if seen.insert_made(k, id).is_none() {
                    taken = Some((j, s / kinds));
                    let path = &paths[tree.path[j as usize] as usize];
                    let step = &path.steps[s as usize];
                    for (o, &y) in a.iter_mut().zip(tree.anchor(j as usize)) {
                        *o = step[y as usize];
                    }
                    let dep = tree.depth[j as usize] + 1;
                    tree.push(j, s, 0, dep, &a);
                }
            }
            for j in head..end {
                tree.done[j] = paths[tree.path[j] as usize].steps.len() as u32;
            }
            head = end;
        }
        if seen.len() as u64 >= index {
            break;
        }
        // Every node tried every index: add indices and try the new ones everywhere.
        let now = paths[0].points.len();
        debug_assert_eq!(paths[0].steps.len(), now * kinds as usize);
        if now * 2 > opts.max_points {
            return Err(ChainError::NotReached {
                reached: seen.len() as u64,
                cosets: index,
            });
        }
        for p in paths.iter_mut() {
            let target = p.points.len() * 2;
            add_points(&mut m, p, v, &opens, target);
        }
        if paths[0].points.len() == now {
            return Err(ChainError::NotReached {
                reached: seen.len() as u64,
                cosets: index,
            });
        }
        stats.rounds += 1;
        ctl.progress(&format!(
            "chain: {} of {index} cosets reached; {} splice indices",
            seen.len(),
            paths[0].points.len()
        ));
        head = 0;
    }
    drop(seen);
    stats.cosets = tree.len() as u64;
    assert_eq!(stats.cosets, index, "every coset once, by the exact keys");
    stats.points = paths[0].points.len();
    stats.tree_depth = tree.depth.iter().copied().max().unwrap_or(0);
    stats.seconds_tree = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let close = opts.path.is_none();
    let word = build_words(
        &mut m, &paths, &tree, &entries, d, v, alpha, stats.ring, close, ctl,
    )?;
    stats.seconds_words = t1.elapsed().as_secs_f64();
    Ok((word, stats))
}

/// The words of the cosets, leaves first: a coset's word is its path with the detours of
/// its children (sorted by index) in place of their letters.
#[allow(clippy::too_many_arguments)]
fn build_words(
    m: &mut Measure,
    paths: &[Path],
    tree: &Tree,
    entries: &[(u32, u32)],
    d: u32,
    v: u32,
    alpha: &Alphabet,
    ring: u64,
    close: bool,
    ctl: &Control,
) -> Result<Word, ChainError> {
    let count = tree.len();
    let kinds = entries.len() as u32;
    // Children in compressed rows.
    let mut start = vec![0u32; count + 1];
    for &p in &tree.parent {
        if p != u32::MAX {
            start[p as usize + 1] += 1;
        }
    }
    for j in 0..count {
        start[j + 1] += start[j];
    }
    let mut fill = start.clone();
    let mut kids = vec![0u32; count];
    for (c, &p) in tree.parent.iter().enumerate() {
        if p != u32::MAX {
            kids[fill[p as usize] as usize] = c as u32;
            fill[p as usize] += 1;
        }
    }
    let mut segs: HashMap<(u8, u128, u128), Word> = HashMap::new();
    let mut words: Vec<Option<Word>> = vec![None; count];
    for id in (0..count).rev() {
        if id % 4096 == 0 {
            ctl.check()?;
        }
        let pi = tree.path[id];
        let path = &paths[pi as usize];
        let row = &kids[start[id] as usize..start[id + 1] as usize];
        if row.is_empty() {
            words[id] = Some(path.word.clone());
            continue;
        }
        let mut ch: Vec<(u128, u32, u32)> = row
            .iter()
            .map(|&c| {
                let slot = tree.slot[c as usize];
                (path.points[(slot / kinds) as usize], c, slot % kinds)
            })
            .collect();
        ch.sort_unstable();
        let mut items = Vec::with_capacity(4 * ch.len() + 1);
        let mut prev = 0u128;
        for (i, c, back) in ch {
            debug_assert!(i >= prev, "one detour per splice index");
            let (into, out) = entries[back as usize];
            let seg = m.slice_once(&mut segs, pi, &path.word, prev, i);
            items.push(seg);
            items.push(Word::Letter(into));
            items.push(words[c as usize].take().expect("child built first"));
            items.push(Word::Letter(out));
            prev = i + 1;
        }
        let seg = m.slice_once(&mut segs, pi, &path.word, prev, path.len);
        items.push(seg);
        words[id] = Some(cat(items));
    }
    let word = if !close {
        words[0].take().expect("root")
    } else if ring == 0 {
        cat(vec![
            words[0].take().expect("root"),
            Word::Letter(alpha.inverse[v as usize]),
        ])
    } else {
        let mut items = Vec::with_capacity(2 * ring as usize);
        for w in words.iter_mut().take(ring as usize) {
            items.push(w.take().expect("ring root"));
            items.push(Word::Letter(d));
        }
        cat(items)
    };
    Ok(word)
}
