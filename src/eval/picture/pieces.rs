//! Where each location of a puzzle sits on its solid, read from the location names:
//! cube locations are named by their faces (`UFR`, `UF`, `U`; lower case letters such as
//! the `l` of the 4x4x4's `UFl` lean towards a face), Megaminx locations by faces joined
//! with `_` (`U_F_R`), Pyraminx locations by vertices (`UL`, `U`). Then, from the moves
//! as rotations of the solid, which of a location's stickers has which orientation index:
//! a move that turns the piece at `a` to `b` with twist `t` carries sticker index `j` at `a`
//! to index `j + t` at `b`, so one location's choice fixes every location it reaches.

use super::solids::{self, add, apply, close, cross, dot, norm, scale, Kind, Solid, V3};
use crate::eval::puzzle_ctx::PuzzleCtx;

/// One location: its centre, and the faces its stickers lie on, in the order of their
/// orientation index.
#[derive(Clone, Debug)]
pub struct Place {
    pub pos: V3,
    pub faces: Vec<usize>,
}

pub struct Geometry {
    pub solid: Solid,
    /// `places[orbit][location]`.
    pub places: Vec<Vec<Place>>,
}

/// The geometry of a puzzle, when its names and moves fit one of the solids.
pub fn geometry(p: &PuzzleCtx) -> Option<Geometry> {
    let orbits = &p.def.orbits;
    if orbits.is_empty() || orbits.iter().any(|o| o.labels.is_empty()) {
        return None;
    }
    for solid in [
        solids::cube(),
        solids::tetrahedron(),
        solids::dodecahedron(),
    ] {
        let Some(places) = orbits
            .iter()
            .map(|o| {
                o.labels
                    .iter()
                    .map(|l| place(&solid, &o.name, l))
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        if let Some(places) = orient(p, &solid, places) {
            return Some(Geometry { solid, places });
        }
    }
    None
}

/// A location's place on the solid, from its name.
fn place(s: &Solid, orbit: &str, label: &str) -> Option<Place> {
    match s.kind {
        Kind::Cube => cube_place(s, label),
        Kind::Dodecahedron => {
            let names: Vec<&str> = label.split('_').collect();
            let faces = names
                .iter()
                .map(|n| s.faces.iter().position(|f| f.name == *n))
                .collect::<Option<Vec<_>>>()?;
            let mut pos = [0.0; 3];
            for &f in &faces {
                pos = add(pos, s.faces[f].normal);
            }
            distinct(&faces).then_some(Place { pos, faces })
        }
        Kind::Tetrahedron => {
            let vs = label
                .chars()
                .map(|c| solids::VERTEX_NAMES.iter().position(|v| v.starts_with(c)))
                .collect::<Option<Vec<_>>>()?;
            if vs.is_empty() || vs.len() > 2 || !distinct(&vs) {
                return None;
            }
            let mut pos = [0.0; 3];
            for &v in &vs {
                pos = add(pos, s.verts[v]);
            }
            pos = scale(pos, 1.0 / vs.len() as f64);
            if vs.len() == 1 && !orbit.contains("tip") {
                pos = scale(pos, 0.8); // the axial piece below the tip
            }
            let faces = (0..s.faces.len())
                .filter(|&f| vs.iter().all(|v| s.faces[f].verts.contains(v)))
                .collect();
            Some(Place { pos, faces })
        }
    }
}

fn distinct(v: &[usize]) -> bool {
    v.iter().enumerate().all(|(i, x)| !v[..i].contains(x))
}

fn cube_place(s: &Solid, label: &str) -> Option<Place> {
    let mut pos = [0.0; 3];
    let mut set = [false; 3];
    let mut faces = Vec::new();
    for c in label.chars() {
        let f = s
            .faces
            .iter()
            .position(|f| f.name.starts_with(c.to_ascii_uppercase()))?;
        let n = s.faces[f].normal;
        let axis = (0..3).find(|&i| n[i] != 0.0).unwrap();
        if set[axis] {
            return None;
        }
        set[axis] = true;
        if c.is_ascii_uppercase() {
            pos[axis] = n[axis];
            faces.push(f);
        } else {
            pos[axis] = n[axis] / 3.0;
        }
    }
    (!faces.is_empty()).then_some(Place { pos, faces })
}

/// Orders each location's stickers by orientation index, using the moves as rotations;
/// `None` when a move is no rotation of the solid or the orientations do not fit.
fn orient(p: &PuzzleCtx, s: &Solid, mut places: Vec<Vec<Place>>) -> Option<Vec<Vec<Place>>> {
    // Distinct places, and stickers only on faces that meet at the place.
    for (oi, o) in p.def.orbits.iter().enumerate() {
        for a in 0..o.size {
            for b in 0..a {
                if close(places[oi][a].pos, places[oi][b].pos) {
                    return None;
                }
            }
            let k = places[oi][a].faces.len();
            if k > 1 && o.twist as usize != k && o.twist != 1 {
                return None;
            }
        }
    }
    // Each move: the rotation it is, and where it sends each location (with its twist).
    let mut turns = Vec::new();
    for m in &p.def.moves {
        let states = p.def.orbit_states(&m.perm);
        // states[o].pieces[b] = a: the piece from a is now at b.
        let mut maps = Vec::new();
        for st in &states {
            let mut to = vec![(0, 0); st.pieces.len()];
            for (b, &a) in st.pieces.iter().enumerate() {
                to[a] = (b, st.oris[b] as usize);
            }
            maps.push(to);
        }
        let moved = |oi: usize, a: usize| maps[oi][a] != (a, 0);
        // Every rotation that carries each moved piece's place to its new place: a turn
        // that only twists pieces in place (the Pyraminx tips) leaves several, and the
        // twist chooses among them below.
        let cands: Vec<_> = s
            .rotations
            .iter()
            .filter(|r| {
                (0..maps.len()).all(|oi| {
                    (0..maps[oi].len())
                        .filter(|&a| moved(oi, a))
                        .all(|a| close(apply(r, places[oi][a].pos), places[oi][maps[oi][a].0].pos))
                })
            })
            .copied()
            .collect();
        if cands.is_empty() {
            return None;
        }
        turns.push((cands, maps));
    }
    for (oi, o) in p.def.orbits.iter().enumerate() {
        let k = places[oi][0].faces.len();
        if places[oi].iter().any(|pl| pl.faces.len() != k) {
            return None;
        }
        if k < 2 {
            continue;
        }
        // Faces of a location in turning order about its centre; index[l] = which of them
        // has orientation 0 and which way the indices run.
        let mut ring: Vec<Vec<usize>> = places[oi].iter().map(|pl| ccw(s, pl)).collect();
        let mut offset: Vec<Option<usize>> = vec![None; o.size];
        let mut ok = false;
        'dirs: for reversed in [false, true] {
            if reversed {
                for r in ring.iter_mut() {
                    r.reverse();
                }
            }
            offset.iter_mut().for_each(|x| *x = None);
            for start in 0..o.size {
                if offset[start].is_some() {
                    continue;
                }
                offset[start] = Some(0);
                let mut stack = vec![start];
                while let Some(a) = stack.pop() {
                    let ca = offset[a].unwrap();
                    for (cands, maps) in &turns {
                        let (b, t) = maps[oi][a];
                        if (b, t) == (a, 0) {
                            continue; // not in the turning layer
                        }
                        // Sticker at ring position 0 of a goes to ring position g2 of b.
                        let f = s.faces[ring[a][0]].normal;
                        let g2 = cands.iter().find_map(|r| {
                            let nf = apply(r, f);
                            (0..k)
                                .find(|&g| close(s.faces[ring[b][g]].normal, nf))
                                .filter(|&g2| b != a || g2 == t % k)
                        });
                        let Some(g2) = g2 else { continue 'dirs };
                        // index(a, g) = g - ca; index(b, g2) = index(a, 0) + t.
                        let cb = (g2 + k * 2 - (t % k) + ca) % k;
                        match offset[b] {
                            None => {
                                offset[b] = Some(cb);
                                stack.push(b);
                            }
                            Some(c) if c == cb => {}
                            Some(_) => continue 'dirs,
                        }
                    }
                }
            }
            ok = true;
            break;
        }
        if !ok {
            return None;
        }
        for (l, pl) in places[oi].iter_mut().enumerate() {
            let c = offset[l].unwrap();
            pl.faces = (0..k).map(|j| ring[l][(j + c) % k]).collect();
        }
    }
    Some(places)
}

/// A location's faces in counter-clockwise order about its centre.
fn ccw(s: &Solid, pl: &Place) -> Vec<usize> {
    let axis = norm(pl.pos);
    let mut f = pl.faces.clone();
    let n0 = s.faces[f[0]].normal;
    let e1 = norm(add(n0, scale(axis, -dot(n0, axis))));
    let e2 = cross(axis, e1);
    let angle = |x: usize| {
        let n = s.faces[x].normal;
        let a = dot(n, e2).atan2(dot(n, e1));
        if a < -1e-9 {
            a + 2.0 * std::f64::consts::PI
        } else {
            a
        }
    };
    f.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
    f
}
