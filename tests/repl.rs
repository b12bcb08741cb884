//! Drives the REPL through a pipe: a definition, an error, then a use of the
//! definition. The session must survive the error with the definition intact.

use std::io::Write;
use std::process::{Command, Stdio};

fn repl(input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puz"))
        .env("PUZ_HISTORY", std::env::temp_dir().join("puz_test_history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("puz starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.success(),
    )
}

#[test]
fn definition_error_then_use() {
    let (out, err, ok) = repl(
        "use cube3\nlet sexy = R U R' U'\norder(sexy Q)\norder(sexy)\nsexy == [R, U]\n:quit\n",
    );
    // The session goes on after the error; piped in, its status reports it.
    assert!(!ok);
    assert!(err.contains("unknown name `Q`"), "{err}");
    let lines: Vec<&str> = out
        .lines()
        .map(|l| l.trim_start_matches("puz> "))
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines, ["6", "true"], "{out}");
}

#[test]
fn piped_sessions_report_a_failure_in_their_status() {
    let (_, err, ok) = repl("use cube3\nassert order(R)==5\n");
    assert!(!ok);
    assert!(err.contains("assertion failed"), "{err}");
    let (out, _, ok) = repl("use cube3\norder(R)\n");
    assert!(ok);
    assert!(out.contains('4'), "{out}");
    // A bracket still open where the input ends was dropped, and the session exited 0.
    let (_, err, ok) = repl("use cube3\norder(R\n");
    assert!(!ok);
    assert!(err.contains("this `(` is not closed"), "{err}");
}

#[test]
fn multi_line_input_and_commands() {
    let (out, err, ok) = repl(
        ":help\nuse cube2\nlet a = (R\n U)\norder(a)\n:load /nonexistent.puz\n:bogus\norder(a)\n",
    );
    assert!(ok);
    assert!(out.contains(":load FILE"));
    assert!(
        out.contains("Megaminx R++ D--"),
        "the help shows the notation: {out}"
    );
    assert!(err.contains("cannot read /nonexistent.puz"), "{err}");
    assert!(err.contains("unknown command :bogus"), "{err}");
    let nums: Vec<&str> = out
        .lines()
        .map(|l| l.trim_start_matches("puz> "))
        .filter(|l| l.parse::<u32>().is_ok())
        .collect();
    assert_eq!(nums, ["15", "15"], "{out}");
}

#[test]
fn rebinding_is_allowed_in_the_repl() {
    let (out, _err, ok) = repl("use cube3\nlet a = R\nlet a = R U\norder(a)\n");
    assert!(ok);
    assert!(out.contains("105"), "{out}");
}

#[test]
fn completion_knows_moves_bindings_and_builtins() {
    let mut it = puz::eval::Interp::new(Box::new(std::io::sink()));
    it.run_source("t", "use cube3\nlet sexy = R U R' U'")
        .unwrap();
    let h = puz::repl::PuzHelper::new(&it);
    assert!(h.complete_word("se").contains(&"sexy".to_string()));
    assert!(h.complete_word("ord").contains(&"order".to_string()));
    assert!(h.complete_word("cu").contains(&"cube3".to_string()));
}

#[test]
fn completion_follows_the_context() {
    let mut it = puz::eval::Interp::new(Box::new(std::io::sink()));
    it.run_source("t", "use cube3\nmetric quarter = {U, U'}\nlet cubed = R")
        .unwrap();
    let h = puz::repl::PuzHelper::new(&it);
    // After `use`: puzzles only (not the builtin `cycles` nor the binding `cubed`).
    let after_use = h.complete_in("use ", "cu");
    assert!(after_use.contains(&"cube4".to_string()), "{after_use:?}");
    assert!(
        !after_use.iter().any(|c| c == "cycles" || c == "cubed"),
        "{after_use:?}"
    );
    assert!(h.complete_in("use ", "").contains(&"row(".to_string()));
    // After `metric` or `metric:`: metrics, the user's own among them.
    let m = h.complete_in("optimal(R, metric: ", "");
    assert!(
        m.contains(&"atm".to_string()) && m.contains(&"quarter".to_string()),
        "{m:?}"
    );
    assert!(h.complete_in("metric ", "q").contains(&"qtm".to_string()));
    // Elsewhere an empty word completes to nothing, a prefix to every kind of name.
    assert!(h.complete_in("order(", "").is_empty());
    assert!(h
        .complete_in("order(", "cub")
        .contains(&"cubed".to_string()));
}

#[test]
fn vars_time_and_reset() {
    let (out, err, ok) = repl(
        "use cube3\nlet sexy = R U R' U'\n:vars\n:time\norder(sexy)\n:reset\n:vars\norder(sexy)\n",
    );
    // The last entry fails (the binding is gone), so piped input ends with status 1.
    assert!(!ok);
    assert!(
        out.contains("sexy") && out.contains("a move sequence"),
        "{out}"
    );
    assert!(out.contains("puzzle in use: cube3"), "{out}");
    assert!(out.contains("timing on"), "{out}");
    assert!(err.contains("time: "), "{err}");
    assert!(
        out.contains("(no bindings)") && out.contains("no puzzle in use"),
        "{out}"
    );
    // After :reset the binding is gone.
    assert!(err.contains("unknown name `sexy`"), "{err}");
}

#[test]
fn scripts_fail_with_status_one() {
    let dir = std::env::temp_dir().join("puz_status_test.puz");
    std::fs::write(&dir, "use cube3\nassert order(R) == 5\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg("run")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("assertion failed"));
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["-e", "use cube3; order(R U)"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "105");
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["-e", "use cube3; (R"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// A puz REPL running in a tmux session, typed into like a person would.
struct Tmux {
    session: String,
}

impl Tmux {
    /// Starts `puz` in a new tmux session; `None` where tmux is not installed.
    fn start(tag: &str, history: &std::path::Path) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("skipped: tmux is not installed");
            return None;
        }
        let t = Tmux {
            session: format!("puz_{tag}_{}", std::process::id()),
        };
        let cmd = format!(
            "PUZ_HISTORY={} {}; echo EXITED $?; sleep 30",
            history.display(),
            env!("CARGO_BIN_EXE_puz")
        );
        t.tmux(&[
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "40",
            "-s",
            &t.session,
            &cmd,
        ]);
        pause(300);
        Some(t)
    }

    fn tmux(&self, args: &[&str]) -> String {
        String::from_utf8_lossy(&Command::new("tmux").args(args).output().unwrap().stdout)
            .to_string()
    }

    fn type_line(&self, line: &str) {
        self.tmux(&["send-keys", "-t", &self.session, "-l", line]);
        self.tmux(&["send-keys", "-t", &self.session, "Enter"]);
        pause(300);
    }

    fn key(&self, key: &str) {
        self.tmux(&["send-keys", "-t", &self.session, key]);
    }

    /// The screen, once `done` holds of it (or after about half a minute: on a machine
    /// busy with other builds ten seconds were once not enough to start the REPL).
    fn screen_when(&self, done: impl Fn(&str) -> bool) -> String {
        let mut screen = String::new();
        for _ in 0..150 {
            screen = self.tmux(&["capture-pane", "-t", &self.session, "-p"]);
            if done(&screen) {
                break;
            }
            pause(200);
        }
        screen
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-session", "-t", &self.session]);
    }
}

/// A history file of this test process, empty.
fn fresh_history(tag: &str) -> std::path::PathBuf {
    let hist = std::env::temp_dir().join(format!("puz_{tag}_history_{}", std::process::id()));
    let _ = std::fs::remove_file(&hist);
    hist
}

fn pause(ms: u64) {
    std::thread::sleep(std::time::Duration::from_millis(ms));
}

/// The same session typed into a real terminal (tmux), so that rustyline runs in its
/// interactive mode: prompt, echo, history file. Skipped where tmux is not installed.
#[test]
fn through_a_terminal() {
    let hist = fresh_history("tmux");
    let Some(t) = Tmux::start("term", &hist) else {
        return;
    };
    for line in [
        "use cube3",
        "let sexy = R U R' U'",
        "order(sexy Q)",
        "order(sexy)",
        ":quit",
    ] {
        t.type_line(line);
    }
    let screen = t.screen_when(|s| s.contains("EXITED"));
    assert!(screen.contains("puz> order(sexy)"), "{screen}");
    assert!(screen.contains("unknown name `Q`"), "{screen}");
    assert!(screen.lines().any(|l| l.trim() == "6"), "{screen}");
    assert!(screen.contains("EXITED 0"), "{screen}");
    let saved = std::fs::read_to_string(&hist).unwrap_or_default();
    assert!(saved.contains("let sexy = R U R' U'"), "history: {saved}");
}

/// Ctrl-C stops a long computation, not the REPL: the session goes on.
#[test]
fn ctrl_c_stops_work_not_the_repl() {
    let Some(t) = Tmux::start("ctrlc", std::path::Path::new("/dev/null")) else {
        return;
    };
    t.type_line("use cube3");
    t.type_line("distances(group, depth: 12)");
    pause(1500);
    t.key("C-c");
    let screen = t.screen_when(|s| s.contains("interrupted"));
    assert!(screen.contains("interrupted"), "{screen}");
    t.type_line("order(R U)");
    let screen = t.screen_when(|s| s.lines().any(|l| l.trim() == "105"));
    assert!(screen.lines().any(|l| l.trim() == "105"), "{screen}");
    assert!(!screen.contains("EXITED"), "{screen}");
}

/// Two Ctrl-C in quick succession, the second before the first is honoured, still leave
/// the session running.
#[test]
fn a_second_ctrl_c_does_not_end_the_session() {
    let Some(t) = Tmux::start("ctrlc2", std::path::Path::new("/dev/null")) else {
        return;
    };
    t.type_line("use cube3");
    t.type_line("distances(group, depth: 12)");
    pause(1500);
    t.key("C-c");
    t.key("C-c");
    let screen = t.screen_when(|s| s.contains("interrupted") || s.contains("EXITED"));
    assert!(!screen.contains("EXITED"), "{screen}");
    t.type_line("order(R U)");
    let screen = t.screen_when(|s| s.lines().any(|l| l.trim() == "105"));
    assert!(screen.lines().any(|l| l.trim() == "105"), "{screen}");
}

/// Computations too large for memory are refused before they start, with the figure.
#[test]
fn too_large_is_refused_up_front() {
    for (src, what) in [
        ("use cube3; distances(group)", "a full table needs about"),
        ("use cube3; check_hamilton(R U, group)", "needs"),
        ("use megaminx; hamilton(group)", "too large"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_puz"))
            .args(["-e", src])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{src}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{src}: {err}");
    }
}

#[test]
fn help_for_one_builtin_comes_from_the_table() {
    let (out, err, ok) = repl(":help order\n:help optimal\n:help ordr\n");
    assert!(ok);
    assert!(out.contains("order(x)"), "{out}");
    assert!(out.contains("use cube3; order(R U)"), "{out}");
    assert!(
        out.contains("all:") && out.contains("true or false: every optimal solution"),
        "{out}"
    );
    assert!(out.contains("default: false"), "{out}");
    assert!(err.contains("did you mean `order`?"), "{err}");
}

#[test]
fn completion_offers_options_from_the_table() {
    let it = puz::eval::Interp::new(Box::new(std::io::sink()));
    let h = puz::repl::PuzHelper::new(&it);
    assert!(h.complete_word("memo").contains(&"memory:".to_string()));
}

#[test]
fn help_exit_and_quit_as_words_are_answered() {
    let (out, _, ok) = repl("help\nexit\nuse cube3\nlet quit = R U\nquit\n");
    assert!(ok);
    assert!(out.contains("Type :help"), "{out}");
    assert_eq!(out.matches("Use :quit or Ctrl-D").count(), 1, "{out}");
    assert!(out.contains("R U"), "a bound name is evaluated: {out}");
}

/// Lines typed while a command runs are kept and run in order, a bracket left open among
/// them continuing on the next line.
#[test]
fn lines_typed_while_working_are_run() {
    let hist = fresh_history("ahead");
    let Some(t) = Tmux::start("ahead", &hist) else {
        return;
    };
    t.type_line("use cube3");
    t.tmux(&[
        "send-keys",
        "-t",
        &t.session,
        "-l",
        "distances(<U, R>, depth: 9)",
    ]);
    t.key("Enter");
    pause(200);
    for line in ["order(R U)", "order(F", "U)", "order(U2)"] {
        t.tmux(&["send-keys", "-t", &t.session, "-l", line]);
        t.key("Enter");
    }
    let mut screen = t.screen_when(|s| s.contains("puz> order(U2)\n2"));
    // A loaded machine may take longer than the usual wait.
    for _ in 0..4 {
        if screen.contains("puz> order(U2)\n2") {
            break;
        }
        screen = t.screen_when(|s| s.contains("puz> order(U2)\n2"));
    }
    assert!(screen.contains("puz> order(R U)\n105"), "{screen}");
    assert!(screen.contains("puz> order(F\n...  U)\n105"), "{screen}");
    assert!(screen.contains("puz> order(U2)\n2"), "{screen}");
}

/// An entry that leaves a bracket open continues at a `...` prompt, and goes to the
/// history as one entry.
#[test]
fn open_brackets_continue_at_their_own_prompt() {
    let hist = fresh_history("more");
    let Some(t) = Tmux::start("more", &hist) else {
        return;
    };
    t.type_line("use cube3");
    t.type_line("order(R");
    let screen = t.screen_when(|s| s.contains("puz> order(R\n..."));
    assert!(screen.contains("puz> order(R\n..."), "{screen}");
    t.type_line("U)");
    let screen = t.screen_when(|s| s.lines().any(|l| l.trim() == "105"));
    assert!(screen.contains("puz> order(R\n...  U)\n105"), "{screen}");
    t.type_line(":quit");
    let screen = t.screen_when(|s| s.contains("EXITED"));
    assert!(screen.contains("EXITED 0"), "{screen}");
    let saved = std::fs::read_to_string(&hist).unwrap_or_default();
    assert!(saved.contains("order(R\\nU)"), "history: {saved}");
    let _ = std::fs::remove_file(&hist);
}

/// A script run from the command line shows what gave each result; `--raw` and `-e` do not.
#[test]
fn script_results_say_what_gave_them() {
    let path = std::env::temp_dir().join(format!("puz_labels_{}.puz", std::process::id()));
    std::fs::write(
        &path,
        "use cube3\norder(R U)\nlet s = R U R' U'\ns\n5\ndistances(<U>)\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_puz"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let p = path.to_str().unwrap();
    let labelled = run(&["-q", p]);
    let lines: Vec<&str> = labelled.lines().collect();
    assert_eq!(
        lines[..3],
        ["order(R U) = 105", "s = R U R' U'", "5"],
        "{labelled}"
    );
    // A report of several lines says what it is and prints as it is.
    assert!(
        lines[3].starts_with("distances in htm of <U>"),
        "{labelled}"
    );
    let raw = run(&["-q", "--raw", "run", p]);
    assert!(raw.starts_with("105\nR U R' U'\n5\n"), "{raw}");
    assert_eq!(run(&["-q", "-e", "use cube3; order(R U)"]).trim(), "105");
    let _ = std::fs::remove_file(&path);
}

/// Names a construction made (`plain_changes`' `left3`) are defined after the sequence in
/// the REPL and in scripts; `--raw` prints the sequence alone.
#[test]
fn machine_made_names_are_explained() {
    let (out, _, ok) = repl("use row(4)\nplain_changes(group)\n");
    assert!(ok);
    assert!(out.contains("where left3 = "), "{out}");
    let raw = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["--raw", "-e", "use row(4); plain_changes(group)"])
        .output()
        .unwrap();
    let raw = String::from_utf8_lossy(&raw.stdout);
    assert!(raw.contains("left3") && !raw.contains("where"), "{raw}");
}

/// `-e` with a script is refused, not run with the script ignored (issue 19: `puz -e
/// 'use cube3' run missing.puz` exited 0).
#[test]
fn an_expression_and_a_script_together_are_refused() {
    for args in [
        &["-e", "use cube3", "run", "missing.puz"][..],
        &["-e", "use cube3", "missing.puz"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_puz"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("not both"), "{args:?}: {err}");
    }
}
