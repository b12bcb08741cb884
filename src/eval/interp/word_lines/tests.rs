//! The word-line reader against the general path: on every line it accepts, both must
//! bind the same word (structurally: same nodes, same names, same letters).

use super::super::Interp;
use crate::eval::value::Value;
use puz_core::Word;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const PRELUDE: &str = "use cube3\nlet _1 = R U\nlet x = U R'\nlet n = 3\nlet G = <U, R>\n";

fn session() -> Interp {
    let mut i = Interp::new(Box::new(std::io::sink()));
    i.run_source("<prelude>", PRELUDE).unwrap();
    i.allow_rebind = true;
    i
}

fn bound(i: &Interp, name: &str) -> Word {
    match &i.vars[name].value {
        Value::Seq(s) => s.word.clone(),
        v => panic!("{name} is {}", v.type_name()),
    }
}

/// Runs `line` through the reader in `fast` and through the parser in `slow`; when the
/// reader accepts it, the parser must accept it too and bind the same word. Returns
/// whether the reader accepted it.
fn agree(fast: &mut Interp, slow: &mut Interp, line: &str, name: &str) -> bool {
    let accepted = match fast.run_word_let(line) {
        None => return false,
        Some(r) => r.is_ok(),
    };
    assert!(accepted, "the reader failed on {line:?}");
    slow.run_source("<line>", line)
        .unwrap_or_else(|d| panic!("the reader took {line:?}, the parser refused it: {d:?}"));
    assert_eq!(
        bound(fast, name),
        bound(slow, name),
        "different words for {line:?}"
    );
    true
}

#[test]
fn handwritten_lines() {
    let (mut f, mut s) = (session(), session());
    let yes = [
        "let a = R U R' U'",
        "let a = (R U)^104 R U' (R U)^-2",
        "let a = _1 x' (_1)^14 (x _1)'",
        "let a = U2 R3 U0 (R U)3 R'2",
        "let a = ()",
        "let a = (((R)))",
        "let a = R'U'\n",
        "let a = (R\n U)\r\n",
        "\tlet  a=R",
        "let a = x",
        "let a = x2 _1 x0 _1'",
    ];
    for l in yes {
        assert!(agree(&mut f, &mut s, l, "a"), "declined {l:?}");
    }
    let no = [
        "let a = ",
        "let a = R U // comment",
        "let a = R; let b = U",
        "let a = n",
        "let a = G",
        "let a = R++",
        "let a = 2R",
        "let a = R^n",
        "let a = f(R)",
        "let a = [R, U]",
        "let a = RU",
        "let a = true",
        "let a = htm",
        "let in = R",
        "let R = U",
        "let length = U",
        "letа = R",
        "let a = R\nU",
        "let a = R U)",
        "let a = (R U",
        "let a = R’",
        "let a = R^99999999999999999999",
        "show R",
    ];
    for l in no {
        assert!(f.run_word_let(l).is_none(), "accepted {l:?}");
    }
}

/// Random lines from a soup of tokens, well- and ill-formed: the reader must agree with
/// the parser on every line it takes, and take a good share of them.
#[test]
fn random_lines_agree_with_the_parser() {
    let good = [
        "R", "U", "F", "U2", "R3", "U0", "R'", "_1", "x", "x2", "(", "(", ")", ")", "'", "^2",
        "^-3", "^0", "3", " ", "\t", "M", "Rw",
    ];
    let bad = [
        "_12", "n", "G", "\n", "+", "-", "in", "true", "htm", "foo", "f(", "R++", ";", "2R",
        "group", "[", "]", ",", ":", "<", ">", "//", "\"", "=", "let",
    ];
    let mut rng = StdRng::seed_from_u64(7);
    let (mut f, mut s) = (session(), session());
    let (mut taken, total) = (0, 20_000);
    for _ in 0..total {
        let mut line = String::from("let a = ");
        for _ in 0..rng.gen_range(1..12) {
            let t = if rng.gen_bool(0.9) {
                good[rng.gen_range(0..good.len())]
            } else {
                bad[rng.gen_range(0..bad.len())]
            };
            line.push_str(t);
            if rng.gen_bool(0.85) {
                line.push(' ');
            }
        }
        if agree(&mut f, &mut s, &line, "a") {
            taken += 1;
        }
    }
    assert!(
        taken > total / 10,
        "the reader took only {taken} of {total} lines"
    );
}

/// Words `save` writes, read back line by line both ways.
#[test]
fn saved_words_read_back_alike() {
    let mut rng = StdRng::seed_from_u64(11);
    let s0 = session();
    let p = s0.current.clone().unwrap();
    let letters: Vec<Word> = ["U", "U'", "U2", "R", "R'", "F"]
        .iter()
        .map(|n| Word::Letter(p.alphabet.index(n).unwrap()))
        .collect();
    for case in 0..300 {
        let mut pool: Vec<Word> = letters.clone();
        for k in 0..rng.gen_range(1..25) {
            let pick =
                |rng: &mut StdRng, pool: &Vec<Word>| pool[rng.gen_range(0..pool.len())].clone();
            let w = match rng.gen_range(0..5) {
                0 => Word::seq(
                    (0..rng.gen_range(0..5))
                        .map(|_| pick(&mut rng, &pool))
                        .collect(),
                ),
                1 => pick(&mut rng, &pool).pow(rng.gen_range(-3..40)),
                2 => pick(&mut rng, &pool).inverse(),
                3 => Word::named(&format!("m{k}"), pick(&mut rng, &pool)),
                _ => Word::seq(vec![pick(&mut rng, &pool), pick(&mut rng, &pool)]),
            };
            pool.push(w);
        }
        let word = Word::named("h", pool.pop().unwrap());
        let mut taken: Vec<&str> = vec!["let", "in"];
        taken.extend(p.alphabet.names.iter().map(|n| n.as_str()));
        taken.extend(p.def.moves.iter().map(|m| m.name.as_str()));
        let (defs, _) = puz_core::word_file::definitions(&word, &p.alphabet, &taken);
        let (mut f, mut s) = (session(), session());
        for d in &defs {
            let name = d["let ".len()..].split(' ').next().unwrap();
            assert!(
                agree(&mut f, &mut s, d, name),
                "case {case}: declined {d:?}"
            );
        }
        assert_eq!(bound(&f, "h"), bound(&s, "h"));
    }
}
