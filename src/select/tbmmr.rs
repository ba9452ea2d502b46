//! TBMMR, topic-based MMR (`docs/design/tbmmr.md`, after the paper in
//! `papers/topic-based-mmr-zh.txt`):
//!
//! 1. Each document's theme is its headline and first three sentences. Its
//!    topic relevance (formula (2)) is the best cosine between a theme and a
//!    topic sentence, times a decay 1 / (1 + gap / 7) in the days between
//!    the document and the topic (1 when either is undated). Documents at
//!    or above the threshold report the seed event, the others non-seed
//!    events (table 1).
//! 2. The query is the topic's sentences plus the themes of the non-seed
//!    documents; similarity mixes in time (formula (5)) and the position
//!    score is added with weight μ (formula (4)); greedy MMR to the budget
//!    (see [`super::mmr`]).
//! 3. The set is divergent if on some day its non-seed documents report two
//!    or more events: linking documents whose themes have a sentence pair
//!    with cos ≥ 0.5, that day has two or more groups (table 3). Otherwise
//!    it is sequential. The summary is then ordered by sentence time
//!    (sequential) or grouped by report day (divergent); ties and sentences
//!    within a day go by score, highest first. Undated sentences come first
//!    (as in the other chronological order) and keep their score order.

use super::mmr::{centroid_score, Mmr, MmrRun, Variant, Weights};
use super::topic::{document_day, document_time, QuerySentence, QuerySource, SentenceTime, Topic};
use super::{dot, Problem, Selection, Selector, Trace};
use crate::dates::CivilDate;
use crate::document::Cluster;
use crate::encoder::Embedding;
use serde::{Deserialize, Serialize};

/// Sentences of a document's theme besides its headline.
const THEME_SENTENCES: usize = 3;
/// Days after which a document's topic relevance is halved.
const DECAY_DAYS: f32 = 7.0;
/// Two documents whose themes have a sentence pair this similar (cosine)
/// report the same event.
const SAME_EVENT: f32 = 0.5;

/// The knobs of TBMMR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TbmmrParams {
    pub lambda: f32,
    pub mu: f32,
    pub gamma: f32,
    pub seed_threshold: f32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    /// One line of events: the summary follows sentence time.
    #[default]
    Sequential,
    /// Several events on one day: the summary is grouped by report day.
    Divergent,
}

/// How one document relates to the topic.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DocumentTopic {
    /// TopicRel: best theme-to-topic cosine times the decay.
    pub relevance: f32,
    pub decay: f32,
    pub seed: bool,
    /// Report day (null when undated).
    pub day: Option<CivilDate>,
}

/// The day that made the set divergent and its events (document indices).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DivergentDay {
    pub day: CivilDate,
    pub events: Vec<Vec<usize>>,
}

/// TBMMR's reading of the topic, for the trace.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct TopicTrace {
    /// The topic's day (null when unknown).
    pub time: Option<CivilDate>,
    pub seed_threshold: f32,
    pub documents: Vec<DocumentTopic>,
    pub structure: Structure,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divergent_day: Option<DivergentDay>,
    /// The summary in the structure's order (table 3).
    pub order: Vec<usize>,
}

/// The TBMMR selector, built from the cluster before selection.
#[derive(Clone, Debug)]
pub struct Tbmmr {
    pub mmr: Mmr,
    pub topic: TopicTrace,
    /// Report day of every sentence's document (indexed by sentence id).
    report_days: Vec<Option<CivilDate>>,
}

impl Tbmmr {
    pub fn new(
        cluster: &Cluster,
        embeddings: &[Embedding],
        topic: &Topic,
        times: Vec<SentenceTime>,
        positions: Vec<f32>,
        params: TbmmrParams,
    ) -> Self {
        let themes: Vec<Vec<QuerySentence>> = (0..cluster.documents.len())
            .map(|doc| theme(cluster, embeddings, topic, &times, doc))
            .collect();
        let documents: Vec<DocumentTopic> = themes
            .iter()
            .enumerate()
            .map(|(doc, theme)| document_topic(cluster, topic, theme, doc, params.seed_threshold))
            .collect();
        let non_seed = |doc: &usize| !documents[*doc].seed && !themes[*doc].is_empty();
        let query: Vec<QuerySentence> = topic
            .sentences
            .iter()
            .cloned()
            .chain(
                (0..themes.len())
                    .filter(non_seed)
                    .flat_map(|doc| themes[doc].iter().cloned()),
            )
            .collect();
        let divergent_day = divergent_day(&themes, &documents);
        let topic_trace = TopicTrace {
            time: topic.time.day(),
            seed_threshold: params.seed_threshold,
            structure: if divergent_day.is_some() {
                Structure::Divergent
            } else {
                Structure::Sequential
            },
            divergent_day,
            documents,
            order: vec![],
        };
        let mmr = Mmr {
            variant: Variant::Tbmmr,
            query,
            times,
            positions,
            weights: Weights::marginal(params.lambda, params.mu),
            gamma: params.gamma,
        };
        let report_days = cluster
            .sentences
            .iter()
            .map(|s| document_day(cluster, s.doc))
            .collect();
        Tbmmr {
            mmr,
            topic: topic_trace,
            report_days,
        }
    }

    /// The picks in table 3's order: by sentence time (sequential) or by
    /// report day (divergent); then by score, highest first.
    pub fn timeline_order(&self, run: &MmrRun) -> Vec<usize> {
        let mut picks: Vec<(usize, f32)> = run
            .picked
            .iter()
            .copied()
            .zip(run.totals.iter().copied())
            .collect();
        let day = |id: usize| match self.topic.structure {
            Structure::Sequential => self.mmr.times[id].day(),
            Structure::Divergent => self.report_days[id],
        };
        picks.sort_by(|a, b| day(a.0).cmp(&day(b.0)).then(b.1.total_cmp(&a.1)));
        picks.into_iter().map(|(id, _)| id).collect()
    }
}

impl Selector for Tbmmr {
    fn select(&self, problem: &Problem) -> Selection {
        let run = self.mmr.run(problem);
        let mut trace = self.mmr.trace(&run);
        trace.topic = Some(TopicTrace {
            order: self.timeline_order(&run),
            ..self.topic.clone()
        });
        Selection {
            score: centroid_score(problem, &run.picked),
            sentences: run.picked,
            trace: Trace::Mmr(trace),
        }
    }
}

/// Theme(doc): the headline (when embedded) and the first three sentences.
fn theme(
    cluster: &Cluster,
    embeddings: &[Embedding],
    topic: &Topic,
    times: &[SentenceTime],
    doc: usize,
) -> Vec<QuerySentence> {
    let headline = topic.headlines[doc].map(|embedding| QuerySentence {
        source: QuerySource::Headline { doc },
        embedding,
        time: document_time(cluster, doc),
    });
    let leading = cluster
        .sentences_of(doc)
        .take(THEME_SENTENCES)
        .map(|id| QuerySentence {
            source: QuerySource::Sentence { id },
            embedding: embeddings[id],
            time: times[id],
        });
    headline.into_iter().chain(leading).collect()
}

/// Formula (2) and the seed decision of table 1.
fn document_topic(
    cluster: &Cluster,
    topic: &Topic,
    theme: &[QuerySentence],
    doc: usize,
    threshold: f32,
) -> DocumentTopic {
    let day = document_day(cluster, doc);
    let decay = match (day, topic.time.day()) {
        (Some(day), Some(topic_day)) => 1.0 / (1.0 + topic_day.days_until(day).abs() as f32 / DECAY_DAYS),
        _ => 1.0,
    };
    let best = theme
        .iter()
        .flat_map(|s| {
            topic
                .sentences
                .iter()
                .map(|t| dot(&s.embedding[..], &t.embedding[..]))
        })
        .fold(None, |best: Option<f32>, c| Some(best.map_or(c, |b| b.max(c))));
    let relevance = best.map_or(0.0, |b| b * decay);
    DocumentTopic {
        relevance,
        decay,
        seed: best.is_some() && relevance >= threshold,
        day,
    }
}

/// The first day whose non-seed documents report two or more events.
fn divergent_day(themes: &[Vec<QuerySentence>], documents: &[DocumentTopic]) -> Option<DivergentDay> {
    let mut days: Vec<CivilDate> = documents.iter().filter_map(|d| d.day).collect();
    days.sort();
    days.dedup();
    days.into_iter().find_map(|day| {
        let reporting: Vec<usize> = (0..documents.len())
            .filter(|&d| documents[d].day == Some(day) && !documents[d].seed && !themes[d].is_empty())
            .collect();
        let events = events_of(&reporting, themes);
        (events.len() >= 2).then_some(DivergentDay { day, events })
    })
}

/// Groups documents that report the same event (single link on theme
/// similarity), in document order.
fn events_of(docs: &[usize], themes: &[Vec<QuerySentence>]) -> Vec<Vec<usize>> {
    let same_event = |a: usize, b: usize| {
        themes[a].iter().any(|s| {
            themes[b]
                .iter()
                .any(|t| dot(&s.embedding[..], &t.embedding[..]) >= SAME_EVENT)
        })
    };
    let mut group: Vec<usize> = (0..docs.len()).collect();
    for i in 0..docs.len() {
        for j in 0..i {
            if same_event(docs[i], docs[j]) {
                let (from, to) = (group[i], group[j]);
                group.iter_mut().filter(|g| **g == from).for_each(|g| *g = to);
            }
        }
    }
    let mut events: Vec<Vec<usize>> = vec![];
    let mut labels: Vec<usize> = vec![];
    for (i, &label) in group.iter().enumerate() {
        match labels.iter().position(|&l| l == label) {
            Some(e) => events[e].push(docs[i]),
            None => {
                labels.push(label);
                events.push(vec![docs[i]]);
            }
        }
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::select::location::position_scores;
    use crate::select::testing::unit;
    use crate::select::topic::{sentence_times, TopicTexts};

    fn day(text: &str) -> CivilDate {
        text.parse().unwrap()
    }

    fn dated(date: &str, text: &str) -> Document {
        Document {
            timestamp: Some(day(date).to_timestamp()),
            lang: Some("en".into()),
            ..Document::new(date, text)
        }
    }

    fn params(gamma: f32) -> TbmmrParams {
        TbmmrParams {
            lambda: 0.7,
            mu: 0.0,
            gamma,
            seed_threshold: 0.5,
        }
    }

    fn build(cluster: &Cluster, embeddings: &[Embedding], p: TbmmrParams) -> Tbmmr {
        let texts = TopicTexts::new(cluster, None);
        let topic = Topic::new(cluster, embeddings, &texts, None).unwrap();
        Tbmmr::new(
            cluster,
            embeddings,
            &topic,
            sentence_times(cluster),
            position_scores(cluster),
            p,
        )
    }

    fn problem<'a>(
        embeddings: &'a [Embedding],
        candidates: &'a [usize],
        centroid: &'a [f32],
        limit: usize,
    ) -> Problem<'a> {
        static COSTS: [usize; 16] = [1; 16];
        Problem {
            embeddings,
            candidates,
            costs: &COSTS[..embeddings.len()],
            limit,
            centroid,
            redundancy: None,
            weights: None,
            pinned: &[],
        }
    }

    /// Two documents a day apart; the seed document opens the topic.
    /// Sentence 2 of the second document dates itself to the seed's day.
    fn time_case() -> (Cluster, Vec<Embedding>) {
        let cluster = Cluster::new(vec![
            dated("2011-03-18", "Seed event. Seed detail."),
            dated(
                "2011-03-19",
                "Follow up. Another follow up. It began on 18 March.",
            ),
        ]);
        let embeddings = vec![
            unit(&[(0, 1.0)]),              // 0 seed lead = the topic
            unit(&[(0, 1.0), (1, 1.0)]),    // 1
            unit(&[(0, 0.6), (2, 0.8)]),    // 2 follow up (topic cos 0.6: seed)
            unit(&[(0, 0.6), (3, 0.8)]),    // 3
            unit(&[(0, 0.55), (4, 0.835)]), // 4 dated 2011-03-18
        ];
        (cluster, embeddings)
    }

    #[test]
    fn gamma_changes_the_pick_through_sentence_times() {
        let (cluster, embeddings) = time_case();
        let times = sentence_times(&cluster);
        assert_eq!(times[4], SentenceTime::Day(day("2011-03-18")));
        let centroid = vec![1.0; crate::encoder::DIM];
        let candidates = [2, 3, 4];
        let p = problem(&embeddings, &candidates, &centroid, 1);
        // Query: the topic (sentence 0, dated 2011-03-18); every document is seed.
        // γ = 0: relevance is the cosine: 2 and 3 (0.6; 2 comes first) beat 4 (0.55).
        // γ = 0.4: 4 shares the topic's day: 0.6·0.55 + 0.4 = 0.73 against
        // 0.6·0.6 + 0.4·0.3 = 0.48 for 2 and 3 (a day apart).
        let plain = build(&cluster, &embeddings, params(0.0)).select(&p);
        assert_eq!(plain.sentences, vec![2]);
        let timed = build(&cluster, &embeddings, params(0.4)).select(&p);
        assert_eq!(timed.sentences, vec![4]);
    }

    #[test]
    fn seed_documents_by_decayed_topic_relevance() {
        let (cluster, embeddings) = time_case();
        let t = build(&cluster, &embeddings, params(0.4));
        let docs = &t.topic.documents;
        assert!(docs[0].seed && (docs[0].relevance - 1.0).abs() < 1e-6);
        // One day later: decay 1/(1 + 1/7) = 0.875; best theme cosine 0.6.
        assert!((docs[1].decay - 0.875).abs() < 1e-6);
        assert!((docs[1].relevance - 0.6 * 0.875).abs() < 1e-6 && docs[1].seed);
        let strict = build(
            &cluster,
            &embeddings,
            TbmmrParams {
                seed_threshold: 0.6,
                ..params(0.4)
            },
        );
        assert!(!strict.topic.documents[1].seed);
        // Non-seed: its theme (sentences 2, 3, 4) joins the query.
        let sources: Vec<QuerySource> = strict.mmr.query.iter().map(|q| q.source).collect();
        assert_eq!(sources[1..], [2, 3, 4].map(|id| QuerySource::Sentence { id }));
    }

    /// Day 1: the seed. Day 2: two unrelated non-seed documents.
    fn divergent_case() -> (Cluster, Vec<Embedding>) {
        let cluster = Cluster::new(vec![
            dated("2011-03-18", "Seed event."),
            dated("2011-03-19", "Quake strikes."),
            dated("2011-03-19", "Election held."),
            dated("2011-03-20", "Seed again."),
        ]);
        let embeddings = vec![
            unit(&[(0, 1.0)]),
            unit(&[(1, 1.0)]),
            unit(&[(2, 1.0)]),
            unit(&[(0, 1.0), (3, 0.2)]),
        ];
        (cluster, embeddings)
    }

    #[test]
    fn two_events_on_a_day_make_the_set_divergent() {
        let (cluster, embeddings) = divergent_case();
        let t = build(&cluster, &embeddings, params(0.4));
        assert_eq!(t.topic.structure, Structure::Divergent);
        let divergent = t.topic.divergent_day.as_ref().unwrap();
        assert_eq!(
            (divergent.day, divergent.events.clone()),
            (day("2011-03-19"), vec![vec![1], vec![2]])
        );
        // The same two documents reporting one event: sequential.
        let mut related = embeddings.clone();
        related[2] = unit(&[(1, 1.0), (2, 0.9)]);
        assert_eq!(
            build(&cluster, &related, params(0.4)).topic.structure,
            Structure::Sequential
        );
    }

    #[test]
    fn ordering_follows_the_structure() {
        let (cluster, embeddings) = divergent_case();
        let mut t = build(&cluster, &embeddings, params(0.4));
        // Picked (id, score): 3 (day 20), 2 (day 19, 0.5), 1 (day 19, 0.9), 0 (day 18).
        let run = MmrRun {
            picked: vec![3, 2, 1, 0],
            totals: vec![0.9, 0.5, 0.9, 0.1],
            steps: vec![],
        };
        // Divergent: days in order, within a day by score.
        assert_eq!(t.timeline_order(&run), vec![0, 1, 2, 3]);
        // Sequential: by sentence time, whatever the report day; the same
        // time by score.
        t.topic.structure = Structure::Sequential;
        t.mmr.times[1] = SentenceTime::Day(day("2011-03-17")); // "…on 17 March"
        t.mmr.times[2] = SentenceTime::Day(day("2011-03-17"));
        assert_eq!(t.timeline_order(&run), vec![1, 2, 0, 3]);
    }

    #[test]
    fn select_reports_the_structure_and_order_in_the_trace() {
        let (cluster, embeddings) = divergent_case();
        let centroid = vec![1.0; crate::encoder::DIM];
        let p = problem(&embeddings, &[0, 1, 2, 3], &centroid, 3);
        let selection = build(&cluster, &embeddings, params(0.4)).select(&p);
        let Trace::Mmr(trace) = selection.trace else {
            panic!("mmr trace")
        };
        let topic = trace.topic.unwrap();
        assert_eq!(topic.structure, Structure::Divergent);
        // Query: topic 0 plus the non-seed themes 1 and 2, all with relevance
        // 1 (self-match); 1 and 2 share a day, so after 0 (redundancy 0.12
        // each) 1 goes first and 2 follows with redundancy 0.4; 3 copies 0.
        assert_eq!(selection.sentences, vec![0, 1, 2]);
        assert_eq!(topic.order, vec![0, 1, 2]);
        assert_eq!(topic.documents.iter().filter(|d| d.seed).count(), 2);
        assert_eq!(trace.times[1], Some(day("2011-03-19")));
    }
}
