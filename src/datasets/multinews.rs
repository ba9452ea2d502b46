//! Multi-News: gzipped JSON lines `{"id", "documents": [str], "summary": str}`
//! (the full-text sample names its clusters `split_index`). Its articles
//! are English; a row may say otherwise with `"lang"`: a language code, or
//! `null` to detect each sentence's language as the app and `summarize` do
//! (scripts/data/ml_crisis_clusters.py writes the Spanish and French crisis
//! news so).

use super::EvalCluster;
use crate::document::Document;
use crate::segment;
use anyhow::{Context, Result};
use serde::Deserialize;
use std::io::{BufRead, BufReader};
use std::path::Path;

#[derive(Deserialize)]
struct Record {
    id: Option<serde_json::Value>,
    split_index: Option<serde_json::Value>,
    documents: Vec<String>,
    summary: String,
    /// The articles' language: English when absent, detected per sentence when null.
    #[serde(default = "english")]
    lang: Option<String>,
}

fn english() -> Option<String> {
    Some("en".into())
}

/// `path` is a .jsonl or .jsonl.gz file, or a folder holding val.jsonl.gz.
pub fn load(path: &Path) -> Result<Vec<EvalCluster>> {
    let file = if path.is_dir() { path.join("val.jsonl.gz") } else { path.to_path_buf() };
    let raw = std::fs::File::open(&file).with_context(|| format!("{}", file.display()))?;
    let reader: Box<dyn BufRead> = if file.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(raw)))
    } else {
        Box::new(BufReader::new(raw))
    };
    let mut clusters = vec![];
    for (n, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("{}: line {}", file.display(), n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Record =
            serde_json::from_str(&line).with_context(|| format!("{}: line {}", file.display(), n + 1))?;
        clusters.push(to_cluster(record, n));
    }
    Ok(clusters)
}

fn to_cluster(record: Record, line: usize) -> EvalCluster {
    let name = record
        .id
        .or(record.split_index)
        .map(|v| v.as_str().map(String::from).unwrap_or_else(|| v.to_string()))
        .unwrap_or_else(|| line.to_string());
    let documents = record
        .documents
        .into_iter()
        .enumerate()
        .filter(|(_, text)| !text.trim().is_empty())
        .map(|(i, text)| Document { lang: record.lang.clone(), ..Document::new(format!("{name}-{i}"), text) })
        .collect();
    // The full-text release starts summaries with an en dash.
    let summary = record.summary.trim().trim_start_matches('–').trim();
    let reference = segment::split(summary).into_iter().map(|s| s.text).collect();
    EvalCluster { name, documents, references: vec![reference] }
}
