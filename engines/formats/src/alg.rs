//! The move sequences other tools write for derived moves: twsearch's `MoveSequence`
//! (`R U2 R'`) and cubing.js's `derivedMoves` (`[x: U]`, `[R, U]`, `(R U)2'`, `Lv2'`).
//! A token is a move's name, or a name followed by an amount and/or `'`.

use puz_core::Perm;

/// Evaluates `text` to a permutation; `lookup` gives a move's effect by its name in the
/// file. The error is (byte range within `text`, message).
pub fn eval(
    text: &str,
    degree: usize,
    lookup: &dyn Fn(&str) -> Option<Perm>,
) -> Result<Perm, ((usize, usize), String)> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        degree,
        lookup,
    };
    let r = p.seq()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(((p.i, p.i + 1), format!("unexpected `{}`", p.s[p.i] as char)));
    }
    Ok(r)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    degree: usize,
    lookup: &'a dyn Fn(&str) -> Option<Perm>,
}

type R = Result<Perm, ((usize, usize), String)>;

fn name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_whitespace() {
            self.i += 1;
        }
    }

    fn seq(&mut self) -> R {
        let mut acc = Perm::identity(self.degree);
        loop {
            self.ws();
            match self.s.get(self.i) {
                None | Some(b')') | Some(b']') | Some(b':') => return Ok(acc),
                Some(b',') => return Ok(acc),
                _ => {}
            }
            let unit = self.unit()?;
            acc = acc.then(&unit);
        }
    }

    fn unit(&mut self) -> R {
        let start = self.i;
        let base = match self.s[self.i] {
            b'(' => {
                self.i += 1;
                let inner = self.seq()?;
                self.close(b')', start)?;
                inner
            }
            b'[' => {
                self.i += 1;
                let a = self.seq()?;
                let sep = self.s.get(self.i).copied();
                if sep != Some(b':') && sep != Some(b',') {
                    return Err((
                        (start, self.i.max(start + 1)),
                        "a bracket needs `:` (conjugate) or `,` (commutator)".into(),
                    ));
                }
                self.i += 1;
                let b = self.seq()?;
                self.close(b']', start)?;
                let ai = a.inverse();
                if sep == Some(b':') {
                    a.then(&b).then(&ai)
                } else {
                    a.then(&b).then(&ai).then(&b.inverse())
                }
            }
            c if name_byte(c) => return self.token(),
            c => return Err(((self.i, self.i + 1), format!("unexpected `{}`", c as char))),
        };
        let (amount, _) = self.amount();
        Ok(base.pow(amount))
    }

    fn close(&mut self, c: u8, start: usize) -> Result<(), ((usize, usize), String)> {
        self.ws();
        if self.s.get(self.i) != Some(&c) {
            return Err((
                (start, self.i.max(start + 1)),
                format!("`{}` is not closed", self.s[start] as char),
            ));
        }
        self.i += 1;
        Ok(())
    }

    /// An optional amount then an optional `'`.
    fn amount(&mut self) -> (i64, bool) {
        let st = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let mut k: i64 = if self.i > st {
            std::str::from_utf8(&self.s[st..self.i])
                .unwrap()
                .parse()
                .unwrap_or(1)
        } else {
            1
        };
        let prime = self.s.get(self.i) == Some(&b'\'');
        if prime {
            self.i += 1;
            k = -k;
        }
        (k, self.i > st)
    }

    /// A move token: the whole token if it names a move, else a name followed by an
    /// amount (`R2` is move `R2` when there is one, else `R` twice).
    fn token(&mut self) -> R {
        let start = self.i;
        while self.i < self.s.len() && name_byte(self.s[self.i]) {
            self.i += 1;
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).unwrap();
        let prime = self.s.get(self.i) == Some(&b'\'');
        if let Some(p) = (self.lookup)(word) {
            if prime {
                self.i += 1;
                return Ok(p.inverse());
            }
            return Ok(p);
        }
        let digits = word.len() - word.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (base, amount) = word.split_at(word.len() - digits);
        if digits > 0 && !base.is_empty() {
            if let Some(p) = (self.lookup)(base) {
                let mut k: i64 = amount.parse().unwrap_or(1);
                if prime {
                    self.i += 1;
                    k = -k;
                }
                return Ok(p.pow(k));
            }
        }
        Err(((start, self.i), format!("unknown move `{word}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjugates_commutators_and_amounts() {
        // Two moves on 3 points: a = (0 1), b = (1 2).
        let a = Perm::from_cycles(3, &[vec![0, 1]]).unwrap();
        let b = Perm::from_cycles(3, &[vec![1, 2]]).unwrap();
        let look = |n: &str| match n {
            "a" => Some(a.clone()),
            "b" => Some(b.clone()),
            _ => None,
        };
        let ab = a.then(&b);
        assert_eq!(eval("a b", 3, &look).unwrap(), ab);
        assert_eq!(eval("(a b)2'", 3, &look).unwrap(), ab.pow(-2));
        assert_eq!(eval("[a: b]", 3, &look).unwrap(), a.then(&b).then(&a));
        assert_eq!(
            eval("[a, b]", 3, &look).unwrap(),
            a.then(&b).then(&a).then(&b)
        );
        assert_eq!(eval("a3", 3, &look).unwrap(), a);
        assert!(eval("c", 3, &look).is_err());
        assert!(eval("[a b]", 3, &look).is_err());
    }
}
