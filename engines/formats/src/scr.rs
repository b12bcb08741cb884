//! Positions as twsearch scramble blocks (`.scr`): `Scramble NAME`, then for each set
//! the piece in each slot (from 1) and its orientation, then `End`, as twsearch's
//! `-s` / `--scramblealgo` input reads them against the puzzle's `.tws`.

use puz_core::{Perm, Puzzle};

/// One `Scramble` block for the position `perm` reaches from the solved state.
pub fn write(p: &Puzzle, name: &str, perm: &Perm) -> String {
    let mut t = format!("Scramble {name}\n");
    for (o, s) in p.orbits.iter().zip(p.orbit_states(perm)) {
        let pieces: Vec<String> = s.pieces.iter().map(|x| (x + 1).to_string()).collect();
        let oris: Vec<String> = s.oris.iter().map(|x| x.to_string()).collect();
        t.push_str(&format!(
            "{}\n{}\n{}\n",
            o.name,
            pieces.join(" "),
            oris.join(" ")
        ));
    }
    t.push_str("End\n");
    t
}
