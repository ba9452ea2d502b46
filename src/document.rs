//! Documents, their sentences with provenance, and clusters of documents.

use crate::limits::{megabytes, MAX_TOTAL_BYTES};
use crate::segment;
use crate::segment::furniture;
use crate::text::count_words_in;
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
    /// Every sentence is prose: the user chose to use all of them (an
    /// article whose sentences all read as page furniture; the app's "Use
    /// all its sentences", `precis summarize --keep-furniture-of FILE`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_furniture: bool,
    /// Sentences (their texts) the reader pinned: every summary holds them
    /// (`choices`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<String>,
    /// Sentences (their texts) the reader struck: never a candidate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub struck: Vec<String>,
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
    /// Length in budget words (see `text::count_words_in`).
    pub words: usize,
    /// Why the sentence is not prose (page furniture or a fragment, see
    /// `segment::furniture`); such a sentence is never a summary candidate
    /// but stays in the cluster. `None` for prose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excluded: Option<String>,
    /// The text the encoder reads for this sentence, when it is not `text`:
    /// a lead whose dateline or label the splitter cut off (see
    /// `leads_as_written`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_as: Option<String>,
}

impl Sentence {
    /// The text the encoder reads for this sentence (see `read_as`).
    pub fn as_read(&self) -> &str {
        self.read_as.as_deref().unwrap_or(&self.text)
    }
}

#[cfg(test)]
impl Sentence {
    /// A one-word English sentence "s{doc}.{index}" with empty spans: unit
    /// tests that look only at where a sentence sits.
    pub(crate) fn placed(doc: usize, index: usize) -> Sentence {
        Sentence {
            doc,
            para: 0,
            index,
            start: 0,
            end: 0,
            char_start: 0,
            char_end: 0,
            lang: "en".into(),
            text: format!("s{doc}.{index}"),
            words: 1,
            excluded: None,
            read_as: None,
        }
    }
}

/// Documents and all their sentences, in document order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Cluster {
    pub documents: Vec<Document>,
    pub sentences: Vec<Sentence>,
}

impl Cluster {
    /// Splits every document into sentences.
    /// Splits every document into sentences and marks those that are not
    /// prose (`Sentence::excluded`), judged over the whole cluster.
    pub fn new(documents: Vec<Document>) -> Self {
        let per_document: Vec<Vec<Sentence>> =
            documents.iter().enumerate().map(|(d, doc)| sentences_of(d, doc)).collect();
        let lines: Vec<Vec<furniture::Line>> = per_document
            .iter()
            .zip(&documents)
            .map(|(sentences, doc)| {
                sentences
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let previous_end = if i == 0 { 0 } else { sentences[i - 1].end.min(s.start) };
                        let next_start = sentences.get(i + 1).map_or(doc.text.len(), |n| n.start.max(s.end));
                        let (before, after) = (&doc.text[previous_end..s.start], &doc.text[s.end..next_start]);
                        let breaks = |gap: &str| gap.contains(['\n', '\r', '\u{2028}', '\u{2029}']);
                        let ends_line = i + 1 == sentences.len() || breaks(after);
                        let own_line = (i == 0 || breaks(before)) && ends_line;
                        furniture::Line { text: &s.text, own_line, ends_line, lang: &s.lang }
                    })
                    .collect()
            })
            .collect();
        let reasons = furniture::classify(&lines);
        let readings: Vec<Vec<Option<String>>> =
            lines.iter().zip(&reasons).map(|(lines, reasons)| leads_as_written(lines, reasons)).collect();
        let sentences = per_document
            .into_iter()
            .zip(reasons)
            .zip(readings)
            .zip(&documents)
            .flat_map(|(((sentences, reasons), readings), doc)| {
                let keep = doc.keep_furniture;
                sentences.into_iter().zip(reasons).zip(readings).map(move |((s, r), read_as)| Sentence {
                    excluded: r.filter(|_| !keep).map(|r| r.to_string()),
                    read_as,
                    ..s
                })
            })
            .collect();
        Self { documents, sentences }
    }

    /// Every sentence a candidate, as before the prose filter: lead labels
    /// stay on the sentences they open, nothing is marked as furniture, and
    /// every document keeps its furniture (`evaluate --keep-furniture`, to
    /// measure the filter against).
    pub fn unfiltered(documents: Vec<Document>) -> Self {
        // Each article used whole, as "Use all its sentences" does: short
        // sentences are candidates too, and the prose reader reads none.
        let documents: Vec<Document> = documents.into_iter().map(|d| Document { keep_furniture: true, ..d }).collect();
        let sentences = documents
            .iter()
            .enumerate()
            .flat_map(|(d, doc)| sentences_from(d, doc, segment::split_keeping_lead_labels(&doc.text)))
            .collect();
        Self { documents, sentences }
    }

    /// Documents already split into sentences, each kept as given (TREC-TS
    /// pools hold the sentences as they were judged): no segmentation and
    /// no prose filter. Each document's text becomes its sentences, one a
    /// line, so the spans point into it.
    pub fn presplit(documents: Vec<Document>, sentences: Vec<Vec<String>>) -> Self {
        let mut all = Vec::new();
        let documents = documents
            .into_iter()
            .zip(sentences)
            .enumerate()
            .map(|(d, (document, texts))| {
                let document = Document { text: texts.join("\n"), ..document };
                let mut start = 0;
                let spans = texts.into_iter().enumerate().map(|(para, text)| {
                    let span = segment::SentenceSpan { para, start, end: start + text.len(), text };
                    start = span.end + 1;
                    span
                });
                all.extend(sentences_from(d, &document, spans.collect()));
                document
            })
            .collect();
        Self { documents, sentences: all }
    }

    /// Whether sentence `id` is alone in its paragraph (a paragraph's
    /// sentences stand together, in order).
    pub fn alone_in_its_paragraph(&self, id: usize) -> bool {
        let sentence = &self.sentences[id];
        let same_paragraph = |j: usize| self.sentences.get(j).is_some_and(|s| s.doc == sentence.doc && s.para == sentence.para);
        !(id > 0 && same_paragraph(id - 1)) && !same_paragraph(id + 1)
    }

    /// Number of budget words in all documents.
    pub fn total_words(&self) -> usize {
        self.sentences.iter().map(|s| s.words).sum()
    }

    /// Budget words per detected language, languages in first-seen order.
    pub fn words_by_language(&self) -> Vec<(&str, usize)> {
        let mut words: Vec<(&str, usize)> = vec![];
        for s in &self.sentences {
            match words.iter_mut().find(|(lang, _)| *lang == s.lang) {
                Some((_, w)) => *w += s.words,
                None => words.push((&s.lang, s.words)),
            }
        }
        words
    }

    /// Sentence ids of document `doc`, in order.
    pub fn sentences_of(&self, doc: usize) -> impl Iterator<Item = usize> + '_ {
        self.sentences.iter().enumerate().filter(move |(_, s)| s.doc == doc).map(|(i, _)| i)
    }

    /// Each sentence's text as the encoder reads it ([`Sentence::as_read`]).
    pub fn texts(&self) -> Vec<&str> {
        self.sentences.iter().map(Sentence::as_read).collect()
    }
}

/// For each sentence of a document, the text the encoder reads when it is
/// not the sentence's own: a lead whose dateline or label ("WASHINGTON (AP)
/// —") the splitter cut off is read with it, as the page wrote it. The cut
/// decides what a summary shows and what its budget counts; it does not
/// change what the lead means to the centroid (a dateline's place is the
/// story's place), so clean wire text is read as it is without the filter.
fn leads_as_written(lines: &[furniture::Line], reasons: &[Option<furniture::Reason>]) -> Vec<Option<String>> {
    (0..lines.len())
        .map(|i| {
            let label = i.checked_sub(1).filter(|&p| reasons[p] == Some(furniture::Reason::LeadLabel) && !lines[p].ends_line)?;
            Some(format!("{} {}", lines[label].text, lines[i].text))
        })
        .collect()
}

/// Refuses articles that hold more text than the app works on at once
/// (`limits::MAX_TOTAL_BYTES`).
pub fn check_total_text(documents: &[Document]) -> Result<(), String> {
    let bytes: usize = documents.iter().map(|d| d.text.len()).sum();
    if bytes > MAX_TOTAL_BYTES {
        return Err(format!(
            "The articles hold {} of text; Précis works on at most {} at once. Remove some articles.",
            megabytes(bytes),
            megabytes(MAX_TOTAL_BYTES)
        ));
    }
    Ok(())
}

fn sentences_of(d: usize, doc: &Document) -> Vec<Sentence> {
    sentences_from(d, doc, segment::split(&doc.text))
}

/// Document `d`'s sentences at these spans of its text.
fn sentences_from(d: usize, doc: &Document, spans: Vec<segment::SentenceSpan>) -> Vec<Sentence> {
    // Short sentences take the document's language unless clearly another.
    let detected = match &doc.lang {
        Some(_) => vec![],
        None => segment::detect_languages(&spans.iter().map(|s| s.text.as_str()).collect::<Vec<_>>()),
    };
    let mut chars = CharIndex::new(&doc.text);
    spans
        .into_iter()
        .enumerate()
        .map(|(index, span)| {
            let lang = doc.lang.clone().unwrap_or_else(|| detected[index].to_string());
            Sentence {
                doc: d,
                para: span.para,
                index,
                start: span.start,
                end: span.end,
                char_start: chars.at(span.start),
                char_end: chars.at(span.end),
                words: count_words_in(&span.text, &lang),
                lang,
                text: span.text,
                excluded: None,
                read_as: None,
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_much_text_is_refused_with_both_sizes() {
        let huge = vec![Document::new("x", "word ".repeat(MAX_TOTAL_BYTES / 5 + 1))];
        let message = check_total_text(&huge).unwrap_err();
        assert!(message.contains("2.1 MB") && message.contains("at most 2.1 MB"), "{message}");
        assert!(check_total_text(&[Document::new("x", "A short article.")]).is_ok());
    }

    const PAGE: &str = "WASHINGTON (AP) — The storm hit the coast on Monday night.\nShare this story";

    #[test]
    fn a_cluster_cuts_the_dateline_and_marks_the_furniture() {
        let cluster = Cluster::new(vec![Document::new("a", PAGE)]);
        let marked: Vec<(&str, bool)> = cluster.sentences.iter().map(|s| (s.text.as_str(), s.excluded.is_some())).collect();
        assert_eq!(marked, [("WASHINGTON (AP) —", true), ("The storm hit the coast on Monday night.", false), ("Share this story", true)]);
    }

    #[test]
    fn a_lead_cut_from_its_dateline_is_read_with_it() {
        let cluster = Cluster::new(vec![Document::new("a", PAGE)]);
        assert_eq!(cluster.sentences[1].text, "The storm hit the coast on Monday night.");
        assert_eq!(cluster.texts(), ["WASHINGTON (AP) —", "WASHINGTON (AP) — The storm hit the coast on Monday night.", "Share this story"]);
        // A label on a line of its own opens no sentence; it is a heading.
        let apart = Cluster::new(vec![Document::new("b", "WASHINGTON (AP) —\nThe storm hit the coast on Monday night.")]);
        assert!(apart.sentences.iter().all(|s| s.read_as.is_none()));
    }

    #[test]
    fn an_unfiltered_cluster_keeps_every_sentence_as_written() {
        let cluster = Cluster::unfiltered(vec![Document::new("a", PAGE)]);
        let texts: Vec<&str> = cluster.texts();
        assert_eq!(texts, ["WASHINGTON (AP) — The storm hit the coast on Monday night.", "Share this story"]);
        assert!(cluster.sentences.iter().all(|s| s.excluded.is_none()));
        let spans: Vec<&str> = cluster.sentences.iter().map(|s| &PAGE[s.start..s.end]).collect();
        assert_eq!(spans, texts);
    }
}
