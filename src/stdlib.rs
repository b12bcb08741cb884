//! The standard library: puzzle definitions written in puz (`stdlib/*.puz`), embedded
//! in the binary at build time.

include!(concat!(env!("OUT_DIR"), "/stdlib_files.rs"));

/// The source of stdlib puzzle `name`.
pub fn get(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The names of all stdlib puzzles.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _)| *n)
}
