//! `puz batch` and `puz merge`: a script's `batch(items, f, ...)` split into shards that
//! run anywhere (one machine, a Slurm array, a Kubernetes Indexed Job), each writing its
//! own result file in one folder, and the merge that checks every item is there exactly
//! once and prints the summary. The interpreter knows only the [`Jobs`] hook; this module
//! implements it and never runs syntax itself.

pub mod merge;
pub mod results;
pub mod shard;

use crate::eval::jobs::Jobs;
use results::Writer;
use serde_json::Value as J;
use sha2::{Digest, Sha256};
use shard::Shard;
use std::path::PathBuf;

/// The identity of a batch: a hash of the script's text, the work and every input, so a
/// folder of results is never mixed with another batch's (an edited script, another
/// seed, a changed positions file).
pub fn batch_hash(script: &str, work: &str, inputs: &[String]) -> String {
    let mut h = Sha256::new();
    h.update(b"puz-batch-v1\0");
    for part in [script, work] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update((inputs.len() as u64).to_le_bytes());
    for x in inputs {
        h.update((x.len() as u64).to_le_bytes());
        h.update(x.as_bytes());
    }
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One shard of a batch, as the interpreter's [`Jobs`].
pub struct ShardJobs {
    dir: PathBuf,
    shard: Shard,
    script: String,
    /// Set by `start`.
    run: Option<Run>,
}

struct Run {
    hash: String,
    work: String,
    total: usize,
    writer: Writer,
    resumed: usize,
    written: usize,
}

impl ShardJobs {
    pub fn new(dir: PathBuf, shard: Shard, script: String) -> ShardJobs {
        ShardJobs {
            dir,
            shard,
            script,
            run: None,
        }
    }
}

impl Jobs for ShardJobs {
    fn start(&mut self, work: &str, inputs: &[String]) -> Result<Vec<usize>, String> {
        if self.run.is_some() {
            return Err(
                "a script run by `puz batch` holds one batch; this is a second `batch(...)`".into(),
            );
        }
        let hash = batch_hash(&self.script, work, inputs);
        results::check_folder(&self.dir, &hash, self.shard)?;
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", self.dir.display()))?;
        let writer = Writer::open(&self.dir, self.shard)?;
        let plan: Vec<usize> = (0..inputs.len())
            .filter(|&i| self.shard.owns(i) && !writer.done.contains(&i))
            .collect();
        self.run = Some(Run {
            hash,
            work: work.to_string(),
            total: inputs.len(),
            resumed: writer.done.len(),
            writer,
            written: 0,
        });
        Ok(plan)
    }

    fn done(&mut self, record: &J) -> Result<(), String> {
        let run = self.run.as_mut().expect("start comes first");
        let mut r = record.clone();
        if let J::Object(m) = &mut r {
            m.insert("batch".into(), J::from(run.hash.clone()));
            m.insert("shard".into(), J::from(self.shard.to_string()));
            m.insert("total".into(), J::from(run.total));
            m.insert("work".into(), J::from(run.work.clone()));
        }
        run.writer.append(&r)?;
        run.written += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<String, String> {
        let run = self.run.as_ref().expect("start comes first");
        let mine = (0..run.total).filter(|&i| self.shard.owns(i)).count();
        Ok(format!(
            "shard {} of batch {} ({}): {} item(s) written to {}{}{}; {} of the shard's {mine} done; `puz merge {}` when every shard is",
            self.shard,
            run.hash,
            run.work,
            run.written,
            run.writer.path.display(),
            if run.resumed > 0 {
                format!(", {} were there already", run.resumed)
            } else {
                String::new()
            },
            if run.writer.dropped {
                " (an incomplete last line was dropped)"
            } else {
                ""
            },
            run.resumed + run.written,
            self.dir.display()
        ))
    }

    fn started(&self) -> bool {
        self.run.is_some()
    }
}
