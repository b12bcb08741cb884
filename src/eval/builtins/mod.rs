//! Builtin functions. The table below declares every builtin: its parameters and
//! options with their kinds and defaults, what it does and an example. The interpreter
//! evaluates the arguments, [`spec`] checks them against the table, and the builtin runs
//! with the values and a narrow context; each family lives in its own module and calls
//! an engine. Nothing here parses or evaluates syntax.

mod basic;
mod batch;
mod chains;
mod files;
mod group;
mod hamilton;
mod joins;
mod puzzles;
mod solve;
pub mod spec;
mod walks;

use spec::DefaultValue as D;
use spec::Kind::{self, *};
use spec::{opt, param, Builtin, Opt, Param};

/// Every builtin name (for completion, suggestions and the rule that `let` may not hide
/// one), taken from the table so the two cannot disagree.
pub fn names() -> Vec<&'static str> {
    TABLE.iter().map(|b| b.name).collect()
}

pub fn lookup(name: &str) -> Option<&'static Builtin> {
    TABLE.iter().find(|b| b.name == name)
}

pub fn is_builtin(name: &str) -> bool {
    lookup(name).is_some()
}

/// `:help NAME`.
pub fn help(name: &str) -> Option<String> {
    lookup(name).map(Builtin::help_text)
}

const SEQ_POS: &[Kind] = &[Seq, Pos];
const GROUP: &[Kind] = &[Group];
const SEQ: &[Kind] = &[Seq];
const INT: &[Kind] = &[Int];
const BOOL: &[Kind] = &[Bool];
const METRIC: &[Kind] = &[Metric];
const LOCS: &[Kind] = &[Loc, ListOf(&[Loc])];

const G: Param = param("G", GROUP, "the group");
const METRIC_OPT: Opt = opt(
    "metric",
    METRIC,
    D::Computed("the metric in use (`metric NAME`; htm until then)"),
    "the turn metric",
);
const START: Opt = opt(
    "start",
    SEQ_POS,
    D::Computed("the solved position"),
    "the position the walk starts from",
);
/// The options of `distances` and `distance_counts`.
const DISTANCE_OPTIONS: &[Opt] = &[
    METRIC_OPT,
    opt(
        "depth",
        INT,
        D::Computed("none: the whole group, when its table fits in memory"),
        "search only this many layers",
    ),
    opt(
        "samples",
        INT,
        D::Int(3),
        "how many antipodes (positions at the greatest distance) to show",
    ),
    opt(
        "identify",
        &[Seq, Pos, ListOf(SEQ_POS)],
        D::Computed("the rotations x, y, z in stm; none otherwise"),
        "whole-puzzle rotations: positions differing by them count as one",
    ),
];
const CHAIN: Opt = opt(
    "chain",
    &[ListOf(GROUP)],
    D::Computed("none: the walk, with a bitset of |G| bits"),
    "subgroups H1 < H2 < ... below G: prove it by cosets instead of walking, for groups too large for memory",
);
const CHECK_PARAMS: &[Param] = &[
    param("w", SEQ, "the walk, streamed from its nested form"),
    G,
];

/// Every builtin: dispatch, checking, `:help`, completion and suggestions all read this.
pub const TABLE: &[Builtin] = &[
    Builtin {
        name: "order",
        params: &[param("x", &[Seq, Pos, Group], "what to take the order of")],
        options: &[],
        help: "order of a sequence or position; |G| of a group",
        example: "use cube3; order(R U)",
        run: basic::order,
    },
    Builtin {
        name: "save",
        params: &[
            param(
                "x",
                &[Seq, Pos, Group, Kind::Puzzle],
                "what to write: a sequence (.puz, .scr), a position (.scr), a puzzle or a group (.tws, .json, .g)",
            ),
            param("file", &[Text], "where to write it; the ending picks the format"),
        ],
        options: &[],
        help: "writes a file: a sequence as its definitions (.puz, read back with `use \"file\"`); a puzzle with all its moves, or a group's puzzle with the group's generators as its moves, as twsearch (.tws), KPuzzle (.kpuzzle.json) or GAP (.g); a position as a twsearch scramble (.scr)",
        example: "use row(3); let c = (L R)3; save(c, \"/tmp/puz-save-example.puz\")",
        run: files::save,
    },
    Builtin {
        name: "svg",
        params: &[
            param(
                "x",
                &[Seq, Pos, Group, Puzzle, Distances, ListOf(&[Int])],
                "a position or sequence (its picture), a puzzle or group (solved), a distance table or list of counts (a bar chart)",
            ),
            param("file", &[Text], "where to write it (`.svg`)"),
        ],
        options: &[],
        help: "writes an SVG picture: a net of coloured stickers (ids `ORBIT-lLOCATION-oORIENTATION`, as cubing.js), a diagram of pieces for puzzles without faces, or a bar chart of distances",
        example: "use cube3; svg(R U, \"/tmp/puz-svg-example.svg\")",
        run: files::svg,
    },
    Builtin {
        name: "cycles",
        params: &[param("x", SEQ_POS, "the effect to write")],
        options: &[],
        help: "the effect of a sequence in cycle notation on the puzzle's orbits",
        example: "use cube3; cycles(R U R' U')",
        run: basic::cycles,
    },
    Builtin {
        name: "length",
        params: &[param("x", SEQ, "the sequence to count")],
        options: &[opt(
            "metric",
            METRIC,
            D::Computed("none: every move counts 1"),
            "count in this metric instead",
        )],
        help: "the number of moves (streamed, never expanded), or its length in a metric",
        example: "use cube3; length(R U2 R', metric: qtm)",
        run: basic::length,
    },
    Builtin {
        name: "inverse",
        params: &[param("x", SEQ_POS, "what to invert")],
        options: &[],
        help: "the inverse sequence (same as x')",
        example: "use cube3; inverse(R U F)",
        run: basic::inverse,
    },
    Builtin {
        name: "moves",
        params: &[],
        options: &[],
        help: "the moves of the puzzle in use",
        example: "use floppy; moves()",
        run: basic::moves,
    },
    Builtin {
        name: "row",
        params: &[param("n", INT, "the number of pieces, 2 to 1000")],
        options: &[],
        help: "n pieces in a row with adjacent swaps s1..s(n-1) (`use row(5)`)",
        example: "use row(5); moves()",
        run: puzzles::row,
    },
    Builtin {
        name: "topspin",
        params: &[param("n", INT, "the number of discs, 4 to 1000")],
        options: &[],
        help: "n discs in a loop: S slides, T turns the turntable over (`use topspin(8)`)",
        example: "use topspin(8); order(group)",
        run: puzzles::topspin,
    },
    Builtin {
        name: "chain",
        params: &[G],
        options: &[
            opt(
                "base",
                LOCS,
                D::Computed("the engine's choice"),
                "the locations to fix first, in order",
            ),
            opt(
                "reps",
                BOOL,
                D::Bool(false),
                "list every coset representative",
            ),
        ],
        help: "the stabiliser chain: cosets and word lengths per stage",
        example: "use cube3; chain(<U, R>, base: [UFR, UF])",
        run: group::chain,
    },
    Builtin {
        name: "solve",
        params: &[param("x", SEQ_POS, "the position to solve"), G],
        options: &[],
        help: "a sequence from the chain that solves position x (re-checked; not optimal)",
        example: "use cube2; solve(R U R' U', group)",
        run: group::solve,
    },
    Builtin {
        name: "random",
        params: &[G],
        options: &[
            opt(
                "seed",
                INT,
                D::Computed("a fresh random seed"),
                "the same seed gives the same position (on every machine)",
            ),
            opt(
                "count",
                INT,
                D::Computed("none: one position, not a list"),
                "a list of this many positions (item i depends only on the seed and i)",
            ),
        ],
        help: "a uniformly random position of G, or a list of them",
        example: "use cube3; random(group, seed: 7)",
        run: group::random,
    },
    Builtin {
        name: "rank",
        params: &[param("x", SEQ_POS, "a position of G"), G],
        options: &[],
        help: "the rank of x in 0..|G|-1 (mixed radix along the chain)",
        example: "use cube2; rank(R U, group)",
        run: group::rank,
    },
    Builtin {
        name: "unrank",
        params: &[param("n", INT, "a rank, 0 to |G|-1"), G],
        options: &[],
        help: "the position of rank n",
        example: "use cube2; unrank(1000, group)",
        run: group::unrank,
    },
    Builtin {
        name: "index",
        params: &[G, param("H", GROUP, "a subgroup of G")],
        options: &[],
        help: "[G : H] for a subgroup H of G",
        example: "use cube3; index(<U, R>, <U>)",
        run: group::index,
    },
    Builtin {
        name: "orbit",
        params: &[G, param("loc", &[Loc], "the location whose piece moves")],
        options: &[],
        help: "where the piece at a location can go (with orientations)",
        example: "use cube3; orbit(group, UFR)",
        run: group::orbit,
    },
    Builtin {
        name: "stabilizer",
        params: &[G, param("loc", LOCS, "the locations to fix")],
        options: &[],
        help: "the subgroup fixing a location (or a list of them)",
        example: "use cube3; order(stabilizer(group, [UFR, UF]))",
        run: group::stabilizer,
    },
    Builtin {
        name: "why",
        params: &[param("x", SEQ_POS, "the position to test"), G],
        options: &[],
        help: "whether x is in G, and which stage of the chain rejects it",
        example: "use cube3; why(R U, <U, R2>)",
        run: group::why,
    },
    Builtin {
        name: "check_hamilton",
        params: CHECK_PARAMS,
        options: &[START, CHAIN],
        help: "is w a Hamilton cycle/path of G? the first repeat, in your own macros",
        example: "use row(3); check_hamilton((L R)3, group)",
        run: hamilton::check_hamilton,
    },
    Builtin {
        name: "check_devil",
        params: CHECK_PARAMS,
        options: &[START],
        help: "does w reach every position of G (repeats allowed)? by which move?",
        example: "use row(3); check_devil((L R)3, group)",
        run: hamilton::check_devil,
    },
    Builtin {
        name: "is_hamilton_cycle",
        params: CHECK_PARAMS,
        options: &[START, CHAIN],
        help: "true when w is a Hamilton cycle of G",
        example: "use row(3); is_hamilton_cycle((L R)3, group)",
        run: |c, a| hamilton::is_kind(c, a, Some(puz_hamilton::Kind::Cycle)),
    },
    Builtin {
        name: "is_hamilton_path",
        params: CHECK_PARAMS,
        options: &[START, CHAIN],
        help: "true when w is a Hamilton path of G",
        example: "use row(3); is_hamilton_path((L R)2 L, group)",
        run: |c, a| hamilton::is_kind(c, a, Some(puz_hamilton::Kind::Path)),
    },
    Builtin {
        name: "is_devil",
        params: CHECK_PARAMS,
        options: &[START],
        help: "true when w reaches every position of G",
        example: "use row(3); is_devil((L R)3, group)",
        run: |c, a| hamilton::is_kind(c, a, None),
    },
    Builtin {
        name: "hamilton",
        params: &[param(
            "G",
            GROUP,
            "the group; its generators must be single moves",
        )],
        options: &[opt(
            "chain",
            &[ListOf(GROUP)],
            D::Computed("none: a search in memory; past 2^32 positions, the groups of G's first 2, 3, ... generators"),
            "build along subgroups H1 < H2 < ... < G, each adding one move that commutes with one below (`[<U, R>, <U, R, D>]`); certified by cosets",
        ), opt(
            "certify",
            BOOL,
            D::Bool(true),
            "with chain: prove the result by cosets before returning it; false returns the construction with only its length, effect and coset count checked",
        )],
        help: "a Hamilton cycle of the Cayley graph of G on its generators, verified",
        example: "use row(4); hamilton(group)",
        run: hamilton::hamilton,
    },
    Builtin {
        name: "gray",
        params: &[param(
            "G",
            &[Group, ListOf(&[Int])],
            "an abelian group of single moves, or the radices of the puzzle's generators",
        )],
        options: &[opt(
            "cycle",
            BOOL,
            D::Bool(false),
            "a modular cycle instead of a reflected path",
        )],
        help: "a mixed-radix Gray code (path, or modular cycle) on an abelian group",
        example: "use lightsout; gray([2, 2, 2])",
        run: hamilton::gray,
    },
    Builtin {
        name: "plain_changes",
        params: &[param(
            "G",
            GROUP,
            "generated by the adjacent swaps, in order",
        )],
        options: &[],
        help: "the bell-ringing cycle; G's generators are the adjacent swaps in order",
        example: "use row(4); plain_changes(group)",
        run: hamilton::plain_changes,
    },
    Builtin {
        name: "zigzag",
        params: &[
            param("P", SEQ, "a Hamilton path of a group G"),
            param("Q", SEQ, "a Hamilton path of a group H commuting with G"),
        ],
        options: &[],
        help: "the direct-product path from Hamilton paths P and Q",
        example: "use lightsout; zigzag(a1, a2)",
        run: hamilton::zigzag,
    },
    Builtin {
        name: "path_with_effect",
        params: &[
            param("C", SEQ, "a Hamilton cycle of a group H"),
            param("m", SEQ, "a single move occurring in C"),
        ],
        options: &[],
        help: "a Hamilton path of H with the effect of move m, from a Hamilton cycle C of H",
        example: "use sixpiece; path_with_effect((R'R'LRRL'RRLRRL)5, R)",
        run: hamilton::path_with_effect,
    },
    Builtin {
        name: "coset_splice",
        params: &[
            param("C", SEQ, "a Hamilton cycle of a group H"),
            param(
                "steps",
                SEQ,
                "h1 g1 h2 g2 ...: a move of H, then a move to the next coset",
            ),
        ],
        options: &[opt(
            "tail",
            BOOL,
            D::Bool(false),
            "end with a last path of H",
        )],
        help: "a walk through the cosets of H, each h replaced by a path of H with its effect",
        example: "use sixpiece; length(coset_splice((R'R'LRRL'RRLRRL)5, (R U)4 L U, tail: true))",
        run: hamilton::coset_splice,
    },
    Builtin {
        name: "distances",
        params: &[G],
        options: DISTANCE_OPTIONS,
        help: "God's algorithm: positions at each distance, God's number, antipodes",
        example: "use cube2; distances(<U, R>, metric: qtm)",
        run: solve::distances,
    },
    Builtin {
        name: "distance_counts",
        params: &[G],
        options: DISTANCE_OPTIONS,
        help: "the same counts as a list, for asserts",
        example: "use cube2; distance_counts(<U, R>)",
        run: solve::distance_counts,
    },
    Builtin {
        name: "optimal",
        params: &[param("x", SEQ_POS, "the position to solve")],
        options: &[
            METRIC_OPT,
            opt(
                "all",
                BOOL,
                D::Bool(false),
                "every optimal solution, as a list",
            ),
            opt(
                "first",
                BOOL,
                D::Bool(false),
                "the first solution any thread finds (not the same every run)",
            ),
            opt(
                "memory",
                INT,
                D::Computed("a quarter of the free memory, at most 4 GiB"),
                "bytes of pattern tables",
            ),
            opt(
                "second_table",
                BOOL,
                D::Computed("where its tables' means say it pays"),
                "a second table over several orbits when the memory holds it",
            ),
        ],
        help: "an optimal solution (IDA* with pattern databases), proved and re-checked",
        example: "use cube2; optimal(R U R' U', memory: 1000000)",
        run: solve::optimal,
    },
    Builtin {
        name: "read_sequences",
        params: &[param("file", &[Text], "one move sequence a line (`R U2 F'`)")],
        options: &[],
        help: "the move sequences of a text file, one a line, as a list (blank and `#` lines skipped)",
        example: "use cube2; read_sequences(\"examples/cluster/cube2_positions.txt\")",
        run: files::read_sequences,
    },
    Builtin {
        name: "batch",
        params: &[
            param(
                "items",
                &[ListOf(&[Seq, Pos, Group, Int])],
                "the work: positions, walks or groups",
            ),
            param("f", &[Builtin], "the builtin applied to each item (`optimal`)"),
        ],
        options: &[
            opt(
                "with",
                &[Group, Seq, Pos, Int],
                D::Computed("none"),
                "f's second argument, the same for every item (`check_hamilton`'s group)",
            ),
            METRIC_OPT,
            opt("memory", INT, D::Computed("f's default"), "passed on to f"),
            opt("depth", INT, D::Computed("f's default"), "passed on to f"),
            opt("chain", &[ListOf(GROUP)], D::Computed("f's default"), "passed on to f"),
            opt("start", SEQ_POS, D::Computed("f's default"), "passed on to f"),
        ],
        help: "applies f to every item and summarises the results (histogram, mean, maxima); `puz batch` splits the items among shards",
        example: "use cube2; batch(random(group, count: 3, seed: 1), optimal, memory: 1000000)",
        run: batch::batch,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_are_unique_and_documented() {
        let mut names = names();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a builtin is listed twice");
        for b in TABLE {
            assert!(!b.help.is_empty(), "{}", b.name);
            assert!(b.example.contains(&format!("{}(", b.name)), "{}", b.name);
            let mut opts: Vec<&str> = b.options.iter().map(|o| o.name).collect();
            opts.sort();
            opts.dedup();
            assert_eq!(
                opts.len(),
                b.options.len(),
                "{}: an option is listed twice",
                b.name
            );
        }
    }
}
