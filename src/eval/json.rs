//! Values as JSON, one object a result: `{"kind": ..., "value": ...}` plus the fields a
//! builtin reported about how it got the value (an optimal solution's length, metric and
//! checks). Used by `puz run --json` and by the result lines of batch jobs, so the two
//! cannot disagree.

use super::value::{MetricSpec, Value};
use num_traits::ToPrimitive;
use serde_json::{Map, Value as J};

/// A field a builtin reports beside its value.
pub type Field = (&'static str, J);

/// The kind of a value, as the JSON names it.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Unit => "nothing",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Str(_) => "string",
        Value::Seq(_) => "sequence",
        Value::Pos(..) => "position",
        Value::Group(_) => "group",
        Value::Puzzle(_) => "puzzle",
        Value::List(_) => "list",
        Value::Text(_) => "report",
        Value::Metric(_) => "metric",
        Value::Distances(_) => "distances",
    }
}

/// The value itself: numbers stay numbers while they fit in 64 bits (larger ones are
/// strings, so no reader rounds them), sequences as written, positions in cycle notation.
pub fn value(v: &Value) -> J {
    match v {
        Value::Unit => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => match i.to_i64() {
            Some(n) => J::from(n),
            None => J::String(i.to_string()),
        },
        Value::Str(s) => J::String(s.clone()),
        Value::Seq(s) => J::String(s.display()),
        Value::Pos(p, perm) => J::String(p.def.cycle_notation(perm)),
        Value::Group(g) => J::String(g.text.clone()),
        Value::Puzzle(p) => J::String(p.def.name.clone()),
        Value::List(items) => J::Array(items.iter().map(value).collect()),
        Value::Text(t) => J::String(t.trim_end().to_string()),
        Value::Metric(m) => match m.as_ref() {
            MetricSpec::Named(n) => J::String(n.clone()),
            MetricSpec::Explicit { .. } => J::String(v.to_string()),
        },
        // The count at each distance, from 0.
        Value::Distances(d) => J::Array(
            d.counts
                .iter()
                .map(|&c| match u64::try_from(c) {
                    Ok(n) => J::from(n),
                    Err(_) => J::String(c.to_string()),
                })
                .collect(),
        ),
    }
}

/// One result: its kind, its value and the builtin's fields (keys in sorted order).
pub fn result(v: &Value, fields: &[Field]) -> J {
    let mut m = Map::new();
    m.insert("kind".into(), J::String(kind(v).into()));
    m.insert("value".into(), value(v));
    for (k, x) in fields {
        m.insert((*k).into(), x.clone());
    }
    J::Object(m)
}

/// A line printed beside the results (a `show` block, a builtin's note).
pub fn note(kind: &str, text: &str) -> J {
    let mut m = Map::new();
    m.insert("kind".into(), J::String(kind.into()));
    m.insert("value".into(), J::String(text.trim_end().to_string()));
    J::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn large_numbers_are_strings() {
        let big = BigInt::from(43252003274489856000u128);
        assert_eq!(
            result(&Value::Int(big), &[]).to_string(),
            r#"{"kind":"int","value":"43252003274489856000"}"#
        );
        let fields = [("length", J::from(3))];
        assert_eq!(
            result(&Value::Int(BigInt::from(7)), &fields).to_string(),
            r#"{"kind":"int","length":3,"value":7}"#
        );
    }
}
