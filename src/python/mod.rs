//! The Python package's native module `precis._precis` (python/precis wraps
//! it). Thin glue: every step is the library function the CLI (`precis
//! embed`, `precis summarize`) or the app's live stream calls; this file
//! only converts arguments, results and errors.

use crate::document::Document;
use crate::encoder::{Embedding, Encoder, DIM};
use crate::models::{load_encoder, load_heads, models_dir};
use crate::summarize::{check_weight, cluster_to_summarize, summary_json, BudgetFlags, Method, Settings, SummaryTexts};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

mod stream;
mod trec;

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

/// The Python keyword arguments of a summary: the flags of `precis
/// summarize` by the same names (unknown names are errors). The settings'
/// own flags are read by the core's declaration ([`Settings::from_flags`]);
/// the method, budget, topic and choices are the command's own flags.
#[derive(Deserialize, Default)]
struct SummaryOptions {
    #[serde(default)]
    method: Option<String>,
    #[serde(flatten)]
    budget: BudgetFlags,
    #[serde(default)]
    topic: Option<String>,
    #[serde(default)]
    topic_weight: Option<f32>,
    /// Sentences to pin and to strike: ids (ints) or exact texts (strings).
    #[serde(default)]
    pin: Vec<serde_json::Value>,
    #[serde(default)]
    strike: Vec<serde_json::Value>,
    /// Every other keyword: a flag of `Settings`.
    #[serde(flatten)]
    settings: serde_json::Map<String, serde_json::Value>,
}

/// The keywords that are not flags of `Settings`.
const OWN_KEYWORDS: [&str; 8] = ["method", "budget", "budget_sentences", "budget_percent", "topic", "topic_weight", "pin", "strike"];

impl SummaryOptions {
    /// The settings, every unset one at the CLI's default.
    fn settings(self) -> Result<Settings, String> {
        let names = Settings::flag_names();
        if let Some(unknown) = self.settings.keys().find(|k| !names.contains(k)) {
            let expected: Vec<String> = OWN_KEYWORDS.iter().map(|k| k.to_string()).chain(names).map(|k| format!("`{k}`")).collect();
            return Err(format!("unknown field `{unknown}`, expected one of {}", expected.join(", ")));
        }
        let method = match &self.method {
            Some(name) => name.parse::<Method>()?,
            None => Method::default(),
        };
        Ok(Settings {
            method,
            budget: self.budget.budget(100)?,
            topic: self.topic,
            topic_weight: check_weight(self.topic_weight.unwrap_or(0.0))?,
            ..Settings::from_flags(&self.settings)?
        })
    }
}

/// The cluster and settings of a summary request from Python.
fn summary_input(documents_json: &str, options_json: &str) -> PyResult<(crate::document::Cluster, Settings)> {
    use crate::choices::{choose, Choice, SentenceRef};
    let mut options: SummaryOptions = serde_json::from_str(options_json).map_err(value_error)?;
    let reference = |v: serde_json::Value| match v {
        serde_json::Value::Number(n) => n.as_u64().map(|id| SentenceRef::Id(id as usize)).ok_or_else(|| format!("{n} is not a sentence id")),
        serde_json::Value::String(text) => Ok(SentenceRef::Text(text)),
        other => Err(format!("{other} names no sentence: give its id (an int) or its text (a str)")),
    };
    let mut choices = vec![];
    for (choice, list) in [(Choice::Pin, std::mem::take(&mut options.pin)), (Choice::Strike, std::mem::take(&mut options.strike))] {
        for v in list {
            choices.push((choice, reference(v).map_err(value_error)?));
        }
    }
    let settings = options.settings().map_err(value_error)?;
    let mut cluster = cluster_to_summarize(read_documents(documents_json)?).map_err(value_error)?;
    choose(&mut cluster, &choices).map_err(value_error)?;
    Ok((cluster, settings))
}

/// Every text `precis summarize` embeds for these documents and settings,
/// in the order it embeds them in one encoder call. Spark's batch job
/// embeds them so (in `mapInArrow`), and its summaries equal the CLI's.
#[pyfunction]
#[pyo3(signature = (documents_json, options_json, reference=Vec::new()))]
fn summary_texts(documents_json: &str, options_json: &str, reference: Vec<String>) -> PyResult<Vec<String>> {
    let (cluster, settings) = summary_input(documents_json, options_json)?;
    let texts = SummaryTexts::new(&cluster, &settings, reference);
    Ok(texts.texts(&cluster).map(str::to_string).collect())
}

/// `precis summarize --format json` on the documents: the same JSON text.
/// `embedded` gives texts and their embeddings ([n, 512] float32) computed
/// beforehand; without it the encoder embeds [`summary_texts`]. A summary
/// with no sentence (every sentence over the budget) is an error here, with
/// the core's explanation.
#[pyfunction]
#[pyo3(signature = (documents_json, options_json, reference=Vec::new(), models=None, heads=None, embedded=None))]
fn summarize_json(
    documents_json: &str,
    options_json: &str,
    reference: Vec<String>,
    models: Option<PathBuf>,
    heads: Option<PathBuf>,
    embedded: Option<(Vec<String>, PyReadonlyArray2<'_, f32>)>,
) -> PyResult<String> {
    let (cluster, settings) = summary_input(documents_json, options_json)?;
    let heads = load_heads(models.as_deref(), heads.as_deref(), &[settings.method]).map_err(|e| value_error(format!("{e:#}")))?;
    let texts = SummaryTexts::new(&cluster, &settings, reference);
    let embedded_texts = match embedded {
        Some((given, array)) => {
            let by_text = given_embeddings(given, &array)?;
            texts.embedded(&cluster, |t| by_text.get(t).copied())
        }
        None => texts.encode(&*shared_encoder(models.as_deref())?, &cluster),
    };
    let embedded_texts = embedded_texts.map_err(|e| value_error(format!("{e:#}")))?;
    let summary = crate::summarize::summarize(&embedded_texts.request(&cluster, &settings, Some(&heads))).map_err(value_error)?;
    if summary.sentences.is_empty() {
        return Err(value_error(summary.notes.join(" ")));
    }
    Ok(summary_json(&cluster, &settings, &summary).to_string())
}

/// Texts and their embeddings, one row each, by text.
fn given_embeddings(texts: Vec<String>, array: &PyReadonlyArray2<'_, f32>) -> PyResult<HashMap<String, Embedding>> {
    let view = array.as_array();
    if view.ncols() != DIM || view.nrows() != texts.len() {
        return Err(value_error(format!("{} texts need embeddings of shape ({}, {DIM}), not {:?}", texts.len(), texts.len(), view.shape())));
    }
    Ok(texts.into_iter().zip(view.rows()).map(|(text, row)| (text, std::array::from_fn(|i| row[i]))).collect())
}

/// The clusters of an evaluation dataset (duc2004, multinews) as `precis
/// evaluate` reads them: JSON records with the cluster's name, documents
/// and reference summaries (Spark's batch job takes its corpus from here).
#[pyfunction]
#[pyo3(signature = (dataset, path, limit=None))]
fn dataset_json(dataset: &str, path: PathBuf, limit: Option<usize>) -> PyResult<String> {
    let dataset = <crate::datasets::Dataset as clap::ValueEnum>::from_str(dataset, false)
        .map_err(|_| value_error(format!("unknown dataset {dataset:?}: duc2004 or multinews")))?;
    let mut clusters = dataset.load(&path).map_err(|e| value_error(format!("{e:#}")))?;
    clusters.truncate(limit.unwrap_or(usize::MAX));
    let records: Vec<serde_json::Value> = clusters
        .iter()
        .map(|c| serde_json::json!({"cluster": c.name, "documents": c.documents, "references": c.references}))
        .collect();
    serde_json::to_string(&records).map_err(value_error)
}

/// The core's registry for the Python side: every method and streaming
/// policy by name, in the core's order, and the defaults (`precis.registry()`).
#[pyfunction]
fn registry_json() -> String {
    serde_json::json!({
        "methods": crate::registry::methods().map(|m| m.name).collect::<Vec<_>>(),
        "default_method": Method::default().name(),
        "policies": crate::registry::policies().map(|p| p.name).collect::<Vec<_>>(),
        "default_policy": crate::stream::PolicyKind::default().name(),
    })
    .to_string()
}

#[pymodule]
fn _precis(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(embed, module)?)?;
    module.add_function(wrap_pyfunction!(summarize_json, module)?)?;
    module.add_function(wrap_pyfunction!(summary_texts, module)?)?;
    module.add_function(wrap_pyfunction!(dataset_json, module)?)?;
    module.add_function(wrap_pyfunction!(registry_json, module)?)?;
    module.add_class::<stream::PyStreamState>()?;
    module.add_function(wrap_pyfunction!(trec::trec_events_json, module)?)?;
    module.add_function(wrap_pyfunction!(trec::trec_report, module)?)?;
    Ok(())
}
