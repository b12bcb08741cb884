//! `puz merge DIR`: reads every shard's result file, checks that they are one batch split
//! one way and that every item is there exactly once, and gives the batch's summary (the
//! one `puz run` prints for the same script) with the time the items took.

use super::results::{self, batch_of, count_of};
use crate::eval::jobs::summary;
use serde_json::Value as J;
use std::path::Path;

/// The report of a complete batch, or what is wrong or missing.
pub fn merge(dir: &Path) -> Result<String, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| results::is_result_file(p))
        .collect();
    files.sort();
    let mut records: Vec<J> = Vec::new();
    let mut present = Vec::new();
    for f in &files {
        let k: Option<usize> = f
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.strip_prefix("shard-"))
            .and_then(|s| s.parse().ok());
        present.extend(k);
        records.extend(results::read(f)?.records);
    }
    let Some(first) = records.first() else {
        return Err(format!(
            "no results in {} (no lines in shard-K.jsonl files)",
            dir.display()
        ));
    };
    let (hash, _) = batch_of(first);
    let hash = hash.to_string();
    let n = count_of(first).ok_or("a result line without its shard")?;
    let total = first["total"]
        .as_u64()
        .ok_or("a result line without the batch's size")? as usize;
    let work = first["work"].as_str().unwrap_or("?").to_string();
    let mut seen = vec![0usize; total];
    for r in &records {
        let (h, s) = batch_of(r);
        if h != hash || count_of(r) != Some(n) || r["total"].as_u64() != Some(total as u64) {
            return Err(format!(
                "{} mixes batches: batch {hash} split {n} ways, and batch {h} shard {s}",
                dir.display()
            ));
        }
        match r["index"].as_u64() {
            Some(i) if (i as usize) < total => seen[i as usize] += 1,
            _ => {
                return Err(format!(
                    "a result line with index {} of {total}",
                    r["index"]
                ))
            }
        }
    }
    let missing: Vec<usize> = (0..total).filter(|&i| seen[i] == 0).collect();
    let twice: Vec<usize> = (0..total).filter(|&i| seen[i] > 1).collect();
    if !missing.is_empty() || !twice.is_empty() {
        let mut msg = format!(
            "batch {hash} ({work}) in {} is not complete:",
            dir.display()
        );
        let absent: Vec<String> = (0..n.min(total))
            .filter(|k| !present.contains(k))
            .map(|k| format!("shard-{k}.jsonl"))
            .collect();
        if !absent.is_empty() {
            msg.push_str(&format!("\n  missing shards: {}", absent.join(", ")));
        }
        if !missing.is_empty() {
            let mut by_shard: Vec<String> = Vec::new();
            for k in 0..n {
                let m = missing.iter().filter(|&&i| i % n == k).count();
                if m > 0 {
                    by_shard.push(format!("shard {k}/{n}: {m}"));
                }
            }
            msg.push_str(&format!(
                "\n  {} of {total} items missing ({}); the first: {}",
                missing.len(),
                by_shard.join(", "),
                list(&missing)
            ));
        }
        if !twice.is_empty() {
            msg.push_str(&format!(
                "\n  {} more than once: {}",
                puz_core::count(twice.len(), "item"),
                list(&twice)
            ));
        }
        return Err(msg);
    }
    records.sort_by_key(|r| r["index"].as_u64());
    let seconds: f64 = records.iter().filter_map(|r| r["seconds"].as_f64()).sum();
    Ok(format!(
        "batch {hash}: {n} shard(s), every item present once\n{}time: {seconds:.1} s of work, {:.3} s an item\n",
        summary(&work, &records),
        seconds / total.max(1) as f64
    ))
}

fn list(xs: &[usize]) -> String {
    let shown: Vec<String> = xs.iter().take(20).map(|i| i.to_string()).collect();
    format!(
        "{}{}",
        shown.join(", "),
        if xs.len() > 20 { ", ..." } else { "" }
    )
}
