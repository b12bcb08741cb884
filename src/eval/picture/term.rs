//! Pictures in a terminal with 24-bit ANSI colours: a net is rasterised with half blocks
//! (`▀`, two square pixels per character cell); a diagram is printed as rows of coloured
//! cells with their text.

use super::{rgb, Picture, Pt};

type Rgb = (u8, u8, u8);

/// Widest picture, in characters.
const MAX_WIDTH: f64 = 78.0;

fn inside(poly: &[Pt], x: f64, y: f64) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.1 > y) != (b.1 > y) && x < (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0 {
            c = !c;
        }
    }
    c
}

pub fn render(pic: &Picture, columns: Option<usize>) -> String {
    if pic.net {
        raster(pic, columns)
    } else {
        cells(pic, columns.unwrap_or(100))
    }
}

fn raster(pic: &Picture, columns: Option<usize>) -> String {
    let (x0, y0, x1, y1) = pic.bounds();
    let limit = columns.map_or(MAX_WIDTH, |c| (c as f64 - 1.0).clamp(20.0, MAX_WIDTH));
    let per_unit = (limit / (x1 - x0)).min(12.0);
    let w = ((x1 - x0) * per_unit).ceil() as usize;
    let h = ((y1 - y0) * per_unit).ceil() as usize;
    let polys: Vec<(Vec<Pt>, (u8, u8, u8))> = pic
        .shapes
        .iter()
        .map(|s| (super::shrink(&s.poly, 0.25), rgb(&s.fill)))
        .collect();
    let colour_at = |px: usize, py: usize| {
        let x = x0 + (px as f64 + 0.5) / per_unit;
        let y = y1 - (py as f64 + 0.5) / per_unit;
        polys.iter().find(|(p, _)| inside(p, x, y)).map(|(_, c)| *c)
    };
    let mut out = String::new();
    for row in 0..h.div_ceil(2) {
        // (glyph, foreground, background) per character; escapes only where they change.
        let mut line = String::new();
        let mut state: (Option<Rgb>, Option<Rgb>) = (None, None);
        let mut pending_blanks = 0;
        for col in 0..w {
            let top = colour_at(col, 2 * row);
            let bottom = if 2 * row + 1 < h {
                colour_at(col, 2 * row + 1)
            } else {
                None
            };
            let (glyph, want) = match (top, bottom) {
                (None, None) => {
                    pending_blanks += 1;
                    continue;
                }
                (Some(t), None) => ('▀', (Some(t), None)),
                (None, Some(b)) => ('▄', (Some(b), None)),
                (Some(t), Some(b)) => ('▀', (Some(t), Some(b))),
            };
            if pending_blanks > 0 {
                if state.1.is_some() {
                    line.push_str("\x1b[0m");
                    state = (None, None);
                }
                line.push_str(&" ".repeat(pending_blanks));
                pending_blanks = 0;
            }
            if want != state {
                line.push_str("\x1b[0m");
                if let Some((r, g, b)) = want.0 {
                    line.push_str(&format!("\x1b[38;2;{r};{g};{b}m"));
                }
                if let Some((r, g, b)) = want.1 {
                    line.push_str(&format!("\x1b[48;2;{r};{g};{b}m"));
                }
                state = want;
            }
            line.push(glyph);
        }
        if state != (None, None) {
            line.push_str("\x1b[0m");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// Rows of coloured cells, top to bottom, each block under its caption, wrapped at
/// `columns`.
fn cells(pic: &Picture, columns: usize) -> String {
    let width = pic
        .shapes
        .iter()
        .filter_map(|s| s.text.as_ref())
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(1);
    enum Item<'a> {
        Caption(&'a str),
        Cell(&'a str, (u8, u8, u8)),
    }
    let mut items: Vec<(f64, f64, Item)> = Vec::new();
    for (p, t) in &pic.captions {
        items.push((-p.1, p.0, Item::Caption(t)));
    }
    for s in &pic.shapes {
        let top = s.poly.iter().map(|p| -p.1).fold(f64::MAX, f64::min);
        let left = s.poly.iter().map(|p| p.0).fold(f64::MAX, f64::min);
        items.push((
            top,
            left,
            Item::Cell(s.text.as_deref().unwrap_or(""), rgb(&s.fill)),
        ));
    }
    items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut out = String::new();
    let mut last: Option<f64> = None;
    let mut used = 0;
    for (y, _, item) in items {
        if last.is_some_and(|l| (l - y).abs() > 1e-6) {
            out.push('\n');
            used = 0;
        }
        last = Some(y);
        match item {
            Item::Caption(t) => {
                out.push_str(t);
                used += t.chars().count();
            }
            Item::Cell(t, (r, g, b)) => {
                if used > 0 && used + width + 3 > columns {
                    out.push('\n');
                    used = 0;
                }
                used += width + 3;
                // Dark text on light cells, light text on dark ones.
                let fg = if (r as u32 * 3 + g as u32 * 6 + b as u32) > 1200 {
                    "30"
                } else {
                    "97"
                };
                out.push_str(&format!("\x1b[{fg};48;2;{r};{g};{b}m {t:^width$} \x1b[0m "));
            }
        }
    }
    out.trim_end().to_string()
}
