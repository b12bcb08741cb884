//! Builds the AST from the pest parse tree, and turns pest's errors into diagnostics.

use super::ast::*;
use crate::diag::Diag;
use num_bigint::BigUint;
use pest::iterators::Pair;
use pest::Parser;

mod errors;

use errors::syntax_error;
pub use errors::{unclosed, unclosed_at};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/puz.pest"]
struct PuzParser;

/// Parses a whole script (or one REPL entry).
pub fn parse_file(src: &str) -> Result<Vec<Stmt>, Diag> {
    check_depth(src)?;
    let mut pairs = PuzParser::parse(Rule::file, src).map_err(|e| syntax_error(src, e))?;
    let file = pairs.next().unwrap();
    let mut out = Vec::new();
    for p in file.into_inner() {
        if p.as_rule() == Rule::EOI {
            continue;
        }
        out.push(build_stmt(p)?);
    }
    Ok(out)
}

/// How deeply brackets may nest. The parser and every pass over the tree recurse once a
/// level; the binary runs them on a stack sized for this (see `main.rs`).
pub const MAX_DEPTH: usize = 10_000;

/// Refuses input nested more deeply than [`MAX_DEPTH`] before the parser recurses into it.
fn check_depth(src: &str) -> Result<(), Diag> {
    let b = src.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Diag::new(
                        Span::new(i, i + 1),
                        format!("nested too deeply: more than {MAX_DEPTH} brackets"),
                    )
                    .with_help("name inner parts with `let` and use the names"));
                }
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Parses `text` (found at byte `offset` of its source) as a move sequence.
pub fn parse_sequence(text: &str, offset: usize) -> Result<Expr, Diag> {
    let mut pairs = PuzParser::parse(Rule::seq_only, text).map_err(|e| {
        let mut d = syntax_error(text, e);
        d.span = Span::new(d.span.start + offset, d.span.end + offset);
        d
    })?;
    let p = pairs.next().unwrap().into_inner().next().unwrap();
    let mut e = build_expr(p)?;
    shift(&mut e, offset);
    Ok(e)
}

fn shift(e: &mut Expr, offset: usize) {
    e.span = Span::new(e.span.start + offset, e.span.end + offset);
    match &mut e.kind {
        ExprKind::Seq(v)
        | ExprKind::Group(v)
        | ExprKind::Braces(v)
        | ExprKind::Bracket { items: v, .. } => v.iter_mut().for_each(|x| shift(x, offset)),
        ExprKind::Power(x, _) | ExprKind::Prime(x) => shift(x, offset),
        ExprKind::PowerBy(x, name, _) => {
            name.span = Span::new(name.span.start + offset, name.span.end + offset);
            shift(x, offset)
        }
        ExprKind::Call { name, args } => {
            name.span = Span::new(name.span.start + offset, name.span.end + offset);
            for a in args {
                a.span = Span::new(a.span.start + offset, a.span.end + offset);
                if let Some(n) = &mut a.name {
                    n.span = Span::new(n.span.start + offset, n.span.end + offset);
                }
                shift(&mut a.value, offset);
            }
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            shift(lhs, offset);
            shift(rhs, offset);
        }
        ExprKind::Word(_) | ExprKind::Int(_) | ExprKind::Str(_) => {}
    }
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span(&p),
    }
}

fn int_value(p: &Pair<Rule>) -> Result<BigUint, Diag> {
    let digits: String = p.as_str().chars().filter(|c| *c != '_').collect();
    digits
        .parse::<BigUint>()
        .map_err(|_| Diag::new(span(p), "not a number"))
}

/// A number of at most `max` (the same bound the puzzle builder holds it to).
fn small_int(p: &Pair<Rule>, what: &str, max: usize) -> Result<usize, Diag> {
    let v = int_value(p)?;
    usize::try_from(v)
        .ok()
        .filter(|&v| v <= max)
        .ok_or_else(|| Diag::new(span(p), format!("{what} must be at most {max}")))
}

fn build_stmt(p: Pair<Rule>) -> Result<Stmt, Diag> {
    let sp = span(&p);
    match p.as_rule() {
        Rule::puzzle_def => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let items = it
                .filter(|q| q.as_rule() != Rule::puzzle_end)
                .map(build_puzzle_item)
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Stmt::Puzzle(PuzzleDef {
                name,
                items,
                span: sp,
            }))
        }
        Rule::use_stmt => {
            let mut it = p.into_inner();
            let first = it.next().unwrap();
            if first.as_rule() == Rule::string {
                let q = first.as_str();
                return Ok(Stmt::UseFile {
                    path: q[1..q.len() - 1].to_string(),
                    path_span: span(&first),
                    span: sp,
                });
            }
            let name = ident(first);
            let args = match it.next() {
                Some(a) => build_args(a)?,
                None => Vec::new(),
            };
            Ok(Stmt::Use {
                name,
                args,
                span: sp,
            })
        }
        Rule::let_stmt => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let value = build_expr(it.next().unwrap())?;
            Ok(Stmt::Let {
                name,
                value,
                span: sp,
            })
        }
        Rule::move_def => Ok(Stmt::Move(build_move(p)?)),
        Rule::metric_def => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let value = it.next().map(build_expr).transpose()?;
            Ok(Stmt::Metric {
                name,
                value,
                span: sp,
            })
        }
        Rule::assert_stmt => Ok(Stmt::Assert {
            expr: build_expr(p.into_inner().next().unwrap())?,
            span: sp,
        }),
        Rule::show_stmt => Ok(Stmt::Show {
            expr: build_expr(p.into_inner().next().unwrap())?,
            span: sp,
        }),
        Rule::expr => Ok(Stmt::Expr(build_expr(p)?)),
        r => unreachable!("statement rule {r:?}"),
    }
}

fn build_puzzle_item(p: Pair<Rule>) -> Result<PuzzleItem, Diag> {
    let sp = span(&p);
    match p.as_rule() {
        Rule::orbit_def => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let size_p = it.next().unwrap();
            let size = match size_p.as_rule() {
                Rule::int => {
                    OrbitSize::Count(small_int(&size_p, "an orbit size", 1 << 16)?, span(&size_p))
                }
                _ => OrbitSize::Labels(size_p.into_inner().map(ident).collect()),
            };
            let twist = match it.next() {
                Some(t) => {
                    let n = t.into_inner().next().unwrap();
                    let v = small_int(&n, "a twist", 255)?;
                    Some((v as u64, span(&n)))
                }
                None => None,
            };
            Ok(PuzzleItem::Orbit {
                name,
                size,
                twist,
                span: sp,
            })
        }
        Rule::points_def => {
            let n = p.into_inner().next().unwrap();
            Ok(PuzzleItem::Points {
                count: small_int(&n, "a number of points", 1 << 16)?,
                span: sp,
            })
        }
        Rule::move_def => Ok(PuzzleItem::Move(build_move(p)?)),
        Rule::gens_def => Ok(PuzzleItem::Gens {
            names: p.into_inner().map(ident).collect(),
            span: sp,
        }),
        Rule::order_def => {
            let n = p.into_inner().next().unwrap();
            Ok(PuzzleItem::Order {
                value: int_value(&n)?,
                span: sp,
            })
        }
        r => unreachable!("puzzle item {r:?}"),
    }
}

fn build_move(p: Pair<Rule>) -> Result<MoveDef, Diag> {
    let sp = span(&p);
    let mut it = p.into_inner();
    let name = ident(it.next().unwrap());
    let body = it.next().unwrap();
    let body = match body.as_rule() {
        Rule::cycles => {
            let bsp = span(&body);
            let mut groups = Vec::new();
            for g in body.into_inner() {
                let gsp = span(&g);
                let mut orbit = None;
                let mut cycles = Vec::new();
                for c in g.into_inner() {
                    match c.as_rule() {
                        Rule::orbit_ref => orbit = Some(ident(c)),
                        Rule::cycle => {
                            let csp = span(&c);
                            let mut elems = Vec::new();
                            for e in c.into_inner() {
                                let esp = span(&e);
                                let mut ei = e.into_inner();
                                let label = ident(ei.next().unwrap());
                                let add = match ei.next() {
                                    Some(t) => t.as_str().parse::<i64>().map_err(|_| {
                                        Diag::new(span(&t), "orientation change too large")
                                    })?,
                                    None => 0,
                                };
                                elems.push(CycleElem {
                                    label,
                                    add,
                                    span: esp,
                                });
                            }
                            cycles.push(Cycle { elems, span: csp });
                        }
                        r => unreachable!("cycle part {r:?}"),
                    }
                }
                groups.push(CycleGroup {
                    orbit,
                    cycles,
                    span: gsp,
                });
            }
            MoveBody::Cycles { groups, span: bsp }
        }
        _ => MoveBody::Seq(build_expr(body)?),
    };
    Ok(MoveDef {
        name,
        body,
        span: sp,
    })
}

fn build_args(p: Pair<Rule>) -> Result<Vec<Arg>, Diag> {
    p.into_inner()
        .map(|a| {
            let sp = span(&a);
            let inner = a.into_inner().next().unwrap();
            match inner.as_rule() {
                Rule::named_arg => {
                    let mut it = inner.into_inner();
                    let name = ident(it.next().unwrap());
                    let value = build_expr(it.next().unwrap())?;
                    Ok(Arg {
                        name: Some(name),
                        value,
                        span: sp,
                    })
                }
                _ => Ok(Arg {
                    name: None,
                    value: build_expr(inner)?,
                    span: sp,
                }),
            }
        })
        .collect()
}

fn binop(p: &Pair<Rule>) -> BinOp {
    match p.as_str() {
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<=" => BinOp::Le,
        ">=" => BinOp::Ge,
        "<" => BinOp::Lt,
        ">" => BinOp::Gt,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        _ => BinOp::In,
    }
}

/// `expr`/`expr_ml`: operands and operators, folded by precedence (left associative).
fn build_expr(p: Pair<Rule>) -> Result<Expr, Diag> {
    match p.as_rule() {
        Rule::expr | Rule::expr_ml => {
            let mut operands = Vec::new();
            let mut ops = Vec::new();
            let mut negate: Option<Span> = None;
            for q in p.into_inner() {
                match q.as_rule() {
                    Rule::binop => ops.push(binop(&q)),
                    Rule::neg => negate = Some(span(&q)),
                    _ => {
                        let e = build_expr(q)?;
                        // `-x` is `0 - x`, binding tighter than any operator.
                        operands.push(match negate.take() {
                            Some(at) => Expr {
                                span: at.to(e.span),
                                kind: ExprKind::Binary {
                                    op: BinOp::Sub,
                                    lhs: Box::new(Expr {
                                        kind: ExprKind::Int(BigUint::from(0u32)),
                                        span: at,
                                    }),
                                    rhs: Box::new(e),
                                },
                            },
                            None => e,
                        });
                    }
                }
            }
            Ok(fold(operands, ops))
        }
        Rule::sequence | Rule::seq_ml => {
            let sp = span(&p);
            let mut terms = p
                .into_inner()
                .map(build_term)
                .collect::<Result<Vec<_>, _>>()?;
            if terms.len() == 1 {
                Ok(terms.pop().unwrap())
            } else {
                Ok(Expr {
                    kind: ExprKind::Seq(terms),
                    span: sp,
                })
            }
        }
        Rule::term => build_term(p),
        r => unreachable!("expression rule {r:?}"),
    }
}

fn fold(mut operands: Vec<Expr>, ops: Vec<BinOp>) -> Expr {
    // Shunting-yard over the flat list.
    let mut out: Vec<Expr> = Vec::new();
    let mut stack: Vec<BinOp> = Vec::new();
    let reduce = |out: &mut Vec<Expr>, op: BinOp| {
        let rhs = out.pop().unwrap();
        let lhs = out.pop().unwrap();
        let span = lhs.span.to(rhs.span);
        out.push(Expr {
            kind: ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        });
    };
    operands.reverse();
    out.push(operands.pop().unwrap());
    for op in ops {
        while let Some(&top) = stack.last() {
            if top.precedence() >= op.precedence() {
                stack.pop();
                reduce(&mut out, top);
            } else {
                break;
            }
        }
        stack.push(op);
        out.push(operands.pop().unwrap());
    }
    while let Some(top) = stack.pop() {
        reduce(&mut out, top);
    }
    out.pop().unwrap()
}

fn build_term(p: Pair<Rule>) -> Result<Expr, Diag> {
    let mut it = p.into_inner();
    let atom = it.next().unwrap();
    let mut e = build_atom(atom.into_inner().next().unwrap())?;
    for post in it {
        let q = post.into_inner().next().unwrap();
        let sp = e.span.to(span(&q));
        e = match q.as_rule() {
            Rule::prime => Expr {
                kind: ExprKind::Prime(Box::new(e)),
                span: sp,
            },
            _ if q
                .as_str()
                .trim_start_matches(['^', '-'])
                .starts_with(|c: char| !c.is_ascii_digit()) =>
            {
                let text = q.as_str().trim_start_matches('^');
                let negative = text.starts_with('-');
                let name = text.trim_start_matches('-');
                let at = span(&q);
                let name_span = Span::new(at.end - name.len(), at.end);
                Expr {
                    kind: ExprKind::PowerBy(
                        Box::new(e),
                        Ident {
                            name: name.to_string(),
                            span: name_span,
                        },
                        negative,
                    ),
                    span: sp,
                }
            }
            _ => {
                let digits = q.as_str().trim_start_matches('^');
                let k = digits.parse::<i64>().map_err(|_| {
                    Diag::new(span(&q), "power too large")
                        .with_help("powers are written as `(R U)3` or `(R U)^-1`")
                })?;
                Expr {
                    kind: ExprKind::Power(Box::new(e), k),
                    span: sp,
                }
            }
        };
    }
    Ok(e)
}

fn build_atom(p: Pair<Rule>) -> Result<Expr, Diag> {
    let sp = span(&p);
    let kind = match p.as_rule() {
        Rule::word => ExprKind::Word(p.as_str().to_string()),
        Rule::int => ExprKind::Int(int_value(&p)?),
        Rule::string => {
            let s = p.as_str();
            ExprKind::Str(s[1..s.len() - 1].to_string())
        }
        Rule::call => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let args = build_args(it.next().unwrap())?;
            ExprKind::Call { name, args }
        }
        Rule::group_lit => {
            ExprKind::Group(p.into_inner().map(build_expr).collect::<Result<_, _>>()?)
        }
        Rule::bracket => {
            let mut items = Vec::new();
            let mut colon = false;
            for q in p.into_inner() {
                if q.as_rule() == Rule::bracket_sep {
                    colon |= q.as_str() == ":";
                } else {
                    items.push(build_expr(q)?);
                }
            }
            ExprKind::Bracket { items, colon }
        }
        Rule::paren => match p.into_inner().next() {
            Some(q) => {
                let inner = build_expr(q)?;
                // Keep the parentheses as a one-item sequence so `(R U)3` powers the group.
                ExprKind::Seq(vec![inner])
            }
            None => ExprKind::Seq(Vec::new()),
        },
        Rule::braces => ExprKind::Braces(p.into_inner().map(build_term).collect::<Result<_, _>>()?),
        r => unreachable!("atom {r:?}"),
    };
    Ok(Expr { kind, span: sp })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Stmt {
        let mut v = parse_file(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(v.len(), 1, "{v:?}");
        v.pop().unwrap()
    }

    #[test]
    fn sequences_and_postfixes() {
        match one("R U R' U2 (R U)3 [R, U] [R: U]2 (R U)^-1") {
            Stmt::Expr(Expr {
                kind: ExprKind::Seq(v),
                ..
            }) => assert_eq!(v.len(), 8),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn statements_split_on_newlines_not_inside_brackets() {
        let v = parse_file("let a = R U\nlet b = (R\n U)\norder(a) // c\n\nshow b").unwrap();
        assert_eq!(v.len(), 4);
    }

    #[test]
    fn puzzle_with_cycles_and_derived_moves() {
        let src = "puzzle floppy {\n orbit corners 4\n orbit edges 4 twist 2\n move R = corners(1 2) edges(1+1)\n move X = R R\n order 192\n}";
        match one(src) {
            Stmt::Puzzle(p) => {
                assert_eq!(p.items.len(), 5);
                assert!(matches!(
                    &p.items[2],
                    PuzzleItem::Move(MoveDef {
                        body: MoveBody::Cycles { .. },
                        ..
                    })
                ));
                assert!(matches!(
                    &p.items[3],
                    PuzzleItem::Move(MoveDef {
                        body: MoveBody::Seq(_),
                        ..
                    })
                ));
            }
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn gap_points() {
        let src = "puzzle c {\n points 8\n move U = (1,3,8,6)(2,5,7,4)\n}";
        assert!(matches!(one(src), Stmt::Puzzle(_)));
    }

    #[test]
    fn precedence() {
        match one("order(G) / 2 + 1 == 3") {
            Stmt::Expr(Expr {
                kind:
                    ExprKind::Binary {
                        op: BinOp::Eq, lhs, ..
                    },
                ..
            }) => {
                assert!(matches!(lhs.kind, ExprKind::Binary { op: BinOp::Add, .. }))
            }
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn group_literal_and_membership() {
        assert!(matches!(
            one("(R U R' U') in <U, R>"),
            Stmt::Expr(Expr {
                kind: ExprKind::Binary { op: BinOp::In, .. },
                ..
            })
        ));
        assert!(matches!(
            one("<U> <= <U, R>"),
            Stmt::Expr(Expr {
                kind: ExprKind::Binary { op: BinOp::Le, .. },
                ..
            })
        ));
    }

    #[test]
    fn named_args() {
        match one("chain(G, base: [E, D, C])") {
            Stmt::Expr(Expr {
                kind: ExprKind::Call { args, .. },
                ..
            }) => {
                assert_eq!(args.len(), 2);
                assert_eq!(args[1].name.as_ref().unwrap().name, "base");
            }
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn errors_have_spans_and_hints() {
        let e = parse_file("let a = (R U").unwrap_err();
        assert!(e.help.unwrap().contains("not closed"));
        let e = parse_file("R U )").unwrap_err();
        assert_eq!(e.span.start, 4);
    }
}
