//! [`Locator`]: where every piece of a byte state is, found once for all the tables a
//! round of look-ups reads (see [`super::Pattern::index_located`]).

use crate::model::Model;

/// Where every piece is: `loc[start + piece]` and `ori[start + piece]` (orbit `start`).
pub struct Located {
    pub loc: Vec<u8>,
    pub ori: Vec<u8>,
}

/// Finds where every piece of a byte state is, once for all the tables.
pub struct Locator {
    /// (start, size) of each orbit, and its cells split: `split[o][cell]` is (piece,
    /// orientation). A table rather than a division per cell, which stood out in profiles
    /// of the search (see benches/solver/README.md).
    orbits: Vec<(usize, usize)>,
    split: Vec<Vec<(u8, u8)>>,
    n: usize,
}

impl Locator {
    pub fn new(model: &Model) -> Locator {
        Locator {
            orbits: model.orbits.iter().map(|o| (o.start, o.size)).collect(),
            split: model
                .orbits
                .iter()
                .map(|o| {
                    let t = o.twist as usize;
                    (0..o.size * t)
                        .map(|c| ((c / t) as u8, (c % t) as u8))
                        .collect()
                })
                .collect(),
            n: model.n,
        }
    }

    pub fn buffer(&self) -> Located {
        Located {
            loc: vec![0; self.n],
            ori: vec![0; self.n],
        }
    }

    #[inline]
    pub fn locate(&self, s: &[u8], out: &mut Located) {
        for (&(start, size), split) in self.orbits.iter().zip(&self.split) {
            for l in 0..size {
                let (piece, ori) = split[s[start + l] as usize];
                out.loc[start + piece as usize] = l as u8;
                out.ori[start + piece as usize] = ori;
            }
        }
    }
}
