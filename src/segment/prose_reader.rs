//! The prose reader: the second look at what the segmentation rules
//! (`furniture`) let through, once the sentences are embedded.
//!
//! What the rules miss reads as prose to every form signal: captions
//! written as sentences ("The cabin of a Qatar Airways plane."), headlines
//! that end in a full stop, video and book blurbs, readers' comments. Their
//! meaning gives them away, and the multilingual embedding carries meaning
//! across the 16 languages, so a logistic regression over the embedding and
//! ten form features reads them (trained by `models/furniture/train.py` on
//! the lines judged by hand in `docs/results/furniture-judged*.tsv`, English,
//! Spanish and French pages, and on the dev pages of 16 languages in
//! `tests/fixtures/furniture/pages`; `models/furniture/reader.json`). It
//! decides only for the languages whose real pages it learned from by the
//! thousand (its `languages`); elsewhere the rules decide alone.
//!
//! The reader only ever removes candidates: the sentence stays in the
//! cluster, counts in the centroid like any furniture, and is reported with
//! [`REASON`]. The threshold is set for precision (most of what it flags is
//! junk), since a prose sentence wrongly flagged costs a summary its line.
//!
//! It says one thing more, for summaries only: a prose sentence it doubts
//! (a junk probability at or above its lower `summary_threshold`) stays
//! prose, inside its paragraph or alone, but is no summary line. A quoted
//! post, a slogan or a caption inside a paragraph is not furniture of the
//! page, yet makes a poor summary line, and the next best prose sentence
//! takes its place ([`Verdict`]).
//!
//! A second reader in the same format, the summary-line reader
//! ([`ProseReader::summary_lines`], `models/furniture/summary-reader.json`,
//! trained by `models/furniture/train_summary.py`), only doubts: it learned
//! from the judged summary lines alone what judges call junk in a summary
//! (headlines of other stories, captions written as sentences, slogans),
//! and acts in Spanish and French, where the prose reader's doubts left
//! summaries furthest from target.

use crate::encoder::{Embedding, DIM};
use serde::Deserialize;
use std::sync::OnceLock;

/// Why a sentence the reader flagged is not a candidate.
pub const REASON: &str = "page furniture: reads like a caption, headline or blurb (learned from labelled pages)";

/// Why prose the reader doubts as a summary line is no candidate.
pub const DOUBTED: &str = "no summary line: reads too much like a caption, headline or post (learned from labelled pages)";

/// The form features after the embedding, in `train.py`'s order.
pub const FORM_FEATURES: usize = 10;
/// The format `reader.json` is written in: version 2 counts words and
/// reads endings in every script, and gives each script family its own
/// intercept (version 1 counted spaces, so a Chinese or Thai sentence was
/// one word long, and it read every such sentence as furniture).
const FORMAT: &str = "precis-prose-reader/2";

#[derive(Debug, Deserialize)]
pub struct ProseReader {
    format: String,
    weights: Vec<f32>,
    bias: f32,
    threshold: f32,
    /// Junk probability from which prose is no summary line (at most
    /// `threshold`): chosen on Multi-News validation (`train.py`).
    summary_threshold: f32,
    /// The languages it decides for: those whose real pages it learned
    /// from by the thousand (judged summary lines). Elsewhere the rules
    /// decide alone: on the labelled pages of the other languages it took
    /// prose at every threshold that caught any junk (docs/results/furniture.md).
    languages: Vec<String>,
}

impl ProseReader {
    pub fn from_json(json: &str) -> Result<Self, String> {
        let reader: ProseReader = serde_json::from_str(json).map_err(|e| format!("prose reader: {e}"))?;
        if reader.format != FORMAT {
            return Err(format!("prose reader: format {:?}, expected {FORMAT:?}", reader.format));
        }
        if reader.weights.len() != DIM + FORM_FEATURES {
            return Err(format!("prose reader: {} weights, expected {}", reader.weights.len(), DIM + FORM_FEATURES));
        }
        if !(reader.summary_threshold <= reader.threshold) {
            return Err(format!("prose reader: summary threshold {} above the threshold {}", reader.summary_threshold, reader.threshold));
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

    /// The summary-line reader shipped in the binary
    /// (models/furniture/summary-reader.json): it never reads a sentence as
    /// furniture, it only doubts prose as a summary line ([`Self::doubts`]).
    pub fn summary_lines() -> &'static ProseReader {
        static SHIPPED: OnceLock<ProseReader> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            ProseReader::from_json(include_str!("../../models/furniture/summary-reader.json"))
                .expect("the shipped summary-line reader loads")
        })
    }

    /// Whether the reader doubts a prose sentence in `lang` as a summary
    /// line (its junk probability reaches `summary_threshold`), in a
    /// language it decides for.
    pub fn doubts(&self, text: &str, lang: &str, embedding: &Embedding) -> bool {
        self.decides_for(lang) && self.junk_probability(text, embedding) >= self.summary_threshold
    }

    /// The probability that the sentence is page furniture.
    pub fn junk_probability(&self, text: &str, embedding: &Embedding) -> f32 {
        let (on_embedding, on_form) = self.weights.split_at(DIM);
        let score: f32 = self.bias
            + on_embedding.iter().zip(embedding.iter()).map(|(w, x)| w * x).sum::<f32>()
            + on_form.iter().zip(form_features(text)).map(|(w, x)| w * x).sum::<f32>();
        1.0 / (1.0 + (-score).exp())
    }

    /// What the reader makes of a prose sentence in `lang`, alone in its
    /// paragraph or not: it reads only a sentence alone as furniture (what
    /// the rules miss stands on a line of its own), and doubts any as a
    /// summary line. Always prose in a language it does not decide for.
    pub fn read(&self, text: &str, lang: &str, embedding: &Embedding, alone_in_paragraph: bool) -> Verdict {
        if !self.decides_for(lang) {
            return Verdict::Prose;
        }
        let junk = self.junk_probability(text, embedding);
        if alone_in_paragraph && junk >= self.threshold {
            Verdict::Furniture
        } else if junk >= self.summary_threshold {
            Verdict::NoSummaryLine
        } else {
            Verdict::Prose
        }
    }

    pub fn decides_for(&self, lang: &str) -> bool {
        self.languages.iter().any(|l| l == lang)
    }

    /// The unit embedding the reader finds most like furniture (for tests
    /// that need a sentence it flags without running the encoder).
    #[cfg(test)]
    pub(crate) fn most_furniture_like(&self) -> Embedding {
        let norm = self.weights[..DIM].iter().map(|w| w * w).sum::<f32>().sqrt();
        std::array::from_fn(|i| self.weights[i] / norm)
    }
}

/// The prose reader's verdict on a sentence the rules leave as prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Prose,
    /// Prose of its paragraph, but too like furniture to be a summary line.
    NoSummaryLine,
    /// Page furniture after all, reported with [`REASON`].
    Furniture,
}

/// The script families that get an intercept of their own: Han and kana,
/// Hangul, Thai, Arabic, Cyrillic (Latin and the rest share the bias).
fn script_family(text: &str) -> [f32; 5] {
    let mut counts = [0usize; 5];
    let mut letters = 0usize;
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        let family = match c as u32 {
            0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F => Some(1),
            _ if crate::text::is_cjk_word_char(c) => Some(0),
            0x0E00..=0x0E7F => Some(2),
            0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF => Some(3),
            0x0400..=0x04FF => Some(4),
            _ => None,
        };
        if let Some(f) = family {
            counts[f] += 1;
        }
    }
    counts.map(|n| if letters > 0 && 2 * n > letters { 1.0 } else { 0.0 })
}

/// ln(1 + words) as the rules count them in every script, ends like a
/// sentence, ends in ':', the share of capitals among cased letters, ends
/// in '?', then the script family (see [`script_family`]); `train.py`
/// reads them from `precis embed --form-features`.
pub fn form_features(text: &str) -> [f32; FORM_FEATURES] {
    use crate::segment::furniture::{ends_like_sentence, words};
    let text = text.trim_end();
    let last = text.trim_end_matches(|c: char| "\"'”’»」』）)".contains(c)).chars().last();
    let (cased, capitals) = text
        .chars()
        .filter(|c| c.is_uppercase() || c.is_lowercase())
        .fold((0usize, 0usize), |(l, c), ch| (l + 1, c + usize::from(ch.is_uppercase())));
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let [han, hangul, thai, arabic, cyrillic] = script_family(text);
    [
        (1.0 + words(text)).ln(),
        flag(ends_like_sentence(text)),
        flag(last.is_some_and(|c| matches!(c, ':' | '：'))),
        if cased == 0 { 0.0 } else { capitals as f32 / cased as f32 },
        flag(last.is_some_and(|c| matches!(c, '?' | '？' | '؟'))),
        han,
        hangul,
        thai,
        arabic,
        cyrillic,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_features_by_hand() {
        let [words, sentence, colon, capitals, question, han, ..] = form_features("Who WON?  ");
        assert!((words - 3f32.ln()).abs() < 1e-6);
        assert_eq!((sentence, colon, question, han), (1.0, 0.0, 1.0, 0.0));
        assert!((capitals - 4.0 / 6.0).abs() < 1e-6);
        assert_eq!(form_features("Lire aussi :")[2], 1.0);
        assert_eq!(form_features("«Ya basta.»")[1], 1.0);
        assert_eq!(form_features("«Ya basta»")[1], 0.0);
        assert_eq!(form_features("12 34")[..5], [3f32.ln(), 0.0, 0.0, 0.0, 0.0]);
    }

    /// A Chinese or Thai sentence is as long as its words, not one word
    /// for want of spaces, and says which script it is in.
    #[test]
    fn form_features_in_every_script() {
        let chinese = form_features("国家统计局17日发布数据显示，5月份国民经济总体平稳。");
        assert!(chinese[0] > 10f32.ln(), "{chinese:?}");
        assert_eq!((chinese[1], chinese[5]), (1.0, 1.0));
        let thai = form_features("คณะกรรมการนโยบายการเงินมีมติคงอัตราดอกเบี้ยนโยบายไว้ที่ร้อยละ");
        assert!(thai[0] > 8f32.ln(), "{thai:?}");
        assert_eq!(thai[7], 1.0);
        assert_eq!(form_features("Пострадавших нет.")[9], 1.0);
        assert_eq!(form_features("هل تصمد المكاسب؟")[4..9], [1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(form_features("일등공신은 반도체였다.")[6], 1.0);
    }

    fn reader_json(weights: &[f32], languages: &[&str]) -> String {
        serde_json::json!({"format": FORMAT, "weights": weights, "bias": -5.0, "threshold": 0.85, "summary_threshold": 0.6, "languages": languages}).to_string()
    }

    #[test]
    fn a_reader_reads_its_weights() {
        let mut weights = vec![0.0; DIM + FORM_FEATURES];
        weights[0] = 10.0; // embeddings pointing along dimension 0 are junk
        let reader = ProseReader::from_json(&reader_json(&weights, &["en"])).unwrap();
        let mut along = [0f32; DIM];
        along[0] = 1.0;
        let mut across = [0f32; DIM];
        across[1] = 1.0;
        assert_eq!(reader.read("A caption", "en", &along, true), Verdict::Furniture);
        assert_eq!(reader.read("A caption", "en", &along, false), Verdict::NoSummaryLine, "inside a paragraph, prose still");
        assert_eq!(reader.read("A caption", "en", &across, true), Verdict::Prose);
        assert_eq!(reader.read("A caption", "zh", &along, true), Verdict::Prose, "zh is not among its languages");
        // Between the two thresholds (junk probability 1/(1 + e^-0.5) = 0.62):
        // a doubtful summary line, alone or not, never furniture.
        let mut between = [0f32; DIM];
        between[0] = 0.55;
        assert_eq!(reader.read("A caption", "en", &between, true), Verdict::NoSummaryLine);
        assert_eq!(reader.read("A caption", "en", &between, false), Verdict::NoSummaryLine);
        assert!((reader.junk_probability("x", &across) - 1.0 / (1.0 + 5f32.exp())).abs() < 1e-6);
        assert!(ProseReader::from_json(&reader_json(&[1.0], &["en"])).unwrap_err().contains("weights"));
        let summary_above = reader_json(&weights, &["en"]).replace("0.6", "0.9");
        assert!(ProseReader::from_json(&summary_above).unwrap_err().contains("summary threshold"));
        let first_format = reader_json(&weights, &["en"]).replace(FORMAT, "precis-prose-reader/1");
        assert!(ProseReader::from_json(&first_format).unwrap_err().contains("format"));
    }

    /// The shipped reader loads and flags the kinds of line it was trained
    /// on only through the embedding: with a zero embedding a long sentence
    /// reads as prose.
    #[test]
    fn the_shipped_reader_loads() {
        let reader = ProseReader::shipped();
        // Set for precision: it flags a line only at even odds of junk or better.
        assert!(reader.threshold >= 0.5 && reader.threshold < 1.0);
        assert!(reader.summary_threshold > 0.0 && reader.summary_threshold <= reader.threshold);
        assert!(reader.decides_for("en") && !reader.decides_for("th"));
        let zero = [0f32; DIM];
        let plain = "The council voted on Tuesday to close the old bridge for repairs until May.";
        assert_eq!(reader.read(plain, "en", &zero, true), Verdict::Prose);
    }

    /// The shipped summary-line reader loads, only doubts (its furniture
    /// threshold is out of reach), and only in Spanish and French.
    #[test]
    fn the_shipped_summary_line_reader_only_doubts_in_spanish_and_french() {
        let reader = ProseReader::summary_lines();
        assert_eq!(reader.threshold, 1.0);
        assert!(reader.summary_threshold >= 0.5 && reader.summary_threshold < 1.0, "set for precision");
        assert!(reader.decides_for("es") && reader.decides_for("fr") && !reader.decides_for("en") && !reader.decides_for("zh"));
        let junk_like = reader.most_furniture_like();
        assert!(reader.doubts("Un grupo de nadadores en Shangai, China.", "es", &junk_like));
        assert!(!reader.doubts("Un grupo de nadadores en Shangai, China.", "en", &junk_like), "not its language");
        let zero = [0f32; DIM];
        assert!(!reader.doubts("El Gobierno aprobó el martes un plan para reparar el puente viejo antes de mayo.", "es", &zero));
    }
}
