//! `precis embed-dataset --rouge-tokens` on a tiny Multi-News file: no
//! encoder needed, so this runs without the models. The output prefix's
//! folder does not exist yet: the command creates it, as for the embeddings.

#[path = "support/cli.rs"]
mod cli;

use cli::*;
use std::fs;

#[test]
fn rouge_tokens_follow_the_cache_rows() {
    let dir = Scratch::new("embed-dataset-rouge-tokens");
    let data = dir.join("tiny.jsonl");
    let clusters = [
        r#"{"id": "a", "documents": ["The cats ran home. Dogs run fast.", "Rain fell."], "summary": "Cats ran. Rain fell."}"#,
        r#"{"id": "b", "documents": ["One sentence only."], "summary": "Only one."}"#,
    ];
    fs::write(&data, clusters.join("\n")).unwrap();
    succeed([
        "embed-dataset".as_ref(),
        "--rouge-tokens".as_ref(),
        "--data".as_ref(),
        data.as_os_str(),
        "--out".as_ref(),
        dir.join("new").join("cache").as_os_str(),
    ]);
    let lines: Vec<serde_json::Value> = fs::read_to_string(dir.join("new").join("cache.rouge.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    // Three document sentences in document order; stems shared with the reference.
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(lines[0]["sentences"], serde_json::json!([[0, 1, 2, 3], [4, 5, 6], [7, 8]]));
    assert_eq!(lines[0]["reference"], serde_json::json!([1, 2, 7, 8]));
    assert_eq!(lines[1]["sentences"], serde_json::json!([[0, 1, 2]]));
    assert_eq!(lines[1]["reference"], serde_json::json!([2, 0]));
}
