//! Pictures of positions: a coloured net for puzzles whose location names place them on
//! a cube, tetrahedron or dodecahedron (`pieces`, `solids`, `net`), and a diagram of
//! pieces for every other puzzle (`diagram`); drawn as SVG (`svg`) or in a terminal
//! with ANSI colours (`term`).

mod diagram;
mod net;
mod pieces;
mod solids;
pub mod svg;
pub mod term;

use super::puzzle_ctx::PuzzleCtx;
use puz_core::Perm;

pub type Pt = (f64, f64);

/// One filled polygon. Its id follows cubing.js: `ORBIT-lLOCATION-oORIENTATION`.
pub struct Shape {
    pub poly: Vec<Pt>,
    pub fill: String,
    pub id: String,
    /// What it shows without colour (a face name for stickers).
    pub name: String,
    /// Text drawn on it (diagrams).
    pub text: Option<String>,
}

#[derive(Default)]
pub struct Picture {
    pub shapes: Vec<Shape>,
    /// Outlines drawn behind the shapes (the faces of a net).
    pub outlines: Vec<Vec<Pt>>,
    /// Captions: where, and what.
    pub captions: Vec<(Pt, String)>,
    /// True for a sticker net, false for a diagram of pieces.
    pub net: bool,
}

impl Picture {
    /// The bounding box: (min x, min y, max x, max y).
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let pts = self
            .shapes
            .iter()
            .flat_map(|s| s.poly.iter())
            .chain(self.outlines.iter().flatten())
            .chain(self.captions.iter().map(|(p, _)| p));
        for &(x, y) in pts {
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        b
    }
}

/// The picture of a position of `p`.
pub fn picture(p: &PuzzleCtx, perm: &Perm) -> Picture {
    match pieces::geometry(p) {
        Some(g) => net_picture(p, &g, perm),
        None => diagram::diagram(p, perm),
    }
}

fn net_picture(p: &PuzzleCtx, g: &pieces::Geometry, perm: &Perm) -> Picture {
    let n = net::net(g);
    let states = p.def.orbit_states(perm);
    let mut shapes = Vec::new();
    for st in &n.stickers {
        let o = &p.def.orbits[st.orbit];
        let piece = states[st.orbit].pieces[st.loc];
        let ori = states[st.orbit].oris[st.loc] as usize;
        let faces = &g.places[st.orbit][piece].faces;
        let k = faces.len();
        // The piece's sticker that shows here: its index less the piece's twist.
        let which = (st.index + k * 8 - ori % k) % k;
        let face = &g.solid.faces[faces[which]];
        shapes.push(Shape {
            poly: st.poly.clone(),
            fill: face.colour.to_string(),
            id: format!("{}-l{}-o{}", o.name, st.loc, st.index),
            name: face.name.to_string(),
            text: None,
        });
    }
    // Faces without a centre piece (the Megaminx of the stdlib) keep a fixed centre.
    for (f, poly) in &n.centres {
        let face = &g.solid.faces[*f];
        shapes.push(Shape {
            poly: poly.clone(),
            fill: face.colour.to_string(),
            id: format!("CENTER-{}", face.name),
            name: face.name.to_string(),
            text: None,
        });
    }
    Picture {
        shapes,
        outlines: n.faces.into_iter().map(|(_, p)| p).collect(),
        captions: vec![],
        net: true,
    }
}

/// The polygon with each point moved the fraction `t` of the way to its centre: a
/// sticker drawn smaller than its cell, so the face behind shows as a border.
pub fn shrink(poly: &[Pt], t: f64) -> Vec<Pt> {
    let k = poly.len() as f64;
    let c = poly
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0 / k, a.1 + p.1 / k));
    poly.iter()
        .map(|p| (p.0 + (c.0 - p.0) * t, p.1 + (c.1 - p.1) * t))
        .collect()
}

/// A colour for piece `i` of `n`, spread around the colour wheel.
pub fn hue(i: usize, n: usize) -> String {
    let h = i as f64 / n.max(1) as f64 * 360.0;
    let (s, l) = (0.65, 0.62);
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

/// `#rrggbb` as numbers.
pub fn rgb(hex: &str) -> (u8, u8, u8) {
    let v = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    (v(1), v(3), v(5))
}

#[cfg(test)]
mod tests;
