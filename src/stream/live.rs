//! The live stream: articles pushed to the worker as they arrive, each one
//! split, encoded and decided on arrival by a streaming policy whose state
//! carries over from push to push. (The timeline mode, [`super::timeline`],
//! instead replays a fixed set of articles from the start.) Free of browser
//! code and tested natively; `runtime` encodes and keeps the open stream.
//!
//! The page does not open live streams; `tests/e2e/bench-stream.mjs` drives
//! them to measure streaming in the browser (the counterpart of `precis
//! bench-stream`), which is why every answer says how long each decision
//! took and how large the worker's memory is.

use super::settings::StreamSettings;
use super::replay::{document_inputs, ArrivalClock, Replay, StepTimes};
use super::timeline::{StreamArticle, StreamEvent};
use super::PolicyKind;
#[cfg(not(target_arch = "wasm32"))]
use super::EngineSnapshot;
use crate::document::{check_total_text, Cluster, Document, Sentence};
use crate::encoder::Embedding;
use serde::{Deserialize, Serialize};

/// What opens a live stream.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LiveJob {
    pub policy: PolicyKind,
    /// Redundancy threshold (cosine); None keeps the tuned one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f32>,
    /// What the event is about (the policies compare sentences with it).
    pub query: String,
}

/// A live stream was opened (it replaced any earlier one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveOpened {
    pub policy: PolicyKind,
    /// The threshold in force (None for LS alone).
    pub threshold: Option<f32>,
}

/// What one push did.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LivePush {
    /// Stream id of `sentences[0]`: ids count every sentence pushed since
    /// the stream was opened, and `events` refer to sentences by it.
    pub first_sentence: usize,
    /// The pushed articles in arrival (= push) order, with the time each
    /// arrived at; `card` indexes the push's documents.
    pub articles: Vec<StreamArticle>,
    /// The pushed articles' sentences; `Sentence::doc` indexes the push's
    /// documents.
    pub sentences: Vec<Sentence>,
    /// The decisions made during this push, in order: one per new sentence,
    /// and any deferred decision on earlier ones that came due (APSAL).
    pub events: Vec<StreamEvent>,
    /// Updates selected since the stream was opened.
    pub updates: usize,
    pub timing: LiveTiming,
}

/// Where the time of a push went, and how much memory the worker holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveTiming {
    pub split_ms: f64,
    pub encode_ms: f64,
    /// Every arrival and decision of the push together.
    pub decide_ms: f64,
    /// Each arrival's and each decision's time.
    #[serde(flatten)]
    pub steps: StepTimes,
    /// The worker's wasm memory after the push, in bytes (None natively).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<u64>,
}

/// An open live stream: the shared replay, fed as articles arrive.
pub struct LiveStream {
    replay: Replay,
    /// When the last article arrived (None before the first push).
    clock: Option<ArrivalClock>,
    /// Sentences pushed so far.
    sentences: usize,
}

/// A live stream saved between two pushes: bounded, as its engine's state
/// (native only, for the Python package: see `Policy::held`).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LiveSnapshot {
    engine: EngineSnapshot,
    clock: Option<ArrivalClock>,
    sentences: usize,
}

impl LiveStream {
    /// Checks the job; the settings to run it with and what to tell the page.
    pub fn check(job: &LiveJob, settings: &StreamSettings) -> Result<(StreamSettings, LiveOpened), String> {
        if job.query.trim().is_empty() {
            return Err("A live stream needs a query: what the event is about.".into());
        }
        let settings = settings.with_threshold(job.policy, job.threshold)?;
        let opened = LiveOpened { policy: job.policy, threshold: settings.threshold(job.policy) };
        Ok((settings, opened))
    }

    /// A stream with nothing pushed yet; `settings` come from [`Self::check`].
    pub fn open(job: &LiveJob, settings: &StreamSettings, query: Embedding) -> Self {
        Self { replay: Replay::new(job.policy, settings, query), clock: None, sentences: 0 }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn snapshot(&self) -> LiveSnapshot {
        LiveSnapshot { engine: self.replay.snapshot(), clock: self.clock, sentences: self.sentences }
    }

    /// The saved stream, opened again with the job and settings (from
    /// [`Self::check`]) it was opened with.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn restore(job: &LiveJob, settings: &StreamSettings, snapshot: LiveSnapshot) -> Result<Self, String> {
        let replay = Replay::restore(job.policy, settings, snapshot.engine)?;
        Ok(Self { replay, clock: snapshot.clock, sentences: snapshot.sentences })
    }

    /// Updates selected since the stream was opened.
    pub fn updates(&self) -> usize {
        self.replay.updates()
    }

    /// Splits pushed articles (in push order) into sentences.
    pub fn split(documents: Vec<Document>) -> Result<Cluster, String> {
        check_total_text(&documents)?;
        Ok(Cluster::new(documents))
    }

    /// Decides the pushed articles' sentences (`embeddings` in the order of
    /// `cluster.sentences`) on arrival; with `finish`, the stream then ends
    /// and deferred sentences are decided. An article arrives at its date,
    /// or when the one before it did (at `now` when it is the first), and
    /// never before the article before it. `clock` reads milliseconds.
    pub fn push(&mut self, cluster: Cluster, embeddings: &[Embedding], now: i64, finish: bool, clock: &mut dyn FnMut() -> f64) -> Result<LivePush, String> {
        if embeddings.len() != cluster.sentences.len() {
            return Err(format!("{} embeddings for {} sentences", embeddings.len(), cluster.sentences.len()));
        }
        let first_sentence = self.sentences;
        let arrivals = self.clock.get_or_insert(ArrivalClock::starting_at(now));
        let mut articles = Vec::with_capacity(cluster.documents.len());
        let mut events = vec![];
        let mut timing = LiveTiming::default();
        let started = clock();
        for ((card, document), inputs) in cluster.documents.iter().enumerate().zip(document_inputs(&cluster, embeddings)) {
            let time = arrivals.arrive(document.timestamp);
            articles.push(StreamArticle { card, date: document.timestamp, time });
            let decisions = self.replay.push_timed(time, &inputs, clock, &mut timing.steps);
            events.extend(decisions.into_iter().map(StreamEvent::from));
        }
        if finish {
            events.extend(self.replay.finish().into_iter().map(StreamEvent::from));
        }
        timing.decide_ms = clock() - started;
        self.sentences += cluster.sentences.len();
        Ok(LivePush { first_sentence, articles, sentences: cluster.sentences, events, updates: self.updates(), timing })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::Action;
    use crate::encoder::fake_embedding;

    fn job(policy: &str, threshold: Option<f32>) -> LiveJob {
        LiveJob { policy: policy.parse().unwrap(), threshold, query: "glacial lake".into() }
    }

    fn push(live: &mut LiveStream, documents: Vec<Document>, now: i64, finish: bool) -> LivePush {
        let cluster = LiveStream::split(documents).unwrap();
        let embeddings: Vec<Embedding> = cluster.sentences.iter().map(|s| fake_embedding(&s.text)).collect();
        let mut ticks = 0.0;
        let mut clock = || {
            ticks += 0.004;
            ticks
        };
        live.push(cluster, &embeddings, now, finish, &mut clock).unwrap()
    }

    fn dated(id: &str, timestamp: Option<i64>, text: &str) -> Document {
        Document { timestamp, ..Document::new(id, text) }
    }

    #[test]
    fn decisions_carry_over_between_pushes_with_stream_ids() {
        let (settings, opened) = LiveStream::check(&job("cos", Some(0.5)), &StreamSettings::untrained()).unwrap();
        assert_eq!(opened, LiveOpened { policy: PolicyKind::Cos, threshold: Some(0.5) });
        let mut live = LiveStream::open(&job("cos", Some(0.5)), &settings, fake_embedding("glacial lake"));
        let text = "A glacial lake burst above the village. Hundreds were evacuated.";
        let first = push(&mut live, vec![dated("a", Some(1_000), text)], 0, false);
        assert_eq!((first.first_sentence, first.sentences.len(), first.events.len()), (0, 2, 2));
        assert_eq!(first.events[0].action, Action::Select);
        assert_eq!(first.timing.steps.decisions_us.len(), 2);
        assert_eq!(first.timing.steps.arrivals_us.len(), 1);
        assert!(first.timing.steps.decisions_us.iter().all(|&us| (us - 4.0).abs() < 1e-3), "{:?}", first.timing.steps.decisions_us);
        // The same first sentence again, later: redundant with update 1.
        let second = push(&mut live, vec![dated("b", None, text), dated("c", Some(500), "Engineers inspect the bridge.")], 0, true);
        assert_eq!(second.first_sentence, 2);
        assert_eq!(second.events[0].sentence, 2);
        assert_eq!(second.events[0].action, Action::Skip);
        assert!(second.events[0].reason.starts_with("too similar to update 1"), "{}", second.events[0].reason);
        let times: Vec<i64> = second.articles.iter().map(|a| a.time).collect();
        assert_eq!(times, vec![1_000, 1_000], "undated: the previous time; an earlier date: not before it");
        assert_eq!(second.events.last().unwrap().sentence, 4);
        assert_eq!(second.updates, first.updates + 1);
    }

    #[test]
    fn apsal_defers_until_the_stream_finishes() {
        let (settings, _) = LiveStream::check(&job("apsal", None), &StreamSettings::untrained()).unwrap();
        let mut live = LiveStream::open(&job("apsal", None), &settings, fake_embedding("glacial lake"));
        // Four words each at least: a shorter line is a fragment, skipped as not prose.
        let pushed = push(&mut live, vec![dated("a", None, "A glacial lake burst above the village. Hundreds were evacuated overnight.")], 7_200, false);
        assert_eq!(pushed.articles[0].time, 7_200, "the first undated article arrives now");
        assert!(pushed.events.iter().all(|e| e.action == Action::Defer));
        let finished = push(&mut live, vec![], 0, true);
        assert_eq!(finished.events.len(), 2);
        assert!(finished.events.iter().all(|e| e.action != Action::Defer));
    }

    #[test]
    fn a_saved_stream_decides_as_if_it_had_never_stopped() {
        let articles = [
            dated("a", Some(1_000), "A glacial lake burst above the village. Hundreds were evacuated."),
            dated("b", Some(2_000), "Rescuers reached the valley. Hundreds were evacuated overnight."),
            dated("c", Some(9_000), "Engineers inspect the bridge. The road stays closed."),
            dated("d", Some(9_500), "A second lake is being watched. Rain is forecast."),
        ];
        for policy in ["cos", "apsal", "ls", "ls+cos"] {
            let (settings, _) = LiveStream::check(&job(policy, Some(0.5)), &StreamSettings::untrained()).unwrap();
            let open = || LiveStream::open(&job(policy, Some(0.5)), &settings, fake_embedding("glacial lake"));
            let decide = |live: &mut LiveStream, i: usize| -> Vec<StreamEvent> {
                push(live, vec![articles[i].clone()], 0, i + 1 == articles.len()).events
            };
            let mut whole = open();
            let expected: Vec<StreamEvent> = (0..articles.len()).flat_map(|i| decide(&mut whole, i)).collect();
            for stop in 1..articles.len() {
                let mut first = open();
                let mut events: Vec<StreamEvent> = (0..stop).flat_map(|i| decide(&mut first, i)).collect();
                let saved = serde_json::to_string(&first.snapshot()).unwrap();
                let mut resumed = LiveStream::restore(&job(policy, Some(0.5)), &settings, serde_json::from_str(&saved).unwrap()).unwrap();
                events.extend((stop..articles.len()).flat_map(|i| decide(&mut resumed, i)));
                assert_eq!(events, expected, "{policy}, saved after {stop} articles");
            }
        }
    }

    #[test]
    fn a_saved_window_is_only_restored_onto_apsal() {
        let (settings, _) = LiveStream::check(&job("apsal", None), &StreamSettings::untrained()).unwrap();
        let mut live = LiveStream::open(&job("apsal", None), &settings, fake_embedding("glacial lake"));
        push(&mut live, vec![dated("a", Some(1_000), "A glacial lake burst.")], 0, false);
        let saved = live.snapshot();
        let error = LiveStream::restore(&job("cos", None), &settings, saved).err().unwrap();
        assert!(error.contains("cos policy holds nothing"), "{error}");
    }

    #[test]
    fn bad_jobs_are_refused_in_plain_words() {
        let settings = StreamSettings::untrained();
        assert!("magic".parse::<PolicyKind>().unwrap_err().contains("unknown policy"));
        assert!(LiveStream::check(&job("cos", Some(2.0)), &settings).unwrap_err().contains("cosine"));
        let no_query = LiveJob { query: " ".into(), ..job("cos", None) };
        assert!(LiveStream::check(&no_query, &settings).unwrap_err().contains("query"));
        let huge = vec![Document::new("a", "word ".repeat(crate::limits::MAX_TOTAL_BYTES / 5 + 1))];
        assert!(LiveStream::split(huge).is_err());
    }
}
