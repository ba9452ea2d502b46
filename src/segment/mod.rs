//! Sentence splitting and language detection for mixed-language news.
//!
//! `split` works in three steps, each in its own module:
//! 1. `layout`: paragraphs (blank lines), list items, headline lines versus
//!    hard wraps; each resulting unit is split on its own;
//! 2. `prepare`: the unit's text with character references decoded, DUC
//!    quotes made plain and line breaks joined, mapped back to the original;
//! 3. `rules`: Unicode sentence bounds plus rules for abbreviations,
//!    initials, ellipses, Thai, lead labels ("WASHINGTON (AP) —") and
//!    overlong runs.
//!
//! Everything here is pure computation (no files, threads or C code), so it
//! builds for wasm32 as well. Time is linear in the text length.

mod abbreviations;
mod entities;
pub mod furniture;
mod html;
mod language;
mod layout;
mod lead_label;
pub mod line_key;
mod prepare;
pub mod prose_reader;
mod rules;

pub use entities::decode_entities;
#[allow(unused_imports)] // used by crate::input
pub(crate) use entities::windows_1252_char;
pub use html::{reduce_html, HtmlArticle};
pub use language::{detect_language, detect_languages, iso_639_1, language_name, UNDETERMINED};
pub use rules::MAX_SENTENCE_CHARS;

/// One sentence of a text: byte span and paragraph.
#[derive(Clone, Debug, PartialEq)]
pub struct SentenceSpan {
    /// Paragraph index (0-based), counting paragraphs that have sentences.
    pub para: usize,
    /// Byte span in the original text, without surrounding whitespace or a
    /// list marker.
    pub start: usize,
    pub end: usize,
    /// The sentence with references decoded (`&amp;` → `&`), DUC quotes
    /// (`` and '') made `"`, and every whitespace run, line wraps included,
    /// made one space. Never empty: it has a letter or a digit.
    pub text: String,
}

/// Splits a text into sentences, in order; blank lines separate paragraphs.
/// A dateline or kicker label that opens a sentence is a sentence of its
/// own (`lead_label`).
pub fn split(text: &str) -> Vec<SentenceSpan> {
    split_as(text, rules::LeadLabels::Cut)
}

/// [`split`], but a lead label stays on the sentence it opens, as the page
/// wrote it (`evaluate --keep-furniture` measures against this).
pub fn split_keeping_lead_labels(text: &str) -> Vec<SentenceSpan> {
    split_as(text, rules::LeadLabels::Kept)
}

fn split_as(text: &str, lead_labels: rules::LeadLabels) -> Vec<SentenceSpan> {
    let mut sentences = Vec::new();
    let mut para = 0;
    for paragraph in layout::paragraphs(text) {
        let before = sentences.len();
        for unit in paragraph.units {
            let prepared = prepare::prepare(text, unit);
            for range in rules::sentence_ranges(&prepared.text, lead_labels) {
                let span = trim_span(text, prepared.original(range.start), prepared.original(range.end));
                let words: Vec<&str> = prepared.text[range].split_whitespace().collect();
                sentences.push(SentenceSpan {
                    para,
                    start: span.start,
                    end: span.end,
                    text: words.join(" "),
                });
            }
        }
        if sentences.len() > before {
            para += 1;
        }
    }
    sentences
}

/// The first line of `text` when it stands alone as a headline: the layout
/// makes it a unit of its own (see `layout`), it does not end in a full
/// stop of any script (`text::is_full_stop`), `,`, `;` or `:`, and more
/// text follows. Only the lines of the first
/// [`HEADLINE_WINDOW`] bytes are laid out.
pub fn headline_line(text: &str) -> Option<std::ops::Range<usize>> {
    let text = headline_window(text);
    let paragraphs = layout::paragraphs(text);
    let mut units = paragraphs.iter().flat_map(|p| &p.units);
    let first = units.next()?.clone();
    units.next()?;
    let line = &text[first.clone()];
    let is_first_line = text[..first.start].trim().is_empty() && !line.contains(['\n', '\r', '\u{2028}']);
    // Inside its quotes, and in any script: a first line ending in "।",
    // "።" or "։" is the lead's first paragraph, not a title.
    let end = line.trim_end().trim_end_matches(['"', '\'', '”', '’', '»', ')', ']', '」', '』', '）']);
    let ends_like_a_sentence = end.ends_with(|c: char| crate::text::is_full_stop(c) || matches!(c, ',' | ';' | ':' | '，' | '：' | '、' | '،' | '؛'));
    (is_first_line && !ends_like_a_sentence).then_some(first)
}

/// How much of a text decides whether its first line is a headline: all of
/// any text the app takes (`MAX_INPUT_BYTES`). The layout holds ~10 bytes a
/// byte of text, so a whole 28 MB file read by the CLI held 270 MB just
/// to judge its first line (tests/fuzz.rs, odt input 55,450).
pub const HEADLINE_WINDOW: usize = crate::limits::MAX_INPUT_BYTES;

/// The lines of `text` that start within [`HEADLINE_WINDOW`] bytes.
fn headline_window(text: &str) -> &str {
    if text.len() <= HEADLINE_WINDOW {
        return text;
    }
    let mut end = HEADLINE_WINDOW;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(line_end) => &text[..line_end],
        None => &text[..end],
    }
}

/// The span without whitespace at either end (a joined line break may sit
/// at the edge of a mapped span).
fn trim_span(text: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let slice = &text[start..end];
    let start = start + (slice.len() - slice.trim_start().len());
    start..start + slice.trim().len()
}

#[cfg(test)]
mod tests;
