//! The result files of a batch: `DIR/shard-K.jsonl`, one JSON object a line, each stating
//! the batch's hash, the shard, the item's index and input and its result. A line is
//! written whole by one `write` and synced before the next item starts, so a shard killed
//! at any moment leaves at most an incomplete last line, which the next run of the shard
//! drops before it resumes after the last complete one.

use super::shard::Shard;
use serde_json::Value as J;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn shard_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("shard-{k}.jsonl"))
}

/// The complete lines of a result file, parsed, and the length of its complete part.
pub struct Lines {
    pub records: Vec<J>,
    pub complete: u64,
    pub len: u64,
}

/// Reads a result file; a line that is complete but not a JSON object is an error (it was
/// not written by puz, or the disk lost it).
pub fn read(path: &Path) -> Result<Lines, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut records = Vec::new();
    for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<J>(line) {
            Ok(j @ J::Object(_)) => records.push(j),
            _ => {
                return Err(format!(
                    "{}, line {}: not a result line of puz (left untouched)",
                    path.display(),
                    n + 1
                ))
            }
        }
    }
    Ok(Lines {
        records,
        complete: complete as u64,
        len: bytes.len() as u64,
    })
}

/// What a line says about the batch it belongs to.
pub fn batch_of(r: &J) -> (&str, &str) {
    (
        r["batch"].as_str().unwrap_or("?"),
        r["shard"].as_str().unwrap_or("?"),
    )
}

/// The shard count of a line's `shard` field (`"3/7"` -> 7).
pub fn count_of(r: &J) -> Option<usize> {
    r["shard"].as_str()?.split_once('/')?.1.parse().ok()
}

/// Refuses a folder holding results of another batch, or of another split of this one,
/// before anything in it is touched.
pub fn check_folder(dir: &Path, hash: &str, shard: Shard) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut names: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| is_result_file(p))
        .collect();
    names.sort();
    for p in names {
        let lines = read(&p)?;
        let Some(first) = lines.records.first() else {
            continue;
        };
        let (theirs, their_shard) = batch_of(first);
        if theirs != hash {
            return Err(format!(
                "{} holds results of a different batch ({} says batch {theirs}; this script \
                 and its inputs are batch {hash}): nothing was written; give another --out \
                 folder, or move those results away",
                dir.display(),
                p.display()
            ));
        }
        if count_of(first) != Some(shard.n) {
            return Err(format!(
                "{} holds shard {their_shard} of this batch, split another way than this run's \
                 {}/{}: nothing was written; run every shard with the same N, or give another \
                 --out folder",
                dir.display(),
                shard.k,
                shard.n
            ));
        }
    }
    Ok(())
}

pub fn is_result_file(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"))
}

/// A shard's result file, open for appending, locked against a second copy of the shard.
pub struct Writer {
    file: File,
    pub path: PathBuf,
    /// The indices already done (read back on resuming).
    pub done: BTreeSet<usize>,
    /// Whether an incomplete last line was dropped.
    pub dropped: bool,
}

impl Writer {
    /// Opens (or creates) the shard's file. Call [`check_folder`] first.
    pub fn open(dir: &Path, shard: Shard) -> Result<Writer, String> {
        let path = shard_path(dir, shard.k);
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        // A scheduler may start a shard again while the first copy still runs: two
        // writers would duplicate items.
        file.try_lock().map_err(|_| {
            format!(
                "{} is being written by another run of shard {shard} (it is locked)",
                path.display()
            )
        })?;
        let lines = read(&path)?;
        let mut done = BTreeSet::new();
        for r in &lines.records {
            let i = r["index"].as_u64().map(|i| i as usize);
            match i {
                Some(i) if shard.owns(i) && done.insert(i) => {}
                _ => {
                    return Err(format!(
                        "{}: item {} does not belong there once (left untouched)",
                        path.display(),
                        r["index"]
                    ))
                }
            }
        }
        let dropped = lines.complete < lines.len;
        if dropped {
            // What a kill in the middle of a write leaves; the item runs again.
            file.set_len(lines.complete)
                .and_then(|_| file.sync_data())
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
        }
        Ok(Writer {
            file,
            path,
            done,
            dropped,
        })
    }

    /// Appends one record as one line, durable when this returns.
    pub fn append(&mut self, record: &J) -> Result<(), String> {
        let mut line = record.to_string();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}
