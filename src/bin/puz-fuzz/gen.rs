//! Scripts built from the grammar's constructs and the builtin table: every builtin
//! called with arguments of its kinds (and of wrong kinds), edge-case numbers, empty
//! lists, deep nesting, every stdlib puzzle, `row(n)`/`topspin(n)`, puzzle definitions.

use puz::eval::builtins::spec::Kind;
use puz::eval::builtins::TABLE;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

/// The names a script may use on one puzzle: its moves and locations.
#[derive(Clone, Debug)]
pub struct PuzzleInfo {
    /// How the script selects it: `use cube3`, `use row(5)`.
    pub use_line: String,
    pub moves: Vec<String>,
    /// Location labels, and the orbit each belongs to.
    pub locs: Vec<(String, String)>,
}

/// Reads the moves and locations of every stdlib puzzle and a few built ones.
pub fn puzzles() -> Vec<PuzzleInfo> {
    let mut lines: Vec<String> = puz::stdlib::names().map(|n| format!("use {n}")).collect();
    lines.sort();
    for n in [2, 3, 5, 8] {
        lines.push(format!("use row({n})"));
    }
    for n in [4, 6, 8] {
        lines.push(format!("use topspin({n})"));
    }
    lines
        .into_iter()
        .filter_map(|l| {
            let mut it = puz::eval::Interp::new(Box::new(std::io::sink()));
            it.run_source("<fuzz>", &l).ok()?;
            let p = it.current.clone()?;
            let moves = p.def.moves.iter().map(|m| m.name.clone()).collect();
            let locs = p
                .def
                .orbits
                .iter()
                .flat_map(|o| o.labels.iter().map(|l| (o.name.clone(), l.clone())))
                .collect();
            Some(PuzzleInfo {
                use_line: l,
                moves,
                locs,
            })
        })
        .collect()
}

/// Numbers at the edges: zero, negatives, past u16/u32/u64, powers that are huge.
const INTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-2",
    "7",
    "12",
    "255",
    "256",
    "1000",
    "65535",
    "65536",
    "4294967296",
    "1000000000000",
    "18446744073709551616",
    "2^1000000000",
    "10^12",
    "(-1)",
    "99999999999999999999999999999",
];

const METRICS: &[&str] = &["htm", "qtm", "stm", "atm"];

const TEXTS: &[&str] = &[
    "\"\"",
    "\"fuzz-out.puz\"",
    "\"fuzz-out.svg\"",
    "\"no/such/dir/x\"",
    "\".\"",
];

/// One script's generator: the puzzle in use and what has been bound so far.
pub struct Gen<'a> {
    rng: &'a mut StdRng,
    puzzle: Option<PuzzleInfo>,
    all: &'a [PuzzleInfo],
    metrics: Vec<String>,
    seqs: Vec<String>,
    depth: usize,
}

impl<'a> Gen<'a> {
    pub fn new(rng: &'a mut StdRng, all: &'a [PuzzleInfo]) -> Gen<'a> {
        Gen {
            rng,
            puzzle: None,
            all,
            metrics: METRICS.iter().map(|s| s.to_string()).collect(),
            seqs: Vec::new(),
            depth: 0,
        }
    }

    /// A whole script: a puzzle, then statements.
    pub fn script(&mut self) -> String {
        let mut out = Vec::new();
        let n = self.rng.gen_range(1..=6);
        out.push(self.puzzle_stmt());
        for i in 0..n {
            out.push(self.stmt(i));
        }
        let sep = if self.rng.gen_bool(0.8) { "\n" } else { "; " };
        out.join(sep)
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs.choose(self.rng).unwrap().clone()
    }

    fn puzzle_stmt(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0 => {
                let n = if self.rng.gen_bool(0.5) {
                    self.pick(&["4", "5", "6", "9", "1000"])
                } else {
                    self.pick(INTS)
                };
                let f = self.pick(&["row", "topspin"]);
                self.puzzle = self
                    .all
                    .iter()
                    .find(|p| p.use_line == "use row(5)")
                    .cloned();
                format!("use {f}({n})")
            }
            1 | 2 => self.puzzle_def(),
            3 => {
                self.puzzle = None;
                String::new()
            }
            _ => {
                let p = self.pick(self.all);
                let line = p.use_line.clone();
                self.puzzle = Some(p);
                line
            }
        }
    }

    /// A `puzzle` definition: points or orbits with labels and twists, moves given by
    /// cycles or sequences, gens and order lines; often valid, sometimes not.
    fn puzzle_def(&mut self) -> String {
        let name = self.pick(&["fz", "p", "cube3", "row", "order"]);
        let mut items = Vec::new();
        let mut moves = Vec::new();
        let mut locs = Vec::new();
        if self.rng.gen_bool(0.5) {
            let n = if self.rng.gen_bool(0.8) {
                self.pick(&["2", "3", "5", "8", "12"])
            } else {
                self.pick(&["0", "1", "255", "65536", "70000", "-1"])
            };
            items.push(format!("points {n}"));
            let size: usize = n.parse().unwrap_or(2).clamp(1, 2000);
            for m in ["a", "b", "c"].iter().take(self.rng.gen_range(0..=3)) {
                let mut pts: Vec<usize> = (1..=size.min(12)).collect();
                pts.shuffle(self.rng);
                pts.truncate(self.rng.gen_range(2..=size.clamp(2, 12)));
                if self.rng.gen_bool(0.1) {
                    pts.push(self.rng.gen_range(0..=size + 1));
                }
                let pts: Vec<String> = pts.iter().map(|p| p.to_string()).collect();
                items.push(format!("move {m} = ({})", pts.join(" ")));
                moves.push(m.to_string());
            }
        } else {
            let labels = ["x", "y", "z", "w"];
            let k = self.rng.gen_range(1..=4);
            let twist = if self.rng.gen_bool(0.85) {
                self.pick(&["", " twist 2", " twist 3", " twist 12"])
            } else {
                self.pick(&[" twist 0", " twist 1", " twist 256", " twist 65536"])
            };
            items.push(format!("orbit o [{}]{twist}", labels[..k].join(" ")));
            for l in &labels[..k] {
                locs.push(("o".to_string(), l.to_string()));
            }
            for m in ["f", "g"].iter().take(self.rng.gen_range(0..=2)) {
                let mut cyc: Vec<&str> = labels[..k].to_vec();
                cyc.shuffle(self.rng);
                cyc.truncate(self.rng.gen_range(1..=k));
                let cyc: Vec<String> = cyc
                    .iter()
                    .map(|l| {
                        let t = self.pick(&["", "", "+1", "-1", "+2", "+300"]);
                        format!("{l}{t}")
                    })
                    .collect();
                items.push(format!("move {m} = o({})", cyc.join(" ")));
                moves.push(m.to_string());
            }
            if !moves.is_empty() && self.rng.gen_bool(0.3) {
                let m = self.pick(&moves);
                items.push(format!("move h = {m} {m}'"));
            }
        }
        if self.rng.gen_bool(0.3) && !moves.is_empty() {
            items.push(format!("gens {}", moves.join(" ")));
        }
        if self.rng.gen_bool(0.3) {
            let n = self.pick(INTS);
            items.push(format!("order {n}"));
        }
        self.puzzle = Some(PuzzleInfo {
            use_line: String::new(),
            moves,
            locs,
        });
        let sep = self.pick(&["\n  ", "; ", "  "]);
        format!("puzzle {name} {{{sep}{}\n}}", items.join(sep))
    }

    fn stmt(&mut self, i: usize) -> String {
        match self.rng.gen_range(0..12) {
            0 | 1 => {
                let v = self.seq();
                let name = format!("v{i}");
                self.seqs.push(name.clone());
                format!("let {name} = {v}")
            }
            2 => format!("assert {}", self.expr()),
            3 => format!("show {}", self.expr()),
            4 => {
                let name = format!("m{i}");
                let body = if self.rng.gen_bool(0.5) {
                    let k = self.rng.gen_range(0..4);
                    let items: Vec<String> = (0..k).map(|_| self.seq()).collect();
                    format!("{{{}}}", items.join(", "))
                } else {
                    self.pick(METRICS).to_string()
                };
                self.metrics.push(name.clone());
                if self.rng.gen_bool(0.2) {
                    format!("metric {}", self.pick(METRICS))
                } else {
                    format!("metric {name} = {body}")
                }
            }
            5 => format!("move n{i} = {}", self.seq()),
            6 => self.puzzle_stmt(),
            _ => self.call(),
        }
    }

    fn expr(&mut self) -> String {
        match self.rng.gen_range(0..6) {
            0 => format!("{} == {}", self.seq(), self.seq()),
            1 => format!("{} in {}", self.seq(), self.group()),
            2 => {
                let op = self.pick(&["+", "-", "*", "/", "%", "<", "!="]);
                format!("{} {op} {}", self.int(), self.int())
            }
            3 => format!("{} <= {}", self.group(), self.group()),
            _ => self.call(),
        }
    }

    fn int(&mut self) -> String {
        if self.depth < 3 && self.rng.gen_bool(0.2) {
            self.depth += 1;
            let c = self.call();
            self.depth -= 1;
            return c;
        }
        self.pick(INTS).to_string()
    }

    fn move_name(&mut self) -> String {
        let moves = self
            .puzzle
            .as_ref()
            .map(|p| p.moves.clone())
            .unwrap_or_default();
        if moves.is_empty() || self.rng.gen_bool(0.02) {
            return self.pick(&["R", "Q", "x1", "_", "group"]).to_string();
        }
        self.pick(&moves)
    }

    /// A move sequence: letters with primes and powers, brackets, braces, repeats.
    pub fn seq(&mut self) -> String {
        if self.depth > 4 {
            return self.move_name();
        }
        self.depth += 1;
        let n = self.rng.gen_range(1..=3);
        let terms: Vec<String> = (0..n).map(|_| self.term()).collect();
        self.depth -= 1;
        terms.join(" ")
    }

    fn term(&mut self) -> String {
        let atom = match self.rng.gen_range(0..14) {
            0 => format!("({})", self.seq()),
            1 => format!("[{}, {}]", self.seq(), self.seq()),
            2 => format!("[{}: {}]", self.seq(), self.seq()),
            3 => {
                let k = self.rng.gen_range(0..4);
                let items: Vec<String> = (0..k).map(|_| self.move_name()).collect();
                format!("{{{}}}", items.join(self.pick(&[" ", ", "])))
            }
            4 if !self.seqs.is_empty() => self.pick(&self.seqs.clone()),
            5 => "()".to_string(),
            6 => {
                let d = self.rng.gen_range(1..200);
                format!("{}{}{}", "(".repeat(d), self.move_name(), ")".repeat(d))
            }
            7 if self.depth < 3 => {
                self.depth += 1;
                let c = self.call_of(&[
                    "inverse",
                    "solve",
                    "random",
                    "unrank",
                    "gray",
                    "path_with_effect",
                ]);
                self.depth -= 1;
                c
            }
            _ => self.move_name(),
        };
        let post = match self.rng.gen_range(0..12) {
            0 => "'".to_string(),
            1 => "2".to_string(),
            2 => format!(
                "^{}",
                self.pick(&[
                    "0",
                    "-1",
                    "3",
                    "1000000000000",
                    "-1000000000000",
                    "65536",
                    "99999999999999999999999"
                ])
            ),
            3 => "''".to_string(),
            4 => "^2'".to_string(),
            _ => String::new(),
        };
        format!("{atom}{post}")
    }

    fn group(&mut self) -> String {
        match self.rng.gen_range(0..6) {
            0 => "group".into(),
            1 => "<>".into(),
            2 if self.depth < 3 => {
                self.depth += 1;
                let c = self.call_of(&["stabilizer", "orbit"]);
                self.depth -= 1;
                c
            }
            _ => {
                let k = self.rng.gen_range(1..4);
                let gens: Vec<String> = (0..k).map(|_| self.seq()).collect();
                format!("<{}>", gens.join(", "))
            }
        }
    }

    fn loc(&mut self) -> String {
        let locs = self
            .puzzle
            .as_ref()
            .map(|p| p.locs.clone())
            .unwrap_or_default();
        if locs.is_empty() || self.rng.gen_bool(0.1) {
            return self.pick(&["UFR", "nowhere", "o.q", "1"]).to_string();
        }
        let (o, l) = self.pick(&locs);
        if self.rng.gen_bool(0.1) {
            format!("{o}.{l}")
        } else {
            l
        }
    }

    /// A value of this kind (or, now and then, of another kind).
    fn value(&mut self, kinds: &[Kind]) -> String {
        if self.rng.gen_bool(0.04) {
            return self.wrong_value();
        }
        let k = *kinds.choose(self.rng).unwrap();
        match k {
            Kind::Seq => self.seq(),
            Kind::Pos => {
                if self.rng.gen_bool(0.7) {
                    self.seq()
                } else {
                    format!("random({})", self.group())
                }
            }
            Kind::Group => self.group(),
            Kind::Int => self.int(),
            Kind::Bool => self.pick(&["true", "false"]).into(),
            Kind::Metric => self.pick(&self.metrics.clone()),
            Kind::Loc => self.loc(),
            Kind::Text => self.pick(TEXTS).into(),
            Kind::Puzzle => format!("{}({})", self.pick(&["row", "topspin"]), self.int()),
            Kind::Distances => format!(
                "distances({}, depth: {})",
                self.group(),
                self.pick(&["0", "1", "2", "3"])
            ),
            // A builtin by its name (`batch`'s work), now and then one that is not.
            Kind::Builtin => {
                if self.rng.gen_bool(0.1) {
                    "no_such_builtin".into()
                } else {
                    TABLE.choose(self.rng).unwrap().name.into()
                }
            }
            Kind::ListOf(inner) => {
                let n = *[0usize, 0, 1, 2, 3, 5].choose(self.rng).unwrap();
                let items: Vec<String> = (0..n).map(|_| self.value(inner)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    fn wrong_value(&mut self) -> String {
        match self.rng.gen_range(0..8) {
            0 => "()".into(),
            1 => "[]".into(),
            2 => "true".into(),
            3 => self.pick(METRICS).into(),
            4 => self.pick(TEXTS).into(),
            5 => "<>".into(),
            6 => "[[], [()]]".into(),
            _ => self.pick(INTS).into(),
        }
    }

    fn call_of(&mut self, names: &[&str]) -> String {
        let name = self.pick(names);
        let b = TABLE.iter().find(|b| b.name == name).expect("a builtin");
        self.call_builtin(b)
    }

    /// A call of any builtin, with its parameters, some of its options, and now and then
    /// an argument too many or too few, an unknown or repeated option.
    pub fn call(&mut self) -> String {
        let b = TABLE.choose(self.rng).unwrap();
        self.call_builtin(b)
    }

    fn call_builtin(&mut self, b: &puz::eval::builtins::spec::Builtin) -> String {
        let mut args: Vec<String> = b.params.iter().map(|p| self.value(p.kinds)).collect();
        if !args.is_empty() && self.rng.gen_bool(0.05) {
            args.pop();
        }
        if self.rng.gen_bool(0.05) {
            let v = self.seq();
            args.push(v);
        }
        for o in b.options {
            if self.rng.gen_bool(0.4) {
                let v = self.value(o.kinds);
                args.push(format!("{}: {v}", o.name));
                if self.rng.gen_bool(0.05) {
                    let v = self.value(o.kinds);
                    args.push(format!("{}: {v}", o.name));
                }
            }
        }
        if self.rng.gen_bool(0.03) {
            args.push(format!(
                "{}: {}",
                self.pick(&["all", "metric", "depth", "zzz"]),
                self.int()
            ));
        }
        format!("{}({})", b.name, args.join(", "))
    }
}
