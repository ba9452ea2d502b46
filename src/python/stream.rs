//! `precis.StreamState`: a streaming policy as a small state machine, the
//! app's live stream ([`LiveStream`]) with its state as bytes. The bytes
//! hold the engine's bounded state (updates, running sums, recent
//! sentences, APSAL's open window) and the provenance of the sentences
//! still deferred, never the stream itself, so Spark can keep them per
//! event in its state store.

use super::{read_documents, shared_encoder, value_error};
use crate::document::{Cluster, Document, Sentence};
use crate::encoder::Embedding;
use crate::models::load_stream_settings;
use crate::stream::settings::StreamSettings;
use crate::stream::replay::embed_by_article;
use crate::stream::{Action, PolicyKind};
use crate::stream::live::{LiveJob, LiveSnapshot, LiveStream};
use crate::stream::timeline::StreamEvent;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

const STATE_FORMAT: &str = "precis-stream-state/2";
const STATE_MAGIC: &[u8] = b"PRECIS-STREAM\x02";

/// Where a sentence came from, as `update` reports it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Provenance {
    /// The article's index among every article pushed so far.
    article: usize,
    document: String,
    /// Its index in the article.
    index: usize,
    text: String,
    /// The id it was given (a pre-split article's sentence ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
}

/// What the state bytes hold after [`STATE_MAGIC`], as JSON.
#[derive(Serialize, Deserialize)]
struct SavedStream {
    format: String,
    job: LiveJob,
    settings: StreamSettings,
    live: LiveSnapshot,
    /// The deferred sentences (APSAL's open window), by stream id.
    held: BTreeMap<usize, Provenance>,
    articles: usize,
    finished: bool,
}

/// A sentence of a pre-split article.
#[derive(Deserialize)]
struct GivenSentence {
    #[serde(default)]
    id: Option<String>,
    text: String,
}

#[pyclass(name = "StreamState", module = "precis._precis", unsendable)]
pub struct PyStreamState {
    live: LiveStream,
    job: LiveJob,
    settings: StreamSettings,
    held: BTreeMap<usize, Provenance>,
    articles: usize,
    finished: bool,
}

#[pymethods]
impl PyStreamState {
    /// Opens a stream about `query` with `policy` (cos, apsal, ls, ls+cos;
    /// default: the core's, as the CLI's); `threshold` overrides the tuned
    /// redundancy threshold, `settings` the policies' settings file
    /// (default: MODELS/stream/ls.json).
    #[new]
    #[pyo3(signature = (query, policy=None, threshold=None, models=None, settings=None))]
    fn new(query: String, policy: Option<&str>, threshold: Option<f32>, models: Option<PathBuf>, settings: Option<PathBuf>) -> PyResult<Self> {
        let policy: PolicyKind = policy.map_or(Ok(PolicyKind::default()), str::parse).map_err(value_error)?;
        let job = LiveJob { policy, threshold, query };
        let settings = load_stream_settings(settings.as_deref(), models.as_deref(), policy).map_err(value_error)?;
        let (settings, _) = LiveStream::check(&job, &settings).map_err(value_error)?;
        let query = shared_encoder(models.as_deref())?.encode(&[job.query.as_str()]).map_err(value_error)?;
        let live = LiveStream::open(&job, &settings, query[0]);
        Ok(Self { live, job, settings, held: BTreeMap::new(), articles: 0, finished: false })
    }

    /// Articles arrive (JSON records, in arrival order); `now` is when the
    /// stream started, for undated first articles; `finish` ends the stream
    /// (APSAL then decides what it held back). `sentences_json`, when
    /// given, holds each article's sentences (`[[{"id", "text"}, …], …]`),
    /// taken as they are instead of splitting the texts. Returns the
    /// sentences selected during this call as a JSON list and the new
    /// state's bytes.
    #[pyo3(signature = (records_json, now, finish=false, models=None, sentences_json=None))]
    fn update_json<'py>(
        &mut self,
        py: Python<'py>,
        records_json: &str,
        now: i64,
        finish: bool,
        models: Option<PathBuf>,
        sentences_json: Option<&str>,
    ) -> PyResult<(String, Bound<'py, PyBytes>)> {
        if self.finished {
            return Err(value_error("the stream has finished"));
        }
        let documents = if records_json.trim() == "[]" { vec![] } else { read_documents(records_json)? };
        let (cluster, ids) = arrivals(documents, sentences_json)?;
        let encoder = shared_encoder(models.as_deref())?;
        let articles = (0..cluster.documents.len()).map(|d| cluster.sentences.iter().filter(|s| s.doc == d).map(Sentence::as_read).collect());
        let embeddings = py.detach(|| embed_by_article(articles, |texts| encoder.encode(texts))).map_err(value_error)?;
        let selected = self.push(cluster, ids, &embeddings, now, finish)?;
        Ok((serde_json::to_string(&selected).map_err(value_error)?, self.to_bytes(py)?))
    }

    /// The state as bytes (see [`SavedStream`]).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let saved = SavedStream {
            format: STATE_FORMAT.into(),
            job: self.job.clone(),
            settings: self.settings.clone(),
            live: self.live.snapshot(),
            held: self.held.clone(),
            articles: self.articles,
            finished: self.finished,
        };
        let mut bytes = STATE_MAGIC.to_vec();
        serde_json::to_writer(&mut bytes, &saved).map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The stream saved by [`Self::to_bytes`], deciding exactly as it would
    /// have (no model is loaded).
    #[staticmethod]
    fn from_bytes(bytes: &[u8]) -> PyResult<Self> {
        let invalid = "these bytes are not a Précis stream state";
        let json = bytes.strip_prefix(STATE_MAGIC).ok_or_else(|| value_error(invalid))?;
        let saved: SavedStream = serde_json::from_slice(json).map_err(|e| value_error(format!("{invalid}: {e}")))?;
        if saved.format != STATE_FORMAT {
            return Err(value_error(format!("stream state format {:?}, expected {STATE_FORMAT:?}", saved.format)));
        }
        let live = LiveStream::restore(&saved.job, &saved.settings, saved.live).map_err(value_error)?;
        Ok(Self {
            live,
            job: saved.job,
            settings: saved.settings,
            held: saved.held,
            articles: saved.articles,
            finished: saved.finished,
        })
    }

    /// Updates selected so far.
    #[getter]
    fn updates(&self) -> usize {
        self.live.updates()
    }

    /// Whether `finish` ended the stream.
    #[getter]
    fn finished(&self) -> bool {
        self.finished
    }
}

/// The pushed articles as a cluster, split by the core or as given, and
/// the given id of each sentence.
fn arrivals(documents: Vec<Document>, sentences_json: Option<&str>) -> PyResult<(Cluster, Vec<Option<String>>)> {
    let Some(json) = sentences_json else {
        let cluster = LiveStream::split(documents).map_err(value_error)?;
        let ids = vec![None; cluster.sentences.len()];
        return Ok((cluster, ids));
    };
    let given: Vec<Vec<GivenSentence>> = serde_json::from_str(json).map_err(|e| value_error(format!("sentences: {e}")))?;
    if given.len() != documents.len() {
        return Err(value_error(format!("sentences for {} articles, but {} articles", given.len(), documents.len())));
    }
    crate::document::check_total_text(&documents).map_err(value_error)?;
    let ids = given.iter().flatten().map(|s| s.id.clone()).collect();
    let texts = given.into_iter().map(|article| article.into_iter().map(|s| s.text).collect()).collect();
    Ok((Cluster::presplit(documents, texts), ids))
}

impl PyStreamState {
    /// One push through the live stream; the selected sentences with their
    /// provenance. Deferred sentences keep theirs until decided.
    fn push(&mut self, cluster: Cluster, ids: Vec<Option<String>>, embeddings: &[Embedding], now: i64, finish: bool) -> PyResult<Vec<serde_json::Value>> {
        let document_ids: Vec<String> = cluster.documents.iter().map(|d| d.id.clone()).collect();
        let result = self.live.push(cluster, embeddings, now, finish, &mut || 0.0).map_err(value_error)?;
        let pushed: Vec<Provenance> = result.sentences.iter().zip(ids).map(|(s, id)| self.provenance(s, &document_ids, id)).collect();
        let mut selected = vec![];
        for event in &result.events {
            let provenance = match event.sentence.checked_sub(result.first_sentence) {
                Some(i) => pushed[i].clone(),
                None => self.held.remove(&event.sentence).ok_or_else(|| value_error(format!("sentence {} was never held", event.sentence)))?,
            };
            match event.action {
                Action::Defer => {
                    self.held.insert(event.sentence, provenance);
                }
                Action::Select => selected.push(selected_json(event, provenance)),
                Action::Skip => {}
            }
        }
        self.articles += document_ids.len();
        self.finished |= finish;
        Ok(selected)
    }

    fn provenance(&self, sentence: &Sentence, document_ids: &[String], id: Option<String>) -> Provenance {
        Provenance {
            article: self.articles + sentence.doc,
            document: document_ids[sentence.doc].clone(),
            index: sentence.index,
            text: sentence.text.clone(),
            id,
        }
    }
}

/// A selected sentence with its provenance and why it was selected.
fn selected_json(event: &StreamEvent, provenance: Provenance) -> serde_json::Value {
    let mut json = serde_json::json!({
        "sentence": event.sentence,
        "time": event.time,
        "update": event.update,
        "reason": event.reason,
        "similarity": event.similarity,
    });
    if let (Some(map), Ok(serde_json::Value::Object(fields))) = (json.as_object_mut(), serde_json::to_value(provenance)) {
        map.extend(fields);
    }
    json
}
