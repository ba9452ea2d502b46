//! The Python package's native module `precis._precis` (python/precis wraps
//! it). Thin glue: every step is the library function the CLI (`precis
//! embed`, `precis summarize`) or the app's live stream calls; this file
//! only converts arguments, results and errors.

use crate::document::{Cluster, Document, Sentence};
use crate::encoder::{Embedding, Encoder, DIM};
use crate::models::{load_encoder, load_heads, load_stream_settings, models_dir};
use crate::select::beam::BeamMode;
use crate::stream::learned::StreamSettings;
use crate::stream::{Action, PolicyKind};
use crate::summarize::{cluster_to_summarize, language_code, summary_json, Budget, Method, Order, Settings, SummaryTexts};
use crate::worker::live::{LiveJob, LiveStream};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Core errors reach Python as ValueError with the core's message.
fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The encoder of each models folder, loaded once per worker process:
/// Spark calls the package again and again in the same Python worker.
fn shared_encoder(models: Option<&Path>) -> PyResult<Arc<Encoder>> {
    static ENCODERS: OnceLock<Mutex<HashMap<PathBuf, Arc<Encoder>>>> = OnceLock::new();
    let mut encoders = ENCODERS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let dir = models_dir(models);
    if let Some(encoder) = encoders.get(&dir) {
        return Ok(encoder.clone());
    }
    let encoder = Arc::new(load_encoder(Some(&dir)).map_err(|e| value_error(format!("{e:#}")))?);
    encoders.insert(dir, encoder.clone());
    Ok(encoder)
}

/// Documents from the JSON records the Python side builds (`{"text": …,
/// "title": …, "date": …, "id": …}`), read as `precis summarize` reads a
/// .json file.
fn read_documents(records_json: &str) -> PyResult<Vec<Document>> {
    crate::input::documents_from_file("documents.json", records_json.as_bytes()).map_err(value_error)
}

/// The sentence embeddings of `texts`, as `precis embed` computes them.
#[pyfunction]
#[pyo3(signature = (texts, models=None))]
fn embed<'py>(py: Python<'py>, texts: Vec<String>, models: Option<PathBuf>) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let encoder = shared_encoder(models.as_deref())?;
    let embeddings = py.detach(|| {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        encoder.encode(&refs)
    });
    let flat: Vec<f32> = embeddings.map_err(value_error)?.iter().flatten().copied().collect();
    let rows = flat.len() / DIM;
    Ok(Array2::from_shape_vec((rows, DIM), flat).map_err(value_error)?.into_pyarray(py))
}

/// The summary settings the Python keyword arguments may set: the flags
/// of `precis summarize`, by the same names (unknown names are errors).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct SummaryOptions {
    method: Option<String>,
    budget: Option<usize>,
    budget_sentences: Option<usize>,
    budget_percent: Option<f32>,
    first_sentences: Option<usize>,
    beam_width: Option<usize>,
    greedy_candidates: Option<usize>,
    beam_mode: Option<BeamMode>,
    redundancy: Option<f32>,
    near_duplicate: Option<f32>,
    length_weight: Option<f32>,
    order: Option<Order>,
    lambda: Option<f32>,
    mu: Option<f32>,
    gamma: Option<f32>,
    seed_threshold: Option<f32>,
    topic: Option<String>,
    topic_weight: Option<f32>,
    languages: Vec<String>,
}

impl SummaryOptions {
    /// The settings, every unset one at the CLI's default.
    fn settings(self) -> Result<Settings, String> {
        let method = match &self.method {
            Some(name) => name.parse::<Method>()?,
            None => Method::default(),
        };
        if self.budget_sentences.is_some() && (self.budget.is_some() || self.budget_percent.is_some())
            || self.budget.is_some() && self.budget_percent.is_some()
        {
            return Err("give one of budget, budget_sentences and budget_percent".into());
        }
        let defaults = Settings::default();
        Ok(Settings {
            method,
            budget: Budget::from_flags(self.budget, self.budget_sentences, self.budget_percent, 100),
            first_sentences: self.first_sentences.unwrap_or(defaults.first_sentences),
            beam_width: self.beam_width.unwrap_or(defaults.beam_width),
            greedy_candidates: self.greedy_candidates.unwrap_or(defaults.greedy_candidates),
            beam_mode: self.beam_mode.unwrap_or(defaults.beam_mode),
            redundancy: self.redundancy,
            near_duplicate: self.near_duplicate.unwrap_or(defaults.near_duplicate),
            length_weight: self.length_weight.unwrap_or(defaults.length_weight),
            order: self.order.unwrap_or(defaults.order),
            lambda: self.lambda.unwrap_or(defaults.lambda),
            mu: self.mu.unwrap_or(defaults.mu),
            gamma: self.gamma.unwrap_or(defaults.gamma),
            seed_threshold: self.seed_threshold.unwrap_or(defaults.seed_threshold),
            topic: self.topic,
            topic_weight: self.topic_weight.unwrap_or(0.0),
            languages: self.languages.iter().map(|code| language_code(code)).collect::<Result<_, _>>()?,
        })
    }
}

/// `precis summarize --format json` on the documents: the same JSON text.
/// A summary with no sentence (every sentence over the budget) is an
/// error here, with the core's explanation.
#[pyfunction]
#[pyo3(signature = (documents_json, options_json, reference=Vec::new(), models=None, heads=None))]
fn summarize_json(
    documents_json: &str,
    options_json: &str,
    reference: Vec<String>,
    models: Option<PathBuf>,
    heads: Option<PathBuf>,
) -> PyResult<String> {
    let options: SummaryOptions = serde_json::from_str(options_json).map_err(value_error)?;
    let settings = options.settings().map_err(value_error)?;
    let cluster = cluster_to_summarize(read_documents(documents_json)?).map_err(value_error)?;
    let encoder = shared_encoder(models.as_deref())?;
    let heads = load_heads(models.as_deref(), heads.as_deref(), &[settings.method]).map_err(|e| value_error(format!("{e:#}")))?;
    let texts = SummaryTexts::new(&cluster, &settings, reference);
    let summary = texts.encode_and_summarize(&encoder, &cluster, &settings, Some(&heads)).map_err(value_error)?;
    if summary.sentences.is_empty() {
        return Err(value_error(summary.notes.join(" ")));
    }
    Ok(summary_json(&cluster, &settings, &summary).to_string())
}

/// What a stream's state bytes hold: how it was opened and every push, so
/// that restoring replays the pushes through a fresh live stream. The
/// embeddings follow this header as raw floats, so no encoder is needed.
#[derive(Serialize, Deserialize)]
struct StreamLog {
    format: String,
    job: LiveJob,
    settings: StreamSettings,
    pushes: Vec<LoggedPush>,
    finished: bool,
}

#[derive(Serialize, Deserialize)]
struct LoggedPush {
    documents: Vec<Document>,
    now: i64,
    finish: bool,
}

const STATE_FORMAT: &str = "precis-stream-state/1";
const STATE_MAGIC: &[u8] = b"PRECIS-STREAM\x01";

/// A streaming policy as a small state machine (the app's live stream):
/// articles arrive in `update`, the selected sentences come back with the
/// state as bytes, and `from_bytes` restores it anywhere.
#[pyclass(name = "StreamState", module = "precis._precis", unsendable)]
struct PyStreamState {
    live: LiveStream,
    log: StreamLog,
    /// The query's embedding, then every pushed sentence's, in order.
    embeddings: Vec<Embedding>,
    /// Every pushed sentence, by stream id, and its article's stream index.
    sentences: Vec<(Sentence, usize)>,
    articles: Vec<Document>,
    updates: usize,
}

#[pymethods]
impl PyStreamState {
    /// Opens a stream about `query` with `policy` (cos, apsal, ls, ls+cos);
    /// `threshold` overrides the tuned redundancy threshold, `settings` the
    /// policies' settings file (default: MODELS/stream/ls.json).
    #[new]
    #[pyo3(signature = (query, policy="ls", threshold=None, models=None, settings=None))]
    fn new(query: String, policy: &str, threshold: Option<f32>, models: Option<PathBuf>, settings: Option<PathBuf>) -> PyResult<Self> {
        let policy: PolicyKind = policy.parse().map_err(value_error)?;
        let job = LiveJob { policy, threshold, query };
        let settings = load_stream_settings(settings.as_deref(), models.as_deref(), policy).map_err(value_error)?;
        let (settings, _) = LiveStream::check(&job, &settings).map_err(value_error)?;
        let query = shared_encoder(models.as_deref())?.encode(&[job.query.as_str()]).map_err(value_error)?;
        let log = StreamLog { format: STATE_FORMAT.into(), job, settings, pushes: vec![], finished: false };
        Ok(Self::opened(log, query[0]))
    }

    /// Articles arrive (JSON records, in arrival order); `now` is when the
    /// stream started, for undated first articles; `finish` ends the stream
    /// (APSAL then decides what it held back). Returns the sentences
    /// selected during this call as a JSON list and the new state's bytes.
    #[pyo3(signature = (records_json, now, finish=false, models=None))]
    fn update_json<'py>(
        &mut self,
        py: Python<'py>,
        records_json: &str,
        now: i64,
        finish: bool,
        models: Option<PathBuf>,
    ) -> PyResult<(String, Bound<'py, PyBytes>)> {
        if self.log.finished {
            return Err(value_error("the stream has finished"));
        }
        let documents = if records_json.trim() == "[]" { vec![] } else { read_documents(records_json)? };
        let cluster = LiveStream::split(documents.clone()).map_err(value_error)?;
        let texts: Vec<&str> = cluster.sentences.iter().map(|s| s.text.as_str()).collect();
        let embeddings = shared_encoder(models.as_deref())?.encode(&texts).map_err(value_error)?;
        let selected = self.push(LoggedPush { documents, now, finish }, cluster, &embeddings)?;
        Ok((serde_json::to_string(&selected).map_err(value_error)?, self.to_bytes(py)?))
    }

    /// The state as bytes (see [`StreamLog`]).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let header = serde_json::to_vec(&self.log).map_err(value_error)?;
        let mut bytes = STATE_MAGIC.to_vec();
        bytes.extend((header.len() as u64).to_le_bytes());
        bytes.extend(header);
        bytes.extend(self.embeddings.iter().flatten().flat_map(|x| x.to_le_bytes()));
        Ok(PyBytes::new(py, &bytes))
    }

    /// A stream restored from [`Self::to_bytes`]: its pushes replayed, with
    /// the same decisions (no model is loaded).
    #[staticmethod]
    fn from_bytes(bytes: &[u8]) -> PyResult<Self> {
        let (mut log, embeddings) = parse_state(bytes).map_err(value_error)?;
        let (query, mut rest) = embeddings.split_first().ok_or_else(|| value_error("the stream state has no query"))?;
        let pushes = std::mem::take(&mut log.pushes);
        log.finished = false;
        let mut state = Self::opened(log, *query);
        for push in pushes {
            let cluster = LiveStream::split(push.documents.clone()).map_err(value_error)?;
            let (mine, others) = rest.split_at_checked(cluster.sentences.len()).ok_or_else(|| value_error("the stream state lacks embeddings"))?;
            rest = others;
            state.push(push, cluster, mine)?;
        }
        Ok(state)
    }

    /// Updates selected so far.
    #[getter]
    fn updates(&self) -> usize {
        self.updates
    }

    /// Whether `finish` ended the stream.
    #[getter]
    fn finished(&self) -> bool {
        self.log.finished
    }
}

impl PyStreamState {
    fn opened(log: StreamLog, query: Embedding) -> Self {
        let live = LiveStream::open(&log.job, &log.settings, query);
        Self { live, log, embeddings: vec![query], sentences: vec![], articles: vec![], updates: 0 }
    }

    /// One push through the live stream, logged; the selected sentences.
    fn push(&mut self, push: LoggedPush, cluster: Cluster, embeddings: &[Embedding]) -> PyResult<Vec<serde_json::Value>> {
        let result = self.live.push(cluster, embeddings, push.now, push.finish, &mut || 0.0).map_err(value_error)?;
        let first_article = self.articles.len();
        self.articles.extend(push.documents.iter().cloned());
        self.sentences.extend(result.sentences.into_iter().map(|s| {
            let article = first_article + s.doc;
            (s, article)
        }));
        self.embeddings.extend_from_slice(embeddings);
        self.updates = result.updates;
        self.log.finished |= push.finish;
        self.log.pushes.push(push);
        Ok(result.events.iter().filter(|e| e.action == Action::Select).map(|e| self.selected(e)).collect())
    }

    /// A selected sentence with its provenance.
    fn selected(&self, event: &crate::worker::timeline::StreamEvent) -> serde_json::Value {
        let (sentence, article) = &self.sentences[event.sentence];
        serde_json::json!({
            "sentence": event.sentence,
            "article": article,
            "document": self.articles[*article].id,
            "index": sentence.index,
            "text": sentence.text,
            "time": event.time,
            "update": event.update,
            "reason": event.reason,
            "similarity": event.similarity,
        })
    }
}

/// The log and the embeddings of state bytes.
fn parse_state(bytes: &[u8]) -> Result<(StreamLog, Vec<Embedding>), String> {
    let invalid = || "these bytes are not a Précis stream state".to_string();
    let rest = bytes.strip_prefix(STATE_MAGIC).ok_or_else(invalid)?;
    let (length, rest) = rest.split_at_checked(8).ok_or_else(invalid)?;
    let length = u64::from_le_bytes(length.try_into().expect("8 bytes")) as usize;
    let (header, floats) = rest.split_at_checked(length).ok_or_else(invalid)?;
    let log: StreamLog = serde_json::from_slice(header).map_err(|e| format!("{}: {e}", invalid()))?;
    if log.format != STATE_FORMAT {
        return Err(format!("stream state format {:?}, expected {STATE_FORMAT:?}", log.format));
    }
    if floats.len() % (DIM * 4) != 0 {
        return Err(invalid());
    }
    let embeddings = floats
        .chunks_exact(DIM * 4)
        .map(|row| std::array::from_fn(|i| f32::from_le_bytes(row[i * 4..i * 4 + 4].try_into().expect("4 bytes"))))
        .collect();
    Ok((log, embeddings))
}

#[pymodule]
fn _precis(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(embed, module)?)?;
    module.add_function(wrap_pyfunction!(summarize_json, module)?)?;
    module.add_class::<PyStreamState>()?;
    Ok(())
}
