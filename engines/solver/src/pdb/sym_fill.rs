//! The fill of a [`Coords`] table reduced by symmetries ([`super::symmetric`]):
//! breadth-first on its entries (nibbles like [`super::coord_fill`], or pairs: the codes
//! of `pairs.rs`, see [`Entries`]), a block being a class (every
//! rest value beside its representative key). A letter sends the representative to one
//! key, whose class and symmetry are found once per block; each entry's rest is moved by
//! the rest parts' move tables and carried by that symmetry. A pushed entry also sets the
//! entries its class's stabiliser makes of it (they hold the same tuples' class, see
//! `symmetric.rs`); a pulled entry is reached by itself, as each of those is.
//!
//! The fill waits on memory: a class's targets are other classes' blocks anywhere in the
//! table. So a class's entries to work on are listed first and its targets' lines asked
//! for one class ahead (while the class before is worked on); then the list is worked
//! letter by letter, without a branch on what a read found, so the reads of one letter
//! are all in flight together. The work on one class is in `sym_fill_class.rs`.
//!
//! A pulled entry stops at its first letter that hits, so the letters go in order of how
//! many entries of the level their target blocks hold (counted once a level, a share of
//! 255 a class), and a block without any is not read at all. The entries no letter
//! reaches try every letter. (On the 3x3x3's last htm level the shares are alike: an
//! entry reached takes 3.5 letters, what the level's share of 29% gives by chance, and
//! counting per run of the rest's last part instead of per class changed nothing.)
//!
//! A pulled level of pairs reads the level it pulls from as bits
//! ([`super::level_bits`], made before the level when memory allows): a read is then
//! one byte's bit, not a split of the target's offset and two bits of a byte. Its
//! classes' first letters, while their sources hold fewer entries at the level than the
//! class has left unreached, are gathered from those bits instead (`sym_fill_gather.rs`).
//!
//! A pushed level of pairs with many entries (one in [`GATHER_SPARSEST`] or more) goes by
//! target class instead, from its entries listed (`sym_fill_gather.rs`), when memory
//! allows: each block is then written by one thread, once, from bits in its cache. A
//! sparser pushed level records the entries it sets (`sym_fill_record.rs`), so that the
//! level after finds them listed instead of by a pass over the whole table. One level
//! over a range of classes is in `sym_fill_level.rs`.
//!
//! A fill of pairs chooses its base and may leave out its last level as
//! [`super::pairs_levels`] says; the sample it goes by is drawn in `sym_fill_sample.rs`.
//! The shares of each class at a pulled level (which order a class's letters) are counted
//! in `sym_fill_shares.rs`, from the level's bits when it is held as bits.

use super::coord_fill::{backward, levels};
use super::coords::{Coords, MAX_PARTS};
use super::entries::{Entries, Nibbles, Pairs};
use super::level_bits::LevelBits;
use super::meter::Meter;
use super::pairs;
use super::pairs_levels::{Base, SAMPLE_CLASSES};
use super::sym_rest::{self, PartsNext, MAX_NEXT};
use super::symmetric::Reduction;
use crate::bigbuf::BigBuf;
use crate::error::SolveError;
use crate::model::{Action, Model};
use class::whole_blocks;
use gather::{Lists, Sources};
use record::Record;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// A set of classes, shared by the threads of a level.
struct Marks(Vec<AtomicU64>);

impl Marks {
    fn new(n: u64, all: bool) -> Marks {
        let fill = if all { u64::MAX } else { 0 };
        Marks((0..n.div_ceil(64)).map(|_| AtomicU64::new(fill)).collect())
    }
    #[inline]
    fn has(&self, c: u64) -> bool {
        self.0[(c / 64) as usize].load(Relaxed) >> (c % 64) & 1 == 1
    }
    #[inline]
    fn add(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_or(1 << (c % 64), Relaxed);
    }
    fn clear(&self) {
        for w in &self.0 {
            w.store(0, Relaxed);
        }
    }
    #[inline]
    fn remove(&self, c: u64) {
        self.0[(c / 64) as usize].fetch_and(!(1 << (c % 64)), Relaxed);
    }
}

/// What a fill works with (`E`: the table's entries).
struct Fill<'a, E> {
    red: &'a Reduction,
    letters: usize,
    /// Per part: where each letter sends each value, and where it comes from.
    fwd: Vec<Vec<u32>>,
    back: Vec<Vec<u32>>,
    /// Forward and back: `next[(l * syms + s) * rest + r]`, the rest `r` moved by letter
    /// `l` and carried by symmetry `s` (when small enough, else computed each time).
    next: Option<[Vec<u32>; 2]>,
    /// Forward and back: the same by parts, when `next` is not tabulated.
    parts_next: Option<[PartsNext; 2]>,
    /// A pulled class's first letters are gathered while their sources' entries, times
    /// this, are fewer than its unreached (see [`Aid`]).
    gather_weight: f64,
    /// Whether a pulled level read as bits goes a class's runs at a time in vectors
    /// (`sym_fill_runs.rs`), where they fit.
    vectors: bool,
    entries: std::marker::PhantomData<E>,
}

/// Where a letter sends a class's representative: the first entry of its class, the
/// symmetry taking it there, and the stabiliser of that class.
#[derive(Clone, Copy, Default)]
struct Target {
    base: u64,
    sym: usize,
    stab: u64,
}

impl<E: Entries> Fill<'_, E> {
    /// Sets entry `j` and the entries its class's stabiliser makes of it to `lv.new`
    /// (level `lv.d + 1`); how many were unreached.
    /// The entries set are added to `set` when the level keeps a record.
    fn push(&self, lv: &Level, to: &Target, r: u64, set: &mut Vec<u64>) -> u64 {
        let (t, code, d) = (lv.t, lv.new, lv.d + 1);
        let mut n = 0;
        let keep = lv.record.is_some();
        // The filter just read the entry unreached: set it straight away (another thread
        // that set it meanwhile sets its stabiliser's images too).
        if E::set(t, to.base + r, code, d) {
            n += 1;
            if keep {
                set.push(to.base + r);
            }
            let mut m = to.stab;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let j = to.base + self.red.conj_rest(r, s);
                if E::get(t, j) == E::UNREACHED && E::set(t, j, code, d) {
                    n += 1;
                    if keep {
                        set.push(j);
                    }
                }
            }
        }
        n
    }

    /// Per letter, where `moves` send the representative of `class` (see [`Target`]).
    fn targets(&self, class: u64, moves: &[Vec<u32>], to: &mut [Target]) {
        let red = self.red;
        let (key_parts, _) = red.split();
        let l_n = self.letters;
        let mut v = [0u32; MAX_PARTS];
        red.key_values(red.rep(class).0, &mut v);
        for (l, target) in to.iter_mut().enumerate() {
            let mut w = v;
            for &p in key_parts {
                w[p] = moves[p][v[p] as usize * l_n + l];
            }
            let (c2, s2) = red.class_of(red.key_of(&w));
            *target = Target {
                base: c2 * red.rest_size,
                sym: s2,
                stab: red.rep(c2).1,
            };
        }
    }

    /// `lv` with the letters forward, as a push goes.
    fn forward<'b>(&'b self, lv: &Level<'b>) -> Level<'b> {
        Level {
            moves: &self.fwd,
            next: self.next.as_ref().map(|n| &n[0]),
            parts_next: self.parts_next.as_ref().map(|n| &n[0]),
            ..*lv
        }
    }

    /// Asks for the lines the entries `list` of a class lead to: whole blocks when the
    /// list is long, else each target line alone.
    fn prefetch_targets(&self, lv: &Level, list: &[u32], to: &[Target]) {
        let rest = self.red.rest_size;
        if whole_blocks(list.len(), rest) {
            for target in to {
                E::prefetch(lv.t, target.base, rest);
            }
            return;
        }
        for (l, target) in to.iter().enumerate() {
            for &r in list {
                let r2 = self.rest_to(lv, l, target.sym, r as u64);
                E::prefetch(lv.t, target.base + r2, 1);
            }
        }
    }

    /// The row of [`Fill::next`] for letter `l` and symmetry `sym`, when tabulated.
    #[inline(always)]
    fn row<'b>(&self, lv: &Level<'b>, l: usize, sym: usize) -> Option<&'b [u32]> {
        let rest = self.red.rest_size as usize;
        lv.next
            .map(|nx| &nx[(l * self.red.syms + sym) * rest..][..rest])
    }

    /// Where letter `l` sends rest value `r`, carried by `sym` (from its row of
    /// [`Fill::next`] when tabulated).
    #[inline(always)]
    fn rest_to(&self, lv: &Level, l: usize, sym: usize, r: u64) -> u64 {
        if let Some(row) = self.row(lv, l, sym) {
            return row[r as usize] as u64;
        }
        if let Some(pn) = lv.parts_next {
            return pn.to(l, sym, self.red.syms, r as u32);
        }
        let red = self.red;
        let mut v = [0u32; MAX_PARTS];
        red.rest_values(r, &mut v);
        let mut w = v;
        for &p in red.split().1 {
            w[p] = lv.moves[p][v[p] as usize * self.letters + l];
        }
        red.conj_rest_values(&w, sym)
    }
}

/// A pulled class's letters in the order it tries them, as `(share, letter, 0)` (see
/// [`Fill::order_letters`]; the last field is the letter's target run once placed).
type Letters = Vec<(u8, usize, u64)>;

/// What every class of one level works with (see [`Fill::level`]).
#[derive(Clone, Copy)]
struct Level<'a> {
    t: &'a [AtomicU8],
    /// The level, the code of its entries and the code of the next level's.
    d: u8,
    at: u8,
    new: u8,
    cost: &'a [u32],
    unit: bool,
    moves: &'a [Vec<u32>],
    next: Option<&'a Vec<u32>>,
    parts_next: Option<&'a PartsNext>,
    /// Per class, the share of its entries at `d` (when a pull orders its letters).
    density: Option<&'a [AtomicU8]>,
    /// The entries at `d` as bits (a pulled level of pairs, when memory allows).
    bits: Option<&'a LevelBits>,
    /// The ways into each class, with `bits`: a pulled class's first letters are
    /// gathered (see [`Fill::gather_first`]).
    ways: Option<&'a Sources>,
    /// A sparse pushed level: its entries at `d` listed (from the record of the level
    /// before), and the record of the entries it sets, when kept (`sym_fill_record.rs`).
    listed: Option<&'a Lists>,
    record: Option<&'a Record>,
}

/// Fills the reduced table of `c` with the distances from the solved entry: in nibbles,
/// 15 standing for 15 or more and for entries no position has; in pairs (`c.pairs`) as
/// `pairs.rs` says.
pub(super) fn fill_symmetric(
    model: &Model,
    c: &Coords,
    actions: &[Action],
    cost: &[u32],
    meter: &Meter,
) -> Result<BigBuf, SolveError> {
    let how = (Tabulate::Whole, Aid::Memory(GATHER_WEIGHT));
    if c.pairs {
        fill::<Pairs>(model, c, actions, cost, meter, how, Base::Rule)
    } else {
        fill::<Nibbles>(model, c, actions, cost, meter, how, Base::Rule)
    }
}

/// Whether a fill of pairs uses memory beside the table, when it allows: a pulled level
/// read as bits, a pulled class's first letters gathered (while a gathered entry costs
/// less than a pulled read, by the weight: what a gathered entry costs against a pulled
/// read), a pushed level with many entries gathered from lists. Else every level goes
/// class by class over the table alone.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Aid {
    No,
    Memory(f64),
    /// As `Memory`, a pulled level's runs never in vectors (tests of the entry by entry
    /// pull on processors with them).
    #[cfg(test)]
    Entrywise(f64),
}

/// What a gathered entry costs against a pulled read (see [`Aid`]): a pulled class's
/// letter is gathered while its source's entries at the level, times this, are fewer than
/// the class's entries left unreached.
const GATHER_WEIGHT: f64 = 1.0;

/// How a fill finds where a letter sends a rest value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tabulate {
    /// From [`Fill::next`] when small enough, else from [`PartsNext`] when small enough,
    /// else computed each time.
    Whole,
    /// From [`PartsNext`] when small enough (tests of that path on small tables).
    #[cfg(test)]
    Parts,
    /// Computed each time (tests of that path).
    No,
}

/// [`fill_symmetric`] in entries `E`, the rest's moves tabulated as `tabulate` says, and
/// for pairs the base chosen as `when` says, and aided as `aid` says. Costs other than 1
/// need nibbles.
fn fill<E: Entries>(
    model: &Model,
    c: &Coords,
    actions: &[Action],
    cost: &[u32],
    meter: &Meter,
    (tabulate, aid): (Tabulate, Aid),
    when: Base,
) -> Result<BigBuf, SolveError> {
    let red = c.sym.as_deref().expect("a table reduced by symmetries");
    // The table's size and its codes follow `c.pairs`: `E` must agree.
    assert_eq!(E::PAIRS, c.pairs, "entries of the table's kind");
    assert!(
        !E::PAIRS || cost.iter().all(|&x| x == 1),
        "pairs need unit costs"
    );
    let letters = actions.len();
    let moves_bytes: u64 = c.sizes.iter().map(|s| 8 * s * letters as u64).sum();
    // Either way of tabulating the rest's moves takes at most MAX_NEXT entries each way.
    let next = red.rest_size * red.syms as u64 * letters as u64;
    let next_bytes = match tabulate {
        Tabulate::No => 0,
        _ => 8 * next.min(MAX_NEXT),
    };
    let needs = c.bytes() + moves_bytes + next_bytes;
    meter.ctl.reserve(
        "a pattern database reduced by symmetries (and its move tables)",
        needs,
    )?;
    let fwd = c.move_tables(model, actions);
    let back = backward(&fwd, letters);
    let mut f = Fill::<E> {
        red,
        letters,
        fwd,
        back,
        next: None,
        parts_next: None,
        gather_weight: match aid {
            Aid::Memory(w) => w,
            #[cfg(test)]
            Aid::Entrywise(w) => w,
            Aid::No => 0.0,
        },
        vectors: matches!(aid, Aid::Memory(_)) && runs::available(),
        entries: std::marker::PhantomData,
    };
    if tabulate == Tabulate::Whole {
        f.next = sym_rest::whole(red, [&f.fwd, &f.back], letters);
    }
    if tabulate != Tabulate::No && f.next.is_none() {
        f.parts_next = sym_rest::by_parts(red, [&f.fwd, &f.back], letters);
    }
    let mut buf = BigBuf::new(c.bytes() as usize, 0xff);
    let t = buf.as_atomic();
    // The solved entry and the entries its class's stabiliser makes of it.
    let solved = c.index(&model.solved());
    let (class, rest) = (solved / red.rest_size, solved % red.rest_size);
    E::set(t, solved, 0, 0);
    let mut filled = 1u64;
    let mut m = red.rep(class).1;
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        m &= m - 1;
        let j = class * red.rest_size + red.conj_rest(rest, s);
        if E::get(t, j) == E::UNREACHED {
            filled += E::set(t, j, 0, 0) as u64;
        }
    }
    // The classes holding the frontier and those reached by the level under way,
    // alternately (by the parity of the level).
    let open = Marks::new(red.classes, true);
    let marks = [
        Marks::new(red.classes, false),
        Marks::new(red.classes, false),
    ];
    marks[0].add(class);
    // Pairs: the base once chosen, and the last level begun.
    let base = AtomicU8::new(u8::MAX);
    let mut top = 0;
    let codes = |d: u8| match base.load(Relaxed) {
        _ if !E::PAIRS => (d, d + 1),
        u8::MAX => (d % 3, (d + 1) % 3),
        b => (d - b, d - b + 1),
    };
    // Per class, how many of its entries are at the level being pulled from (a share of
    // 255): a pulled class tries first the letters whose target blocks hold most.
    let unit = cost.iter().all(|&x| x == 1);
    let density: Vec<AtomicU8> = (0..red.classes).map(|_| AtomicU8::new(0)).collect();
    // A pulled level of pairs read by runs reads its entries at `d` as bits, when memory
    // allows (the process's limit holding the fill's other memory too).
    let bits: std::sync::Mutex<Option<std::sync::Arc<LevelBits>>> = Default::default();
    // A pushed level of pairs goes by target class, from its entries listed, when they
    // are many and memory allows the lists and the ways into each class.
    // (A level gathered lists the entries it sets when the next level looks gathered too:
    // that level then needs no pass over the table to list them.)
    let lists: std::sync::Mutex<Option<std::sync::Arc<Lists>>> = Default::default();
    let ahead: std::sync::Mutex<Option<std::sync::Arc<Lists>>> = Default::default();
    let sources: std::sync::OnceLock<Sources> = Default::default();
    // A sparse pushed level records the entries it sets when memory allows, and the level
    // after reads them listed (`sym_fill_record.rs`).
    let record: std::sync::Mutex<Option<std::sync::Arc<Record>>> = Default::default();
    let sparse: std::sync::Mutex<Option<std::sync::Arc<Lists>>> = Default::default();
    let sources_bytes = Sources::bytes(red.classes, letters);
    let fits = |what: &str, bytes: u64| {
        aid != Aid::No
            && needs + bytes <= meter.ctl.memory_limit
            && meter.ctl.reserve(what, bytes).is_ok()
    };
    let before = |d: u8, filled: u64, frontier: u64, last: u64, pull: bool| {
        marks[(d as usize + 1) % 2].clear();
        top = d;
        let go = if !E::PAIRS {
            true
        } else {
            match base.load(Relaxed) {
                u8::MAX if when.now(d, filled, frontier, last, c.size) => {
                    pairs::to_base(t, c.size, d);
                    base.store(d, Relaxed);
                    // Whether the last level will be left out, foreseen two levels ahead
                    // by the same rule: its entries then count as done from now on, so
                    // that the time left is not foretold for entries never worked on.
                    // (Only for a progress someone reads: the sample's reads are many.)
                    let (mut drawn, mut past1) = (0, 0);
                    let foreseen = meter.ctl.reporting()
                        && when.leaves_out_last(|| {
                            let two = (SAMPLE_CLASSES / 4, true);
                            let (n, p1, p2) = f.sample((t, 0, cost), two, meter.ctl);
                            (drawn, past1) = (n, p1);
                            (p1, p2)
                        });
                    if foreseen && drawn > 0 {
                        meter.settle_ahead((c.size - filled) * past1 / drawn);
                        meter.last_level();
                    }
                    true
                }
                u8::MAX => true,
                // The last level, left out when the entries past it are few: the rest
                // reads base + 2.
                b if d == b + 1
                    && when.leaves_out_last(|| {
                        let one = (SAMPLE_CLASSES, false);
                        let (n, past, _) = f.sample((t, codes(d).0, cost), one, meter.ctl);
                        (n, past)
                    }) =>
                {
                    pairs::cap(t, c.size);
                    false
                }
                // Kept after all: its entries are to be worked on, and it is the last.
                b if d == b + 1 => {
                    meter.settle_ahead(0);
                    meter.last_level();
                    true
                }
                // Two levels after the base: the rest is base + 3 or more.
                b => d < b + 2,
            }
        };
        let mut held = bits.lock().unwrap_or_else(|e| e.into_inner());
        let mut listed = lists.lock().unwrap_or_else(|e| e.into_inner());
        let mut next = ahead.lock().unwrap_or_else(|e| e.into_inner());
        // The entries of `d` listed by the level before, if it did and found room, or
        // recorded by it.
        let emitted = next.take().filter(|l| l.whole());
        let recorded = record
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .and_then(|r| std::sync::Arc::try_unwrap(r).ok())
            .filter(|_| go && unit && E::PAIRS && !pull)
            .and_then(|r| r.into_lists(red.rest_size, red.classes))
            .map(std::sync::Arc::new);
        let mut sparse_now = sparse.lock().unwrap_or_else(|e| e.into_inner());
        *sparse_now = None;
        // What the level before held: its memory may serve this level's bits.
        let mut spent = (held.take(), listed.take());
        let gathered = |n: u64| n.saturating_mul(GATHER_SPARSEST) >= c.size;
        // The next level's entries, foreseen from the growth of this one.
        let foreseen = frontier.saturating_mul(frontier) / last.max(1);
        if go && unit && E::PAIRS {
            if pull && f.pulls_by_runs() {
                if fits("a level's entries as bits", LevelBits::bytes(c.size)) {
                    let spare = match std::mem::take(&mut spent) {
                        (_, Some(l)) => std::sync::Arc::try_unwrap(l).ok().map(Lists::into_buf),
                        (Some(b), None) => {
                            std::sync::Arc::try_unwrap(b).ok().map(LevelBits::into_buf)
                        }
                        (None, None) => None,
                    };
                    let mut bits = LevelBits::of(t, c.size, codes(d).0, spare);
                    // Pulled across its runs: each block's bits turned.
                    if let Some(a) = f.across() {
                        bits.transpose_blocks(red.classes, a.p as u64, a.n as u64, meter.ctl);
                    }
                    *held = Some(std::sync::Arc::new(bits));
                    // With the ways into each class, a class's first letters gathered.
                    let bytes = LevelBits::bytes(c.size) + sources_bytes;
                    if sources.get().is_some() || fits("the ways into each class", bytes) {
                        sources.get_or_init(|| f.sources());
                    }
                }
            } else if !pull && gathered(frontier) {
                // Let go before the lists are made.
                drop(std::mem::take(&mut spent));
                let bytes = Lists::bytes(frontier, red.classes) + sources_bytes;
                if emitted.is_some() || fits("a level's entries listed", bytes) {
                    sources.get_or_init(|| f.sources());
                    let at = &marks[d as usize % 2];
                    let now = emitted.or(recorded).unwrap_or_else(|| {
                        let of = (t, codes(d).0, frontier);
                        std::sync::Arc::new(f.lists(of, at, meter.ctl))
                    });
                    // Lists from the table that found no room are left (pushed instead).
                    *listed = Some(now).filter(|l| l.whole());
                    // The next level, when pushed (as `levels` decides) and gathered:
                    // its entries are listed by this one.
                    let unknown = c.size.saturating_sub(filled + foreseen);
                    let more = Lists::bytes(foreseen, red.classes);
                    if listed.is_some()
                        && 4 * foreseen <= unknown
                        && gathered(foreseen)
                        && fits("the next level's entries listed", bytes + more)
                    {
                        *next = Some(std::sync::Arc::new(Lists::empty(foreseen, red.classes)));
                    }
                }
            } else if !pull {
                // Sparse: its entries from the record of the level before, and its own
                // recorded for the level after.
                *sparse_now = recorded;
                let room = foreseen.saturating_mul(2).saturating_add(RECORD_SLACK);
                if room <= RECORD_MOST && fits("a level's entries recorded", Record::bytes(room)) {
                    *record.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(std::sync::Arc::new(Record::new(room)));
                }
            }
        }
        if go && pull && unit {
            let at_d = match held.as_deref() {
                Some(bits) => AtD::Bits(bits),
                None => AtD::Code(t, codes(d).0),
            };
            f.densities(at_d, &marks[d as usize % 2], &density, meter.ctl);
        }
        go
    };
    // Whether a pulled level will go across runs (its bits then fit, see `before`).
    let across = E::PAIRS
        && unit
        && f.pulls_by_runs()
        && f.across().is_some()
        && needs + LevelBits::bytes(c.size) <= meter.ctl.memory_limit;
    levels(
        c.size,
        filled,
        cost,
        red.classes,
        red.rest_size,
        meter,
        across,
        before,
        |d, pull, lo, hi| {
            let (at, reached) = (&marks[d as usize % 2], &marks[(d as usize + 1) % 2]);
            let shares = (pull && unit).then_some(&density[..]);
            let held = bits.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let listed = lists.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let next = ahead.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let sparse_lists = sparse.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let recording = record.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let pushed =
                (listed.as_deref().zip(sources.get())).map(|(l, s)| (l, s, next.as_deref()));
            f.level(
                t,
                (d, codes(d)),
                pull,
                cost,
                (shares, held.as_deref(), pushed),
                (sources.get(), sparse_lists.as_deref(), recording.as_deref()),
                (lo, hi),
                (at, &open, reached),
            )
        },
    )?;
    if E::PAIRS && base.load(Relaxed) == u8::MAX {
        // Every level came before a base was chosen: each entry is at most `top + 1`.
        pairs::to_base(t, c.size, top + 1);
    }
    Ok(buf)
}

/// A sparse pushed level's record holds twice the entries foreseen and this many more,
/// and is kept only up to this many (see `sym_fill_record.rs`).
const RECORD_SLACK: u64 = 1 << 16;
const RECORD_MOST: u64 = 1 << 26;

/// A pushed level goes by target class when at least one entry in this many is at the
/// level pushed from (else the class's block, read and written whole, costs more than
/// its few entries found one by one).
const GATHER_SPARSEST: u64 = 4096;

#[path = "sym_fill_class.rs"]
mod class;

#[path = "sym_fill_gather.rs"]
mod gather;

#[path = "sym_fill_level.rs"]
mod level;

#[path = "sym_fill_record.rs"]
mod record;

#[path = "sym_fill_runs.rs"]
mod runs;

#[path = "sym_fill_sample.rs"]
mod sample;

#[path = "sym_fill_shares.rs"]
mod shares;
use shares::AtD;

#[cfg(test)]
#[path = "sym_fill_tests.rs"]
mod tests;
