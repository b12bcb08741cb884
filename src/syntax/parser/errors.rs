//! Syntax errors as diagnostics: what the parser expected, in words; the bracket left
//! open, named only when nothing later closes it; hints for common slips.

use super::Rule;
use crate::diag::Diag;
use crate::span::Span;

/// Friendly names for what the parser expected.
fn rule_name(r: &Rule) -> Option<&'static str> {
    Some(match r {
        Rule::EOI => "end of input",
        Rule::name | Rule::word | Rule::move_name | Rule::orbit_ref => "a name",
        Rule::int => "a number",
        Rule::expr | Rule::expr_ml | Rule::sequence | Rule::seq_ml | Rule::term | Rule::atom => {
            "a move or expression"
        }
        Rule::binop => "an operator",
        Rule::postfix | Rule::prime | Rule::power => "a power or `'`",
        Rule::cycle | Rule::cycles | Rule::cycle_group => "a cycle such as `corners(0 1 2)`",
        Rule::cycle_elem | Rule::label => "a location",
        Rule::label_list => "`[` with location names",
        Rule::twist => "`twist K`",
        Rule::twist_add => "`+k`",
        Rule::orbit_def | Rule::points_def | Rule::move_def | Rule::gens_def | Rule::order_def => {
            "`orbit`, `points`, `move`, `gens` or `order`"
        }
        Rule::call_args | Rule::arg | Rule::named_arg => "arguments",
        Rule::bracket_sep => "`,` or `:`",
        Rule::puzzle_end => "a new line or `;` before the next item, or `}`",
        Rule::string => "a string",
        _ => return None,
    })
}

pub(super) fn syntax_error(src: &str, e: pest::error::Error<Rule>) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, (p + 1).min(src.len()).max(p)),
        InputLocation::Span((a, b)) => (a, b),
    };
    let found = src[start..].chars().next();
    let mut expected: Vec<&str> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(rule_name).collect()
        }
        ErrorVariant::CustomError { .. } => vec![],
    };
    expected.sort();
    expected.dedup();
    let what = match found {
        None => "unexpected end of input".to_string(),
        Some('\n') | Some('\r') => "unexpected end of line".to_string(),
        Some(c) => format!("unexpected `{c}`"),
    };
    let label = if expected.is_empty() {
        "here".to_string()
    } else {
        format!("expected {}", expected.join(" or "))
    };
    // A bracket open at the error is only worth naming if nothing later closes it.
    let open = unclosed_at(&src[..start]).filter(|&(_, at)| !closed_later(src, at));
    let help = match (found, open) {
        (_, Some((c, _))) => Some(format!("a `{c}` opened before this point is not closed")),
        (Some(')'), _) | (Some(']'), _) | (Some('>'), _) | (Some('}'), _) => {
            Some("this closes a bracket that was not opened".to_string())
        }
        (Some('\u{2019}' | '\u{2032}' | '\u{2018}' | '\u{b4}'), _) => {
            Some("write the prime as the ASCII apostrophe: `R'`".to_string())
        }
        (Some('-'), _) => Some(
            "numbers have no sign: write `0 - 2`; an inverse power is `R^-1` or `R'`".to_string(),
        ),
        _ if positives_has(&e, Rule::puzzle_end) => Some(
            "a puzzle's items (`points`, `orbit`, `move`, `gens`, `order`) go one a line, or separated by `;`".to_string(),
        ),
        (Some(c), _) if c.is_ascii_digit() => Some(
            "powers follow their move directly: `R2`, `(R U)3`; names start with a letter"
                .to_string(),
        ),
        _ => Some("see `:help` or docs/language.md for the syntax".to_string()),
    };
    let end = if end <= start {
        (start + 1).min(src.len())
    } else {
        end
    };
    let mut d = Diag::new(Span::new(start, end), format!("syntax error: {what}")).with_label(label);
    d.help = help;
    if let Some((c, at)) = open {
        d = d.with_related(Span::new(at, at + 1), format!("this `{c}` is not closed"));
    }
    d
}

/// The innermost bracket still open at the end of `s` (ignoring comments).
pub fn unclosed(s: &str) -> Option<char> {
    unclosed_at(s).map(|(c, _)| c)
}

/// Whether the parser expected rule `r` where it stopped.
fn positives_has(e: &pest::error::Error<Rule>, r: Rule) -> bool {
    matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. } if positives.contains(&r))
}

/// Whether the bracket at byte `at` of `src` is closed somewhere after it (ignoring
/// comments).
fn closed_later(src: &str, at: usize) -> bool {
    let mut depth = 0i64;
    let mut rest = &src[at..];
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("//") {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    false
}

/// The innermost bracket still open at the end of `s`, with its byte offset.
pub fn unclosed_at(s: &str) -> Option<(char, usize)> {
    let mut stack = Vec::new();
    let mut base = 0;
    for line in s.split('\n') {
        let code = line.split("//").next().unwrap_or("");
        for (i, c) in code.char_indices() {
            match c {
                '(' | '[' | '{' => stack.push((c, base + i)),
                ')' | ']' | '}' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        base += line.len() + 1;
    }
    stack.pop()
}
