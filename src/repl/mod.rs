//! The REPL: rustyline with history, completion, entries continued at a `...` prompt
//! while brackets are open, `:help`, `:load`, `:quit`. Errors print and the session goes on; Ctrl-C stops a
//! long computation, not the REPL.

mod helper;
mod typeahead;

use crate::eval::Interp;
use puz_core::Control;
use rustyline::error::ReadlineError;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

pub use helper::PuzHelper;

/// Makes Ctrl-C set the interpreter's cancel flag instead of ending the process.
/// Ctrl-C raises the Control's flag, which long work polls. For a script, a second
/// Ctrl-C before the first is honoured leaves (status 130), as python does; a REPL
/// session is never ended by Ctrl-C (Ctrl-D or `:quit` end it).
pub fn install_ctrlc(ctl: &Control, exit_on_second: bool) {
    let flag = ctl.flag();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst)
            && exit_on_second
            && std::env::var_os("PUZ_CTRLC_NO_EXIT").is_none()
        {
            std::process::exit(130);
        }
    });
}

/// What `help`, `exit` and `quit` typed as words mean at the prompt.
fn bare_word_help(line: &str, it: &Interp) -> Option<&'static str> {
    if it.vars.contains_key(line) {
        return None;
    }
    match line {
        "help" | "help()" => {
            Some("Type :help for the commands and builtins, :help NAME for one builtin.")
        }
        "exit" | "quit" | "exit()" | "quit()" => {
            Some("Use :quit or Ctrl-D (end of input) to leave.")
        }
        _ => None,
    }
}

/// The prompt, and the one for the lines of an entry that leaves a bracket open (the
/// same width, so pasted lines stay aligned).
const PROMPT: &str = "puz> ";
const MORE: &str = "...  ";

/// One entry: a line, and while a bracket is left open, more lines at the continuation
/// prompt. The whole entry goes to the history as one. Ctrl-C drops it; the end of input
/// runs what there is (the parser reports the open bracket).
fn read_entry(rl: &mut Editor) -> Result<String, ReadlineError> {
    let mut entry = rl.readline(PROMPT)?;
    while crate::syntax::parser::unclosed(&entry).is_some() {
        match rl.readline(MORE) {
            Ok(next) => {
                entry.push('\n');
                entry.push_str(&next);
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e),
        }
    }
    let _ = rl.add_history_entry(entry.as_str());
    Ok(entry)
}

type Editor = rustyline::Editor<PuzHelper, rustyline::history::DefaultHistory>;

pub const HELP: &str = "\
puz REPL. Type statements as in a script; results print below.
  use cube3                  load a stdlib puzzle (cube2 cube3 cube4 pyraminx megaminx skewb
                             floppy cheese topspin clock lightsout sixpiece, row(n))
  let sexy = R U R' U'       name a sequence (or a group, a number, ...)
  order(sexy)  cycles(sexy)  show sexy  sexy == [R, U]  <U, R>  assert EXPR
Notation: R U' F2 (R U)3 [R, U] [R: U]; cubes Rw r 2R 3Rw x; Megaminx R++ D-- U';
  Clock UR5+ ALL2- y2 (a `let` may take a derived move's name, such as r or x)
Commands: :help  :help NAME  :load FILE  :vars  :time (time each command)  :reset  :quit
(Ctrl-C stops a long computation; Ctrl-D quits; Tab lists completions)
An entry continues while a bracket is open (prompt `...`).";

/// The REPL help: commands, then every builtin with its one-line description.
pub fn help_text() -> String {
    let mut s = format!("{HELP}\nBuiltins:\n");
    for b in crate::eval::builtins::TABLE {
        let sig = b.sig();
        if sig.len() > 44 {
            // A long signature gets a line of its own, so the descriptions stay aligned.
            s.push_str(&format!("  {sig}\n  {:<44} {}\n", "", b.help));
        } else {
            s.push_str(&format!("  {sig:<44} {}\n", b.help));
        }
    }
    s.push_str(
        "Metrics: htm qtm stm atm (`metric atm` selects one; `metric m = {U, U2, U'}` defines one)",
    );
    s.push_str("\n`:help NAME` shows a builtin's arguments, options and defaults, and an example.");
    s
}

/// `:help NAME`: one builtin in full, from the builtin table.
pub fn help_for(name: &str) -> Result<String, String> {
    let name = name.trim_end_matches("()");
    crate::eval::builtins::help(name).ok_or_else(|| {
        let names = crate::eval::builtins::names();
        let near = crate::eval::names::suggest(name, names.iter().copied());
        match near.first() {
            Some(n) => format!("no builtin `{name}`; did you mean `{n}`?"),
            None => format!("no builtin `{name}` (`:help` lists them)"),
        }
    })
}

/// `:vars`: each binding with what it holds, and the puzzle in use.
pub fn vars_text(it: &Interp) -> String {
    let mut lines: Vec<String> = it
        .vars
        .iter()
        .map(|(name, b)| {
            let shown = b.value.to_string();
            let first = shown.lines().next().unwrap_or("");
            let short: String = first.chars().take(60).collect();
            let more = if short.len() < shown.len() {
                " ..."
            } else {
                ""
            };
            format!("  {name:<12} {:<18} {short}{more}", b.value.type_name())
        })
        .collect();
    if lines.is_empty() {
        lines.push("  (no bindings)".into());
    }
    match &it.current {
        Some(p) => lines.push(format!("puzzle in use: {}", p.def.name)),
        None => lines.push("no puzzle in use".into()),
    }
    lines.join("\n")
}

/// `:reset`: a new session that keeps the REPL's settings (output, Ctrl-C, colour).
fn fresh(old: &Interp) -> Interp {
    let mut it = Interp::new(Box::new(std::io::stdout()));
    it.ctl = old.ctl.clone();
    it.colour = old.colour;
    it.allow_rebind = true;
    it
}

fn history_path() -> Option<std::path::PathBuf> {
    std::env::var_os("PUZ_HISTORY")
        .map(Into::into)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".puz_history")))
}

pub fn run(mut it: Interp) -> ExitCode {
    it.allow_rebind = true;
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .max_history_size(10_000)
        .unwrap()
        .build();
    let mut rl = match Editor::with_config(config) {
        Ok(rl) => rl,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return ExitCode::from(2);
        }
    };
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let hist = history_path();
    if let Some(h) = &hist {
        let _ = rl.load_history(h);
    }
    // Piped in, a session is a script: its status says whether every entry worked.
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let mut failed = false;
    if interactive {
        println!(
            "puz {} — :help for help, :quit to leave",
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut n = 0;
    let mut timing = false;
    let mut queued = std::collections::VecDeque::new();
    // Piped in, an entry reads on over lines until its brackets close; one still open
    // where the input ends is run as it is, so its error is reported.
    let mut open: Option<String> = None;
    loop {
        rl.set_helper(Some(PuzHelper::new(&it)));
        queued.extend(typeahead::waiting_lines());
        let read = match queued.pop_front() {
            // A line typed while the last command ran: shown with its prompt, then run.
            Some(mut line) => {
                while crate::syntax::parser::unclosed(&line).is_some() {
                    queued.extend(typeahead::waiting_lines());
                    match queued.pop_front() {
                        Some(next) => {
                            line.push('\n');
                            line.push_str(&next);
                        }
                        None => break,
                    }
                }
                println!("{PROMPT}{}", line.replace('\n', &format!("\n{MORE}")));
                let _ = rl.add_history_entry(line.as_str());
                Ok(line)
            }
            None => read_entry(&mut rl),
        };
        let read = match read {
            Ok(line) if !interactive => {
                let line = match open.take() {
                    Some(before) => format!("{before}\n{line}"),
                    None => line,
                };
                if crate::syntax::parser::unclosed(&line).is_some() {
                    open = Some(line);
                    continue;
                }
                Ok(line)
            }
            Err(ReadlineError::Eof) if open.is_some() => Ok(open.take().unwrap_or_default()),
            r => r,
        };
        match read {
            Ok(line) => {
                let trimmed = line.trim();
                if trimmed.is_empty() {
                    continue;
                }
                // The words people type first, answered as python does (unless bound).
                if let Some(text) = bare_word_help(trimmed, &it) {
                    println!("{text}");
                    continue;
                }
                if let Some(cmd) = trimmed.strip_prefix(':') {
                    let mut parts = cmd.splitn(2, char::is_whitespace);
                    match (parts.next().unwrap_or(""), parts.next().map(str::trim)) {
                        ("q" | "quit" | "exit", _) => break,
                        ("h" | "help", Some(name)) if !name.is_empty() => match help_for(name) {
                            Ok(text) => println!("{text}"),
                            Err(e) => eprintln!("{e}"),
                        },
                        ("h" | "help", _) => println!("{}", help_text()),
                        ("load" | "l", Some(file)) if !file.is_empty() => {
                            match crate::text_file::read(std::path::Path::new(file)) {
                                Ok(text) => {
                                    if let Err(d) = it.run_source(file, &text) {
                                        eprint!("{}", d.render(color));
                                        failed = true;
                                    }
                                }
                                Err(e) => eprintln!("error: cannot read {file}: {e}"),
                            }
                        }
                        ("load" | "l", _) => eprintln!("usage: :load FILE"),
                        ("time", _) => {
                            timing = !timing;
                            println!("timing {}", if timing { "on" } else { "off" });
                        }
                        ("vars", _) => println!("{}", vars_text(&it)),
                        ("reset", _) => {
                            it = fresh(&it);
                            println!("reset: no bindings, no puzzle in use");
                        }
                        (other, _) => eprintln!("unknown command :{other} (try :help)"),
                    }
                    continue;
                }
                n += 1;
                it.ctl.flag().store(false, Ordering::SeqCst);
                let t0 = std::time::Instant::now();
                if let Err(d) = it.run_source(&format!("<repl:{n}>"), &line) {
                    eprint!("{}", d.render(color));
                    failed = true;
                }
                if timing {
                    eprintln!("time: {:.3} s", t0.elapsed().as_secs_f64());
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error: {e}");
                break;
            }
        }
    }
    if let Some(h) = &hist {
        if let Err(e) = rl.save_history(h) {
            eprintln!(
                "warning: could not save the history to {}: {e}",
                h.display()
            );
        }
    }
    if failed && !interactive {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
