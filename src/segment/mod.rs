//! Sentence splitting and language detection (placeholder: being replaced
//! by the full multilingual splitter).

use unicode_segmentation::UnicodeSegmentation;

/// One sentence of a text: byte span and paragraph.
#[derive(Clone, Debug, PartialEq)]
pub struct SentenceSpan {
    pub para: usize,
    pub start: usize,
    pub end: usize,
    /// Whitespace-normalized text of the span.
    pub text: String,
}

/// Splits a text into sentences; blank lines separate paragraphs.
pub fn split(text: &str) -> Vec<SentenceSpan> {
    let mut out = Vec::new();
    let mut para = 0;
    let mut offset = 0;
    for block in text.split("\n\n") {
        let mut any = false;
        for (start, s) in block.split_sentence_bound_indices() {
            let clean = s.split_whitespace().collect::<Vec<_>>().join(" ");
            if clean.is_empty() {
                continue;
            }
            any = true;
            let lead = s.len() - s.trim_start().len();
            out.push(SentenceSpan {
                para,
                start: offset + start + lead,
                end: offset + start + s.trim_end().len(),
                text: clean,
            });
        }
        if any {
            para += 1;
        }
        offset += block.len() + 2;
    }
    out
}

/// ISO 639-1 code of the text's language, "und" when unsure.
pub fn detect_language(text: &str) -> &'static str {
    whatlang::detect(text)
        .filter(|info| info.is_reliable())
        .map(|info| info.lang().code())
        .unwrap_or("und")
}
