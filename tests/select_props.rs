//! Property tests of every selector through `summarize`: on random clusters
//! (random sentence lengths, random embeddings, random budgets) the summary
//! never exceeds its budget, never repeats a sentence, only uses candidates,
//! and is the same when computed twice.

use precis::document::{Cluster, Document};
use precis::encoder::{Embedding, DIM};
use precis::select::beam::BeamMode;
use precis::summarize::{summarize, Budget, Method, Settings, SummaryRequest};
use proptest::prelude::*;

const WORDS: [&str; 8] = ["storm", "coast", "river", "village", "mayor", "rescue", "bridge", "market"];

/// A document of sentences with the given word counts.
fn document(index: usize, lengths: &[usize]) -> Document {
    let text: Vec<String> = lengths
        .iter()
        .enumerate()
        .map(|(s, &n)| {
            let words: Vec<&str> = (0..n).map(|w| WORDS[(index + s + w) % WORDS.len()]).collect();
            let mut sentence = words.join(" ");
            sentence[..1].make_ascii_uppercase();
            sentence + "."
        })
        .collect();
    Document { lang: Some("en".into()), ..Document::new(format!("d{index}"), text.join(" ")) }
}

/// A deterministic pseudo-random unit vector from a seed (xorshift).
fn embedding(seed: u64) -> Embedding {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut e = [0f32; DIM];
    for x in e.iter_mut() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *x = (state % 2001) as f32 / 1000.0 - 1.0;
    }
    let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    e.iter_mut().for_each(|x| *x /= norm);
    e
}

fn methods() -> Vec<(Method, BeamMode)> {
    vec![
        (Method::Greedy, BeamMode::Fill),
        (Method::Beam, BeamMode::Fill),
        (Method::BeamGreedy, BeamMode::Fill),
        (Method::Beam, BeamMode::Paper),
        (Method::BeamGreedy, BeamMode::Paper),
        (Method::Mmr, BeamMode::Fill),
        (Method::Tbmmr, BeamMode::Fill),
        (Method::Location, BeamMode::Fill),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn selections_keep_the_budget_never_repeat_and_are_deterministic(
        docs in prop::collection::vec(prop::collection::vec(1usize..30, 1..12), 1..6),
        seed in any::<u64>(),
        budget in 1usize..150,
        width in 1usize..7,
        in_sentences in any::<bool>(),
    ) {
        let cluster = Cluster::new(docs.iter().enumerate().map(|(i, lengths)| document(i, lengths)).collect());
        let embeddings: Vec<Embedding> =
            (0..cluster.sentences.len()).map(|i| embedding(seed ^ (i as u64 + 1))).collect();
        let budget = if in_sentences { Budget::Sentences(1 + budget % 6) } else { Budget::Words(budget) };
        for (method, beam_mode) in methods() {
            let settings = Settings { method, budget, beam_mode, beam_width: width, ..Settings::default() };
            let summary = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings)).unwrap();
            let cost: usize = match budget {
                Budget::Sentences(_) => summary.sentences.len(),
                _ => summary.sentences.iter().map(|&s| cluster.sentences[s].words).sum(),
            };
            prop_assert!(cost <= summary.limit, "{method:?}/{beam_mode:?}: cost {cost} > limit {}", summary.limit);
            prop_assert_eq!(cost, summary.cost, "{:?}: reported cost", method);
            let mut ids = summary.sentences.clone();
            ids.sort_unstable();
            ids.dedup();
            prop_assert_eq!(ids.len(), summary.sentences.len(), "{:?}: a sentence twice", method);
            prop_assert!(summary.sentences.iter().all(|s| summary.candidates.contains(s)), "{:?}: not a candidate", method);
            let again = summarize(&SummaryRequest::new(&cluster, &embeddings, &settings)).unwrap();
            prop_assert_eq!(&again.sentences, &summary.sentences, "{:?}: not deterministic", method);
        }
    }
}
