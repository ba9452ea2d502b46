//! State features of the learned policy (`docs/design/streaming.md`): all computed from
//! embeddings and the incremental stream state, so they work in a browser.

use super::engine::{StreamSentence, StreamState};

/// Features before the interactions with query similarity.
const BASE: [&str; 13] = [
    "bias",
    "log_length",
    "first_sentence",
    "log_position",
    "query_similarity",
    "centroid_similarity",
    "document_similarity",
    "max_update_similarity",
    "mean_update_similarity",
    "no_updates",
    "stream_novelty",
    "arrival_change",
    "log_updates",
];

/// Index of query similarity in the base features: every base feature but
/// the bias is also multiplied by it (itself included: a quadratic term).
const QUERY: usize = 4;

/// Number of features: the base ones, then each non-bias base feature times
/// query similarity.
pub const COUNT: usize = 2 * BASE.len() - 1;

pub type Features = [f32; COUNT];

/// Names in feature order (stored beside trained weights).
pub fn names() -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
    names.extend(interacted().map(|i| format!("{}*query_similarity", BASE[i])));
    names
}

fn interacted() -> impl Iterator<Item = usize> {
    1..BASE.len()
}

/// The features of deciding `sentence` in `state` (before it is observed).
pub fn extract(state: &StreamState, sentence: &StreamSentence) -> Features {
    let e = &sentence.embedding;
    let updates = state.update_similarities(e);
    let base = [
        1.0,
        // ln(1 + words) / ln(101): about 1 for a 100-word sentence.
        (1.0 + sentence.words as f32).ln() / 101f32.ln(),
        (sentence.position == 0) as u8 as f32,
        (1.0 + sentence.position as f32).ln() / 101f32.ln(),
        state.query_similarity(e),
        state.centroid_similarity(e),
        state.document_similarity(e),
        updates.map_or(0.0, |(max, _)| max),
        updates.map_or(0.0, |(_, mean)| mean),
        updates.is_none() as u8 as f32,
        state.novelty(e),
        state.arrival_change(),
        // How many updates there already are: lets the policy grow terser.
        (1.0 + state.updates().len() as f32).ln() / 101f32.ln(),
    ];
    let mut features = [0f32; COUNT];
    features[..BASE.len()].copy_from_slice(&base);
    for (slot, i) in features[BASE.len()..].iter_mut().zip(interacted()) {
        *slot = base[i] * base[QUERY];
    }
    features
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::engine::tests::{axis, between, input};
    use crate::stream::engine::StateConfig;

    #[test]
    fn names_match_the_feature_count() {
        let names = names();
        assert_eq!(names.len(), COUNT);
        assert_eq!(names[13], "log_length*query_similarity");
        assert_eq!(names[16], "query_similarity*query_similarity");
        assert_eq!(names[COUNT - 1], "log_updates*query_similarity");
    }

    #[test]
    fn features_of_a_hand_made_state() {
        let mut state = StreamState::new(Some(axis(0)), StateConfig::default());
        state.open_document(0, [&axis(1)]);
        let first = state.admit(&input(axis(1)));
        state.add_update(&first, 0);
        state.observe(&first);
        state.open_document(60, [&between(0, 1, 0.6), &axis(0)]);
        let _skipped = state.admit(&input(between(0, 1, 0.6)));
        let mut sentence = state.admit(&input(between(0, 1, 0.6)));
        sentence.words = 100;
        let f = extract(&state, &sentence);
        assert!((f[1] - 1.0).abs() < 1e-6, "log length");
        assert_eq!(f[2], 0.0, "second sentence is not first");
        assert!((f[3] - 2f32.ln() / 101f32.ln()).abs() < 1e-6);
        assert!((f[4] - 0.6).abs() < 1e-6, "query similarity");
        assert!((f[5] - 0.8).abs() < 1e-6, "centroid is axis 1");
        // Document centroid (0.6, 0.8) + (1, 0) normalized: (1.6, 0.8)/√3.2.
        let doc = (0.6 * 1.6 + 0.8 * 0.8) / 3.2f32.sqrt();
        assert!((f[6] - doc).abs() < 1e-6);
        assert!((f[7] - 0.8).abs() < 1e-6 && (f[8] - 0.8).abs() < 1e-6);
        assert_eq!(f[9], 0.0, "there is an update");
        assert!((f[10] - 0.2).abs() < 1e-6, "novelty against axis 1");
        assert!((f[11] - 3f32.ln()).abs() < 1e-6, "two arrivals in the last hour, none before");
        assert!((f[12] - 2f32.ln() / 101f32.ln()).abs() < 1e-6, "one update");
        assert!((f[13] - 0.6).abs() < 1e-6, "log length times query similarity");
        assert!((f[16] - 0.36).abs() < 1e-6, "query similarity squared");
    }
}
