//! What the settings panel offers: the core registry's methods and policies
//! (`crate::registry`, so a method added to the core shows up by itself)
//! and the one-line help of the other settings.

pub use crate::registry::{method as describe, methods, policies, policy, Knob, MethodInfo, PolicyInfo};

/// One-line explanations of the other settings, shown under each control.
pub mod help {
    pub const BUDGET: &str = "How long the summary may be: words (100 is the DUC standard; in Chinese, Japanese, Korean or Thai, the characters that say as much as an English word, and in Vietnamese the syllables), sentences, or a share of all the text.";
    pub const FIRST_SENTENCES: &str = "n — only the first n prose sentences of each article (its furniture not counted) are candidates; news puts the essentials first.";
    pub const BEAM_WIDTH: &str = "B — how many partial summaries the beam keeps at every step.";
    pub const GREEDY_CANDIDATES: &str = "T — the greedy pass gives up after this many too-long sentences in a row.";
    pub const BEAM_MODE: &str = "Fill proposes only sentences that still fit; Paper follows the published algorithm step by step.";
    pub const REDUNDANCY: &str = "Skip a sentence this similar (cosine) to one already picked; off keeps the paper's behaviour.";
    pub const ORDER: &str = "How the picked sentences are listed: as in the articles, by date, or in the order they were picked.";
    pub const TOPIC: &str = "What the summary is about, in a sentence or two; empty uses the earliest article's headline and first sentence.";
    pub const QUESTION: &str = "Optional: a question or topic the summary should answer, in any language. It also steers the timeline.";
    pub const TOPIC_WEIGHT: &str = "How far the question pulls the centroid: 0 ignores it, 1 aims at the question alone.";
    pub const LANGUAGES: &str = "Only sentences in the checked languages are picked; every article still shapes the centroid. None checked: any language.";
    pub const LAMBDA: &str = "λ — near 1 favours sentences close to the topic, near 0 sentences unlike those already picked.";
    pub const MU: &str = "μ — weight of a sentence's position: the first sentences of articles and paragraphs score highest.";
    pub const REFERENCE: &str = "Optional: a summary written by you. Enables ROUGE scores and the oracle method.";
}
