//! docs/architecture.md and docs/folders.md name files and folders of the
//! tree; when one moves, this test fails until the page is fixed, so the
//! pages a newcomer reads first cannot drift from the code.

use std::path::Path;

const PAGES: [&str; 2] = ["docs/architecture.md", "docs/folders.md"];
const ROOTS: [&str; 6] = ["src/", "tests/", "python/", "scripts/", "docs/", "models/"];

/// Every `code span` of a page that starts with a folder of the tree, cut
/// at the first space (a span may be `src/x.rs (something)`).
fn named_paths(page: &str) -> Vec<String> {
    page.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| span.split_whitespace().next())
        .filter(|path| ROOTS.iter().any(|root| path.starts_with(root)))
        .filter(|path| !path.contains(['*', '<', '…']))
        .map(|path| path.trim_end_matches([',', '.', ':', ';', ')']).to_string())
        .collect()
}

#[test]
fn every_path_the_architecture_pages_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    let mut checked = 0;
    for page in PAGES {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        for path in named_paths(&text) {
            checked += 1;
            if !root.join(&path).exists() {
                missing.push(format!("{page}: {path}"));
            }
        }
    }
    assert!(checked > 40, "only {checked} paths found: did the pages lose their paths?");
    assert!(missing.is_empty(), "paths named in the docs that do not exist (fix the page):\n{}", missing.join("\n"));
}

#[test]
fn finds_paths_in_code_spans_only() {
    let page = "see `src/lib.rs` and `src/select/mmr.rs (MMR)`, not src/nothing.rs; `cargo test` and `tests/fuzz.rs`.";
    assert_eq!(named_paths(page), ["src/lib.rs", "src/select/mmr.rs", "tests/fuzz.rs"]);
}
