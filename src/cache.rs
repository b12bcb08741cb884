//! `puz cache`: the folder of the optimal solver's pattern tables, listed and cleared.
//! Only files the solver writes there (`pdb-…`) are read or removed.

use puz_core::control::human_bytes;
use puz_solver::pdb::{default_cache_dir, FILE_PREFIX, FILE_SUFFIX, TEMP_MARK};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The cache folder: `--cache DIR`, else `$XDG_CACHE_HOME/puz` or `~/.cache/puz`.
pub fn folder(flag: Option<&Path>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf).or_else(default_cache_dir)
}

/// One file of the cache.
struct Entry {
    name: String,
    bytes: u64,
    modified: Option<SystemTime>,
    /// What the table holds (from its description file), or why it is there.
    what: String,
    table: bool,
}

/// The solver's files in the folder (`pdb-…`: tables, partial writes, locks and
/// descriptions) with their names; none when the folder does not exist.
fn solver_files(dir: &Path) -> std::io::Result<Vec<(String, std::fs::DirEntry)>> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    for e in rd {
        let e = e?;
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with(FILE_PREFIX) {
            out.push((name, e));
        }
    }
    Ok(out)
}

fn entries(dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (name, e) in solver_files(dir)? {
        let meta = e.metadata()?;
        let (what, table) = if name.contains(TEMP_MARK) {
            ("partial: a write that did not finish".to_string(), false)
        } else if name.ends_with(FILE_SUFFIX) {
            let desc = std::fs::read_to_string(e.path().with_extension("txt"));
            (
                desc.map_or("(no description)".into(), |d| d.trim().to_string()),
                true,
            )
        } else {
            // Lock and description files: removed with the tables, not listed.
            continue;
        };
        out.push(Entry {
            name,
            bytes: meta.len(),
            modified: meta.modified().ok(),
            what,
            table,
        });
    }
    out.sort_by(|a, b| a.modified.cmp(&b.modified).then(a.name.cmp(&b.name)));
    Ok(out)
}

/// `puz cache`: every table (file, what it holds, size, date) and the total.
pub fn list(dir: &Path) -> std::io::Result<String> {
    let es = entries(dir)?;
    let mut s = format!("{}\n", dir.display());
    for e in &es {
        s.push_str(&format!(
            "  {}  {:>10}  {}  {}\n",
            e.name,
            human_bytes(e.bytes),
            e.modified.map_or("?".into(), date),
            e.what
        ));
    }
    let total: u64 = es.iter().map(|e| e.bytes).sum();
    let tables = es.iter().filter(|e| e.table).count();
    s.push_str(&format!(
        "{tables} table{}, {} in all{}\n",
        if tables == 1 { "" } else { "s" },
        human_bytes(total),
        if es.len() > tables {
            format!(" ({} partial files)", es.len() - tables)
        } else {
            String::new()
        }
    ));
    Ok(s)
}

/// `puz cache clear`: removes the tables with their lock and description files, and any
/// partial file; says how much was freed.
pub fn clear(dir: &Path) -> std::io::Result<String> {
    let mut freed = 0u64;
    let mut n = 0usize;
    if !dir.exists() {
        return Ok(format!("{}: nothing cached\n", dir.display()));
    }
    for (name, e) in solver_files(dir)? {
        let bytes = e.metadata().map_or(0, |m| m.len());
        std::fs::remove_file(e.path())?;
        if name.ends_with(FILE_SUFFIX) || name.contains(TEMP_MARK) {
            n += 1;
        }
        freed += bytes;
    }
    Ok(format!(
        "{}: removed {n} table file{} ({})\n",
        dir.display(),
        if n == 1 { "" } else { "s" },
        human_bytes(freed)
    ))
}

/// `2025-01-31 14:05` (UTC).
fn date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86400, secs % 86400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(UNIX_EPOCH), "1970-01-01 00:00");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400 + 3661);
        assert_eq!(date(t), "2000-02-29 01:01");
    }

    #[test]
    fn lists_and_clears_only_the_solvers_files() {
        let dir = std::env::temp_dir().join(format!("puz-cache-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("pdb-00.bin"), [0u8; 100]).unwrap();
        std::fs::write(dir.join("pdb-00.txt"), "cube, htm: 2 pieces\n").unwrap();
        std::fs::write(dir.join("pdb-00.lock"), "").unwrap();
        std::fs::write(dir.join("pdb-01.bin.tmp7-1"), [0u8; 10]).unwrap();
        std::fs::write(dir.join("notes"), "mine").unwrap();
        let l = list(&dir).unwrap();
        assert!(
            l.contains("pdb-00.bin") && l.contains("cube, htm: 2 pieces"),
            "{l}"
        );
        assert!(l.contains("partial"), "{l}");
        assert!(
            l.ends_with("1 table, 110 B in all (1 partial files)\n"),
            "{l}"
        );
        let c = clear(&dir).unwrap();
        assert!(c.contains("removed 2 table files"), "{c}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("notes")]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
