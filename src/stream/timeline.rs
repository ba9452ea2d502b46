//! The timeline mode's work, free of browser code (tested natively): order
//! the articles by date, replay them through a streaming policy
//! (`crate::stream`) one sentence at a time, and keep every decision with
//! its reason so the page can replay the stream at any speed.
//!
//! The engine decides each sentence when it arrives, with no look-ahead;
//! the page only reveals the recorded decisions one by one. Changing the
//! policy or its threshold replays the stream from the start with the new
//! setting.

use super::settings::StreamSettings;
pub use super::replay::StreamArticle;
use super::replay::ReplaySet;
use super::{Action, Decision, PolicyKind, Reason};
use crate::document::{check_total_text, Document, Sentence};
use crate::encoder::EmbeddingCache;
use serde::{Deserialize, Serialize};

/// What the page asks for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamJob {
    /// The articles in card order.
    pub documents: Vec<Document>,
    pub policy: PolicyKind,
    /// Redundancy threshold (cosine); None keeps the tuned one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f32>,
    /// What the event is about; None: the earliest article's headline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The reader's topic or question steering the policies, and its weight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    #[serde(default)]
    pub topic_weight: f32,
}

/// What the worker can offer for the timeline (sent once it knows).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StreamOffer {
    /// The LS weights were found (models/stream/ls.json).
    pub trained: bool,
    /// Tuned thresholds per policy (absent for LS).
    pub thresholds: Vec<(PolicyKind, f32)>,
    /// Why LS is not offered, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl StreamOffer {
    pub fn of(settings: &StreamSettings, trained: bool, note: Option<String>) -> Self {
        let thresholds = PolicyKind::ALL.iter().filter_map(|&p| settings.threshold(p).map(|t| (p, t))).collect();
        Self { trained, thresholds, note }
    }

    pub fn threshold(&self, policy: PolicyKind) -> Option<f32> {
        self.thresholds.iter().find(|(p, _)| *p == policy).map(|(_, t)| *t)
    }
}

/// One decision of the replay, in the order it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamEvent {
    /// Index into `Timeline::sentences` (= arrival order in the stream).
    pub sentence: usize,
    pub action: Action,
    /// When the decision was made (seconds since 1970, UTC).
    pub time: i64,
    /// The reason in words ("too similar to update 3: 0.82 ≥ 0.60").
    pub reason: String,
    /// The update it became (0-based) when selected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update: Option<usize>,
    /// Similarity to the closest earlier update, when the policy looked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f32>,
}

/// A replayed stream.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Timeline {
    pub policy: PolicyKind,
    pub threshold: Option<f32>,
    /// The query the policies compare with (the text).
    pub query: String,
    /// Articles in replay order; `Sentence::doc` indexes this list.
    pub articles: Vec<StreamArticle>,
    pub sentences: Vec<Sentence>,
    pub events: Vec<StreamEvent>,
    pub updates: usize,
    /// Things the user should know (no dates, …).
    pub notes: Vec<String>,
    pub timing_ms: f64,
}

/// A checked job: its articles in replay order and split, with the query
/// and the settings it runs with.
pub struct PreparedStream {
    pub set: ReplaySet,
    pub policy: PolicyKind,
    pub settings: StreamSettings,
}

impl PreparedStream {
    /// Every text that needs an embedding: the query, then the sentences.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.set.texts()
    }
}

/// Checks the job (size, threshold), orders and splits its articles,
/// picks the query.
pub fn prepare(job: StreamJob, settings: &StreamSettings) -> Result<PreparedStream, String> {
    check_total_text(&job.documents)?;
    let settings = settings.with_threshold(job.policy, job.threshold)?;
    let set = ReplaySet::new(&job.documents, job.query.as_deref())?.with_topic(job.topic.as_deref(), job.topic_weight);
    Ok(PreparedStream { set, policy: job.policy, settings })
}

/// Replays the embedded stream through the policy.
pub fn replay(prepared: &PreparedStream, cache: &EmbeddingCache) -> Result<Timeline, String> {
    let PreparedStream { set, policy, settings } = prepared;
    let (decisions, replay) = set.replay(*policy, settings, |text| cache.get(text))?;
    let mut notes = vec![];
    if set.articles.iter().all(|a| a.date.is_none()) {
        notes.push("No article has a date, so they arrive in the order of the cards. Set dates on the cards to replay them in time order.".into());
    } else if set.articles.iter().any(|a| a.date.is_none()) {
        notes.push("Undated articles arrive right after the article before them in the list.".into());
    }
    Ok(Timeline {
        policy: *policy,
        threshold: settings.threshold(*policy),
        query: set.query.clone(),
        articles: set.articles.clone(),
        sentences: set.cluster.sentences.clone(),
        updates: replay.updates(),
        events: decisions.into_iter().map(StreamEvent::from).collect(),
        notes,
        timing_ms: 0.0,
    })
}

impl From<Decision> for StreamEvent {
    fn from(d: Decision) -> Self {
        StreamEvent {
            sentence: d.sentence,
            action: d.action,
            time: d.time,
            similarity: similarity_of(&d.reason),
            reason: d.reason.to_string(),
            update: d.update,
        }
    }
}

/// The cosine to the closest update a reason mentions, if any.
fn similarity_of(reason: &Reason) -> Option<f32> {
    let closest = match reason {
        Reason::Redundancy { closest } | Reason::Exemplar { closest, .. } => Some(closest),
        Reason::ScoreThenRedundancy { closest, .. } => closest.as_ref(),
        _ => None,
    }?;
    closest.update.map(|_| closest.similarity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::replay::replay_order;
    use crate::encoder::fake_embedding;

    fn embed(prepared: &PreparedStream) -> EmbeddingCache {
        let mut cache = EmbeddingCache::default();
        let missing = cache.missing(prepared.texts());
        let embeddings = missing.iter().map(|t| fake_embedding(t)).collect();
        cache.insert(missing, embeddings);
        cache
    }

    fn dated(id: &str, date: Option<&str>, text: &str) -> Document {
        let mut d = Document::new(id, text);
        d.timestamp = date.and_then(crate::app::present::parse_iso_date);
        d
    }

    fn documents() -> Vec<Document> {
        vec![
            dated("late", Some("2026-03-12"), "Rescuers found the two shepherds alive. They were airlifted to hospital."),
            dated("early", Some("2026-03-10"), "A glacial lake burst above the village. Evacuated."),
            dated("undated", None, "The valley road stays closed. Engineers inspect the bridge."),
            dated("middle", Some("2026-03-11"), "Le lac glaciaire a cédé au-dessus du village. Les secours cherchent deux bergers."),
        ]
    }

    #[test]
    fn articles_replay_by_date_undated_ones_after_their_predecessor() {
        let order: Vec<usize> = replay_order(&documents()).iter().map(|a| a.card).collect();
        assert_eq!(order, vec![1, 2, 3, 0]);
        let undated = vec![Document::new("a", "x"), Document::new("b", "y")];
        assert_eq!(replay_order(&undated).iter().map(|a| a.card).collect::<Vec<_>>(), vec![0, 1]);
    }

    #[test]
    fn cos_selects_dated_first_sentences_in_time_order_with_reasons() {
        let settings = StreamSettings::untrained();
        let job = StreamJob { documents: documents(), policy: PolicyKind::Cos, threshold: Some(0.9), query: None, topic: None, topic_weight: 0.0 };
        let prepared = prepare(job, &settings).unwrap();
        assert_eq!(prepared.set.query, "A glacial lake burst above the village.");
        let cache = embed(&prepared);
        let timeline = replay(&prepared, &cache).unwrap();
        assert_eq!(timeline.events.len(), timeline.sentences.len(), "COS decides every sentence at once");
        let selected: Vec<&StreamEvent> = timeline.events.iter().filter(|e| e.action == Action::Select).collect();
        assert_eq!(selected.len(), timeline.updates);
        assert_eq!(selected.len(), 4, "four novel first sentences at 0.9");
        assert!(selected.windows(2).all(|w| w[0].time <= w[1].time), "updates in time order");
        assert!(selected.iter().all(|e| timeline.sentences[e.sentence].index == 0));
        let skipped: Vec<&str> = timeline.events.iter().filter(|e| e.action == Action::Skip).map(|e| e.reason.as_str()).collect();
        assert!(skipped.contains(&"not a first sentence"), "{skipped:?}");
        // "Evacuated." is a fragment: never an update, and told so.
        assert!(skipped.contains(&"fragment: too short to stand alone"), "{skipped:?}");
        assert_eq!(timeline.threshold, Some(0.9));
        assert!(timeline.notes.iter().any(|n| n.contains("Undated")));
    }

    #[test]
    fn a_low_threshold_skips_repeats_and_says_which_update() {
        let settings = StreamSettings::untrained();
        let mut docs = documents();
        docs.push(dated("copy", Some("2026-03-13"), "A glacial lake burst above the village. More later."));
        let job = StreamJob { documents: docs, policy: PolicyKind::Cos, threshold: Some(0.5), query: Some("glacial lake".into()), topic: None, topic_weight: 0.0 };
        let prepared = prepare(job, &settings).unwrap();
        let timeline = replay(&prepared, &embed(&prepared)).unwrap();
        let copy = timeline.events.iter().find(|e| timeline.sentences[e.sentence].doc == 4 && timeline.sentences[e.sentence].index == 0).unwrap();
        assert_eq!(copy.action, Action::Skip);
        assert!(copy.reason.starts_with("too similar to update 1: 1.00"), "{}", copy.reason);
        assert!(copy.similarity.unwrap() > 0.99);
    }

    #[test]
    fn apsal_defers_then_decides_every_sentence_once() {
        let settings = StreamSettings::untrained();
        let job = StreamJob { documents: documents(), policy: PolicyKind::Apsal, threshold: None, query: None, topic: None, topic_weight: 0.0 };
        let prepared = prepare(job, &settings).unwrap();
        let timeline = replay(&prepared, &embed(&prepared)).unwrap();
        let n = timeline.sentences.len();
        // Fragments and furniture are skipped at once; APSAL holds the rest.
        // "Evacuated." is prose in its paragraph, but no update alone.
        let not_prose = timeline.events.iter().filter(|e| e.reason == "fragment: too short to stand alone").count();
        assert_eq!(not_prose, 1, "Evacuated.");
        assert!(timeline.sentences.iter().all(|s| s.excluded.is_none()));
        let deferred = timeline.events.iter().filter(|e| e.action == Action::Defer).count();
        let decided = timeline.events.iter().filter(|e| e.action != Action::Defer).count();
        assert_eq!((deferred, decided), (n - not_prose, n));
        assert!(timeline.updates >= 1);
        assert_eq!(timeline.threshold, Some(settings.apsal.threshold));
    }

    #[test]
    fn bad_jobs_are_refused_in_plain_words() {
        let settings = StreamSettings::untrained();
        let empty = StreamJob { documents: vec![], policy: PolicyKind::Cos, threshold: None, query: None, topic: None, topic_weight: 0.0 };
        assert_eq!(prepare(empty, &settings).err().unwrap(), "Add at least one article first.");
        let unknown = serde_json::from_str::<StreamJob>(r#"{"documents": [], "policy": "magic"}"#);
        assert!(unknown.unwrap_err().to_string().contains("unknown variant"));
        let cosine = StreamJob { documents: documents(), policy: PolicyKind::Cos, threshold: Some(1.5), query: None, topic: None, topic_weight: 0.0 };
        assert!(prepare(cosine, &settings).err().unwrap().contains("cosine"));
    }
}
