//! Builtins that write values to files: `save(w, "file.puz")` writes a move sequence as
//! its definitions (one `let` per shared or named part, `puz_core::word_file`), so a
//! nested word of any length is a file the size of its description, read back with
//! `use "file.puz"`. Other endings write other tools' formats (`puz_formats`): a
//! puzzle or a group as `.tws`, `.kpuzzle.json` or `.g`, a position as `.scr`; `svg`
//! writes pictures. `read_sequences("file")` reads a plain list of move sequences.

use super::spec::{Args, Ctx};
use crate::diag::{Diag, EvalResult};
use crate::eval::puzzle_ctx::{LetterFor, PuzzleCtx};
use crate::eval::split::{direction, splits};
use crate::eval::value::{SeqVal, Value};
use puz_core::{Perm, Word};
use puz_formats::Format;
use std::io::Write;

/// Words the file must not define besides the grammar's keywords: they already mean
/// something in the language. (The names it makes up are `_1`, `_2`, ...; the user's own
/// came from `let`, which refuses builtin names.)
const RESERVED: &[&str] = &["group", "true", "false"];

pub fn save(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let x = a.pos(0);
    let path_arg = a.pos(1);
    let Value::Str(path) = &path_arg.value else {
        unreachable!("checked kind")
    };
    let format = Format::of_path(path);
    let (text, what) = match (&x.value, format) {
        (Value::Seq(_), None) => return save_word(ctx, a, path),
        (Value::Seq(s), Some(Format::Scr)) => {
            let name = match &s.word {
                Word::Named(n, _) => n.to_string(),
                _ => "scramble".to_string(),
            };
            (
                puz_formats::scr::write(&s.puzzle.def, &name, s.effect()),
                format!("the position `{name}` reaches"),
            )
        }
        (Value::Pos(p, perm), Some(Format::Scr)) => (
            puz_formats::scr::write(&p.def, "position", perm),
            "the position".to_string(),
        ),
        (Value::Puzzle(p), Some(f @ (Format::Tws | Format::KPuzzle | Format::Gap))) => {
            let moves: Vec<(String, Perm)> = p
                .def
                .moves
                .iter()
                .map(|m| (m.name.clone(), m.perm.clone()))
                .collect();
            let what = format!(
                "puzzle `{}` ({})",
                p.def.name,
                puz_core::count(moves.len(), "move")
            );
            (write_puzzle(f, p, &moves, &p.gens), what)
        }
        (Value::Group(g), Some(f @ (Format::Tws | Format::KPuzzle | Format::Gap))) => {
            let p = &g.puzzle;
            let moves: Vec<(String, Perm)> = g
                .own_gens(a.span, "save as a puzzle's moves")?
                .iter()
                .enumerate()
                .map(|(i, w)| (generator_name(p, w, i), w.eval(&p.alphabet, p.def.degree())))
                .collect();
            let what = format!(
                "puzzle `{}` with the {} of {} as its moves",
                p.def.name,
                puz_core::count(moves.len(), "generator"),
                g.text
            );
            let all: Vec<usize> = (0..moves.len()).collect();
            (write_puzzle(f, p, &moves, &all), what)
        }
        (v, _) => {
            return Err(Diag::new(
                path_arg.span,
                format!("cannot save {} to {path}", v.type_name()),
            )
            .with_help("a sequence: .puz or .scr; a position: .scr; a puzzle or a group: .tws, .def, .kpuzzle.json or .g"))
        }
    };
    write_file(path, &text, path_arg.span)?;
    ctx.ctl.progress(&format!("saved {path}"));
    Ok(Value::Text(format!(
        "saved {what} to {path}: {} bytes",
        text.len()
    )))
}

fn write_puzzle(f: Format, p: &PuzzleCtx, moves: &[(String, Perm)], gens: &[usize]) -> String {
    match f {
        Format::Tws => {
            let gm: Vec<(String, Perm)> = gens.iter().map(|&g| moves[g].clone()).collect();
            let others: Vec<(String, Perm)> = (0..moves.len())
                .filter(|i| !gens.contains(i))
                .map(|i| moves[i].clone())
                .collect();
            let mut all = gm;
            all.extend(others);
            puz_formats::tws::write(&p.def, &all)
        }
        Format::KPuzzle => puz_formats::kpuzzle::write(&p.def, moves),
        _ => puz_formats::gap::write(&p.def, moves, gens),
    }
}

/// A group generator's name in the file: the move it is, or `g1`, `g2`, ....
fn generator_name(p: &PuzzleCtx, w: &Word, i: usize) -> String {
    match w {
        Word::Named(n, _) => n.to_string(),
        Word::Letter(l) => {
            let (mi, _) = p.letter_moves[*l as usize];
            if p.letter(mi, 1) == LetterFor::Letter(*l) {
                p.def.moves[mi].name.clone()
            } else {
                p.alphabet.names[*l as usize].replace('\'', "_inv")
            }
        }
        _ => format!("g{}", i + 1),
    }
}

fn write_file(path: &str, text: &str, span: crate::span::Span) -> EvalResult<()> {
    let written = std::fs::File::create(path).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    written.map_err(|e| {
        Diag::new(span, format!("cannot write {path}: {e}"))
            .with_help("give a path in a folder that exists and that you may write to")
    })
}

fn save_word(ctx: &mut Ctx, a: &Args, path: &str) -> EvalResult<Value> {
    let s = a.pos(0).seq();
    let path_arg = a.pos(1);
    let p = &s.puzzle;
    let mut taken: Vec<&str> = crate::syntax::KEYWORDS.to_vec();
    taken.extend(RESERVED);
    taken.extend(p.def.moves.iter().map(|m| m.name.as_str()));
    taken.extend(p.alphabet.names.iter().map(|n| n.as_str()));
    let (defs, root) = puz_core::word_file::definitions(&s.word, &p.alphabet, &taken);
    let name = match &s.word {
        Word::Named(n, _) => n.to_string(),
        _ => "word".to_string(),
    };
    let len = s.word.len();
    let mut text = String::new();
    text.push_str(&format!(
        "// `{name}`, {len} moves on the puzzle `{}`, saved by puz as its definitions.\n\
         // Read it back with `use \"{path}\"`; the last line checks that it is whole.\n",
        p.def.name
    ));
    match use_line(&p.def.name) {
        Some(u) => text.push_str(&format!("{u}\n")),
        None => text.push_str(&format!(
            "// define the puzzle `{}` (and use it) before reading this file\n",
            p.def.name
        )),
    }
    for d in &defs {
        text.push_str(d);
        text.push('\n');
    }
    if !matches!(s.word, Word::Named(..)) {
        text.push_str(&format!("let {name} = {root}\n"));
    }
    text.push_str(&format!("assert length({name}) == {len}\n"));
    write_file(path, &text, path_arg.span)?;
    ctx.ctl.progress(&format!("saved {path}"));
    Ok(Value::Text(format!(
        "saved `{name}` ({}) to {path}: {}, {} bytes",
        puz_core::count(len, "move"),
        puz_core::count(
            defs.len() + usize::from(!matches!(s.word, Word::Named(..))),
            "definition"
        ),
        text.len()
    )))
}

/// The `use` line that makes the puzzle current again, for the puzzles puz ships.
fn use_line(name: &str) -> Option<String> {
    if crate::stdlib::get(name).is_some() {
        return Some(format!("use {name}"));
    }
    for f in ["row", "topspin"] {
        if let Some(n) = name.strip_prefix(f).and_then(|n| n.parse::<u32>().ok()) {
            return Some(format!("use {f}({n})"));
        }
    }
    None
}

/// `svg(x, "file.svg")`: a picture of a position (a net of coloured stickers, or a
/// diagram of pieces), of a puzzle or group solved, or a bar chart of a distance table
/// or a list of counts.
pub fn svg(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    use crate::eval::picture;
    let x = a.pos(0);
    let path_arg = a.pos(1);
    let Value::Str(path) = &path_arg.value else {
        unreachable!("checked kind")
    };
    let solved = |p: &std::rc::Rc<crate::eval::puzzle_ctx::PuzzleCtx>| {
        let pic = picture::picture(p, &p.def.identity());
        picture::svg::picture(&pic, &format!("{} solved", p.def.name))
    };
    let (text, what) = match &x.value {
        Value::Distances(d) => {
            let bars: Vec<(String, u128)> = d
                .counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (i.to_string(), c))
                .collect();
            (
                picture::svg::bars(&d.title, "distance", &bars),
                "a bar chart",
            )
        }
        Value::List(items) => {
            let bars = items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Int(n) => u128::try_from(n).map(|c| (i.to_string(), c)).map_err(|_| {
                        Diag::new(
                            x.span,
                            format!("item {i} is negative or too large to draw: {n}"),
                        )
                    }),
                    _ => unreachable!("checked kind"),
                })
                .collect::<EvalResult<Vec<_>>>()?;
            (
                picture::svg::bars("counts", "distance", &bars),
                "a bar chart",
            )
        }
        Value::Puzzle(p) => (solved(p), "a picture"),
        Value::Group(g) => (solved(&g.puzzle), "a picture"),
        v => {
            let (p, perm) = v.perm().expect("checked kind");
            let pic = picture::picture(p, perm);
            let title = format!("{} on {}", v, p.def.name);
            (picture::svg::picture(&pic, &title), "a picture")
        }
    };
    if let Err(e) = std::fs::write(path, &text) {
        return Err(
            Diag::new(path_arg.span, format!("cannot write {path}: {e}"))
                .with_help("give a path in a folder that exists and that you may write to"),
        );
    }
    ctx.ctl.progress(&format!("wrote {path}"));
    Ok(Value::Text(format!(
        "wrote {what} to {path} ({} bytes)",
        text.len()
    )))
}

/// `read_sequences("file")`: one move sequence a line, moves separated by spaces (`R U2
/// F'`, as papers and solvers print them; juxtaposed moves such as `RU'` are split as in
/// scripts). A relative name is read from the script's folder first. Blank lines and lines starting with `//` or `#` are skipped. A data format,
/// not puz syntax: no brackets or macros, so any program can write it.
pub fn read_sequences(ctx: &mut Ctx, a: &Args) -> EvalResult<Value> {
    let p = ctx.puzzle(a.span)?;
    let path_arg = a.pos(0);
    let Value::Str(path) = &path_arg.value else {
        unreachable!("checked kind")
    };
    let text = crate::text_file::read(&ctx.file(path)).map_err(|e| {
        Diag::new(path_arg.span, format!("cannot read {path}: {e}"))
            .with_help("a file of move sequences, one a line")
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") || line.starts_with('#') {
            continue;
        }
        let mut words = Vec::new();
        for token in line.split_whitespace() {
            let w = token_word(&p, token).ok_or_else(|| {
                Diag::new(
                    path_arg.span,
                    format!(
                        "{path}, line {}: `{token}` is not a move of puzzle `{}`",
                        n + 1,
                        p.def.name
                    ),
                )
                .with_help("one sequence a line, its moves separated by spaces: R U2 F'")
            })?;
            words.push(w);
        }
        out.push(Value::Seq(SeqVal::new(p.clone(), Word::seq(words))));
    }
    Ok(Value::List(out))
}

/// One token: moves with optional powers, then primes inverting the last of them; a
/// Clock amount with its direction (`UR5+`, `ALL2-`).
fn token_word(p: &PuzzleCtx, token: &str) -> Option<Word> {
    let body = token.trim_end_matches('\'');
    let primes = token.len() - body.len();
    let is_name = |s: &str| p.move_index(s).is_some();
    if let Some((stem, inverse)) = direction(body).filter(|_| !is_name(body)) {
        let w = token_word(p, stem)?;
        return Some(if (primes % 2 == 1) != inverse {
            w.inverse()
        } else {
            w
        });
    }
    let mut splits = splits(body, &is_name, 2);
    if splits.len() != 1 {
        return None;
    }
    let pieces = splits.pop()?;
    let last = pieces.len().checked_sub(1)?;
    let mut words = Vec::new();
    for (k, piece) in pieces.iter().enumerate() {
        let mi = p.move_index(&piece.name)?;
        let mut power = piece.power.unwrap_or(1) as i64;
        if k == last && primes % 2 == 1 {
            power = -power;
        }
        words.push(p.power_word(mi, power));
    }
    Some(Word::seq(words))
}
