//! Certified Hamilton checking by cosets: for groups far too large to walk.
//!
//! [`check()`](crate::check()) marks every position in a bitset of `|G|` bits. Here the
//! claim "the word visits every position of `G` exactly once (and returns, for a cycle)"
//! is proved from the word's nested structure and a chain of subgroups
//! `H_0 < H_1 < ... < H_{k-1} < H_k = G`, never enumerating `G`.
//!
//! # Entry point
//!
//! ```text
//! certify(word, alpha, &Chain { levels: [H_0, .., H_{k-1}], group: G, bottom: ranker of H_0 },
//!         &Options::default(), &ctl) -> Result<Verdict, CertifyError>
//! ```
//!
//! Each level is a [`Subgroup`]: its exact order, membership, generators (to check that the
//! chain is a chain) and a *coset key*, equal for `x` and `y` exactly when `y = x·h` for
//! some `h` in the subgroup (`x·h` is `x.then(h)`: the position after `x` then `h`). The
//! bottom `H_0` must also be ranked (a [`Ranker`]), since it is walked with a bitset. The
//! start position is the identity. The outcome has three kinds ([`Verdict`]): certified
//! (cycle or path), not Hamilton (the first repeated position, located in the user's own
//! macros exactly as the walk reports it, or positions left out), or cannot certify (a
//! budget was exceeded; the word may still be Hamilton). Bad input (a chain that is not a
//! nested chain of subgroups, a letter outside `G`) is a [`CertifyError`], never a verdict.
//!
//! # The rule
//!
//! The positions of a prefix are `p_t = l_1 ... l_t`. Cut the word at the letters outside
//! `H_{k-1}` (connectors): the maximal blocks between them are *runs* (a run may be empty:
//! one position between two connectors). A run over `H`'s letters started at `x` stays in
//! the coset `xH`, and every position belongs to exactly one run. The word is Hamilton on
//! a coset `X` of `H_l` (here: visits every element of `X` exactly once) iff, grouping the
//! runs at level `l - 1` by the coset key of their start, every group is Hamilton on its
//! coset of `H_{l-1}` and the groups, which are distinct cosets, cover
//! `[H_l : H_{l-1}]` of them. That is [`tile`]: recursive, down to `H_0`, where the runs
//! of one coset are walked with a bitset of `|H_0|` bits relative to the first run's start.
//!
//! Why it is sound: by induction on `l`. At `H_0` the bitset sees every position of the
//! group's runs (relative to a common element of the coset, a bijection onto `H_0`). Above,
//! runs in different groups have starts in different cosets of `H_{l-1}` (the key says so)
//! and stay there, so their positions differ; inside a group they are distinct by
//! induction; so a group that covers `|H_{l-1}|` positions is its whole coset, and
//! `[H_l : H_{l-1}]` full groups are all of `X`. At the top `X = G`: all `len + 1`
//! positions are distinct and number `|G|`: a Hamilton path; for a cycle the word must
//! have `|G|` letters, return to the start, and the word without its last letter must be
//! a Hamilton path. Nothing is hashed or sampled: keys are exact, permutations are
//! compared exactly, so a word is accepted only when it is Hamilton. The rule is also
//! complete (every Hamilton word is accepted, budgets permitting), and the first repeat
//! it reports is the walk's: repeats in different cosets are independent, and the
//! earliest is the minimum over the groups (groups starting after it are skipped). A
//! coset of `H_l` holding more positions than `|H_l|` surely repeats (pigeonhole); when
//! it is larger than [`Options::exact_below`] that is reported without the search for the
//! first repeat, which could mean descending the whole coset.
//!
//! Why it is fast on nested words: what a single run does in its coset (Hamilton on it,
//! or its first repeat relative to its start) is remembered by its segments (maximal
//! nested nodes, by identity) and level: it does not depend on where the run starts (left
//! multiplication maps `H_l` onto any coset, and cosets of `H_{l-1}` onto cosets). A
//! construction like Jaap's coset splice or Norskog's chain uses a few distinct Hamilton
//! paths of each `H_l` (named macros, rotations sharing nodes), so each is decomposed once;
//! the work is about the sum over levels of the index `[H_l : H_{l-1}]` times the number
//! of distinct paths, plus walks of `H_0` paths, never the length of the word. Runs are
//! found from the tree (a node whose letters all lie in `H` is one segment, never
//! descended) and their starts from memoised products of nodes. Splices (one move of a
//! path replaced by a detour through other cosets) leave a coset visited by several
//! partial runs: when single letters join them (in whatever order) into a word whose
//! letters equal those of a path already certified on a coset of the same level (or of
//! its inverse), the coset is covered ([`slices`]: one comparison that skips shared
//! nodes, only with paths of the same product); else they are
//! joined and tiled as one run, and only when that fails decomposed run by run, down to
//! `H_0` if need be (which also finds the exact first repeat).

mod runs;
mod slices;
mod tile;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod testutil;

use crate::check::Kind;
use puz_core::{Alphabet, Control, Frame, Interrupt, Perm, Ranker, Word};
use std::fmt;

pub use crate::subgroup::{CosetKey, Subgroup};

/// A chain `H_0 < H_1 < ... < H_{k-1} < G`.
pub struct Chain<'a> {
    /// `H_0, ..., H_{k-1}`, ascending (may be empty: then `G` itself is walked).
    pub levels: Vec<&'a dyn Subgroup>,
    /// `G`.
    pub group: &'a dyn Subgroup,
    /// Ranks `H_0` (or `G` when `levels` is empty) onto `0..|H_0|`.
    pub bottom: &'a dyn Ranker,
}

/// Budgets.
#[derive(Clone, Debug)]
pub struct Options {
    /// The most runs gathered in one coset at one level before giving up.
    pub max_runs: usize,
    /// The largest bottom group walked with a bitset.
    pub max_bottom: u64,
    /// A coset holding more positions than elements is searched for its first repeat
    /// only when it has at most this many elements (else [`Failure::Overfull`]).
    pub exact_below: u128,
    /// The most positions walked at the bottom over the whole certificate: past it the
    /// answer is "cannot certify" rather than hours of walking.
    pub max_walked: u128,
    /// Bottom groups of at least this many elements are walked on coordinates (table
    /// look-ups) rather than by ranking each position; a repeat is then located by ranks.
    pub fast_walk_from: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_runs: 1 << 26,
            max_bottom: 1 << 34,
            exact_below: 1 << 22,
            max_walked: 1 << 31,
            fast_walk_from: 1 << 8,
        }
    }
}

/// Why a word is not Hamilton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A position visited a second time (the first such, as the walk reports it).
    Repeat {
        /// Position index of the second visit.
        index: u128,
        /// Position index of the first visit.
        repeats: u128,
        position: Perm,
        /// Where the letter leading there sits in the user's word.
        frames: Vec<Frame>,
        letter: u32,
        /// The position index where the word first entered the coset of `H_0` holding
        /// the repeated position.
        entered: u128,
    },
    /// No position repeats, but only `visited` of `size` positions are seen.
    Missing { visited: u128, size: u128 },
    /// Some position repeats for certain: the runs landing in one coset of `H_level`
    /// (entered at position `entered`, again at `again`, where `frames` says) hold
    /// `positions` positions, more than its `size` elements. Given instead of
    /// [`Failure::Repeat`] when that coset is larger than [`Options::exact_below`], where
    /// finding the first repeat exactly could mean descending the whole coset.
    Overfull {
        level: usize,
        entered: u128,
        again: u128,
        frames: Vec<Frame>,
        positions: u128,
        size: u128,
    },
}

/// The outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A Hamilton cycle or path ([`Kind::Cycle`] or [`Kind::Path`]).
    Certified(Kind),
    NotHamilton(Failure),
    /// A budget was exceeded: nothing is claimed either way.
    CannotCertify(String),
}

/// Bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertifyError {
    Interrupted(Interrupt),
    /// The chain is not a nested chain of subgroups (the message says which check failed).
    BadChain(String),
    /// A letter of the word is not in `G`.
    LetterOutside {
        letter: String,
        /// Letter index of its first occurrence and where it sits.
        index: u128,
        frames: Vec<Frame>,
    },
}

impl fmt::Display for CertifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertifyError::Interrupted(_) => write!(f, "interrupted"),
            CertifyError::BadChain(m) => write!(f, "not a chain of subgroups: {m}"),
            CertifyError::LetterOutside { letter, index, .. } => {
                write!(f, "letter {letter} (at letter {index}) is not in the group")
            }
        }
    }
}

impl From<Interrupt> for CertifyError {
    fn from(i: Interrupt) -> Self {
        CertifyError::Interrupted(i)
    }
}

/// Checks that the chain is nested: generators of each level lie in the next, orders
/// divide, and the bottom ranker ranks exactly the bottom group.
fn validate(chain: &Chain, alpha: &Alphabet) -> Result<(), CertifyError> {
    let all: Vec<&dyn Subgroup> = chain.levels.iter().copied().chain([chain.group]).collect();
    let name = |i: usize| {
        if i + 1 == all.len() {
            "G".to_string()
        } else {
            format!("H{}", i + 1)
        }
    };
    let degree = alpha.perms.first().map(|p| p.degree());
    for (i, h) in all.iter().enumerate() {
        if h.order() == 0 {
            return Err(CertifyError::BadChain(format!("{} has order 0", name(i))));
        }
        for g in h.generators() {
            if Some(g.degree()) != degree {
                return Err(CertifyError::BadChain(format!(
                    "{} acts on {} points, the letters on {:?}",
                    name(i),
                    g.degree(),
                    degree
                )));
            }
            if !h.contains(&g) {
                return Err(CertifyError::BadChain(format!(
                    "{} does not contain its own generator",
                    name(i)
                )));
            }
        }
    }
    for i in 0..all.len().saturating_sub(1) {
        let (h, up) = (all[i], all[i + 1]);
        if let Some(k) = h.generators().iter().position(|g| !up.contains(g)) {
            return Err(CertifyError::BadChain(format!(
                "generator {} of {} is not in {}: not a subgroup",
                k + 1,
                name(i),
                name(i + 1)
            )));
        }
        if up.order() % h.order() != 0 {
            return Err(CertifyError::BadChain(format!(
                "|{}| = {} does not divide |{}| = {}",
                name(i),
                h.order(),
                name(i + 1),
                up.order()
            )));
        }
    }
    let bottom = all[0];
    if chain.bottom.size().map(|s| s as u128) != Some(bottom.order()) {
        return Err(CertifyError::BadChain(format!(
            "the bottom ranker ranks {:?} elements, |{}| = {}",
            chain.bottom.size(),
            name(0),
            bottom.order()
        )));
    }
    if bottom
        .generators()
        .iter()
        .any(|g| chain.bottom.rank(g).is_none())
    {
        return Err(CertifyError::BadChain(format!(
            "the bottom ranker does not rank the generators of {}",
            name(0)
        )));
    }
    Ok(())
}

/// Certifies that `word`, from the identity, is a Hamilton cycle or path of `chain.group`.
/// See the module header for the rule.
pub fn certify(
    word: &Word,
    alpha: &Alphabet,
    chain: &Chain,
    opts: &Options,
    ctl: &Control,
) -> Result<Verdict, CertifyError> {
    validate(chain, alpha)?;
    let all: Vec<&dyn Subgroup> = chain.levels.iter().copied().chain([chain.group]).collect();
    let top = all.len() - 1;
    if all[0].order() > opts.max_bottom as u128 {
        return Ok(Verdict::CannotCertify(format!(
            "the bottom group has {} elements, more than the {} walked",
            all[0].order(),
            opts.max_bottom
        )));
    }
    let mut t = tile::Tiler::new(alpha, &all, chain.bottom, opts, ctl);
    if let Some(index) = t.runs.first_outside(word, top) {
        let (frames, l) = t.runs.locate(word, index).expect("index inside the word");
        return Err(CertifyError::LetterOutside {
            letter: alpha.names[l as usize].clone(),
            index,
            frames,
        });
    }
    let size = all[top].order();
    let len = t.runs.len(word);
    let degree = alpha.perms.first().map_or(0, |p| p.degree());
    // A cycle: |G| letters back to the start; its positions are those of the word
    // without the last letter.
    let closes = len == size && len > 0 && t.runs.eval(word, false).is_identity();
    let body = if closes {
        t.runs.cut(word, len - 1, false)
    } else {
        word.clone()
    };
    let run = runs::Run {
        segs: vec![(&body, false)],
        start: Perm::identity(degree),
        pos0: 0,
        len: t.runs.len(&body),
    };
    let out = t.tile(top, vec![run]);
    ctl.end_phase();
    let out = match out {
        Ok(o) => o,
        Err(tile::Stop::Interrupt(i)) => return Err(i.into()),
        Err(tile::Stop::Budget(m)) => return Ok(Verdict::CannotCertify(m)),
    };
    Ok(match out {
        tile::Outcome::Repeat {
            index,
            repeats,
            position,
            entered,
        } => {
            let (frames, letter) = t.runs.locate(word, index - 1).expect("inside the word");
            Verdict::NotHamilton(Failure::Repeat {
                index,
                repeats,
                position,
                frames,
                letter,
                entered,
            })
        }
        tile::Outcome::Overfull {
            level,
            entered,
            again,
            positions,
        } => {
            let frames = match again {
                0 => Vec::new(),
                i => t.runs.locate(word, i - 1).map(|f| f.0).unwrap_or_default(),
            };
            Verdict::NotHamilton(Failure::Overfull {
                level,
                entered,
                again,
                frames,
                positions,
                size: all[level].order(),
            })
        }
        tile::Outcome::Covered(n) if n == size => {
            Verdict::Certified(if closes { Kind::Cycle } else { Kind::Path })
        }
        tile::Outcome::Covered(n) => Verdict::NotHamilton(Failure::Missing { visited: n, size }),
    })
}
