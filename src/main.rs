//! The `puz` command: run a script, evaluate one line, or open the REPL.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "puz",
    version,
    about = "A language for the group theory of permutation puzzles",
    long_about = "puz runs .puz scripts that define twisty puzzles, move sequences and groups, and \
computes with them: orders, stabiliser chains, Hamilton cycles, distance tables and optimal solutions.\n\n\
With no arguments it opens the REPL."
)]
struct Cli {
    /// Evaluate one line (or several separated by `;`) and exit.
    #[arg(short = 'e', long = "eval", value_name = "EXPR")]
    eval: Option<String>,
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a .puz script.
    Run {
        /// The script to run.
        file: std::path::PathBuf,
    },
    /// Open the REPL (the default).
    Repl,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut it = puz::eval::Interp::new(Box::new(std::io::stdout()));
    puz::repl::install_ctrlc(&it.ctl);
    let result = match (&cli.eval, &cli.cmd) {
        (Some(e), _) => it.run_source("<-e>", e),
        (None, Some(Cmd::Run { file })) => match std::fs::read_to_string(file) {
            Ok(text) => it.run_source(&file.display().to_string(), &text),
            Err(err) => {
                eprintln!("error: cannot read {}: {err}", file.display());
                return ExitCode::from(2);
            }
        },
        (None, Some(Cmd::Repl)) | (None, None) => return puz::repl::run(it),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(d) => {
            eprint!("{}", d.render(color));
            ExitCode::from(1)
        }
    }
}
