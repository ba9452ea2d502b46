//! `precis embed-dataset --rouge-tokens` on a tiny Multi-News file: no
//! encoder needed, so this runs without the models. The output prefix's
//! folder does not exist yet: the command creates it, as for the embeddings.

use std::fs;
use std::process::Command;

#[test]
fn rouge_tokens_follow_the_cache_rows() {
    let dir = std::env::temp_dir().join(format!("precis-embed-dataset-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let data = dir.join("tiny.jsonl");
    let clusters = [
        r#"{"id": "a", "documents": ["The cats ran home. Dogs run fast.", "Rain fell."], "summary": "Cats ran. Rain fell."}"#,
        r#"{"id": "b", "documents": ["One sentence only."], "summary": "Only one."}"#,
    ];
    fs::write(&data, clusters.join("\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_precis"))
        .args(["embed-dataset", "--rouge-tokens", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(dir.join("new").join("cache"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> = fs::read_to_string(dir.join("new").join("cache.rouge.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(lines.len(), 2);
    // Three document sentences in document order; stems shared with the reference.
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(lines[0]["sentences"], serde_json::json!([[0, 1, 2, 3], [4, 5, 6], [7, 8]]));
    assert_eq!(lines[0]["reference"], serde_json::json!([1, 2, 7, 8]));
    assert_eq!(lines[1]["sentences"], serde_json::json!([[0, 1, 2]]));
    assert_eq!(lines[1]["reference"], serde_json::json!([2, 0]));
}
