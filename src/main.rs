//! The `puz` command: run a script (`puz FILE`, `puz run FILE`, `-` for standard input),
//! evaluate one line, or open the REPL.

use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "puz",
    version,
    about = "A language for the group theory of permutation puzzles",
    long_about = "puz runs .puz scripts that define twisty puzzles, move sequences and groups, and \
computes with them: orders, stabiliser chains, Hamilton cycles, distance tables and optimal solutions.\n\n\
With no arguments it opens the REPL; `puz FILE` runs a script (`-` reads it from standard input).",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Evaluate one line (or several separated by `;`) and exit.
    #[arg(short = 'e', long = "eval", value_name = "EXPR")]
    eval: Option<String>,
    /// No progress lines on standard error (results and errors are still printed).
    #[arg(short, long, global = true)]
    quiet: bool,
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
}

/// Colour on a terminal, unless `NO_COLOR` is set to anything (no-color.org).
fn color() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn read_script(file: &PathBuf) -> Result<(String, String), ExitCode> {
    let (name, text) = if file.as_os_str() == "-" {
        let mut s = String::new();
        let r = std::io::stdin().read_to_string(&mut s);
        ("<stdin>".to_string(), r.map(|_| s))
    } else {
        (file.display().to_string(), std::fs::read_to_string(file))
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
    // `show` draws in colour only on a terminal (and not under NO_COLOR or TERM=dumb).
    it.colour = std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    if !cli.quiet {
        it.ctl = it.ctl.clone().with_progress(|msg| eprintln!("  {msg}"));
    }
    let script = match (&cli.cmd, &cli.file) {
        (Some(Cmd::Run { file }), _) | (None, Some(file)) => Some(file),
        _ => None,
    };
    let result = match (&cli.eval, script) {
        (Some(e), _) => {
            puz::repl::install_ctrlc(&it.ctl, true);
            it.run_source("<-e>", e)
        }
        (None, Some(file)) => {
            puz::repl::install_ctrlc(&it.ctl, true);
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
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(d) => {
            eprint!("{}", d.render(color()));
            ExitCode::from(1)
        }
    }
}
