//! Other tools' puzzle files: every twsearch sample and KPuzzle definition under
//! `tests/data/` loads with the group order GAP computes or is refused by name; every
//! stdlib puzzle survives export and import in each format; damaged files are refused
//! with the file and line (or JSON path), leaving the session as it was.

use puz::eval::Interp;
use puz::SharedBuf;
use puz_formats::Format;
use std::path::{Path, PathBuf};

/// What each corpus file gives: `Ok(order of group)` or `Err(part of the refusal)`.
/// The orders were computed by GAP 4 (`Size(Group(...))`) from the files' generators
/// converted to permutations of stickers by an independent script that follows
/// docs/ksolveformat.txt and cubing.js's `combine`.
const CORPUS: &[(&str, Result<&str, &str>)] = &[
    ("tws/10x10x10.tws", Err("identical pieces in set CENTER")),
    ("tws/11x11x11.tws", Err("identical pieces in set CENTER2")),
    ("tws/12x12x12.tws", Err("identical pieces in set CENTER")),
    ("tws/13x13x13.tws", Err("identical pieces in set CENTER2")),
    ("tws/20x20x20.tws", Err("identical pieces in set CENTER")),
    ("tws/233.tws", Ok("1625702400")),
    ("tws/235.tws", Err("identical pieces in set CENTER1")),
    ("tws/2x2x2.tws", Ok("88179840")),
    ("tws/3p1.tws", Err("identical pieces in set EDGE")),
    ("tws/3x3x3.tws", Ok("43252003274489856000")),
    ("tws/4x4x4.tws", Err("identical pieces in set CENTER")),
    ("tws/4x4x4obtm.tws", Err("identical pieces in set CENTER")),
    ("tws/5x5x5.tws", Err("identical pieces in set CENTER2")),
    ("tws/5x5x5obtm.tws", Err("identical pieces in set CENTER2")),
    ("tws/6x6x6.tws", Err("identical pieces in set CENTER")),
    ("tws/6x6x6obtm.tws", Err("identical pieces in set CENTER")),
    ("tws/7x7x7.tws", Err("identical pieces in set CENTER2")),
    ("tws/7x7x7obtm.tws", Err("identical pieces in set CENTER2")),
    ("tws/8x8x8.tws", Err("identical pieces in set CENTER")),
    ("tws/8x8x8obtm.tws", Err("identical pieces in set CENTER")),
    ("tws/9x9x9.tws", Err("identical pieces in set CENTER2")),
    ("tws/Christophers_jewel.tws", Ok("2009078326886400")),
    ("tws/Eitans_star.tws", Err("identical pieces in set CENTER")),
    ("tws/FTO.tws", Err("identical pieces in set CENTER")),
    ("tws/Jing_pyraminx.tws", Ok("44789760")),
    ("tws/Trajbers_octahedron.tws", Ok("40503019070029824000")),
    ("tws/arecibo.tws", Err("identical pieces in set Hexagons")),
    ("tws/big_chop.tws", Err("identical pieces in set CENTER")),
    ("tws/chopasaurus.tws", Err("identical pieces in set CENTER")),
    ("tws/compy_cube.tws", Ok("1571364748800")),
    ("tws/curvy_copter.tws", Ok("3033257372496691200000")),
    ("tws/dino.tws", Ok("239500800")),
    ("tws/eliac.tws", Err("identical pieces in set SmallTriangles_l")),
    ("tws/engelscubed.tws", Err("identical pieces in set CORNER")),
    ("tws/gearcubeextreme.tws", Ok("511979205427200")),
    ("tws/gigaminx.tws", Err("identical pieces in set CENTER2")),
    ("tws/helicopter.tws", Ok("11848661611315200000")),
    ("tws/icosahedron_2.tws", Err("identical pieces in set CENTER")),
    ("tws/icosahedron_3.tws", Err("identical pieces in set CENTER")),
    ("tws/icosahedron_moving_faces.tws", Ok("21146311567333012098028210464258305881119129600000000000000000000000")),
    ("tws/icosahedron_static_faces.tws", Ok("17383611420651753218789112545280000000000000000000")),
    ("tws/icosamate.tws", Ok("71128171054676736000000000000000000")),
    ("tws/kilominx.tws", Ok("1413834128545313800765440000")),
    ("tws/little_chop.tws", Err("identical pieces in set CENTER")),
    ("tws/lo33.tws", Ok("181440")),
    ("tws/lo44.tws", Ok("20922789888000")),
    ("tws/lo55.tws", Ok("7755605021665492992000000")),
    ("tws/m24conway.tws", Ok("244823040")),
    ("tws/magicbeancube.tws", Err("identical pieces in set BEAD")),
    ("tws/maltese.tws", Err("identical pieces in set GEARS")),
    ("tws/master_pyraminx.tws", Ok("2606705554489344000")),
    ("tws/master_pyramorphix.tws", Ok("1327104")),
    ("tws/master_skewb.tws", Err("identical pieces in set CENTER")),
    ("tws/mastermorphix.tws", Ok("5308416")),
    ("tws/megaminx.tws", Ok("100669616553523347122516032313645505168688116411019768627200000000000")),
    ("tws/moonspinner.tws", Err("identical pieces in set LARGE")),
    ("tws/nautilus.tws", Err("identical pieces in set SLICE")),
    ("tws/octastar.tws", Ok("310224200866619719680000")),
    ("tws/pentultimate.tws", Ok("338614404853905491534363492352000000")),
    ("tws/professor_pyraminx.tws", Err("identical pieces in set CENTER2")),
    ("tws/professor_skewb.tws", Err("identical pieces in set CENTER")),
    ("tws/puck.tws", Err("identical pieces in set CORNERS")),
    ("tws/puzzlerchallenger.tws", Err("identical pieces in set CORNER")),
    ("tws/puzzlernovice.tws", Err("identical pieces in set CORNER")),
    ("tws/pyraminx.tws", Ok("302330880")),
    ("tws/pyraminx_crystal.tws", Ok("100669616553523347122516032313645505168688116411019768627200000000000")),
    ("tws/pyramorphix.tws", Ok("96")),
    ("tws/radio_chop.tws", Ok("59185659469883029258256549212625321079062342138707776637531585838984582483887584706560000000000000000000000000000000")),
    ("tws/rubikslide.tws", Ok("1459741204905984000")),
    ("tws/skewb.tws", Ok("37791360")),
    ("tws/skewb_diamond.tws", Ok("1658880")),
    ("tws/squareone.tws", Err("identical pieces in set SLICE")),
    ("tws/starcopter.tws", Ok("2002141091925579340519278106999213498363911189167751921131575050240000000000000000")),
    ("tws/starminx.tws", Ok("248270459431215031814452911028288348886138880000000")),
    ("tws/starminx_2.tws", Err("identical pieces in set CENTER")),
    ("tws/tangram.tws", Ok("111974400")),
    ("tws/topspin.tws", Ok("2432902008176640000")),
    ("tws/trapentrix.tws", Err("identical pieces in set BigTriangles")),
    ("tws/turnfour.tws", Ok("92897280")),
    ("tws/turnstile.tws", Err("identical pieces in set CORNER")),
    ("tws/ufo.tws", Ok("479001600")),
    ("tws/vertushka.tws", Ok("71425670400")),
    ("kpuzzle/2x2x2.kpuzzle.json", Ok("88179840")),
    ("kpuzzle/3x3x3-Reid.def.json", Err("orientationMod 1")),
    ("kpuzzle/3x3x3-centerless.kpuzzle.json", Ok("43252003274489856000")),
    ("kpuzzle/4x4x4-phase2-search.kpuzzle.json", Err("identical pieces")),
    ("kpuzzle/4x4x4-phase3-search.kpuzzle.json", Err("identical pieces")),
    ("kpuzzle/4x4x4.kpuzzle.json", Err("identical pieces")),
    ("kpuzzle/5x5x5.kpuzzle.json", Err("orientationMod 1")),
    ("kpuzzle/6x6x6.kpuzzle.json", Err("identical pieces")),
    ("kpuzzle/7x7x7.kpuzzle.json", Err("orientationMod 1")),
    ("kpuzzle/baby_fto.kpuzzle.json", Err("orientationMod 1")),
    ("kpuzzle/benchmark-3x3x3.def.json", Ok("43252003274489856000")),
    ("kpuzzle/clock.kpuzzle.json", Err("unknown move `_`")),
    ("kpuzzle/fto-UL.def.json", Ok("316521620122978725396480000000")),
    ("kpuzzle/kilominx.kpuzzle.json", Ok("1413834128545313800765440000")),
    ("kpuzzle/megaminx.kpuzzle.json", Err("orientationMod 1")),
    ("kpuzzle/pyraminx.kpuzzle.json", Ok("906992640")),
    ("kpuzzle/skewb-fixed-corner-with-co-tweaks.kpuzzle.json", Err("orientationMod 1")),
    ("kpuzzle/square0-equatorless.kpuzzle.json", Ok("40320")),
    ("kpuzzle/square1-unbandaged.kpuzzle.json", Ok("1240896803466478878720000")),
    ("kpuzzle/tetraminx.kpuzzle.json", Ok("933120")),
];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puz-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The first line of a refusal: its message.
fn first_line(err: &str) -> String {
    err.lines()
        .next()
        .unwrap_or("")
        .trim_start_matches([' ', '×'])
        .to_string()
}

/// Loads one corpus file and takes its group's order.
fn outcome(rel: &str) -> Result<String, String> {
    let path = data().join(rel);
    let (out, err) = puz::run_to_string(
        "corpus.puz",
        &format!("use \"{}\"\norder(group)", path.display()),
    );
    match err {
        Some(e) => Err(e),
        None => Ok(out.lines().last().unwrap_or("").to_string()),
    }
}

#[test]
fn corpus_loads_with_gap_orders_or_is_refused_by_name() {
    let mut files: Vec<String> = Vec::new();
    for dir in ["tws", "kpuzzle"] {
        for e in std::fs::read_dir(data().join(dir)).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            if n.ends_with(".tws") || n.ends_with(".json") {
                files.push(format!("{dir}/{n}"));
            }
        }
    }
    files.sort();
    let mut listed: Vec<String> = CORPUS.iter().map(|c| c.0.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every corpus file has an expected outcome");
    let mut rows = Vec::new();
    let mut loaded = 0;
    for (rel, want) in CORPUS {
        let got = outcome(rel);
        match (want, &got) {
            (Ok(order), Ok(o)) => {
                assert_eq!(o, order, "{rel}");
                loaded += 1;
                rows.push(format!("| `{rel}` | loaded | {o} |"));
            }
            (Err(part), Err(e)) => {
                assert!(e.contains(part), "{rel}: {e}");
                let shown = e.replace('\\', "/");
                assert!(
                    shown.contains(&format!("{rel}:")),
                    "{rel}: the refusal names the file and line: {e}"
                );
                rows.push(format!("| `{rel}` | refused | {} |", first_line(e)));
            }
            _ => panic!("{rel}: expected {want:?}, got {got:?}"),
        }
    }
    assert!(loaded >= 30, "at least 30 orders checked against GAP");
    // docs/formats.md lists these outcomes; PUZ_UPDATE_DOCS=1 rewrites the list.
    let table = format!(
        "| file | outcome | order of `group`, or the refusal |\n|---|---|---|\n{}\n",
        rows.join("\n")
    );
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let (start, end) = ("<!-- corpus:start -->\n", "<!-- corpus:end -->");
    let a = doc
        .find(start)
        .expect("docs/formats.md has the corpus markers")
        + start.len();
    let b = doc.find(end).unwrap();
    if std::env::var("PUZ_UPDATE_DOCS").is_ok() {
        std::fs::write(&doc_path, format!("{}{table}{}", &doc[..a], &doc[b..])).unwrap();
    } else {
        assert_eq!(
            &doc[a..b],
            table,
            "docs/formats.md is stale: run with PUZ_UPDATE_DOCS=1"
        );
    }
}

/// The orientation conventions: the old-style .tws (orientations by piece), the
/// KPuzzle JSON (by slot) and puz's own cube agree move for move on these orders.
#[test]
fn the_3x3x3_agrees_across_formats() {
    let seqs =
        "order(R U)\norder(R U R' U')\norder(R U2 D' B D')\norder(R F' L2 B U D2)\norder(group)";
    let runs = [
        format!("use \"{}\"", data().join("tws/3x3x3.tws").display()),
        format!(
            "use \"{}\"",
            data().join("kpuzzle/benchmark-3x3x3.def.json").display()
        ),
        "use cube3".to_string(),
    ];
    let outs: Vec<String> = runs
        .iter()
        .map(|u| {
            let (out, err) = puz::run_to_string("x.puz", &format!("{u}\n{seqs}"));
            assert!(err.is_none(), "{err:?}");
            out
        })
        .collect();
    assert_eq!(outs[0], "105\n6\n1260\n12\n43252003274489856000\n");
    assert_eq!(outs[0], outs[1]);
    assert_eq!(outs[0], outs[2]);
}

fn stdlib_puzzle(name: &str) -> std::rc::Rc<puz::eval::puzzle_ctx::PuzzleCtx> {
    let mut it = Interp::new(Box::new(SharedBuf::default()));
    it.run_source("rt.puz", &format!("use {name}")).unwrap();
    it.current.clone().unwrap()
}

/// Pads a permutation to `n` points (GAP files give no degree).
fn images(p: &puz_core::Perm, n: usize) -> Vec<usize> {
    (0..n)
        .map(|i| if i < p.degree() { p.image(i) } else { i })
        .collect()
}

#[test]
fn every_stdlib_puzzle_round_trips_in_every_format() {
    let names: Vec<&str> = puz::stdlib::names().collect();
    assert!(names.len() >= 10);
    for name in names {
        let p = stdlib_puzzle(name);
        let moves: Vec<(String, puz_core::Perm)> = p
            .def
            .moves
            .iter()
            .map(|m| (m.name.clone(), m.perm.clone()))
            .collect();
        for f in [Format::Tws, Format::KPuzzle, Format::Gap] {
            let text = match f {
                Format::Tws => puz_formats::tws::write(&p.def, &moves),
                Format::KPuzzle => puz_formats::kpuzzle::write(&p.def, &moves),
                _ => puz_formats::gap::write(&p.def, &moves, &p.gens),
            };
            let back = puz_formats::import(f, name, &text)
                .unwrap_or_else(|e| panic!("{name} {f:?}: {e}\n{text}"));
            let q = &back.puzzle;
            assert_eq!(q.moves.len(), moves.len(), "{name} {f:?}");
            let n = p.def.degree();
            for (m, (mn, mp)) in q.moves.iter().zip(&moves) {
                assert_eq!(&m.name, mn, "{name} {f:?}");
                assert_eq!(images(&m.perm, n), images(mp, n), "{name} {f:?} move {mn}");
            }
            if f == Format::Gap {
                let mut want = p.gens.clone();
                want.sort();
                assert_eq!(
                    back.gens, want,
                    "{name}: the GAP group names the generators"
                );
            } else {
                assert_eq!(q.degree(), n, "{name} {f:?}");
            }
        }
    }
}

#[test]
fn saved_files_load_in_a_new_session() {
    let (t, k, g, s) = (
        tmp("c.tws"),
        tmp("c.kpuzzle.json"),
        tmp("c.g"),
        tmp("c.scr"),
    );
    let (out, err) = puz::run_to_string(
        "save.puz",
        &format!(
            "use cube3\nsave(group, \"{}\")\nsave(cube3, \"{}\")\nsave(<R, U>, \"{}\")\nlet T = R U R' U' R' F R2 U' R' U' R U R' F'\nsave(T, \"{}\")",
            t.display(),
            k.display(),
            g.display(),
            s.display()
        ),
    );
    assert!(err.is_none(), "{err:?}");
    assert_eq!(out.lines().count(), 4, "{out}");
    let (out, err) = puz::run_to_string(
        "load.puz",
        &format!(
            "use \"{}\"\norder(group)\norder(R U)\nuse \"{}\"\norder(group)\norder(x)\nuse \"{}\"\norder(group)",
            t.display(),
            k.display(),
            g.display()
        ),
    );
    assert!(err.is_none(), "{err:?}");
    // cube3 with every move (slices and rotations too) generates 24 times the group.
    assert_eq!(
        out,
        "43252003274489856000\n105\n1038048078587756544000\n4\n73483200\n"
    );
    let scr = std::fs::read_to_string(&s).unwrap();
    assert!(scr.starts_with("Scramble T\ncorners\n"), "{scr}");
    // The T-perm swaps UFR/URB... and two edges: 4 pieces off their slots.
    let moved = scr
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .step_by(2)
        .flat_map(|l| {
            l.split(' ')
                .enumerate()
                .filter(|(i, v)| v.parse::<usize>().unwrap() != i + 1)
                .collect::<Vec<_>>()
        })
        .count();
    assert_eq!(moved, 4, "{scr}");
}

/// A damaged file is refused with its name and the line (or JSON path) at fault, and
/// the puzzle in use stays the one before.
fn refused(file: &str, text: &str, message: &str, line: Option<usize>) {
    let path = tmp(file);
    std::fs::write(&path, text).unwrap();
    let mut it = Interp::new(Box::new(SharedBuf::default()));
    it.run_source("s.puz", "use cube3").unwrap();
    let before = it.puzzles.len();
    let err = it
        .run_source("s.puz", &format!("use \"{}\"", path.display()))
        .expect_err(file)
        .render(false);
    assert!(err.contains(message), "{file}: {err}");
    let at = match line {
        Some(l) => format!("{}:{l}:", path.display()),
        None => format!("{}:", path.display()),
    };
    assert!(err.contains(&at), "{file}: expected {at} in {err}");
    assert_eq!(it.current.as_ref().unwrap().def.name, "cube3", "{file}");
    assert_eq!(it.puzzles.len(), before, "{file}: nothing half-loaded");
}

const TWS: &str = "Name t\nSet C 4 3\nSet E 2 2\nSolved\nC\n1 2 3 4\nE\n1 2\n0 0\nEnd\nMove A\nC\n2 3 4 1\n1 2 0 0\nEnd\nMove B\nE\n2 1\n1 1\nEnd\n";

#[test]
fn damaged_tws_files_are_refused() {
    assert!(puz_formats::import(Format::Tws, "t", TWS).is_ok());
    let cut = &TWS[..TWS.find("Move B").unwrap() + 9];
    refused(
        "truncated.tws",
        cut,
        "the file ends inside the block `Move B`",
        Some(16),
    );
    refused(
        "count.tws",
        &TWS.replace("2 3 4 1", "2 3 4"),
        "set C has 4 pieces, but this line has 3 numbers",
        Some(13),
    );
    refused(
        "perm.tws",
        &TWS.replace("2 3 4 1", "2 2 4 1"),
        "not a permutation: 1 appears twice",
        Some(13),
    );
    refused(
        "ori.tws",
        &TWS.replace("1 2 0 0", "1 3 0 0"),
        "orientation 3 is out of range: set C has 3 orientations",
        Some(14),
    );
    refused(
        "section.tws",
        &TWS.replace("Move B", "Mvoe B"),
        "unknown section `Mvoe`",
        Some(16),
    );
    refused(
        "set.tws",
        &TWS.replace("E\n2 1", "F\n2 1"),
        "unknown set `F`",
        Some(17),
    );
    refused(
        "illegal.tws",
        &format!("{TWS}Illegal C 1 2\n"),
        "`Illegal`",
        Some(21),
    );
    refused(
        "identical.tws",
        &TWS.replace("1 2 3 4", "1 1 3 4"),
        "identical pieces in set C",
        Some(6),
    );
    refused(
        "seq.tws",
        &format!("{TWS}MoveSequence D A Q\n"),
        "unknown move `Q`",
        Some(21),
    );
    refused("empty.tws", "# nothing\n", "no sets", None);
}

const KP: &str = r#"{
  "name": "k",
  "orbits": [{ "orbitName": "C", "numPieces": 3, "numOrientations": 2 }],
  "defaultPattern": { "C": { "pieces": [0, 1, 2], "orientation": [0, 0, 0] } },
  "moves": {
    "A": { "C": { "permutation": [1, 2, 0], "orientationDelta": [1, 1, 0] } }
  },
  "derivedMoves": { "B": "A2" }
}
"#;

#[test]
fn damaged_kpuzzle_files_are_refused() {
    let ok = puz_formats::import(Format::KPuzzle, "k", KP).unwrap();
    assert_eq!(ok.puzzle.moves.len(), 2);
    refused(
        "nomoves.json",
        &KP.replace("\"moves\"", "\"mooves\""),
        "unknown field `mooves`",
        Some(5),
    );
    let no_moves = KP.replace(
        "  \"moves\": {\n    \"A\": { \"C\": { \"permutation\": [1, 2, 0], \"orientationDelta\": [1, 1, 0] } }\n  },\n",
        "",
    );
    refused("missing.json", &no_moves, "missing field `moves`", Some(1));
    refused(
        "norient.json",
        &KP.replace(", \"orientationDelta\": [1, 1, 0]", ""),
        "moves.A.C: missing field `orientationDelta`",
        Some(6),
    );
    refused(
        "perm.json",
        &KP.replace("[1, 2, 0]", "[1, 1, 0]"),
        "moves.A.C.permutation[1]: not a permutation",
        Some(6),
    );
    refused(
        "ori.json",
        &KP.replace("[1, 1, 0] }", "[1, 2, 0] }"),
        "moves.A.C.orientationDelta[1]: orientation 2 is out of range",
        Some(6),
    );
    refused(
        "count.json",
        &KP.replace("[0, 1, 2]", "[0, 1]"),
        "defaultPattern.C.pieces: expected 3 numbers, found 2",
        Some(4),
    );
    refused("cut.json", &KP[..KP.len() / 2], "not valid JSON", None);
    refused(
        "derived.json",
        &KP.replace("\"A2\"", "\"A Z\""),
        "derivedMoves.B: in `A Z`: unknown move `Z`",
        Some(8),
    );
}

#[test]
fn damaged_gap_files_are_refused() {
    let ok = "a := (1,2,3);\nb := (3,4);\nc := a*b^-1;\nG := Group(a, b);\n";
    let p = puz_formats::import(Format::Gap, "g", ok).unwrap();
    assert_eq!(p.gens, vec![0, 1]);
    assert_eq!(p.puzzle.moves[2].perm.cycles(), vec![vec![0, 1, 3, 2]]);
    refused(
        "twice.g",
        "a := (1,2,1);\n",
        "point 1 appears twice",
        Some(1),
    );
    refused(
        "name.g",
        "a := (1,2);\nG := Group(a, b);\n",
        "`b` is not a permutation defined above",
        Some(2),
    );
    refused(
        "semi.g",
        "a := (1,2)\nb := (2,3);\n",
        "expected `;`",
        Some(2),
    );
}
