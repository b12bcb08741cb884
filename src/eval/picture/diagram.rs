//! A diagram of pieces, for puzzles without a solid to draw on (TopSpin, Lights Out,
//! rows, point sets): one block per orbit, a cell per location showing the piece it
//! holds in that piece's colour and its twist. Orbits whose pieces the group's moves never
//! move (Lights Out, Clock) are coloured by twist instead; locations named like `a1 .. e5`
//! are laid out on their grid.

use super::{hue, Picture, Pt, Shape};
use crate::eval::puzzle_ctx::PuzzleCtx;
use puz_core::Perm;

/// Cells per row of a block.
const PER_ROW: usize = 12;

pub fn diagram(p: &PuzzleCtx, perm: &Perm) -> Picture {
    let states = p.def.orbit_states(perm);
    let mut pic = Picture::default();
    let mut top = 0.0;
    for (oi, o) in p.def.orbits.iter().enumerate() {
        // Still under the moves of `group`: the Clock's y2 swaps front and back dials, but
        // what shows is each place's hour.
        let still = p.gens.iter().all(|&mi| {
            let st = &p.def.orbit_states(&p.def.moves[mi].perm)[oi];
            st.pieces.iter().enumerate().all(|(l, &x)| l == x)
        });
        let cells = grid(&o.labels)
            .unwrap_or_else(|| (0..o.size).map(|l| (l % PER_ROW, l / PER_ROW)).collect());
        pic.captions.push(((0.0, -top - 0.35), o.name.clone()));
        let rows = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        for (l, &(cx, cy)) in cells.iter().enumerate() {
            let piece = states[oi].pieces[l];
            let ori = states[oi].oris[l] as usize;
            let fill = if still {
                if ori == 0 {
                    "#3a3a3a".to_string()
                } else {
                    hue(ori - 1, (o.twist as usize).saturating_sub(1).max(1))
                }
            } else {
                hue(piece, o.size)
            };
            let mut text = if still { o.label(l) } else { o.label(piece) };
            if ori != 0 {
                text.push_str(&format!("+{ori}"));
            }
            let (x, y) = (cx as f64 * 1.1, -top - 1.0 - cy as f64 * 1.1);
            let poly: Vec<Pt> = vec![(x, y), (x + 1.0, y), (x + 1.0, y - 1.0), (x, y - 1.0)];
            pic.shapes.push(Shape {
                poly,
                fill,
                id: format!("{}-l{}-o0", o.name, l),
                name: text.clone(),
                text: Some(text),
            });
        }
        top += 1.0 + rows as f64 * 1.1 + 0.6;
    }
    pic
}

/// Grid cells for labels such as `a1 .. e5` (column letter, row number), when every
/// label has that form and no two share a cell.
fn grid(labels: &[String]) -> Option<Vec<(usize, usize)>> {
    if labels.is_empty() {
        return None;
    }
    let cells: Vec<(usize, usize)> = labels
        .iter()
        .map(|l| {
            let mut cs = l.chars();
            let c = cs.next().filter(|c| c.is_ascii_lowercase())?;
            let r: usize = cs.as_str().parse().ok().filter(|&r| r >= 1)?;
            Some(((c as u8 - b'a') as usize, r - 1))
        })
        .collect::<Option<_>>()?;
    let distinct = cells
        .iter()
        .enumerate()
        .all(|(i, c)| !cells[..i].contains(c));
    (distinct && cells.iter().all(|&(x, y)| x < 26 && y < 64)).then_some(cells)
}
