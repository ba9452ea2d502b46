//! What the topic-based selectors (SMMR, TBMMR) compare sentences with: the
//! topic description, each document's headline and every sentence's time
//! (`docs/design/tbmmr.md`).
//!
//! The topic is the user's text, split into sentences; without one it is
//! the earliest document's headline and first sentence (the seed story).
//! Headlines are not sentences of the cluster, so they and a user's topic
//! are embedded by the caller: [`TopicTexts::texts`] lists them and
//! [`TopicTexts::embedded`] takes their embeddings back.

use crate::dates::{self, CivilDate};
use crate::document::{Cluster, Document, Sentence};
use crate::encoder::Embedding;
use crate::segment;
use serde::{Deserialize, Serialize};

/// When a sentence happened, as far as its text and document tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SentenceTime {
    /// The first date expression of the sentence resolved against its
    /// document's date, else the document's date.
    Day(CivilDate),
    /// A sentence of an undated document: its time is unknown, but shared
    /// by every sentence of that document.
    UndatedDocument(usize),
    /// No time at all (a user's topic when no document is dated).
    Unknown,
}

impl SentenceTime {
    pub fn day(self) -> Option<CivilDate> {
        match self {
            SentenceTime::Day(day) => Some(day),
            _ => None,
        }
    }
}

/// TimeSim, formula (6): 1 on the same day, 0.3 within three days, else 0.
/// Undated text only matches itself: two sentences of the same undated
/// document share its unknown date (1); anything else without a date is 0.
pub fn time_similarity(a: SentenceTime, b: SentenceTime) -> f32 {
    match (a, b) {
        (SentenceTime::Day(a), SentenceTime::Day(b)) => dates::time_similarity(a, b),
        (SentenceTime::UndatedDocument(a), SentenceTime::UndatedDocument(b)) if a == b => 1.0,
        _ => 0.0,
    }
}

/// The calendar day a document was published, if it is dated.
pub fn document_day(cluster: &Cluster, doc: usize) -> Option<CivilDate> {
    cluster.documents[doc].timestamp.map(CivilDate::from_timestamp)
}

/// A document's own time: its day, or its identity when undated.
pub fn document_time(cluster: &Cluster, doc: usize) -> SentenceTime {
    document_day(cluster, doc).map_or(SentenceTime::UndatedDocument(doc), SentenceTime::Day)
}

/// The time of every sentence of the cluster (indexed by sentence id).
pub fn sentence_times(cluster: &Cluster) -> Vec<SentenceTime> {
    cluster
        .sentences
        .iter()
        .map(|s| match sentence_day(s, &cluster.documents[s.doc]) {
            Some(day) => SentenceTime::Day(day),
            None => SentenceTime::UndatedDocument(s.doc),
        })
        .collect()
}

/// A sentence's day: its first date expression resolved against its
/// document's date, else that date; none in an undated document.
pub fn sentence_day(sentence: &Sentence, document: &Document) -> Option<CivilDate> {
    let day = document.timestamp.map(CivilDate::from_timestamp)?;
    Some(dates::sentence_date(&sentence.text, &sentence.lang, day))
}

/// The document that opens the topic: the earliest dated one (ties: input
/// order); the first document when none is dated.
pub fn earliest_document(cluster: &Cluster) -> Option<usize> {
    let dated = (0..cluster.documents.len())
        .filter_map(|d| cluster.documents[d].timestamp.map(|t| (t, d)))
        .min()
        .map(|(_, d)| d);
    dated.or((!cluster.documents.is_empty()).then_some(0))
}

/// Where a query sentence comes from (for the trace and the app).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QuerySource {
    /// Sentence `index` of the user's topic description.
    Topic { index: usize },
    /// The headline (title) of document `doc`.
    Headline { doc: usize },
    /// A sentence of the cluster.
    Sentence { id: usize },
}

/// One sentence of a query: where it comes from, its embedding and time.
#[derive(Clone, Debug, PartialEq)]
pub struct QuerySentence {
    pub source: QuerySource,
    pub embedding: Embedding,
    pub time: SentenceTime,
}

/// The texts to embed besides the cluster's sentences.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TopicTexts {
    /// The user's topic description, split into sentences (empty: default topic).
    pub given: Vec<String>,
    /// Each document's headline, when it has one.
    pub headlines: Vec<Option<String>>,
}

/// Embeddings of a [`TopicTexts`], in the same roles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicEmbeddings {
    pub given: Vec<Embedding>,
    pub headlines: Vec<Option<Embedding>>,
}

impl TopicTexts {
    /// `topic`: the user's description; blank or `None` means the default.
    pub fn new(cluster: &Cluster, topic: Option<&str>) -> Self {
        let given = topic
            .map(|t| segment::split(t).into_iter().map(|s| s.text).collect())
            .unwrap_or_default();
        let headlines = cluster
            .documents
            .iter()
            .map(|d| {
                d.title
                    .as_deref()
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(String::from)
            })
            .collect();
        Self { given, headlines }
    }

    /// Texts to embed, in order: the topic's sentences, then the headlines.
    pub fn texts(&self) -> Vec<&str> {
        self.given
            .iter()
            .map(String::as_str)
            .chain(self.headlines.iter().flatten().map(String::as_str))
            .collect()
    }

    /// Puts the embeddings of [`TopicTexts::texts`] back in their roles.
    pub fn embedded(&self, embeddings: Vec<Embedding>) -> Result<TopicEmbeddings, String> {
        let expected = self.texts().len();
        if embeddings.len() != expected {
            return Err(format!(
                "{} topic embeddings for {expected} topic texts",
                embeddings.len()
            ));
        }
        let mut rest = embeddings.into_iter();
        let given = rest.by_ref().take(self.given.len()).collect();
        let headlines = self
            .headlines
            .iter()
            .map(|h| h.as_ref().and_then(|_| rest.next()))
            .collect();
        Ok(TopicEmbeddings { given, headlines })
    }

    pub fn has_headlines(&self) -> bool {
        self.headlines.iter().any(Option::is_some)
    }
}

/// The topic, ready for scoring: its sentences and time, and the headlines.
#[derive(Clone, Debug, PartialEq)]
pub struct Topic {
    pub sentences: Vec<QuerySentence>,
    pub time: SentenceTime,
    /// Each document's headline embedding (None without a headline).
    pub headlines: Vec<Option<Embedding>>,
}

impl Topic {
    /// `embedded`: the embeddings of `texts`; `None` works only without a
    /// user topic, and then leaves the headlines out.
    pub fn new(
        cluster: &Cluster,
        embeddings: &[Embedding],
        texts: &TopicTexts,
        embedded: Option<&TopicEmbeddings>,
    ) -> Result<Topic, String> {
        let none = TopicEmbeddings {
            given: vec![],
            headlines: vec![None; cluster.documents.len()],
        };
        let embedded = match embedded {
            Some(e) => e,
            None if texts.given.is_empty() => &none,
            None => return Err("the topic description has not been embedded".into()),
        };
        let earliest = earliest_document(cluster);
        let (sentences, time) = if texts.given.is_empty() {
            default_topic(cluster, embeddings, &embedded.headlines, earliest)
        } else {
            given_topic(cluster, texts, embedded, earliest)
        };
        Ok(Topic {
            sentences,
            time,
            headlines: embedded.headlines.clone(),
        })
    }
}

/// The earliest document's headline and first sentence, at its time.
fn default_topic(
    cluster: &Cluster,
    embeddings: &[Embedding],
    headlines: &[Option<Embedding>],
    earliest: Option<usize>,
) -> (Vec<QuerySentence>, SentenceTime) {
    let Some(doc) = earliest else {
        return (vec![], SentenceTime::Unknown);
    };
    // The topic is the seed event: it happened on the earliest document's
    // day. An undated document gives it no time; the document's identity
    // would make every one of its sentences look like the topic's time.
    let time = document_day(cluster, doc).map_or(SentenceTime::Unknown, SentenceTime::Day);
    let headline = headlines[doc].map(|embedding| QuerySentence {
        source: QuerySource::Headline { doc },
        embedding,
        time,
    });
    let first = cluster.sentences_of(doc).next().map(|id| QuerySentence {
        source: QuerySource::Sentence { id },
        embedding: embeddings[id],
        time,
    });
    (headline.into_iter().chain(first).collect(), time)
}

/// The user's sentences, dated by their first date expression resolved
/// against the earliest document's date (else that date: the seed event).
fn given_topic(
    cluster: &Cluster,
    texts: &TopicTexts,
    embedded: &TopicEmbeddings,
    earliest: Option<usize>,
) -> (Vec<QuerySentence>, SentenceTime) {
    let whole = texts.given.join(" ");
    let time = match earliest.and_then(|d| document_day(cluster, d)) {
        Some(day) => SentenceTime::Day(dates::sentence_date(
            &whole,
            segment::detect_language(&whole),
            day,
        )),
        None => SentenceTime::Unknown,
    };
    let sentences = embedded
        .given
        .iter()
        .enumerate()
        .map(|(index, &embedding)| QuerySentence {
            source: QuerySource::Topic { index },
            embedding,
            time,
        })
        .collect();
    (sentences, time)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::select::testing::unit;

    fn day(text: &str) -> CivilDate {
        text.parse().unwrap()
    }

    fn dated(id: &str, title: Option<&str>, date: &str, text: &str) -> Document {
        Document {
            title: title.map(String::from),
            timestamp: Some(day(date).to_timestamp()),
            lang: Some("en".into()),
            ..Document::new(id, text)
        }
    }

    #[test]
    fn time_similarity_of_days_and_undated_documents() {
        let d = |s| SentenceTime::Day(day(s));
        assert_eq!(time_similarity(d("2011-03-19"), d("2011-03-19")), 1.0);
        assert_eq!(time_similarity(d("2011-03-19"), d("2011-03-22")), 0.3);
        assert_eq!(time_similarity(d("2011-03-19"), d("2011-03-23")), 0.0);
        assert_eq!(
            time_similarity(SentenceTime::UndatedDocument(2), SentenceTime::UndatedDocument(2)),
            1.0
        );
        assert_eq!(
            time_similarity(SentenceTime::UndatedDocument(2), SentenceTime::UndatedDocument(3)),
            0.0
        );
        assert_eq!(
            time_similarity(SentenceTime::UndatedDocument(2), d("2011-03-19")),
            0.0
        );
        assert_eq!(time_similarity(SentenceTime::Unknown, SentenceTime::Unknown), 0.0);
    }

    #[test]
    fn sentences_take_their_first_date_else_the_documents() {
        let cluster = Cluster::new(vec![
            dated(
                "a",
                None,
                "2011-03-19",
                "Jets struck Tripoli. The vote was on Thursday.",
            ),
            Document::new("b", "No date here."),
        ]);
        let times = sentence_times(&cluster);
        assert_eq!(times[0], SentenceTime::Day(day("2011-03-19")));
        assert_eq!(times[1], SentenceTime::Day(day("2011-03-17"))); // the Thursday before
        assert_eq!(times[2], SentenceTime::UndatedDocument(1));
    }

    #[test]
    fn default_topic_is_the_earliest_documents_headline_and_first_sentence() {
        let cluster = Cluster::new(vec![
            dated("late", Some("Late headline"), "2011-03-20", "Later news. More."),
            dated("early", Some("Early headline"), "2011-03-18", "First news. More."),
        ]);
        let embeddings: Vec<Embedding> = (0..4).map(|i| unit(&[(i, 1.0)])).collect();
        let texts = TopicTexts::new(&cluster, None);
        assert_eq!(texts.texts(), vec!["Late headline", "Early headline"]);
        let embedded = texts
            .embedded(vec![unit(&[(10, 1.0)]), unit(&[(11, 1.0)])])
            .unwrap();
        let topic = Topic::new(&cluster, &embeddings, &texts, Some(&embedded)).unwrap();
        let sources: Vec<QuerySource> = topic.sentences.iter().map(|q| q.source).collect();
        assert_eq!(
            sources,
            vec![QuerySource::Headline { doc: 1 }, QuerySource::Sentence { id: 2 }]
        );
        assert_eq!(topic.sentences[0].embedding, unit(&[(11, 1.0)]));
        assert_eq!(topic.time, SentenceTime::Day(day("2011-03-18")));
        // Without the headlines' embeddings only the first sentence is left.
        let bare = Topic::new(&cluster, &embeddings, &texts, None).unwrap();
        assert_eq!(bare.sentences.len(), 1);
    }

    #[test]
    fn an_undated_default_topic_has_no_time() {
        let cluster = Cluster::new(vec![Document::new("a", "First news. More.")]);
        let embeddings: Vec<Embedding> = (0..2).map(|i| unit(&[(i, 1.0)])).collect();
        let topic = Topic::new(&cluster, &embeddings, &TopicTexts::new(&cluster, None), None).unwrap();
        assert_eq!(topic.time, SentenceTime::Unknown);
        assert_eq!(topic.sentences[0].time, SentenceTime::Unknown);
    }

    #[test]
    fn a_given_topic_is_split_dated_and_must_be_embedded() {
        let cluster = Cluster::new(vec![dated("a", None, "2011-03-19", "Jets struck Tripoli.")]);
        let embeddings = vec![unit(&[(0, 1.0)])];
        let texts = TopicTexts::new(&cluster, Some("Strikes on Libya. The UN voted on 17 March."));
        assert_eq!(texts.given.len(), 2);
        assert!(Topic::new(&cluster, &embeddings, &texts, None).is_err());
        let embedded = texts
            .embedded(vec![unit(&[(1, 1.0)]), unit(&[(2, 1.0)])])
            .unwrap();
        let topic = Topic::new(&cluster, &embeddings, &texts, Some(&embedded)).unwrap();
        assert_eq!(topic.sentences.len(), 2);
        assert_eq!(topic.time, SentenceTime::Day(day("2011-03-17")));
        assert!(texts.embedded(vec![]).is_err());
    }
}
