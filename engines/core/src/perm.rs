//! Permutations of the points `0..n`, stored as images.
//!
//! Convention (as in GAP): `p.image(i)` is where point `i` goes, and products are
//! read left to right: `a.then(&b)` first applies `a`, then `b`.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use std::fmt;

/// A permutation of `0..degree` stored as its image list.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Perm {
    images: Vec<u16>,
}

/// Why a list of images is not a permutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermError {
    OutOfRange { index: usize, value: usize },
    Repeated { value: usize },
    TooLarge { degree: usize },
}

impl fmt::Display for PermError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PermError::OutOfRange { index, value } => {
                write!(f, "image {value} of point {index} is out of range")
            }
            PermError::Repeated { value } => write!(f, "point {value} is the image of two points"),
            PermError::TooLarge { degree } => write!(f, "{degree} points is more than 65536"),
        }
    }
}

impl std::error::Error for PermError {}

impl Perm {
    /// The identity on `degree` points.
    pub fn identity(degree: usize) -> Perm {
        assert!(degree <= 1 << 16, "degree too large");
        Perm {
            images: (0..degree).map(|i| i as u16).collect(),
        }
    }

    /// Builds a permutation from its images, checking that it is a bijection.
    pub fn from_images(images: Vec<usize>) -> Result<Perm, PermError> {
        let n = images.len();
        if n > 1 << 16 {
            return Err(PermError::TooLarge { degree: n });
        }
        let mut seen = vec![false; n];
        for (i, &v) in images.iter().enumerate() {
            if v >= n {
                return Err(PermError::OutOfRange { index: i, value: v });
            }
            if seen[v] {
                return Err(PermError::Repeated { value: v });
            }
            seen[v] = true;
        }
        Ok(Perm {
            images: images.into_iter().map(|v| v as u16).collect(),
        })
    }

    /// Builds a permutation from `u16` images without checking (callers guarantee a bijection).
    pub fn from_images_unchecked(images: Vec<u16>) -> Perm {
        debug_assert!(Perm::from_images(images.iter().map(|&v| v as usize).collect()).is_ok());
        Perm { images }
    }

    /// Builds a permutation of `degree` points from disjoint cycles of points.
    pub fn from_cycles(degree: usize, cycles: &[Vec<usize>]) -> Result<Perm, PermError> {
        let mut images: Vec<usize> = (0..degree).collect();
        let mut touched = vec![false; degree];
        for cycle in cycles {
            for (k, &a) in cycle.iter().enumerate() {
                let b = cycle[(k + 1) % cycle.len()];
                if a >= degree || b >= degree {
                    return Err(PermError::OutOfRange {
                        index: a.min(b),
                        value: a.max(b),
                    });
                }
                if touched[a] {
                    return Err(PermError::Repeated { value: a });
                }
                touched[a] = true;
                images[a] = b;
            }
        }
        Perm::from_images(images)
    }

    pub fn degree(&self) -> usize {
        self.images.len()
    }

    #[inline]
    pub fn image(&self, i: usize) -> usize {
        self.images[i] as usize
    }

    #[inline]
    pub fn images(&self) -> &[u16] {
        &self.images
    }

    /// `self` followed by `other` (the image of `i` is `other(self(i))`).
    pub fn then(&self, other: &Perm) -> Perm {
        debug_assert_eq!(self.degree(), other.degree());
        Perm {
            images: self
                .images
                .iter()
                .map(|&i| other.images[i as usize])
                .collect(),
        }
    }

    /// Whether `self` and `other` commute, without building either product.
    pub fn commutes_with(&self, other: &Perm) -> bool {
        let (a, b) = (&self.images, &other.images);
        a.iter()
            .zip(b)
            .all(|(&x, &y)| b[x as usize] == a[y as usize])
    }

    /// In place: `self = self.then(other)`.
    pub fn then_assign(&mut self, other: &Perm) {
        for v in self.images.iter_mut() {
            *v = other.images[*v as usize];
        }
    }

    pub fn inverse(&self) -> Perm {
        let mut inv = vec![0u16; self.images.len()];
        for (i, &v) in self.images.iter().enumerate() {
            inv[v as usize] = i as u16;
        }
        Perm { images: inv }
    }

    /// `self` to the power `k` (negative powers invert).
    pub fn pow(&self, k: i64) -> Perm {
        let mut base = if k < 0 { self.inverse() } else { self.clone() };
        let mut e = k.unsigned_abs();
        let mut acc = Perm::identity(self.degree());
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.then(&base);
            }
            base = base.then(&base);
            e >>= 1;
        }
        acc
    }

    pub fn is_identity(&self) -> bool {
        self.images
            .iter()
            .enumerate()
            .all(|(i, &v)| i == v as usize)
    }

    /// Disjoint cycles of length at least 2, each starting at its smallest point.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let n = self.degree();
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for s in 0..n {
            if seen[s] || self.image(s) == s {
                seen[s] = true;
                continue;
            }
            let mut c = vec![s];
            seen[s] = true;
            let mut x = self.image(s);
            while x != s {
                seen[x] = true;
                c.push(x);
                x = self.image(x);
            }
            out.push(c);
        }
        out
    }

    /// The order: the least common multiple of the cycle lengths.
    pub fn order(&self) -> BigUint {
        let mut acc = BigUint::one();
        for c in self.cycles() {
            acc = acc.lcm(&BigUint::from(c.len()));
        }
        acc
    }

    /// Points moved by the permutation.
    pub fn support(&self) -> usize {
        self.images
            .iter()
            .enumerate()
            .filter(|(i, &v)| *i != v as usize)
            .count()
    }
}

impl fmt::Debug for Perm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// GAP-style cycle notation on 1-based points, `()` for the identity.
impl fmt::Display for Perm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cycles = self.cycles();
        if cycles.is_empty() {
            return write!(f, "()");
        }
        for c in cycles {
            write!(f, "(")?;
            for (k, p) in c.iter().enumerate() {
                if k > 0 {
                    write!(f, ",")?;
                }
                write!(f, "{}", p + 1)?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn perm_strategy(n: usize) -> impl Strategy<Value = Perm> {
        Just((0..n).collect::<Vec<usize>>())
            .prop_shuffle()
            .prop_map(|v| Perm::from_images(v).unwrap())
    }

    #[test]
    fn cycles_and_order() {
        let p = Perm::from_cycles(6, &[vec![0, 1, 2], vec![3, 4]]).unwrap();
        assert_eq!(p.order(), BigUint::from(6u32));
        assert_eq!(p.to_string(), "(1,2,3)(4,5)");
        assert!(p.pow(6).is_identity());
        assert!(!p.pow(3).is_identity());
    }

    #[test]
    fn rejects_bad_images() {
        assert!(Perm::from_images(vec![0, 0]).is_err());
        assert!(Perm::from_images(vec![0, 2]).is_err());
        assert!(Perm::from_cycles(3, &[vec![0, 1, 0]]).is_err());
    }

    proptest! {
        #[test]
        fn inverse_cancels(p in perm_strategy(12)) {
            prop_assert!(p.then(&p.inverse()).is_identity());
            prop_assert!(p.inverse().then(&p).is_identity());
        }

        #[test]
        fn associative(a in perm_strategy(9), b in perm_strategy(9), c in perm_strategy(9)) {
            prop_assert_eq!(a.then(&b).then(&c), a.then(&b.then(&c)));
        }

        #[test]
        fn order_is_exact(p in perm_strategy(10)) {
            let o: u64 = p.order().try_into().unwrap();
            prop_assert!(p.pow(o as i64).is_identity());
            for d in 1..o {
                if o.is_multiple_of(d) { prop_assert!(!p.pow(d as i64).is_identity()); }
            }
        }
    }
}
