//! The unfolded net of a solid and the sticker polygons on each face: a grid on cube
//! faces (a centre and four corners on the Skewb's), nine triangles on Pyraminx faces,
//! a centre, five edges and five corners on Megaminx faces.

use super::pieces::{Geometry, Place};
use super::solids::{dot, norm, Kind, Solid, V3};
use super::Pt;

/// One sticker of the net: which location's sticker it is, and where.
pub struct NetSticker {
    pub orbit: usize,
    pub loc: usize,
    /// Its orientation index at that location.
    pub index: usize,
    pub poly: Vec<Pt>,
}

pub struct Net {
    pub stickers: Vec<NetSticker>,
    /// Each face's outline, with the face.
    pub faces: Vec<(usize, Vec<Pt>)>,
    /// The centres of Megaminx faces that no location covers: fixed, drawn in the
    /// face's colour.
    pub centres: Vec<(usize, Vec<Pt>)>,
}

/// Positions in the plane of each face's vertices (in the face's own order).
fn unfold(s: &Solid) -> Vec<Vec<Pt>> {
    let mut at: Vec<Vec<Pt>> = vec![vec![]; s.faces.len()];
    for &(f, parent) in &s.net {
        let verts = &s.faces[f].verts;
        let k = verts.len();
        // Two consecutive vertices (in counter-clockwise order) to build the polygon from.
        let (i0, p0, p1) = match parent {
            None => {
                let (lf, above) = s.level;
                let (a, _) = shared(s, f, lf);
                // The side a -> b, counter-clockwise, runs right to left when on top.
                let (p0, p1) = if above {
                    ((0.5, 0.0), (-0.5, 0.0))
                } else {
                    ((-0.5, 0.0), (0.5, 0.0))
                };
                (a, p0, p1)
            }
            Some(q) => {
                // The parent's side a -> b is this face's side b -> a.
                let (a, b) = shared(s, q, f);
                let pos = |v: usize| at[q][s.faces[q].verts.iter().position(|&x| x == v).unwrap()];
                let (va, vb) = (s.faces[q].verts[a], s.faces[q].verts[b]);
                let ib = verts.iter().position(|&x| x == vb).unwrap();
                (ib, pos(vb), pos(va))
            }
        };
        let mut pts = vec![(0.0, 0.0); k];
        pts[i0] = p0;
        pts[(i0 + 1) % k] = p1;
        let turn = 2.0 * std::f64::consts::PI / k as f64;
        for step in 2..k {
            let (a, b) = (pts[(i0 + step - 2) % k], pts[(i0 + step - 1) % k]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let (s, c) = turn.sin_cos();
            pts[(i0 + step) % k] = (b.0 + dx * c - dy * s, b.1 + dx * s + dy * c);
        }
        at[f] = pts;
    }
    at
}

/// The side shared by faces `f` and `g`, as positions (a, a+1) in `f`'s vertex list.
fn shared(s: &Solid, f: usize, g: usize) -> (usize, usize) {
    let vf = &s.faces[f].verts;
    let vg = &s.faces[g].verts;
    let k = vf.len();
    (0..k)
        .find(|&i| vg.contains(&vf[i]) && vg.contains(&vf[(i + 1) % k]))
        .map(|i| (i, (i + 1) % k))
        .expect("faces of the net tree are adjacent")
}

pub fn net(g: &Geometry) -> Net {
    let s = &g.solid;
    let at = unfold(s);
    let mut stickers = Vec::new();
    for (oi, places) in g.places.iter().enumerate() {
        for (loc, pl) in places.iter().enumerate() {
            for (index, &f) in pl.faces.iter().enumerate() {
                let poly = match s.kind {
                    Kind::Cube => cube_sticker(s, g, f, &at[f], pl),
                    Kind::Tetrahedron => tetra_sticker(s, f, &at[f], pl),
                    Kind::Dodecahedron => dodeca_sticker(s, f, &at[f], pl),
                };
                stickers.push(NetSticker {
                    orbit: oi,
                    loc,
                    index,
                    poly,
                });
            }
        }
    }
    let faces = s.net.iter().map(|&(f, _)| (f, at[f].clone())).collect();
    let mut centres = Vec::new();
    if s.kind == Kind::Dodecahedron {
        for &(f, _) in &s.net {
            let covered = g.places.iter().flatten().any(|pl| pl.faces == [f]);
            if !covered {
                let centre = Place {
                    pos: s.faces[f].normal,
                    faces: vec![f],
                };
                centres.push((f, dodeca_sticker(s, f, &at[f], &centre)));
            }
        }
    }
    Net {
        stickers,
        faces,
        centres,
    }
}

fn lerp(a: Pt, b: Pt, t: f64) -> Pt {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// A sticker of a cube face: its cell in the face's grid (the grid's size is read from
/// the stickers on the face), or on a face with only a centre and corners, the Skewb's
/// diamond and triangles.
fn cube_sticker(s: &Solid, g: &Geometry, f: usize, at: &[Pt], pl: &Place) -> Vec<Pt> {
    let v = &s.faces[f].verts;
    let (o, x, y) = (s.verts[v[0]], s.verts[v[1]], s.verts[v[3]]);
    let coords = |p: V3| {
        let (ex, ey) = (sub(x, o), sub(y, o));
        (
            dot(sub(p, o), ex) / dot(ex, ex),
            dot(sub(p, o), ey) / dot(ey, ey),
        )
    };
    let mut values: Vec<f64> = Vec::new();
    let mut count = 0;
    for ps in &g.places {
        for q in ps.iter().filter(|q| q.faces.contains(&f)) {
            count += 1;
            let (a, b) = coords(q.pos);
            for t in [a, b] {
                if !values.iter().any(|&w| (w - t).abs() < 1e-6) {
                    values.push(t);
                }
            }
        }
    }
    let n = values.len().max(1);
    let map = |a: f64, b: f64| {
        let p = lerp(at[0], at[1], a);
        (p.0 + (at[3].0 - at[0].0) * b, p.1 + (at[3].1 - at[0].1) * b)
    };
    let (a, b) = coords(pl.pos);
    if n == 3 && count == 5 {
        // The Skewb: a centre diamond and four corner triangles.
        if (a - 0.5).abs() < 1e-6 && (b - 0.5).abs() < 1e-6 {
            return vec![map(0.5, 0.0), map(1.0, 0.5), map(0.5, 1.0), map(0.0, 0.5)];
        }
        return vec![map(a, b), map(0.5, b), map(a, 0.5)];
    }
    let cell = |t: f64| (t * (n - 1) as f64).round() / n as f64;
    let (ca, cb) = (cell(a), cell(b));
    let w = 1.0 / n as f64;
    vec![
        map(ca, cb),
        map(ca + w, cb),
        map(ca + w, cb + w),
        map(ca, cb + w),
    ]
}

/// A Pyraminx sticker, from the face's grid of nine triangles: a tip at a corner, the
/// axial piece's triangle next to it, an edge's triangle by the side.
fn tetra_sticker(s: &Solid, f: usize, at: &[Pt], pl: &Place) -> Vec<Pt> {
    let v = &s.faces[f].verts;
    let dir = norm(pl.pos);
    let len = dot(pl.pos, pl.pos).sqrt();
    let mut near: Vec<usize> = (0..3).collect();
    near.sort_by(|&i, &j| dot(s.verts[v[j]], dir).total_cmp(&dot(s.verts[v[i]], dir)));
    // A point of the grid from weights on the corners (summing to 3).
    let pt = |w: [f64; 3]| {
        let mut p = (0.0, 0.0);
        for i in 0..3 {
            p.0 += at[i].0 * w[i] / 3.0;
            p.1 += at[i].1 * w[i] / 3.0;
        }
        p
    };
    let w = |x: usize, wx: f64, y: usize, wy: f64| {
        let mut r = [0.0; 3];
        r[x] = wx;
        r[y] = wy;
        if wx + wy < 3.0 {
            let z = 3 - x - y;
            r[z] = 3.0 - wx - wy;
        }
        r
    };
    let (x, y, z) = (near[0], near[1], near[2]);
    if len > 0.9 {
        vec![
            pt(w(x, 3.0, y, 0.0)),
            pt(w(x, 2.0, y, 1.0)),
            pt(w(x, 2.0, z, 1.0)),
        ]
    } else if len > 0.7 {
        vec![
            pt(w(x, 2.0, y, 1.0)),
            pt(w(x, 2.0, z, 1.0)),
            pt([1.0, 1.0, 1.0]),
        ]
    } else {
        vec![
            pt(w(x, 2.0, y, 1.0)),
            pt(w(x, 1.0, y, 2.0)),
            pt([1.0, 1.0, 1.0]),
        ]
    }
}

/// A Megaminx sticker: a corner's kite at its vertex, an edge's quadrilateral by its side,
/// or the centre pentagon.
fn dodeca_sticker(s: &Solid, f: usize, at: &[Pt], pl: &Place) -> Vec<Pt> {
    let v = &s.faces[f].verts;
    let k = v.len();
    let c = at.iter().fold((0.0, 0.0), |a, p| {
        (a.0 + p.0 / k as f64, a.1 + p.1 / k as f64)
    });
    let inner = |i: usize| lerp(c, at[i % k], 0.5);
    let side = |i: usize, j: usize| lerp(at[i % k], at[j % k], 0.3);
    let dir = norm(pl.pos);
    let score = |i: usize| dot(norm(s.verts[v[i]]), dir);
    match pl.faces.len() {
        3 => {
            let i = (0..k)
                .max_by(|&a, &b| score(a).total_cmp(&score(b)))
                .unwrap();
            vec![at[i], side(i, i + 1), inner(i), side(i, i + k - 1)]
        }
        2 => {
            let i = (0..k)
                .max_by(|&a, &b| {
                    (score(a) + score((a + 1) % k)).total_cmp(&(score(b) + score((b + 1) % k)))
                })
                .unwrap();
            vec![side(i, i + 1), side(i + 1, i), inner(i + 1), inner(i)]
        }
        _ => (0..k).map(inner).collect(),
    }
}
