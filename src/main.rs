//! The `puz` command: run a script (`puz FILE`, `puz run FILE`, `-` for standard input),
//! evaluate one line, open the REPL, run a shard of a batch or merge the shards.

use clap::{Parser, Subcommand};
use puz::text_file;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod allocator;

#[global_allocator]
static ALLOC: allocator::Chosen = allocator::Chosen;

#[derive(Parser)]
#[command(
    name = "puz",
    version,
    about = "A language for the group theory of permutation puzzles",
    long_about = "puz runs .puz scripts that define twisty puzzles, move sequences and groups, and \
computes with them: orders, stabiliser chains, Hamilton cycles, distance tables and optimal solutions.\n\n\
With no arguments it opens the REPL; `puz FILE` runs a script (`-` reads it from standard input).",
    subcommand_negates_reqs = true
)]
struct Cli {
    /// Evaluate one line (or several separated by `;`) and exit.
    #[arg(short = 'e', long = "eval", value_name = "EXPR")]
    eval: Option<String>,
    /// No progress lines on standard error (results and errors are still printed).
    #[arg(short, long, global = true)]
    quiet: bool,
    /// Print each result as one JSON object a line (kind, value and the builtin's fields).
    #[arg(long, global = true)]
    json: bool,
    /// Print a script's results bare, without the expression that gave each one.
    #[arg(long, global = true)]
    raw: bool,
    /// Where pattern tables are cached (shared by shards on many machines; it must exist).
    #[arg(long, global = true, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// The script to run (as `puz run FILE`).
    file: Option<PathBuf>,
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a .puz script (`-` reads it from standard input).
    Run {
        /// The script to run.
        file: PathBuf,
    },
    /// Open the REPL (the default).
    Repl,
    /// Run one shard of the script's `batch(items, f, ...)`, appending to DIR/shard-K.jsonl
    /// (a shard run again resumes where it stopped).
    Batch {
        /// The script; it calls `batch(...)` once.
        file: PathBuf,
        /// K/N: this shard's index from 0 and the number of shards. Default: from
        /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX and
        /// PUZ_SHARDS; else 0/1, the whole batch.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// The folder of the result files (made if missing; shared by the shards).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Check that every item of a batch is in DIR exactly once, and print its summary.
    Merge {
        /// The folder the shards wrote.
        dir: PathBuf,
    },
    /// List the optimal solver's cached pattern tables (`clear` removes them, `path`
    /// prints the folder).
    Cache {
        #[arg(value_parser = ["list", "clear", "path"], default_value = "list")]
        action: String,
    },
}

/// Colour on a terminal, unless `NO_COLOR` is set to anything (no-color.org).
fn color() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn read_script(file: &Path) -> Result<(String, String), ExitCode> {
    let (name, text) = if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        let r = std::io::stdin().read_to_end(&mut bytes);
        let text = r
            .map_err(|e| e.to_string())
            .and_then(|_| text_file::text(bytes));
        ("<stdin>".to_string(), text)
    } else {
        (file.display().to_string(), text_file::read(file))
    };
    text.map(|t| (name.clone(), t)).map_err(|err| {
        eprintln!("error: cannot read {name}: {err}");
        ExitCode::from(2)
    })
}

/// The parser and the passes over the syntax tree and over words recurse once per level
/// of nesting; a large stack (reserved, touched only as deep as the input goes) lets them
/// reach `syntax::parser::MAX_DEPTH`.
const STACK: usize = 1 << 30;

fn main() -> ExitCode {
    // Under a tight address-space limit (`ulimit -v`) the reservation can fail: then a
    // smaller stack, then the main thread's own (deep input may then be refused sooner).
    let limited = std::fs::read_to_string("/proc/self/limits").is_ok_and(|l| {
        l.lines()
            .any(|x| x.starts_with("Max address space") && !x.contains("unlimited"))
    });
    let sizes = if limited {
        vec![STACK / 16]
    } else {
        vec![STACK, STACK / 16]
    };
    for size in sizes {
        if let Ok(h) = std::thread::Builder::new().stack_size(size).spawn(run) {
            return h.join().unwrap_or(ExitCode::from(101));
        }
    }
    run()
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    let mut it = puz::eval::Interp::new(Box::new(std::io::stdout()));
    it.warn = Box::new(|d| eprint!("{}", d.render_warning(color())));
    // `show` draws in colour only on a terminal (and not under NO_COLOR or TERM=dumb).
    it.colour = std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    let (ctl, bars) = puz::progress::attach(it.ctl.clone(), puz::progress::Show::detect(cli.quiet));
    it.ctl = ctl;
    if let Some(Cmd::Cache { action }) = &cli.cmd {
        return cache(action, cli.cache.as_deref());
    }
    if let Some(dir) = &cli.cache {
        if !dir.is_dir() {
            eprintln!(
                "error: the cache folder {} does not exist (make it first, once, where every shard can reach it: mkdir -p {})",
                dir.display(),
                dir.display()
            );
            return ExitCode::from(2);
        }
        it.cache = Some(dir.clone());
    }
    it.json = cli.json;
    it.explain = !cli.raw;
    if let Some(Cmd::Merge { dir }) = &cli.cmd {
        return match puz::batch::merge::merge(dir) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(Cmd::Batch { file, shard, out }) = &cli.cmd {
        return batch(it, file, shard.as_deref(), out);
    }
    let script = match (&cli.cmd, &cli.file) {
        (Some(Cmd::Run { file }), _) | (None, Some(file)) => Some(file),
        _ => None,
    };
    if cli.eval.is_some() && (script.is_some() || cli.cmd.is_some()) {
        eprintln!("error: give either -e EXPR or a script (or a command), not both");
        return ExitCode::from(2);
    }
    if cli.file.is_some() && cli.cmd.is_some() {
        eprintln!(
            "error: give either a script or a command, not both (`puz FILE` or `puz run FILE`)"
        );
        return ExitCode::from(2);
    }
    let result = match (&cli.eval, script) {
        (Some(e), _) => {
            puz::repl::install_ctrlc(&it.ctl, true);
            it.run_source("<-e>", e)
        }
        (None, Some(file)) => {
            puz::repl::install_ctrlc(&it.ctl, true);
            // A script's results say what gave them (`order(G) = 73483200`).
            it.labels = !cli.raw;
            match read_script(file) {
                Ok((name, text)) => it.run_source(&name, &text),
                Err(code) => return code,
            }
        }
        (None, None) => {
            puz::repl::install_ctrlc(&it.ctl, false);
            return puz::repl::run(it);
        }
    };
    if let Some(b) = bars {
        b.clear();
    }
    finish(result)
}

/// `puz cache [list|clear|path]`.
fn cache(action: &str, flag: Option<&Path>) -> ExitCode {
    let Some(dir) = puz::cache::folder(flag) else {
        eprintln!("error: no cache folder (neither --cache, XDG_CACHE_HOME nor HOME is set)");
        return ExitCode::from(2);
    };
    let r = match action {
        "clear" => puz::cache::clear(&dir),
        "path" => Ok(format!("{}\n", dir.display())),
        _ => puz::cache::list(&dir),
    };
    match r {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", dir.display());
            ExitCode::from(1)
        }
    }
}

fn finish(result: Result<(), puz::diag::Diag>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(d) => {
            eprint!("{}", d.render(color()));
            ExitCode::from(1)
        }
    }
}

/// `puz batch FILE --shard K/N --out DIR`.
fn batch(mut it: puz::eval::Interp, file: &Path, shard: Option<&str>, out: &Path) -> ExitCode {
    let shard = match puz::batch::shard::resolve(shard, &|k| std::env::var(k).ok()) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    let (name, text) = match read_script(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let jobs = puz::batch::ShardJobs::new(out.to_path_buf(), shard, text.clone());
    it.jobs = Some(Box::new(jobs));
    puz::repl::install_ctrlc(&it.ctl, true);
    let result = it.run_source(&name, &text);
    if result.is_ok() && !it.jobs.as_ref().is_some_and(|j| j.started()) {
        eprintln!("error: {name} runs no `batch(items, f, ...)`: `puz batch` runs a shard of one");
        return ExitCode::from(2);
    }
    finish(result)
}
