//! The level of `hamilton(G, chain: [...])` whose new move commutes with no move below
//! (the 3x3x3's `F` over `<U, R, D, L>`): Hamilton paths of the group below with the
//! effects that gadgets need (letters from its cycle; conjugates `a'ba` and `x'yxy'x` by
//! rotations of the bottom cycle, carried up the commuting levels), the gadgets found by
//! puz-hamilton's search, and the cosets joined (puz-hamilton's `chain::joins`).

use super::spec::{interrupted, Ctx};
use crate::diag::{Diag, EvalResult};
use crate::span::Span;
use puz_core::{Alphabet, Perm, Ranker, Word};
use puz_hamilton::chain::effect::CycleIndex;
use puz_hamilton::chain::joins::{find_gadgets, joining_level, quota, Gadget, JoinOptions};
use puz_hamilton::chain::measure::inverse;
use puz_hamilton::chain::posa::{indexable, rotated_path_on};
use puz_hamilton::chain::{commuting_level, ChainError, CosetKey, Measure, SpliceOptions};
use std::collections::HashMap;

/// What the joining level needs from the chain below it.
pub struct Below<'a> {
    /// The bottom group's alphabet (its generators and their inverses), its Hamilton
    /// cycle in those letters, and its ranker (for rotations).
    pub bottom_alpha: &'a Alphabet,
    pub bottom_cycle: &'a Word,
    pub bottom: &'a dyn Ranker,
    /// Each bottom letter as a word of the puzzle's alphabet.
    pub bottom_words: &'a [Word],
    /// The cycle of every level (puzzle letters), bottom first.
    pub cycles: &'a [Word],
    /// Keys of each level's cosets in the next, and the orders.
    pub keys: &'a [&'a dyn CosetKey],
    pub orders: &'a [u128],
    /// The move each commuting level added.
    pub adds: &'a [u32],
}

fn chain_err(span: Span, what: &str) -> impl Fn(ChainError) -> Diag + '_ {
    move |e| match e {
        ChainError::Interrupt(i) => interrupted(span)(i),
        e => Diag::new(span, format!("{what}: {e}")),
    }
}

/// A Hamilton cycle of `<H, d>` (of order `order`), `H` the top of `below`.
pub fn join(
    ctx: &mut Ctx,
    alpha: &Alphabet,
    below: &Below,
    d: u32,
    order: u128,
    span: Span,
) -> EvalResult<Word> {
    let n = alpha.perms[0].degree();
    let sub = below.bottom_alpha;
    let top = below.cycles.last().expect("a level below");
    let mut m = Measure::new(alpha, n);
    let to_full =
        |w: &Word| super::walks::map_letters(w, &|l| below.bottom_words[l as usize].clone());
    let commute = |a: &Perm, b: &Perm| a.then(b) == b.then(a);
    // Two bottom letters that do not commute: `x` hosts the gadgets, `y` shapes them.
    let pairs: Vec<(u32, u32)> = (0..sub.len() as u32)
        .flat_map(|x| (0..sub.len() as u32).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            x != y
                && sub.inverse[x as usize] != y
                && !commute(&sub.perms[x as usize], &sub.perms[y as usize])
        })
        .collect();
    let index = order / below.orders.last().copied().unwrap_or(1).max(1);
    let top_key = *below.keys.last().expect("a level below");
    // Gadgets for every pair, before any path is made; the pairs with most gadgets over
    // Norskog's shapes first.
    struct Plan {
        hx: u32,
        letters: [u32; 4],
        /// Bottom words made by rotations: the conjugates `a'ba`, then `x'yxy'x`.
        shapes: Vec<Vec<u32>>,
        /// The shapes in the order they are searched.
        search: Vec<usize>,
        /// The letters' effects, then each shape's and its inverse's.
        effects: Vec<Perm>,
        gadgets: Vec<Gadget>,
        /// Gadgets over the letters and Norskog's shapes (the plans with most go first).
        norskog: usize,
    }
    let mut plans: Vec<Plan> = Vec::new();
    for (x, y) in pairs {
        let (xi, yi) = (sub.inverse[x as usize], sub.inverse[y as usize]);
        let host = |l: u32| alpha.names.iter().position(|s| *s == sub.names[l as usize]);
        let (Some(hx), Some(hxi), Some(hy), Some(hyi)) = (host(x), host(xi), host(y), host(yi))
        else {
            continue;
        };
        let (hx, hxi, hy, hyi) = (hx as u32, hxi as u32, hy as u32, hyi as u32);
        let letters = [hx, hxi, hy, hyi];
        // The conjugates `a'b'a` (`b` the other letter), with their inverses all `a'ba` of
        // the two letters; the first is the `x'y'x` of Norskog's gadget.
        let mut shapes: Vec<Vec<u32>> = [x, xi, y, yi]
            .iter()
            .map(|&a| {
                let b = if a == x || a == xi { yi } else { xi };
                vec![sub.inverse[a as usize], b, a]
            })
            .collect();
        shapes.push(vec![xi, y, x, yi, x]);
        let long = shapes.len() - 1;
        let mut effects: Vec<Perm> = letters
            .iter()
            .map(|&l| alpha.perms[l as usize].clone())
            .collect();
        for s in &shapes {
            let e = s
                .iter()
                .fold(Perm::identity(n), |p, &l| p.then(&sub.perms[l as usize]));
            effects.push(e.clone());
            effects.push(e.inverse());
        }
        let hosts = [hx, hxi];
        let mut gadgets: Vec<Gadget> = find_gadgets(alpha, &hosts, d, &effects, 3);
        // When threes cannot add up to the index, fives and sevens can: conjugates alone
        // give both on the 3x3x3 and the 4x4x4 (2,047 = 408·5 + 7, 8,191 = 1,634·5 +
        // 3·7), where threes need `x'yxy'x`, which five rotations may not find.
        let sevens = index > 1 && quota(index as usize - 1, &[5]).is_none();
        if index > 1 && !(index - 1).is_multiple_of(3) {
            gadgets.extend(find_gadgets(alpha, &hosts, d, &effects, 5));
            if sevens {
                gadgets.extend(find_gadgets(alpha, &hosts, d, &effects, 7));
            }
        }
        // A gadget whose cosets coincide can never be placed.
        gadgets.retain(|g| g.walks_distinct_cosets(alpha, &effects, top_key));
        if gadgets.is_empty() {
            continue;
        }
        // Norskog's shapes first (`x'y'x`, then `x'yxy'x` for the gadgets of three); then,
        // should `x'yxy'x` not be found, the fewest more conjugates whose gadgets (of five
        // and seven, with those of `x'y'x` and the letters) add up to the index. That is a
        // fallback: the last cosets are harder to cover exactly with gadgets of five than
        // of three (they join the 2x2x2's 126 cosets, but the exact cover of the 3x3x3's
        // last cosets was never found with them).
        let uses = |g: &Gadget, allowed: &[usize]| {
            g.effects
                .iter()
                .all(|&e| e < 4 || allowed.contains(&((e - 4) / 2)))
        };
        let fits = |allowed: &[usize]| {
            let mut sizes: Vec<usize> = gadgets
                .iter()
                .filter(|g| uses(g, allowed))
                .map(|g| g.size())
                .collect();
            sizes.sort_unstable();
            sizes.dedup();
            index > 1 && quota(index as usize - 1, &sizes).is_some()
        };
        let more = std::iter::once(vec![])
            .chain((1..long).map(|i| vec![i]))
            .chain((1..long).flat_map(|i| (i + 1..long).map(move |j| vec![i, j])))
            .find(|more| fits(&[&[0][..], more].concat()))
            .unwrap_or_default();
        // Kept: the gadgets of Norskog's shapes (of 3 and 5), and at most
        // `FALLBACK_GADGETS` of each size over the fallback's conjugates (sevens only when
        // fives alone cannot add up): every gadget is tried at every splice index.
        let fallback = [&[0][..], &more].concat();
        let mut count: HashMap<usize, usize> = HashMap::new();
        gadgets.retain(|g| {
            if uses(g, &[0, long]) && g.size() < 7 {
                return true;
            }
            if !uses(g, &fallback) || g.size() < 5 || (g.size() == 7 && !sevens) {
                return false;
            }
            let c = count.entry(g.size()).or_default();
            *c += 1;
            *c <= FALLBACK_GADGETS
        });
        let search: Vec<usize> = [vec![0, long], more].concat();
        let norskog = gadgets.iter().filter(|g| uses(g, &[0, long])).count();
        plans.push(Plan {
            hx,
            letters,
            shapes,
            search,
            effects,
            gadgets,
            norskog,
        });
    }
    plans.sort_by_key(|p| std::cmp::Reverse(p.norskog));
    // The bottom cycle's index (both ways round), built at the first rotation search and
    // shared by all.
    let mut ix: Option<(CycleIndex, CycleIndex)> = None;
    let back = inverse(below.bottom_cycle.clone());
    let plan_count = plans.len();
    for (
        pi,
        Plan {
            hx,
            letters,
            shapes,
            search,
            effects,
            gadgets,
            ..
        },
    ) in plans.into_iter().enumerate()
    {
        let mut sizes: Vec<String> = gadgets.iter().map(|g| g.size().to_string()).collect();
        sizes.dedup();
        ctx.ctl.progress(&format!(
            "joins: {} gadgets replacing {} (of {} cosets)",
            gadgets.len(),
            alpha.names[hx as usize],
            sizes.join(", ")
        ));
        // The paths: letters from the cycle below, shapes by rotations carried up.
        let mut paths: Vec<Option<Word>> = vec![None; effects.len()];
        for (i, &l) in letters.iter().enumerate() {
            paths[i] = m.path_with_effect(top, l);
        }
        // Shapes are searched one at a time, and the cosets joined with the paths at hand
        // before the next shape is looked for: `x'yxy'x` takes five rotations, a search
        // that can run for an hour on a large bottom group (the 4x4x4's `<U, R>`), and the
        // gadgets without it often suffice.
        let mut tried = None;
        for stage in 0..=search.len() {
            if stage > 0 {
                let si = search[stage - 1];
                let needed = gadgets.iter().any(|g| {
                    g.effects
                        .iter()
                        .any(|&e| e == 4 + 2 * si || e == 5 + 2 * si)
                });
                if !needed {
                    continue;
                }
                let s = &shapes[si];
                let text: Vec<&str> = s.iter().map(|&l| sub.names[l as usize].as_str()).collect();
                ctx.ctl.progress(&format!(
                    "joins: a Hamilton path with the effect {}",
                    text.join(" ")
                ));
                let e = &effects[4 + 2 * si];
                // A conjugate `a'ba` takes two rotations. `x'yxy'x` takes five on a cycle
                // that alternates two moves: the letter leaving each vertex then follows from
                // its parity, so four rotations reach it only near the cycle's joins (on the
                // 2x2x2's `<U, R>` never for `U R' U' R U'`; on the 4x4x4's not in millions
                // of cuts), five within thousands of cuts on the 2x2x2 and 3x3x3 (not in
                // 1.6 M on the 4x4x4). A search allowed more than it needs explores deeper at
                // every cut before the one that works.
                let long = si + 1 == shapes.len();
                let depth = if long { 5 } else { 2 };
                let Some(size) = indexable(sub, below.bottom_cycle, below.bottom) else {
                    continue;
                };
                if ix.is_none() {
                    ctx.ctl.progress("joins: indexing the bottom cycle by rank");
                    let fwd = CycleIndex::new(sub, below.bottom_cycle, below.bottom, size, ctx.ctl)
                        .map_err(interrupted(span))?;
                    let bwd = fwd.reversed(sub);
                    ix = Some((fwd, bwd));
                }
                let (ix, ixb) = ix.as_ref().expect("indexed above");
                let ways = [(below.bottom_cycle, ix), (&back, ixb)];
                // `x'yxy'x` gets a budget of cuts while more conjugates or another pair are
                // left to try (another word, which the cycle's parity may allow).
                let budget = if long && (pi + 1 < plan_count || stage < search.len()) {
                    SHAPE_CUTS
                } else {
                    usize::MAX
                };
                let rotate = |depth: usize, both_ends: bool, budget: usize| {
                    rotated_path_on(
                        sub,
                        &ways,
                        below.bottom,
                        e,
                        depth,
                        both_ends,
                        budget,
                        ctx.ctl,
                    )
                    .map_err(interrupted(span))
                };
                let mut found = None;
                if long {
                    // Rotations at both ends reach `x'yxy'x` in three (on the 2x2x2), at
                    // 8^3 ranks a cut against 4^5 for five at the end alone.
                    found = rotate(3, true, SHAPE_CUTS)?;
                }
                if found.is_none() {
                    found = rotate(depth, false, budget)?;
                }
                if found.is_none() && depth == 2 {
                    found = rotate(4, false, budget)?;
                }
                let Some(p) = found else { continue };
                let path = carry_up(ctx, alpha, below, balance_full(&to_full(&p)), span)?;
                paths[5 + 2 * si] = Some(inverse(path.clone()));
                paths[4 + 2 * si] = Some(path);
            }
            let have = paths.iter().filter(|p| p.is_some()).count();
            if tried == Some(have) {
                continue;
            }
            tried = Some(have);
            if let Some(w) = try_join(ctx, alpha, below, &paths, &gadgets, order, span)? {
                return Ok(w);
            }
        }
    }
    let name = &alpha.names[d as usize];
    Err(Diag::new(
        span,
        format!(
            "{name} commutes with no move of the group below, and no gadget joins its cosets: \
             no identity {name} (path) {name}' (path) ... = a move below, over 3, 5 or 7 cosets, \
             holds for the paths this construction makes (conjugates x'yx, x'yxy'x, single moves)"
        ),
    )
    .with_help("each group of the chain adds one move: one that commutes with a move of the group below (as D with U), or one that gadgets join (as F over <U, R, D, L> on the 3x3x3)"))
}

/// A path of the bottom group carried up the commuting levels: a Hamilton path of the
/// top of `below` with the same effect.
fn carry_up(
    ctx: &mut Ctx,
    alpha: &Alphabet,
    below: &Below,
    mut path: Word,
    span: Span,
) -> EvalResult<Word> {
    for k in 1..below.cycles.len() {
        let opts = SpliceOptions {
            path: Some(path.clone()),
            ..Default::default()
        };
        let (w, _) = commuting_level(
            alpha,
            &below.cycles[k - 1],
            below.keys[k - 1],
            below.orders[k],
            below.adds[k - 1],
            &opts,
            ctx.ctl,
        )
        .map_err(chain_err(span, "carrying a path up the chain"))?;
        path = w;
    }
    Ok(path)
}

/// The cosets joined by the gadgets whose paths all exist (`paths[i]` has effect `i`;
/// effect 0 is the letter the gadgets replace); `None` when those gadgets do not reach
/// every coset.
#[allow(clippy::too_many_arguments)]
fn try_join(
    ctx: &mut Ctx,
    alpha: &Alphabet,
    below: &Below,
    paths: &[Option<Word>],
    gadgets: &[Gadget],
    order: u128,
    span: Span,
) -> EvalResult<Option<Word>> {
    let have: Vec<usize> = (0..paths.len()).filter(|&i| paths[i].is_some()).collect();
    let renum = |e: usize| have.iter().position(|&h| h == e);
    let gadgets: Vec<Gadget> = gadgets
        .iter()
        .filter_map(|g| {
            let effects: Option<Vec<usize>> = g.effects.iter().map(|&e| renum(e)).collect();
            effects.map(|effects| Gadget {
                effects,
                ..g.clone()
            })
        })
        .collect();
    let Some(root) = renum(0) else {
        return Ok(None);
    };
    if gadgets.is_empty() {
        return Ok(None);
    }
    let words: Vec<Word> = have.iter().map(|&i| paths[i].clone().unwrap()).collect();
    let (w, stats) = match joining_level(
        alpha,
        &words,
        root,
        &gadgets,
        *below.keys.last().expect("a level below"),
        order,
        &JoinOptions::default(),
        ctx.ctl,
    ) {
        Ok(x) => x,
        // These gadgets do not reach every coset: more paths, or the next pair's, may.
        Err(e @ (ChainError::NotReached { .. } | ChainError::Invalid(_))) => {
            ctx.ctl.progress(&format!("joins: {e}"));
            return Ok(None);
        }
        Err(e) => return Err(chain_err(span, "joining the cosets")(e)),
    };
    ctx.ctl.progress(&format!(
        "joins: {} cosets by {} gadgets ({} placed by the exact cover)",
        stats.cosets,
        stats
            .gadgets
            .iter()
            .map(|(s, c)| format!("{c} of {s}"))
            .collect::<Vec<_>>()
            .join(", "),
        stats.covered
    ));
    Ok(Some(w))
}

/// Gadgets of each size kept for the fallback over more conjugates.
const FALLBACK_GADGETS: usize = 256;

/// Cuts of the bottom cycle (each way round) searched for `x'yxy'x` before the next pair
/// is tried: the 3x3x3 and 2x2x2 find theirs within the first 15,000.
const SHAPE_CUTS: usize = 1 << 20;

fn balance_full(w: &Word) -> Word {
    puz_hamilton::chain::balance(w, puz_hamilton::chain::balance::FANOUT)
}
