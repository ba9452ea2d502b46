//! Documents, their sentences with provenance, and clusters of documents.

use crate::segment;
use crate::text::count_words;
use serde::{Deserialize, Serialize};

/// One input article.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Document {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Publication time, seconds since the Unix epoch (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<i64>,
    pub text: String,
    /// ISO 639-1 code given by the user; detected per sentence otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

impl Document {
    pub fn new(id: impl Into<String>, text: impl Into<String>) -> Self {
        Self { id: id.into(), text: text.into(), ..Default::default() }
    }
}

/// A sentence and where it came from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sentence {
    /// Index of the document in the cluster.
    pub doc: usize,
    /// Paragraph index within the document.
    pub para: usize,
    /// Sentence index within the document (0-based).
    pub index: usize,
    /// Byte span in the document's text.
    pub start: usize,
    pub end: usize,
    /// Character span in the document's text (for JavaScript callers).
    pub char_start: usize,
    pub char_end: usize,
    /// ISO 639-1 code ("und" when unknown).
    pub lang: String,
    /// The sentence, whitespace-normalized (hard line wraps joined).
    pub text: String,
    /// Length in budget words (see `text::count_words`).
    pub words: usize,
}

/// Documents and all their sentences, in document order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Cluster {
    pub documents: Vec<Document>,
    pub sentences: Vec<Sentence>,
}

impl Cluster {
    /// Splits every document into sentences.
    pub fn new(documents: Vec<Document>) -> Self {
        let sentences = documents
            .iter()
            .enumerate()
            .flat_map(|(d, doc)| sentences_of(d, doc))
            .collect();
        Self { documents, sentences }
    }

    /// Number of budget words in all documents.
    pub fn total_words(&self) -> usize {
        self.sentences.iter().map(|s| s.words).sum()
    }

    /// Sentence ids of document `doc`, in order.
    pub fn sentences_of(&self, doc: usize) -> impl Iterator<Item = usize> + '_ {
        self.sentences.iter().enumerate().filter(move |(_, s)| s.doc == doc).map(|(i, _)| i)
    }

    pub fn texts(&self) -> Vec<&str> {
        self.sentences.iter().map(|s| s.text.as_str()).collect()
    }
}

fn sentences_of(d: usize, doc: &Document) -> Vec<Sentence> {
    let spans = segment::split(&doc.text);
    // Short sentences take the document's language unless clearly another.
    let detected = match &doc.lang {
        Some(_) => vec![],
        None => segment::detect_languages(&spans.iter().map(|s| s.text.as_str()).collect::<Vec<_>>()),
    };
    let mut chars = CharIndex::new(&doc.text);
    spans
        .into_iter()
        .enumerate()
        .map(|(index, span)| Sentence {
            doc: d,
            para: span.para,
            index,
            start: span.start,
            end: span.end,
            char_start: chars.at(span.start),
            char_end: chars.at(span.end),
            lang: doc.lang.clone().unwrap_or_else(|| detected[index].to_string()),
            words: count_words(&span.text),
            text: span.text,
        })
        .collect()
}

/// Byte offset → char offset, for increasing offsets (one pass over the text).
struct CharIndex<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl<'a> CharIndex<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, byte: 0, chars: 0 }
    }

    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            *self = Self::new(self.text);
        }
        self.chars += self.text[self.byte..byte].chars().count();
        self.byte = byte;
        self.chars
    }
}
