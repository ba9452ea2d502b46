//! A TREC-TS year for Spark's streaming job (python/precis/spark.py): its
//! events as the CLI replays them, and the CLI's report of a run's updates.

use super::value_error;
use crate::stream::trec::{self, Year};
use pyo3::prelude::*;
use std::path::Path;

fn load(year_dir: &Path) -> PyResult<Year> {
    let year = trec::load_year(year_dir).map_err(|e| value_error(format!("{e:#}")))?;
    if year.events.is_empty() {
        return Err(value_error(format!("{}: no event has pooled sentences", year_dir.display())));
    }
    Ok(year)
}

/// The year's events as JSON, in the order `precis stream --data` replays
/// them: each with its query and its pooled documents in time order, each
/// document with its sentences (update id and text).
#[pyfunction]
pub fn trec_events_json(year_dir: &str) -> PyResult<String> {
    let year = load(Path::new(year_dir))?;
    let events: Vec<serde_json::Value> = year
        .events
        .iter()
        .map(|event| {
            serde_json::json!({
                "query_id": event.query_id,
                "query": event.topic.query,
                "title": event.topic.title,
                "documents": event.documents.iter().map(|d| serde_json::json!({
                    "id": d.doc_id,
                    "time": d.time,
                    "sentences": d.sentences.iter().map(|s| serde_json::json!({"id": s.update_id, "text": s.text})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::to_string(&events).map_err(value_error)
}

/// `precis stream --data`'s report of an updates file's text (OUT/<policy>.tsv):
/// each event's scores line, then the mean line.
#[pyfunction]
pub fn trec_report(year_dir: &str, updates_tsv: &str) -> PyResult<Vec<String>> {
    let year = load(Path::new(year_dir))?;
    let updates = trec::parse_updates_tsv(updates_tsv).map_err(|e| value_error(format!("{e:#}")))?;
    trec::report(&year, &updates).map_err(|e| value_error(format!("{e:#}")))
}
