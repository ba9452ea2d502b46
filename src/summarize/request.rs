//! One summary request (`SummaryRequest`), the cluster it summarizes, and its answer (`Summary`).

use super::Settings;
use crate::centroid::{Centroid, Heads};
use crate::document::Cluster;
use crate::encoder::Embedding;
use crate::select::topic::TopicEmbeddings;
use crate::select::Trace;
use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

/// A summary and how it was made.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    /// Sentence ids of the cluster, in output order.
    pub sentences: Vec<usize>,
    /// Cosine of the summary's embedding sum with the centroid.
    pub score: f32,
    /// Budget used and available (words, or sentences for sentence budgets).
    pub cost: usize,
    pub limit: usize,
    /// The preselected candidates the method chose from.
    pub candidates: Vec<usize>,
    /// Sentences the segmentation rules left as prose but the prose reader
    /// read as furniture (`segment::prose_reader::REASON`), in order.
    #[serde(default)]
    pub read_as_furniture: Vec<usize>,
    /// Prose the prose reader doubts as a summary line
    /// (`segment::prose_reader::DOUBTED`): no candidates, in order. Empty
    /// when its doubts gave way, lest the summary be empty.
    #[serde(default)]
    pub doubted: Vec<usize>,
    /// The reader's pins (in every summary) and strikes (never candidates).
    #[serde(default)]
    pub pinned: Vec<usize>,
    #[serde(default)]
    pub struck: Vec<usize>,
    pub centroid: Centroid,
    pub trace: Trace,
    /// Plain-language notes for the user (e.g. every sentence is too long).
    pub notes: Vec<String>,
}

/// One summary request: an embedded cluster, the settings, and what some
/// methods need beside them. Every caller (the CLI commands, the app's
/// worker) summarizes through [`summarize`] with one of these.
#[derive(Clone, Copy)]
pub struct SummaryRequest<'a> {
    pub cluster: &'a Cluster,
    /// One per sentence of the cluster, in order.
    pub embeddings: &'a [Embedding],
    pub settings: &'a Settings,
    /// The reference summary's sentence embeddings (the oracle's centroid).
    pub reference: Option<&'a [Embedding]>,
    /// The embedded topic and headlines MMR and TBMMR compare sentences
    /// with (see [`SummaryTexts`]). Without them a user's topic is an error
    /// and headlines are left out (noted).
    pub topic: Option<&'a TopicEmbeddings>,
    /// The trained centroid heads CeRA and CeRAI need (an error without theirs).
    pub heads: Option<&'a Heads>,
}

impl<'a> SummaryRequest<'a> {
    pub fn new(cluster: &'a Cluster, embeddings: &'a [Embedding], settings: &'a Settings) -> Self {
        Self { cluster, embeddings, settings, reference: None, topic: None, heads: None }
    }
}

/// The documents as one cluster to summarize; an error if they hold no
/// sentence (the CLI's and the Python package's check).
pub fn cluster_to_summarize(documents: Vec<crate::document::Document>) -> Result<Cluster> {
    let cluster = Cluster::new(documents);
    if cluster.sentences.is_empty() {
        bail!("the input has no sentences to summarize");
    }
    Ok(cluster)
}
