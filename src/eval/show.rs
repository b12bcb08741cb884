//! `show`: a text drawing of a position. Cubes whose locations are named by their
//! faces (`UFR`, `UF`, `U`) are drawn as an unfolded net of face letters; every other
//! puzzle as a table of which piece sits at each location.

use super::puzzle_ctx::PuzzleCtx;
use super::value::Value;
use puz_core::Perm;

/// `colour`: draw a coloured picture for a terminal (`picture::term`); otherwise text.
pub fn show(v: &Value, colour: bool) -> Result<String, String> {
    match v.perm() {
        Some((p, perm)) if colour => {
            let columns = columns();
            Ok(super::picture::term::render(
                &super::picture::picture(p, perm),
                columns,
            ))
        }
        Some((p, perm)) => Ok(draw(p, perm)),
        None => match v {
            Value::Group(g) => Ok(format!("{} on puzzle {}", g.text, g.puzzle.def.name)),
            Value::Puzzle(p) => Ok(p.summary()),
            other => Ok(other.to_string()),
        },
    }
}

pub fn draw(p: &PuzzleCtx, perm: &Perm) -> String {
    if let Some(net) = super::show_net::net(p, perm) {
        return net;
    }
    table(p, perm)
}

/// One block per orbit: the locations, and below each the piece it holds (`+t` when turned).
pub fn table(p: &PuzzleCtx, perm: &Perm) -> String {
    let states = p.def.orbit_states(perm);
    let mut out = String::new();
    for (o, st) in p.def.orbits.iter().zip(&states) {
        let locs: Vec<String> = (0..o.size).map(|l| o.label(l)).collect();
        let held: Vec<String> = (0..o.size)
            .map(|l| {
                let piece = o.label(st.pieces[l]);
                if st.oris[l] == 0 {
                    piece
                } else {
                    format!("{piece}+{}", st.oris[l])
                }
            })
            .collect();
        let width = locs.iter().chain(&held).map(|s| s.len()).max().unwrap_or(1);
        let head = o.name.len().max(5);
        // Wrap long orbits at the terminal's width, else 100 columns.
        let columns = columns().unwrap_or(100);
        let per_line = (columns.saturating_sub(head + 2) / (width + 1)).max(1);
        for chunk in 0..o.size.div_ceil(per_line) {
            let r = chunk * per_line..((chunk + 1) * per_line).min(o.size);
            let fmt = |v: &[String]| {
                v[r.clone()]
                    .iter()
                    .map(|s| format!("{s:>width$}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let name = if chunk == 0 { o.name.as_str() } else { "" };
            out.push_str(&format!("{name:<head$}  {}\n", fmt(&locs)));
            out.push_str(&format!(
                "{:<head$}  {}\n",
                if chunk == 0 { "holds" } else { "" },
                fmt(&held)
            ));
        }
    }
    out.trim_end().to_string()
}

/// The width of the terminal standard output is, else `COLUMNS`, if either is known.
pub fn columns() -> Option<usize> {
    // SAFETY: TIOCGWINSZ fills a winsize; a failure leaves it zeroed and returns -1.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
    if ok && ws.ws_col >= 20 {
        return Some(ws.ws_col as usize);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .filter(|&c| c >= 20)
}
