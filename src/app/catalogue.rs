//! What the settings panel offers, as data: the methods (from
//! `Method::ALL`, so a method added to the core shows up by itself) with a
//! label, a one-line explanation and the knobs they use.

use crate::summarize::Method;

/// A setting a method may use (the budget and the order apply to all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    /// n: leading sentences per article that may be picked.
    FirstSentences,
    /// B: beam width.
    BeamWidth,
    /// T: misses the greedy search tolerates.
    GreedyCandidates,
    BeamMode,
    Redundancy,
    /// The reference summary is required, not only used for ROUGE.
    Reference,
    /// A topic description (MMR, TBMMR).
    Topic,
    /// λ: relevance against redundancy (MMR, TBMMR).
    Lambda,
    /// μ: weight of the position score (TBMMR).
    Mu,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MethodInfo {
    pub method: Method,
    /// The value used on the wire and on the command line.
    pub name: &'static str,
    pub label: String,
    pub help: String,
    pub knobs: Vec<Knob>,
}

impl MethodInfo {
    pub fn uses(&self, knob: Knob) -> bool {
        self.knobs.contains(&knob)
    }
}

/// Every method of the core, in the core's order.
pub fn methods() -> Vec<MethodInfo> {
    Method::ALL.iter().map(|&m| describe(m)).collect()
}

pub fn describe(method: Method) -> MethodInfo {
    use Knob::*;
    let name = method.name();
    let (label, help, knobs): (&str, &str, &[Knob]) = match name {
        "gg" => (
            "Greedy",
            "Adds, one at a time, the sentence that brings the summary closest to the articles' centroid.",
            &[FirstSentences, Redundancy],
        ),
        "bs" => (
            "Beam search",
            "Keeps the B best partial summaries at every step instead of only one.",
            &[FirstSentences, BeamWidth, BeamMode, Redundancy],
        ),
        "bs+gs" => (
            "Beam + greedy",
            "Beam search, then a greedy pass that fills each beam's leftover budget (the paper's method).",
            &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy],
        ),
        "oracle" => (
            "Oracle (reference centroid)",
            "Beam + greedy aimed at your reference summary's centroid: an upper bound to compare with.",
            &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy, Reference],
        ),
        "location" => (
            "Location",
            "Takes the first sentences of the articles and their paragraphs: the news lead baseline.",
            &[FirstSentences, Redundancy],
        ),
        "mmr" => (
            "MMR",
            "Maximal marginal relevance: sentences close to the topic and unlike those already picked.",
            &[FirstSentences, Redundancy, Topic, Lambda],
        ),
        "tbmmr" => (
            "Topic-based MMR",
            "MMR on the topic and the other events the articles report, with sentence dates and positions; can order the summary by date.",
            &[FirstSentences, Redundancy, Topic, Lambda, Mu],
        ),
        "cera" => (
            "CeRA (learned centroid)",
            "Beam + greedy aimed at a centroid estimated by a trained attention head over the sentences.",
            &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy],
        ),
        "cerai" => (
            "CeRAI (learned + mean centroid)",
            "Beam + greedy aimed at the learned centroid blended with the mean centroid by a learned share α.",
            &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy],
        ),
        // A method the app does not know yet: show it with every knob.
        _ => ("", "", &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy]),
    };
    let label = if label.is_empty() { name.to_uppercase() } else { label.to_string() };
    let help = if help.is_empty() { format!("The {name} method.") } else { help.to_string() };
    let mut knobs = knobs.to_vec();
    if method.needs_reference() && !knobs.contains(&Reference) {
        knobs.push(Reference);
    }
    MethodInfo { method, name, label, help, knobs }
}

/// One-line explanations of the other settings, shown under each control.
pub mod help {
    pub const BUDGET: &str = "How long the summary may be: words (100 is the DUC standard), sentences, or a share of all the text.";
    pub const FIRST_SENTENCES: &str = "n — only the first n sentences of each article are candidates; news puts the essentials first.";
    pub const BEAM_WIDTH: &str = "B — how many partial summaries the beam keeps at every step.";
    pub const GREEDY_CANDIDATES: &str = "T — the greedy pass gives up after this many too-long sentences in a row.";
    pub const BEAM_MODE: &str = "Fill proposes only sentences that still fit; Paper follows the published algorithm step by step.";
    pub const REDUNDANCY: &str = "Skip a sentence this similar (cosine) to one already picked; off keeps the paper's behaviour.";
    pub const ORDER: &str = "How the picked sentences are listed: as in the articles, by date, or in the order they were picked.";
    pub const TOPIC: &str = "What the summary is about, in a sentence or two; empty uses the earliest article's headline and first sentence.";
    pub const LAMBDA: &str = "λ — near 1 favours sentences close to the topic, near 0 sentences unlike those already picked.";
    pub const MU: &str = "μ — weight of a sentence's position: the first sentences of articles and paragraphs score highest.";
    pub const REFERENCE: &str = "Optional: a summary written by you. Enables ROUGE scores and the oracle method.";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_method_is_offered_with_words_and_knobs() {
        let methods = methods();
        assert_eq!(methods.len(), Method::ALL.len());
        for info in &methods {
            assert_eq!(info.name.parse::<Method>().unwrap(), info.method);
            assert!(!info.label.is_empty() && info.help.ends_with('.'), "{info:?}");
            assert!(info.uses(Knob::FirstSentences));
        }
    }

    #[test]
    fn knobs_follow_what_each_method_does() {
        assert!(!describe(Method::Greedy).uses(Knob::BeamWidth));
        assert!(describe(Method::Beam).uses(Knob::BeamWidth) && !describe(Method::Beam).uses(Knob::GreedyCandidates));
        assert!(describe(Method::BeamGreedy).uses(Knob::GreedyCandidates));
        assert!(describe(Method::Oracle).uses(Knob::Reference));
        assert!(!describe(Method::BeamGreedy).uses(Knob::Reference));
        assert!(describe(Method::Tbmmr).uses(Knob::Mu) && !describe(Method::Mmr).uses(Knob::Mu));
        assert!(describe(Method::Mmr).uses(Knob::Topic) && !describe(Method::Location).uses(Knob::Topic));
    }
}
