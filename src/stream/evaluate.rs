//! Replaying a judged event through a policy and scoring the updates.

use super::engine::{Action, Decision, Engine, Policy, SentenceInput, StateConfig};
use super::metrics::{self, ScoredUpdate, Scores};
use crate::encoder::Embedding;

/// An event ready to replay: documents in time order, each sentence with the
/// nuggets it matches.
#[derive(Clone, Debug)]
pub struct LabeledStream {
    pub name: String,
    pub query: Option<Embedding>,
    pub documents: Vec<LabeledDocument>,
    /// Timestamp of each nugget of the event.
    pub nugget_times: Vec<i64>,
}

#[derive(Clone, Debug)]
pub struct LabeledDocument {
    pub time: i64,
    pub sentences: Vec<SentenceInput>,
    /// For each sentence, indices of the nuggets it matches.
    pub nuggets: Vec<Vec<usize>>,
}

impl LabeledStream {
    /// Nuggets of each sentence in stream order (the engine's sentence ids).
    pub fn sentence_nuggets(&self) -> Vec<&[usize]> {
        self.documents.iter().flat_map(|d| d.nuggets.iter().map(Vec::as_slice)).collect()
    }

    pub fn sentence_count(&self) -> usize {
        self.documents.iter().map(|d| d.sentences.len()).sum()
    }
}

/// The updates of one replay (stream sentence id, selection time) and scores.
#[derive(Clone, Debug)]
pub struct Run {
    pub updates: Vec<(usize, i64)>,
    pub scores: Scores,
}

/// Replays `stream` through `policy` and scores the updates.
pub fn replay<P: Policy>(policy: P, stream: &LabeledStream, config: StateConfig) -> Run {
    let mut engine = Engine::new(policy, stream.query, config);
    let mut selected = Vec::new();
    let mut keep = |decisions: Vec<Decision>| {
        selected.extend(decisions.iter().filter(|d| d.action == Action::Select).map(|d| (d.sentence, d.time)));
    };
    for doc in &stream.documents {
        keep(engine.push_document(doc.time, &doc.sentences));
    }
    keep(engine.finish());
    let scores = score_updates(stream, &selected);
    Run { updates: selected, scores }
}

/// TREC-TS scores of updates given as (stream sentence id, selection time).
pub fn score_updates(stream: &LabeledStream, updates: &[(usize, i64)]) -> Scores {
    score_selected(&stream.sentence_nuggets(), &stream.nugget_times, updates)
}

/// TREC-TS scores of updates given as (stream sentence id, selection
/// time), from each sentence's nuggets and each nugget's time alone.
pub fn score_selected(sentence_nuggets: &[&[usize]], nugget_times: &[i64], updates: &[(usize, i64)]) -> Scores {
    let scored: Vec<ScoredUpdate> =
        updates.iter().map(|&(id, time)| ScoredUpdate { time, nuggets: sentence_nuggets[id] }).collect();
    metrics::score(&scored, nugget_times)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::stream::cos::Cos;
    use crate::stream::engine::tests::{axis, between, input};

    /// Three documents an hour apart; nuggets 0 (t=0) and 1 (t=2 h).
    pub fn tiny_stream() -> LabeledStream {
        let doc = |time: i64, sentences: Vec<SentenceInput>, nuggets: Vec<Vec<usize>>| LabeledDocument {
            time,
            sentences,
            nuggets,
        };
        LabeledStream {
            name: "tiny".into(),
            query: Some(axis(0)),
            documents: vec![
                doc(0, vec![input(axis(0)), input(axis(1))], vec![vec![0], vec![1]]),
                doc(3600, vec![input(between(0, 1, 0.9))], vec![vec![0]]),
                doc(7200, vec![input(axis(2))], vec![vec![1]]),
            ],
            nugget_times: vec![0, 7200],
        }
    }

    #[test]
    fn cos_run_on_a_tiny_stream() {
        // COS at 0.8 selects sentence 0, skips 1 (not first) and 2 (0.9 to
        // update 1), selects 3 (axis 2): both nuggets, no delay.
        let run = replay(Cos { threshold: 0.8 }, &tiny_stream(), StateConfig::default());
        assert_eq!(run.updates, vec![(0, 0), (3, 7200)]);
        assert_eq!((run.scores.gain, run.scores.f1, run.scores.latency_f1), (2.0, 1.0, 1.0));
        // At 0.95 sentence 2 is also selected: 2 nuggets over 3 updates.
        let run = replay(Cos { threshold: 0.95 }, &tiny_stream(), StateConfig::default());
        assert_eq!(run.updates.len(), 3);
        assert!((run.scores.expected_gain - 2.0 / 3.0).abs() < 1e-12);
    }
}
