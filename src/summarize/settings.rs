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

/// Every knob of a summary, shared by CLI flags and app controls: the one
/// declaration of them. Outside the browser it is also the CLI's flags
/// (`clap::Args`, flattened into each command beside its `--method` and
/// the budget's [`BudgetFlags`](super::BudgetFlags)) and, through them,
/// the Python package's keywords ([`Settings::from_flags`]); the method,
/// the budget and the topic have flags of their own.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::Args))]
#[serde(default)]
pub struct Settings {
    #[cfg_attr(not(target_arch = "wasm32"), arg(skip))]
    pub method: Method,
    #[cfg_attr(not(target_arch = "wasm32"), arg(skip))]
    pub budget: Budget,
    /// n: only the first n prose sentences of each document are candidates
    /// (its lead; page furniture takes no place in it).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().first_sentences, help = "n: candidates are among the first n prose sentences of each document (page furniture not counted)"))]
    pub first_sentences: usize,
    /// B: beam width.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().beam_width, help = "B: beam width"))]
    pub beam_width: usize,
    /// T: candidates the greedy search looks at past a sentence that does not fit.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().greedy_candidates, help = "T: sentences the greedy search may pass over when they do not fit"))]
    pub greedy_candidates: usize,
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_enum, default_value_t = Settings::default().beam_mode, help = "fill (ours: beams only take sentences that fit, equal sets merge) or paper (as published: a beam freezes when its best sentence overflows)"))]
    pub beam_mode: BeamMode,
    /// Skip a sentence whose cosine to a picked one exceeds this.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, help = "Skip sentences more similar than this (cosine) to a picked one"))]
    pub redundancy: Option<f32>,
    /// Candidates this similar to an earlier candidate are dropped as copies.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().near_duplicate, help = "Candidates at least this similar (cosine) to an earlier one are copies"))]
    pub near_duplicate: f32,
    /// β: each sentence's embedding counts words^β in the summary's sum.
    /// 0 weighs every sentence alike (as published); larger values stop the
    /// search from preferring many short sentences.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().length_weight, help = "β: a sentence's embedding counts words^β in the summary's sum (0 = as published)"))]
    pub length_weight: f32,
    /// Whether the prose reader (`segment::prose_reader`) keeps the
    /// sentences it reads as captions, headlines or blurbs from being
    /// candidates (off: only the segmentation rules decide).
    #[cfg_attr(not(target_arch = "wasm32"), arg(long = "no-prose-reader", action = clap::ArgAction::SetFalse, help = "Let the sentences the prose reader reads as captions, headlines or blurbs be candidates: only the segmentation rules decide what is prose"))]
    pub prose_reader: bool,
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_enum, default_value_t = Settings::default().order, help = "chronological: by article date; for tbmmr, by sentence time or grouped by day (the paper's order)"))]
    pub order: Order,
    /// λ (MMR, TBMMR): weight of relevance to the topic against redundancy.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().lambda, help = "λ (mmr, tbmmr): weight of relevance to the topic against redundancy with picked sentences"))]
    pub lambda: f32,
    /// μ (TBMMR): weight of the position score.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().mu, help = "μ (tbmmr): weight of the position score"))]
    pub mu: f32,
    /// γ (TBMMR): share of time similarity in sentence similarity.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().gamma, help = "γ (tbmmr): share of time similarity in sentence similarity"))]
    pub gamma: f32,
    /// TBMMR: documents at least this relevant to the topic report its seed event.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = Settings::default().seed_threshold, help = "tbmmr: documents at least this relevant to the topic report its seed event"))]
    pub seed_threshold: f32,
    /// Topic description or question. MMR and TBMMR compare sentences with
    /// it (none: the earliest document's headline and first sentence); the
    /// centroid methods are steered towards it by `topic_weight`.
    #[cfg_attr(not(target_arch = "wasm32"), arg(skip))]
    pub topic: Option<String>,
    /// w: how far the topic pulls the centroid towards its own embedding
    /// (0: not at all, today's summary; 1: the topic alone). See
    /// `centroid::steer`.
    #[cfg_attr(not(target_arch = "wasm32"), arg(skip))]
    pub topic_weight: f32,
    /// Summary languages (ISO 639-1): only sentences detected in one of
    /// them are candidates, while the centroid and every score still come
    /// from all the articles. Empty: any language.
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_delimiter = ',', value_parser = language_code, help = "Summary languages, comma-separated ISO 639-1 codes (e.g. en,fr): only their sentences are picked; every article still shapes the centroid"))]
    pub languages: Vec<String>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Settings {
    /// The keyword names of the settings' flags (`--beam-width` is
    /// `beam_width`), in the CLI's order.
    pub fn flag_names() -> Vec<String> {
        use clap::Args;
        let command = Self::augment_args(clap::Command::new("settings"));
        command.get_arguments().filter_map(|a| a.get_long()).map(|long| long.replace('-', "_")).collect()
    }

    /// Settings from flag-named keywords, the Python package's form:
    /// `{"beam_width": 3, "no_prose_reader": true, "languages": ["en"]}`
    /// reads as `--beam-width=3 --no-prose-reader --languages=en`, parsed by
    /// the declaration above, so each keyword has its flag's default and
    /// check. `null` and `false` leave a flag out; the method, the budget
    /// and the topic are not flags of `Settings` and keep their defaults.
    pub fn from_flags(keywords: &serde_json::Map<String, serde_json::Value>) -> Result<Settings, String> {
        use clap::{Args, FromArgMatches};
        use serde_json::Value;
        let mut argv = vec!["settings".to_string()];
        for (name, value) in keywords {
            let flag = format!("--{}", name.replace('_', "-"));
            let values = match value {
                Value::Array(items) => items.clone(),
                other => vec![other.clone()],
            };
            for value in values {
                match value {
                    Value::Null | Value::Bool(false) => {}
                    Value::Bool(true) => argv.push(flag.clone()),
                    Value::String(text) => argv.push(format!("{flag}={text}")),
                    other => argv.push(format!("{flag}={other}")),
                }
            }
        }
        let first_line = |e: clap::Error| e.to_string().lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
        let matches = Self::augment_args(clap::Command::new("settings")).try_get_matches_from(argv).map_err(first_line)?;
        Self::from_arg_matches(&matches).map_err(first_line)
    }
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// The Python package's keywords read as the CLI's flags: names, checks and defaults.
    #[test]
    fn flag_keywords_read_as_the_cli_flags() {
        let read = |keywords: serde_json::Value| Settings::from_flags(keywords.as_object().unwrap());
        let keywords = serde_json::json!({"beam_width": 3, "no_prose_reader": true, "languages": ["EN", "fr"], "order": "score", "redundancy": null, "length_weight": -0.5});
        let s = read(keywords).unwrap();
        assert_eq!((s.beam_width, s.prose_reader, s.order, s.redundancy, s.length_weight), (3, false, Order::Score, None, -0.5));
        assert_eq!(s.languages, ["en", "fr"]);
        let defaults = read(serde_json::json!({})).unwrap();
        assert_eq!(serde_json::to_value(&defaults).unwrap(), serde_json::to_value(Settings::default()).unwrap());
        assert!(read(serde_json::json!({"languages": ["spanish"]})).unwrap_err().contains("not an ISO 639-1 language code"));
        assert!(read(serde_json::json!({"beam_mode": "paper"})).unwrap().beam_mode == BeamMode::Paper);
        assert!(Settings::flag_names().contains(&"no_prose_reader".to_string()));
    }
}
