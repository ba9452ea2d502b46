//! The one registry of what Précis can run: every summary method and every
//! streaming policy with its name, label, one-line help and the knobs it
//! uses. The CLI's help, the app's method and policy menus and its
//! settings panel all read it; nothing matches method names as strings.
//! Defaults live in `Settings::default()` and `StreamSettings`.

use crate::stream::PolicyKind;
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
    /// A topic description or question (MMR, TBMMR compare with it; the
    /// centroid methods are steered by it).
    Topic,
    /// w: how far the topic pulls the centroid (the centroid methods).
    TopicWeight,
    /// λ: relevance against redundancy (MMR, TBMMR).
    Lambda,
    /// μ: weight of the position score (TBMMR).
    Mu,
}

/// A summary method as users meet it.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodInfo {
    pub method: Method,
    /// The value used on the wire and on the command line.
    pub name: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub knobs: &'static [Knob],
}

impl MethodInfo {
    pub fn uses(&self, knob: Knob) -> bool {
        self.knobs.contains(&knob)
    }
}

/// Every method, in the core's order.
pub fn methods() -> impl Iterator<Item = MethodInfo> {
    Method::ALL.into_iter().map(method)
}

pub fn method(method: Method) -> MethodInfo {
    use Knob::*;
    const BEAM: &[Knob] = &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy, Topic, TopicWeight];
    let (label, help, knobs): (&str, &str, &'static [Knob]) = match method {
        Method::Greedy => (
            "Greedy",
            "Adds, one at a time, the sentence that brings the summary closest to the articles' centroid.",
            &[FirstSentences, Redundancy, Topic, TopicWeight],
        ),
        Method::Beam => (
            "Beam search",
            "Keeps the B best partial summaries at every step instead of only one.",
            &[FirstSentences, BeamWidth, BeamMode, Redundancy, Topic, TopicWeight],
        ),
        Method::BeamGreedy => (
            "Beam + greedy",
            "Beam search, then a greedy pass that fills each beam's leftover budget (the paper's method).",
            BEAM,
        ),
        Method::Oracle => (
            "Oracle (reference centroid)",
            "Beam + greedy aimed at your reference summary's centroid: an upper bound to compare with.",
            &[FirstSentences, BeamWidth, GreedyCandidates, BeamMode, Redundancy, Reference, Topic, TopicWeight],
        ),
        Method::Location => (
            "Location",
            "Takes the first sentences of the articles and their paragraphs: the news lead baseline.",
            &[FirstSentences, Redundancy],
        ),
        Method::Mmr => (
            "MMR",
            "Maximal marginal relevance: sentences close to the topic and unlike those already picked.",
            &[FirstSentences, Redundancy, Topic, Lambda],
        ),
        Method::Tbmmr => (
            "Topic-based MMR",
            "MMR on the topic and the other events the articles report, with sentence dates and positions; can order the summary by date.",
            &[FirstSentences, Redundancy, Topic, Lambda, Mu],
        ),
        Method::Cera => (
            "CeRA (learned centroid)",
            "Beam + greedy aimed at a centroid estimated by a trained attention head over the sentences.",
            BEAM,
        ),
        Method::Cerai => (
            "CeRAI (learned + mean centroid)",
            "Beam + greedy aimed at the learned centroid blended with the mean centroid by a learned share α.",
            BEAM,
        ),
    };
    MethodInfo { method, name: method.name(), label, help, knobs }
}

/// A streaming policy as users meet it.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyInfo {
    pub kind: PolicyKind,
    pub name: &'static str,
    pub label: &'static str,
    pub help: &'static str,
}

/// Every policy, in menu order.
pub fn policies() -> impl Iterator<Item = PolicyInfo> {
    PolicyKind::ALL.into_iter().map(policy)
}

pub fn policy(kind: PolicyKind) -> PolicyInfo {
    let (label, help) = match kind {
        PolicyKind::LsCos => (
            "LS + COS (learned, then redundancy check)",
            "A linear policy trained on TREC-TS 2013 scores every sentence from its state (similarity to the query, the updates, the stream); what it selects must also be less similar than the threshold to every earlier update.",
        ),
        PolicyKind::Ls => (
            "LS (learned policy)",
            "The learned policy alone: it selects a sentence when its predicted cost of skipping exceeds that of selecting. It has no threshold.",
        ),
        PolicyKind::Cos => (
            "COS (first sentences, redundancy threshold)",
            "Looks only at each article's first sentence and selects it when its cosine to every earlier update is below the threshold.",
        ),
        PolicyKind::Apsal => (
            "APSAL (clusters per hour window)",
            "Waits until each hour window closes, clusters its sentences (affinity propagation, preference from similarity to the query) and selects exemplars below the threshold to earlier updates, timed at the window's close.",
        ),
    };
    PolicyInfo { kind, name: kind.name(), label, help }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_method_is_offered_with_words_and_knobs() {
        let methods: Vec<MethodInfo> = methods().collect();
        assert_eq!(methods.len(), Method::ALL.len());
        for info in &methods {
            assert_eq!(info.name.parse::<Method>().unwrap(), info.method);
            assert!(!info.label.is_empty() && info.help.ends_with('.'), "{info:?}");
            assert!(info.uses(Knob::FirstSentences));
            assert_eq!(info.uses(Knob::Reference), info.method.needs_reference(), "{info:?}");
            // A topic is compared with (MMR, TBMMR) or steers the centroid.
            assert_eq!(info.uses(Knob::Topic), info.method.uses_topic() || info.method.steerable(), "{info:?}");
            assert_eq!(info.uses(Knob::TopicWeight), info.method.steerable(), "{info:?}");
        }
    }

    #[test]
    fn knobs_follow_what_each_method_does() {
        assert!(!method(Method::Greedy).uses(Knob::BeamWidth));
        assert!(method(Method::Beam).uses(Knob::BeamWidth) && !method(Method::Beam).uses(Knob::GreedyCandidates));
        assert!(method(Method::BeamGreedy).uses(Knob::GreedyCandidates));
        assert!(method(Method::Oracle).uses(Knob::Reference));
        assert!(!method(Method::BeamGreedy).uses(Knob::Reference));
        assert!(method(Method::Tbmmr).uses(Knob::Mu) && !method(Method::Mmr).uses(Knob::Mu));
        assert!(method(Method::Mmr).uses(Knob::Topic) && !method(Method::Location).uses(Knob::Topic));
    }

    #[test]
    fn every_policy_is_offered_with_words() {
        let policies: Vec<PolicyInfo> = policies().collect();
        assert_eq!(policies.len(), PolicyKind::ALL.len());
        for info in &policies {
            assert_eq!(info.name.parse::<PolicyKind>().unwrap(), info.kind);
            assert!(info.label.starts_with(&info.name.to_uppercase().replace('+', " + ")), "{info:?}");
            assert!(info.help.ends_with('.'), "{info:?}");
        }
    }
}
