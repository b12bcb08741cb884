//! cubing.js KPuzzle definitions (`.kpuzzle.json`, `.def.json`).
//!
//! `orbits` lists `{orbitName, numPieces, numOrientations}`; `defaultPattern` gives
//! each orbit's `pieces` and `orientation`; `moves` gives each move's `permutation` and
//! `orientationDelta` per orbit; `derivedMoves` defines moves by sequences. As in
//! cubing.js's `combine`, a transformation is passive: `permutation[s]` is the slot
//! whose piece lands in slot `s`, gaining `orientationDelta[s]`.

use crate::model::{self, check_perm, move_perm, OrbitMove, ReadMove, MAX_POINTS};
use crate::{alg, FormatError, Imported};
use puz_core::{Perm, Puzzle};
use serde_json::{Map, Value};

/// A place in the JSON: its path for the message, and the text to point at.
struct At<'t> {
    text: &'t str,
    path: Vec<String>,
}

impl At<'_> {
    fn child(&self, key: &str) -> At<'_> {
        let mut path = self.path.clone();
        path.push(key.to_string());
        At {
            text: self.text,
            path,
        }
    }

    fn path(&self) -> String {
        let mut s = String::new();
        for p in &self.path {
            if p.parse::<usize>().is_ok() {
                s.push_str(&format!("[{p}]"));
            } else {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(p);
            }
        }
        if s.is_empty() {
            "the top level".into()
        } else {
            s
        }
    }

    /// The byte range of the deepest key of the path found in the text, following the
    /// keys in order (indices are skipped); the opening brace when none is found.
    fn range(&self) -> (usize, usize) {
        let start = self.text.find('{').unwrap_or(0);
        let mut best = (start, start + 1);
        let mut from = start;
        for p in &self.path {
            if p.parse::<usize>().is_ok() {
                continue;
            }
            let key = format!("{}", Value::String(p.clone()));
            match self.text[from..].find(&key) {
                Some(i) => {
                    best = (from + i, from + i + key.len());
                    from = best.1;
                }
                None => break,
            }
        }
        best
    }

    fn err(&self, msg: impl Into<String>) -> FormatError {
        FormatError::new(self.range(), format!("{}: {}", self.path(), msg.into()))
    }
}

fn field<'v>(obj: &'v Map<String, Value>, at: &At, key: &str) -> Result<&'v Value, FormatError> {
    obj.get(key)
        .ok_or_else(|| at.err(format!("missing field `{key}`")))
}

fn object<'v>(v: &'v Value, at: &At) -> Result<&'v Map<String, Value>, FormatError> {
    v.as_object().ok_or_else(|| at.err("expected an object"))
}

fn int(v: &Value, at: &At, max: u64) -> Result<u64, FormatError> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        Some(n) => Err(at.err(format!("{n} is out of range (at most {max})"))),
        None => Err(at.err(format!("expected a whole number, found {v}"))),
    }
}

/// A list of `len` numbers each below `bound`.
fn numbers(
    v: &Value,
    at: &At,
    len: usize,
    bound: u64,
    what: &str,
) -> Result<Vec<u64>, FormatError> {
    let a = v
        .as_array()
        .ok_or_else(|| at.err("expected a list of numbers"))?;
    if a.len() != len {
        return Err(at.err(format!("expected {len} numbers, found {}", a.len())));
    }
    let mut out = Vec::with_capacity(len);
    for (i, x) in a.iter().enumerate() {
        let at = at.child(&i.to_string());
        let n = x
            .as_u64()
            .ok_or_else(|| at.err(format!("expected a whole number, found {x}")))?;
        if n >= bound {
            return Err(at.err(format!("{what} {n} is out of range (0 to {})", bound - 1)));
        }
        out.push(n);
    }
    Ok(out)
}

struct OrbitDef {
    name: String,
    size: usize,
    omod: u64,
}

/// Reads a KPuzzle definition.
pub fn read(name: &str, text: &str) -> Result<Imported, FormatError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let off = offset(text, e.line(), e.column());
        FormatError::new(
            (off, (off + 1).min(text.len())),
            format!("not valid JSON: {e}"),
        )
    })?;
    let top = At { text, path: vec![] };
    let obj = object(&root, &top)?;
    for k in obj.keys() {
        if !matches!(
            k.as_str(),
            "name"
                | "orbits"
                | "defaultPattern"
                | "moves"
                | "derivedMoves"
                | "$schema"
                | "experimentalPuzzleDescription"
        ) {
            return Err(top
                .child(k)
                .err(format!("unknown field `{k}`"))
                .with_help("puz reads name, orbits, defaultPattern, moves and derivedMoves"));
        }
    }
    let at = top.child("name");
    field(obj, &top, "name")?
        .as_str()
        .ok_or_else(|| at.err("expected a text"))?;
    let at = top.child("orbits");
    let orbits_v = field(obj, &top, "orbits")?
        .as_array()
        .ok_or_else(|| at.err("expected a list"))?;
    if orbits_v.is_empty() {
        return Err(at.err("no orbits"));
    }
    let mut orbits: Vec<OrbitDef> = Vec::new();
    let mut points = 0;
    for (i, o) in orbits_v.iter().enumerate() {
        let at = at.child(&i.to_string());
        let m = object(o, &at)?;
        let oname = field(m, &at, "orbitName")?
            .as_str()
            .ok_or_else(|| at.child("orbitName").err("expected a text"))?;
        let size = int(
            field(m, &at, "numPieces")?,
            &at.child("numPieces"),
            MAX_POINTS as u64,
        )? as usize;
        let omod = int(
            field(m, &at, "numOrientations")?,
            &at.child("numOrientations"),
            255,
        )?;
        if size == 0 || omod == 0 {
            return Err(at.err("numPieces and numOrientations must be at least 1"));
        }
        if orbits.iter().any(|x| x.name == oname) {
            return Err(at.err(format!("orbit {oname} is defined twice")));
        }
        points += size * omod as usize;
        if points > MAX_POINTS {
            return Err(at.err("this puzzle has more than 65,536 points (pieces x orientations)"));
        }
        orbits.push(OrbitDef {
            name: oname.to_string(),
            size,
            omod,
        });
    }
    let mut notes = Vec::new();
    let at = top.child("defaultPattern");
    let pat = object(field(obj, &top, "defaultPattern")?, &at)?;
    for k in pat.keys() {
        if !orbits.iter().any(|o| &o.name == k) {
            return Err(at.child(k).err(format!("unknown orbit `{k}`")));
        }
    }
    for o in &orbits {
        let at = at.child(&o.name);
        let m = object(
            field(pat, &at, &o.name).map_err(|_| at.err("missing orbit"))?,
            &at,
        )?;
        let pieces = numbers(
            field(m, &at, "pieces")?,
            &at.child("pieces"),
            o.size,
            o.size as u64,
            "piece",
        )?;
        let oris = numbers(
            field(m, &at, "orientation")?,
            &at.child("orientation"),
            o.size,
            o.omod,
            "orientation",
        )?;
        let ps: Vec<usize> = pieces.iter().map(|&x| x as usize).collect();
        if let Err((i, _)) = check_perm(&ps, o.size) {
            return Err(at.child("pieces").child(&i.to_string()).err(format!("identical pieces: piece {} is listed more than once in the default pattern", ps[i]))
                .with_help("puz tells every piece apart, so it cannot load a puzzle whose default pattern repeats a piece"));
        }
        if let Some(om) = m.get("orientationMod") {
            let at = at.child("orientationMod");
            let mods = numbers(om, &at, o.size, u64::MAX, "orientationMod")?;
            if let Some(i) = mods.iter().position(|&x| x != 0 && x != o.omod) {
                return Err(at.child(&i.to_string()).err(format!("orientationMod {} (orientation known only mod {}) is not supported", mods[i], mods[i]))
                    .with_help("puz tells every orientation apart; an orientationMod of 0 everywhere (or none) is what it can load"));
            }
        }
        if ps.iter().enumerate().any(|(i, &v)| v != i) || oris.iter().any(|&x| x != 0) {
            notes.push(format!("the default pattern of orbit {} is not the identity: puz counts positions from it, relabelling its pieces", o.name));
        }
    }
    let mut p = Puzzle::new(name);
    for o in &orbits {
        p.add_orbit(o.name.clone(), o.size, o.omod as u8, vec![]);
    }
    let at = top.child("moves");
    let mv = object(field(obj, &top, "moves")?, &at)?;
    if mv.is_empty() {
        return Err(at.err("no moves"));
    }
    let mut moves = Vec::new();
    for (mname, t) in in_file_order(mv, &at) {
        let at = at.child(mname);
        let perm = transformation(&p, &orbits, t, &at, &mut notes)?;
        moves.push(ReadMove {
            name: mname.clone(),
            perm,
            gen: true,
            range: at.range(),
        });
    }
    if let Some(d) = obj.get("derivedMoves") {
        let at = top.child("derivedMoves");
        let d = object(d, &at)?;
        // Derived moves may use each other in any order: resolve in passes.
        let mut pending: Vec<(&String, &Value)> = in_file_order(d, &at);
        while !pending.is_empty() {
            let before = pending.len();
            let mut still = Vec::new();
            let mut last_err = None;
            for (dn, dv) in pending {
                let at = at.child(dn);
                let s = dv
                    .as_str()
                    .ok_or_else(|| at.err("expected a text (a move sequence)"))?;
                let found = |n: &str| moves.iter().find(|m| m.name == n).map(|m| m.perm.clone());
                match alg::eval(s, p.degree(), &found) {
                    Ok(perm) => moves.push(ReadMove {
                        name: dn.clone(),
                        perm,
                        gen: false,
                        range: at.range(),
                    }),
                    Err((_, why)) => {
                        last_err = Some(at.err(format!("in `{s}`: {why}")));
                        still.push((dn, dv));
                    }
                }
            }
            if still.len() == before {
                return Err(last_err.expect("an unresolved move has an error"));
            }
            pending = still;
        }
    }
    model::finish(p, moves, notes)
}

fn transformation(
    p: &Puzzle,
    orbits: &[OrbitDef],
    t: &Value,
    at: &At,
    notes: &mut Vec<String>,
) -> Result<Perm, FormatError> {
    let m = object(t, at)?;
    for k in m.keys() {
        if !orbits.iter().any(|o| &o.name == k) {
            // cubing.js combines transformations over the listed orbits only.
            notes.push(format!(
                "{} is not a listed orbit: ignored, as cubing.js does",
                at.child(k).path()
            ));
        }
    }
    let mut parts = Vec::new();
    for o in orbits {
        let at = at.child(&o.name);
        let om = object(
            field(m, &at, &o.name).map_err(|_| at.err("missing orbit"))?,
            &at,
        )?;
        let perm = numbers(
            field(om, &at, "permutation")?,
            &at.child("permutation"),
            o.size,
            o.size as u64,
            "piece",
        )?;
        let gains = numbers(
            field(om, &at, "orientationDelta")?,
            &at.child("orientationDelta"),
            o.size,
            o.omod,
            "orientation",
        )?;
        let pieces: Vec<usize> = perm.iter().map(|&x| x as usize).collect();
        if let Err((i, why)) = check_perm(&pieces, o.size) {
            return Err(at
                .child("permutation")
                .child(&i.to_string())
                .err(format!("not a permutation: {why}")));
        }
        parts.push(Some(OrbitMove { pieces, gains }));
    }
    Ok(move_perm(p, &parts))
}

/// An object's entries in the order the file writes them (serde_json's map sorts them),
/// so moves keep their order.
fn in_file_order<'v>(m: &'v Map<String, Value>, at: &At) -> Vec<(&'v String, &'v Value)> {
    let mut v: Vec<(usize, (&String, &Value))> =
        m.iter().map(|e| (at.child(e.0).range().0, e)).collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// The byte offset of a 1-based line and column.
fn offset(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + col.saturating_sub(1)).min(text.len())
}

/// Writes `moves` of puzzle `p` as a KPuzzle definition.
pub fn write(p: &Puzzle, moves: &[(String, Perm)]) -> String {
    let q = |s: &str| Value::String(s.to_string()).to_string();
    let list = |v: Vec<u64>| {
        format!(
            "[{}]",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut t = format!("{{\n  \"name\": {},\n  \"orbits\": [\n", q(&p.name));
    let n = p.orbits.len();
    for (i, o) in p.orbits.iter().enumerate() {
        t.push_str(&format!(
            "    {{ \"orbitName\": {}, \"numPieces\": {}, \"numOrientations\": {} }}{}\n",
            q(&o.name),
            o.size,
            o.twist,
            if i + 1 < n { "," } else { "" }
        ));
    }
    t.push_str("  ],\n  \"defaultPattern\": {\n");
    for (i, o) in p.orbits.iter().enumerate() {
        t.push_str(&format!(
            "    {}: {{ \"pieces\": {}, \"orientation\": {} }}{}\n",
            q(&o.name),
            list((0..o.size as u64).collect()),
            list(vec![0; o.size]),
            if i + 1 < n { "," } else { "" }
        ));
    }
    t.push_str("  },\n  \"moves\": {\n");
    for (mi, (name, perm)) in moves.iter().enumerate() {
        t.push_str(&format!("    {}: {{\n", q(name)));
        for (i, (o, m)) in p.orbits.iter().zip(model::orbit_moves(p, perm)).enumerate() {
            t.push_str(&format!(
                "      {}: {{ \"permutation\": {}, \"orientationDelta\": {} }}{}\n",
                q(&o.name),
                list(m.pieces.iter().map(|&x| x as u64).collect()),
                list(m.gains),
                if i + 1 < n { "," } else { "" }
            ));
        }
        t.push_str(&format!(
            "    }}{}\n",
            if mi + 1 < moves.len() { "," } else { "" }
        ));
    }
    t.push_str("  }\n}\n");
    t
}
