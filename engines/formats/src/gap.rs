//! GAP files of generators: `U := (1,3,8,6)(2,5,7,4); G := Group(U, R);`, and the form
//! puz writes, a record of moves (`moves := rec(U := (...), E := (...));` so that moves
//! named like GAP's own read-only variables, such as `E`, stay valid GAP).
//!
//! Read: assignments of permutations (cycles, `()`, names of earlier ones, products
//! with `*`, powers with `^`), records of them, and at most one `Group(...)` naming the
//! generators (without one, every permutation generates). The puzzle has one orbit of
//! points numbered from 1, as puz's `points N`.

use crate::model::{self, ReadMove, MAX_POINTS};
use crate::{FormatError, Imported};
use puz_core::{Perm, Puzzle};

struct Lexer<'t> {
    s: &'t [u8],
    i: usize,
}

impl Lexer<'_> {
    fn ws(&mut self) {
        loop {
            while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
            if self.s.get(self.i) == Some(&b'#') {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.i += 1;
                }
            } else {
                return;
            }
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(tok.as_bytes()) {
            self.i += tok.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, tok: &str) -> Result<(), FormatError> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.err(format!("expected `{tok}`")))
        }
    }
    fn err(&self, msg: impl Into<String>) -> FormatError {
        let e = (self.i + 1).min(self.s.len());
        FormatError::new((self.i.min(self.s.len()), e), msg)
    }
    /// A GAP identifier: letters, digits, `_` (and `.` for record fields), not digits
    /// alone; a character after `\` is a letter (puz writes `R\+\+` for `R++`).
    fn ident(&mut self) -> Option<(String, (usize, usize))> {
        self.ws();
        let st = self.i;
        let mut name = Vec::new();
        let mut letter = false;
        while let Some(&c) = self.s.get(self.i) {
            if c == b'\\' && self.i + 1 < self.s.len() {
                name.push(self.s[self.i + 1]);
                letter = true;
                self.i += 2;
            } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                letter |= c.is_ascii_alphabetic() || c == b'_';
                name.push(c);
                self.i += 1;
            } else {
                break;
            }
        }
        if !letter {
            self.i = st;
            return None;
        }
        Some((String::from_utf8_lossy(&name).into_owned(), (st, self.i)))
    }
    fn int(&mut self) -> Option<(usize, (usize, usize))> {
        self.ws();
        let st = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let v = std::str::from_utf8(&self.s[st..self.i])
            .ok()?
            .parse()
            .ok()?;
        Some((v, (st, self.i)))
    }
}

/// A permutation of points 1.., as images (index 0 unused), grown as points appear.
type Images = Vec<usize>;

fn compose(a: &Images, b: &Images) -> Images {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| {
            let x = a.get(i).copied().unwrap_or(i);
            b.get(x).copied().unwrap_or(x)
        })
        .collect()
}

fn power(a: &Images, k: i64) -> Images {
    let mut base = a.clone();
    if k < 0 {
        base = vec![0; a.len()];
        for (i, &x) in a.iter().enumerate() {
            base[x] = i;
        }
    }
    let mut r: Images = (0..a.len()).collect();
    for _ in 0..k.unsigned_abs() {
        r = compose(&r, &base);
    }
    r
}

struct Reader<'t> {
    lx: Lexer<'t>,
    /// Named permutations: (name as referred to, move name, images, range).
    perms: Vec<(String, String, Images, (usize, usize))>,
}

impl Reader<'_> {
    fn expr(&mut self) -> Result<Images, FormatError> {
        let mut acc = self.factor()?;
        while self.lx.eat("*") {
            let f = self.factor()?;
            acc = compose(&acc, &f);
        }
        Ok(acc)
    }

    fn factor(&mut self) -> Result<Images, FormatError> {
        let base = self.primary()?;
        if self.lx.eat("^") {
            let neg = self.lx.eat("-");
            let (k, _) = self
                .lx
                .int()
                .ok_or_else(|| self.lx.err("expected a power"))?;
            return Ok(power(&base, if neg { -(k as i64) } else { k as i64 }));
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<Images, FormatError> {
        let st = self.lx.i;
        if self.lx.peek() == Some(b'(') {
            let save = self.lx.i;
            self.lx.i += 1;
            let c = self.lx.peek();
            if c.is_some_and(|c| c.is_ascii_digit()) || c == Some(b')') {
                self.lx.i = save;
                return self.cycles();
            }
            let e = self.expr()?;
            self.lx.expect(")")?;
            return Ok(e);
        }
        match self.lx.ident() {
            Some((n, r)) => match self.perms.iter().find(|p| p.0 == n) {
                Some(p) => Ok(p.2.clone()),
                None => Err(FormatError::new(
                    r,
                    format!("`{n}` is not a permutation defined before this line"),
                )),
            },
            None => {
                self.lx.i = st;
                Err(self
                    .lx
                    .err("expected a permutation: cycles such as (1,2,3), or a name"))
            }
        }
    }

    fn cycles(&mut self) -> Result<Images, FormatError> {
        let mut img: Images = vec![0];
        while self.lx.peek() == Some(b'(') {
            self.lx.i += 1;
            if self.lx.eat(")") {
                continue;
            }
            let mut cyc: Vec<(usize, (usize, usize))> = Vec::new();
            loop {
                let (v, r) = self
                    .lx
                    .int()
                    .ok_or_else(|| self.lx.err("expected a point (a number from 1)"))?;
                if v == 0 || v > MAX_POINTS {
                    return Err(FormatError::new(
                        r,
                        format!("point {v} is out of range (1 to 65536)"),
                    ));
                }
                if cyc.iter().any(|c| c.0 == v) || (v < img.len() && img[v] != v) {
                    return Err(FormatError::new(
                        r,
                        format!("point {v} appears twice: these cycles are not a permutation"),
                    ));
                }
                cyc.push((v, r));
                if !self.lx.eat(",") {
                    break;
                }
            }
            self.lx.expect(")")?;
            let top = cyc.iter().map(|c| c.0).max().unwrap_or(0);
            if img.len() <= top {
                let from = img.len();
                img.extend(from..=top);
            }
            for (k, c) in cyc.iter().enumerate() {
                img[c.0] = cyc[(k + 1) % cyc.len()].0;
            }
        }
        Ok(img)
    }
}

/// Reads a GAP file of generators.
pub fn read(name: &str, text: &str) -> Result<Imported, FormatError> {
    let mut rd = Reader {
        lx: Lexer {
            s: text.as_bytes(),
            i: 0,
        },
        perms: vec![],
    };
    let mut gens: Option<Vec<String>> = None;
    while rd.lx.peek().is_some() {
        let Some((lhs, lr)) = rd.lx.ident() else {
            return Err(rd
                .lx
                .err("expected `NAME := ...;`")
                .with_help("puz reads assignments of permutations and one `Group(...)`"));
        };
        rd.lx.expect(":=")?;
        if rd.lx.eat("rec(") {
            while let Some((k, kr)) = rd.lx.ident() {
                rd.lx.expect(":=")?;
                let p = rd.expr()?;
                rd.perms.push((format!("{lhs}.{k}"), k, p, kr));
                if !rd.lx.eat(",") {
                    break;
                }
            }
            rd.lx.expect(")")?;
        } else if rd.lx.eat("Group(") {
            if gens.is_some() {
                return Err(FormatError::new(lr, "a second `Group(...)`")
                    .with_help("puz reads one group per file"));
            }
            let bracket = rd.lx.eat("[");
            let mut names = Vec::new();
            loop {
                let st = rd.lx.i;
                let Some((n, r)) = rd.lx.ident() else {
                    rd.lx.i = st;
                    return Err(rd
                        .lx
                        .err("expected the name of a permutation defined above"));
                };
                match rd.perms.iter().find(|p| p.0 == n) {
                    Some(p) => names.push(p.1.clone()),
                    None => {
                        return Err(FormatError::new(
                            r,
                            format!("`{n}` is not a permutation defined above"),
                        ))
                    }
                }
                if !rd.lx.eat(",") {
                    break;
                }
            }
            if bracket {
                rd.lx.expect("]")?;
            }
            rd.lx.expect(")")?;
            gens = Some(names);
        } else {
            let p = rd.expr()?;
            rd.perms.push((lhs.clone(), lhs, p, lr));
        }
        rd.lx.expect(";")?;
    }
    if rd.perms.is_empty() {
        let e = text.len();
        return Err(FormatError::new(
            (e, e),
            "no permutations: the file defines no moves",
        ));
    }
    let n = rd
        .perms
        .iter()
        .map(|p| p.2.len() - 1)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut puzzle = Puzzle::new(name);
    puzzle.add_orbit("points", n, 1, (1..=n).map(|i| i.to_string()).collect());
    let moves = rd
        .perms
        .into_iter()
        .map(|(_, mname, img, range)| {
            let images: Vec<usize> = (1..=n)
                .map(|i| img.get(i).copied().unwrap_or(i) - 1)
                .collect();
            ReadMove {
                gen: gens.as_ref().is_none_or(|g| g.contains(&mname)),
                name: mname,
                perm: Perm::from_images(images).expect("cycles were checked"),
                range,
            }
        })
        .collect();
    model::finish(puzzle, moves, vec![])
}

/// Writes `moves` of puzzle `p` as GAP permutations of its points and the group the
/// moves flagged as generators generate.
/// A move name as a GAP identifier: characters GAP does not allow in one (the signs of
/// `R++`, `UR5+`) escaped with `\`.
fn gap_ident(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if !(c.is_ascii_alphanumeric() || c == '_') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

pub fn write(p: &Puzzle, moves: &[(String, Perm)], gens: &[usize]) -> String {
    let mut t = format!(
        "# puzzle {}, written by puz: each move a permutation of the puzzle's {} points\n\
         # (orbit by orbit, location by location, orientation by orientation, from 1).\n\
         moves := rec(\n",
        p.name,
        p.degree()
    );
    for (i, (name, perm)) in moves.iter().enumerate() {
        let cyc: String = perm
            .cycles()
            .iter()
            .map(|c| {
                format!(
                    "({})",
                    c.iter()
                        .map(|x| (x + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        let cyc = if cyc.is_empty() {
            "()".to_string()
        } else {
            cyc
        };
        t.push_str(&format!(
            "  {} := {cyc}{}\n",
            gap_ident(name),
            if i + 1 < moves.len() { "," } else { "" }
        ));
    }
    t.push_str(");\n");
    let names: Vec<String> = gens
        .iter()
        .map(|&g| format!("moves.{}", gap_ident(&moves[g].0)))
        .collect();
    t.push_str(&format!("G := Group({});\n", names.join(", ")));
    t
}
