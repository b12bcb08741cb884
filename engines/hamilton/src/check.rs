//! The Hamilton / Devil checker: walks a nested word from a start position, exactly.
//!
//! The word is streamed from its nested form (compiled, never expanded). Each position is
//! turned into an index (through [`crate::coords::Coords`] when the group's orbits can be
//! enumerated, else through the [`Ranker`] itself) and marked in a bitset. In Hamilton
//! mode the walk may be split into shares whose start positions come from prefix effects,
//! walked in parallel each on its own bitset, and when any share sees a repeat (or two
//! shares a common position) the earliest repeat is found again exactly by a sequential
//! walk. Failures are reported in
//! the user's own nested definitions through [`Word::locate`].
//!
//! Over 700 lines, 240 of them tests: the code is one job (walk, then report), its
//! scan kept apart from dispatch and reporting behind the small `Stepper` trait.

use crate::compile::{Compiled, Cursor};
use crate::coords::Coords;
use puz_core::{Alphabet, Control, Frame, Interrupt, Perm, Ranker, Word};
use rayon::prelude::*;

/// What to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every position exactly once: stop at the first repeat.
    Hamilton,
    /// Every position at least once: walk the whole word.
    Devil,
}

/// What the word is on the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `n = |G|`, the first `n` positions are all of `G` and the last is the first.
    Cycle,
    /// `n = |G| - 1` and the `n + 1` positions are distinct (so all of `G`).
    Path,
    Neither,
}

/// A position visited a second time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The position index (0 = the start) of the second visit.
    pub index: u128,
    /// The position index of the earlier visit it repeats.
    pub repeats: u128,
    /// The position itself.
    pub position: Perm,
    /// Where the letter leading to it sits in the user's nested word.
    pub frames: Vec<Frame>,
    /// That letter.
    pub letter: u32,
}

/// A step that leaves the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leave {
    /// The position index reached outside the group (0 when the start is outside).
    pub index: u128,
    /// Where the letter leading there sits (empty for the start).
    pub frames: Vec<Frame>,
}

/// The checker's findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub kind: Kind,
    /// The number of letters of the word.
    pub steps: u128,
    pub group_size: u64,
    /// Distinct positions seen (in Hamilton mode, before the first unexpected repeat).
    pub visited: u64,
    /// The first repeat, except the closing one of a Hamilton cycle.
    pub first_repeat: Option<Repeat>,
    /// Devil mode: the first position index by which every position was seen.
    pub all_seen_at: Option<u128>,
    /// `group_size - visited`.
    pub missing: u64,
    pub leaves_group: Option<Leave>,
}

/// A way of turning positions into bitset indices, stepping by letter slots. A state is
/// made from the effect `h` of a prefix (the position is `start h`): distinct effects are
/// distinct positions.
trait Stepper: Sync {
    type State: Clone + Send + Sync;
    fn at(&self, h: &Perm) -> Self::State;
    fn step(&self, st: &mut Self::State, s: u16);
    fn idx(&self, st: &Self::State) -> u64;
}

/// Coordinates with `N` blocks.
struct CoordStep<'a, const N: usize> {
    coords: &'a Coords,
    tabs: [&'a [u32]; N],
    counts: [usize; N],
    mults: [u64; N],
}

impl<'a, const N: usize> CoordStep<'a, N> {
    fn new(coords: &'a Coords) -> Self {
        let t = coords.tables();
        CoordStep {
            coords,
            tabs: std::array::from_fn(|b| t[b].1),
            counts: std::array::from_fn(|b| t[b].0 as usize),
            mults: std::array::from_fn(|b| coords.mults()[b]),
        }
    }
}

impl<const N: usize> Stepper for CoordStep<'_, N> {
    type State = [u32; N];
    fn at(&self, p: &Perm) -> [u32; N] {
        let c = self
            .coords
            .encode(p)
            .expect("positions reached by the group's letters are in it");
        std::array::from_fn(|b| c[b])
    }
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn step(&self, c: &mut [u32; N], s: u16) {
        for b in 0..N {
            c[b] = self.tabs[b][s as usize * self.counts[b] + c[b] as usize];
        }
    }
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn idx(&self, c: &[u32; N]) -> u64 {
        let mut i = 0;
        for b in 0..N {
            i += c[b] as u64 * self.mults[b];
        }
        i
    }
}

/// The generic fallback: compose permutations and rank each position.
struct RankStep<'a> {
    ranker: &'a dyn Ranker,
    perms: &'a [Perm],
    start: &'a Perm,
}

impl Stepper for RankStep<'_> {
    type State = Perm;
    fn at(&self, h: &Perm) -> Perm {
        self.start.then(h)
    }
    fn step(&self, st: &mut Perm, s: u16) {
        st.then_assign(&self.perms[s as usize]);
    }
    fn idx(&self, st: &Perm) -> u64 {
        self.ranker
            .rank(st)
            .expect("positions reached by the group's letters are in it")
    }
}

/// Everything a walk needs.
struct Walk<'a> {
    /// Walk Hamilton mode in parallel chunks.
    parallel: bool,
    start: &'a Perm,
    compiled: &'a Compiled,
    /// Letter permutations by slot.
    perms: &'a [Perm],
    ctl: &'a Control,
    /// Letters walked (positions `0..=len`).
    len: u128,
}

/// Outcome of a walk in index space.
struct Found {
    /// First repeat: (position index of the second visit, index of the earlier one).
    repeat: Option<(u128, u128)>,
    visited: u64,
    all_seen_at: Option<u128>,
}

fn bit_set(bits: &mut [u64], i: u64) -> bool {
    let (w, m) = ((i >> 6) as usize, 1u64 << (i & 63));
    let old = bits[w] & m != 0;
    bits[w] |= m;
    old
}

/// Runs `f` on every position index from `from` (letter index) for `count` letters,
/// positions `from + 1 ..`; `f` returns false to stop.
fn scan<S: Stepper>(
    st: &S,
    w: &Walk,
    mut state: S::State,
    from: u128,
    count: u128,
    mut f: impl FnMut(u128, u64) -> bool,
) -> Result<(), Interrupt> {
    let mut cur: Cursor = w.compiled.seek(from);
    let mut pos = from;
    let end = from + count;
    while pos < end {
        w.ctl.check()?;
        let sl = cur.next_slice(end - pos);
        if sl.is_empty() {
            break;
        }
        for &s in sl {
            st.step(&mut state, s);
            pos += 1;
            if !f(pos, st.idx(&state)) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The earlier position index with the same index as `target`, searching `0..before`.
fn earlier<S: Stepper>(st: &S, w: &Walk, target: u64, before: u128) -> Result<u128, Interrupt> {
    let s0 = st.at(&Perm::identity(w.start.degree()));
    if st.idx(&s0) == target {
        return Ok(0);
    }
    let mut found = before;
    scan(st, w, s0, 0, before.saturating_sub(1), |pos, i| {
        if i == target {
            found = pos;
            false
        } else {
            true
        }
    })?;
    Ok(found)
}

/// A sequential walk over all `w.len` letters with a plain bitset.
fn walk_seq<S: Stepper>(
    st: &S,
    w: &Walk,
    space: u64,
    size: u64,
    mode: Mode,
) -> Result<Found, Interrupt> {
    let mut bits = vec![0u64; space.div_ceil(64) as usize];
    let s0 = st.at(&Perm::identity(w.start.degree()));
    bit_set(&mut bits, st.idx(&s0));
    let mut visited = 1u64;
    let mut repeat: Option<(u128, u64)> = None;
    let mut all_seen_at = (visited == size).then_some(0);
    scan(st, w, s0, 0, w.len, |pos, i| {
        if bit_set(&mut bits, i) {
            if repeat.is_none() {
                repeat = Some((pos, i));
            }
            mode == Mode::Devil
        } else {
            visited += 1;
            if visited == size && all_seen_at.is_none() {
                all_seen_at = Some(pos);
            }
            true
        }
    })?;
    let repeat = match repeat {
        Some((pos, i)) => Some((pos, earlier(st, w, i, pos)?)),
        None => None,
    };
    Ok(Found {
        repeat,
        visited,
        all_seen_at,
    })
}

/// Hamilton mode in parallel: one contiguous share of the word a thread, each marking its
/// own bitset with plain stores (a locked read-modify-write a position stalls the many
/// cache misses a walk keeps in flight). The positions are distinct exactly when no share
/// repeats itself and no two bitsets share a bit. Any repeat sends us to [`walk_seq`],
/// which finds the earliest exactly. Falls back to it too when the extra bitsets would
/// take more than a quarter of the memory limit.
fn walk_par<S: Stepper>(st: &S, w: &Walk, space: u64, size: u64) -> Result<Found, Interrupt> {
    let threads = rayon::current_num_threads().max(1) as u128;
    let words = space.div_ceil(64) as usize;
    let extra = (threads as u64 - 1).saturating_mul(words as u64 * 8);
    if w.len < 1 << 20 || threads == 1 || !w.parallel || extra > w.ctl.memory_limit / 4 {
        return walk_seq(st, w, space, size, Mode::Hamilton);
    }
    // Positions 0..=len-1 in shares; the last position alone may close a cycle.
    let body = w.len - 1;
    let shares = threads.min(body / (1 << 18)).max(1);
    let cuts: Vec<u128> = (0..=shares).map(|k| body * k / shares).collect();
    let prefix = w.compiled.prefix_perms(w.perms, w.start.degree(), &cuts);
    let starts: Vec<S::State> = prefix.iter().map(|p| st.at(p)).collect();
    let results: Vec<Result<Option<Vec<u64>>, Interrupt>> = (0..shares as usize)
        .into_par_iter()
        .map(|k| {
            let (from, to) = (cuts[k], cuts[k + 1]);
            let mut bits = vec![0u64; words];
            let mut state = starts[k].clone();
            bit_set(&mut bits, st.idx(&state));
            // The share's positions are from..to-1, so it takes to-from-1 steps (its last
            // letter lands on the next share's first position, which that share marks).
            let mut cur = w.compiled.seek(from);
            let mut left = to - from - 1;
            let mut repeated = false;
            while left > 0 && !repeated {
                w.ctl.check()?;
                let sl = cur.next_slice(left);
                if sl.is_empty() {
                    break;
                }
                left -= sl.len() as u128;
                for &s in sl {
                    st.step(&mut state, s);
                    repeated |= bit_set(&mut bits, st.idx(&state));
                }
            }
            Ok((!repeated).then_some(bits))
        })
        .collect();
    let mut sets = Vec::with_capacity(results.len());
    for r in results {
        match r? {
            Some(bits) => sets.push(bits),
            None => return walk_seq(st, w, space, size, Mode::Hamilton),
        }
    }
    // Shares disjoint: OR them into the first, watching for a bit already set.
    let (first, rest) = sets.split_first_mut().expect("one share at least");
    for other in rest.iter() {
        w.ctl.check()?;
        let clash = first
            .par_chunks_mut(1 << 16)
            .zip(other.par_chunks(1 << 16))
            .map(|(a, b)| {
                let mut clash = false;
                for (x, &y) in a.iter_mut().zip(b) {
                    clash |= *x & y != 0;
                    *x |= y;
                }
                clash
            })
            .reduce(|| false, |a, b| a || b);
        if clash {
            return walk_seq(st, w, space, size, Mode::Hamilton);
        }
    }
    let marks = &*first;
    // The last letter, from position len-1.
    let mut s_last = st.at(&prefix[prefix.len() - 1]);
    let mut cur = w.compiled.seek(body);
    let sl = cur.next_slice(1);
    st.step(&mut s_last, sl[0]);
    let i = st.idx(&s_last);
    if marks[(i >> 6) as usize] >> (i & 63) & 1 == 1 {
        let e = earlier(st, w, i, w.len)?;
        return Ok(Found {
            repeat: Some((w.len, e)),
            visited: w.len as u64,
            all_seen_at: None,
        });
    }
    Ok(Found {
        repeat: None,
        visited: w.len as u64 + 1,
        all_seen_at: None,
    })
}

/// The most coordinate blocks `dispatch` has a stepper for.
const MAX_BLOCKS: usize = 6;

fn dispatch(
    w: &Walk,
    coords: Option<&Coords>,
    ranker: &dyn Ranker,
    size: u64,
    mode: Mode,
) -> Result<Found, Interrupt> {
    macro_rules! go {
        ($st:expr, $space:expr) => {
            match mode {
                Mode::Hamilton => walk_par(&$st, w, $space, size),
                Mode::Devil => walk_seq(&$st, w, $space, size, mode),
            }
        };
    }
    match coords {
        Some(c) => match c.blocks() {
            1 => go!(CoordStep::<1>::new(c), c.space),
            2 => go!(CoordStep::<2>::new(c), c.space),
            3 => go!(CoordStep::<3>::new(c), c.space),
            4 => go!(CoordStep::<4>::new(c), c.space),
            5 => go!(CoordStep::<5>::new(c), c.space),
            6 => go!(CoordStep::<6>::new(c), c.space),
            _ => go!(
                RankStep {
                    ranker,
                    perms: w.perms,
                    start: w.start
                },
                size
            ),
        },
        None => go!(
            RankStep {
                ranker,
                perms: w.perms,
                start: w.start
            },
            size
        ),
    }
}

/// The first letter index whose slot is marked bad.
fn first_bad(compiled: &Compiled, bad: &[bool], ctl: &Control) -> Result<Option<u128>, Interrupt> {
    let mut cur = compiled.seek(0);
    let mut pos = 0u128;
    loop {
        ctl.check()?;
        let sl = cur.next_slice(u128::MAX);
        if sl.is_empty() {
            return Ok(None);
        }
        if let Some(k) = sl.iter().position(|&s| bad[s as usize]) {
            return Ok(Some(pos + k as u128));
        }
        pos += sl.len() as u128;
    }
}

/// Checks whether `word`, started at `start`, is a Hamilton cycle or path of the group
/// ranked by `ranker` (or, in Devil mode, when it has seen every position).
pub fn check(
    word: &Word,
    alpha: &Alphabet,
    start: &Perm,
    ranker: &dyn Ranker,
    mode: Mode,
    ctl: &Control,
) -> Result<Report, Interrupt> {
    run(word, alpha, start, ranker, mode, ctl, None)
}

/// A checker for many words over one alphabet: the coordinate tables are built once.
pub struct Checker<'a> {
    /// Walk Hamilton mode in parallel shares, a bitset each (on by default: 1.6-1.8 times
    /// the sequential walk on 2 cores, benches/results.md; a repeat found by a share is
    /// located again by the sequential walk).
    pub parallel: bool,
    alpha: &'a Alphabet,
    ranker: &'a dyn Ranker,
    coords: Option<Coords>,
}

impl<'a> Checker<'a> {
    /// Builds the tables for the group generated by the alphabet's letters that are in the
    /// ranker's group (`None` inside when they cannot be built: the ranker is used per step).
    pub fn new(
        alpha: &'a Alphabet,
        ranker: &'a dyn Ranker,
        ctl: &Control,
    ) -> Result<Checker<'a>, Interrupt> {
        let size = ranker.size().unwrap_or(u64::MAX);
        let degree = alpha.perms.first().map_or(0, |p| p.degree());
        let perms: Vec<Perm> = alpha
            .perms
            .iter()
            .map(|p| {
                if ranker.rank(p).is_some() {
                    p.clone()
                } else {
                    Perm::identity(degree)
                }
            })
            .collect();
        let max_space = (ctl.memory_limit.saturating_mul(8)).min(size.saturating_mul(64));
        let coords = match Coords::new(perms, degree, 1 << 25, max_space.max(1), ctl) {
            Ok(c) => Some(c),
            Err(crate::coords::CoordsError::Interrupt(i)) => return Err(i),
            Err(_) => None,
        };
        Ok(Checker {
            parallel: true,
            alpha,
            ranker,
            coords,
        })
    }

    /// A checker on coordinates already built for all of the alphabet's letters (all in
    /// the ranker's group).
    pub fn with_coords(alpha: &'a Alphabet, ranker: &'a dyn Ranker, coords: Coords) -> Checker<'a> {
        Checker {
            parallel: true,
            alpha,
            ranker,
            coords: Some(coords),
        }
    }

    /// [`check`] with the prepared tables.
    pub fn check(
        &self,
        word: &Word,
        start: &Perm,
        mode: Mode,
        ctl: &Control,
    ) -> Result<Report, Interrupt> {
        run(word, self.alpha, start, self.ranker, mode, ctl, Some(self))
    }
}

fn run(
    word: &Word,
    alpha: &Alphabet,
    start: &Perm,
    ranker: &dyn Ranker,
    mode: Mode,
    ctl: &Control,
    pre: Option<&Checker>,
) -> Result<Report, Interrupt> {
    let size = match ranker.size() {
        Some(s) => s,
        None => {
            return Err(Interrupt::TooLarge {
                what: "a bitset of more than 2^64 positions".into(),
                needed: u64::MAX,
                available: ctl.memory_limit,
            })
        }
    };
    let steps = word.len();
    let mut report = Report {
        kind: Kind::Neither,
        steps,
        group_size: size,
        visited: 0,
        first_repeat: None,
        all_seen_at: None,
        missing: size,
        leaves_group: None,
    };
    if ranker.rank(start).is_none() {
        report.leaves_group = Some(Leave {
            index: 0,
            frames: vec![],
        });
        return Ok(report);
    }
    let timing = std::env::var_os("PUZ_HAMILTON_TIMING").is_some();
    let t0 = std::time::Instant::now();
    let compiled = match pre {
        Some(_) => Compiled::with_alphabet_slots(word, alpha),
        None => Compiled::new(word, alpha),
    };
    if timing {
        eprintln!(
            "check: compiled {} nodes in {:.3?}",
            compiled.nodes(),
            t0.elapsed()
        );
    }
    let degree = start.degree();
    let bad: Vec<bool> = compiled
        .letters
        .iter()
        .map(|&l| ranker.rank(&alpha.perms[l as usize]).is_none())
        .collect();
    let mut len = steps;
    if bad.iter().any(|&b| b) {
        if let Some(k) = first_bad(&compiled, &bad, ctl)? {
            let frames = word.locate(alpha, k).map(|f| f.0).unwrap_or_default();
            report.leaves_group = Some(Leave {
                index: k + 1,
                frames,
            });
            len = k;
        }
    }
    if mode == Mode::Hamilton {
        len = len.min(size as u128);
    }
    // Bad letters are never walked: give them the identity so they do not enlarge orbits.
    let perms: Vec<Perm> = compiled
        .letters
        .iter()
        .zip(&bad)
        .map(|(&l, &b)| {
            if b {
                Perm::identity(degree)
            } else {
                alpha.perms[l as usize].clone()
            }
        })
        .collect();
    let max_space = (ctl.memory_limit.saturating_mul(8)).min(size.saturating_mul(64));
    let built;
    let coords = match pre {
        Some(c) => c.coords.as_ref(),
        None => {
            built = Coords::new(perms.clone(), degree, 1 << 25, max_space.max(1), ctl).ok();
            built.as_ref()
        }
    };
    // `dispatch` walks by rank (over the whole group) when the coordinates need more
    // blocks than it has steppers for: reserve for the bitset it will allocate.
    let space = coords
        .filter(|c| (1..=MAX_BLOCKS).contains(&c.blocks()))
        .map_or(size, |c| c.space);
    ctl.reserve(&format!("a bitset of {space} positions"), space.div_ceil(8))?;
    let w = Walk {
        parallel: pre.is_none_or(|c| c.parallel),
        start,
        compiled: &compiled,
        perms: &perms,
        ctl,
        len,
    };
    let t1 = std::time::Instant::now();
    let found = dispatch(&w, coords, ranker, size, mode)?;
    if timing {
        eprintln!("check: walked in {:.3?}", t1.elapsed());
    }
    report.visited = found.visited;
    report.missing = size - found.visited.min(size);
    report.all_seen_at = found.all_seen_at;
    let closes = |r: &(u128, u128)| r.0 == steps && r.1 == 0 && steps == size as u128;
    if report.leaves_group.is_none() {
        match &found.repeat {
            None if len == steps && steps + 1 == size as u128 => report.kind = Kind::Path,
            Some(r) if closes(r) && found.visited == size => report.kind = Kind::Cycle,
            _ => {}
        }
    }
    if let Some(r) = found.repeat {
        if report.kind != Kind::Cycle {
            let prefix = compiled.prefix_perms(&perms, degree, &[r.0]);
            let (frames, letter) = word
                .locate(alpha, r.0 - 1)
                .expect("a repeat follows a letter");
            report.first_repeat = Some(Repeat {
                index: r.0,
                repeats: r.1,
                position: start.then(&prefix[0]),
                frames,
                letter,
            });
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use puz_testkit::{cycles::*, notation::*, rankers::*};

    fn six(moves: &[&str]) -> (Alphabet, EnumRanker) {
        let a = alphabet(&six_piece(), moves);
        let r = EnumRanker::new(&a.perms);
        (a, r)
    }

    #[test]
    fn jaaps_60_cycle_on_the_six_piece_puzzle() {
        let (a, r) = six(&["R", "L"]);
        let w = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let id = Perm::identity(6);
        let rep = check(&w, &a, &id, &r, Mode::Hamilton, &Control::default()).unwrap();
        assert_eq!(rep.kind, Kind::Cycle);
        assert_eq!(
            (rep.steps, rep.group_size, rep.visited, rep.missing),
            (60, 60, 60, 0)
        );
        assert!(rep.first_repeat.is_none());
        // A rotation is a cycle too, from any start; without its last letter it is a path.
        let rot = parse(&a, "(LRRL'RRLRRLR'R')5", &[]);
        let x = r.unrank(17);
        assert_eq!(
            check(&rot, &a, &x, &r, Mode::Hamilton, &Control::default())
                .unwrap()
                .kind,
            Kind::Cycle
        );
        let path = parse(&a, "(LRRL'RRLRRLR'R')4 LRRL'RRLRRLR'", &[]);
        assert_eq!(
            check(&path, &a, &x, &r, Mode::Hamilton, &Control::default())
                .unwrap()
                .kind,
            Kind::Path
        );
    }

    #[test]
    fn a_repeat_is_located_in_the_users_macros() {
        let (a, r) = six(&["R", "L"]);
        let x = Word::named("X", parse(&a, "R'R'LRRL'RRLRRL", &[]));
        // X^5 then one more X: the first repeat is position 61 (= position 1).
        let w = Word::seq(vec![x.clone().pow(5), x.clone()]);
        let id = Perm::identity(6);
        let rep = check(&w, &a, &id, &r, Mode::Hamilton, &Control::default()).unwrap();
        assert_eq!(rep.kind, Kind::Neither);
        let f = rep.first_repeat.unwrap();
        assert_eq!((f.index, f.repeats), (60, 0));
        assert_eq!(f.frames[0], Frame::Item { i: 1, n: 2 });
        assert_eq!(f.frames[1], Frame::Repeat { k: 5, n: 5 });
        assert_eq!(f.frames[2], Frame::Named("X".into()));
        assert_eq!(rep.visited, 60);
        // X L L: found where a naive walk finds it.
        let w = Word::seq(vec![x.clone(), parse(&a, "L L'", &[])]);
        let f = check(&w, &a, &id, &r, Mode::Hamilton, &Control::default())
            .unwrap()
            .first_repeat
            .unwrap();
        let (j, i) = naive(&w, &a, &id).0.unwrap();
        assert_eq!((f.index, f.repeats), (j, i));
        assert_eq!(f.letter, w.letters(&a)[j as usize - 1]);
        assert_eq!(
            f.position,
            w.letters(&a)[..j as usize]
                .iter()
                .fold(id.clone(), |p, &l| p.then(&a.perms[l as usize]))
        );
    }

    /// The first repeat (second index, first index) and the distinct count, by brute force.
    fn naive(w: &Word, a: &Alphabet, start: &Perm) -> (Option<(u128, u128)>, usize) {
        let mut seen = std::collections::HashMap::new();
        let mut p = start.clone();
        seen.insert(p.clone(), 0u128);
        let mut first = None;
        for (k, l) in w.letters(a).into_iter().enumerate() {
            p = p.then(&a.perms[l as usize]);
            let k = k as u128 + 1;
            if let Some(&i) = seen.get(&p) {
                first.get_or_insert((k, i));
            } else {
                seen.insert(p.clone(), k);
            }
        }
        (first, seen.len())
    }

    #[test]
    fn the_ranker_fallback_agrees_with_coordinates() {
        // Without coordinate tables the checker ranks every position with the Ranker.
        let (a, r) = six(&["R", "L", "U"]);
        let plain = Checker {
            parallel: false,
            alpha: &a,
            ranker: &r,
            coords: None,
        };
        let ctl = Control::default();
        let id = Perm::identity(6);
        let c = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let steps = vec![
            crate::coset::Step {
                h: a.index("R").unwrap(),
                g: a.index("U").unwrap()
            };
            4
        ];
        let mut steps = steps;
        steps.push(crate::coset::Step {
            h: a.index("L").unwrap(),
            g: a.index("U").unwrap(),
        });
        let w = crate::coset::coset_splice(&c, &a, &steps, true).unwrap();
        for word in [
            w.clone(),
            Word::seq(vec![w.clone(), Word::Letter(0)]),
            c.clone(),
        ] {
            for mode in [Mode::Hamilton, Mode::Devil] {
                assert_eq!(
                    plain.check(&word, &id, mode, &ctl).unwrap(),
                    check(&word, &a, &id, &r, mode, &ctl).unwrap()
                );
            }
        }
        assert_eq!(
            plain.check(&w, &id, Mode::Hamilton, &ctl).unwrap().kind,
            Kind::Path
        );
    }

    use proptest::prelude::*;
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn agrees_with_a_naive_walk(seed in proptest::collection::vec(0u32..4, 1..12), reps in 1u64..40, start in 0u64..60) {
            let (a, r) = six(&["R", "L"]);
            let inner = Word::seq(seed.iter().map(|&l| Word::Letter(l)).collect());
            let w = Word::seq(vec![Word::named("A", inner.clone()).pow(reps as i64), inner.inverse()]);
            let x = r.unrank(start);
            let rep = check(&w, &a, &x, &r, Mode::Devil, &Control::default()).unwrap();
            let (first, distinct) = naive(&w, &a, &x);
            prop_assert_eq!(rep.visited as usize, distinct);
            prop_assert_eq!(rep.first_repeat.map(|f| (f.index, f.repeats)), first);
            let h = check(&w, &a, &x, &r, Mode::Hamilton, &Control::default()).unwrap();
            if let Some(f) = h.first_repeat { prop_assert_eq!(Some((f.index, f.repeats)), first); }
        }
    }

    #[test]
    fn devil_mode_counts_and_leaving_the_group_is_found() {
        let (a, r) = six(&["R", "L"]);
        let id = Perm::identity(6);
        let w = parse(&a, "(R'R'LRRL'RRLRRL)5 (R'R'LRRL'RRLRRL)5", &[]);
        let rep = check(&w, &a, &id, &r, Mode::Devil, &Control::default()).unwrap();
        assert_eq!(
            (rep.visited, rep.all_seen_at, rep.missing),
            (60, Some(59), 0)
        );
        assert_eq!(rep.first_repeat.as_ref().unwrap().index, 60);
        // With U, which is not in <L,R>: the walk stops where it leaves.
        let (a3, _) = six(&["R", "L", "U"]);
        let w = Word::seq(vec![
            parse(&a3, "R L R", &[]),
            Word::named("M", parse(&a3, "L U", &[])),
        ]);
        let rep = check(&w, &a3, &id, &r, Mode::Devil, &Control::default()).unwrap();
        let leave = rep.leaves_group.unwrap();
        assert_eq!(leave.index, 5);
        assert_eq!(
            leave.frames,
            vec![
                Frame::Item { i: 2, n: 2 },
                Frame::Named("M".into()),
                Frame::Item { i: 2, n: 2 }
            ]
        );
        assert_eq!(rep.visited, 5);
        // A start outside the group.
        let u = a3.perms[a3.index("U").unwrap() as usize].clone();
        let rep = check(&w, &a3, &u, &r, Mode::Hamilton, &Control::default()).unwrap();
        assert_eq!(rep.leaves_group.unwrap().index, 0);
    }

    #[test]
    fn a_too_large_bitset_is_refused_with_its_figure() {
        let (a, r) = six(&["R", "L"]);
        let mut ctl = Control::default();
        ctl.memory_limit = 4;
        let w = parse(&a, "(R'R'LRRL'RRLRRL)5", &[]);
        let e = check(&w, &a, &Perm::identity(6), &r, Mode::Hamilton, &ctl).unwrap_err();
        assert!(matches!(e, Interrupt::TooLarge { needed: 8, .. }), "{e:?}");
        assert!(e.to_string().starts_with("a bitset of 60 positions"), "{e}");
    }
}
