//! The abstract syntax tree. Every node keeps the byte span it came from, so that
//! diagnostics can point at it.

use num_bigint::BigUint;

pub use crate::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Puzzle(PuzzleDef),
    Use {
        name: Ident,
        args: Vec<Arg>,
        span: Span,
    },
    /// `use "file.puz"`: runs the file's statements here.
    UseFile {
        path: String,
        path_span: Span,
        span: Span,
    },
    Let {
        name: Ident,
        value: Expr,
        span: Span,
    },
    Move(MoveDef),
    Metric {
        name: Ident,
        value: Option<Expr>,
        span: Span,
    },
    Assert {
        expr: Expr,
        span: Span,
    },
    Show {
        expr: Expr,
        span: Span,
    },
    Expr(Expr),
}

impl Stmt {
    pub fn span(&self) -> Span {
        match self {
            Stmt::Puzzle(p) => p.span,
            Stmt::Move(m) => m.span,
            Stmt::Use { span, .. }
            | Stmt::UseFile { span, .. }
            | Stmt::Let { span, .. }
            | Stmt::Metric { span, .. }
            | Stmt::Assert { span, .. }
            | Stmt::Show { span, .. } => *span,
            Stmt::Expr(e) => e.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleDef {
    pub name: Ident,
    pub items: Vec<PuzzleItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OrbitSize {
    Count(usize, Span),
    Labels(Vec<Ident>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleItem {
    Orbit {
        name: Ident,
        size: OrbitSize,
        twist: Option<(u64, Span)>,
        span: Span,
    },
    Points {
        count: usize,
        span: Span,
    },
    Move(MoveDef),
    Gens {
        names: Vec<Ident>,
        span: Span,
    },
    Order {
        value: BigUint,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveDef {
    pub name: Ident,
    pub body: MoveBody,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MoveBody {
    /// `corners(a+1 b c) edges(0 1)`, or bare `(1,3,8,6)(2,5,7,4)`.
    Cycles { groups: Vec<CycleGroup>, span: Span },
    /// A derived move: `move x = R M' L'`.
    Seq(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CycleGroup {
    pub orbit: Option<Ident>,
    pub cycles: Vec<Cycle>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cycle {
    pub elems: Vec<CycleElem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CycleElem {
    pub label: Ident,
    pub add: i64,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Eq | BinOp::Ne | BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt | BinOp::In => 1,
            BinOp::Add | BinOp::Sub => 2,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 3,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A name or a juxtaposed word such as `RFRFR` (split when evaluated).
    Word(String),
    Int(BigUint),
    Str(String),
    /// Terms one after another: a move sequence.
    Seq(Vec<Expr>),
    /// `X3`, `X^3`, `X^-1` on a bracketed term.
    Power(Box<Expr>, i64),
    /// `X^n`, `X^-n`: the power is a bound integer (the name, and true for `-`).
    PowerBy(Box<Expr>, Ident, bool),
    /// `X'`.
    Prime(Box<Expr>),
    Call {
        name: Ident,
        args: Vec<Arg>,
    },
    /// `<A, B>`.
    Group(Vec<Expr>),
    /// `[A, B]` (commutator), `[A: B]` (conjugate), or a list `[a, b, c]`.
    Bracket {
        items: Vec<Expr>,
        colon: bool,
    },
    /// `{D2 U2}` (a simultaneous twist) or `{U, U2, U'}` (a generator set).
    Braces(Vec<Expr>),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
    pub span: Span,
}
