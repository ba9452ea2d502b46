//! The timeline mode's work, free of browser code (tested natively): order
//! the articles by date, replay them through a streaming policy
//! (`crate::stream`) one sentence at a time, and keep every decision with
//! its reason so the page can replay the stream at any speed.
//!
//! The engine decides each sentence when it arrives, with no look-ahead;
//! the page only reveals the recorded decisions one by one. Changing the
//! policy or its threshold replays the stream from the start with the new
//! setting.

use super::pipeline::EmbeddingCache;
use super::protocol::MAX_TOTAL_BYTES;
use crate::document::{Cluster, Document, Sentence};
use crate::stream::learned::StreamSettings;
use crate::stream::{Action, Decision, Engine, Reason, SentenceInput};
use serde::{Deserialize, Serialize};

/// Where the trained settings (LS weights, tuned thresholds) are served.
pub const SETTINGS_URL: &str = "models/stream/ls.json";

/// The policies the app offers, in menu order.
pub const POLICIES: [&str; 4] = ["ls+cos", "ls", "cos", "apsal"];

/// Policies that need the trained LS weights.
pub fn needs_weights(policy: &str) -> bool {
    policy.starts_with("ls")
}

/// The threshold a policy uses under `settings`; None for LS alone (it
/// selects when its score is positive).
pub fn default_threshold(settings: &StreamSettings, policy: &str) -> Option<f32> {
    match policy {
        "cos" => Some(settings.cos_threshold),
        "ls+cos" => Some(settings.ls_cos_threshold),
        "apsal" => Some(settings.apsal.threshold),
        _ => None,
    }
}

/// What the page asks for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamJob {
    /// The articles in card order.
    pub documents: Vec<Document>,
    /// "cos", "apsal", "ls" or "ls+cos".
    pub policy: String,
    /// Redundancy threshold (cosine); None keeps the tuned one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f32>,
    /// What the event is about; None: the earliest article's headline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

/// What the worker can offer for the timeline (sent once it knows).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StreamOffer {
    /// The LS weights were found (models/stream/ls.json).
    pub trained: bool,
    /// Tuned thresholds per policy name (absent for LS).
    pub thresholds: Vec<(String, f32)>,
    /// Why LS is not offered, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl StreamOffer {
    pub fn of(settings: &StreamSettings, trained: bool, note: Option<String>) -> Self {
        let thresholds = POLICIES
            .iter()
            .filter_map(|p| default_threshold(settings, p).map(|t| (p.to_string(), t)))
            .collect();
        Self { trained, thresholds, note }
    }

    pub fn threshold(&self, policy: &str) -> Option<f32> {
        self.thresholds.iter().find(|(p, _)| p == policy).map(|(_, t)| *t)
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

/// An article in replay order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamArticle {
    /// Its index among the cards (and in the job's documents).
    pub card: usize,
    /// Its own date, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<i64>,
    /// When it is replayed: its date, or the date of the article before it.
    pub time: i64,
}

/// A replayed stream.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Timeline {
    pub policy: String,
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

/// A checked job, its articles in replay order and split.
pub struct PreparedStream {
    pub cluster: Cluster,
    pub articles: Vec<StreamArticle>,
    pub query: String,
    pub job: StreamJob,
}

impl PreparedStream {
    /// Every text that needs an embedding: the query, then the sentences.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.query.as_str()).chain(self.cluster.sentences.iter().map(|s| s.text.as_str()))
    }
}

/// Replay order: by date, an undated article keeping its place after the
/// one before it (input order when nothing is dated).
pub fn replay_order(documents: &[Document]) -> Vec<StreamArticle> {
    let mut previous = documents.iter().find_map(|d| d.timestamp).unwrap_or(0);
    let mut articles: Vec<StreamArticle> = documents
        .iter()
        .enumerate()
        .map(|(card, d)| {
            previous = d.timestamp.unwrap_or(previous);
            StreamArticle { card, date: d.timestamp, time: previous }
        })
        .collect();
    articles.sort_by_key(|a| a.time); // stable: input order among equals
    articles
}

/// Checks the job, orders and splits its articles, picks the query.
pub fn prepare(job: StreamJob, settings: &StreamSettings) -> Result<PreparedStream, String> {
    if job.documents.is_empty() {
        return Err("Add at least one article first.".into());
    }
    let bytes: usize = job.documents.iter().map(|d| d.text.len()).sum();
    if bytes > MAX_TOTAL_BYTES {
        return Err("The articles hold too much text for one timeline. Remove some articles.".into());
    }
    with_threshold(settings, &job.policy, job.threshold)?;
    let articles = replay_order(&job.documents);
    let ordered: Vec<Document> = articles.iter().map(|a| job.documents[a.card].clone()).collect();
    let cluster = Cluster::new(ordered);
    if cluster.sentences.is_empty() {
        return Err("The articles contain no sentences to replay (no letters or digits were found).".into());
    }
    let query = job
        .query
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(str::to_string)
        .or_else(|| cluster.documents[0].title.clone().filter(|t| !t.trim().is_empty()))
        .unwrap_or_else(|| cluster.sentences[0].text.clone());
    Ok(PreparedStream { cluster, articles, query, job })
}

/// Replays the embedded stream through the policy.
pub fn replay(prepared: &PreparedStream, cache: &EmbeddingCache, settings: &StreamSettings) -> Result<Timeline, String> {
    let PreparedStream { cluster, articles, query, job } = prepared;
    let settings = with_threshold(settings, &job.policy, job.threshold)?;
    let policy = settings.policy(&job.policy)?;
    let query_embedding = cache.get(query).ok_or("The query has no embedding yet.")?;
    let mut engine = Engine::new(policy, Some(query_embedding), settings.state);
    let mut events = vec![];
    // Documents are pushed whole and in order: stream ids are the cluster's
    // sentence ids.
    let record = |decisions: Vec<Decision>, events: &mut Vec<StreamEvent>| events.extend(decisions.into_iter().map(StreamEvent::from));
    for (doc, article) in articles.iter().enumerate() {
        let inputs = cluster
            .sentences_of(doc)
            .map(|i| {
                let text = &cluster.sentences[i].text;
                let embedding = cache.get(text).ok_or_else(|| format!("no embedding for {text:?}"))?;
                Ok(SentenceInput { words: cluster.sentences[i].words, embedding })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let released = engine.open_document(article.time, inputs.iter().map(|s| &s.embedding));
        record(released, &mut events);
        for input in &inputs {
            let decision = engine.decide(input);
            record(vec![decision], &mut events);
        }
    }
    record(engine.finish(), &mut events);
    let mut notes = vec![];
    if articles.iter().all(|a| a.date.is_none()) {
        notes.push("No article has a date, so they arrive in the order of the cards. Set dates on the cards to replay them in time order.".into());
    } else if articles.iter().any(|a| a.date.is_none()) {
        notes.push("Undated articles arrive right after the article before them in the list.".into());
    }
    Ok(Timeline {
        policy: job.policy.clone(),
        threshold: default_threshold(&settings, &job.policy),
        query: query.clone(),
        articles: articles.clone(),
        sentences: cluster.sentences.clone(),
        updates: engine.updates().len(),
        events,
        notes,
        timing_ms: 0.0,
    })
}

/// `settings` with the user's threshold for `policy` (None keeps the tuned
/// one); refuses an unknown policy or a threshold that is no cosine.
pub fn with_threshold(settings: &StreamSettings, policy: &str, threshold: Option<f32>) -> Result<StreamSettings, String> {
    settings.policy(policy)?;
    let mut settings = settings.clone();
    if let Some(t) = threshold {
        if !(-1.0..=1.0).contains(&t) || t.is_nan() {
            return Err("The threshold is a cosine: enter a number between 0 and 1.".into());
        }
        match policy {
            "cos" => settings.cos_threshold = t,
            "ls+cos" => settings.ls_cos_threshold = t,
            "apsal" => settings.apsal.threshold = t,
            _ => {}
        }
    }
    Ok(settings)
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

/// "2026-03-10", or "2026-03-10 14:30" when the time is not midnight (UTC).
pub fn format_time(seconds: i64) -> String {
    let date = crate::dates::CivilDate::from_timestamp(seconds).to_string();
    let rest = seconds.rem_euclid(86_400);
    if rest == 0 {
        date
    } else {
        format!("{date} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::pipeline::tests::fake_embedding;

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
            dated("early", Some("2026-03-10"), "A glacial lake burst above the village. Hundreds were evacuated."),
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
        let job = StreamJob { documents: documents(), policy: "cos".into(), threshold: Some(0.9), query: None };
        let prepared = prepare(job, &settings).unwrap();
        assert_eq!(prepared.query, "A glacial lake burst above the village.");
        let cache = embed(&prepared);
        let timeline = replay(&prepared, &cache, &settings).unwrap();
        assert_eq!(timeline.events.len(), timeline.sentences.len(), "COS decides every sentence at once");
        let selected: Vec<&StreamEvent> = timeline.events.iter().filter(|e| e.action == Action::Select).collect();
        assert_eq!(selected.len(), timeline.updates);
        assert_eq!(selected.len(), 4, "four novel first sentences at 0.9");
        assert!(selected.windows(2).all(|w| w[0].time <= w[1].time), "updates in time order");
        assert!(selected.iter().all(|e| timeline.sentences[e.sentence].index == 0));
        let skipped = timeline.events.iter().find(|e| e.action == Action::Skip).unwrap();
        assert_eq!(skipped.reason, "not a first sentence");
        assert_eq!(timeline.threshold, Some(0.9));
        assert!(timeline.notes.iter().any(|n| n.contains("Undated")));
    }

    #[test]
    fn a_low_threshold_skips_repeats_and_says_which_update() {
        let settings = StreamSettings::untrained();
        let mut docs = documents();
        docs.push(dated("copy", Some("2026-03-13"), "A glacial lake burst above the village. More later."));
        let job = StreamJob { documents: docs, policy: "cos".into(), threshold: Some(0.5), query: Some("glacial lake".into()) };
        let prepared = prepare(job, &settings).unwrap();
        let timeline = replay(&prepared, &embed(&prepared), &settings).unwrap();
        let copy = timeline.events.iter().find(|e| timeline.sentences[e.sentence].doc == 4 && timeline.sentences[e.sentence].index == 0).unwrap();
        assert_eq!(copy.action, Action::Skip);
        assert!(copy.reason.starts_with("too similar to update 1: 1.00"), "{}", copy.reason);
        assert!(copy.similarity.unwrap() > 0.99);
    }

    #[test]
    fn apsal_defers_then_decides_every_sentence_once() {
        let settings = StreamSettings::untrained();
        let job = StreamJob { documents: documents(), policy: "apsal".into(), threshold: None, query: None };
        let prepared = prepare(job, &settings).unwrap();
        let timeline = replay(&prepared, &embed(&prepared), &settings).unwrap();
        let n = timeline.sentences.len();
        let deferred = timeline.events.iter().filter(|e| e.action == Action::Defer).count();
        let decided = timeline.events.iter().filter(|e| e.action != Action::Defer).count();
        assert_eq!((deferred, decided), (n, n));
        assert!(timeline.updates >= 1);
        assert_eq!(timeline.threshold, Some(settings.apsal.threshold));
    }

    #[test]
    fn bad_jobs_are_refused_in_plain_words() {
        let settings = StreamSettings::untrained();
        let empty = StreamJob { documents: vec![], policy: "cos".into(), threshold: None, query: None };
        assert_eq!(prepare(empty, &settings).err().unwrap(), "Add at least one article first.");
        let unknown = StreamJob { documents: documents(), policy: "magic".into(), threshold: None, query: None };
        assert!(prepare(unknown, &settings).err().unwrap().contains("unknown policy"));
        assert!(needs_weights("ls+cos") && !needs_weights("apsal"));
        assert_eq!(format_time(0), "1970-01-01");
        assert_eq!(format_time(86_400 + 3_600 * 14 + 60 * 30), "1970-01-02 14:30");
    }
}
