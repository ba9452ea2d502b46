//! How things read on screen and in exports: titles, dates, languages,
//! numbers with units, and the order of a summary's sentences.

use crate::dates::CivilDate;
use crate::document::{Document, Sentence};
use crate::summarize::Budget;
pub use crate::segment::language_name;

/// Longest title shown before it is cut with an ellipsis.
const TITLE_CHARS: usize = 90;

/// The article's title, or its first line when it has none.
pub fn title_of(document: &Document) -> String {
    let given = document.title.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let first_line = || document.text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let title = given.unwrap_or_else(first_line);
    if title.is_empty() {
        return "Untitled article".into();
    }
    shorten(title, TITLE_CHARS)
}

/// `text` cut to at most `chars` characters, on a word boundary if one is
/// near, with an ellipsis.
pub fn shorten(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let cut: String = text.chars().take(chars.saturating_sub(1)).collect();
    let at_word = match cut.rfind(' ') {
        Some(space) if space > cut.len() * 2 / 3 => &cut[..space],
        _ => &cut,
    };
    format!("{}…", at_word.trim_end())
}

/// "A3" for the third article: short enough for badges and map legends.
pub fn article_label(doc: usize) -> String {
    format!("A{}", doc + 1)
}

/// ISO date (YYYY-MM-DD) of a timestamp, the day in UTC.
pub fn iso_date(timestamp: i64) -> String {
    CivilDate::from_timestamp(timestamp).to_string()
}

/// Timestamp of midnight UTC of an ISO date; None when it is not one.
pub fn parse_iso_date(text: &str) -> Option<i64> {
    text.trim().parse::<CivilDate>().ok().map(CivilDate::to_timestamp)
}

/// Where a sentence comes from, in words: "A2 «Title», sentence 3 of 14".
pub fn provenance(sentence: &Sentence, document: Option<&Document>, sentences_in_doc: usize) -> String {
    let title = document.map(|d| format!(" «{}»", title_of(d))).unwrap_or_default();
    format!(
        "{}{title}, sentence {} of {}, paragraph {}",
        article_label(sentence.doc),
        sentence.index + 1,
        sentences_in_doc,
        sentence.para + 1
    )
}

/// The summary's sentences in the chosen output order: the core's one
/// ordering, for any other candidate of the beam.
pub use crate::summarize::order_sentences;

/// The unit of a budget, plural as read after a number.
pub fn budget_unit(budget: &Budget) -> &'static str {
    match budget {
        Budget::Sentences(_) => "sentences",
        Budget::Words(_) | Budget::Percent(_) => "words",
    }
}

/// "97 of 100 words".
pub fn budget_use(cost: usize, limit: usize, budget: &Budget) -> String {
    format!("{cost} of {limit} {}", budget_unit(budget))
}

/// Cosine similarity with three decimals.
pub fn cosine(value: f32) -> String {
    format!("{value:.3}")
}

/// "840 ms", "1.3 s".
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// "1 word", "12 words".
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(doc: usize, index: usize) -> Sentence {
        Sentence::placed(doc, index)
    }

    #[test]
    fn titles_fall_back_to_the_first_line_and_are_shortened() {
        let mut doc = Document::new("a", "\n  Flood in Pradella  \nBody text.");
        assert_eq!(title_of(&doc), "Flood in Pradella");
        doc.title = Some("  ".into());
        assert_eq!(title_of(&doc), "Flood in Pradella");
        doc.title = Some("Given".into());
        assert_eq!(title_of(&doc), "Given");
        assert_eq!(title_of(&Document::new("b", "  ")), "Untitled article");
        let long = shorten(&"word ".repeat(40), 30);
        assert!(long.ends_with('…') && long.chars().count() <= 30, "{long}");
    }

    #[test]
    fn dates_round_trip_through_iso() {
        let t = parse_iso_date("2026-03-10").unwrap();
        assert_eq!(iso_date(t), "2026-03-10");
        assert_eq!(iso_date(t + 86_399), "2026-03-10");
        assert_eq!(parse_iso_date("10 March"), None);
    }

    #[test]
    fn numbers_carry_units() {
        assert_eq!(budget_use(97, 100, &Budget::Words(100)), "97 of 100 words");
        assert_eq!(budget_use(3, 5, &Budget::Sentences(5)), "3 of 5 sentences");
        assert_eq!(duration(840.4), "840 ms");
        assert_eq!(duration(1340.0), "1.3 s");
        assert_eq!(count(1, "word", "words"), "1 word");
        assert_eq!(language_name("fr"), "French");
        assert_eq!(language_name("sw"), "Swahili");
        assert_eq!(language_name("xx"), "xx");
    }

    #[test]
    fn provenance_reads_as_a_sentence() {
        let doc = Document { title: Some("Flood".into()), ..Document::new("a", "x") };
        assert_eq!(provenance(&sentence(0, 2), Some(&doc), 14), "A1 «Flood», sentence 3 of 14, paragraph 1");
    }
}
