//! `puz batch`, `puz merge` and `puz run --json`, through the built binary: shards merge
//! to the single-process result, a shard killed mid-batch resumes without loss or
//! duplicates, bad input is refused with nothing overwritten, the schedulers' variables
//! pick the shard, and the local recipe runs.

use serde_json::Value as J;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PUZ: &str = env!("CARGO_BIN_EXE_puz");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("puz-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A batch script of `n` random 2x2x2 positions (tables cached in `cache`).
fn script(dir: &Path, n: usize) -> PathBuf {
    let p = dir.join("b.puz");
    std::fs::write(
        &p,
        format!(
            "use cube2\nlet xs = random(group, count: {n}, seed: 11)\nbatch(xs, optimal, metric: qtm, memory: 1000000)\n"
        ),
    )
    .unwrap();
    p
}

fn puz(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(PUZ);
    c.args(args).arg("--quiet");
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "PUZ_SHARDS",
    ] {
        c.env_remove(v);
    }
    c.envs(env.iter().copied());
    c.output().unwrap()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Index -> (input, result) of every line of every shard file in `dir`.
fn shard_items(dir: &Path) -> BTreeMap<u64, (J, J)> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if !p.to_str().unwrap().ends_with(".jsonl") {
            continue;
        }
        for line in std::fs::read_to_string(&p).unwrap().lines() {
            let r: J = serde_json::from_str(line).unwrap();
            let i = r["index"].as_u64().unwrap();
            assert!(
                m.insert(i, (r["input"].clone(), r["result"].clone()))
                    .is_none(),
                "{i} twice"
            );
        }
    }
    m
}

#[test]
fn shards_merge_to_the_single_process_result() {
    let dir = temp("equal");
    let s = script(&dir, 20);
    let cache = dir.join("cache");
    std::fs::create_dir(&cache).unwrap();
    let c = cache.to_str().unwrap();
    let s = s.to_str().unwrap();
    // One process: the items as `--json` prints them, and the summary.
    let json = ok(&puz(&["run", "--json", "--cache", c, s], &[]));
    let mut single = BTreeMap::new();
    let mut summary = String::new();
    for line in json.lines() {
        let r: J = serde_json::from_str(line).unwrap();
        match r["kind"].as_str().unwrap() {
            "batch_item" => {
                single.insert(
                    r["index"].as_u64().unwrap(),
                    (r["input"].clone(), r["result"].clone()),
                );
            }
            "report" => summary = r["value"].as_str().unwrap().to_string(),
            k => panic!("unexpected {k}"),
        }
    }
    assert_eq!(single.len(), 20);
    assert!(
        summary.starts_with("batch optimal(item, metric: qtm, memory: 1000000): 20 items"),
        "{summary}"
    );
    let plain = ok(&puz(&["run", "--cache", c, s], &[]));
    assert_eq!(plain.trim_end(), summary);
    for n in [1, 2, 7] {
        let out = dir.join(format!("out{n}"));
        let o = out.to_str().unwrap();
        for k in 0..n {
            ok(&puz(
                &[
                    "batch",
                    s,
                    "--shard",
                    &format!("{k}/{n}"),
                    "--out",
                    o,
                    "--cache",
                    c,
                ],
                &[],
            ));
        }
        assert_eq!(shard_items(&out), single, "{n} shards");
        let merged = ok(&puz(&["merge", o], &[]));
        assert!(
            merged.contains(&format!(
                "{n} shard(s), every item present once\n{summary}\n"
            )),
            "{merged}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_killed_shard_resumes_without_loss_or_duplicates() {
    let dir = temp("kill");
    let s = script(&dir, 600);
    let out = dir.join("out");
    let (s, o) = (s.to_str().unwrap(), out.to_str().unwrap());
    let file = out.join("shard-1.jsonl");
    let mut child = Command::new(PUZ)
        .args(["batch", s, "--shard", "1/2", "--out", o, "--quiet"])
        .spawn()
        .unwrap();
    let lines =
        |f: &Path| std::fs::read(f).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    let t0 = std::time::Instant::now();
    while lines(&file) < 10 {
        assert!(t0.elapsed().as_secs() < 120, "no lines written");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SIGKILL: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    let written = lines(&file);
    assert!(
        written < 300,
        "the shard finished before it was killed ({written} lines)"
    );
    // As if the kill had come in the middle of a write.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(br#"{"batch":"0123","index":"#);
    std::fs::write(&file, bytes).unwrap();
    let report = ok(&puz(&["batch", s, "--shard", "1/2", "--out", o], &[]));
    assert!(report.contains(&format!("{} were there already (an incomplete last line was dropped); 300 of the shard's 300 done", written)), "{report}");
    let items = shard_items(&out);
    assert_eq!(
        items.keys().copied().collect::<Vec<_>>(),
        (1..600).step_by(2).collect::<Vec<_>>()
    );
    // The other shard, then the merge sees all 600 once.
    ok(&puz(&["batch", s, "--shard", "0/2", "--out", o], &[]));
    assert!(ok(&puz(&["merge", o], &[])).contains(
        "every item present once\nbatch optimal(item, metric: qtm, memory: 1000000): 600 items"
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

fn err(o: &Output) -> String {
    assert!(!o.status.success());
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn bad_input_is_refused_and_nothing_overwritten() {
    let dir = temp("bad");
    let s = script(&dir, 5);
    let out = dir.join("out");
    let (s, o) = (s.to_str().unwrap(), out.to_str().unwrap());
    let e = err(&puz(&["batch", s, "--shard", "2/2", "--out", o], &[]));
    assert!(
        e.contains("there is no shard 2 of 2: the shard index runs from 0 to 1"),
        "{e}"
    );
    assert!(!out.exists());
    let e = err(&puz(
        &[
            "batch",
            s,
            "--out",
            o,
            "--cache",
            dir.join("nope").to_str().unwrap(),
        ],
        &[],
    ));
    assert!(
        e.contains("the cache folder") && e.contains("does not exist"),
        "{e}"
    );
    assert!(!out.exists());
    // Results of this batch, then a different batch (another seed) into the same folder.
    ok(&puz(&["batch", s, "--shard", "0/2", "--out", o], &[]));
    let before = std::fs::read(out.join("shard-0.jsonl")).unwrap();
    let other = dir.join("other.puz");
    std::fs::write(
        &other,
        std::fs::read_to_string(s)
            .unwrap()
            .replace("seed: 11", "seed: 12"),
    )
    .unwrap();
    for k in ["0/2", "1/2"] {
        let e = err(&puz(
            &["batch", other.to_str().unwrap(), "--shard", k, "--out", o],
            &[],
        ));
        assert!(e.contains("holds results of a different batch"), "{e}");
    }
    assert_eq!(std::fs::read(out.join("shard-0.jsonl")).unwrap(), before);
    assert!(!out.join("shard-1.jsonl").exists());
    // The same batch split another way.
    let e = err(&puz(&["batch", s, "--shard", "1/3", "--out", o], &[]));
    assert!(e.contains("split another way"), "{e}");
    // An incomplete batch names what is missing.
    let e = err(&puz(&["merge", o], &[]));
    assert!(
        e.contains("missing shards: shard-1.jsonl") && e.contains("2 of 5 items missing"),
        "{e}"
    );
    // A script without a batch.
    let none = dir.join("none.puz");
    std::fs::write(&none, "use cube2\norder(group)\n").unwrap();
    let e = err(&puz(&["batch", none.to_str().unwrap(), "--out", o], &[]));
    assert!(e.contains("runs no `batch(items, f, ...)`"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_schedulers_variables_pick_the_shard() {
    let dir = temp("env");
    let s = script(&dir, 6);
    let (s, o) = (s.to_str().unwrap(), dir.join("out"));
    let o = o.to_str().unwrap();
    ok(&puz(
        &["batch", s, "--out", o],
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    ));
    ok(&puz(
        &["batch", s, "--out", o],
        &[("JOB_COMPLETION_INDEX", "2"), ("PUZ_SHARDS", "3")],
    ));
    ok(&puz(
        &["batch", s, "--shard", "0", "--out", o],
        &[("PUZ_SHARDS", "3")],
    ));
    let items = shard_items(Path::new(o));
    assert_eq!(items.len(), 6);
    let first = std::fs::read_to_string(Path::new(o).join("shard-2.jsonl")).unwrap();
    let r: J = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(
        (r["shard"].as_str(), r["index"].as_u64()),
        (Some("2/3"), Some(2))
    );
    let e = err(&puz(
        &["batch", s, "--out", o],
        &[("JOB_COMPLETION_INDEX", "2")],
    ));
    assert!(e.contains("PUZ_SHARDS"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn json_lines_carry_kind_value_and_fields() {
    let out = ok(&puz(
        &[
            "--json",
            "-e",
            "use cube2; order(group); R U; optimal(R U R' U', memory: 1000000); show R",
        ],
        &[],
    ));
    let lines: Vec<J> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        serde_json::json!({"kind": "int", "value": 3674160})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"kind": "sequence", "value": "R U"})
    );
    let o = &lines[2];
    assert_eq!(
        (
            o["kind"].as_str(),
            o["length"].as_u64(),
            o["metric"].as_str()
        ),
        (Some("sequence"), Some(4), Some("htm"))
    );
    assert_eq!(
        (o["proved_optimal"].as_bool(), o["rechecked"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(lines[3]["kind"], "show");
}

#[test]
fn the_local_recipe_runs() {
    let dir = temp("local");
    let out = dir.join("out");
    let o = Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/cluster/local.sh"
        ))
        .args([
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/examples/cluster/random_cube2.puz"
            ),
            out.to_str().unwrap(),
            "4",
            "2",
        ])
        .env("PUZ", PUZ)
        .output()
        .unwrap();
    let text = ok(&o);
    assert!(
        text.contains(
            "4 shard(s), every item present once\nbatch optimal(item, metric: qtm): 100 items"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
