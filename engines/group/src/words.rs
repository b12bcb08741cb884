//! Move sequences for the coset representatives of a verified chain.
//!
//! 1. Short scrambles: every element of a ball of the Cayley graph, shortest word first, is
//!    sifted; at each level where the word done so far (scramble plus the inverse
//!    representatives used) is shorter than the stored representative, it replaces it
//!    (Minkwitz; the seed's "shortening representatives").
//! 2. Completion, level by level (the seed's Schreier-Sims with words): generators `X_j`
//!    of `G_j` as words give all missing representatives of level `j` by Dijkstra on the orbit
//!    (word length as distance, known representatives as sources); the Schreier generators
//!    `t_β x t_{β^x}^{-1}` of level `j`, shortest first, are kept until they generate `G_{j+1}`
//!    (checked by building their chain up to the known order `|G_{j+1}|`).
//! 3. Shortening: conjugated commutators `A B C B' C' A'` of short words and products of
//!    representatives are sifted the same way.
//!
//! Words are forward: the word of representative `β` at level `j` moves the base point to `β`.

use crate::chain::{self, Chain};
use crate::raw;
use crate::rng::Rng;
use crate::stabilizer;
use num_bigint::BigUint;
use puz_core::{Control, Interrupt};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

/// The alphabet as raw images with inverse letters.
pub struct Letters {
    pub perms: Vec<Vec<u16>>,
    pub inverse: Vec<u32>,
}

/// A group element with a word for it.
#[derive(Clone, Debug)]
pub struct WordPerm {
    pub perm: Vec<u16>,
    pub word: Vec<u32>,
}

/// `table[j][k]`: the word of representative `k` of level `j`, once known.
pub type Table = Vec<Vec<Option<Vec<u32>>>>;

/// How hard to work on words.
pub struct Effort {
    /// Elements of the ball of short scrambles to sift.
    pub ball: usize,
    /// Extra sifts spent on shortening (commutators, products); 0 for none.
    pub shorten: usize,
}

pub(crate) struct Filler<'a> {
    chain: &'a mut Chain,
    letters: &'a Letters,
    table: Table,
    /// Longest word stored for a missing entry.
    cap: usize,
    /// `pool[j]`: a few short elements of `G_j` moving its base point, met while sifting.
    pool: Vec<Vec<WordPerm>>,
    /// Whether sifting still records pool elements (only needed before completion).
    record: bool,
    /// Bytes held beside the table while it is filled (the ball of short scrambles).
    beside: u64,
}

const POOL: usize = 16;

/// A piece of a word: letters, or a representative (possibly inverted) of the table.
enum Seg {
    Letters(Vec<u32>),
    Rep { j: usize, k: usize, inverted: bool },
}

impl<'a> Filler<'a> {
    /// A filler of `chain` whose table knows only each level's identity representative;
    /// words stored for missing entries are at most `cap` long.
    pub(crate) fn new(chain: &'a mut Chain, letters: &'a Letters, cap: usize) -> Filler<'a> {
        let mut table: Table = chain
            .levels
            .iter()
            .map(|l| vec![None; l.orbit.len()])
            .collect();
        for t in table.iter_mut() {
            t[0] = Some(Vec::new());
        }
        let pool = vec![Vec::new(); chain.levels.len()];
        Filler {
            chain,
            letters,
            table,
            cap,
            pool,
            record: true,
            beside: 0,
        }
    }

    /// The chain being filled.
    pub(crate) fn chain(&self) -> &Chain {
        self.chain
    }

    fn missing(&self, j: usize) -> bool {
        self.table[j].iter().any(|w| w.is_none())
    }

    /// The bytes held while filling: the table's words, the pool and what lies beside.
    /// Completion can make each stage's words a few times longer than the last (a
    /// Schreier generator is three words end to end), so what it adds is reserved
    /// against this and the Control's limit first.
    fn held(&self) -> u64 {
        let n = self.chain.n;
        let words = self.table.iter().flatten().flatten();
        let pool = self.pool.iter().flatten();
        self.beside
            + words.map(|w| word_bytes(w.len())).sum::<u64>()
            + pool
                .map(|w| word_bytes(w.word.len()) + perm_bytes(n))
                .sum::<u64>()
    }

    fn seg_len(&self, s: &Seg) -> usize {
        match s {
            Seg::Letters(w) => w.len(),
            Seg::Rep { j, k, .. } => self.table[*j][*k].as_ref().map_or(0, |w| w.len()),
        }
    }

    /// The letters of a word given as segments.
    fn materialize(&self, segs: &[Seg]) -> Vec<u32> {
        let mut out = Vec::with_capacity(segs.iter().map(|s| self.seg_len(s)).sum());
        for s in segs {
            match s {
                Seg::Letters(w) => out.extend_from_slice(w),
                Seg::Rep { j, k, inverted } => {
                    let w = self.table[*j][*k].as_ref().expect("known representative");
                    if *inverted {
                        out.extend(w.iter().rev().map(|&l| self.letters.inverse[l as usize]));
                    } else {
                        out.extend_from_slice(w);
                    }
                }
            }
        }
        out
    }

    /// Sifts `c` (an element of `G_from` with the word `segs`) from level `from`, storing
    /// it where it is shorter than the representative. Words stay segments until stored.
    fn sift(&mut self, mut c: Vec<u16>, mut segs: Vec<Seg>, from: usize) {
        let n = self.chain.n;
        let mut len: usize = segs.iter().map(|s| self.seg_len(s)).sum();
        if len > self.cap {
            return;
        }
        for j in from..self.chain.levels.len() {
            let l = &self.chain.levels[j];
            let k = l.pos[c[l.base] as usize] as usize;
            debug_assert!(k != chain::NONE as usize);
            if k == 0 {
                continue;
            }
            if self.record {
                self.remember(j, &c, len, &segs);
            }
            let l = &self.chain.levels[j];
            match &self.table[j][k] {
                Some(w) if w.len() <= len => {
                    // c lies in G_j, which moves only the level's support.
                    let inv = l.inv_rep(k, n);
                    for &x in &l.support {
                        c[x as usize] = inv[c[x as usize] as usize];
                    }
                    len += w.len();
                    segs.push(Seg::Rep {
                        j,
                        k,
                        inverted: true,
                    });
                    if len > self.cap {
                        return;
                    }
                }
                _ => {
                    let cw = self.materialize(&segs);
                    self.chain.levels[j].set_rep(k, n, &c);
                    self.table[j][k] = Some(cw);
                    return;
                }
            }
        }
    }

    /// Keeps `c` among the shortest elements met at level `j`.
    fn remember(&mut self, j: usize, c: &[u16], len: usize, segs: &[Seg]) {
        let pool = &self.pool[j];
        if pool.len() >= POOL && pool.last().is_some_and(|w| w.word.len() <= len) {
            return;
        }
        if pool.iter().any(|w| w.perm == c) {
            return;
        }
        let word = self.materialize(segs);
        let pool = &mut self.pool[j];
        let at = pool.partition_point(|w| w.word.len() <= len);
        pool.insert(
            at,
            WordPerm {
                perm: c.to_vec(),
                word,
            },
        );
        pool.truncate(POOL);
    }

    /// The short elements met at levels `j..`: all lie in `G_j`.
    fn pool_from(&self, j: usize) -> Vec<WordPerm> {
        let mut out: Vec<WordPerm> = self.pool[j..].iter().flatten().cloned().collect();
        out.sort_by(|a, b| {
            a.word
                .len()
                .cmp(&b.word.len())
                .then_with(|| a.perm.cmp(&b.perm))
        });
        out.dedup_by(|a, b| a.perm == b.perm);
        out
    }

    /// Dijkstra on the orbit of level `j` with generators `xs` of `G_j`, from the known entries.
    pub(crate) fn dijkstra(
        &mut self,
        j: usize,
        xs: &[WordPerm],
        ctl: &Control,
    ) -> Result<(), Interrupt> {
        let n = self.chain.n;
        let size = self.chain.levels[j].orbit.len();
        let mut dist: Vec<usize> = self.table[j]
            .iter()
            .map(|w| w.as_ref().map_or(usize::MAX, |w| w.len()))
            .collect();
        let mut pred: Vec<Option<(usize, usize)>> = vec![None; size];
        let mut heap = BinaryHeap::new();
        for (k, &d) in dist.iter().enumerate() {
            if d != usize::MAX {
                heap.push(Reverse((d, k)));
            }
        }
        let mut order = Vec::new();
        let mut done = vec![false; size];
        while let Some(Reverse((d, k))) = heap.pop() {
            if done[k] || d > dist[k] {
                continue;
            }
            done[k] = true;
            order.push(k);
            let l = &self.chain.levels[j];
            let beta = l.orbit[k] as usize;
            for (xi, x) in xs.iter().enumerate() {
                let c = l.pos[x.perm[beta] as usize] as usize;
                let nd = d + x.word.len();
                if nd < dist[c] {
                    dist[c] = nd;
                    pred[c] = Some((k, xi));
                    heap.push(Reverse((nd, c)));
                }
            }
        }
        let adding: u64 = order
            .iter()
            .filter(|&&k| pred[k].is_some())
            .map(|&k| word_bytes(dist[k]))
            .sum();
        if adding > 0 {
            let longest = order.iter().map(|&k| dist[k]).max().unwrap_or(0);
            let what = format!(
                "writing move sequences for stage {} of {} (up to {longest} moves each)",
                j + 1,
                self.chain.levels.len()
            );
            ctl.reserve(&what, self.held() + adding)?;
        }
        for k in order {
            ctl.check()?;
            if let Some((p, xi)) = pred[k] {
                // Exactly sized: these words are what the reservation counted.
                let parent = self.table[j][p].as_ref().expect("parent settled first");
                let mut w = Vec::with_capacity(dist[k]);
                w.extend_from_slice(parent);
                w.extend_from_slice(&xs[xi].word);
                let perm = raw::then(self.chain.levels[j].rep(p, n), &xs[xi].perm);
                self.chain.levels[j].set_rep(k, n, &perm);
                self.table[j][k] = Some(w);
            }
        }
        Ok(())
    }

    /// The Schreier generators of level `j` (elements of `G_{j+1}`) from generators `xs` of
    /// `G_j` and the (complete) representatives of level `j`, one shortest word per element.
    pub(crate) fn schreier_candidates(
        &self,
        j: usize,
        xs: &[WordPerm],
        ctl: &Control,
    ) -> Result<Vec<WordPerm>, Interrupt> {
        let n = self.chain.n;
        let l = &self.chain.levels[j];
        let mut best: HashMap<Vec<u16>, Vec<u32>> = HashMap::new();
        let generators: u64 = xs.iter().map(|x| word_bytes(x.word.len())).sum();
        let held = self.held() + generators;
        let (mut bytes, mut longest, mut room) = (0u64, 0, 0u64);
        for k in 0..l.orbit.len() {
            ctl.check()?;
            let wk = self.table[j][k].as_ref().expect("level complete");
            let beta = l.orbit[k] as usize;
            for x in xs {
                let c = l.pos[x.perm[beta] as usize] as usize;
                let mut g = raw::then(l.rep(k, n), &x.perm);
                raw::then_assign(&mut g, l.inv_rep(c, n));
                if raw::is_identity(&g) {
                    continue;
                }
                let wc = self.table[j][c].as_ref().expect("level complete");
                let len = wk.len() + x.word.len() + wc.len();
                if best.get(&g).is_some_and(|w| w.len() <= len) {
                    continue;
                }
                bytes += word_bytes(len) + perm_bytes(n);
                longest = longest.max(len);
                let what = || {
                    format!(
                        "finding generators of stage {} of {} as move sequences (up to \
                         {longest} moves each)",
                        j + 2,
                        self.chain.levels.len()
                    )
                };
                ctl.reserve_growing(what, held + bytes, &mut room)?;
                let mut w = Vec::with_capacity(len);
                w.extend_from_slice(wk);
                w.extend_from_slice(&x.word);
                w.extend(wc.iter().rev().map(|&l| self.letters.inverse[l as usize]));
                best.insert(g, w);
            }
        }
        let mut cands: Vec<WordPerm> = best
            .into_iter()
            .map(|(perm, word)| WordPerm { perm, word })
            .collect();
        cands.sort_by(|a, b| {
            a.word
                .len()
                .cmp(&b.word.len())
                .then_with(|| a.perm.cmp(&b.perm))
        });
        Ok(cands)
    }
}

/// Finds words for every representative of `chain` (whose group is generated by `gens`) and
/// makes the representatives the permutations of those words.
pub fn fill(
    chain: &mut Chain,
    letters: &Letters,
    gens: &[WordPerm],
    effort: &Effort,
    ctl: &Control,
) -> Result<Table, Interrupt> {
    let n = chain.n;
    // Sifting stops once the word done so far is this long: longer words would only be
    // replaced later, and the completion step fills whatever is left.
    let cap = 64 * chain.levels.len().max(16);
    let mut f = Filler::new(chain, letters, cap);
    let levels = f.chain.levels.len();
    let steps = with_inverses(gens, letters);
    // 1. The ball of short scrambles, shortest first (at most 64 MiB of them).
    let per = n as u64 * 2 + 64;
    let size = effort.ball.min(((64u64 << 20) / per) as usize);
    ctl.reserve("the ball of short scrambles", 2 * size as u64 * per)?;
    let (ball, bytes) = scramble_ball(&steps, n, size, 64 << 20, ctl)?;
    // The set that found the ball is freed, but its memory mostly stays with the process.
    f.beside = 2 * bytes;
    for w in &ball {
        ctl.check()?;
        f.sift(w.perm.clone(), vec![Seg::Letters(w.word.clone())], 0);
    }
    // The ball held the whole group: every representative is already a shortest word.
    let whole = BigUint::from(ball.len() + 1) == f.chain.order();
    // 2. Products of known representatives (Minkwitz), then completion level by level.
    let points: usize = f.table.iter().map(|t| t.len()).sum();
    if (0..levels).any(|j| f.missing(j)) {
        ctl.progress("words: products of representatives");
        products(&mut f, 4 * points, ctl)?;
    }
    if (0..levels).any(|j| f.missing(j)) {
        let mut xs = steps.clone();
        for j in 0..levels {
            ctl.check()?;
            if j > 0 {
                // Generators of G_j: short elements met while sifting, else Schreier
                // generators; each kept only when not in the group of those before it (a
                // chain grown by each: prefixes of 10^5 of them built anew took minutes),
                // the others dropped as they go (the words can be most of the memory).
                xs = match stabilizer::generating(f.chain(), j, f.pool_from(j), ctl)? {
                    Some(kept) => kept,
                    None => {
                        let mut c = f.schreier_candidates(j - 1, &xs, ctl)?;
                        c.extend(f.pool_from(j));
                        c.sort_by(|a, b| {
                            a.word
                                .len()
                                .cmp(&b.word.len())
                                .then_with(|| a.perm.cmp(&b.perm))
                        });
                        stabilizer::generating(f.chain(), j, c, ctl)?
                            .expect("Schreier generators generate the stabiliser")
                    }
                };
            }
            if f.missing(j) {
                ctl.progress(&format!("words: completing stage {} of {levels}", j + 1));
                f.dijkstra(j, &xs, ctl)?;
            }
            if !(j + 1..levels).any(|i| f.missing(i)) {
                break;
            }
        }
    }
    // 3. Shortening.
    f.record = false;
    ctl.progress("words: shortening");
    if effort.shorten > 0 && !whole {
        shorten(&mut f, &ball, effort.shorten, ctl)?;
    }
    Ok(f.table)
}

/// The heap bytes of a stored word of `len` letters (with its vector and the allocator's
/// overhead).
fn word_bytes(len: usize) -> u64 {
    len as u64 * 4 + 48
}

/// The heap bytes of a permutation of `n` points kept as a map key.
fn perm_bytes(n: usize) -> u64 {
    n as u64 * 2 + 64
}

/// The generators and their inverses, without repeats or the identity, shortest first.
pub fn with_inverses(gens: &[WordPerm], letters: &Letters) -> Vec<WordPerm> {
    let mut steps: Vec<WordPerm> = Vec::new();
    for g in gens {
        for w in [
            g.clone(),
            WordPerm {
                perm: raw::inverse(&g.perm),
                word: raw::inverse_word(&g.word, &letters.inverse),
            },
        ] {
            if !raw::is_identity(&w.perm) && !steps.iter().any(|s| s.perm == w.perm) {
                steps.push(w);
            }
        }
    }
    steps.sort_by_key(|s| s.word.len());
    steps
}

/// Every element within the first `limit` of the Cayley ball (by number of steps), each once,
/// with its first (shortest) word, and the bytes they hold: no more than about `bytes`
/// (the words of a group with one generator of high order grow with the ball).
fn scramble_ball(
    steps: &[WordPerm],
    n: usize,
    limit: usize,
    bytes: u64,
    ctl: &Control,
) -> Result<(Vec<WordPerm>, u64), Interrupt> {
    let per = n as u64 * 2 + 64;
    let mut held = 0u64;
    let mut seen: HashSet<Vec<u16>> = HashSet::new();
    seen.insert(raw::identity(n));
    let mut out: Vec<WordPerm> = vec![WordPerm {
        perm: raw::identity(n),
        word: Vec::new(),
    }];
    // The frontier is the last layer of `out`, read by index rather than copied.
    let mut frontier = 0..1;
    while !frontier.is_empty() && out.len() <= limit {
        let end = out.len();
        for i in frontier {
            ctl.check()?;
            for s in steps {
                if out.len() > limit || held > bytes {
                    break;
                }
                let p = raw::then(&out[i].perm, &s.perm);
                if seen.insert(p.clone()) {
                    held += per + 4 * (out[i].word.len() + s.word.len()) as u64;
                    let mut word = Vec::with_capacity(out[i].word.len() + s.word.len());
                    word.extend_from_slice(&out[i].word);
                    word.extend_from_slice(&s.word);
                    out.push(WordPerm { perm: p, word });
                }
            }
        }
        frontier = end..out.len();
        if held > bytes {
            break;
        }
    }
    out.remove(0);
    Ok((out, held))
}

/// Sifts conjugated commutators of short scrambles and products of representatives.
fn shorten(
    f: &mut Filler,
    ball: &[WordPerm],
    budget: usize,
    ctl: &Control,
) -> Result<(), Interrupt> {
    let n = f.chain.n;
    let inv = &f.letters.inverse;
    let mut spent = 0;
    // Conjugated commutators A [B, C] A' with B, C among the shortest scrambles.
    let short: Vec<&WordPerm> = ball
        .iter()
        .take(((budget / 4) as f64).sqrt() as usize + 1)
        .collect();
    let conj: Vec<WordPerm> = std::iter::once(WordPerm {
        perm: raw::identity(n),
        word: Vec::new(),
    })
    .chain(ball.iter().take(24).cloned())
    .collect();
    'outer: for (bi, b) in short.iter().enumerate() {
        let b_inv = raw::inverse(&b.perm);
        for c in short.iter().skip(bi + 1) {
            ctl.check()?;
            let c_inv = raw::inverse(&c.perm);
            let mut comm = raw::then(&b.perm, &c.perm);
            raw::then_assign(&mut comm, &b_inv);
            raw::then_assign(&mut comm, &c_inv);
            if raw::is_identity(&comm) {
                continue;
            }
            let mut cw = b.word.clone();
            cw.extend_from_slice(&c.word);
            cw.extend(raw::inverse_word(&b.word, inv));
            cw.extend(raw::inverse_word(&c.word, inv));
            for a in &conj {
                let mut p = raw::then(&a.perm, &comm);
                raw::then_assign(&mut p, &raw::inverse(&a.perm));
                let mut w = a.word.clone();
                w.extend_from_slice(&cw);
                w.extend(raw::inverse_word(&a.word, inv));
                f.sift(p, vec![Seg::Letters(w)], 0);
                spent += 1;
                if spent >= budget / 2 {
                    break 'outer;
                }
            }
        }
    }
    products(f, budget - spent.min(budget), ctl)
}

/// Sifts `budget` products of two known representatives `t_a` (level `i`) `t_b` (level
/// `k >= i`), or their inverses.
fn products(f: &mut Filler, budget: usize, ctl: &Control) -> Result<(), Interrupt> {
    let n = f.chain.n;
    let mut rng = Rng::new(99);
    let levels = f.chain.levels.len();
    for spent in 0..budget {
        if levels == 0 {
            break;
        }
        if spent % 256 == 0 {
            ctl.check()?;
        }
        let i = rng.below(levels);
        let k = i + rng.below(levels - i);
        let (a, b) = (rng.below(f.table[i].len()), rng.below(f.table[k].len()));
        if f.table[i][a].is_none() || f.table[k][b].is_none() {
            continue;
        }
        let mut p = raw::then(f.chain.levels[i].rep(a, n), f.chain.levels[k].rep(b, n));
        let mut w = vec![
            Seg::Rep {
                j: i,
                k: a,
                inverted: false,
            },
            Seg::Rep {
                j: k,
                k: b,
                inverted: false,
            },
        ];
        if rng.below(2) == 0 {
            p = raw::inverse(&p);
            w = vec![
                Seg::Rep {
                    j: k,
                    k: b,
                    inverted: true,
                },
                Seg::Rep {
                    j: i,
                    k: a,
                    inverted: true,
                },
            ];
        }
        f.sift(p, w, i);
    }
    Ok(())
}
