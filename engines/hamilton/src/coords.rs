//! A coordinate representation of a permutation group for fast exact walking.
//!
//! The points moved by the generators split into orbits. For each orbit we enumerate (by
//! breadth-first search) the configurations the group can give it: the images of its
//! points. An element is then a tuple of configuration numbers, one per kept orbit, and a
//! generator acts on each number through a small table. Orbits whose configuration is a
//! function of an earlier orbit's (edges seen with orientation 0 and 1 under `<U,R>`) are
//! dropped; small orbits are merged into one table. The map element -> tuple is injective,
//! so the mixed-radix index of the tuple identifies the element exactly: the index space
//! (`space`) may be larger than the group when orbits are correlated (for `<U,R>` on the
//! 3x3x3 it is twice the group), never smaller.

use puz_core::{Control, Interrupt, Perm, Ranker};
use std::collections::VecDeque;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for packed configurations (multiply and fold; not for untrusted keys).
#[derive(Default, Clone, Copy)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        // splitmix64's finaliser over the running state.
        let mut z = self.0 ^ x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = z ^ (z >> 31);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64 ^ ((x >> 64) as u64).rotate_left(29));
    }
}

/// A hash map with [`FoldHasher`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FoldHasher>>;
type HashMap<K, V> = FastMap<K, V>;

/// One orbit of points and the configurations the group gives it.
#[derive(Debug)]
struct Basic {
    points: Vec<u16>,
    bits: u32,
    index: HashMap<u128, u32>,
    configs: Vec<u128>,
    kind: Kind,
}

/// What a basic coordinate records about its orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The image of every point.
    Plain,
    /// The orbit splits into blocks of `k` consecutive points that every letter maps with
    /// a cyclic shift (pieces with `k` orientations): which block goes where.
    Blocks { k: usize },
    /// The same orbit's shifts, recorded by destination (Kociemba's orientation by
    /// location, independent of the block permutation). `of` is the `Blocks` basic.
    Twists { k: usize, of: usize },
}

/// Per letter: the block each block goes to and the shift it gets.
type TwistMaps = (usize, Vec<Vec<usize>>, Vec<Vec<usize>>);

/// Detects blocks of `k` consecutive orbit points mapped with cyclic shifts by all letters.
fn twist_structure(o: &[u16], perms: &[Perm]) -> Option<TwistMaps> {
    let n = o.len();
    let pos = |y: usize| o.binary_search(&(y as u16)).ok();
    'k: for k in 2..n {
        if !n.is_multiple_of(k) {
            continue;
        }
        let nb = n / k;
        let mut sig = Vec::with_capacity(perms.len());
        let mut sh = Vec::with_capacity(perms.len());
        for g in perms {
            let mut sg = vec![0usize; nb];
            let mut hg = vec![0usize; nb];
            for i in 0..nb {
                let Some(q) = pos(g.image(o[i * k] as usize)) else {
                    continue 'k;
                };
                let (j, s0) = (q / k, q % k);
                for t in 0..k {
                    if pos(g.image(o[i * k + t] as usize)) != Some(j * k + (t + s0) % k) {
                        continue 'k;
                    }
                }
                sg[i] = j;
                hg[i] = s0;
            }
            sig.push(sg);
            sh.push(hg);
        }
        return Some((k, sig, sh));
    }
    None
}

/// Enumerates orientation-by-location vectors: after letter `g`, `b'[j] = b[i] - s_i` where
/// block `i` goes to `j`.
fn enumerate_twists(
    nb: usize,
    k: usize,
    sig: &[Vec<usize>],
    sh: &[Vec<usize>],
    cap: usize,
    ctl: &Control,
) -> Result<Option<(Basic, Vec<u32>)>, Interrupt> {
    let bits = bits_for(k);
    if nb as u32 * bits > 128 {
        return Ok(None);
    }
    let mut basic = Basic {
        points: vec![0; nb],
        bits,
        index: HashMap::default(),
        configs: vec![0],
        kind: Kind::Plain,
    };
    basic.index.insert(0, 0);
    let inv: Vec<Vec<usize>> = sig
        .iter()
        .map(|sg| {
            let mut v = vec![0; nb];
            for (i, &j) in sg.iter().enumerate() {
                v[j] = i;
            }
            v
        })
        .collect();
    let mut rows: Vec<Vec<u32>> = vec![Vec::new(); sig.len()];
    let mut head = 0;
    while head < basic.configs.len() {
        if head % 65536 == 0 {
            ctl.check()?;
        }
        let c = basic.configs[head];
        for g in 0..sig.len() {
            let n = basic.pack((0..nb).map(|j| {
                let i = inv[g][j];
                ((basic.get(c, i) as usize + k - sh[g][i]) % k) as u32
            }));
            let next = basic.configs.len() as u32;
            let t = *basic.index.entry(n).or_insert(next);
            if t == next {
                if basic.configs.len() >= cap {
                    return Ok(None);
                }
                basic.configs.push(n);
            }
            rows[g].push(t);
        }
        head += 1;
    }
    Ok(Some((basic, rows.concat())))
}

/// A coordinate: one or more basic orbits combined, with its transition table.
#[derive(Debug)]
struct Block {
    /// (basic orbit, multiplier inside this block)
    parts: Vec<(usize, u32)>,
    count: u32,
    /// `table[slot * count + c]`: the coordinate after letter `slot`.
    table: Vec<u32>,
}

/// Coordinates of the group generated by some letters.
#[derive(Debug)]
pub struct Coords {
    degree: usize,
    /// The generating letters' permutations, by slot.
    pub perms: Vec<Perm>,
    basics: Vec<Basic>,
    deps: Vec<Dependent>,
    blocks: Vec<Block>,
    /// Multiplier of each block in the index.
    mults: Vec<u64>,
    /// The number of indices: the product of the block sizes.
    pub space: u64,
}

/// Why coordinates could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoordsError {
    Interrupt(Interrupt),
    /// An orbit too large to enumerate, or an index space too large.
    TooLarge(String),
}

impl From<Interrupt> for CoordsError {
    fn from(i: Interrupt) -> Self {
        CoordsError::Interrupt(i)
    }
}

fn bits_for(n: usize) -> u32 {
    (usize::BITS - (n.max(2) - 1).leading_zeros()).max(1)
}

impl Basic {
    /// This coordinate's packed configuration for `p` (`None` if `p` leaves the orbit).
    fn config_of(&self, p: &Perm) -> Option<u128> {
        let pos = |x: u16| {
            self.points
                .binary_search(&(p.image(x as usize) as u16))
                .ok()
                .map(|j| j as u32)
        };
        match self.kind {
            Kind::Plain => {
                let mut v = 0u128;
                for (j, &x) in self.points.iter().enumerate() {
                    v |= (pos(x)? as u128) << (j as u32 * self.bits);
                }
                Some(v)
            }
            Kind::Blocks { k } => {
                let mut v = 0u128;
                for i in 0..self.points.len() / k {
                    v |=
                        ((pos(self.points[i * k])? as usize / k) as u128) << (i as u32 * self.bits);
                }
                Some(v)
            }
            Kind::Twists { k, .. } => {
                let mut v = 0u128;
                for i in 0..self.points.len() / k {
                    let q = pos(self.points[i * k])? as usize;
                    let (j, s) = (q / k, q % k);
                    v |= (((k - s) % k) as u128) << (j as u32 * self.bits);
                }
                Some(v)
            }
        }
    }

    fn pack(&self, images: impl Iterator<Item = u32>) -> u128 {
        let mut v = 0u128;
        for (j, x) in images.enumerate() {
            v |= (x as u128) << (j as u32 * self.bits);
        }
        v
    }

    fn get(&self, v: u128, j: usize) -> u32 {
        ((v >> (j as u32 * self.bits)) & ((1u128 << self.bits) - 1)) as u32
    }
}

/// Enumerates the configurations of a set of points under the letters, up to `cap`.
/// Returns the basic orbit and its transition table, or `None` past the cap.
fn enumerate(
    points: &[u16],
    perms: &[Perm],
    cap: usize,
    ctl: &Control,
) -> Result<Option<(Basic, Vec<u32>)>, Interrupt> {
    let k = points.len();
    let bits = bits_for(k);
    assert!(k as u32 * bits <= 128);
    let mut local = std::collections::HashMap::new();
    for (j, &p) in points.iter().enumerate() {
        local.insert(p as usize, j as u32);
    }
    // lmap[s][e] = local index of perm_s(points[e]).
    let lmap: Vec<Vec<u32>> = perms
        .iter()
        .map(|g| {
            points
                .iter()
                .map(|&p| local[&g.image(p as usize)])
                .collect()
        })
        .collect();
    let mut basic = Basic {
        points: points.to_vec(),
        bits,
        index: HashMap::default(),
        configs: Vec::new(),
        kind: Kind::Plain,
    };
    let id = basic.pack(0..k as u32);
    basic.index.insert(id, 0);
    basic.configs.push(id);
    let mut table_rows: Vec<Vec<u32>> = vec![Vec::new(); perms.len()];
    let mut head = 0usize;
    while head < basic.configs.len() {
        if head.is_multiple_of(65536) {
            ctl.check()?;
        }
        let c = basic.configs[head];
        for (s, lm) in lmap.iter().enumerate() {
            let n = basic.pack((0..k).map(|j| lm[basic.get(c, j) as usize]));
            let next = basic.configs.len() as u32;
            let t = *basic.index.entry(n).or_insert(next);
            if t == next {
                if basic.configs.len() >= cap {
                    return Ok(None);
                }
                basic.configs.push(n);
            }
            table_rows[s].push(t);
        }
        head += 1;
    }
    let table = table_rows.concat();
    Ok(Some((basic, table)))
}

/// An orbit whose configuration is a function of a kept orbit's.
#[derive(Debug)]
struct Dependent {
    kept: usize,
    points: Vec<u16>,
    /// `images[c * points.len() + e]`: the image of `points[e]` when the kept orbit has
    /// configuration `c`.
    images: Vec<u16>,
}

/// When the configuration of `b` is a function of the configuration of `a`, that function.
fn determined_by(
    a: &Basic,
    b: &[u16],
    perms: &[Perm],
    ctl: &Control,
) -> Result<Option<Vec<u16>>, Interrupt> {
    let n = a.points.len() + b.len();
    if n as u32 * bits_for(n) > 128 {
        return Ok(None);
    }
    let count_a = a.configs.len();
    let joint: Vec<u16> = a.points.iter().chain(b).copied().collect();
    let Some((j, _)) = enumerate(&joint, perms, count_a + 1, ctl)? else {
        return Ok(None);
    };
    if j.configs.len() != count_a {
        return Ok(None);
    }
    let mut images = vec![0u16; count_a * b.len()];
    let ka = a.points.len();
    for &v in &j.configs {
        let ca = a.pack((0..ka).map(|e| j.get(v, e)));
        let c = a.index[&ca] as usize;
        for e in 0..b.len() {
            images[c * b.len() + e] = joint[j.get(v, ka + e) as usize];
        }
    }
    Ok(Some(images))
}

impl Coords {
    /// Coordinates for the group generated by `perms` on `degree` points, with orbits of at
    /// most `cap` configurations and an index space of at most `max_space`.
    pub fn new(
        perms: Vec<Perm>,
        degree: usize,
        cap: usize,
        max_space: u64,
        ctl: &Control,
    ) -> Result<Coords, CoordsError> {
        // Orbits of points.
        let mut orbit_of = vec![usize::MAX; degree];
        let mut orbits: Vec<Vec<u16>> = Vec::new();
        for s in 0..degree {
            if orbit_of[s] != usize::MAX || perms.iter().all(|g| g.image(s) == s) {
                continue;
            }
            let id = orbits.len();
            let mut o = vec![s as u16];
            orbit_of[s] = id;
            let mut q = VecDeque::from([s]);
            while let Some(x) = q.pop_front() {
                for g in &perms {
                    let y = g.image(x);
                    if orbit_of[y] == usize::MAX {
                        orbit_of[y] = id;
                        o.push(y as u16);
                        q.push_back(y);
                    }
                }
            }
            o.sort_unstable();
            orbits.push(o);
        }
        // Enumerate each orbit; drop those determined by an earlier kept one.
        let mut basics: Vec<Basic> = Vec::new();
        let mut tables: Vec<Vec<u32>> = Vec::new();
        let mut deps: Vec<Dependent> = Vec::new();
        for o in orbits {
            if let Some((k, sig, sh)) = twist_structure(&o, &perms) {
                let nb = o.len() / k;
                let vperms: Vec<Perm> = sig
                    .iter()
                    .map(|sg| Perm::from_images(sg.clone()).expect("blocks map to blocks"))
                    .collect();
                let virt: Vec<u16> = (0..nb as u16).collect();
                let a = enumerate(&virt, &vperms, cap, ctl)?;
                let b = enumerate_twists(nb, k, &sig, &sh, cap, ctl)?;
                if let (Some((mut a, ta)), Some((mut b, tb))) = (a, b) {
                    a.points = o.clone();
                    a.kind = Kind::Blocks { k };
                    b.points = o.clone();
                    b.kind = Kind::Twists {
                        k,
                        of: basics.len(),
                    };
                    basics.push(a);
                    tables.push(ta);
                    basics.push(b);
                    tables.push(tb);
                    continue;
                }
            }
            if o.len() as u32 * bits_for(o.len()) > 128 {
                return Err(CoordsError::TooLarge(format!(
                    "an orbit of {} points",
                    o.len()
                )));
            }
            let Some((b, t)) = enumerate(&o, &perms, cap, ctl)? else {
                return Err(CoordsError::TooLarge(format!(
                    "an orbit of {} points with more than {cap} configurations",
                    o.len()
                )));
            };
            let mut dup = false;
            for (ki, kept) in basics.iter().enumerate() {
                if kept.kind == Kind::Plain && kept.configs.len() >= b.configs.len() {
                    if let Some(images) = determined_by(kept, &o, &perms, ctl)? {
                        deps.push(Dependent {
                            kept: ki,
                            points: o.clone(),
                            images,
                        });
                        dup = true;
                        break;
                    }
                }
            }
            if !dup {
                basics.push(b);
                tables.push(t);
            }
        }
        // Merge small orbits into blocks of at most 4096 coordinates.
        let mut order: Vec<usize> = (0..basics.len()).collect();
        order.sort_by_key(|&i| basics[i].configs.len());
        let mut blocks: Vec<Block> = Vec::new();
        let nl = perms.len();
        for i in order {
            let cnt = basics[i].configs.len() as u32;
            let t = &tables[i];
            if let Some(last) = blocks.last_mut() {
                if (last.count as u64) * (cnt as u64) <= 4096 && !last.parts.is_empty() {
                    // New coordinate = old * cnt + this.
                    let oc = last.count;
                    let nc = oc * cnt;
                    let mut table = vec![0u32; nl * nc as usize];
                    for s in 0..nl {
                        for a in 0..oc {
                            for b in 0..cnt {
                                table[s * nc as usize + (a * cnt + b) as usize] =
                                    last.table[s * oc as usize + a as usize] * cnt
                                        + t[s * cnt as usize + b as usize];
                            }
                        }
                    }
                    for p in last.parts.iter_mut() {
                        p.1 *= cnt;
                    }
                    last.parts.push((i, 1));
                    last.count = nc;
                    last.table = table;
                    continue;
                }
            }
            blocks.push(Block {
                parts: vec![(i, 1)],
                count: cnt,
                table: t.clone(),
            });
        }
        // Biggest block first, so the index is dominated by it.
        blocks.sort_by_key(|b| std::cmp::Reverse(b.count));
        let mut space: u64 = 1;
        for b in &blocks {
            space = space
                .checked_mul(b.count as u64)
                .filter(|&s| s <= max_space)
                .ok_or_else(|| {
                    CoordsError::TooLarge(format!(
                        "an index space of more than {max_space} elements"
                    ))
                })?;
        }
        let mut mults = vec![0u64; blocks.len()];
        let mut m = 1u64;
        for (i, b) in blocks.iter().enumerate().rev() {
            mults[i] = m;
            m *= b.count as u64;
        }
        Ok(Coords {
            degree,
            perms,
            basics,
            deps,
            blocks,
            mults,
            space,
        })
    }

    pub fn degree(&self) -> usize {
        self.degree
    }

    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// The coordinates of `p`, or `None` if `p` is not in the group.
    pub fn encode(&self, p: &Perm) -> Option<Vec<u32>> {
        let mut out = Vec::with_capacity(self.blocks.len());
        // Points the generators fix must be fixed.
        for b in &self.blocks {
            let mut c = 0u32;
            for &(bi, m) in &b.parts {
                let basic = &self.basics[bi];
                let v = basic.config_of(p)?;
                c += basic.index.get(&v)? * m;
            }
            out.push(c);
        }
        Some(out)
    }

    /// The index of a coordinate tuple.
    #[inline]
    pub fn index(&self, c: &[u32]) -> u64 {
        c.iter().zip(&self.mults).map(|(&x, &m)| x as u64 * m).sum()
    }

    /// The coordinate tuple of an index.
    pub fn split(&self, mut idx: u64) -> Vec<u32> {
        let mut out = vec![0u32; self.blocks.len()];
        for (i, &m) in self.mults.iter().enumerate() {
            out[i] = (idx / m) as u32;
            idx %= m;
        }
        out
    }

    /// The index after letter slot `s` from index `idx`.
    #[inline]
    pub fn step_index(&self, idx: u64, s: usize) -> u64 {
        let mut rest = idx;
        let mut out = 0u64;
        for (b, &m) in self.blocks.iter().zip(&self.mults) {
            let c = (rest / m) as u32;
            rest %= m;
            out += b.table[s * b.count as usize + c as usize] as u64 * m;
        }
        out
    }

    /// The element with these coordinates, when the tuple is one of the group's.
    pub fn decode(&self, c: &[u32]) -> Perm {
        let mut images: Vec<u16> = (0..self.degree as u16).collect();
        let mut vals = vec![0u128; self.basics.len()];
        for (b, &x) in self.blocks.iter().zip(c) {
            let mut rest = x;
            for &(bi, m) in &b.parts {
                let j = rest / m;
                rest %= m;
                vals[bi] = self.basics[bi].configs[j as usize];
            }
        }
        for (bi, basic) in self.basics.iter().enumerate() {
            let v = vals[bi];
            match basic.kind {
                Kind::Plain => {
                    for (e, &pt) in basic.points.iter().enumerate() {
                        images[pt as usize] = basic.points[basic.get(v, e) as usize];
                    }
                }
                Kind::Blocks { .. } => {}
                Kind::Twists { k, of } => {
                    let a = &self.basics[of];
                    let nb = basic.points.len() / k;
                    for i in 0..nb {
                        let j = a.get(vals[of], i) as usize;
                        let s = (k - basic.get(v, j) as usize) % k;
                        for t in 0..k {
                            images[basic.points[i * k + t] as usize] =
                                basic.points[j * k + (t + s) % k];
                        }
                    }
                }
            }
        }
        for (b, &x) in self.blocks.iter().zip(c) {
            let mut rest = x;
            for &(bi, m) in &b.parts {
                let j = rest / m;
                rest %= m;
                for d in self.deps.iter().filter(|d| d.kept == bi) {
                    let k = d.points.len();
                    for (e, &pt) in d.points.iter().enumerate() {
                        images[pt as usize] = d.images[j as usize * k + e];
                    }
                }
            }
        }
        Perm::from_images_unchecked(images)
    }

    /// Per block: (count, table) for the hot loops.
    pub fn tables(&self) -> Vec<(u32, &[u32])> {
        self.blocks
            .iter()
            .map(|b| (b.count, &b.table[..]))
            .collect()
    }

    pub fn mults(&self) -> &[u64] {
        &self.mults
    }

    /// Marks every index the group reaches from the identity (breadth-first search).
    pub fn reachable(&self, ctl: &Control) -> Result<(Vec<u64>, u64), Interrupt> {
        ctl.reserve("a bitset of the coordinate space", self.space.div_ceil(8))?;
        ctl.reserve("a search queue of the group", self.space * 8)?;
        let mut seen = vec![0u64; self.space.div_ceil(64) as usize];
        let start = self.index(&vec![0; self.blocks.len()]);
        seen[(start / 64) as usize] |= 1 << (start % 64);
        let mut queue: Vec<u64> = vec![start];
        let mut head = 0;
        while head < queue.len() {
            if head % (1 << 20) == 0 {
                ctl.check()?;
            }
            let v = queue[head];
            head += 1;
            for s in 0..self.perms.len() {
                let w = self.step_index(v, s);
                let (i, b) = ((w / 64) as usize, 1u64 << (w % 64));
                if seen[i] & b == 0 {
                    seen[i] |= b;
                    queue.push(w);
                }
            }
        }
        Ok((seen, queue.len() as u64))
    }
}

/// A [`Ranker`] built on coordinates: the group generated by some permutations, ranked
/// densely by counting reachable coordinate indices (a bitset with a rank directory).
pub struct CoordRanker {
    coords: Coords,
    seen: Vec<u64>,
    /// Number of set bits before each 64-bit word... stored per 8 words.
    dir: Vec<u64>,
    size: u64,
}

impl CoordRanker {
    /// Enumerates the group generated by `perms` (it must fit in memory).
    pub fn new(perms: Vec<Perm>, degree: usize, ctl: &Control) -> Result<CoordRanker, CoordsError> {
        let coords = Coords::new(perms, degree, 1 << 26, 1 << 36, ctl)?;
        let (seen, size) = coords.reachable(ctl)?;
        let mut dir = Vec::with_capacity(seen.len() / 8 + 1);
        let mut acc = 0u64;
        for (i, w) in seen.iter().enumerate() {
            if i % 8 == 0 {
                dir.push(acc);
            }
            acc += w.count_ones() as u64;
        }
        Ok(CoordRanker {
            coords,
            seen,
            dir,
            size,
        })
    }

    pub fn coords(&self) -> &Coords {
        &self.coords
    }

    fn dense(&self, idx: u64) -> Option<u64> {
        let (i, b) = ((idx / 64) as usize, idx % 64);
        if self.seen[i] >> b & 1 == 0 {
            return None;
        }
        let mut r = self.dir[i / 8];
        for w in &self.seen[i / 8 * 8..i] {
            r += w.count_ones() as u64;
        }
        Some(r + (self.seen[i] & ((1u64 << b) - 1)).count_ones() as u64)
    }
}

impl Ranker for CoordRanker {
    fn size(&self) -> Option<u64> {
        Some(self.size)
    }

    fn rank(&self, p: &Perm) -> Option<u64> {
        if p.degree() != self.coords.degree {
            return None;
        }
        let c = self.coords.encode(p)?;
        let idx = self.coords.index(&c);
        let d = self.dense(idx)?;
        // Coordinates are injective on the group; reject tuples that are not the element's.
        (self.coords.decode(&c) == *p).then_some(d)
    }

    fn unrank(&self, r: u64) -> Perm {
        // Find the r-th set bit.
        let blk = self.dir.partition_point(|&d| d <= r) - 1;
        let mut left = r - self.dir[blk];
        let mut i = blk * 8;
        loop {
            let c = self.seen[i].count_ones() as u64;
            if left < c {
                break;
            }
            left -= c;
            i += 1;
        }
        let mut w = self.seen[i];
        for _ in 0..left {
            w &= w - 1;
        }
        let idx = i as u64 * 64 + w.trailing_zeros() as u64;
        self.coords.decode(&self.coords.split(idx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::*;
    use std::collections::HashSet;

    fn agrees(p: &puz_core::Puzzle, moves: &[&str]) -> usize {
        let a = alphabet(p, moves);
        let bfs = BfsRanker::new(&a.perms);
        let ctl = Control::default();
        let cr = CoordRanker::new(a.perms.clone(), p.degree(), &ctl).unwrap();
        assert_eq!(cr.size(), bfs.size());
        let mut seen = HashSet::new();
        for r in 0..bfs.size().unwrap() {
            let x = bfs.unrank(r);
            let k = cr.rank(&x).expect("in the group");
            assert!(seen.insert(k));
            assert_eq!(cr.unrank(k), x);
        }
        // Something outside: a single letter of another group.
        cr.coords().blocks()
    }

    #[test]
    fn coordinates_are_exact() {
        agrees(&cube2(), &["U", "R"]);
        agrees(&floppy(), &["R", "L", "F", "B"]);
        agrees(&cheese(), &["H0", "H1", "H2"]);
        agrees(&six_piece(), &["R", "L", "U"]);
        agrees(&lights_out(3), &["B00", "B11", "B22", "B01"]);
    }

    #[test]
    fn twisted_orbits_split_into_permutation_and_orientation() {
        let a = alphabet(&cube2(), &["U", "R"]);
        let c = Coords::new(a.perms.clone(), 24, 1 << 20, 1 << 30, &Control::default()).unwrap();
        // 6 corners: 120 block arrangements and 243 twist vectors, nothing larger.
        let mut counts: Vec<u32> = c.tables().iter().map(|t| t.0).collect();
        counts.sort();
        assert_eq!(counts, vec![120, 243]);
        assert!(c
            .basics
            .iter()
            .any(|b| matches!(b.kind, Kind::Twists { k: 3, .. })));
    }
}

#[cfg(test)]
mod ur_tests {
    use super::*;
    use crate::testkit::*;

    #[test]
    fn three_by_three_u_r_coordinates() {
        let a = alphabet(&cube3_ur(), &["U", "R"]);
        let c = Coords::new(a.perms.clone(), 48, 1 << 20, 1 << 40, &Control::default()).unwrap();
        let counts: Vec<u32> = c.tables().iter().map(|t| t.0).collect();
        // Corners: 120 arrangements x 243 twists; edges: 5040 (the flipped copy is dropped).
        assert_eq!(c.space, 29160 * 5040, "{counts:?} {:?}", c.mults());
        let id = c.index(&c.encode(&Perm::identity(48)).unwrap());
        let mut v = id;
        let mut p = Perm::identity(48);
        for k in 0..1000usize {
            let s = (k * 7 + k / 3) % 4;
            v = c.step_index(v, s);
            p = p.then(&a.perms[s]);
            assert!(v < c.space);
            assert_eq!(c.decode(&c.split(v)), p, "step {k}");
            assert_eq!(c.index(&c.encode(&p).unwrap()), v, "step {k}");
        }
    }
}
