//! The pictures against the model: solved puzzles show one colour per face, and after
//! random moves every sticker shows what an independent simulation of the solid's
//! rotations (stickers carried by the turning layer's rotation) says it shows.

use super::net::net;
use super::pieces::{geometry, Geometry};
use super::solids::{apply, close};
use crate::eval::interp::Interp;
use crate::eval::puzzle_ctx::PuzzleCtx;
use puz_core::Perm;
use std::collections::HashMap;
use std::rc::Rc;

fn puzzle(name: &str) -> Rc<PuzzleCtx> {
    let mut it = Interp::new(Box::new(std::io::sink()));
    it.run_source("<test>", &format!("use {name}")).unwrap();
    it.current.clone().unwrap()
}

const SOLIDS: &[&str] = &["cube2", "cube3", "cube4", "skewb", "pyraminx", "megaminx"];

/// (orbit, location, face) -> the face whose colour shows there.
fn shown(p: &PuzzleCtx, g: &Geometry, perm: &Perm) -> HashMap<(usize, usize, usize), String> {
    let pic = super::net_picture(p, g, perm);
    let n = net(g);
    n.stickers
        .iter()
        .zip(&pic.shapes)
        .map(|(st, sh)| {
            let f = g.places[st.orbit][st.loc].faces[st.index];
            ((st.orbit, st.loc, f), sh.name.clone())
        })
        .collect()
}

#[test]
fn every_solid_puzzle_has_a_net() {
    for name in SOLIDS {
        let p = puzzle(name);
        assert!(geometry(&p).is_some(), "{name} has no geometry");
    }
    for name in [
        "topspin",
        "lightsout",
        "floppy",
        "sixpiece",
        "clock",
        "cheese",
    ] {
        assert!(geometry(&puzzle(name)).is_none(), "{name} drawn as a solid");
    }
}

#[test]
fn solved_faces_are_one_colour() {
    for name in SOLIDS {
        let p = puzzle(name);
        let g = geometry(&p).unwrap();
        let s = shown(&p, &g, &p.def.identity());
        let stickers = g
            .places
            .iter()
            .map(|o| o.iter().map(|pl| pl.faces.len()).sum::<usize>())
            .sum::<usize>();
        assert_eq!(s.len(), stickers, "{name}");
        for ((_, _, f), colour) in &s {
            assert_eq!(
                g.solid.faces[*f].name, colour,
                "{name}: face {}",
                g.solid.faces[*f].name
            );
        }
    }
}

/// Turns the stickers of a state by the move's rotation, where the rotation is
/// determined by where the move sends the pieces.
fn simulate(
    p: &PuzzleCtx,
    g: &Geometry,
    m: usize,
    state: &HashMap<(usize, usize, usize), String>,
) -> Option<HashMap<(usize, usize, usize), String>> {
    let states = p.def.orbit_states(&p.def.moves[m].perm);
    let mut moved = Vec::new();
    for (oi, st) in states.iter().enumerate() {
        for (b, &a) in st.pieces.iter().enumerate() {
            if a != b || st.oris[b] != 0 {
                moved.push((oi, a, b));
            }
        }
    }
    let rots: Vec<_> = g
        .solid
        .rotations
        .iter()
        .filter(|r| {
            moved.iter().all(|&(oi, a, b)| {
                close(apply(r, g.places[oi][a].pos), g.places[oi][b].pos)
                    && g.places[oi][a].faces.iter().all(|&f| {
                        let n = apply(r, g.solid.faces[f].normal);
                        g.places[oi][b]
                            .faces
                            .iter()
                            .any(|&h| close(g.solid.faces[h].normal, n))
                    })
                    && (a != b
                        || !close(
                            apply(r, g.solid.faces[g.places[oi][a].faces[0]].normal),
                            g.solid.faces[g.places[oi][a].faces[0]].normal,
                        )
                        || g.places[oi][a].faces.len() == 1)
            })
        })
        .collect();
    if rots.len() != 1 {
        return None; // only turns whose rotation the pieces alone determine
    }
    let r = rots[0];
    let mut next = state.clone();
    for &(oi, a, b) in &moved {
        for &f in &g.places[oi][a].faces {
            let n = apply(r, g.solid.faces[f].normal);
            let h = (0..g.solid.faces.len())
                .find(|&h| close(g.solid.faces[h].normal, n))
                .unwrap();
            next.insert((oi, b, h), state[&(oi, a, f)].clone());
        }
    }
    Some(next)
}

#[test]
fn moved_pictures_match_a_simulation_of_the_solid() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for name in SOLIDS {
        let p = puzzle(name);
        let g = geometry(&p).unwrap();
        let usable: Vec<usize> = (0..p.def.moves.len())
            .filter(|&m| simulate(&p, &g, m, &shown(&p, &g, &p.def.identity())).is_some())
            .collect();
        assert!(usable.len() >= 4, "{name}: {usable:?}");
        for _ in 0..20 {
            let mut perm = p.def.identity();
            let mut sim = shown(&p, &g, &perm);
            for _ in 0..12 {
                let m = usable[rng.gen_range(0..usable.len())];
                perm = perm.then(&p.def.moves[m].perm);
                sim = simulate(&p, &g, m, &sim).unwrap();
            }
            assert_eq!(shown(&p, &g, &perm), sim, "{name}");
        }
    }
}

#[test]
fn cube3_r_brings_the_front_up() {
    let p = puzzle("cube3");
    let g = geometry(&p).unwrap();
    let r = p.def.moves[p.def.move_index("R").unwrap()].perm.clone();
    let s = shown(&p, &g, &r);
    let corners = p.def.orbit_index("corners").unwrap();
    let ufr = p.def.orbits[corners].location("UFR").unwrap();
    let u = (0..6).find(|&f| g.solid.faces[f].name == "U").unwrap();
    assert_eq!(s[&(corners, ufr, u)], "F");
}

#[test]
fn svg_is_well_formed_and_has_cubing_ids() {
    for name in SOLIDS.iter().chain(&[
        "topspin",
        "lightsout",
        "clock",
        "floppy",
        "sixpiece",
        "cheese",
    ]) {
        let p = puzzle(name);
        let pic = super::picture(&p, &p.def.moves[0].perm);
        let text = super::svg::picture(&pic, &format!("{name} <&> \"test\""));
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let stickers: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("sticker"))
            .collect();
        assert_eq!(stickers.len(), pic.shapes.len(), "{name}");
        let mut ids = std::collections::HashSet::new();
        for (node, shape) in stickers.iter().zip(&pic.shapes) {
            let id = node.attribute("id").unwrap();
            assert!(ids.insert(id.to_string()), "{name}: id {id} twice");
            assert_eq!(node.attribute("fill"), Some(shape.fill.as_str()));
            assert!(node.attribute("points").unwrap().split(' ').count() >= 3);
        }
        let first = &p.def.orbits[0];
        assert!(ids.contains(&format!("{}-l0-o0", first.name)), "{name}");
    }
}

#[test]
fn bar_chart_is_well_formed() {
    let text = super::svg::bars(
        "d <1>",
        "distance",
        &[("0".into(), 1), ("1".into(), 18), ("2".into(), 243)],
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .collect();
    assert_eq!(bars.len(), 3);
    let h = |i: usize| bars[i].attribute("height").unwrap().parse::<f64>().unwrap();
    assert!(h(0) < h(1) && h(1) < h(2));
    assert!((h(2) / h(1) - 243.0 / 18.0).abs() < 0.1);
}

#[test]
fn clock_dials_show_their_hours_after_y2() {
    // y2 swaps front and back dials; the group's moves never move one, so each place shows
    // its hour (all 12 o'clock here), not which dial it holds.
    let p = puzzle("clock");
    let y2 = &p.def.moves[p.move_index("y2").unwrap()].perm;
    let pic = super::picture(&p, y2);
    assert_eq!(pic.shapes.len(), 18);
    for sh in &pic.shapes {
        assert_eq!(sh.fill, "#3a3a3a", "{}", sh.name);
        assert!(!sh.name.contains('+'), "{}", sh.name);
    }
    let ur = &p.def.moves[p.move_index("UR").unwrap()].perm;
    let pic = super::picture(&p, &y2.then(ur));
    let turned: Vec<&str> = pic
        .shapes
        .iter()
        .filter(|s| s.fill != "#3a3a3a")
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(turned, ["U+1", "UR+1", "C+1", "R+1", "bUL+11"]);
}
