//! The replay engine: the incremental stream state, the policy trait and the
//! decisions with their reasons.

/// The cosine of unit vectors (the selection module's, shared by every policy).
pub use crate::select::dot;
pub use crate::centroid::steer::unit_mean;
use crate::encoder::{Embedding, DIM};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// One sentence of an arriving document, already encoded.
#[derive(Clone, Debug)]
pub struct SentenceInput {
    /// Length in budget words.
    pub words: usize,
    pub embedding: Embedding,
    /// Why the sentence is not prose (`Sentence::excluded`: page furniture
    /// or a fragment); such a sentence is never an update.
    pub not_prose: Option<String>,
}

/// A sentence as policies see it: its place in the stream and its content.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamSentence {
    /// Arrival order over the whole stream (0-based).
    pub id: usize,
    /// Arrival order of its document (0-based).
    pub doc: usize,
    /// Index among its document's prose sentences (0 = the first; page
    /// furniture, never a policy's to decide, shares the next one's).
    pub position: usize,
    /// Arrival time of its document, seconds since the Unix epoch.
    pub time: i64,
    pub words: usize,
    #[serde(with = "super::snapshot::f32s")]
    pub embedding: Embedding,
}

/// A selected sentence.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Update {
    pub sentence: usize,
    pub doc: usize,
    pub position: usize,
    /// When it was selected (its arrival, or the close of its APSAL window).
    pub time: i64,
    #[serde(with = "super::snapshot::f32s")]
    pub embedding: Embedding,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Select,
    Skip,
    /// Decided later, when the policy's time window closes (APSAL).
    Defer,
}

/// The update most similar to a sentence, against a redundancy threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Closest {
    /// Index of the closest update (0-based), `None` when there are no updates.
    pub update: Option<usize>,
    pub similarity: f32,
    pub threshold: f32,
}

impl Closest {
    /// Closest update of `embedding` among `updates`; similarity −1 when none.
    pub fn among(updates: &[Update], embedding: &Embedding, threshold: f32) -> Self {
        let best = updates
            .iter()
            .enumerate()
            .map(|(i, u)| (i, dot(&u.embedding, embedding)))
            .fold(None, |best: Option<(usize, f32)>, (i, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((i, s)),
            });
        Self { update: best.map(|(i, _)| i), similarity: best.map_or(-1.0, |(_, s)| s), threshold }
    }

    /// Below the threshold to every update (or no updates yet).
    pub fn is_novel(&self) -> bool {
        self.update.is_none() || self.similarity < self.threshold
    }
}

/// Why a policy decided what it did; `Display` gives the text the app shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// COS looks only at each document's first sentence.
    NotFirstSentence,
    /// Steered COS looks only at each document's lead for the topic:
    /// sentence `lead` (0-based position) of the document.
    NotTopicLead { lead: usize },
    /// Redundancy check against earlier updates (COS).
    Redundancy { closest: Closest },
    /// The LS score: predicted cost of skipping minus that of selecting.
    Score { score: f32 },
    /// LS+COS: the LS score, then (if positive) the redundancy check.
    ScoreThenRedundancy { score: f32, closest: Option<Closest> },
    /// APSAL: waiting for the window that ends at `window_end` to close.
    Waiting { window_end: i64 },
    /// APSAL: not an exemplar of its window; `exemplar` is the stream id of
    /// the sentence that represents its cluster.
    NotExemplar { exemplar: usize },
    /// APSAL: exemplar of a cluster, then the redundancy check.
    Exemplar { cluster_size: usize, closest: Closest },
    /// Training oracle: how many nuggets the sentence adds.
    Oracle { new_nuggets: usize },
    /// Page furniture or a fragment (the segmentation's reason): skipped
    /// before any policy looks at it, as summaries never pick it.
    NotProse { why: String },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotFirstSentence => write!(f, "not a first sentence"),
            Reason::NotTopicLead { lead } => write!(f, "not the document's lead for the topic (sentence {} is)", lead + 1),
            Reason::Redundancy { closest } => write!(f, "{closest}"),
            Reason::Score { score } => write_score(f, *score),
            Reason::ScoreThenRedundancy { score, closest } => {
                write_score(f, *score)?;
                match closest {
                    Some(c) => write!(f, ", {c}"),
                    None => Ok(()),
                }
            }
            Reason::Waiting { window_end } => write!(f, "waiting for the window ending at {window_end}"),
            Reason::NotExemplar { exemplar } => {
                write!(f, "not an exemplar (its cluster is represented by sentence {exemplar})")
            }
            Reason::Exemplar { cluster_size, closest } => {
                write!(f, "exemplar of a cluster of {cluster_size}, {closest}")
            }
            Reason::Oracle { new_nuggets } => write!(f, "adds {new_nuggets} new nugget(s)"),
            Reason::NotProse { why } => write!(f, "{why}"),
        }
    }
}

impl fmt::Display for Closest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.update {
            None => write!(f, "no updates yet"),
            Some(u) if self.similarity >= self.threshold => write!(
                f,
                "too similar to update {}: {:.2} ≥ {:.2}",
                u + 1,
                self.similarity,
                self.threshold
            ),
            Some(u) => write!(
                f,
                "new: closest is update {} at {:.2} < {:.2}",
                u + 1,
                self.similarity,
                self.threshold
            ),
        }
    }
}

/// "LS score −0.40 < 0": a real minus sign, the comparison that decided.
fn write_score(f: &mut fmt::Formatter<'_>, score: f32) -> fmt::Result {
    let sign = if score < 0.0 { "−" } else { "" };
    let cmp = if score > 0.0 { ">" } else if score < 0.0 { "<" } else { "=" };
    write!(f, "LS score {sign}{:.2} {cmp} 0", score.abs())
}

/// One decision of the engine, in the order it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Stream id of the sentence (see [`StreamSentence::id`]).
    pub sentence: usize,
    pub doc: usize,
    pub position: usize,
    pub action: Action,
    /// When the decision was made.
    pub time: i64,
    pub reason: Reason,
    /// Index of the update it became (for `Select`).
    pub update: Option<usize>,
}

/// A deferred sentence decided now.
#[derive(Clone, Debug)]
pub struct Released {
    pub sentence: StreamSentence,
    /// `Select` or `Skip`.
    pub action: Action,
    pub reason: Reason,
    pub time: i64,
}

/// A streaming policy: sees each sentence once, with the state before it.
pub trait Policy {
    /// Short name for reports ("cos", "apsal", "ls", "ls+cos").
    fn name(&self) -> &'static str;

    /// Select, skip or defer `sentence`.
    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason);

    /// Time has advanced to `now` (a document arrives) or the stream ended
    /// (`None`): decide the deferred sentences whose time has come, in order.
    fn release(&mut self, _state: &StreamState, _now: Option<i64>) -> Vec<Released> {
        Vec::new()
    }

    /// What the policy holds between sentences (APSAL's open window), to
    /// save a stream; null for a policy that holds nothing. Native only:
    /// only the Python package saves streams, and the app's wasm would
    /// carry the saving code in every policy's vtable (+5.7 KB gzipped:
    /// 3,003,123 against 2,997,373 bytes of first load, over the 3 MB limit).
    #[cfg(not(target_arch = "wasm32"))]
    fn held(&self) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// Takes back what [`Self::held`] gave.
    #[cfg(not(target_arch = "wasm32"))]
    fn restore_held(&mut self, held: serde_json::Value) -> Result<(), String> {
        match held {
            serde_json::Value::Null => Ok(()),
            _ => Err(format!("the {} policy holds nothing between sentences", self.name())),
        }
    }
}

impl<P: Policy + ?Sized> Policy for Box<P> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn decide(&mut self, state: &StreamState, sentence: &StreamSentence) -> (Action, Reason) {
        (**self).decide(state, sentence)
    }
    fn release(&mut self, state: &StreamState, now: Option<i64>) -> Vec<Released> {
        (**self).release(state, now)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn held(&self) -> serde_json::Value {
        (**self).held()
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn restore_held(&mut self, held: serde_json::Value) -> Result<(), String> {
        (**self).restore_held(held)
    }
}

/// Sizes of the bounded parts of the state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateConfig {
    /// Sentences remembered for stream novelty.
    pub recent_sentences: usize,
    /// Width of the two windows compared by the arrival-rate change, seconds.
    pub rate_window: i64,
}

impl Default for StateConfig {
    fn default() -> Self {
        Self { recent_sentences: 20, rate_window: 3600 }
    }
}

/// Everything a policy may look at, updated incrementally: the cost of a
/// step is O(updates + recent sentences), never O(stream length). It saves
/// exactly (see [`Engine::snapshot`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StreamState {
    config: StateConfig,
    #[serde(with = "super::snapshot::option_f32s")]
    query: Option<Embedding>,
    /// A reader's topic and its weight, pulling the query, the centroid
    /// and COS's lead towards it (see [`StreamState::steered`]).
    #[serde(with = "steering_serde")]
    steering: Option<(Embedding, f32)>,
    updates: Vec<Update>,
    /// Sum of all sentences observed so far (the running stream centroid).
    #[serde(with = "super::snapshot::f64s")]
    centroid_sum: Vec<f64>,
    observed: usize,
    #[serde(with = "super::snapshot::f32s_seq")]
    recent: VecDeque<Embedding>,
    /// Arrival times of documents within the last two rate windows.
    arrivals: VecDeque<i64>,
    documents: usize,
    document: OpenDocument,
    now: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct OpenDocument {
    index: usize,
    time: i64,
    /// Unit mean of the document's sentences (zero when empty).
    #[serde(with = "super::snapshot::f32s")]
    centroid: Vec<f32>,
    next_position: usize,
    /// The position COS considers: 0, or with a topic the sentence that
    /// scores best on (1 − w)·[first] + w·cos(sentence, topic).
    lead: usize,
}

/// The steering topic and weight, exactly.
mod steering_serde {
    use super::super::snapshot;
    use super::Embedding;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Steering {
        #[serde(with = "snapshot::f32s")]
        topic: Embedding,
        #[serde(with = "snapshot::f32_bits")]
        weight: f32,
    }

    pub fn serialize<S: Serializer>(steering: &Option<(Embedding, f32)>, serializer: S) -> Result<S::Ok, S::Error> {
        steering.map(|(topic, weight)| Steering { topic, weight }).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<(Embedding, f32)>, D::Error> {
        Ok(Option::<Steering>::deserialize(deserializer)?.map(|s| (s.topic, s.weight)))
    }
}

impl StreamState {
    pub fn new(query: Option<Embedding>, config: StateConfig) -> Self {
        Self {
            config,
            query,
            steering: None,
            updates: Vec::new(),
            centroid_sum: vec![0.0; DIM],
            observed: 0,
            recent: VecDeque::with_capacity(config.recent_sentences),
            arrivals: VecDeque::new(),
            documents: 0,
            document: OpenDocument { index: 0, time: i64::MIN, centroid: vec![0.0; DIM], next_position: 0, lead: 0 },
            now: i64::MIN,
        }
    }

    /// Steers every policy towards a reader's `topic` (unit) with weight w
    /// in 0..=1, as `centroid::steer` does for summaries: the query becomes
    /// (1 − w)·q + w·t, the running centroid (1 − w)·ĉ + w·t (both
    /// normalized), and COS's lead the sentence scoring best on
    /// (1 − w)·[first sentence] + w·cos(sentence, t). Weight 0 changes nothing.
    pub fn steered(mut self, topic: Embedding, weight: f32) -> Self {
        let weight = weight.clamp(0.0, 1.0);
        if weight == 0.0 {
            return self;
        }
        self.query = self.query.map(|q| blend(&q, &topic, weight));
        self.steering = Some((topic, weight));
        self
    }

    /// A document arrives at `time` (never earlier than the previous one:
    /// an earlier time is treated as "now").
    pub fn open_document<'a>(&mut self, time: i64, embeddings: impl IntoIterator<Item = &'a Embedding>) {
        self.open_document_led_by(time, embeddings, |_| true);
    }

    /// As [`Self::open_document`], where only the sentences `is_prose`
    /// accepts are counted in positions and can be the document's lead (a
    /// photo credit above the text does not make COS pass the text over,
    /// nor take LS's first-sentence feature from it).
    pub fn open_document_led_by<'a>(
        &mut self,
        time: i64,
        embeddings: impl IntoIterator<Item = &'a Embedding>,
        is_prose: impl Fn(usize) -> bool,
    ) {
        self.now = self.now.max(time);
        let window = self.config.rate_window;
        while self.arrivals.front().is_some_and(|&t| t <= self.now.saturating_sub(2 * window)) {
            self.arrivals.pop_front();
        }
        self.arrivals.push_back(self.now);
        let embeddings: Vec<&Embedding> = embeddings.into_iter().collect();
        let prose: Vec<&Embedding> = (0..embeddings.len()).filter(|&i| is_prose(i)).map(|i| embeddings[i]).collect();
        let lead = self.steering.as_ref().map_or(0, |(topic, w)| topic_lead(&prose, topic, *w));
        let centroid = unit_mean(embeddings);
        self.document = OpenDocument { index: self.documents, time: self.now, centroid, next_position: 0, lead };
        self.documents += 1;
    }

    /// The next sentence of the open document, numbered in the stream and
    /// placed among the document's prose.
    pub fn admit(&mut self, input: &SentenceInput) -> StreamSentence {
        let sentence = StreamSentence {
            id: self.observed,
            doc: self.document.index,
            position: self.document.next_position,
            time: self.document.time,
            words: input.words,
            embedding: input.embedding,
        };
        if input.not_prose.is_none() {
            self.document.next_position += 1;
        }
        sentence
    }

    /// Adds a decided (or deferred) sentence to the centroid and the recent
    /// sentences; call once per admitted sentence, after the policy decided.
    pub fn observe(&mut self, sentence: &StreamSentence) {
        for (sum, &x) in self.centroid_sum.iter_mut().zip(sentence.embedding.iter()) {
            *sum += x as f64;
        }
        self.observed += 1;
        if self.config.recent_sentences > 0 {
            if self.recent.len() == self.config.recent_sentences {
                self.recent.pop_front();
            }
            self.recent.push_back(sentence.embedding);
        }
    }

    /// Makes `sentence` an update selected at `time`; returns its index.
    pub fn add_update(&mut self, sentence: &StreamSentence, time: i64) -> usize {
        self.updates.push(Update {
            sentence: sentence.id,
            doc: sentence.doc,
            position: sentence.position,
            time,
            embedding: sentence.embedding,
        });
        self.updates.len() - 1
    }

    pub fn query(&self) -> Option<&Embedding> {
        self.query.as_ref()
    }
    /// The position of the open document's sentence COS considers.
    pub fn document_lead(&self) -> usize {
        self.document.lead
    }
    pub fn is_steered(&self) -> bool {
        self.steering.is_some()
    }
    pub fn updates(&self) -> &[Update] {
        &self.updates
    }
    /// Time of the latest document.
    pub fn now(&self) -> i64 {
        self.now
    }
    /// Sentences observed so far.
    pub fn observed(&self) -> usize {
        self.observed
    }

    pub fn query_similarity(&self, e: &Embedding) -> f32 {
        self.query.as_ref().map_or(0.0, |q| dot(q, e))
    }

    /// Cosine to the mean of all earlier sentences (0 before any), or to
    /// that mean steered towards the topic.
    pub fn centroid_similarity(&self, e: &Embedding) -> f32 {
        let norm = self.centroid_sum.iter().map(|x| x * x).sum::<f64>().sqrt();
        if let Some((topic, weight)) = &self.steering {
            let mut direction = [0f32; DIM];
            if norm > 0.0 {
                direction.iter_mut().zip(&self.centroid_sum).for_each(|(d, s)| *d = (s / norm) as f32);
            }
            return dot(&blend(&direction, topic, *weight), e);
        }
        if norm == 0.0 {
            return 0.0;
        }
        let d: f64 = self.centroid_sum.iter().zip(e.iter()).map(|(s, &x)| s * x as f64).sum();
        (d / norm) as f32
    }

    /// Cosine to the mean of the open document's sentences.
    pub fn document_similarity(&self, e: &Embedding) -> f32 {
        dot(&self.document.centroid, e)
    }

    /// Maximum and mean cosine to the updates so far (`None` without updates).
    pub fn update_similarities(&self, e: &Embedding) -> Option<(f32, f32)> {
        if self.updates.is_empty() {
            return None;
        }
        let (max, sum) = self
            .updates
            .iter()
            .map(|u| dot(&u.embedding, e))
            .fold((f32::NEG_INFINITY, 0.0), |(m, s), x| (m.max(x), s + x));
        Some((max, sum / self.updates.len() as f32))
    }

    /// 1 − maximum cosine to the last few sentences (1 when there are none).
    pub fn novelty(&self, e: &Embedding) -> f32 {
        let max = self.recent.iter().map(|r| dot(r, e)).fold(f32::NEG_INFINITY, f32::max);
        if max.is_finite() {
            1.0 - max
        } else {
            1.0
        }
    }

    /// ln((1 + documents in the last window) / (1 + documents in the window
    /// before)): positive when coverage of the event is picking up.
    pub fn arrival_change(&self) -> f32 {
        let split = self.now.saturating_sub(self.config.rate_window);
        let recent = self.arrivals.iter().filter(|&&t| t > split).count();
        let before = self.arrivals.len() - recent;
        ((1 + recent) as f32 / (1 + before) as f32).ln()
    }
}

/// Drives a policy over documents arriving in time order.
pub struct Engine<P: Policy> {
    state: StreamState,
    policy: P,
}

/// An engine saved between two documents: its state and what its policy
/// held. Bounded like the state (never the stream itself); restored onto
/// the same policy, it decides exactly as the engine would have.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineSnapshot {
    state: StreamState,
    policy: serde_json::Value,
}

impl<P: Policy> Engine<P> {
    pub fn new(policy: P, query: Option<Embedding>, config: StateConfig) -> Self {
        Self { state: StreamState::new(query, config), policy }
    }

    /// The engine with every policy steered towards `topic` (see [`StreamState::steered`]).
    pub fn steered(self, topic: Embedding, weight: f32) -> Self {
        Self { state: self.state.steered(topic, weight), policy: self.policy }
    }

    pub fn state(&self) -> &StreamState {
        &self.state
    }
    pub fn updates(&self) -> &[Update] {
        self.state.updates()
    }
    pub fn policy(&self) -> &P {
        &self.policy
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn snapshot(&self) -> EngineSnapshot {
        EngineSnapshot { state: self.state.clone(), policy: self.policy.held() }
    }

    /// The saved engine, driving `policy` (built from the same settings).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn restore(mut policy: P, snapshot: EngineSnapshot) -> Result<Self, String> {
        policy.restore_held(snapshot.policy)?;
        Ok(Self { state: snapshot.state, policy })
    }

    /// Replays one document: first any deferred decisions whose time has
    /// come, then a decision for each of its sentences, in order.
    pub fn push_document(&mut self, time: i64, sentences: &[SentenceInput]) -> Vec<Decision> {
        let mut decisions = self.open_document(time, sentences);
        decisions.extend(sentences.iter().map(|s| self.decide(s)));
        decisions
    }

    /// Step-by-step replay, part 1: a document arrives at `time` with these
    /// sentences (decided next, one by one, by [`Self::decide`]). Returns
    /// the deferred decisions released now.
    pub fn open_document(&mut self, time: i64, sentences: &[SentenceInput]) -> Vec<Decision> {
        let released = self.release(Some(time.max(self.state.now())));
        let embeddings = sentences.iter().map(|s| &s.embedding);
        self.state.open_document_led_by(time, embeddings, |i| sentences[i].not_prose.is_none());
        released
    }

    /// Step-by-step replay, part 2: the decision on the open document's next
    /// sentence.
    pub fn decide(&mut self, input: &SentenceInput) -> Decision {
        let sentence = self.state.admit(input);
        let (action, reason) = match &input.not_prose {
            // Still observed, as it still counts in the summaries' centroid.
            Some(why) => (Action::Skip, Reason::NotProse { why: why.clone() }),
            None => self.policy.decide(&self.state, &sentence),
        };
        let update = (action == Action::Select).then(|| self.state.add_update(&sentence, sentence.time));
        self.state.observe(&sentence);
        decision(&sentence, action, sentence.time, reason, update)
    }

    /// The stream ended: decides whatever the policy still holds.
    pub fn finish(&mut self) -> Vec<Decision> {
        self.release(None)
    }

    fn release(&mut self, now: Option<i64>) -> Vec<Decision> {
        let released = self.policy.release(&self.state, now);
        released
            .into_iter()
            .map(|r| {
                let update = (r.action == Action::Select).then(|| self.state.add_update(&r.sentence, r.time));
                decision(&r.sentence, r.action, r.time, r.reason, update)
            })
            .collect()
    }
}

fn decision(s: &StreamSentence, action: Action, time: i64, reason: Reason, update: Option<usize>) -> Decision {
    Decision { sentence: s.id, doc: s.doc, position: s.position, action, time, reason, update }
}

/// The steered direction as an embedding (see `centroid::steer::blend`).
fn blend(a: &Embedding, b: &Embedding, weight: f32) -> Embedding {
    let mut out = [0f32; DIM];
    out.copy_from_slice(&crate::centroid::steer::blend(a, b, weight));
    out
}

/// The position of the sentence with the best (1 − w)·[first] + w·cos(·, topic).
fn topic_lead(embeddings: &[&Embedding], topic: &Embedding, weight: f32) -> usize {
    let score = |i: usize| (if i == 0 { 1.0 - weight } else { 0.0 }) + weight * dot(embeddings[i], topic);
    // Ties go to the earlier sentence.
    (0..embeddings.len()).max_by(|&a, &b| score(a).total_cmp(&score(b)).then(b.cmp(&a))).unwrap_or(0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A unit vector along axis `i` (hand-made embeddings for tests).
    pub fn axis(i: usize) -> Embedding {
        let mut e = [0f32; DIM];
        e[i] = 1.0;
        e
    }

    /// The unit vector (cos θ) axis i + (sin θ) axis j.
    pub fn between(i: usize, j: usize, cos: f32) -> Embedding {
        let mut e = [0f32; DIM];
        e[i] = cos;
        e[j] = (1.0 - cos * cos).sqrt();
        e
    }

    pub fn input(e: Embedding) -> SentenceInput {
        SentenceInput { words: 10, embedding: e, not_prose: None }
    }

    /// Selects every sentence, to exercise the engine alone.
    struct SelectAll;
    impl Policy for SelectAll {
        fn name(&self) -> &'static str {
            "all"
        }
        fn decide(&mut self, state: &StreamState, s: &StreamSentence) -> (Action, Reason) {
            let closest = Closest::among(state.updates(), &s.embedding, 2.0);
            (Action::Select, Reason::Redundancy { closest })
        }
    }

    #[test]
    fn engine_numbers_sentences_and_records_updates() {
        let mut engine = Engine::new(SelectAll, None, StateConfig::default());
        let first = engine.push_document(100, &[input(axis(0)), input(axis(1))]);
        let second = engine.push_document(200, &[input(axis(2))]);
        let ids: Vec<(usize, usize, usize)> =
            first.iter().chain(&second).map(|d| (d.sentence, d.doc, d.position)).collect();
        assert_eq!(ids, vec![(0, 0, 0), (1, 0, 1), (2, 1, 0)]);
        assert_eq!(second[0].update, Some(2));
        assert_eq!(engine.updates().iter().map(|u| u.time).collect::<Vec<_>>(), vec![100, 100, 200]);
        assert!(engine.finish().is_empty());
    }

    /// Page furniture is never an update, whatever the policy, and keeps
    /// its number in the stream.
    #[test]
    fn furniture_is_skipped_before_the_policy_with_its_reason() {
        let mut engine = Engine::new(SelectAll, None, StateConfig::default());
        let credit = SentenceInput { not_prose: Some("page furniture: photo credit".into()), ..input(axis(1)) };
        let decisions = engine.push_document(100, &[input(axis(0)), credit, input(axis(2))]);
        let actions: Vec<Action> = decisions.iter().map(|d| d.action).collect();
        assert_eq!(actions, vec![Action::Select, Action::Skip, Action::Select]);
        assert_eq!(decisions[1].reason, Reason::NotProse { why: "page furniture: photo credit".into() });
        assert_eq!(decisions[1].reason.to_string(), "page furniture: photo credit");
        assert_eq!((decisions[1].update, decisions[2].sentence, decisions[2].update), (None, 2, Some(1)));
        // Positions count the document's prose: the credit takes none.
        assert_eq!(decisions.iter().map(|d| d.position).collect::<Vec<_>>(), vec![0, 1, 1]);
    }

    #[test]
    fn steering_pulls_the_query_and_the_centroid_towards_the_topic() {
        let plain = StreamState::new(Some(axis(0)), StateConfig::default());
        let steered = StreamState::new(Some(axis(0)), StateConfig::default()).steered(axis(1), 0.5);
        assert_eq!(plain.query_similarity(&axis(1)), 0.0);
        // Halfway between two orthogonal axes: cos 45° to each.
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!((steered.query_similarity(&axis(1)) - half).abs() < 1e-6);
        let mut state = steered;
        state.open_document(0, [&axis(0)]);
        let s = state.admit(&input(axis(0)));
        state.observe(&s);
        assert!((state.centroid_similarity(&axis(1)) - half).abs() < 1e-6);
        // Weight 0 is no steering at all.
        assert!(!StreamState::new(None, StateConfig::default()).steered(axis(1), 0.0).is_steered());
    }

    #[test]
    fn state_similarities_are_incremental() {
        let mut state = StreamState::new(Some(axis(0)), StateConfig { recent_sentences: 2, rate_window: 3600 });
        assert_eq!(state.centroid_similarity(&axis(0)), 0.0);
        assert_eq!(state.novelty(&axis(0)), 1.0);
        assert_eq!(state.update_similarities(&axis(0)), None);
        state.open_document(0, [&axis(0), &axis(1)]);
        for e in [axis(0), axis(1), axis(2)] {
            let s = state.admit(&input(e));
            state.observe(&s);
        }
        // Centroid of axes 0, 1, 2 is (1,1,1)/√3: cosine to axis 0 is 1/√3.
        assert!((state.centroid_similarity(&axis(0)) - 3f32.sqrt().recip()).abs() < 1e-6);
        // Only the last two sentences (axes 1 and 2) are remembered.
        assert_eq!(state.novelty(&axis(0)), 1.0);
        assert_eq!(state.novelty(&axis(2)), 0.0);
        // Document centroid (axis 0 + axis 1)/√2.
        assert!((state.document_similarity(&axis(1)) - 0.5f32.sqrt()).abs() < 1e-6);
        assert_eq!(state.query_similarity(&between(0, 1, 0.6)), 0.6);
    }

    #[test]
    fn update_similarities_give_max_and_mean() {
        let mut state = StreamState::new(None, StateConfig::default());
        state.open_document(0, []);
        for e in [between(0, 1, 0.8), axis(1)] {
            let s = state.admit(&input(e));
            state.add_update(&s, 0);
        }
        let (max, mean) = state.update_similarities(&axis(0)).unwrap();
        assert!((max - 0.8).abs() < 1e-6 && (mean - 0.4).abs() < 1e-6);
        let closest = Closest::among(state.updates(), &axis(0), 0.7);
        assert_eq!(closest.update, Some(0));
        assert!(!closest.is_novel());
        assert_eq!(closest.to_string(), "too similar to update 1: 0.80 ≥ 0.70");
    }

    #[test]
    fn arrival_change_compares_the_last_two_hours() {
        let mut state = StreamState::new(None, StateConfig { recent_sentences: 0, rate_window: 3600 });
        // Two documents in the first hour, three in the second.
        for t in [0, 1000, 4000, 5000, 7000] {
            state.open_document(t, []);
        }
        // At 7000: (3400, 7000] holds three documents, (-200, 3400] two.
        assert!((state.arrival_change() - (4f32 / 3.0).ln()).abs() < 1e-6);
        state.open_document(11_000, []);
        // (7400, 11000] holds 1; (3800, 7400] holds 4000, 5000, 7000.
        assert!((state.arrival_change() - (2f32 / 4.0).ln()).abs() < 1e-6);
    }

    #[test]
    fn reasons_read_well() {
        assert_eq!(Reason::Score { score: -0.4 }.to_string(), "LS score −0.40 < 0");
        assert_eq!(Reason::Score { score: 0.25 }.to_string(), "LS score 0.25 > 0");
        let closest = Closest { update: Some(2), similarity: 0.82, threshold: 0.6 };
        assert_eq!(Reason::Redundancy { closest }.to_string(), "too similar to update 3: 0.82 ≥ 0.60");
        let none = Closest { update: None, similarity: -1.0, threshold: 0.6 };
        assert_eq!(none.to_string(), "no updates yet");
        assert_eq!(Reason::NotFirstSentence.to_string(), "not a first sentence");
    }
}
