//! Which tables to build for a memory budget (see [`choose_patterns`]).
//!
//! A table over several orbits ([`Coords`], after Kociemba's phase-1 coordinates) goes
//! first when it takes at most half the budget, or when it reads every orbit the letters
//! move and fits (then only tables of whole orbits go beside it, see below, and half the
//! budget would be left for nothing): the orientation at every location of each
//! orbit with orientations, and where each piece of a "slice" of one orbit is (Kociemba's
//! sorted slice) or, when that does not fit, the set of the slice's locations. Either is
//! reduced by the puzzle's symmetries that carry it (`symmetric.rs`): on the 3x3x3 the 16
//! rotations and reflections that keep the slice's axis, which bring the second table
//! from 1.1 GB to 70 MB and the first from 26.6 GB to 1.67 GB. The slice
//! is found from the letters alone: for a letter `a`, the pieces that no letter commuting
//! with `a` moves (`a` included). On the 3x3x3 in htm or atm, for `U`: the letters of `U`
//! and `D` commute with it, and the four edges of the middle layer are the pieces none of
//! them move, the UD slice of Kociemba's phase 1. Of the candidates, the one with the most
//! sets (`C(n, k)`) is kept, the first on ties; the slices of other axes come from the
//! table's look-ups on conjugates by the puzzle's symmetries. No such table is built when
//! the tables of pieces for the rest of the budget cover every orbit it reads whole.
//!
//! The candidates, the first that fits chosen, strongest first by their measured means
//! (benches/results.md): the set of the slice's locations with, on every other orbit, the
//! set of a layer's pieces (nxopt's table: on the 3x3x3 the U layer's corners, 9.86 G
//! entries reduced by 16, a mean of 10.69 in htm); where each of the slice's pieces is
//! with the parity of another orbit's permutation (6.67 G entries, 10.52); the same
//! without the parity (3.33 G entries, 10.30); the set of the slice's locations alone.
//! Each is tried in nibbles, then, when the letters all cost 1, in two-bit entries
//! (`pairs.rs`: nearly as strong, since these tables' values crowd three levels): on the
//! 3x3x3 in htm and atm nxopt's table in pairs from 4 GiB (2.5 GB) and in nibbles from
//! 8 GiB (4.93 GB), the one with the parity in pairs at 2 GiB (1.69 GB), the one without
//! in pairs at 1 GiB (846 MB).
//!
//! Beside it, of the tables of pieces for the rest of the budget, those of part of an
//! orbit it reads are left out: on the 3x3x3 the edge tables cut a few percent of the
//! nodes and cost more time in look-ups than they save (benches/results.md), so that
//! part of the budget stays unused. Whole orbits stay (the corners: one look-up a node,
//! and what the table over several orbits does not see, the corners' places).
//!
//! Asked for a second table (`How::second`), a whole orbit's table gives way to a table
//! over several orbits when what the first leaves holds it: every piece of that orbit,
//! where it is and its orientation, with the set of the slice's locations, reduced (the
//! orbit's places the key, `symmetric.rs`), in pairs when the letters allow. On the
//! 3x3x3 the corners with the UD slice: 2,768 classes times 2,187 twists times 495 sets,
//! 726 MiB in pairs, a mean of 8.98 in atm against nxopt's 8.54 (10.06 against 10.67 in
//! htm). It is looked up on the position only (`Shape::position_only`): on its inverse
//! and conjugates it cuts more nodes, for more time than they save. In atm at 4 GiB it
//! saves about a tenth of the time on random positions; in htm it costs more than it
//! saves; its fill goes entry by entry (the slice's 495 sets are too many for a run in
//! vectors, `sym_fill_runs.rs`), several times slower a GiB than nxopt's table's
//! (benches/results.md). So it is not chosen unless asked for.

use super::symmetric::reduce;
use super::{odd_permutation, Coords, Part, Pattern, Shape};
use crate::model::{Action, CellMap, Model};
use puz_core::{Control, Perm};
use std::path::Path;

/// At most this many tables in all (every node looks each one up, twice with the inverse).
pub(super) const MAX_TABLES: usize = 12;

/// Chooses the tables for a memory budget: a table over several orbits when it fits
/// (see the module header; reduced by the symmetries `conj` that carry it), then
/// [`choose_pieces`] for the rest.
pub fn choose_patterns(
    model: &Model,
    actions: &[Action],
    budget: u64,
    conj: &[(Perm, CellMap)],
) -> Vec<Shape> {
    choose_patterns_until(model, actions, budget, conj, How::default())
}

/// How [`choose_patterns_until`] chooses.
#[derive(Clone, Copy, Default)]
pub struct How<'a> {
    /// A reduced table is taken in two-bit entries (`pairs.rs`) when it fits only so (or,
    /// the second table, always): letters that all cost 1.
    pub pairs: bool,
    /// A second table over several orbits, when it fits (see the module header).
    pub second: bool,
    /// Cancels the forming of a reduced table's classes (the table is left whole, so too
    /// large).
    pub ctl: Option<&'a Control>,
    /// The cache folder the classes are read from and saved to.
    pub dir: Option<&'a Path>,
}

/// [`choose_patterns`], as `how` says.
pub fn choose_patterns_until(
    model: &Model,
    actions: &[Action],
    budget: u64,
    conj: &[(Perm, CellMap)],
    how: How,
) -> Vec<Shape> {
    let How {
        pairs,
        second,
        ctl,
        dir,
    } = how;
    if let Some(products) = super::products::of_small_orbits(model, actions, budget) {
        return products;
    }
    let pieces = |budget, further| {
        choose_pieces(model, actions, budget, further)
            .into_iter()
            .map(Shape::Pieces)
    };
    // A reduced table's classes count against the budget too.
    let held = |c: &Coords| c.bytes() + c.sym.as_ref().map_or(0, |r| r.bytes());
    let fits =
        |c: &Coords| held(c) <= budget / 2 || (held(c) <= budget && reads_all(model, actions, c));
    // Where each of the slice's pieces is, when the symmetries bring that table within
    // the budget; else the set of their locations.
    let slice = slice(model, actions);
    let set = slice.as_ref().and_then(|s| with_slice(model, actions, s));
    let places = set.as_ref().and_then(|c| {
        let parts = c
            .parts
            .iter()
            .map(|p| match p {
                Part::Set { orbit, pieces } => Part::Places {
                    orbit: *orbit,
                    pieces: pieces.clone(),
                },
                p => p.clone(),
            })
            .collect();
        Coords::new(model, parts)
    });
    // Beside where the slice's pieces are, the parity of another orbit's permutation,
    // when the budget holds twice that table.
    let parity = places.as_ref().and_then(|c| with_parity(model, actions, c));
    // The set of the slice's locations with the layers' sets of the other orbits.
    let layers =
        (set.as_ref().zip(slice.as_ref())).and_then(|(c, s)| with_layers(model, actions, c, s));
    // Entries a byte, at most.
    let entries = if pairs { 4 } else { 2 };
    // Each candidate in nibbles, else (reduced) in pairs: a stronger table in pairs goes
    // before a weaker one in nibbles.
    let Some(c) = [layers, parity, places, set]
        .into_iter()
        .flatten()
        .map(|c| reduce(model, c, conj, budget.saturating_mul(entries), ctl, dir))
        .find_map(|c| {
            if fits(&c) {
                return Some(c);
            }
            let c = c.in_pairs();
            (pairs && c.sym.is_some() && fits(&c)).then_some(c)
        })
    else {
        return pieces(budget, true).collect();
    };
    let rest: Vec<Shape> = pieces(budget - held(&c), false).collect();
    let covered = c.parts.iter().all(|p| {
        rest.iter()
            .any(|s| matches!(s, Shape::Pieces(q) if q.orbit == p.orbit() && s.whole()))
    });
    if covered {
        return pieces(budget, true).collect();
    }
    let read: Vec<usize> = c.parts.iter().map(Part::orbit).collect();
    let mut rest: Vec<Shape> = rest
        .into_iter()
        .filter(|s| matches!(s, Shape::Pieces(p) if s.whole() || !read.contains(&p.orbit)))
        .collect();
    // A whole orbit's table gives way to the same orbit with the slice's set, when asked
    // for and what the first table leaves holds it (see the module header).
    if let Some(sl) = slice.as_ref().filter(|_| second) {
        let mut left = budget.saturating_sub(held(&c) + rest.iter().map(Shape::bytes).sum::<u64>());
        for s in rest.iter_mut() {
            let Shape::Pieces(p) = &*s else { continue };
            if !s.whole() || p.orbit == sl.orbit {
                continue;
            }
            let room = left + s.bytes();
            let Some(t) = with_slice_set(model, actions, p.orbit, sl) else {
                continue;
            };
            let t = reduce(model, t, conj, room.saturating_mul(entries), ctl, dir);
            if t.sym.is_none() {
                continue;
            }
            // In pairs when the letters allow: as strong within a few thousandths of a
            // move on average, half the bytes, and a quicker fill.
            let t = if pairs { t.in_pairs() } else { t };
            if held(&t) <= room {
                left = room - held(&t);
                *s = Shape::Coords(t);
            }
        }
    }
    std::iter::once(Shape::Coords(c)).chain(rest).collect()
}

/// Every piece of orbit `o`, where it is and (when the letters turn them) the orientation
/// at every location, with the set of the slice's locations.
fn with_slice_set(model: &Model, actions: &[Action], o: usize, slice: &Slice) -> Option<Coords> {
    let orbit = &model.orbits[o];
    let mut parts = vec![
        Part::Places {
            orbit: o,
            pieces: (0..orbit.size as u8).collect(),
        },
        Part::Set {
            orbit: slice.orbit,
            pieces: slice.pieces.clone(),
        },
    ];
    if orbit.twist > 1
        && actions
            .iter()
            .any(|a| (orbit.start..orbit.start + orbit.size).any(|b| a.add[b] != 0))
    {
        parts.push(Part::Ori { orbit: o });
    }
    Coords::new(model, parts)
}

/// `c` with the parity of the permutation of an orbit beside its set's (the first that
/// some letter permutes oddly, so that the parity is not always even).
fn with_parity(model: &Model, actions: &[Action], c: &Coords) -> Option<Coords> {
    let set_orbit = c.parts.iter().find(|p| p.pieces().is_some())?.orbit();
    let solved = model.solved();
    let mut s = solved.clone();
    let orbit = (0..model.orbits.len()).find(|&o| {
        let orbit = &model.orbits[o];
        o != set_orbit
            && (2..=64).contains(&orbit.size)
            && actions.iter().any(|a| {
                model.apply(a, &solved, &mut s);
                odd_permutation(&s[orbit.start..orbit.start + orbit.size], orbit.twist)
            })
    })?;
    let mut parts = c.parts.clone();
    parts.push(Part::Parity { orbit });
    Coords::new(model, parts)
}

/// Whether `c` reads every orbit some letter moves.
fn reads_all(model: &Model, actions: &[Action], c: &Coords) -> bool {
    (0..model.orbits.len()).all(|o| {
        c.parts.iter().any(|p| p.orbit() == o)
            || actions
                .iter()
                .all(|a| !moves_orbit(model, a, o).contains(&true))
    })
}

/// Per location of orbit `o`: whether letter `a` moves or turns what is there.
fn moves_orbit(model: &Model, a: &Action, o: usize) -> Vec<bool> {
    let o = &model.orbits[o];
    (o.start..o.start + o.size)
        .map(|b| a.src[b] as usize != b || a.add[b] != 0)
        .collect()
}

/// The table over several orbits for these letters (see the module header), if any.
pub fn several_orbits(model: &Model, actions: &[Action]) -> Option<Coords> {
    with_slice(model, actions, &slice(model, actions)?)
}

/// The table over several orbits of `slice`: every orientation and the slice's set.
fn with_slice(model: &Model, actions: &[Action], slice: &Slice) -> Option<Coords> {
    let mut parts: Vec<Part> = (0..model.orbits.len())
        .filter(|&o| {
            model.orbits[o].twist > 1
                && actions
                    .iter()
                    .any(|a| moves_orbit(model, a, o).contains(&true))
        })
        .map(|orbit| Part::Ori { orbit })
        .collect();
    parts.push(Part::Set {
        orbit: slice.orbit,
        pieces: slice.pieces.clone(),
    });
    Coords::new(model, parts)
}

/// A slice (see the module header).
struct Slice {
    orbit: usize,
    pieces: Vec<u8>,
    /// The letters commuting with the letter it was found from, that letter included: the
    /// letters of its axis.
    axis: Vec<usize>,
}

/// The slice of these letters, if any (see the module header).
fn slice(model: &Model, actions: &[Action]) -> Option<Slice> {
    let solved = model.solved();
    let after = |x: &Action, y: &Action| {
        let (mut a, mut b) = (solved.clone(), solved.clone());
        model.apply(x, &solved, &mut a);
        model.apply(y, &a, &mut b);
        b
    };
    // Per letter, the pieces of an orbit that no letter commuting with it moves.
    let mut best: Option<(u64, usize, Vec<u8>, Vec<usize>)> = None;
    for a in actions {
        let commuting: Vec<usize> = (0..actions.len())
            .filter(|&b| after(a, &actions[b]) == after(&actions[b], a))
            .collect();
        for (o, orbit) in model.orbits.iter().enumerate() {
            let fixed: Vec<u8> = (0..orbit.size)
                .filter(|&l| {
                    commuting
                        .iter()
                        .all(|&b| !moves_orbit(model, &actions[b], o)[l])
                })
                .map(|l| l as u8)
                .collect();
            if fixed.len() < 2 || fixed.len() + 2 > orbit.size || orbit.size > 64 {
                continue;
            }
            let sets = Coords::new(
                model,
                vec![Part::Set {
                    orbit: o,
                    pieces: fixed.clone(),
                }],
            )
            .map_or(0, |c| c.size);
            if sets > best.as_ref().map_or(0, |b| b.0) {
                best = Some((sets, o, fixed, commuting.clone()));
            }
        }
    }
    best.map(|(_, orbit, pieces, axis)| Slice {
        orbit,
        pieces,
        axis,
    })
}

/// `c` with, for each other orbit the letters move, the set of locations of the pieces
/// one letter of the slice's axis moves (nxopt's corners of the U layer: 70 sets, which
/// the symmetries that swap U and D carry to the D layer's, see `symmetric.rs`): of the
/// axis' letters, the one that moves the most sets' worth (`C(n, k)`, at most half the
/// orbit's pieces), the first on ties.
fn with_layers(model: &Model, actions: &[Action], c: &Coords, slice: &Slice) -> Option<Coords> {
    let mut parts = c.parts.clone();
    for (o, orbit) in model.orbits.iter().enumerate() {
        if o == slice.orbit || orbit.size > 64 {
            continue;
        }
        let best = (slice.axis.iter())
            .map(|&a| {
                let moved = moves_orbit(model, &actions[a], o);
                (0..orbit.size as u8)
                    .filter(|&l| moved[l as usize])
                    .collect::<Vec<u8>>()
            })
            .filter(|p| p.len() >= 2 && 2 * p.len() <= orbit.size)
            .map(|pieces| {
                let part = Part::Set { orbit: o, pieces };
                let sets = Coords::new(model, vec![part.clone()]).map_or(0, |c| c.size);
                (sets, part)
            })
            .rev()
            .max_by_key(|(sets, _)| *sets);
        if let Some((_, part)) = best {
            parts.push(part);
        }
    }
    (parts.len() > c.parts.len())
        .then(|| Coords::new(model, parts))
        .flatten()
}

/// The tables of pieces for a memory budget: for each orbit the letters move, the largest
/// `k` such that `ceil(n / k)` tables of `k` pieces (the last one overlapping)
/// fit in the orbit's share. The budget left over (an orbit's share it did not need, and
/// what the covering tables leave) then goes, round-robin over the orbits, to further
/// `k`-piece tables of other subsets (pieces taken in the orders `(i mod m, i)`,
/// `m = 2, 3, ...`), so the heuristic is the maximum over more tables. Before those, an
/// orbit with orientations gets one table of the orientation at every location together
/// with as many pieces as fit (e.g. the 12 edge flips and 5 edges of the 3x3x3).
/// Without `further`, the further subsets are left out: beside a table over several orbits
/// they cut 2% of the nodes for 50% more time a node (16-move 3x3x3 scrambles in htm at
/// 4 GiB, benches/results.md), and the budget they would take stays unused.
fn choose_pieces(model: &Model, actions: &[Action], budget: u64, further: bool) -> Vec<Pattern> {
    let moving: Vec<usize> = (0..model.orbits.len())
        .filter(|&oi| {
            let o = &model.orbits[oi];
            actions.iter().any(|a| {
                (0..o.size)
                    .any(|b| a.src[o.start + b] as usize != o.start + b || a.add[o.start + b] != 0)
            })
        })
        .collect();
    if moving.is_empty() {
        return Vec::new();
    }
    // Each orbit's share is what the orbits before it left, split evenly.
    let mut remaining = budget;
    let mut out = Vec::new();
    // Per orbit: the further subsets not yet used.
    let mut extra: Vec<(usize, usize, Vec<Vec<usize>>)> = Vec::new();
    let mut chosen: Vec<Vec<Vec<u8>>> = Vec::new();
    for (done, &oi) in moving.iter().enumerate() {
        let o = &model.orbits[oi];
        let share = remaining / (moving.len() - done) as u64;
        let mut best = None;
        for k in 1..=o.size.min(63) {
            let chunks = o.size.div_ceil(k) as u64;
            let p = Pattern::new(model, oi, (0..k as u8).collect());
            if p.bytes().saturating_mul(chunks) <= share {
                best = Some(k);
            }
        }
        let Some(k) = best else { continue };
        let chunks = o.size.div_ceil(k);
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for c in 0..chunks {
            let first = (c * k).min(o.size - k);
            let pieces: Vec<u8> = (first as u8..(first + k) as u8).collect();
            seen.push(pieces.clone());
            let p = Pattern::new(model, oi, pieces);
            remaining = remaining.saturating_sub(p.bytes());
            out.push(p);
        }
        // Further subsets, spread over the orbit (every m-th piece first), for the tables
        // added when budget remains.
        let mut more = Vec::new();
        if k < o.size {
            for m in 2..o.size {
                let mut order: Vec<usize> = (0..o.size).collect();
                order.sort_by_key(|&i| (i % m, i));
                more.push(order);
            }
        }
        more.reverse();
        extra.push((oi, k, more));
        chosen.push(seen);
    }
    let mut used: u64 = out.iter().map(|p: &Pattern| p.bytes()).sum();
    // Then, per orbit with orientations not covered by a whole-orbit table, one table of
    // every location's orientation and the largest number of pieces that fits.
    for &(oi, k, _) in &extra {
        let o = &model.orbits[oi];
        if o.twist == 1 || k == o.size || o.size > 63 || out.len() >= MAX_TABLES {
            continue;
        }
        let mut best = None;
        for k in 1..o.size {
            let p = Pattern::with_orientations(model, oi, (0..k as u8).collect(), true);
            if used.saturating_add(p.bytes()) <= budget {
                best = Some(p);
            }
        }
        if let Some(p) = best {
            used += p.bytes();
            out.push(p);
        }
    }
    // Then the largest further subsets the remaining budget holds (never smaller than the
    // first one added), spread over the orbit.
    if !further {
        return out;
    }
    let mut least: Vec<Option<usize>> = vec![None; extra.len()];
    loop {
        let mut added = false;
        for (e, (oi, k0, orders)) in extra.iter_mut().enumerate() {
            if out.len() >= MAX_TABLES {
                return out;
            }
            let n = model.orbits[*oi].size;
            let floor = least[e].unwrap_or(*k0);
            let Some(k) = (floor..n).rev().find(|&k| {
                used.saturating_add(Pattern::new(model, *oi, (0..k as u8).collect()).bytes())
                    <= budget
            }) else {
                orders.clear();
                continue;
            };
            while let Some(order) = orders.pop() {
                let mut pieces: Vec<u8> = order[..k].iter().map(|&i| i as u8).collect();
                pieces.sort();
                if chosen[e].contains(&pieces) {
                    continue;
                }
                chosen[e].push(pieces.clone());
                let p = Pattern::new(model, *oi, pieces);
                used += p.bytes();
                out.push(p);
                least[e] = Some(k);
                added = true;
                break;
            }
        }
        if !added {
            return out;
        }
    }
}

#[cfg(test)]
#[path = "choice_tests.rs"]
mod tests;
