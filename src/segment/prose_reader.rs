//! The prose reader: the second look at what the segmentation rules
//! (`furniture`) let through, once the sentences are embedded.
//!
//! What the rules miss reads as prose to every form signal: captions
//! written as sentences ("The cabin of a Qatar Airways plane."), headlines
//! that end in a full stop, video and book blurbs, readers' comments. Their
//! meaning gives them away, and the multilingual embedding carries meaning
//! across the 16 languages, so a logistic regression over the embedding and
//! five form features reads them (trained by `models/furniture/train.py` on
//! the lines judged by hand in `docs/results/furniture-judged*.tsv`, English,
//! Spanish and French pages; `models/furniture/reader.json`).
//!
//! The reader only ever removes candidates: the sentence stays in the
//! cluster, counts in the centroid like any furniture, and is reported with
//! [`REASON`]. The threshold is set for precision (most of what it flags is
//! junk), since a prose sentence wrongly flagged costs a summary its line.

use crate::encoder::{Embedding, DIM};
use serde::Deserialize;
use std::sync::OnceLock;

/// Why a sentence the reader flagged is not a candidate.
pub const REASON: &str = "page furniture: reads like a caption, headline or blurb (learned from labelled pages)";

/// The form features after the embedding, in `train.py`'s order.
const FORM_FEATURES: usize = 5;

#[derive(Debug, Deserialize)]
pub struct ProseReader {
    weights: Vec<f32>,
    bias: f32,
    threshold: f32,
}

impl ProseReader {
    pub fn from_json(json: &str) -> Result<Self, String> {
        let reader: ProseReader = serde_json::from_str(json).map_err(|e| format!("prose reader: {e}"))?;
        if reader.weights.len() != DIM + FORM_FEATURES {
            return Err(format!("prose reader: {} weights, expected {}", reader.weights.len(), DIM + FORM_FEATURES));
        }
        Ok(reader)
    }

    /// The reader shipped in the binary (models/furniture/reader.json), so
    /// the CLI, the Python package and the app's worker read alike.
    pub fn shipped() -> &'static ProseReader {
        static SHIPPED: OnceLock<ProseReader> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            ProseReader::from_json(include_str!("../../models/furniture/reader.json")).expect("the shipped prose reader loads")
        })
    }

    /// The probability that the sentence is page furniture.
    pub fn junk_probability(&self, text: &str, embedding: &Embedding) -> f32 {
        let (on_embedding, on_form) = self.weights.split_at(DIM);
        let score: f32 = self.bias
            + on_embedding.iter().zip(embedding.iter()).map(|(w, x)| w * x).sum::<f32>()
            + on_form.iter().zip(form_features(text)).map(|(w, x)| w * x).sum::<f32>();
        1.0 / (1.0 + (-score).exp())
    }

    pub fn reads_as_furniture(&self, text: &str, embedding: &Embedding) -> bool {
        self.junk_probability(text, embedding) >= self.threshold
    }

    /// The unit embedding the reader finds most like furniture (for tests
    /// that need a sentence it flags without running the encoder).
    #[cfg(test)]
    pub(crate) fn most_furniture_like(&self) -> Embedding {
        let norm = self.weights[..DIM].iter().map(|w| w * w).sum::<f32>().sqrt();
        std::array::from_fn(|i| self.weights[i] / norm)
    }
}

/// ln(1 + words), ends like a sentence, ends in ':', the share of capitals
/// among letters, ends in '?' (as `train.py`'s `form_features`).
pub fn form_features(text: &str) -> [f32; FORM_FEATURES] {
    let text = text.trim_end();
    let last = text.chars().last();
    let is = |set: &str| last.is_some_and(|c| set.contains(c));
    let (letters, capitals) = text
        .chars()
        .filter(|c| c.is_alphabetic())
        .fold((0usize, 0usize), |(l, c), ch| (l + 1, c + usize::from(ch.is_uppercase())));
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    [
        (1.0 + text.split_whitespace().count() as f32).ln(),
        flag(is(".!?…»\"”’'。！？")),
        flag(is(":：")),
        if letters == 0 { 0.0 } else { capitals as f32 / letters as f32 },
        flag(is("?？")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_features_by_hand() {
        let [words, sentence, colon, capitals, question] = form_features("Who WON?  ");
        assert!((words - 3f32.ln()).abs() < 1e-6);
        assert_eq!((sentence, colon, question), (1.0, 0.0, 1.0));
        assert!((capitals - 4.0 / 6.0).abs() < 1e-6);
        assert_eq!(form_features("Lire aussi :")[2], 1.0);
        assert_eq!(form_features("«Ya basta»")[1], 1.0);
        assert_eq!(form_features("12 34"), [3f32.ln(), 0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_reader_reads_its_weights() {
        let mut weights = vec![0.0; DIM + FORM_FEATURES];
        weights[0] = 10.0; // embeddings pointing along dimension 0 are junk
        let json = serde_json::json!({"weights": weights, "bias": -5.0, "threshold": 0.85}).to_string();
        let reader = ProseReader::from_json(&json).unwrap();
        let mut along = [0f32; DIM];
        along[0] = 1.0;
        let mut across = [0f32; DIM];
        across[1] = 1.0;
        assert!(reader.reads_as_furniture("A caption", &along));
        assert!(!reader.reads_as_furniture("A caption", &across));
        assert!((reader.junk_probability("x", &across) - 1.0 / (1.0 + 5f32.exp())).abs() < 1e-6);
        assert!(ProseReader::from_json(r#"{"weights": [1.0], "bias": 0, "threshold": 0.5}"#).unwrap_err().contains("weights"));
    }

    /// The shipped reader loads and flags the kinds of line it was trained
    /// on only through the embedding: with a zero embedding a long sentence
    /// reads as prose.
    #[test]
    fn the_shipped_reader_loads() {
        let reader = ProseReader::shipped();
        assert!(reader.threshold > 0.5 && reader.threshold < 1.0);
        let zero = [0f32; DIM];
        assert!(!reader.reads_as_furniture("The council voted on Tuesday to close the old bridge for repairs until May.", &zero));
    }
}
