//! Batch jobs as the interpreter sees them. `batch(items, f, ...)` asks a [`Jobs`] which
//! items this process runs and hands it every result; `puz batch` supplies one that runs
//! a shard and writes its lines durably (`crate::batch`), and without one every item runs
//! in this process. [`summary`] is the report of a whole batch: the same text from one
//! process as from merged shards, which is what makes the two comparable.

use serde_json::Value as J;
use std::collections::BTreeMap;

/// Where a batch's items run and its results go.
pub trait Jobs {
    /// The batch's work (`optimal(metric: atm)`) and every item's input; returns the
    /// indices this process runs, in order (its shard, less what is already done).
    fn start(&mut self, work: &str, inputs: &[String]) -> Result<Vec<usize>, String>;
    /// One finished item's record, durable once this returns.
    fn done(&mut self, record: &J) -> Result<(), String>;
    /// What `batch` returns once its items are done.
    fn finish(&mut self) -> Result<String, String>;
    /// Whether the script has started a batch.
    fn started(&self) -> bool;
}

/// A record's result field, for the summary.
fn result_field<'a>(r: &'a J, name: &str) -> Option<&'a J> {
    r.get("result").and_then(|x| x.get(name))
}

/// The report of a batch from its records in index order: the number of items, then for
/// results with a length (optimal solutions) the histogram, mean and maxima with their
/// inputs; for true/false results the counts of each; otherwise the kinds of result.
pub fn summary(work: &str, records: &[J]) -> String {
    let n = records.len();
    let mut out = format!("batch {work}: {n} item{}\n", if n == 1 { "" } else { "s" });
    if n == 0 {
        return out;
    }
    let lengths: Option<Vec<u64>> = records
        .iter()
        .map(|r| result_field(r, "length").and_then(J::as_u64))
        .collect();
    if let Some(lengths) = lengths {
        let mut hist: BTreeMap<u64, usize> = BTreeMap::new();
        for &l in &lengths {
            *hist.entry(l).or_default() += 1;
        }
        out.push_str(&format!("{:>8}  {:>8}\n", "length", "items"));
        for (l, c) in &hist {
            out.push_str(&format!("{l:>8}  {c:>8}\n"));
        }
        let mean = lengths.iter().sum::<u64>() as f64 / n as f64;
        out.push_str(&format!("mean length: {mean:.3}\n"));
        let max = *lengths.iter().max().unwrap();
        let at: Vec<&J> = records
            .iter()
            .zip(&lengths)
            .filter(|(_, &l)| l == max)
            .map(|(r, _)| r)
            .collect();
        out.push_str(&format!("maximum {max}, {} item(s):\n", at.len()));
        const SHOWN: usize = 10;
        for r in at.iter().take(SHOWN) {
            out.push_str(&format!(
                "  #{} {} -> {}\n",
                r["index"],
                r["input"].as_str().unwrap_or("?"),
                result_field(r, "value").and_then(J::as_str).unwrap_or("?")
            ));
        }
        if at.len() > SHOWN {
            out.push_str(&format!("  ... and {} more\n", at.len() - SHOWN));
        }
        let proved = records
            .iter()
            .filter(|r| result_field(r, "proved_optimal") == Some(&J::Bool(true)))
            .count();
        let rechecked = records
            .iter()
            .filter(|r| result_field(r, "rechecked") == Some(&J::Bool(true)))
            .count();
        out.push_str(&format!(
            "proved optimal: {proved} of {n}; re-checked by applying them: {rechecked} of {n}\n"
        ));
        return out;
    }
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for r in records {
        let key = match result_field(r, "value") {
            Some(J::Bool(b)) => b.to_string(),
            _ => format!(
                "{} results",
                result_field(r, "kind").and_then(J::as_str).unwrap_or("?")
            ),
        };
        *kinds.entry(key).or_default() += 1;
    }
    for (k, c) in kinds {
        out.push_str(&format!("{k}: {c}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(i: usize, len: u64) -> J {
        json!({"index": i, "input": format!("x{i}"), "result": {"kind": "sequence",
            "value": "R", "length": len, "proved_optimal": true, "rechecked": true}})
    }

    #[test]
    fn histogram_mean_and_maxima() {
        let s = summary("optimal()", &[rec(0, 3), rec(1, 5), rec(2, 5)]);
        assert!(s.contains("mean length: 4.333"), "{s}");
        assert!(
            s.contains("maximum 5, 2 item(s):\n  #1 x1 -> R\n  #2 x2 -> R"),
            "{s}"
        );
        assert!(
            s.contains("       3         1\n       5         2\n"),
            "{s}"
        );
        assert!(s.contains("proved optimal: 3 of 3"), "{s}");
    }

    #[test]
    fn booleans_are_counted() {
        let b = |i: usize, v: bool| json!({"index": i, "input": "w", "result": {"kind": "bool", "value": v}});
        let s = summary("is_devil()", &[b(0, true), b(1, false), b(2, true)]);
        assert!(s.ends_with("false: 1\ntrue: 2\n"), "{s}");
    }
}
