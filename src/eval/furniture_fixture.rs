//! Scoring the prose/furniture decision against hand labels
//! (`tests/fixtures/furniture/`): precision and recall of the junk class.
//!
//! `clusters.jsonl`: one cluster per line, `{"id", "documents": [text or
//! {"text"}…]}` (`cluster` is accepted for `id`). `labels.jsonl`: one sentence per line, `{"cluster",
//! "split": "dev"|"test", "doc", "index", "text", "label": "prose"|"junk",
//! "kind"}`, where `doc` and `index` are those of `Cluster::new`.

use crate::document::{Cluster, Document};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

#[derive(Clone, Debug, Deserialize)]
pub struct Label {
    pub cluster: Value,
    pub split: String,
    pub doc: usize,
    pub index: usize,
    pub text: String,
    pub label: String,
    #[serde(default)]
    pub kind: Option<String>,
}

/// One labelled sentence with the filter's decision.
#[derive(Clone, Debug)]
pub struct Judged {
    pub label: Label,
    /// The filter's reason, `None` for prose.
    pub excluded: Option<String>,
}

impl Judged {
    pub fn junk(&self) -> bool {
        self.label.label == "junk"
    }
}

/// Counts of the junk class.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub sentences: usize,
    pub junk: usize,
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
}

impl Score {
    pub fn of<'a>(judged: impl IntoIterator<Item = &'a Judged>) -> Self {
        let mut s = Score::default();
        for j in judged {
            s.sentences += 1;
            s.junk += j.junk() as usize;
            match (j.junk(), j.excluded.is_some()) {
                (true, true) => s.true_positives += 1,
                (false, true) => s.false_positives += 1,
                (true, false) => s.false_negatives += 1,
                (false, false) => {}
            }
        }
        s
    }

    pub fn precision(&self) -> f64 {
        self.true_positives as f64 / (self.true_positives + self.false_positives).max(1) as f64
    }

    pub fn recall(&self) -> f64 {
        self.true_positives as f64 / (self.true_positives + self.false_negatives).max(1) as f64
    }
}

/// Re-segments every cluster with `Cluster::new` and pairs each label with
/// the decision on its sentence. A label whose sentence is not found at its
/// `doc`/`index` with the same text is an error (the splitter changed).
pub fn judge(clusters_jsonl: &str, labels_jsonl: &str) -> Result<Vec<Judged>, String> {
    judge_read(clusters_jsonl, labels_jsonl, |_| Ok(()))
}

/// As [`judge`], with `read` deciding more of each cluster's sentences
/// after the rules (the prose reader, which needs the encoder).
pub fn judge_read(
    clusters_jsonl: &str,
    labels_jsonl: &str,
    mut read: impl FnMut(&mut Cluster) -> Result<(), String>,
) -> Result<Vec<Judged>, String> {
    let mut clusters: HashMap<String, Cluster> = HashMap::new();
    for (n, line) in clusters_jsonl.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: Value = serde_json::from_str(line).map_err(|e| format!("clusters line {}: {e}", n + 1))?;
        let id = key(if value["cluster"].is_null() { &value["id"] } else { &value["cluster"] });
        let documents = value["documents"]
            .as_array()
            .ok_or(format!("clusters line {}: no documents", n + 1))?
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let text = d.as_str().or_else(|| d["text"].as_str()).unwrap_or_default();
                Document { lang: Some("en".into()), ..Document::new(format!("{id}-{i}"), text) }
            })
            .collect();
        let mut cluster = Cluster::new(documents);
        read(&mut cluster)?;
        clusters.insert(id, cluster);
    }
    let mut judged = vec![];
    for (n, line) in labels_jsonl.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let label: Label = serde_json::from_str(line).map_err(|e| format!("labels line {}: {e}", n + 1))?;
        let cluster = clusters.get(&key(&label.cluster)).ok_or(format!("labels line {}: unknown cluster", n + 1))?;
        let sentence = cluster
            .sentences
            .iter()
            .find(|s| s.doc == label.doc && s.index == label.index)
            .filter(|s| s.text == label.text)
            .ok_or(format!("labels line {}: sentence {}/{} is not {:?}", n + 1, label.doc, label.index, label.text))?;
        judged.push(Judged { excluded: sentence.excluded.clone(), label });
    }
    Ok(judged)
}

fn key(value: &Value) -> String {
    value.as_str().map(str::to_string).unwrap_or_else(|| value.to_string())
}
