//! The prose reader: the second look at what the segmentation rules
//! (`furniture`) let through, once the sentences are embedded.
//!
//! What the rules miss reads as prose to every form signal: captions
//! written as sentences ("The cabin of a Qatar Airways plane."), headlines
//! that end in a full stop, video and book blurbs, readers' comments. Their
//! meaning gives them away, and the multilingual embedding carries meaning
//! across the 16 languages, so a logistic regression over the embedding,
//! five form features and six of the sentence's place in its page reads them
//! (trained by `models/furniture/train.py` on the lines judged by hand in
//! `docs/results/furniture-judged*.tsv`, English, Spanish and French pages;
//! `models/furniture/reader.json`).
//!
//! The place counts because furniture comes in runs: a caption sits between
//! a credit and a share widget, a link list's headlines between its label
//! and the next one. Of the judged lines the rules leave as prose, 30% of
//! the junk ones have furniture on both sides, against 4% of the prose ones.
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
/// The context features after the form features, in `train.py`'s order.
const CONTEXT_FEATURES: usize = 6;
/// Sentences either side that make a sentence's neighbourhood.
const NEIGHBOURHOOD: usize = 3;
/// What the reader reads of a sentence's place in its page.
pub type Context = [f32; CONTEXT_FEATURES];

#[derive(Debug, Deserialize)]
pub struct ProseReader {
    weights: Vec<f32>,
    bias: f32,
    threshold: f32,
}

impl ProseReader {
    pub fn from_json(json: &str) -> Result<Self, String> {
        let reader: ProseReader = serde_json::from_str(json).map_err(|e| format!("prose reader: {e}"))?;
        let expected = DIM + FORM_FEATURES + CONTEXT_FEATURES;
        if reader.weights.len() != expected {
            return Err(format!("prose reader: {} weights, expected {expected}", reader.weights.len()));
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

    /// The probability that the sentence is page furniture, given its
    /// place in its page ([`context_features`]).
    pub fn junk_probability(&self, text: &str, embedding: &Embedding, context: &Context) -> f32 {
        let (on_embedding, rest) = self.weights.split_at(DIM);
        let (on_form, on_context) = rest.split_at(FORM_FEATURES);
        let dot = |w: &[f32], x: &[f32]| w.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
        let score = self.bias + dot(on_embedding, embedding) + dot(on_form, &form_features(text)) + dot(on_context, context);
        1.0 / (1.0 + (-score).exp())
    }

    pub fn reads_as_furniture(&self, text: &str, embedding: &Embedding, context: &Context) -> bool {
        self.junk_probability(text, embedding, context) >= self.threshold
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

/// The sentence at `position` among its document's sentences, of which
/// `excluded` tells which the rules made furniture and `paragraphs` gives
/// each one's paragraph: the sentence before is furniture (or there is none),
/// the sentence after is furniture (or there is none), it is alone in its
/// paragraph, the share of furniture among up to [`NEIGHBOURHOOD`] sentences
/// either side, its relative position (0 first, 1 last), and no prose comes
/// before it (as `train.py`'s `context_features`).
pub fn context_features(excluded: &[bool], paragraphs: &[usize], position: usize) -> Context {
    let last = excluded.len() - 1;
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let neighbours: Vec<usize> =
        (position.saturating_sub(NEIGHBOURHOOD)..=(position + NEIGHBOURHOOD).min(last)).filter(|&p| p != position).collect();
    let furniture_near = neighbours.iter().filter(|&&p| excluded[p]).count() as f32 / neighbours.len().max(1) as f32;
    [
        flag(position == 0 || excluded[position - 1]),
        flag(position == last || excluded[position + 1]),
        flag(paragraphs.iter().filter(|&&p| p == paragraphs[position]).count() == 1),
        furniture_near,
        position as f32 / last.max(1) as f32,
        flag(excluded[..position].iter().all(|&e| e)),
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
        let mut weights = vec![0.0; DIM + FORM_FEATURES + CONTEXT_FEATURES];
        weights[0] = 10.0; // embeddings pointing along dimension 0 are junk
        weights[DIM + FORM_FEATURES] = 4.0; // and so, less, is what follows furniture
        let json = serde_json::json!({"weights": weights, "bias": -5.0, "threshold": 0.85}).to_string();
        let reader = ProseReader::from_json(&json).unwrap();
        let mut along = [0f32; DIM];
        along[0] = 1.0;
        let mut across = [0f32; DIM];
        across[1] = 1.0;
        let amid_prose = [0.0; CONTEXT_FEATURES];
        let after_furniture = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert!(reader.reads_as_furniture("A caption", &along, &amid_prose));
        assert!(!reader.reads_as_furniture("A caption", &across, &amid_prose));
        assert!((reader.junk_probability("x", &across, &amid_prose) - 1.0 / (1.0 + 5f32.exp())).abs() < 1e-6);
        assert!((reader.junk_probability("x", &across, &after_furniture) - 1.0 / (1.0 + 1f32.exp())).abs() < 1e-6);
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
        let amid_prose = context_features(&[false, false, false], &[0, 0, 1], 1);
        assert!(!reader.reads_as_furniture("The council voted on Tuesday to close the old bridge for repairs until May.", &zero, &amid_prose));
    }

    /// A page of eight sentences, the rules' furniture marked, checked by hand.
    #[test]
    fn context_features_by_hand() {
        //               0      1     2      3      4      5     6      7
        let excluded = [true, false, true, false, false, false, true, false];
        let paragraphs = [0, 1, 2, 2, 3, 3, 3, 4];
        // Sentence 1: furniture either side, alone in paragraph 1; of
        // sentences 0, 2, 3, 4, two are furniture; no prose before it.
        assert_eq!(context_features(&excluded, &paragraphs, 1), [1.0, 1.0, 1.0, 0.5, 1.0 / 7.0, 1.0]);
        // Sentence 4: prose either side, shares paragraph 3; of 1, 2, 3, 5,
        // 6, 7, two are furniture; prose came before it.
        assert_eq!(context_features(&excluded, &paragraphs, 4), [0.0, 0.0, 0.0, 2.0 / 6.0, 4.0 / 7.0, 0.0]);
        // The last sentence: nothing after it counts as furniture.
        assert_eq!(context_features(&excluded, &paragraphs, 7), [1.0, 1.0, 1.0, 1.0 / 3.0, 1.0, 0.0]);
        // The first sentence of a page: nothing before it, no prose before it.
        assert_eq!(context_features(&excluded, &paragraphs, 0)[..2], [1.0, 0.0]);
        assert_eq!(context_features(&excluded, &paragraphs, 0)[5], 1.0);
        // A page of one sentence.
        assert_eq!(context_features(&[false], &[0], 0), [1.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
    }
}
