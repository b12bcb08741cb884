//! puz-fuzz: runs generated and mutated scripts through the interpreter and counts what
//! becomes of them: ok, error (a diagnostic), timeout (stopped by its cancel flag at the
//! time limit), and the defects: panic, abort, hang (ignores its time limit), over
//! memory. Each defect's script is written to the findings folder.
//!
//!   puz-fuzz --cases 1000 --seed 1            # as tests/fuzz.rs does
//!   puz-fuzz --seconds 600 --cases 100000     # as benches/run.sh does
//!   puz-fuzz --show 17 --seed 1               # the script of case 17
//!   puz-fuzz --run case17.puz                 # one script under a case's limits
//!
//! Case `i` of seed `s` is one script whatever else runs, so a finding is reproduced by
//! its seed and number. The exit status is 1 when a defect was found.

mod case;
mod driver;
mod gen;
mod mutate;

use clap::Parser;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Fuzzes the puz interpreter with generated and mutated scripts")]
struct Cli {
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many cases (numbered from 0).
    #[arg(long, default_value_t = 1000)]
    cases: u64,
    /// Stop after this long, even before all cases ran.
    #[arg(long)]
    seconds: Option<u64>,
    /// The time limit of one case, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    limit_ms: u64,
    /// The memory limit of one case, in MiB (its computations get a sixteenth less).
    #[arg(long, default_value_t = 512)]
    memory_mib: u64,
    /// Where the scripts of defects go.
    #[arg(long, default_value = "target/fuzz")]
    out: PathBuf,
    /// Print every case's outcome and first line of its diagnostic.
    #[arg(long)]
    verbose: bool,
    /// Print the script of this case and exit.
    #[arg(long)]
    show: Option<u64>,
    /// Run this script as a case (its limits as a child's) and print its outcome.
    #[arg(long)]
    run: Option<PathBuf>,
    /// Run cases in this process from `--start` (used by the parent).
    #[arg(long, hide = true)]
    child: bool,
    #[arg(long, hide = true, default_value_t = 0)]
    start: u64,
}

/// The script of case `i`: seven in ten generated, the others mutated examples.
fn script(seed: u64, i: u64, puzzles: &[gen::PuzzleInfo], corpus: &[Vec<u8>]) -> String {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
    if corpus.is_empty() || rng.gen_bool(0.7) {
        gen::Gen::new(&mut rng, puzzles).script()
    } else {
        String::from_utf8_lossy(&mutate::mutant(&mut rng, corpus)).into_owned()
    }
}

/// Deep input recurses once per level; the binary gives it a large stack too.
const STACK: usize = 64 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = mutate::corpus(&root);
    let puzzles = gen::puzzles();
    let text_of = |i| script(cli.seed, i, &puzzles, &corpus);
    if let Some(i) = cli.show {
        println!("{}", text_of(i));
        return ExitCode::SUCCESS;
    }
    let memory = cli.memory_mib << 20;
    let limit = Duration::from_millis(cli.limit_ms);
    if let Some(path) = &cli.run {
        return run_file(path, limit, memory);
    }
    if cli.child {
        limit_address_space(memory);
        let run = move || child(&cli, &puzzles, &corpus, limit, memory);
        let h = std::thread::Builder::new().stack_size(STACK).spawn(run);
        let _ = h.expect("a worker thread").join();
        return ExitCode::SUCCESS;
    }
    let started = Instant::now();
    let plan = driver::Plan {
        seed: cli.seed,
        cases: cli.cases,
        seconds: cli.seconds,
        limit,
        memory,
        out: cli.out.clone(),
        verbose: cli.verbose,
    };
    let report = driver::drive(&plan, &text_of);
    println!("{}", report.summary(started.elapsed().as_secs_f64()));
    if report.defects.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn child(cli: &Cli, puzzles: &[gen::PuzzleInfo], corpus: &[Vec<u8>], limit: Duration, memory: u64) {
    case::quiet_panics();
    let dog = case::Watchdog::start();
    let mut out = std::io::stdout();
    for i in cli.start..cli.cases {
        let text = script(cli.seed, i, puzzles, corpus);
        // The parent gone (its pipe closed), the child stops too.
        if writeln!(out, "{} start {i}", driver::TAG)
            .and_then(|_| out.flush())
            .is_err()
        {
            return;
        }
        let (o, detail, _) = case::run(&text, limit, memory, &dog);
        if writeln!(out, "{} end {i} {} {detail}", driver::TAG, o.name())
            .and_then(|_| out.flush())
            .is_err()
        {
            return;
        }
    }
}

/// One script from a file under a child's limits: a finding reproduced outside the
/// driver, its outcome and peak memory printed.
fn run_file(path: &std::path::Path, limit: Duration, memory: u64) -> ExitCode {
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {}", path.display());
        return ExitCode::from(2);
    };
    limit_address_space(memory);
    let run = move || {
        case::quiet_panics();
        let dog = case::Watchdog::start();
        let started = Instant::now();
        let (o, detail, peak) = case::run(&text, limit, memory, &dog);
        let secs = started.elapsed().as_secs_f64();
        println!("{} in {secs:.2} s, {} MiB: {detail}", o.name(), peak >> 20);
        o.is_defect()
    };
    let h = std::thread::Builder::new().stack_size(STACK).spawn(run);
    match h.expect("a worker thread").join() {
        Ok(false) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

/// The child's address space is held to the Control's limit plus room for the stack,
/// threads and allocator arenas, so a computation that allocates past what it reserved
/// fails here (an abort) rather than taking the machine's memory.
fn limit_address_space(memory: u64) {
    let bytes = memory + (2 << 30) + STACK as u64;
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct we pass; it has no other effect on memory.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &lim);
    }
}
