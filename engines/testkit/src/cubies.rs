//! Puzzles built from geometry: pieces are cubies with a position and sticker normals; a
//! move rotates the pieces of a layer. The orientation gained is the slot of the
//! destination that receives sticker 0, so the 2x2x2 reproduces the cycles the language
//! reference gives (checked by a test).

use puz_core::{MoveBuilder, NamedMove, Puzzle};

type V = [i32; 3];

fn dot(a: V, b: V) -> i32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A quarter turn clockwise seen from the tip of the unit axis `n`.
fn quarter(n: V) -> impl Fn(V) -> V {
    move |v: V| {
        let c = [
            n[1] * v[2] - n[2] * v[1],
            n[2] * v[0] - n[0] * v[2],
            n[0] * v[1] - n[1] * v[0],
        ];
        let d = dot(n, v);
        [n[0] * d - c[0], n[1] * d - c[1], n[2] * d - c[2]]
    }
}

/// A third of a turn about the diagonal `s` (entries +-1).
fn third(s: V) -> impl Fn(V) -> V {
    move |v: V| {
        let w = [s[0] * v[0], s[1] * v[1], s[2] * v[2]];
        let p = [w[2], w[0], w[1]];
        [s[0] * p[0], s[1] * p[1], s[2] * p[2]]
    }
}

struct PieceDef {
    label: String,
    pos: V,
    stickers: Vec<V>,
}

fn face(c: char) -> V {
    match c {
        'U' => [0, 1, 0],
        'D' => [0, -1, 0],
        'R' => [1, 0, 0],
        'L' => [-1, 0, 0],
        'F' => [0, 0, 1],
        'B' => [0, 0, -1],
        _ => panic!("face {c}"),
    }
}

fn cubies(names: &[&str]) -> Vec<PieceDef> {
    names
        .iter()
        .map(|n| {
            let stickers: Vec<V> = n.chars().map(face).collect();
            let pos = stickers
                .iter()
                .fold([0, 0, 0], |a, s| [a[0] + s[0], a[1] + s[1], a[2] + s[2]]);
            PieceDef {
                label: n.to_string(),
                pos,
                stickers,
            }
        })
        .collect()
}

type Rot = Box<dyn Fn(V) -> V>;
type Sel = Box<dyn Fn(V) -> bool>;

fn build(name: &str, orbits: Vec<(&str, Vec<PieceDef>)>, moves: Vec<(&str, Rot, Sel)>) -> Puzzle {
    let mut p = Puzzle::new(name);
    for (oname, pieces) in &orbits {
        let twist = pieces[0].stickers.len() as u8;
        p.add_orbit(
            *oname,
            pieces.len(),
            twist,
            pieces.iter().map(|d| d.label.clone()).collect(),
        );
    }
    let mut built = Vec::new();
    for (mname, rot, sel) in &moves {
        let mut b = MoveBuilder::new(&p);
        for (oi, (_, pieces)) in orbits.iter().enumerate() {
            let n = pieces.len();
            // dest[a] = (b, gain)
            let mut dest: Vec<(usize, i64)> = (0..n).map(|a| (a, 0)).collect();
            for (a, d) in pieces.iter().enumerate() {
                if !sel(d.pos) {
                    continue;
                }
                let np = rot(d.pos);
                let bi = pieces
                    .iter()
                    .position(|e| e.pos == np)
                    .expect("rotation maps pieces to pieces");
                let k = d.stickers.len();
                let s0 = rot(d.stickers[0]);
                let gain = pieces[bi]
                    .stickers
                    .iter()
                    .position(|&s| s == s0)
                    .expect("sticker lands on a face");
                for (j, &s) in d.stickers.iter().enumerate() {
                    assert_eq!(
                        pieces[bi].stickers[(j + gain) % k],
                        rot(s),
                        "consistent chirality"
                    );
                }
                dest[a] = (bi, gain as i64);
            }
            let mut seen = vec![false; n];
            for s in 0..n {
                if seen[s] {
                    continue;
                }
                let mut cyc = Vec::new();
                let mut x = s;
                loop {
                    seen[x] = true;
                    cyc.push((x, dest[x].1));
                    x = dest[x].0;
                    if x == s {
                        break;
                    }
                }
                if cyc.len() > 1 || cyc[0].1 != 0 {
                    b.cycle(oi, &cyc).unwrap();
                }
            }
        }
        built.push(NamedMove {
            name: mname.to_string(),
            perm: b.finish(),
            primitive: true,
        });
    }
    p.moves = built;
    p
}

const CORNERS: [&str; 8] = ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"];
const EDGES: [&str; 12] = [
    "UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL",
];
const CENTRES: [&str; 6] = ["U", "D", "R", "L", "F", "B"];

fn face_move(f: char) -> (Rot, Sel) {
    let n = face(f);
    (Box::new(quarter(n)), Box::new(move |p| dot(n, p) > 0))
}

/// The 2x2x2 with corners only and moves U, R, F (DLB stays home).
pub fn cube2() -> Puzzle {
    let moves = "URF"
        .chars()
        .map(|c| (["U", "R", "F"]["URF".find(c).unwrap()], face_move(c)));
    build(
        "cube2",
        vec![("corners", cubies(&CORNERS))],
        moves.map(|(n, (r, s))| (n, r, s)).collect(),
    )
}

/// The 2x2x2 with all six faces (88,179,840 positions: rotations are not identified).
pub fn cube2_six() -> Puzzle {
    let names = ["U", "D", "R", "L", "F", "B"];
    let moves = names.iter().map(|n| {
        let (r, s) = face_move(n.chars().next().unwrap());
        (*n, r, s)
    });
    build(
        "cube2six",
        vec![("corners", cubies(&CORNERS))],
        moves.collect(),
    )
}

/// The 3x3x3: corners, edges, centres; moves U D R L F B, slices M E S, rotations x y z.
pub fn cube3() -> Puzzle {
    let mut moves: Vec<(&str, Rot, Sel)> = Vec::new();
    for n in ["U", "D", "R", "L", "F", "B"] {
        let (r, s) = face_move(n.chars().next().unwrap());
        moves.push((n, r, s));
    }
    for (n, f) in [("M", 'L'), ("E", 'D'), ("S", 'F')] {
        let ax = face(f);
        moves.push((n, Box::new(quarter(ax)), Box::new(move |p| dot(ax, p) == 0)));
    }
    for (n, f) in [("x", 'R'), ("y", 'U'), ("z", 'F')] {
        moves.push((n, Box::new(quarter(face(f))), Box::new(|_| true)));
    }
    build(
        "cube3",
        vec![
            ("corners", cubies(&CORNERS)),
            ("edges", cubies(&EDGES)),
            ("centres", cubies(&CENTRES)),
        ],
        moves,
    )
}

/// The Pyraminx without tips: 6 edges and 4 axial centres; moves U L R B about the
/// vertices of a tetrahedron (933,120 positions).
pub fn pyraminx() -> Puzzle {
    let verts: [V; 4] = [[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]];
    let faces: Vec<V> = verts.iter().map(|v| [-v[0], -v[1], -v[2]]).collect();
    let axes: [V; 6] = [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
    ];
    let edges: Vec<PieceDef> = axes
        .iter()
        .enumerate()
        .map(|(i, &e)| PieceDef {
            label: format!("e{i}"),
            pos: e,
            stickers: faces.iter().copied().filter(|&f| dot(f, e) > 0).collect(),
        })
        .collect();
    let centres: Vec<PieceDef> = verts
        .iter()
        .enumerate()
        .map(|(i, &v)| PieceDef {
            label: format!("c{i}"),
            pos: [3 * v[0], 3 * v[1], 3 * v[2]],
            stickers: faces.iter().copied().filter(|&f| dot(f, v) > 0).collect(),
        })
        .collect();
    let moves: Vec<(&str, Rot, Sel)> = ["U", "L", "R", "B"]
        .iter()
        .zip(verts)
        .map(|(&n, v)| {
            (
                n,
                Box::new(third(v)) as Rot,
                Box::new(move |p| dot(v, p) > 0) as Sel,
            )
        })
        .collect();
    build(
        "pyraminx",
        vec![("edges", edges), ("centres", centres)],
        moves,
    )
}

/// The Skewb with the corner DLB fixed: moves about four corners (3,149,280 positions).
pub fn skewb() -> Puzzle {
    let corners = cubies(&CORNERS);
    let centres = cubies(&CENTRES);
    let axes: [(&str, V); 4] = [
        ("R", [1, 1, 1]),
        ("L", [-1, 1, 1]),
        ("B", [1, -1, 1]),
        ("F", [1, 1, -1]),
    ];
    let moves: Vec<(&str, Rot, Sel)> = axes
        .iter()
        .map(|&(n, v)| {
            (
                n,
                Box::new(third(v)) as Rot,
                Box::new(move |p| dot(v, p) > 0) as Sel,
            )
        })
        .collect();
    build(
        "skewb",
        vec![("corners", corners), ("centres", centres)],
        moves,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{mv, seq};

    #[test]
    fn reference_cycles_are_reproduced() {
        let c2 = cube2();
        assert_eq!(c2.cycle_notation(&mv(&c2, "U")), "corners(UFR ULF UBL URB)");
        assert_eq!(
            c2.cycle_notation(&mv(&c2, "R")),
            "corners(UFR+2 URB+1 DBR+2 DRF+1)"
        );
        assert_eq!(
            c2.cycle_notation(&mv(&c2, "F")),
            "corners(UFR+1 DRF+2 DFL+1 ULF+2)"
        );
        let c3 = cube3();
        for m in &c3.moves {
            assert!(c3.is_position(&m.perm));
            assert_eq!(m.perm.order(), 4u32.into(), "{}", m.name);
        }
        // x = R M' L' on pieces.
        assert_eq!(mv(&c3, "x"), seq(&c3, "R M' L'"));
        assert_eq!(mv(&c3, "y"), seq(&c3, "U E' D'"));
        assert_eq!(mv(&c3, "z"), seq(&c3, "F S B'"));
    }
}
