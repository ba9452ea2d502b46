//! The summary as JSON: what `precis summarize --format json` prints and the Python package returns.

use super::{sentences_as_read, Settings, Summary};
use crate::document::Cluster;
use serde::Serialize;

/// A summary sentence with its provenance: its id in the cluster, its
/// document's id and every field of the sentence (document index, index
/// in the document, spans, language, words).
#[derive(Serialize)]
struct PickedSentence<'a> {
    id: usize,
    document: &'a str,
    #[serde(flatten)]
    sentence: &'a crate::document::Sentence,
}

/// The summary as `precis summarize --format json` prints it and the Python
/// package returns it: sentences with provenance, the settings, the
/// excluded page furniture and the search trace.
pub fn summary_json(cluster: &Cluster, settings: &Settings, summary: &Summary) -> serde_json::Value {
    let picked: Vec<PickedSentence> = summary
        .sentences
        .iter()
        .map(|&id| {
            let sentence = &cluster.sentences[id];
            PickedSentence { id, document: &cluster.documents[sentence.doc].id, sentence }
        })
        .collect();
    serde_json::json!({
        "settings": settings,
        "documents": cluster.documents.iter().map(|d| serde_json::json!({"id": d.id, "title": d.title, "timestamp": d.timestamp})).collect::<Vec<_>>(),
        "summary": picked,
        // Never candidates, never silently dropped: page furniture with its reason.
        "excluded": sentences_as_read(cluster, summary).iter().enumerate().filter(|(_, s)| s.excluded.is_some()).map(|(id, s)| {
            serde_json::json!({"id": id, "document": cluster.documents[s.doc].id, "text": s.text, "reason": s.excluded})
        }).collect::<Vec<_>>(),
        // The reader's choices: pinned sentences are in every summary, struck ones never candidates.
        "pinned": choice_json(cluster, &summary.pinned, "pinned by the reader: in every summary"),
        "struck": choice_json(cluster, &summary.struck, "struck by the reader: never a candidate"),
        // Prose, but no candidate: the prose reader's doubts, with their reason.
        "doubted": choice_json(cluster, &summary.doubted, crate::segment::prose_reader::DOUBTED),
        "score": summary.score,
        "cost": summary.cost,
        "limit": summary.limit,
        "candidates": summary.candidates,
        "notes": summary.notes,
        "centroid_attention": summary.centroid.attention,
        "attention_share": summary.centroid.attention_share,
        "steering": summary.centroid.steering.as_ref().map(|s| serde_json::json!({
            "weight": s.weight, "degrees_moved": s.degrees_moved(), "cosine_to_query": s.cosine_to_query,
        })),
        "trace": summary.trace,
    })
}

fn choice_json(cluster: &Cluster, ids: &[usize], reason: &str) -> Vec<serde_json::Value> {
    ids.iter()
        .map(|&id| {
            let s = &cluster.sentences[id];
            serde_json::json!({"id": id, "document": cluster.documents[s.doc].id, "text": s.text, "reason": reason})
        })
        .collect()
}
