//! The position score of TBMMR's formula (3) and the Location baseline that
//! ranks sentences by it alone: a document's and a paragraph's first
//! sentences win, later ones score less.
//!
//! ```text
//! Pos(s) = 0.5 · (L_doc − No_doc + 1) / L_doc + 0.5 · (L_par − No_par + 1) / L_par
//! ```
//!
//! L: sentences in the document / paragraph; No: the sentence's 1-based
//! index in it. A headline is the document's title, not a sentence, so it
//! takes no position.

use super::mmr::{Mmr, Variant, Weights};
use super::topic::SentenceTime;
use crate::document::Cluster;
use std::collections::HashMap;

/// Formula (3) for every sentence of the cluster (indexed by sentence id).
pub fn position_scores(cluster: &Cluster) -> Vec<f32> {
    let mut in_document: HashMap<usize, usize> = HashMap::new();
    let mut in_paragraph: HashMap<(usize, usize), usize> = HashMap::new();
    for s in &cluster.sentences {
        *in_document.entry(s.doc).or_default() += 1;
        *in_paragraph.entry((s.doc, s.para)).or_default() += 1;
    }
    let mut seen_in_paragraph: HashMap<(usize, usize), usize> = HashMap::new();
    cluster
        .sentences
        .iter()
        .map(|s| {
            let number_in_paragraph = seen_in_paragraph.entry((s.doc, s.para)).or_default();
            *number_in_paragraph += 1;
            let document_part = share_from_start(s.index + 1, in_document[&s.doc]);
            let paragraph_part = share_from_start(*number_in_paragraph, in_paragraph[&(s.doc, s.para)]);
            0.5 * document_part + 0.5 * paragraph_part
        })
        .collect()
}

/// (L − No + 1) / L: 1 for the first of L, 1/L for the last.
fn share_from_start(number: usize, count: usize) -> f32 {
    (count + 1 - number) as f32 / count as f32
}

/// The Location baseline: the position score only; ties keep input order.
/// `times` only label the trace.
pub fn location(positions: Vec<f32>, times: Vec<SentenceTime>) -> Mmr {
    Mmr {
        variant: Variant::Location,
        query: vec![],
        times,
        positions,
        weights: Weights::position_only(),
        gamma: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::select::testing::unit;
    use crate::select::{Problem, Selector};

    /// Document 0: paragraphs of 3 and 1 sentences; document 1: one sentence.
    fn cluster() -> Cluster {
        Cluster::new(vec![
            Document::new("a", "One here. Two here. Three here.\n\nFour here."),
            Document::new("b", "Alone here."),
        ])
    }

    #[test]
    fn formula_three_by_hand() {
        let c = cluster();
        let paragraphs: Vec<(usize, usize)> = c.sentences.iter().map(|s| (s.doc, s.para)).collect();
        assert_eq!(paragraphs, vec![(0, 0), (0, 0), (0, 0), (0, 1), (1, 0)]);
        let expected = [
            0.5 * 4.0 / 4.0 + 0.5 * 3.0 / 3.0, // first of both: 1
            0.5 * 3.0 / 4.0 + 0.5 * 2.0 / 3.0, // 0.7083
            0.5 * 2.0 / 4.0 + 0.5 * 1.0 / 3.0, // 0.4167
            0.5 * 1.0 / 4.0 + 0.5 * 1.0 / 1.0, // last of the document, first of its paragraph: 0.625
            1.0,
        ];
        let scores = position_scores(&c);
        for (got, want) in scores.iter().zip(expected) {
            assert!((got - want).abs() < 1e-6, "{scores:?}");
        }
    }

    #[test]
    fn location_picks_leading_sentences_to_the_budget() {
        let c = cluster();
        let embeddings: Vec<_> = (0..5).map(|i| unit(&[(i, 1.0)])).collect();
        let centroid = vec![1.0; crate::encoder::DIM];
        let problem = Problem {
            embeddings: &embeddings,
            candidates: &[0, 1, 2, 3, 4],
            costs: &[2, 2, 2, 2, 2],
            limit: 6,
            centroid: &centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        };
        let times = vec![SentenceTime::Unknown; 5];
        // Scores 1, 0.708, 0.417, 0.625, 1: both leads (tie: input order), then 1.
        let selection = location(position_scores(&c), times).select(&problem);
        assert_eq!(selection.sentences, vec![0, 4, 1]);
    }
}
