//! The unfolded net of a cube whose locations are named by their faces (`UFR`, `UF`,
//! `U`). A piece with orientation `t` at a location shows its sticker `k` at the
//! location's sticker `(k + t) mod n` (stickers in label order, corners clockwise).

use super::puzzle_ctx::PuzzleCtx;
use puz_core::Perm;

const FACES: &str = "UDFBRL";

/// Where each location's stickers are: (orbit, location) for a set of face letters.
struct Finder<'a> {
    p: &'a PuzzleCtx,
}

impl Finder<'_> {
    fn find(&self, faces: &[char]) -> Option<(usize, usize)> {
        for (oi, o) in self.p.def.orbits.iter().enumerate() {
            for (l, lab) in o.labels.iter().enumerate() {
                if lab.len() == faces.len() && faces.iter().all(|f| lab.contains(*f)) {
                    return Some((oi, l));
                }
            }
        }
        None
    }
}

fn is_cube(p: &PuzzleCtx) -> Option<usize> {
    let corner = p.def.orbits.iter().find(|o| {
        o.size == 8
            && o.twist == 3
            && o.labels
                .iter()
                .all(|l| l.len() == 3 && l.chars().all(|c| FACES.contains(c)))
    })?;
    let is_edges = |o: &puz_core::Orbit| {
        o.size == 12
            && o.twist == 2
            && o.labels
                .iter()
                .all(|l| l.len() == 2 && l.chars().all(|c| FACES.contains(c)))
    };
    let is_centres = |o: &puz_core::Orbit| {
        o.size == 6
            && o.labels
                .iter()
                .all(|l| l.len() == 1 && FACES.contains(l.as_str()))
    };
    let edges = p.def.orbits.iter().any(is_edges);
    let centres = p.def.orbits.iter().any(is_centres);
    // Draw only what the net shows: corners, edges and centres of a 2x2x2 or 3x3x3.
    let all_drawn = p
        .def
        .orbits
        .iter()
        .all(|o| std::ptr::eq(o, corner) || is_edges(o) || is_centres(o));
    if !all_drawn || (centres && !edges) {
        return None;
    }
    Some(if edges { 3 } else { 2 })
}

/// Grid coordinates: for a face, the cubie coordinates (x, y, z) of row r, column c.
fn cubie(face: char, r: i32, c: i32) -> (i32, i32, i32) {
    match face {
        'U' => (c, 1, r),
        'D' => (c, -1, -r),
        'F' => (c, -r, 1),
        'B' => (-c, -r, -1),
        'R' => (1, -r, -c),
        _ => (-1, -r, c), // L
    }
}

fn letters(x: i32, y: i32, z: i32) -> Vec<char> {
    let mut v = Vec::new();
    if y > 0 {
        v.push('U')
    }
    if y < 0 {
        v.push('D')
    }
    if z > 0 {
        v.push('F')
    }
    if z < 0 {
        v.push('B')
    }
    if x > 0 {
        v.push('R')
    }
    if x < 0 {
        v.push('L')
    }
    v
}

pub fn net(p: &PuzzleCtx, perm: &Perm) -> Option<String> {
    let n = is_cube(p)?;
    let finder = Finder { p };
    let states = p.def.orbit_states(perm);
    let coords: Vec<i32> = if n == 3 { vec![-1, 0, 1] } else { vec![-1, 1] };
    let sticker = |face: char, r: i32, c: i32| -> char {
        let (x, y, z) = cubie(face, r, c);
        let key = letters(x, y, z);
        match finder.find(&key) {
            Some((oi, l)) => {
                let o = &p.def.orbits[oi];
                let lab: Vec<char> = o.labels[l].chars().collect();
                let j = lab.iter().position(|&ch| ch == face).unwrap();
                let piece = states[oi].pieces[l];
                let t = states[oi].oris[l] as usize;
                let plab: Vec<char> = o.labels[piece].chars().collect();
                let k = (j + plab.len() - t % plab.len()) % plab.len();
                plab[k]
            }
            None => face,
        }
    };
    let face_rows = |face: char| -> Vec<String> {
        coords
            .iter()
            .map(|&r| {
                coords
                    .iter()
                    .map(|&c| sticker(face, r, c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let w = 2 * n;
    let pad = " ".repeat(w);
    let mut out = Vec::new();
    for row in face_rows('U') {
        out.push(format!("{pad}{row}"));
    }
    let (l, f, r, b) = (
        face_rows('L'),
        face_rows('F'),
        face_rows('R'),
        face_rows('B'),
    );
    for i in 0..n {
        out.push(format!("{} {} {} {}", l[i], f[i], r[i], b[i]));
    }
    for row in face_rows('D') {
        out.push(format!("{pad}{row}"));
    }
    Some(out.join("\n"))
}
