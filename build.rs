//! Embeds every `stdlib/*.puz` file in the binary, so `use NAME` works from anywhere.

use std::fs;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=stdlib");
    let mut entries: Vec<(String, String)> = Vec::new();
    if let Ok(dir) = fs::read_dir("stdlib") {
        for e in dir.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "puz") {
                println!("cargo:rerun-if-changed={}", path.display());
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                let abs = fs::canonicalize(&path).unwrap();
                entries.push((name, abs.to_string_lossy().to_string()));
            }
        }
    }
    entries.sort();
    let mut code = String::from(
        "/// (name, source) of every stdlib puzzle.\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in entries {
        code.push_str(&format!("    ({name:?}, include_str!({path:?})),\n"));
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("stdlib_files.rs");
    fs::write(out, code).unwrap();
}
