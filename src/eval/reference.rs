//! ROUGE of one summary against the user's own reference summary, as the
//! app and `precis compare` show it (the datasets' evaluation is `rouge`).

use super::rouge::{self, Metric, Prf, RougeConfig};
use super::rouge_text::Tokenization;
use crate::document::Sentence;
use crate::segment;
use serde::{Deserialize, Serialize};

/// ROUGE of a summary against the user's reference summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RougeResult {
    pub rouge_1: Prf,
    pub rouge_2: Prf,
    pub rouge_l: Prf,
    /// Unicode tokens unless summary and reference are both English.
    pub tokenization: Tokenization,
}

/// ROUGE of picked sentences against the reference's sentences, with
/// ROUGE-1.5.5's tokens when both are English (see [`rouge_against`]).
pub fn rouge_of_picked(picked: &[&Sentence], reference: &[String]) -> RougeResult {
    let english =
        picked.iter().all(|s| s.lang == "en") && reference.iter().all(|r| segment::detect_language(r) == "en");
    let texts: Vec<&str> = picked.iter().map(|s| s.text.as_str()).collect();
    rouge_against(&texts, reference, english)
}

/// ROUGE-1, -2 and -L of a summary against one reference. English keeps
/// ROUGE-1.5.5's tokens and stemming; any other language gets Unicode tokens.
pub fn rouge_against(summary: &[&str], reference: &[String], english: bool) -> RougeResult {
    let config = if english {
        RougeConfig { max_n: 2, ..RougeConfig::rouge155(None) }
    } else {
        RougeConfig { max_n: 2, ..RougeConfig::multilingual(false, None) }
    };
    let reference: Vec<&str> = reference.iter().map(String::as_str).collect();
    let scores = rouge::score(summary, &[reference], &config);
    let get = |metric| scores.get(metric).unwrap_or_default();
    RougeResult {
        rouge_1: get(Metric::N(1)),
        rouge_2: get(Metric::N(2)),
        rouge_l: get(Metric::L),
        tokenization: if english { Tokenization::Rouge155 } else { Tokenization::Unicode },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_uses_unicode_tokens_for_other_languages() {
        let reference = vec!["Le barrage a cédé.".to_string()];
        let french = rouge_against(&["Le barrage a cédé lundi."], &reference, false);
        assert_eq!(french.tokenization, Tokenization::Unicode);
        assert!((french.rouge_1.recall - 1.0).abs() < 1e-9, "{french:?}");
        assert!(french.rouge_1.precision < 1.0 && french.rouge_2.recall > 0.5);
    }
}
