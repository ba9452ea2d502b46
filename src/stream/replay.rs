//! The one replay of dated articles through a streaming policy, shared by
//! `precis stream FILES…`, the app's timeline and the live stream: when each
//! article arrives, which query the policies compare with, and the engine
//! fed one article at a time.

use super::kind::PolicyKind;
use super::settings::StreamSettings;
use super::{Decision, Engine, Policy, SentenceInput};
#[cfg(not(target_arch = "wasm32"))]
use super::EngineSnapshot;
use crate::document::{Cluster, Document, Sentence};
use crate::encoder::Embedding;
use crate::segment::furniture::says_nothing_alone;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// An article in replay order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamArticle {
    /// Its index among the given articles (the app's cards).
    pub card: usize,
    /// Its own date, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<i64>,
    /// When it is replayed: its date, or when the article before it was.
    pub time: i64,
}

/// Replay order of a fixed set: by date, an undated article arriving right
/// after the one before it in the list (the first known date when it
/// comes first; input order when nothing is dated).
pub fn replay_order(documents: &[Document]) -> Vec<StreamArticle> {
    let mut clock = ArrivalClock::starting_at(documents.iter().find_map(|d| d.timestamp).unwrap_or(0));
    let mut articles: Vec<StreamArticle> = documents
        .iter()
        .enumerate()
        .map(|(card, d)| StreamArticle { card, date: d.timestamp, time: clock.undated_follow(d.timestamp) })
        .collect();
    articles.sort_by_key(|a| a.time); // stable: input order among equals
    articles
}

/// When articles arrive: an undated article when the one before it did
/// (at the clock's start when it comes first).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct ArrivalClock {
    start: i64,
    last: Option<i64>,
}

impl ArrivalClock {
    pub fn starting_at(start: i64) -> Self {
        Self { start, last: None }
    }

    /// The arrival of a fixed set's next article (which is sorted later).
    fn undated_follow(&mut self, date: Option<i64>) -> i64 {
        let time = date.or(self.last).unwrap_or(self.start);
        self.last = Some(time);
        time
    }

    /// The arrival of a live article: its date or the last arrival, and
    /// never before the last arrival (a live stream cannot go back).
    pub fn arrive(&mut self, date: Option<i64>) -> i64 {
        let time = date.or(self.last).unwrap_or(self.start).max(self.last.unwrap_or(i64::MIN));
        self.last = Some(time);
        time
    }
}

/// The query the policies compare sentences with: the user's, else the
/// earliest article's headline, else its first sentence.
pub fn default_query(query: Option<&str>, cluster: &Cluster) -> Option<String> {
    query
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(str::to_string)
        .or_else(|| cluster.documents.first()?.title.clone().filter(|t| !t.trim().is_empty()))
        .or_else(|| Some(cluster.sentences.first()?.text.clone()))
}

/// A fixed set of articles in replay order, split, with its query.
#[derive(Clone, Debug)]
pub struct ReplaySet {
    /// The articles in replay order; `Sentence::doc` indexes
    /// `cluster.documents` and `articles` alike.
    pub cluster: Cluster,
    pub articles: Vec<StreamArticle>,
    pub query: String,
    /// A reader's topic and how strongly it steers the policies
    /// (`StreamState::steered`); none or weight 0: the plain replay.
    pub topic: Option<(String, f32)>,
}

impl ReplaySet {
    /// Orders and splits the articles and picks the query.
    pub fn new(documents: &[Document], query: Option<&str>) -> Result<Self, String> {
        if documents.is_empty() {
            return Err("Add at least one article first.".into());
        }
        let articles = replay_order(documents);
        let cluster = Cluster::new(articles.iter().map(|a| documents[a.card].clone()).collect());
        let query = default_query(query, &cluster)
            .ok_or("The articles contain no sentences to replay (no letters or digits were found).")?;
        Ok(Self { cluster, articles, query, topic: None })
    }

    /// The set steered towards `topic` with weight w (blank or w = 0: not).
    pub fn with_topic(mut self, topic: Option<&str>, weight: f32) -> Self {
        let topic = topic.map(str::trim).filter(|t| !t.is_empty() && weight > 0.0);
        self.topic = topic.map(|t| (t.to_string(), weight.clamp(0.0, 1.0)));
        self
    }

    /// Every text that needs an embedding: the query, the topic, then the sentences.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.query.as_str())
            .chain(self.topic.iter().map(|(t, _)| t.as_str()))
            .chain(self.cluster.sentences.iter().map(Sentence::as_read))
    }

    /// Replays the set from the start. `embed` gives the embedding of a
    /// text of [`Self::texts`].
    pub fn replay(
        &self,
        kind: PolicyKind,
        settings: &StreamSettings,
        embed: impl Fn(&str) -> Option<Embedding>,
    ) -> Result<(Vec<Decision>, Replay), String> {
        let query = embed(&self.query).ok_or("The query has no embedding yet.")?;
        let embeddings = self
            .cluster
            .sentences
            .iter()
            .map(|s| embed(s.as_read()).ok_or_else(|| format!("no embedding for {:?}", s.as_read())))
            .collect::<Result<Vec<_>, String>>()?;
        let mut replay = Replay::new(kind, settings, query);
        if let Some((topic, weight)) = &self.topic {
            let topic = embed(topic).ok_or("The topic has no embedding yet.")?;
            replay = replay.steered(topic, *weight);
        }
        let mut decisions = vec![];
        for (article, inputs) in self.articles.iter().zip(document_inputs(&self.cluster, &embeddings)) {
            decisions.extend(replay.push(article.time, &inputs));
        }
        decisions.extend(replay.finish());
        Ok((decisions, replay))
    }
}

/// The embeddings of a stream's sentences, one article at a time: the
/// encoder packs sentences into batches whose sums differ in the last bits,
/// so a sentence's embedding must not depend on what arrived with it. The
/// CLI's TREC-TS replay, the Python package's stream and Spark's
/// micro-batches embed this way and so decide alike. `encode` embeds one
/// article's sentences; an article without sentences is not encoded.
pub fn embed_by_article<'a, E>(
    articles: impl IntoIterator<Item = Vec<&'a str>>,
    mut encode: impl FnMut(&[&str]) -> Result<Vec<Embedding>, E>,
) -> Result<Vec<Embedding>, E> {
    let mut embeddings = Vec::new();
    for sentences in articles.into_iter().filter(|s| !s.is_empty()) {
        embeddings.extend(encode(&sentences)?);
    }
    Ok(embeddings)
}

/// Each document's sentences as the engine takes them (`embeddings` in the
/// order of `cluster.sentences`), documents in order; page furniture comes
/// with its reason, and so does a sentence that says nothing alone as an
/// update (prose in its paragraph, "Evacuated.", "24 de junio."), as
/// summaries leave it out.
pub fn document_inputs(cluster: &Cluster, embeddings: &[Embedding]) -> Vec<Vec<SentenceInput>> {
    document_ranges(cluster)
        .into_iter()
        .map(|range| {
            range
                .map(|i| {
                    let sentence = &cluster.sentences[i];
                    let alone = (!cluster.documents[sentence.doc].keep_furniture).then(|| says_nothing_alone(&sentence.text)).flatten();
                    let not_prose = sentence.excluded.clone().or_else(|| alone.map(|reason| reason.to_string()));
                    SentenceInput { words: sentence.words, embedding: embeddings[i], not_prose }
                })
                .collect()
        })
        .collect()
}

/// The sentence ids of each document (sentences are in document order).
fn document_ranges(cluster: &Cluster) -> Vec<Range<usize>> {
    let mut ranges = vec![0..0; cluster.documents.len()];
    for (i, sentence) in cluster.sentences.iter().enumerate() {
        let range = &mut ranges[sentence.doc];
        if range.start == range.end {
            range.start = i;
        }
        range.end = i + 1;
    }
    ranges
}

/// How long each step of a replay took, in µs: each article's arrival
/// (where APSAL decides the windows that closed) and each sentence's
/// decision (the policy alone).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepTimes {
    pub arrivals_us: Vec<f32>,
    /// In arrival order. The browser's clock ticks in 5 µs steps in a
    /// cross-origin isolated page and 100 µs steps otherwise.
    pub decisions_us: Vec<f32>,
}

/// An open replay: a policy's engine, fed one article at a time. It keeps
/// a bounded state (recent sentences and arrivals, running sums) and the
/// updates; never the stream itself.
pub struct Replay {
    engine: Engine<Box<dyn Policy>>,
}

impl Replay {
    pub fn new(kind: PolicyKind, settings: &StreamSettings, query: Embedding) -> Self {
        Self { engine: Engine::new(settings.policy(kind), Some(query), settings.state) }
    }

    /// Every policy steered towards `topic` by `weight` (see `StreamState::steered`).
    pub fn steered(self, topic: Embedding, weight: f32) -> Self {
        Self { engine: self.engine.steered(topic, weight) }
    }

    /// The replay saved between two articles (see [`Engine::snapshot`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn snapshot(&self) -> EngineSnapshot {
        self.engine.snapshot()
    }

    /// A saved replay of `kind` under the settings it was opened with.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn restore(kind: PolicyKind, settings: &StreamSettings, snapshot: EngineSnapshot) -> Result<Self, String> {
        Ok(Self { engine: Engine::restore(settings.policy(kind), snapshot)? })
    }

    /// An article arrives at `time`: decisions released by its arrival,
    /// then one per sentence.
    pub fn push(&mut self, time: i64, inputs: &[SentenceInput]) -> Vec<Decision> {
        self.push_timed(time, inputs, &mut || 0.0, &mut StepTimes::default())
    }

    /// [`Self::push`], timing each step with `clock` (milliseconds).
    pub fn push_timed(
        &mut self,
        time: i64,
        inputs: &[SentenceInput],
        clock: &mut dyn FnMut() -> f64,
        times: &mut StepTimes,
    ) -> Vec<Decision> {
        let arriving = clock();
        let mut decisions = self.engine.open_document(time, inputs);
        times.arrivals_us.push(((clock() - arriving) * 1000.0) as f32);
        for input in inputs {
            let deciding = clock();
            decisions.push(self.engine.decide(input));
            times.decisions_us.push(((clock() - deciding) * 1000.0) as f32);
        }
        decisions
    }

    /// The stream ended: decides whatever the policy still holds.
    pub fn finish(&mut self) -> Vec<Decision> {
        self.engine.finish()
    }

    /// Updates selected so far.
    pub fn updates(&self) -> usize {
        self.engine.updates().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{Action, Reason};

    fn dated(id: &str, timestamp: Option<i64>, text: &str) -> Document {
        Document { timestamp, ..Document::new(id, text) }
    }

    /// Unit vectors by word overlap, as in the worker's tests.
    fn embed(text: &str) -> Option<Embedding> {
        let mut e = [0f32; crate::encoder::DIM];
        for word in text.split_whitespace() {
            let h = word.to_lowercase().bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
            e[(h % e.len() as u64) as usize] += 1.0;
        }
        let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        e.iter_mut().for_each(|x| *x /= norm);
        Some(e)
    }

    #[test]
    fn an_undated_first_article_arrives_at_the_first_known_date() {
        let docs = vec![dated("u", None, "x"), dated("b", Some(500), "y"), dated("a", Some(100), "z")];
        let order = replay_order(&docs);
        let cards: Vec<(usize, i64)> = order.iter().map(|a| (a.card, a.time)).collect();
        assert_eq!(cards, vec![(2, 100), (0, 500), (1, 500)]);
        assert!(replay_order(&[dated("u", None, "x")]).iter().all(|a| a.time == 0));
    }

    #[test]
    fn a_live_clock_never_goes_back() {
        assert_eq!(ArrivalClock::starting_at(1_000).arrive(Some(500)), 500, "a first article keeps its date");
        let mut clock = ArrivalClock::starting_at(1_000);
        assert_eq!(clock.arrive(None), 1_000);
        assert_eq!(clock.arrive(Some(500)), 1_000);
        assert_eq!(clock.arrive(Some(2_000)), 2_000);
    }

    #[test]
    fn the_query_is_the_users_else_the_first_headline_else_the_first_sentence() {
        let mut titled = dated("t", None, "First sentence. Second one.");
        titled.title = Some("The headline".into());
        let plain = dated("p", None, "First sentence. Second one.");
        let cluster = |d: &Document| Cluster::new(vec![d.clone()]);
        assert_eq!(default_query(Some("  glacial lake "), &cluster(&plain)).unwrap(), "glacial lake");
        assert_eq!(default_query(Some(" "), &cluster(&titled)).unwrap(), "The headline");
        assert_eq!(default_query(None, &cluster(&plain)).unwrap(), "First sentence.");
        titled.title = Some("  ".into());
        assert_eq!(default_query(None, &cluster(&titled)).unwrap(), "First sentence.");
        assert!(ReplaySet::new(&[dated("e", None, "... !!!")], None).unwrap_err().contains("no sentences"));
        assert_eq!(ReplaySet::new(&[], None).unwrap_err(), "Add at least one article first.");
    }

    #[test]
    fn a_set_replays_in_time_order_and_every_sentence_is_decided_once() {
        let docs = vec![
            dated("late", Some(3_000), "Rescuers found the shepherds. They were airlifted."),
            dated("early", Some(1_000), "A glacial lake burst. Hundreds were evacuated."),
            dated("undated", None, "The road stays closed."),
        ];
        let set = ReplaySet::new(&docs, None).unwrap();
        assert_eq!(set.query, "A glacial lake burst.");
        let settings = StreamSettings::untrained();
        for kind in [PolicyKind::Cos, PolicyKind::Apsal] {
            let (decisions, replay) = set.replay(kind, &settings, embed).unwrap();
            let decided: Vec<usize> = decisions.iter().filter(|d| d.action != Action::Defer).map(|d| d.sentence).collect();
            let mut sorted = decided.clone();
            sorted.sort();
            assert_eq!(sorted, (0..set.cluster.sentences.len()).collect::<Vec<_>>(), "{kind}");
            let selected = decisions.iter().filter(|d| d.action == Action::Select).count();
            assert_eq!(selected, replay.updates());
        }
    }

    #[test]
    fn page_furniture_reaches_the_engine_with_its_reason() {
        let page = "The storm hit the coast on Monday and thousands of homes lost power.\n\n\
                    (Photo: Jane Doe, KARE 11)\n\nOfficials said schools would stay closed until Wednesday.";
        let cluster = Cluster::new(vec![Document::new("a", page)]);
        let embeddings: Vec<Embedding> = cluster.sentences.iter().map(|s| embed(&s.text).unwrap()).collect();
        let inputs = document_inputs(&cluster, &embeddings);
        let not_prose: Vec<bool> = inputs[0].iter().map(|i| i.not_prose.is_some()).collect();
        assert_eq!(not_prose, vec![false, true, false]);
        assert!(inputs[0][1].not_prose.as_deref().unwrap().contains("credit"), "{:?}", inputs[0][1].not_prose);
    }

    #[test]
    fn a_date_alone_reaches_the_engine_as_no_update() {
        let page = "Cronología de las sanciones de la Unión Europea contra el régimen sirio.\n\n\
                    17 de mayo de 2011. Incluye a trece oficiales sirios en su lista.";
        let cluster = Cluster::new(vec![Document::new("a", page)]);
        let embeddings: Vec<Embedding> = cluster.sentences.iter().map(|s| embed(&s.text).unwrap()).collect();
        let inputs = document_inputs(&cluster, &embeddings);
        let not_prose: Vec<Option<&str>> = inputs[0].iter().map(|i| i.not_prose.as_deref()).collect();
        assert_eq!(not_prose, vec![None, Some("fragment: only a date"), None]);
    }

    /// A credit above the text is skipped, and COS takes the first prose
    /// sentence as the document's first.
    #[test]
    fn cos_leads_with_the_first_prose_sentence() {
        let page = "(Photo: Jane Doe, KARE 11)\n\nThe storm hit the coast on Monday and thousands of homes lost power.\n\n\
                    Officials said schools would stay closed until Wednesday.";
        let cluster = Cluster::new(vec![Document::new("a", page)]);
        let embeddings: Vec<Embedding> = cluster.sentences.iter().map(|s| embed(&s.text).unwrap()).collect();
        let inputs = document_inputs(&cluster, &embeddings);
        let mut replay = Replay::new(PolicyKind::Cos, &StreamSettings::untrained(), embed("storm").unwrap());
        let decisions = replay.push(0, &inputs[0]);
        let actions: Vec<Action> = decisions.iter().map(|d| d.action).collect();
        assert_eq!(actions, vec![Action::Skip, Action::Select, Action::Skip]);
        assert!(matches!(decisions[0].reason, Reason::NotProse { .. }), "{:?}", decisions[0].reason);
        assert_eq!(decisions[2].reason, Reason::NotFirstSentence);
    }

    #[test]
    fn timed_pushes_time_every_step() {
        let settings = StreamSettings::untrained();
        let mut replay = Replay::new(PolicyKind::Cos, &settings, embed("lake").unwrap());
        let cluster = Cluster::new(vec![Document::new("a", "A lake burst. Hundreds fled.")]);
        let embeddings: Vec<Embedding> = cluster.sentences.iter().map(|s| embed(&s.text).unwrap()).collect();
        let inputs = document_inputs(&cluster, &embeddings);
        let mut ticks = 0.0;
        let mut clock = || {
            ticks += 0.004;
            ticks
        };
        let mut times = StepTimes::default();
        let decisions = replay.push_timed(0, &inputs[0], &mut clock, &mut times);
        assert_eq!((decisions.len(), times.arrivals_us.len(), times.decisions_us.len()), (2, 1, 2));
        assert!(times.decisions_us.iter().all(|&us| (us - 4.0).abs() < 1e-3));
    }
}
