//! The orbits under the letters and the configurations the group gives each: plain
//! images, blocks with cyclic twists (split into arrangement and orientation), and orbits
//! determined by another.

use super::FastMap;
use puz_core::{Control, Interrupt, Perm};

type HashMap<K, V> = FastMap<K, V>;

/// One orbit of points and the configurations the group gives it.
#[derive(Debug)]
pub(super) struct Basic {
    pub(super) points: Vec<u16>,
    pub(super) bits: u32,
    pub(super) index: HashMap<u128, u32>,
    pub(super) configs: Vec<u128>,
    pub(super) kind: Kind,
}

/// What a basic coordinate records about its orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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
pub(super) fn twist_structure(o: &[u16], perms: &[Perm]) -> Option<TwistMaps> {
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
pub(super) fn enumerate_twists(
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

pub(super) fn bits_for(n: usize) -> u32 {
    (usize::BITS - (n.max(2) - 1).leading_zeros()).max(1)
}

impl Basic {
    /// This coordinate's packed configuration for `p` (`None` if `p` leaves the orbit).
    pub(super) fn config_of(&self, p: &Perm) -> Option<u128> {
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

    pub(super) fn get(&self, v: u128, j: usize) -> u32 {
        ((v >> (j as u32 * self.bits)) & ((1u128 << self.bits) - 1)) as u32
    }
}

/// Enumerates the configurations of a set of points under the letters, up to `cap`.
/// Returns the basic orbit and its transition table, or `None` past the cap.
pub(super) fn enumerate(
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
pub(super) struct Dependent {
    pub(super) kept: usize,
    pub(super) points: Vec<u16>,
    /// `images[c * points.len() + e]`: the image of `points[e]` when the kept orbit has
    /// configuration `c`.
    pub(super) images: Vec<u16>,
}

/// When the configuration of `b` is a function of the configuration of `a`, that function.
pub(super) fn determined_by(
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
