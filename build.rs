//! Hashes `src/segment/boilerplate.txt` into a sorted table of 64-bit line
//! hashes (`$OUT_DIR/boilerplate_hashes.rs`): the app's wasm then carries
//! 8 bytes a sentence instead of the text (1.7 KB instead of 6.3 KB
//! gzipped). The crate also needs a build script for its
//! `[build-dependencies]` to count; those exist only to unify the features
//! of `syn` between the normal build and the Python package's (see
//! Cargo.toml).

#[path = "src/segment/line_key.rs"]
#[allow(dead_code)]
mod line_key;

fn main() {
    const LIST: &str = "src/segment/boilerplate.txt";
    println!("cargo:rerun-if-changed={LIST}");
    println!("cargo:rerun-if-changed=src/segment/line_key.rs");
    let list = std::fs::read_to_string(LIST).expect("src/segment/boilerplate.txt");
    let hashes = line_key::hashed_lines(&list);
    let table: String = hashes.iter().map(|h| format!("0x{h:016x},")).collect();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("boilerplate_hashes.rs");
    std::fs::write(out, format!("[{table}]")).expect("write boilerplate_hashes.rs");
}
