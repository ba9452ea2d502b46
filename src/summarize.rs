//! The pipeline's last stages, shared by the CLI and the app: settings →
//! budget → preselection → centroid → selection → ordered summary.

use std::collections::HashMap;
use crate::centroid::{steer, CeraHead, Centroid, CentroidEstimator, CentroidInput, Heads, MeanCentroid, OracleCentroid};
use crate::choices::Choices;
use crate::document::Cluster;
use crate::encoder::Embedding;
use crate::select::beam::{BeamMode, BeamSearch};
use crate::select::greedy::Greedy;
use crate::select::location::{location, position_scores};
use crate::select::mmr::smmr;
use crate::select::tbmmr::{Tbmmr, TbmmrParams};
use crate::select::topic::{sentence_times, Topic, TopicEmbeddings, TopicTexts};
use crate::select::{Problem, Selection, Selector, Trace};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// A summarization method: a centroid estimator and a selector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// GG2017 greedy on the mean centroid.
    #[serde(rename = "gg")]
    Greedy,
    /// Beam search on the mean centroid.
    #[serde(rename = "bs")]
    Beam,
    /// Beam search + greedy search on the mean centroid (Algorithm 1).
    #[default]
    #[serde(rename = "bs+gs")]
    BeamGreedy,
    /// BS+GS on the reference summary's centroid (needs a reference).
    #[serde(rename = "oracle")]
    Oracle,
    /// Position score only: the first sentences of documents and paragraphs.
    #[serde(rename = "location")]
    Location,
    /// Standard MMR with the topic description as the query.
    #[serde(rename = "mmr")]
    Mmr,
    /// Topic-based MMR: seed and non-seed events, time, position, ordering.
    #[serde(rename = "tbmmr")]
    Tbmmr,
    /// BS+GS on the centroid of the supervised attention head (needs it).
    #[serde(rename = "cera")]
    Cera,
    /// BS+GS on CeRA interpolated with the mean centroid (needs its head).
    #[serde(rename = "cerai")]
    Cerai,
}

impl Method {
    pub const ALL: [Method; 9] = [
        Method::Greedy,
        Method::Beam,
        Method::BeamGreedy,
        Method::Oracle,
        Method::Location,
        Method::Mmr,
        Method::Tbmmr,
        Method::Cera,
        Method::Cerai,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Greedy => "gg",
            Method::Beam => "bs",
            Method::BeamGreedy => "bs+gs",
            Method::Oracle => "oracle",
            Method::Location => "location",
            Method::Mmr => "mmr",
            Method::Tbmmr => "tbmmr",
            Method::Cera => "cera",
            Method::Cerai => "cerai",
        }
    }

    pub fn needs_reference(self) -> bool {
        self == Method::Oracle
    }

    /// Estimates the centroid with a trained head: see [`SummaryRequest::heads`].
    pub fn needs_head(self) -> bool {
        matches!(self, Method::Cera | Method::Cerai)
    }

    /// Compares sentences with the topic: see [`SummaryRequest::topic`].
    pub fn uses_topic(self) -> bool {
        matches!(self, Method::Mmr | Method::Tbmmr)
    }

    /// Selects towards a centroid, which a topic can steer: see
    /// [`Settings::topic_weight`]. (MMR and TBMMR compare with the topic
    /// itself; Location looks at positions only.)
    pub fn steerable(self) -> bool {
        !self.uses_topic() && self != Method::Location
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL.into_iter().find(|m| m.name() == s.to_ascii_lowercase()).ok_or_else(|| {
            let names: Vec<_> = Method::ALL.iter().map(|m| m.name()).collect();
            format!("unknown method {s:?} (expected one of {})", names.join(", "))
        })
    }
}

/// How long the summary may be.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "unit", content = "value", rename_all = "snake_case")]
pub enum Budget {
    /// Words as counted by `text::count_words`.
    Words(usize),
    Sentences(usize),
    /// Percent of the input's words.
    Percent(f32),
}

impl Budget {
    /// The budget of the CLI's flags (and the Python package's arguments):
    /// at most one of words, sentences and a percentage (none: words,
    /// `default_words`).
    pub fn from_flags(
        words: Option<usize>,
        sentences: Option<usize>,
        percent: Option<f32>,
        default_words: usize,
    ) -> Result<Self, String> {
        match (words, sentences, percent) {
            (None, Some(n), None) => Ok(Budget::Sentences(n)),
            (None, None, Some(p)) => Ok(Budget::Percent(p)),
            (words, None, None) => Ok(Budget::Words(words.unwrap_or(default_words))),
            _ => Err("give one of budget, budget_sentences and budget_percent".into()),
        }
    }
}

/// A weight (the topic's pull): between 0 and 1.
pub fn check_weight(weight: f32) -> Result<f32, String> {
    match (0.0..=1.0).contains(&weight) {
        true => Ok(weight),
        false => Err(format!("{weight} is not a weight between 0 and 1")),
    }
}

/// An ISO 639-1 code (two letters) for `Settings::languages`, lowercased.
pub fn language_code(code: &str) -> Result<String, String> {
    let code = code.trim().to_ascii_lowercase();
    if code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase()) {
        Ok(code)
    } else {
        Err(format!("{code:?} is not an ISO 639-1 language code (two letters, such as en, es, zh)"))
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Words(100)
    }
}

impl Budget {
    /// Per-sentence costs and the limit on their sum.
    pub fn costs(&self, cluster: &Cluster) -> (Vec<usize>, usize) {
        let words = || cluster.sentences.iter().map(|s| s.words).collect();
        match *self {
            Budget::Words(n) => (words(), n),
            Budget::Sentences(n) => (vec![1; cluster.sentences.len()], n),
            Budget::Percent(p) => {
                let limit = (cluster.total_words() as f64 * p.max(0.0) as f64 / 100.0).round() as usize;
                (words(), limit)
            }
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            Budget::Words(n) => format!("{n} words"),
            Budget::Sentences(n) => format!("{n} sentences"),
            Budget::Percent(p) => format!("{p}% of the input"),
        }
    }
}

/// Order of the summary's sentences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By document, then position in the document.
    #[default]
    Position,
    /// In the order the method picked them (best first).
    Score,
    /// By document date, then position (undated documents keep input order).
    Chronological,
}

/// Defaults of the MMR family's knobs. λ and μ: best ROUGE-2 recall on
/// Multi-News validation (`precis mmr-tune`, 2,000 clusters and the 250
/// full-text ones). The seed threshold: on held-out ml_crisis days
/// (`precis timeline-eval --days tune`); Multi-News, undated and about one
/// event, prefers 0 (no non-seed events) but loses only 0.15 at 0.2. γ =
/// 0.4 is the paper's.
pub const DEFAULT_LAMBDA: f32 = 0.8;
pub const DEFAULT_MU: f32 = 0.1;
pub const DEFAULT_GAMMA: f32 = 0.4;
pub const DEFAULT_SEED_THRESHOLD: f32 = 0.2;

/// Every knob of a summary, shared by CLI flags and app controls.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub method: Method,
    pub budget: Budget,
    /// n: only the first n sentences of each document are candidates.
    pub first_sentences: usize,
    /// B: beam width.
    pub beam_width: usize,
    /// T: candidates the greedy search looks at past a sentence that does not fit.
    pub greedy_candidates: usize,
    pub beam_mode: BeamMode,
    /// Skip a sentence whose cosine to a picked one exceeds this.
    pub redundancy: Option<f32>,
    /// Candidates this similar to an earlier candidate are dropped as copies.
    pub near_duplicate: f32,
    /// β: each sentence's embedding counts words^β in the summary's sum.
    /// 0 weighs every sentence alike (as published); larger values stop the
    /// search from preferring many short sentences.
    pub length_weight: f32,
    pub order: Order,
    /// λ (MMR, TBMMR): weight of relevance to the topic against redundancy.
    pub lambda: f32,
    /// μ (TBMMR): weight of the position score.
    pub mu: f32,
    /// γ (TBMMR): share of time similarity in sentence similarity.
    pub gamma: f32,
    /// TBMMR: documents at least this relevant to the topic report its seed event.
    pub seed_threshold: f32,
    /// Topic description or question. MMR and TBMMR compare sentences with
    /// it (none: the earliest document's headline and first sentence); the
    /// centroid methods are steered towards it by `topic_weight`.
    pub topic: Option<String>,
    /// w: how far the topic pulls the centroid towards its own embedding
    /// (0: not at all, today's summary; 1: the topic alone). See
    /// `centroid::steer`.
    pub topic_weight: f32,
    /// Summary languages (ISO 639-1): only sentences detected in one of
    /// them are candidates, while the centroid and every score still come
    /// from all the articles. Empty: any language.
    pub languages: Vec<String>,
    /// Whether the prose reader (`segment::prose_reader`) keeps the
    /// sentences it reads as captions, headlines or blurbs from being
    /// candidates (off: only the segmentation rules decide).
    pub prose_reader: bool,
}

impl Settings {
    /// Whether the topic steers this method's centroid.
    pub fn steers(&self) -> bool {
        self.method.steerable() && self.topic_weight > 0.0 && self.topic.as_deref().is_some_and(|t| !t.trim().is_empty())
    }

    /// Whether a sentence in `lang` may be in the summary.
    pub fn accepts_language(&self, lang: &str) -> bool {
        self.languages.is_empty() || self.languages.iter().any(|l| l == lang)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            method: Method::default(),
            budget: Budget::default(),
            first_sentences: 9,
            beam_width: 5,
            greedy_candidates: 9,
            beam_mode: BeamMode::default(),
            redundancy: None,
            near_duplicate: 0.98,
            length_weight: 0.0,
            order: Order::default(),
            lambda: DEFAULT_LAMBDA,
            mu: DEFAULT_MU,
            gamma: DEFAULT_GAMMA,
            seed_threshold: DEFAULT_SEED_THRESHOLD,
            topic: None,
            topic_weight: 0.0,
            languages: vec![],
            prose_reader: true,
        }
    }
}

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

/// The cluster's sentences with the prose reader's reason on those it read
/// as furniture for `summary`: what the CLI's JSON and the app's Sources tab
/// show, so every exclusion is told.
pub fn sentences_as_read(cluster: &Cluster, summary: &Summary) -> Vec<crate::document::Sentence> {
    let mut sentences = cluster.sentences.clone();
    give_reader_reason(&mut sentences, &summary.read_as_furniture);
    sentences
}

/// Marks on the cluster itself what the prose reader (default settings)
/// reads as furniture, to score the decision apart from any summary
/// (`precis furniture-eval --reader`).
pub fn mark_read_furniture(cluster: &mut Cluster, embeddings: &[Embedding]) {
    let read = read_as_furniture(cluster, embeddings, &Settings::default());
    give_reader_reason(&mut cluster.sentences, &read);
}

fn give_reader_reason(sentences: &mut [crate::document::Sentence], ids: &[usize]) {
    for &id in ids {
        sentences[id].excluded = Some(crate::segment::prose_reader::REASON.to_string());
    }
}

/// Runs the request's method: the centroid step, then the selection step.
pub fn summarize(request: &SummaryRequest) -> Result<Summary> {
    let centroid = estimate_centroid(request)?;
    select_towards(request, centroid)
}

/// What a summary needs embedded beside the cluster's sentences: the
/// reference summary's sentences and, for MMR and TBMMR, the topic and the
/// headlines.
#[derive(Clone, Debug, Default)]
pub struct SummaryTexts {
    pub reference: Vec<String>,
    /// For the methods that compare sentences with a topic.
    pub topic: Option<TopicTexts>,
}

impl SummaryTexts {
    pub fn new(cluster: &Cluster, settings: &Settings, reference: Vec<String>) -> Self {
        let needs_topic = settings.method.uses_topic() || settings.steers();
        let topic = needs_topic.then(|| TopicTexts::new(cluster, settings.topic.as_deref()));
        Self { reference, topic }
    }

    /// Every text to embed: the cluster's sentences, the reference's, then
    /// the topic's and the headlines.
    pub fn texts<'a>(&'a self, cluster: &'a Cluster) -> impl Iterator<Item = &'a str> {
        cluster
            .sentences
            .iter()
            .map(|s| s.text.as_str())
            .chain(self.reference.iter().map(String::as_str))
            .chain(self.topic.iter().flat_map(TopicTexts::texts))
    }

    /// The embeddings `embed` finds for [`Self::texts`].
    pub fn embedded(&self, cluster: &Cluster, embed: impl Fn(&str) -> Option<Embedding>) -> Result<EmbeddedTexts> {
        let lookup = |texts: &mut dyn Iterator<Item = &str>| -> Result<Vec<Embedding>> {
            texts.map(|t| embed(t).with_context(|| format!("no embedding for {t:?}"))).collect()
        };
        let topic = match &self.topic {
            Some(texts) => Some(texts.embedded(lookup(&mut texts.texts().into_iter())?).map_err(anyhow::Error::msg)?),
            None => None,
        };
        Ok(EmbeddedTexts {
            sentences: lookup(&mut cluster.sentences.iter().map(|s| s.text.as_str()))?,
            reference: lookup(&mut self.reference.iter().map(String::as_str))?,
            topic,
        })
    }

    /// Embeds every text with `encoder` in one go (the native path).
    pub fn encode(&self, encoder: &crate::encoder::Encoder, cluster: &Cluster) -> Result<EmbeddedTexts> {
        let texts: Vec<&str> = self.texts(cluster).collect();
        let embeddings = encoder.encode(&texts)?;
        let by_text: std::collections::HashMap<&str, Embedding> = texts.iter().copied().zip(embeddings).collect();
        self.embedded(cluster, |t| by_text.get(t).copied())
    }

    /// Embeds every text with `encoder` and summarizes (the native path).
    pub fn encode_and_summarize(
        &self,
        encoder: &crate::encoder::Encoder,
        cluster: &Cluster,
        settings: &Settings,
        heads: Option<&Heads>,
    ) -> Result<Summary> {
        let embedded = self.encode(encoder, cluster)?;
        summarize(&embedded.request(cluster, settings, heads))
    }
}

/// The embeddings of a [`SummaryTexts`].
pub struct EmbeddedTexts {
    /// One per sentence of the cluster.
    pub sentences: Vec<Embedding>,
    pub reference: Vec<Embedding>,
    pub topic: Option<TopicEmbeddings>,
}

impl EmbeddedTexts {
    /// The summary request of `cluster` under `settings`.
    pub fn request<'a>(&'a self, cluster: &'a Cluster, settings: &'a Settings, heads: Option<&'a Heads>) -> SummaryRequest<'a> {
        SummaryRequest {
            reference: (!self.reference.is_empty()).then_some(&self.reference[..]),
            topic: self.topic.as_ref(),
            heads,
            ..SummaryRequest::new(cluster, &self.sentences, settings)
        }
    }
}

fn one_embedding_per_sentence(cluster: &Cluster, embeddings: &[Embedding]) -> Result<()> {
    if embeddings.len() != cluster.sentences.len() {
        bail!("{} embeddings for {} sentences", embeddings.len(), cluster.sentences.len());
    }
    Ok(())
}

/// The pipeline's centroid step: where the method's summary should point
/// (the mean, the oracle, or a trained head's estimate), steered towards the
/// reader's topic when she gave one a weight.
pub fn estimate_centroid(request: &SummaryRequest) -> Result<Centroid> {
    let SummaryRequest { cluster, embeddings, settings, reference, heads, topic } = *request;
    one_embedding_per_sentence(cluster, embeddings)?;
    let input = CentroidInput { cluster, embeddings, reference };
    let centroid = match settings.method {
        Method::Oracle => OracleCentroid.estimate(&input),
        Method::Cera => head(heads.and_then(|h| h.cera.as_ref()), "cera")?.estimate(&input),
        Method::Cerai => head(heads.and_then(|h| h.cerai.as_ref()), "cerai")?.estimate(&input),
        _ => MeanCentroid.estimate(&input),
    }?;
    if !settings.steers() {
        return Ok(centroid);
    }
    let given = topic.map(|t| &t.given[..]).unwrap_or_default();
    if given.is_empty() {
        bail!("the topic was not embedded, so it cannot steer the summary");
    }
    Ok(steer(centroid, &crate::centroid::steer::unit_mean(given), settings.topic_weight))
}

fn head<'h>(slot: Option<&'h CeraHead>, name: &str) -> Result<&'h CeraHead> {
    slot.with_context(|| format!("method {name} needs its trained head (models/cera/{name}.onnx)"))
}

/// The pipeline's selection step: the method's selector towards `centroid`.
pub fn select_towards(request: &SummaryRequest, centroid: Centroid) -> Result<Summary> {
    let SummaryRequest { cluster, embeddings, settings, topic, .. } = *request;
    one_embedding_per_sentence(cluster, embeddings)?;
    let (costs, limit) = settings.budget.costs(cluster);
    let unit = if matches!(settings.budget, Budget::Sentences(_)) { "sentences" } else { "words" };
    Choices::of(cluster).check_budget(&costs, limit, unit)?;
    let selector: Box<dyn Selector> = match settings.method {
        Method::Greedy => Box::new(Greedy),
        Method::Beam => Box::new(beam(settings, None)),
        Method::BeamGreedy | Method::Oracle | Method::Cera | Method::Cerai => {
            Box::new(beam(settings, Some(settings.greedy_candidates)))
        }
        Method::Location | Method::Mmr | Method::Tbmmr => marginal_selector(cluster, embeddings, settings, topic)?,
    };
    let mut summary = run_selector(cluster, embeddings, settings, centroid, selector.as_ref());
    if settings.topic_weight > 0.0 && !settings.method.steerable() {
        summary.notes.push(match settings.method {
            Method::Location => "Location ranks by position only, so the topic does not change it.".into(),
            _ => "MMR methods compare sentences with the topic directly (λ weighs it); the topic weight steers centroid methods.".into(),
        });
    }
    if topic.is_none() && settings.method.uses_topic() && cluster.documents.iter().any(|d| d.title.is_some()) {
        summary.notes.push("The headlines were not embedded, so the topic is read from first sentences only.".into());
    }
    if let (Order::Chronological, Trace::Mmr(trace)) = (settings.order, &summary.trace) {
        // TBMMR orders by its reading of the topic's structure (table 3).
        if let Some(topic) = &trace.topic {
            summary.sentences = topic.order.clone();
        }
    }
    Ok(summary)
}

/// Location, SMMR or TBMMR, built from the cluster's times and positions.
fn marginal_selector(
    cluster: &Cluster,
    embeddings: &[Embedding],
    settings: &Settings,
    topic: Option<&TopicEmbeddings>,
) -> Result<Box<dyn Selector>> {
    let times = sentence_times(cluster);
    if settings.method == Method::Location {
        return Ok(Box::new(location(position_scores(cluster), times)));
    }
    let texts = TopicTexts::new(cluster, settings.topic.as_deref());
    let topic = Topic::new(cluster, embeddings, &texts, topic).map_err(anyhow::Error::msg)?;
    Ok(match settings.method {
        Method::Mmr => Box::new(smmr(topic.sentences, times, settings.lambda)),
        _ => {
            let params = TbmmrParams {
                lambda: settings.lambda,
                mu: settings.mu,
                gamma: settings.gamma,
                seed_threshold: settings.seed_threshold,
            };
            Box::new(Tbmmr::new(cluster, embeddings, &topic, times, position_scores(cluster), params))
        }
    })
}

fn beam(settings: &Settings, greedy_candidates: Option<usize>) -> BeamSearch {
    BeamSearch { width: settings.beam_width, greedy_candidates, mode: settings.beam_mode }
}

/// Budget, preselection, selection and ordering around any selector.
pub fn run_selector(
    cluster: &Cluster,
    embeddings: &[Embedding],
    settings: &Settings,
    centroid: Centroid,
    selector: &dyn Selector,
) -> Summary {
    let (costs, limit) = settings.budget.costs(cluster);
    let choices = Choices::of(cluster);
    let read_as_furniture = read_as_furniture(cluster, embeddings, settings);
    let candidates = preselect(cluster, embeddings, &costs, limit, settings, &read_as_furniture, &choices);
    let weights: Option<Vec<f32>> = (settings.length_weight != 0.0).then(|| {
        cluster.sentences.iter().map(|s| (s.words.max(1) as f32).powf(settings.length_weight)).collect()
    });
    let problem = Problem {
        embeddings,
        candidates: &candidates,
        costs: &costs,
        limit,
        centroid: &centroid.vector,
        redundancy: settings.redundancy,
        weights: weights.as_deref(),
        pinned: &choices.pinned,
    };
    let Selection { sentences, score, trace } = selector.select(&problem);
    let mut notes: Vec<String> = language_note(cluster, &costs, limit, settings, &read_as_furniture).into_iter().collect();
    let without_prose = articles_without_prose(cluster, &read_as_furniture);
    // An article without prose explains an empty summary only when no
    // article has any; otherwise the budget or the search is why.
    if sentences.is_empty() && notes.is_empty() && without_prose.len() < cluster.documents.len() {
        // The shortest sentence that could have been a candidate, not a widget's "Follow us".
        let prose_costs: Vec<usize> = (0..costs.len())
            .filter(|&id| cluster.sentences[id].excluded.is_none() && !read_as_furniture.contains(&id) && !choices.struck.contains(&id))
            .map(|id| costs[id])
            .collect();
        notes.push(empty_summary_note(cluster, &prose_costs, limit, &settings.budget));
    }
    notes.extend(without_prose.into_iter().map(|(doc, lines)| no_prose_note(cluster, doc, lines)));
    Summary {
        cost: sentences.iter().map(|&s| costs[s]).sum(),
        sentences: ordered(cluster, sentences, settings.order),
        score,
        limit,
        candidates,
        read_as_furniture,
        pinned: choices.pinned,
        struck: choices.struck,
        centroid,
        trace,
        notes,
    }
}

/// The prose sentences the prose reader reads as furniture, when the
/// settings use it. It reads only sentences alone in their paragraph: what
/// the rules miss (a caption written as a sentence, a headline with a full
/// stop, a blurb) stands on a line of its own, while a sentence among
/// others of its paragraph is that paragraph's prose.
pub fn read_as_furniture(cluster: &Cluster, embeddings: &[Embedding], settings: &Settings) -> Vec<usize> {
    if !settings.prose_reader {
        return vec![];
    }
    let reader = crate::segment::prose_reader::ProseReader::shipped();
    let mut per_paragraph: HashMap<(usize, usize), usize> = HashMap::new();
    for s in &cluster.sentences {
        *per_paragraph.entry((s.doc, s.para)).or_default() += 1;
    }
    (0..cluster.sentences.len())
        .filter(|&id| {
            let sentence = &cluster.sentences[id];
            sentence.excluded.is_none()
                && !cluster.documents[sentence.doc].keep_furniture
                && per_paragraph[&(sentence.doc, sentence.para)] == 1
                && reader.reads_as_furniture(&sentence.text, &sentence.lang, &embeddings[id])
        })
        .collect()
}

/// Candidate sentences: prose (not `Sentence::excluded`, not in
/// `read_as_furniture`) that stands alone ([`stands_alone`]) in a summary language (`Settings::languages`), within the budget,
/// not a copy of an earlier sentence, and among the first n remaining
/// sentences of their document.
pub fn preselect(
    cluster: &Cluster,
    embeddings: &[Embedding],
    costs: &[usize],
    limit: usize,
    settings: &Settings,
    read_as_furniture: &[usize],
    choices: &Choices,
) -> Vec<usize> {
    let mut kept: Vec<usize> = vec![];
    let mut seen_texts = std::collections::HashSet::new();
    let mut per_document = vec![0usize; cluster.documents.len()];
    for (id, sentence) in cluster.sentences.iter().enumerate() {
        // A pin is a candidate whatever it is ("use it anyway"); a strike never.
        if choices.pinned.contains(&id) {
            seen_texts.insert(comparable_text(&sentence.text));
            kept.push(id);
            continue;
        }
        let unwanted = choices.struck.contains(&id)
            || !is_prose(cluster, read_as_furniture, id)
            || !settings.accepts_language(&sentence.lang)
            || !(stands_alone(&sentence.text) || cluster.documents[sentence.doc].keep_furniture);
        if unwanted || costs[id] > limit || costs[id] == 0 || per_document[sentence.doc] >= settings.first_sentences {
            continue;
        }
        if !seen_texts.insert(comparable_text(&sentence.text)) {
            continue;
        }
        let copy = kept.iter().any(|&k| {
            crate::select::dot(&embeddings[k][..], &embeddings[id][..]) >= settings.near_duplicate
        });
        if copy {
            continue;
        }
        per_document[sentence.doc] += 1;
        kept.push(id);
    }
    kept
}

/// Neither furniture by the segmentation rules nor read as furniture by the
/// prose reader (`read_as_furniture`, in order).
/// Whether a prose sentence can be a summary line on its own: "Nobody was
/// hurt." and "¿Cuánto ha llovido?" are the prose of their paragraph, but
/// a summary of such lines says nothing ("They are assault.", "Et
/// pourtant.", "Mr. Oppenheim said." were judged junk as summary lines); a
/// number in a clause makes one ("He was 83.").
pub fn stands_alone(text: &str) -> bool {
    !crate::segment::furniture::too_short_to_stand_alone(text)
}

fn is_prose(cluster: &Cluster, read_as_furniture: &[usize], id: usize) -> bool {
    cluster.sentences[id].excluded.is_none() && read_as_furniture.binary_search(&id).is_err()
}

/// Lowercased letters and digits only: "The U.S." and "the US" compare equal.
fn comparable_text(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

fn ordered(cluster: &Cluster, mut sentences: Vec<usize>, order: Order) -> Vec<usize> {
    let position = |&s: &usize| (cluster.sentences[s].doc, cluster.sentences[s].index);
    match order {
        Order::Score => {}
        Order::Position => sentences.sort_by_key(position),
        Order::Chronological => sentences.sort_by_key(|s| {
            let doc = cluster.sentences[*s].doc;
            (cluster.documents[doc].timestamp.unwrap_or(i64::MIN), position(s))
        }),
    }
    sentences
}

/// With summary languages chosen: a plain note when they have no prose at
/// all, or too little to fill the budget.
fn language_note(
    cluster: &Cluster,
    costs: &[usize],
    limit: usize,
    settings: &Settings,
    read_as_furniture: &[usize],
) -> Option<String> {
    if settings.languages.is_empty() {
        return None;
    }
    let names = settings.languages.iter().map(|l| crate::segment::language_name(l)).collect::<Vec<_>>().join(" or ");
    let in_language: Vec<usize> = (0..cluster.sentences.len())
        .filter(|&s| is_prose(cluster, read_as_furniture, s) && settings.accepts_language(&cluster.sentences[s].lang))
        .collect();
    if in_language.is_empty() {
        return Some(format!(
            "No sentence is in {names}: the articles are in {}. Choose another summary language.",
            detected_languages(cluster)
        ));
    }
    let available: usize = in_language.iter().map(|&s| costs[s]).sum();
    (available < limit).then(|| {
        let count = in_language.len();
        let plural = if count == 1 { "" } else { "s" };
        let words: usize = in_language.iter().map(|&s| cluster.sentences[s].words).sum();
        format!("Only {count} {names} sentence{plural} ({words} words): the summary is shorter than the budget.")
    })
}

/// The cluster's languages by words, most first: "Spanish (420 words), French (97 words)".
fn detected_languages(cluster: &Cluster) -> String {
    let mut words = cluster.words_by_language();
    words.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    words.iter().map(|(l, w)| format!("{} ({w} words)", crate::segment::language_name(l))).collect::<Vec<_>>().join(", ")
}

/// The articles whose every sentence reads as page furniture (by the rules
/// or the prose reader), with how many sentences each has: (document,
/// sentences). The app says so on the article's card and offers to use
/// them all (`Document::keep_furniture`).
pub fn articles_without_prose(cluster: &Cluster, read_as_furniture: &[usize]) -> Vec<(usize, usize)> {
    let mut sentences = vec![0usize; cluster.documents.len()];
    let mut prose = vec![0usize; cluster.documents.len()];
    for (id, s) in cluster.sentences.iter().enumerate() {
        sentences[s.doc] += 1;
        prose[s.doc] += usize::from(s.excluded.is_none() && !read_as_furniture.contains(&id));
    }
    (0..cluster.documents.len()).filter(|&d| sentences[d] > 0 && prose[d] == 0).map(|d| (d, sentences[d])).collect()
}

/// "No prose found in “Breaking news”: 3 lines look like page furniture."
pub fn no_prose_note(cluster: &Cluster, doc: usize, lines: usize) -> String {
    let document = &cluster.documents[doc];
    let name = document.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&document.id);
    let plural = if lines == 1 { "line looks" } else { "lines look" };
    format!("No prose found in “{name}”: {lines} {plural} like page furniture.")
}

fn empty_summary_note(cluster: &Cluster, costs: &[usize], limit: usize, budget: &Budget) -> String {
    if cluster.sentences.is_empty() {
        return "There is no text to summarize.".into();
    }
    let shortest = costs.iter().copied().filter(|&c| c > 0).min().unwrap_or(0);
    match budget {
        Budget::Sentences(0) => "The budget is 0 sentences.".into(),
        _ if shortest > limit => format!(
            "Every sentence is longer than the budget ({}, i.e. {limit} words); the shortest has {shortest} words. Raise the budget.",
            budget.describe()
        ),
        _ => "No sentence could be selected.".into(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::document::Document;
    use crate::select::testing::unit;
    use crate::select::topic::TopicEmbeddings;
    use crate::choices::{Choice, SentenceRef};

    #[test]
    fn a_budget_is_words_sentences_or_a_percentage_never_two() {
        assert_eq!(Budget::from_flags(None, None, None, 230), Ok(Budget::Words(230)));
        assert_eq!(Budget::from_flags(Some(50), None, None, 230), Ok(Budget::Words(50)));
        assert_eq!(Budget::from_flags(None, Some(3), None, 230), Ok(Budget::Sentences(3)));
        assert_eq!(Budget::from_flags(None, None, Some(10.0), 230), Ok(Budget::Percent(10.0)));
        for (w, s, p) in [(Some(50), Some(3), None), (Some(50), None, Some(10.0)), (None, Some(3), Some(10.0))] {
            assert!(Budget::from_flags(w, s, p, 230).unwrap_err().contains("one of"));
        }
    }

    fn cluster() -> Cluster {
        Cluster::new(vec![
            // Four words at least: shorter sentences are fragments, never candidates.
            Document::new("a", "Storm hits the coast today. Thousands lose their power. Schools close very early."),
            Document::new("b", "The storm hits the coast today! Officials warn of heavy flooding."),
        ])
    }

    fn embeddings(n: usize) -> Vec<Embedding> {
        (0..n).map(|i| unit(&[(i, 1.0), (100, 0.3)])).collect()
    }

    #[test]
    fn preselection_drops_copies_long_sentences_and_late_positions() {
        let c = cluster();
        assert_eq!(c.sentences.len(), 5);
        let e = embeddings(5);
        let (costs, _) = Budget::Words(100).costs(&c);
        let settings = Settings { first_sentences: 2, ..Default::default() };
        // "The storm hits the coast today!" is not a copy of "Storm hits the coast today."
        let kept = preselect(&c, &e, &costs, 100, &settings, &[], &Choices::default());
        assert_eq!(kept, vec![0, 1, 3, 4]);
        let kept = preselect(&c, &e, &costs, 4, &settings, &[], &Choices::default());
        assert_eq!(kept, vec![1, 2]); // only the 4-word sentences fit
    }

    /// What the prose reader flags is no candidate, is told with its reason,
    /// and counts again once the settings turn the reader off.
    #[test]
    fn sentences_the_prose_reader_flags_are_no_candidates_and_say_why() {
        // The reader reads a sentence alone in its paragraph (as captions
        // and headlines stand), in a language it decides for.
        let c = Cluster::new(vec![
            Document { lang: Some("en".into()), ..Document::new("a", "Storm hits the coast today.\n\nThousands lose their power.\n\nSchools close very early.") },
            Document { lang: Some("en".into()), ..Document::new("b", "The storm hits the coast today! Officials warn of heavy flooding.") },
        ]);
        let furniture = crate::segment::prose_reader::ProseReader::shipped().most_furniture_like();
        // Synthetic embeddings mean nothing to the reader, so the prose ones
        // point away from what it reads as furniture.
        let mut e: Vec<Embedding> = embeddings(5)
            .iter()
            .map(|v| {
                let away: Vec<f32> = v.iter().zip(&furniture).map(|(x, f)| x - f).collect();
                let length = away.iter().map(|x| x * x).sum::<f32>().sqrt();
                std::array::from_fn(|i| away[i] / length)
            })
            .collect();
        e[1] = furniture;
        let settings = Settings::default();
        assert_eq!(read_as_furniture(&c, &e, &settings), vec![1]);
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert_eq!(summary.read_as_furniture, vec![1]);
        assert!(!summary.candidates.contains(&1));
        let reasons: Vec<Option<String>> = sentences_as_read(&c, &summary).into_iter().map(|s| s.excluded).collect();
        assert_eq!(reasons[1].as_deref(), Some(crate::segment::prose_reader::REASON));
        assert!(reasons.iter().enumerate().all(|(id, r)| id == 1 || r.is_none()));
        let json = summary_json(&c, &settings, &summary);
        assert_eq!(json["excluded"][0]["reason"], crate::segment::prose_reader::REASON);
        // Inside a paragraph, or in a language it does not decide for, it
        // reads nothing.
        let mut inside = e.clone();
        inside[4] = furniture;
        assert_eq!(read_as_furniture(&c, &inside, &settings), vec![1]);
        let mut thai = c.clone();
        thai.sentences[1].lang = "th".into();
        assert!(read_as_furniture(&thai, &e, &settings).is_empty());
        let rules_only = Settings { prose_reader: false, ..settings };
        assert!(read_as_furniture(&c, &e, &rules_only).is_empty());
        assert!(summarize(&SummaryRequest::new(&c, &e, &rules_only)).unwrap().candidates.contains(&1));
    }

    #[test]
    fn exact_copies_are_dropped_even_across_documents() {
        let c = Cluster::new(vec![
            Document::new("a", "Storm hits the coast."),
            Document::new("b", "Storm hits the coast!"),
        ]);
        let e = vec![unit(&[(0, 1.0)]), unit(&[(1, 1.0)])];
        let (costs, limit) = Budget::Words(100).costs(&c);
        assert_eq!(preselect(&c, &e, &costs, limit, &Settings::default(), &[], &Choices::default()), vec![0]);
    }

    #[test]
    fn budgets_in_sentences_and_percent() {
        let c = cluster();
        let (costs, limit) = Budget::Sentences(2).costs(&c);
        assert_eq!((costs, limit), (vec![1; 5], 2));
        let total = c.total_words();
        assert_eq!(total, 5 + 4 + 4 + 6 + 5);
        assert_eq!(Budget::Percent(50.0).costs(&c).1, 12); // 24 * 0.5
    }

    #[test]
    fn every_method_respects_the_budget_and_orders_by_position() {
        let c = cluster();
        let e = embeddings(5);
        for method in [Method::Greedy, Method::Beam, Method::BeamGreedy] {
            let settings = Settings { method, budget: Budget::Words(8), ..Default::default() };
            let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
            assert!(summary.cost <= 8, "{method:?}");
            assert!(!summary.sentences.is_empty());
            let positions: Vec<_> = summary.sentences.iter().map(|&s| (c.sentences[s].doc, c.sentences[s].index)).collect();
            let mut sorted = positions.clone();
            sorted.sort();
            assert_eq!(positions, sorted);
        }
    }

    #[test]
    fn a_budget_below_every_sentence_explains_itself() {
        let (c, e) = (cluster(), embeddings(5));
        let settings = Settings { budget: Budget::Words(2), ..Default::default() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert!(summary.sentences.is_empty());
        assert!(summary.notes[0].contains("shortest has 4 words"), "{:?}", summary.notes);
    }

    #[test]
    fn oracle_needs_a_reference() {
        let settings = Settings { method: Method::Oracle, ..Default::default() };
        let (c, e) = (cluster(), embeddings(5));
        assert!(summarize(&SummaryRequest::new(&c, &e, &settings)).is_err());
        let reference = vec![unit(&[(1, 1.0)])];
        let summary = summarize(&SummaryRequest { reference: Some(&reference), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
        assert!(!summary.sentences.is_empty());
    }

    /// Three storm sentences and one answer to "what about the curfew?",
    /// each on its own axis plus a shared storm direction (also the
    /// comparison's fixture, src/compare.rs).
    pub(crate) fn storm_and_curfew() -> (Cluster, Vec<Embedding>, TopicEmbeddings) {
        let c = Cluster::new(vec![
            Document::new("a", "The storm hit the coast at dawn. Winds tore roofs off many houses."),
            Document::new("b", "The storm flooded the harbour overnight. The mayor ordered a curfew from nine."),
        ]);
        let e = vec![
            unit(&[(0, 1.0), (100, 1.0)]),
            unit(&[(1, 1.0), (100, 1.0)]),
            unit(&[(2, 1.0), (100, 1.0)]),
            unit(&[(3, 1.0), (100, 0.2)]),
        ];
        let question = TopicEmbeddings { given: vec![unit(&[(3, 1.0), (50, 0.5)])], headlines: vec![None, None] };
        (c, e, question)
    }

    /// Settings for tests on synthetic embeddings, which mean nothing to the
    /// prose reader: only the segmentation rules decide what is prose.
    pub(crate) fn rules_only() -> Settings {
        Settings { prose_reader: false, ..Default::default() }
    }

    #[test]
    fn the_answer_wins_once_the_topic_weighs_enough() {
        let (c, e, question) = storm_and_curfew();
        let pick = |weight: f32| {
            let settings = Settings {
                method: Method::BeamGreedy,
                budget: Budget::Sentences(1),
                topic: Some("What did the mayor say about the curfew?".into()),
                topic_weight: weight,
                ..rules_only()
            };
            let summary = summarize(&SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
            (summary.sentences[0], summary.centroid.steering.map(|s| s.degrees_moved()))
        };
        assert_eq!(pick(0.0), (0, None), "weight 0 is the unsteered summary");
        assert_ne!(pick(0.2).0, 3, "a light pull does not override the cluster");
        let (picked, moved) = pick(0.6);
        assert_eq!(picked, 3, "the curfew sentence answers the question");
        assert!(moved.unwrap() > 10.0, "{moved:?}");
        for method in [Method::Greedy, Method::Beam] {
            let settings = Settings { method, budget: Budget::Sentences(1), topic: Some("curfew?".into()), topic_weight: 0.6, ..rules_only() };
            let summary = summarize(&SummaryRequest { topic: Some(&question), ..SummaryRequest::new(&c, &e, &settings) }).unwrap();
            assert_eq!(summary.sentences, vec![3], "{method}");
        }
    }

    #[test]
    fn steering_needs_the_topic_embedded_and_skips_mmr_and_location() {
        let (c, e, _) = storm_and_curfew();
        let settings = Settings { topic: Some("curfew?".into()), topic_weight: 0.5, ..Default::default() };
        assert!(settings.steers());
        let message = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap_err().to_string();
        assert!(message.contains("topic was not embedded"), "{message}");
        for method in [Method::Mmr, Method::Tbmmr, Method::Location] {
            assert!(!Settings { method, ..settings.clone() }.steers(), "{method}");
        }
        assert!(!Settings { topic: Some("  ".into()), ..settings.clone() }.steers());
        let texts = SummaryTexts::new(&c, &settings, vec![]);
        assert_eq!(texts.topic.unwrap().given, vec!["curfew?".to_string()]);
    }

    fn bilingual() -> (Cluster, Vec<Embedding>) {
        let doc = |id: &str, lang: &str, text: &str| Document { lang: Some(lang.into()), ..Document::new(id, text) };
        let c = Cluster::new(vec![
            doc("es", "es", "La tormenta golpeó la costa al amanecer. Miles de casas quedaron sin luz."),
            doc("fr", "fr", "La tempête a frappé la côte à l'aube. Des milliers de maisons sont privées de courant."),
            doc("en", "en", "The storm hit the coast at dawn."),
        ]);
        let e = (0..c.sentences.len()).map(|i| unit(&[(i, 1.0), (100, 1.0)])).collect();
        (c, e)
    }

    #[test]
    fn only_sentences_in_the_summary_languages_are_candidates() {
        let (c, e) = bilingual();
        let settings = Settings { languages: vec!["es".into(), "en".into()], budget: Budget::Words(100), ..rules_only() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        let languages: Vec<&str> = summary.candidates.iter().map(|&s| c.sentences[s].lang.as_str()).collect();
        assert_eq!(languages, vec!["es", "es", "en"]);
        assert!(summary.sentences.iter().all(|&s| c.sentences[s].lang != "fr"));
        // The centroid is still the mean of every sentence, French included.
        assert_eq!(summary.centroid.vector, crate::centroid::mean_of(&e));
        assert_eq!(summary.notes, vec!["Only 3 Spanish or English sentences (20 words): the summary is shorter than the budget.".to_string()]);
    }

    #[test]
    fn a_summary_language_without_text_says_which_languages_there_are() {
        let (c, e) = bilingual();
        let settings = Settings { languages: vec!["ar".into()], ..rules_only() };
        let summary = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap();
        assert!(summary.sentences.is_empty());
        assert_eq!(
            summary.notes,
            vec!["No sentence is in Arabic: the articles are in French (17 words), Spanish (13 words), English (7 words). Choose another summary language.".to_string()]
        );
        let enough = Settings { languages: vec!["fr".into()], budget: Budget::Words(10), ..rules_only() };
        assert!(summarize(&SummaryRequest::new(&c, &e, &enough)).unwrap().notes.is_empty());
    }

    /// Three articles of four sentences, each sentence its own direction
    /// plus a shared one, so every method has a clear first choice.
    fn choices_cluster() -> (Cluster, Vec<Embedding>) {
        let c = Cluster::new(vec![
            Document::new("a", "The storm hit the northern coast on Monday. Thousands of homes lost their power overnight. Rescue teams reached the flooded villages by boat. The airport closed its runway for a day."),
            Document::new("b", "Schools in the region stayed closed until Wednesday. The river rose two metres above its usual level. Farmers lost most of the autumn harvest. Officials promised aid for every flooded family."),
            Document::new("c", "The national weather service issued its highest warning. Trains between the two largest cities were cancelled. Insurance claims reached a record by Friday evening. Volunteers handed out blankets at the town hall."),
        ]);
        let shared = |i: usize| if i % 4 == 0 { 0.9 } else { 0.2 };
        let e = (0..c.sentences.len()).map(|i| unit(&[(i, 1.0), (100, shared(i))])).collect();
        (c, e)
    }

    fn shipped_heads() -> Heads {
        let read = |name: &str| std::fs::read(format!("{}/models/cera/{name}.onnx", env!("CARGO_MANIFEST_DIR"))).unwrap();
        Heads::new(Some(CeraHead::from_bytes(&read("cera")).unwrap()), Some(CeraHead::from_bytes(&read("cerai")).unwrap())).unwrap()
    }

    /// Every method keeps a pinned sentence (which it would not pick
    /// alone), never picks a struck one (which it would), and keeps the
    /// budget; MMR and TBMMR pick the pin first and say so, Location keeps
    /// its order around it.
    #[test]
    fn pins_and_strikes_hold_in_every_method() {
        let (c, e) = choices_cluster();
        let heads = shipped_heads();
        let reference = [e[0], e[5]];
        for method in Method::ALL {
            let settings = Settings { method, budget: Budget::Words(25), ..rules_only() };
            let request = |c: &Cluster| {
                let request = SummaryRequest { reference: Some(&reference[..]), heads: Some(&heads), ..SummaryRequest::new(c, &e, &settings) };
                summarize(&request).unwrap()
            };
            let plain = request(&c);
            let first = plain.sentences[0];
            let pin = (0..c.sentences.len()).find(|id| !plain.sentences.contains(id)).unwrap();
            let mut chosen = c.clone();
            crate::choices::choose(&mut chosen, &[(Choice::Pin, SentenceRef::Id(pin)), (Choice::Strike, SentenceRef::Id(first))]).unwrap();
            let summary = request(&chosen);
            let m = method.name();
            assert!(summary.sentences.contains(&pin), "{m}: pin {pin} missing from {:?}", summary.sentences);
            assert!(!summary.sentences.contains(&first) && !summary.candidates.contains(&first), "{m}: struck {first} used");
            assert!(summary.cost <= summary.limit, "{m}: {} over {}", summary.cost, summary.limit);
            assert_eq!((summary.pinned.clone(), summary.struck.clone()), (vec![pin], vec![first]), "{m}");
            match &summary.trace {
                Trace::Mmr(trace) => {
                    assert_eq!((trace.steps[0].picked, trace.steps[0].pinned), (pin, true), "{m}: the pin goes first");
                    assert!(trace.steps[1..].iter().all(|s| !s.pinned), "{m}");
                }
                Trace::Greedy(trace) => assert_eq!(trace.pinned, [pin], "{m}"),
                Trace::Beam(trace) => assert_eq!(trace.pinned, [pin], "{m}"),
                Trace::None => {}
            }
            if method == Method::Location {
                // Around the pin, the sentences come in Location's own order.
                let rest: Vec<usize> = summary.sentences.iter().copied().filter(|&s| s != pin).collect();
                let order: Vec<usize> = plain.sentences.iter().copied().filter(|&s| s != first && rest.contains(&s)).collect();
                assert_eq!(rest[..order.len()], order[..], "{m}");
            }
        }
    }

    #[test]
    fn pins_over_the_budget_are_refused_not_cut() {
        let (mut c, e) = choices_cluster();
        crate::choices::choose(&mut c, &[(Choice::Pin, SentenceRef::Id(0)), (Choice::Pin, SentenceRef::Id(4))]).unwrap();
        let settings = Settings { method: Method::Greedy, budget: Budget::Words(12), ..rules_only() };
        let err = summarize(&SummaryRequest::new(&c, &e, &settings)).unwrap_err().to_string();
        assert_eq!(err, "The pinned sentences need 16 words; the budget is 12 words. Unpin a sentence or raise the budget.");
        // A pinned sentence the filter excluded is used anyway.
        let mut widget = Cluster::new(vec![Document::new("w", "The storm hit the northern coast on Monday.\n\nShare this story\n\nThousands of homes lost their power overnight.")]);
        assert!(widget.sentences[1].excluded.is_some());
        crate::choices::choose(&mut widget, &[(Choice::Pin, SentenceRef::Id(1))]).unwrap();
        let e = embeddings(3);
        let summary = summarize(&SummaryRequest::new(&widget, &e, &Settings { budget: Budget::Words(30), ..rules_only() })).unwrap();
        assert!(summary.sentences.contains(&1), "{:?}", summary.sentences);
    }

    #[test]
    fn method_names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>().unwrap(), m);
        }
        assert!("nope".parse::<Method>().is_err());
    }
}
