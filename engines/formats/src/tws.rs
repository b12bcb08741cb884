//! twsearch and ksolve definitions (`.tws`, `.def`), as `docs/ksolveformat.txt` of the
//! twsearch repository describes them.
//!
//! Lines of whitespace-separated tokens; `#` starts a comment line. `Name N`, then
//! `Set NAME PIECES ORIENTATIONS` lines, then a `Solved` block, then `Move NAME`
//! blocks, `MoveSequence NAME MOVES...` and `MoveAlias NAME MOVE` lines. A block lists,
//! for any of the sets, a line of pieces and optionally a line of orientations, and
//! ends with `End`. Pieces are passive: entry `s` is the piece that lands in slot `s`.
//! Old-style blocks (`Solved`, `Move`) number pieces from 1, and a move's orientation
//! line is indexed by piece: entry `a` is what the piece coming from slot `a` gains.
//! New-style blocks (`StartState`, `MoveTransformation`) number from 0, and entry `s`
//! is what the piece landing in slot `s` gains. Moves named like rotations (`x`, `y2`,
//! `Fv`) are moves but, as in twsearch, not generators.

use crate::model::{self, check_perm, move_perm, OrbitMove, ReadMove, MAX_POINTS};
use crate::{alg, FormatError, Imported};
use puz_core::{Perm, Puzzle};

type Range = (usize, usize);

#[derive(Clone, Copy)]
struct Tok<'a> {
    s: &'a str,
    r: Range,
}

struct Line<'a> {
    toks: Vec<Tok<'a>>,
    /// From the first token to the end of the line.
    r: Range,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = at;
        at += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        let mut toks = Vec::new();
        let mut i = 0;
        let b = body.as_bytes();
        while i < b.len() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let st = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i > st {
                toks.push(Tok {
                    s: &body[st..i],
                    r: (line_start + st, line_start + i),
                });
            }
        }
        if toks.is_empty() || toks[0].s.starts_with('#') {
            continue;
        }
        let r = (toks[0].r.0, line_start + body.len());
        out.push(Line { toks, r });
    }
    out
}

struct Set {
    name: String,
    size: usize,
    omod: u64,
}

/// One set's lines in a block: pieces (as written) and orientations.
struct SetLines<'a> {
    set: usize,
    pieces: Vec<Tok<'a>>,
    oris: Option<Vec<Tok<'a>>>,
    name: Tok<'a>,
}

fn number(t: &Tok, what: &str) -> Result<u64, FormatError> {
    t.s.parse::<u64>()
        .map_err(|_| FormatError::new(t.r, format!("`{}` is not a number ({what})", t.s)))
}

fn is_rotation(name: &str) -> bool {
    let b = name.as_bytes();
    if matches!(b.first(), Some(b'x' | b'y' | b'z'))
        && (b.len() == 1 || (b.len() == 2 && (b[1] == b'2' || b[1] == b'\'')))
    {
        return true;
    }
    let caps = b
        .iter()
        .take_while(|&&c| c == b'_' || c.is_ascii_uppercase())
        .count();
    caps > 0 && caps + 1 == b.len() && b[caps] == b'v'
}

struct Reader<'a> {
    lines: Vec<Line<'a>>,
    at: usize,
    sets: Vec<Set>,
}

impl<'a> Reader<'a> {
    /// The lines of a block up to its `End`, set by set.
    fn block(&mut self, head: &Line) -> Result<Vec<SetLines<'a>>, FormatError> {
        let mut out: Vec<SetLines<'a>> = Vec::new();
        loop {
            let Some(line) = self.lines.get(self.at) else {
                let head_text: Vec<&str> = head.toks.iter().map(|t| t.s).collect();
                return Err(FormatError::new(
                    head.r,
                    format!(
                        "the file ends inside the block `{}` (no `End`)",
                        head_text.join(" ")
                    ),
                )
                .with_help("the file may be truncated; every block ends with a line `End`"));
            };
            self.at += 1;
            let first = line.toks[0];
            if first.s == "End" {
                if line.toks.len() != 1 {
                    return Err(FormatError::new(line.r, "`End` stands alone on its line"));
                }
                if let Some(last) = out.last() {
                    if last.pieces.is_empty() {
                        return Err(empty_set(last));
                    }
                }
                return Ok(out);
            }
            let numeric = first.s == "?" || first.s.as_bytes()[0].is_ascii_digit();
            if numeric {
                let Some(cur) = out.last_mut() else {
                    return Err(
                        FormatError::new(line.r, "a line of numbers before any set name")
                            .with_help("name the set on the line before its numbers"),
                    );
                };
                let set = &self.sets[cur.set];
                if line.toks.len() != set.size {
                    return Err(FormatError::new(
                        line.r,
                        format!(
                            "set {} has {} pieces, but this line has {} numbers",
                            set.name,
                            set.size,
                            line.toks.len()
                        ),
                    ));
                }
                if cur.pieces.is_empty() {
                    cur.pieces = line.toks.clone();
                } else if cur.oris.is_none() {
                    cur.oris = Some(line.toks.clone());
                } else {
                    return Err(FormatError::new(
                        line.r,
                        format!("a third line of numbers for set {}", set.name),
                    )
                    .with_help("a set has one line of pieces and at most one of orientations"));
                }
                continue;
            }
            if line.toks.len() != 1 {
                return Err(FormatError::new(
                    line.r,
                    format!(
                        "expected a set name or `End`, found `{}`",
                        line.toks.iter().map(|t| t.s).collect::<Vec<_>>().join(" ")
                    ),
                ));
            }
            if let Some(last) = out.last() {
                if last.pieces.is_empty() {
                    return Err(empty_set(last));
                }
            }
            let Some(set) = self.sets.iter().position(|s| s.name == first.s) else {
                let names: Vec<&str> = self.sets.iter().map(|s| s.name.as_str()).collect();
                return Err(
                    FormatError::new(first.r, format!("unknown set `{}`", first.s))
                        .with_help(format!("the sets are {}", names.join(", "))),
                );
            };
            if out.iter().any(|s| s.set == set) {
                return Err(FormatError::new(
                    first.r,
                    format!("set {} appears twice in this block", first.s),
                ));
            }
            out.push(SetLines {
                set,
                pieces: vec![],
                oris: None,
                name: first,
            });
        }
    }

    /// Pieces (from 0) and orientations of one set's lines; `?` is refused.
    fn values(&self, sl: &SetLines, base: u64) -> Result<(Vec<usize>, Vec<u64>), FormatError> {
        let set = &self.sets[sl.set];
        let mut pieces = Vec::new();
        for t in &sl.pieces {
            if t.s == "?" {
                return Err(wildcard(t));
            }
            let v = number(t, "a piece")?;
            if v < base || v - base >= set.size as u64 {
                return Err(FormatError::new(
                    t.r,
                    format!(
                        "piece {v} is out of range: set {} numbers its {} pieces {} to {}",
                        set.name,
                        set.size,
                        base,
                        set.size as u64 - 1 + base
                    ),
                ));
            }
            pieces.push((v - base) as usize);
        }
        let mut oris = vec![0; set.size];
        if let Some(ts) = &sl.oris {
            for (i, t) in ts.iter().enumerate() {
                if t.s == "?" {
                    return Err(wildcard(t));
                }
                let v = number(t, "an orientation")?;
                if v >= set.omod {
                    return Err(FormatError::new(
                        t.r,
                        format!(
                            "orientation {v} is out of range: set {} has {} orientation{} (0 to {})",
                            set.name,
                            set.omod,
                            if set.omod == 1 { "" } else { "s" },
                            set.omod - 1
                        ),
                    ));
                }
                oris[i] = v;
            }
        }
        Ok((pieces, oris))
    }

    /// A move block as the effect of the move on every set.
    fn move_block(
        &mut self,
        p: &Puzzle,
        head: &Line,
        new_style: bool,
    ) -> Result<Perm, FormatError> {
        let block = self.block(head)?;
        let mut orbits: Vec<Option<OrbitMove>> = (0..self.sets.len()).map(|_| None).collect();
        for sl in &block {
            let (pieces, oris) = self.values(sl, if new_style { 0 } else { 1 })?;
            if let Err((i, why)) = check_perm(&pieces, pieces.len()) {
                return Err(FormatError::new(
                    sl.pieces[i].r,
                    format!(
                        "the pieces of set {} in this move are not a permutation: {why}",
                        self.sets[sl.set].name
                    ),
                )
                .with_help("a move's line of pieces lists every piece exactly once"));
            }
            let gains = if new_style {
                oris
            } else {
                pieces.iter().map(|&a| oris[a]).collect()
            };
            orbits[sl.set] = Some(OrbitMove { pieces, gains });
        }
        Ok(move_perm(p, &orbits))
    }
}

fn empty_set(sl: &SetLines) -> FormatError {
    FormatError::new(
        sl.name.r,
        format!("set {} is named but given no numbers", sl.name.s),
    )
}

fn wildcard(t: &Tok) -> FormatError {
    FormatError::new(
        t.r,
        "`?` (a piece or orientation left unknown) is not supported",
    )
    .with_help("puz tells every piece and orientation apart; give the value")
}

/// Reads a `.tws`/`.def` file.
pub fn read(name: &str, text: &str) -> Result<Imported, FormatError> {
    let mut rd = Reader {
        lines: lines(text),
        at: 0,
        sets: vec![],
    };
    let mut puzzle: Option<Puzzle> = None;
    let mut seen_name = false;
    let mut moves: Vec<ReadMove> = Vec::new();
    let mut seqs: Vec<(Tok, Range, bool)> = Vec::new();
    let mut notes = Vec::new();
    while rd.at < rd.lines.len() {
        let line = Line {
            toks: rd.lines[rd.at].toks.clone(),
            r: rd.lines[rd.at].r,
        };
        rd.at += 1;
        let key = line.toks[0];
        let count = |n: usize, form: &str| -> Result<(), FormatError> {
            if line.toks.len() != n {
                return Err(FormatError::new(
                    line.r,
                    format!("`{}` takes the form `{form}`", key.s),
                ));
            }
            Ok(())
        };
        let order_err =
            |what: &str| FormatError::new(key.r, format!("`{}` in the wrong place: {what}", key.s));
        match key.s {
            "Name" => {
                if seen_name || !rd.sets.is_empty() {
                    return Err(order_err("`Name` comes first"));
                }
                count(2, "Name NAME")?;
                seen_name = true;
            }
            "Set" => {
                if puzzle.is_some() {
                    return Err(order_err("sets come before `Solved`"));
                }
                count(4, "Set NAME PIECES ORIENTATIONS")?;
                let size = number(&line.toks[2], "the number of pieces")?;
                let omod = number(&line.toks[3], "the number of orientations")?;
                if size == 0 {
                    return Err(FormatError::new(
                        line.toks[2].r,
                        "a set needs at least one piece",
                    ));
                }
                if omod == 0 || omod > 255 {
                    return Err(FormatError::new(
                        line.toks[3].r,
                        "the number of orientations must be 1 to 255",
                    ));
                }
                if rd.sets.iter().any(|s| s.name == line.toks[1].s) {
                    return Err(FormatError::new(
                        line.toks[1].r,
                        format!("set {} is defined twice", line.toks[1].s),
                    ));
                }
                let points: usize = rd.sets.iter().map(|s| s.size * s.omod as usize).sum();
                if points + (size * omod) as usize > MAX_POINTS {
                    return Err(FormatError::new(
                        line.r,
                        "this puzzle has more than 65,536 points (pieces x orientations)",
                    ));
                }
                rd.sets.push(Set {
                    name: line.toks[1].s.to_string(),
                    size: size as usize,
                    omod,
                });
            }
            "Solved" | "StartState" => {
                if puzzle.is_some() || rd.sets.is_empty() {
                    return Err(order_err("one `Solved` block, after the sets"));
                }
                count(1, key.s)?;
                let block = rd.block(&line)?;
                let base = if key.s == "StartState" { 0 } else { 1 };
                for sl in &block {
                    let set = &rd.sets[sl.set];
                    let (pieces, oris) = rd.values(sl, base)?;
                    if let Err((i, _)) = check_perm(&pieces, set.size) {
                        return Err(FormatError::new(
                            sl.pieces[i].r,
                            format!("identical pieces in set {}: piece {} is listed more than once in the solved position", set.name, sl.pieces[i].s),
                        )
                        .with_help("puz tells every piece apart, so it cannot load a puzzle whose solved position repeats a piece"));
                    }
                    if pieces.iter().enumerate().any(|(i, &v)| v != i)
                        || oris.iter().any(|&o| o != 0)
                    {
                        notes.push(format!("the solved position of set {} is not the identity: puz counts positions from it, relabelling its pieces", set.name));
                    }
                }
                let mut p = Puzzle::new(name);
                for s in &rd.sets {
                    p.add_orbit(s.name.clone(), s.size, s.omod as u8, vec![]);
                }
                puzzle = Some(p);
            }
            "Move" | "MoveTransformation" => {
                let Some(p) = &puzzle else {
                    return Err(order_err("moves come after the `Solved` block"));
                };
                count(2, &format!("{} NAME", key.s))?;
                let perm = rd.move_block(p, &line, key.s == "MoveTransformation")?;
                let n = line.toks[1].s.to_string();
                moves.push(ReadMove {
                    gen: !is_rotation(&n),
                    name: n,
                    perm,
                    range: line.toks[1].r,
                });
            }
            "MoveSequence" | "MoveAlias" => {
                if puzzle.is_none() {
                    return Err(order_err("moves come after the `Solved` block"));
                }
                if line.toks.len() < 3 || (key.s == "MoveAlias" && line.toks.len() != 3) {
                    return Err(FormatError::new(
                        line.r,
                        format!("`{}` takes the form `{} NAME MOVES`", key.s, key.s),
                    ));
                }
                seqs.push((
                    line.toks[1],
                    (line.toks[2].r.0, line.r.1),
                    key.s == "MoveAlias",
                ));
            }
            "Illegal" => {
                return Err(FormatError::new(line.r, "`Illegal` (positions a move may not leave pieces in) is not supported")
                    .with_help("puz has no constraints on positions; remove the `Illegal` lines to study the unconstrained group"));
            }
            other => {
                return Err(FormatError::new(key.r, format!("unknown section `{other}`"))
                    .with_help("a line starts with Name, Set, Solved, StartState, Move, MoveTransformation, MoveSequence, MoveAlias or Illegal"));
            }
        }
    }
    let end = (text.len(), text.len());
    let Some(puzzle) = puzzle else {
        return Err(FormatError::new(end, if rd.sets.is_empty() { "no sets: the file defines no puzzle" } else { "no `Solved` block" })
            .with_help("a definition has `Set` lines, a `Solved` block and `Move` blocks; the file may be truncated"));
    };
    if moves.is_empty() {
        return Err(
            FormatError::new(end, "no moves: the file defines no `Move` block")
                .with_help("the file may be truncated"),
        );
    }
    // Sequences may use each other in any order, as in twsearch: resolve in passes.
    let degree = puzzle.degree();
    let mut pending = seqs;
    while !pending.is_empty() {
        let before = pending.len();
        let mut still = Vec::new();
        let mut last_err = None;
        for (nm, r, alias) in pending {
            let found = |s: &str| moves.iter().find(|m| m.name == s).map(|m| m.perm.clone());
            match alg::eval(&text[r.0..r.1], degree, &found) {
                Ok(perm) => moves.push(ReadMove {
                    name: nm.s.to_string(),
                    perm,
                    gen: !alias && !is_rotation(nm.s),
                    range: nm.r,
                }),
                Err(((a, b), why)) => {
                    last_err = Some(FormatError::new(
                        (r.0 + a, r.0 + b),
                        format!("in move sequence `{}`: {why}", nm.s),
                    ));
                    still.push((nm, r, alias));
                }
            }
        }
        if still.len() == before {
            return Err(last_err.expect("an unresolved sequence has an error"));
        }
        pending = still;
    }
    model::finish(puzzle, moves, notes)
}

/// Writes `moves` of puzzle `p` as an old-style definition twsearch and ksolve read.
pub fn write(p: &Puzzle, moves: &[(String, Perm)]) -> String {
    let mut t = String::new();
    t.push_str(&format!(
        "# puzzle {}, written by puz\nName {}\n\n",
        p.name, p.name
    ));
    for o in &p.orbits {
        t.push_str(&format!("Set {} {} {}\n", o.name, o.size, o.twist));
    }
    t.push_str("\nSolved\n");
    for o in &p.orbits {
        t.push_str(&format!(
            "{}\n{}\n{}\n",
            o.name,
            join((1..=o.size).collect()),
            join(vec![0; o.size])
        ));
    }
    t.push_str("End\n");
    for (name, perm) in moves {
        t.push_str(&format!("\nMove {name}\n"));
        for (o, m) in p.orbits.iter().zip(model::orbit_moves(p, perm)) {
            if m.pieces.iter().enumerate().all(|(i, &a)| a == i) && m.gains.iter().all(|&g| g == 0)
            {
                continue;
            }
            // Old style: orientations indexed by the piece that moves.
            let mut by_piece = vec![0u64; o.size];
            for (s, &a) in m.pieces.iter().enumerate() {
                by_piece[a] = m.gains[s];
            }
            t.push_str(&format!(
                "{}\n{}\n{}\n",
                o.name,
                join(m.pieces.iter().map(|a| a + 1).collect()),
                join(by_piece)
            ));
        }
        t.push_str("End\n");
    }
    t
}

fn join<T: ToString>(v: Vec<T>) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
