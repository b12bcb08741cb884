//! What every reader shares: orbits and moves in the form all three formats use (for
//! each slot, the piece that lands there and the orientation it gains), turned into a
//! puz-core [`Puzzle`] with names puz can read.

use crate::{is_keyword, puz_move_name, puz_name, FormatError, Imported};
use num_traits::ToPrimitive;
use puz_core::{NamedMove, Perm, Puzzle};
use std::collections::HashMap;

/// One orbit's part of a move: `pieces[s]` is the slot whose piece lands in slot `s`,
/// gaining `gains[s]` (mod the orbit's twist).
pub struct OrbitMove {
    pub pieces: Vec<usize>,
    pub gains: Vec<u64>,
}

/// The permutation of points a move makes; orbits given as `None` stay still.
pub fn move_perm(p: &Puzzle, orbits: &[Option<OrbitMove>]) -> Perm {
    let mut images: Vec<usize> = (0..p.degree()).collect();
    for (o, m) in p.orbits.iter().zip(orbits) {
        let Some(m) = m else { continue };
        let k = o.twist as u64;
        for (slot, (&from, &gain)) in m.pieces.iter().zip(&m.gains).enumerate() {
            for t in 0..k {
                images[o.point(from, t as usize)] = o.point(slot, ((t + gain) % k) as usize);
            }
        }
    }
    Perm::from_images(images).expect("the readers pass permutations")
}

/// The inverse view, for writers: each orbit's pieces and gains under `perm`.
pub fn orbit_moves(p: &Puzzle, perm: &Perm) -> Vec<OrbitMove> {
    p.orbit_states(perm)
        .into_iter()
        .map(|s| OrbitMove {
            pieces: s.pieces,
            gains: s.oris.iter().map(|&x| x as u64).collect(),
        })
        .collect()
}

/// Where the first repeated value of a would-be permutation of `0..n` is, or the
/// first out-of-range one: `Err((index, why))`.
pub fn check_perm(vals: &[usize], n: usize) -> Result<(), (usize, String)> {
    let mut seen = vec![usize::MAX; n];
    for (i, &v) in vals.iter().enumerate() {
        if v >= n {
            return Err((i, format!("{v} is out of range")));
        }
        if seen[v] != usize::MAX {
            return Err((
                i,
                format!("{v} appears twice (entries {} and {})", seen[v] + 1, i + 1),
            ));
        }
        seen[v] = i;
    }
    Ok(())
}

/// A move as read: its name in the file, its effect, whether it generates the group,
/// and the byte range that defines it (for errors about its name).
pub struct ReadMove {
    pub name: String,
    pub perm: Perm,
    pub gen: bool,
    pub range: (usize, usize),
}

/// Renames what puz cannot read, checks that no name is taken twice (counting the
/// letters puz makes for powers: `R2`, `R'`), and assembles the result.
pub fn finish(
    mut puzzle: Puzzle,
    moves: Vec<ReadMove>,
    mut notes: Vec<String>,
) -> Result<Imported, FormatError> {
    let mut renamed = Vec::new();
    for o in &mut puzzle.orbits {
        let n = puz_name(&o.name);
        if n != o.name {
            renamed.push(format!("orbit {} as {n}", o.name));
            o.name = n;
        }
    }
    let mut taken: HashMap<String, (usize, usize)> = HashMap::new();
    let mut gens = Vec::new();
    for m in &moves {
        let n = puz_move_name(&m.name);
        if n != m.name {
            renamed.push(format!("{} as {n}", m.name));
        }
        if taken.insert(n.clone(), m.range).is_some() {
            return Err(
                FormatError::new(m.range, format!("move `{n}` is defined twice"))
                    .with_help("every move needs its own name"),
            );
        }
        if m.gen {
            gens.push(puzzle.moves.len());
        }
        puzzle.moves.push(NamedMove {
            name: n,
            perm: m.perm.clone(),
            primitive: m.gen,
        });
    }
    // puz names the powers of a move `R2`, `R3`, ..., `R'`; a move with such a name
    // would make `R2` mean two things.
    for m in &puzzle.moves {
        let cap = m.perm.order().to_u64().map_or(65, |o| o.min(65));
        let mut powers: Vec<String> = (2..cap).map(|k| format!("{}{k}", m.name)).collect();
        if cap > 2 {
            powers.push(format!("{}'", m.name));
        }
        for pw in powers {
            if let Some(&range) = taken.get(&pw) {
                return Err(FormatError::new(
                    range,
                    format!(
                        "move `{pw}` has the name puz gives to a power of move `{}`",
                        m.name
                    ),
                )
                .with_help("rename one of the two moves in the file"));
            }
        }
    }
    if !renamed.is_empty() {
        notes.push(format!(
            "renamed to puz names (letters, digits and _; a move may also be led by digits or end in ++, --, as 2R, R++): {}",
            renamed.join(", ")
        ));
    }
    debug_assert!(puzzle.orbits.iter().all(|o| !is_keyword(&o.name)));
    Ok(Imported {
        puzzle,
        gens,
        notes,
    })
}

/// The largest degree puz handles (points are u16).
pub const MAX_POINTS: usize = 1 << 16;
