//! Every knob of a summary (`Settings`), its defaults, and the checks of a weight and a language code.

use super::{Budget, Method, Order};
use crate::select::beam::BeamMode;
use serde::{Deserialize, Serialize};

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
