//! Facelet models built from geometry, the ones the Schreier-Sims benchmark gives GAP: the
//! NxNxN cube on facelets (integer geometry), the Megaminx piece model (from the
//! dodecahedron), GAP's 48-facelet 3x3x3; and alphabets with every power of each move
//! (`U, U2, U'`).

use puz_core::{Alphabet, Perm};

/// An alphabet with every non-trivial power of each move: `X, X2, X'` for order 4,
/// `X, X2, X2', X'` for order 5, `X` alone for order 2. Returns it with, for each move,
/// the letter of its first power.
pub fn alphabet_with_powers(moves: &[(String, Perm)]) -> (Alphabet, Vec<u32>) {
    let mut names = Vec::new();
    let mut perms = Vec::new();
    let mut firsts = Vec::new();
    for (name, p) in moves {
        let o: u64 = p.order().try_into().expect("small move order");
        firsts.push(names.len() as u32);
        for k in 1..o {
            let label = if k == 1 {
                name.clone()
            } else if k == o - 1 {
                format!("{name}'")
            } else if k <= o / 2 {
                format!("{name}{k}")
            } else {
                format!("{name}{}'", o - k)
            };
            names.push(label);
            perms.push(p.pow(k as i64));
        }
    }
    let alpha = Alphabet::new(names, perms).expect("powers are closed under inverse");
    (alpha, firsts)
}

/// GAP's standard 3x3x3 generators on 48 facelets (`U L F R B D`), as in GAP's manual.
pub fn cube3_gap() -> Vec<(String, Perm)> {
    let gens: [(&str, [[usize; 4]; 5]); 6] = [
        (
            "U",
            [
                [1, 3, 8, 6],
                [2, 5, 7, 4],
                [9, 33, 25, 17],
                [10, 34, 26, 18],
                [11, 35, 27, 19],
            ],
        ),
        (
            "L",
            [
                [9, 11, 16, 14],
                [10, 13, 15, 12],
                [1, 17, 41, 40],
                [4, 20, 44, 37],
                [6, 22, 46, 35],
            ],
        ),
        (
            "F",
            [
                [17, 19, 24, 22],
                [18, 21, 23, 20],
                [6, 25, 43, 16],
                [7, 28, 42, 13],
                [8, 30, 41, 11],
            ],
        ),
        (
            "R",
            [
                [25, 27, 32, 30],
                [26, 29, 31, 28],
                [3, 38, 43, 19],
                [5, 36, 45, 21],
                [8, 33, 48, 24],
            ],
        ),
        (
            "B",
            [
                [33, 35, 40, 38],
                [34, 37, 39, 36],
                [3, 9, 46, 32],
                [2, 12, 47, 29],
                [1, 14, 48, 27],
            ],
        ),
        (
            "D",
            [
                [41, 43, 48, 46],
                [42, 45, 47, 44],
                [14, 22, 30, 38],
                [15, 23, 31, 39],
                [16, 24, 32, 40],
            ],
        ),
    ];
    gens.iter()
        .map(|(name, cycles)| {
            let cycles: Vec<Vec<usize>> = cycles
                .iter()
                .map(|c| c.iter().map(|&x| x - 1).collect())
                .collect();
            (
                name.to_string(),
                Perm::from_cycles(48, &cycles).expect("disjoint cycles"),
            )
        })
        .collect()
}

type V3 = [i64; 3];

/// A quarter turn about axis `a`: `(x, y, z) -> (x, -z, y)` for the x axis, cyclically.
fn quarter(v: V3, a: usize) -> V3 {
    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
    let mut w = v;
    w[b] = -v[c];
    w[c] = v[b];
    w
}

/// The NxNxN cube on facelets. Generators: for each face, quarter turns of the outer
/// `floor(N/2)` layers from that face (face turns and inner slices, never a middle slice).
/// Facelets no generator moves (odd-N face centres) are dropped, so the 3x3x3 acts on 48
/// points and the 5x5x5 on 144.
pub fn cube_facelets(n: usize) -> Vec<(String, Perm)> {
    assert!(n >= 2);
    let m = n as i64 - 1;
    // Facelets: doubled coordinates of the cubie centre plus the outward normal.
    let mut facelets: Vec<(V3, V3)> = Vec::new();
    for a in 0..3 {
        for s in [-1i64, 1] {
            let mut normal = [0; 3];
            normal[a] = s;
            for u in 0..n as i64 {
                for v in 0..n as i64 {
                    let mut p = [0; 3];
                    p[a] = s * m;
                    p[(a + 1) % 3] = 2 * u - m;
                    p[(a + 2) % 3] = 2 * v - m;
                    facelets.push((p, normal));
                }
            }
        }
    }
    let index = |f: &(V3, V3)| {
        facelets
            .iter()
            .position(|g| g == f)
            .expect("rotated facelet exists")
    };
    let faces = ["R", "U", "F", "L", "D", "B"];
    let mut moves = Vec::new();
    for (fi, face) in faces.iter().enumerate() {
        let a = fi % 3;
        let s = if fi < 3 { 1 } else { -1 };
        for depth in 0..n / 2 {
            let layer = s * (m - 2 * depth as i64);
            let images: Vec<usize> = facelets
                .iter()
                .map(|f| {
                    if f.0[a] != layer {
                        return index(f);
                    }
                    // Clockwise seen from the face: three positive quarter turns for +, one for -.
                    let turns = if s > 0 { 3 } else { 1 };
                    let (mut p, mut q) = *f;
                    for _ in 0..turns {
                        p = quarter(p, a);
                        q = quarter(q, a);
                    }
                    index(&(p, q))
                })
                .collect();
            let name = if depth == 0 {
                face.to_string()
            } else {
                format!("{}{}", depth + 1, face)
            };
            moves.push((name, images));
        }
    }
    compact(moves)
}

/// Renumbers the points some move moves as `0..k`, dropping the others.
fn compact(moves: Vec<(String, Vec<usize>)>) -> Vec<(String, Perm)> {
    let total = moves[0].1.len();
    let moved: Vec<usize> = (0..total)
        .filter(|&i| moves.iter().any(|(_, im)| im[i] != i))
        .collect();
    let mut new = vec![usize::MAX; total];
    for (k, &i) in moved.iter().enumerate() {
        new[i] = k;
    }
    moves
        .into_iter()
        .map(|(name, im)| {
            let images = moved.iter().map(|&i| new[im[i]]).collect();
            (name, Perm::from_images(images).expect("a permutation"))
        })
        .collect()
}

type F3 = [f64; 3];

fn dot(a: F3, b: F3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: F3, b: F3) -> F3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: F3) -> F3 {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

fn rotate(v: F3, axis: F3, angle: f64) -> F3 {
    let (s, c) = angle.sin_cos();
    let k = unit(axis);
    let kxv = cross(k, v);
    let kv = dot(k, v);
    [0, 1, 2].map(|i| v[i] * c + kxv[i] * s + k[i] * kv * (1.0 - c))
}

fn nearest(list: &[F3], v: F3) -> usize {
    let d = |a: F3| (a[0] - v[0]).powi(2) + (a[1] - v[1]).powi(2) + (a[2] - v[2]).powi(2);
    (0..list.len())
        .min_by(|&i, &j| d(list[i]).total_cmp(&d(list[j])))
        .expect("non-empty")
}

/// The Megaminx piece model: orbit `corners` (20 locations, twist 3, points `0..60`) then
/// `edges` (30 locations, twist 2, points `60..120`); point `(l, t)` is `offset + l*twist + t`.
/// Twelve clockwise face turns. Orientation `t` of a corner counts its faces counter-clockwise
/// around the corner, so every move has the form `(a, t) -> (b, t + i)`.
pub fn megaminx() -> Vec<(String, Perm)> {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let ip = 1.0 / phi;
    let mut verts: Vec<F3> = Vec::new();
    for x in [-1.0, 1.0] {
        for y in [-1.0, 1.0] {
            for z in [-1.0, 1.0] {
                verts.push([x, y, z]);
            }
        }
    }
    for a in [-1.0, 1.0] {
        for b in [-1.0, 1.0] {
            verts.push([0.0, a * ip, b * phi]);
            verts.push([a * ip, b * phi, 0.0]);
            verts.push([a * phi, 0.0, b * ip]);
        }
    }
    let mut faces: Vec<F3> = Vec::new();
    for a in [-1.0, 1.0] {
        for b in [-1.0, 1.0] {
            faces.push(unit([0.0, a * phi, b]));
            faces.push(unit([a * phi, b, 0.0]));
            faces.push(unit([a, 0.0, b * phi]));
        }
    }
    let edge_len = 2.0 * ip;
    let mut edges: Vec<F3> = Vec::new();
    for i in 0..20 {
        for j in i + 1..20 {
            let d = [0, 1, 2].map(|k| verts[i][k] - verts[j][k]);
            if (dot(d, d).sqrt() - edge_len).abs() < 1e-6 {
                edges.push([0, 1, 2].map(|k| (verts[i][k] + verts[j][k]) / 2.0));
            }
        }
    }
    assert_eq!(edges.len(), 30);
    // The faces of a piece: those with the largest dot product with its centre.
    let faces_of = |c: F3, k: usize| -> Vec<usize> {
        let mut idx: Vec<usize> = (0..12).collect();
        idx.sort_by(|&a, &b| dot(faces[b], c).total_cmp(&dot(faces[a], c)));
        idx.truncate(k);
        idx
    };
    // Corner faces counter-clockwise around the outward corner direction.
    let corner_faces: Vec<Vec<usize>> = verts
        .iter()
        .map(|&v| {
            let mut fs = faces_of(v, 3);
            let vn = unit(v);
            let f0 = faces[fs[0]];
            let e1 = unit([0, 1, 2].map(|k| f0[k] - dot(f0, vn) * vn[k]));
            let e2 = cross(vn, e1);
            fs.sort_by(|&a, &b| {
                let ang = |f: usize| dot(faces[f], e2).atan2(dot(faces[f], e1));
                ang(a).total_cmp(&ang(b))
            });
            fs
        })
        .collect();
    let edge_faces: Vec<Vec<usize>> = edges.iter().map(|&e| faces_of(e, 2)).collect();
    let mut moves = Vec::new();
    for (fi, &f) in faces.iter().enumerate() {
        let angle = -2.0 * std::f64::consts::PI / 5.0;
        let mut images = vec![0usize; 120];
        for (c, fs) in corner_faces.iter().enumerate() {
            let on = fs.contains(&fi);
            for (t, &g) in fs.iter().enumerate() {
                let (c2, g2) = if on {
                    (
                        nearest(&verts, rotate(verts[c], f, angle)),
                        nearest(&faces, rotate(faces[g], f, angle)),
                    )
                } else {
                    (c, g)
                };
                let t2 = corner_faces[c2]
                    .iter()
                    .position(|&x| x == g2)
                    .expect("face of the corner");
                images[c * 3 + t] = c2 * 3 + t2;
            }
        }
        for (e, fs) in edge_faces.iter().enumerate() {
            let on = fs.contains(&fi);
            for (t, &g) in fs.iter().enumerate() {
                let (e2, g2) = if on {
                    (
                        nearest(&edges, rotate(edges[e], f, angle)),
                        nearest(&faces, rotate(faces[g], f, angle)),
                    )
                } else {
                    (e, g)
                };
                let t2 = edge_faces[e2]
                    .iter()
                    .position(|&x| x == g2)
                    .expect("face of the edge");
                images[60 + e * 2 + t] = 60 + e2 * 2 + t2;
            }
        }
        moves.push((
            format!("F{fi}"),
            Perm::from_images(images).expect("a permutation"),
        ));
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn cube_facelet_sizes() {
        let c3 = cube_facelets(3);
        assert_eq!(c3.len(), 6);
        assert_eq!(c3[0].1.degree(), 48);
        assert!(c3
            .iter()
            .all(|(_, p)| p.order() == BigUint::from(4u32) && p.support() == 20));
        let c4 = cube_facelets(4);
        assert_eq!((c4.len(), c4[0].1.degree()), (12, 96));
        let c5 = cube_facelets(5);
        assert_eq!((c5.len(), c5[0].1.degree()), (12, 144));
        let (alpha, firsts) = alphabet_with_powers(&c3);
        assert_eq!(alpha.len(), 18);
        assert_eq!(firsts, vec![0, 3, 6, 9, 12, 15]);
        assert_eq!(alpha.names[2], "R'");
    }

    #[test]
    fn megaminx_moves_are_piece_moves() {
        let mut pz = puz_core::Puzzle::new("megaminx");
        pz.add_orbit("corners", 20, 3, vec![]);
        pz.add_orbit("edges", 30, 2, vec![]);
        let mm = megaminx();
        assert_eq!(mm.len(), 12);
        for (_, p) in &mm {
            assert!(pz.is_position(p));
            assert_eq!(p.order(), BigUint::from(5u32));
            assert_eq!(p.support(), 5 * 3 + 5 * 2);
        }
    }
}
