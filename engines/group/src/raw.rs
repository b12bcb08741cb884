//! Permutations as bare image slices (`u16`), the hot-loop representation.
//!
//! Same convention as `puz_core::Perm`: `a.then(b)` applies `a` first.

/// `out[i] = b[a[i]]`: `a` then `b`.
#[inline]
pub fn then_into(a: &[u16], b: &[u16], out: &mut [u16]) {
    debug_assert!(a.len() == b.len() && a.len() == out.len());
    for (o, &x) in out.iter_mut().zip(a) {
        *o = b[x as usize];
    }
}

/// `a := a then b`.
#[inline]
pub fn then_assign(a: &mut [u16], b: &[u16]) {
    for x in a.iter_mut() {
        *x = b[*x as usize];
    }
}

/// `a` then `b` as a new vector.
#[inline]
pub fn then(a: &[u16], b: &[u16]) -> Vec<u16> {
    a.iter().map(|&x| b[x as usize]).collect()
}

pub fn inverse(a: &[u16]) -> Vec<u16> {
    let mut inv = vec![0u16; a.len()];
    for (i, &x) in a.iter().enumerate() {
        inv[x as usize] = i as u16;
    }
    inv
}

pub fn identity(n: usize) -> Vec<u16> {
    (0..n).map(|i| i as u16).collect()
}

#[inline]
pub fn is_identity(a: &[u16]) -> bool {
    a.iter().enumerate().all(|(i, &x)| i == x as usize)
}

/// The first point `a` moves, if any.
pub fn first_moved(a: &[u16]) -> Option<usize> {
    a.iter().enumerate().position(|(i, &x)| i != x as usize)
}

/// The permutation performed by a word over letters with these images.
pub fn word_perm(letters: &[Vec<u16>], word: &[u32], n: usize) -> Vec<u16> {
    let mut p = identity(n);
    for &l in word {
        then_assign(&mut p, &letters[l as usize]);
    }
    p
}

/// The inverse word: letters reversed and each replaced by its inverse letter.
pub fn inverse_word(word: &[u32], inverse: &[u32]) -> Vec<u32> {
    word.iter().rev().map(|&l| inverse[l as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_invert() {
        let a = vec![1u16, 2, 0, 3];
        let b = vec![0u16, 1, 3, 2];
        let ab = then(&a, &b);
        assert_eq!(ab, vec![1, 3, 0, 2]);
        assert!(is_identity(&then(&ab, &inverse(&ab))));
        assert_eq!(first_moved(&a), Some(0));
        assert_eq!(first_moved(&identity(3)), None);
        let mut c = a.clone();
        then_assign(&mut c, &b);
        assert_eq!(c, ab);
    }
}
