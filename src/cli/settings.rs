//! Summary settings as command-line flags (the same struct the app edits;
//! every default is `Settings::default()`'s).

use precis::select::beam::BeamMode;
use precis::summarize::{Budget, Method, Order, Settings};

#[derive(clap::Args, Clone, Debug)]
pub struct SettingsArgs {
    /// Budget in words (default: 100, or the dataset's standard budget).
    #[arg(long)]
    pub budget: Option<usize>,
    /// Budget in sentences instead of words.
    #[arg(long, conflicts_with_all = ["budget", "budget_percent"])]
    pub budget_sentences: Option<usize>,
    /// Budget as a percentage of the input's words.
    #[arg(long, conflicts_with = "budget")]
    pub budget_percent: Option<f32>,
    /// n: candidates are the first n sentences of each document.
    #[arg(long, default_value_t = Settings::default().first_sentences)]
    pub first_sentences: usize,
    /// B: beam width.
    #[arg(long, default_value_t = Settings::default().beam_width)]
    pub beam_width: usize,
    /// T: sentences the greedy search may pass over when they do not fit.
    #[arg(long, default_value_t = Settings::default().greedy_candidates)]
    pub greedy_candidates: usize,
    /// fill (ours: beams only take sentences that fit, equal sets merge) or
    /// paper (as published: a beam freezes when its best sentence overflows).
    #[arg(long, value_enum, default_value = "fill")]
    pub beam_mode: BeamModeArg,
    /// Skip sentences more similar than this (cosine) to a picked one.
    #[arg(long)]
    pub redundancy: Option<f32>,
    /// Candidates at least this similar (cosine) to an earlier one are copies.
    #[arg(long, default_value_t = Settings::default().near_duplicate)]
    pub near_duplicate: f32,
    /// β: a sentence's embedding counts words^β in the summary's sum (0 = as published).
    #[arg(long, default_value_t = Settings::default().length_weight)]
    pub length_weight: f32,
    /// Let the sentences the prose reader reads as captions, headlines or
    /// blurbs be candidates: only the segmentation rules decide what is prose.
    #[arg(long)]
    pub no_prose_reader: bool,
    /// chronological: by article date; for tbmmr, by sentence time or grouped by day (the paper's order).
    #[arg(long, value_enum, default_value = "position")]
    pub order: OrderArg,
    /// λ (mmr, tbmmr): weight of relevance to the topic against redundancy with picked sentences.
    #[arg(long, default_value_t = Settings::default().lambda)]
    pub lambda: f32,
    /// μ (tbmmr): weight of the position score.
    #[arg(long, default_value_t = Settings::default().mu)]
    pub mu: f32,
    /// γ (tbmmr): share of time similarity in sentence similarity.
    #[arg(long, default_value_t = Settings::default().gamma)]
    pub gamma: f32,
    /// tbmmr: documents at least this relevant to the topic report its seed event.
    #[arg(long, default_value_t = Settings::default().seed_threshold)]
    pub seed_threshold: f32,
    /// Summary languages, comma-separated ISO 639-1 codes (e.g. en,fr): only
    /// their sentences are picked; every article still shapes the centroid.
    #[arg(long, value_delimiter = ',', value_parser = parse_language)]
    pub languages: Vec<String>,
}

/// An ISO 639-1 code: two letters, lowercased.
fn parse_language(code: &str) -> Result<String, String> {
    precis::summarize::language_code(code)
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum BeamModeArg {
    Fill,
    Paper,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum OrderArg {
    Position,
    Score,
    Chronological,
}

impl SettingsArgs {
    pub fn to_settings(&self, method: Method, default_words: usize) -> Settings {
        // clap's `conflicts_with` already refuses two budget flags at once.
        let budget = Budget::from_flags(self.budget, self.budget_sentences, self.budget_percent, default_words)
            .expect("clap allows one budget flag");
        Settings {
            method,
            budget,
            first_sentences: self.first_sentences,
            beam_width: self.beam_width,
            greedy_candidates: self.greedy_candidates,
            beam_mode: match self.beam_mode {
                BeamModeArg::Fill => BeamMode::Fill,
                BeamModeArg::Paper => BeamMode::Paper,
            },
            redundancy: self.redundancy,
            near_duplicate: self.near_duplicate,
            length_weight: self.length_weight,
            order: match self.order {
                OrderArg::Position => Order::Position,
                OrderArg::Score => Order::Score,
                OrderArg::Chronological => Order::Chronological,
            },
            lambda: self.lambda,
            mu: self.mu,
            gamma: self.gamma,
            seed_threshold: self.seed_threshold,
            topic: None,
            topic_weight: 0.0,
            languages: self.languages.clone(),
            prose_reader: !self.no_prose_reader,
        }
    }
}
