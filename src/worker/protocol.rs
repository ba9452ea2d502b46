//! Messages between the page and the worker. Both sides are Rust and share
//! these types; on the wire each message is one JSON string (files uploaded
//! by the user travel beside it as `File` objects, see `Request::ReadFiles`).
//!
//! Messages are externally tagged (serde's default: `{"summarize": {…}}`,
//! `"started"`), not internally (`{"type": "summarize", …}`): an internally
//! tagged enum buffers each message into serde's `Content` and reads every
//! type inside it a second way, which cost 26 KB gzipped of first-load code.

use crate::encoder::BuildTimes;
use crate::document::{Document, Sentence};
pub use crate::eval::reference::RougeResult;
use crate::project::Projection;
use crate::compare::Comparison;
use crate::summarize::{Method, Settings, Summary};
pub use crate::stream::live::{LiveJob, LiveOpened, LivePush};
pub use crate::stream::timeline::{StreamJob, StreamOffer, Timeline};
use serde::{Deserialize, Serialize};

/// What the page asks. `id` comes back in every answer to the request.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Turn pasted text into articles (several when separated).
    ReadPaste { id: u32, text: String },
    /// Turn uploaded files into articles; the files follow the message in
    /// this order.
    ReadFiles { id: u32, names: Vec<String> },
    /// The bundled example set.
    ReadExamples { id: u32 },
    /// Facts shown on the article cards, after an edit.
    Describe { id: u32, documents: Vec<Document> },
    Summarize { id: u32, job: Job },
    /// Two to four methods side by side on the job's articles and settings
    /// (the job's own method is not used).
    Compare { id: u32, job: Job, methods: Vec<Method> },
    /// Replay the articles as a stream (the timeline mode).
    Stream { id: u32, job: StreamJob },
    /// Open a live stream (see `stream::live`), replacing any open one.
    /// The page does not use it; tests/e2e/bench-stream.mjs does.
    LiveOpen { id: u32, job: LiveJob },
    /// Articles that just arrived, for the open live stream; with `finish`
    /// the stream ends after them.
    LivePush {
        id: u32,
        documents: Vec<Document>,
        #[serde(default)]
        finish: bool,
    },
}

impl Request {
    pub fn id(&self) -> u32 {
        match self {
            Request::ReadPaste { id, .. }
            | Request::ReadFiles { id, .. }
            | Request::ReadExamples { id }
            | Request::Describe { id, .. }
            | Request::Summarize { id, .. }
            | Request::Compare { id, .. }
            | Request::Stream { id, .. }
            | Request::LiveOpen { id, .. }
            | Request::LivePush { id, .. } => *id,
        }
    }
}

/// Everything one summary depends on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub documents: Vec<Document>,
    pub settings: Settings,
    /// A reference summary: enables the oracle centroid and ROUGE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// What the worker says.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// The worker is listening (its first message).
    Started,
    /// The encoder's state; sent unprompted while it loads.
    Model { status: ModelStatus },
    Progress { id: u32, stage: Stage, done: usize, total: usize },
    Read { id: u32, articles: Vec<Article>, problems: Vec<InputProblem> },
    Described { id: u32, facts: Vec<ArticleFacts> },
    Summarized { id: u32, result: Box<SummaryResult> },
    Compared { id: u32, result: Box<ComparisonResult> },
    /// What the timeline can offer (sent unprompted once the worker knows
    /// whether the LS weights were shipped).
    StreamOffer { offer: StreamOffer },
    Streamed { id: u32, timeline: Box<Timeline> },
    LiveOpened { id: u32, opened: LiveOpened },
    LivePushed { id: u32, push: Box<LivePush> },
    /// Which trained centroid heads (models/cera) this build ships.
    Heads { cera: bool, cerai: bool },
    /// Helper workers ready to encode alongside the worker (one per spare core).
    Helpers { ready: usize },
    /// The request could not be done; `message` is for the user.
    Failed { id: u32, message: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ModelStatus {
    /// Downloading the model files (bytes so far, bytes in all).
    Fetching { done: u64, total: u64 },
    /// Building the encoder from the files.
    Loading { from_cache: bool },
    /// `seconds` in all, of which `read_seconds` getting the files (the
    /// download, or the Cache API's copy); the rest builds the encoder.
    Ready {
        seconds: f32,
        from_cache: bool,
        #[serde(default)]
        read_seconds: f32,
        /// The same, in finer steps.
        #[serde(default)]
        phases: LoadPhases,
        /// Whether the whole embedding table is on this device (any text
        /// can be summarized offline); until then the worker fetches the
        /// blocks each text needs.
        #[serde(default)]
        offline: bool,
    },
    /// The model cannot be had (offline before the first download, …).
    Unavailable { message: String },
}

/// Where loading the model went, in seconds: the files' sha256 as far as
/// it held the model up (a download's, as it is read; a cached file's
/// runs while the encoder is built, and only what is left after is
/// counted, after the build), then each step of building the encoder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadPhases {
    pub hash: f64,
    pub build: BuildTimes,
}

/// A step of a summary, for the progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Waiting for the encoder to finish loading.
    Model,
    Splitting,
    /// `done` of `total` sentences embedded.
    Encoding,
    Selecting,
}

impl Stage {
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Model => "Loading the language model",
            Stage::Splitting => "Splitting sentences",
            Stage::Encoding => "Embedding sentences",
            Stage::Selecting => "Selecting sentences",
        }
    }
}

/// One article as the page keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Article {
    pub document: Document,
    pub facts: ArticleFacts,
}

/// Facts about an article's text, shown on its card.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArticleFacts {
    /// Detected languages (ISO 639-1), the one covering most words first;
    /// "und" only when nothing could be recognized.
    pub languages: Vec<String>,
    pub words: usize,
    pub sentences: usize,
}

/// Input that could not be read, in plain words, and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputProblem {
    /// A file name, or "paste".
    pub source: String,
    pub message: String,
}

/// A summary with everything the page shows about it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SummaryResult {
    /// Every sentence of the cluster (ids index this list).
    pub sentences: Vec<Sentence>,
    pub summary: Summary,
    /// Map of all sentences (same order as `sentences`) and the centroid.
    pub projection: Projection,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rouge: Option<RougeResult>,
    pub timing: Timing,
}

/// Methods side by side, and where the time went (embedding once for all).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ComparisonResult {
    pub comparison: Comparison,
    pub timing: Timing,
}

/// Where the time went, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub split_ms: f64,
    pub encode_ms: f64,
    /// Of `encode_ms`, waiting for the embedding table's blocks the
    /// sentences need (from the Cache API, or the network on a first visit).
    #[serde(default)]
    pub rows_ms: f64,
    /// Centroid and selection, together.
    pub select_ms: f64,
    /// Of `select_ms`, the centroid step (a trained head's inference for
    /// CeRA and CeRAI).
    #[serde(default)]
    pub centroid_ms: f64,
    pub total_ms: f64,
    /// Sentences embedded for this summary.
    pub encoded: usize,
    /// Sentences whose embedding was kept from an earlier summary.
    pub reused: usize,
    /// Of the sentences embedded, those a helper worker encoded.
    #[serde(default)]
    pub helped: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip_through_json() {
        let request = Request::Summarize {
            id: 7,
            job: Job {
                documents: vec![Document::new("a", "Storm hits the coast.")],
                settings: Settings::default(),
                reference: Some("A storm.".into()),
            },
        };
        let json = serde_json::to_string(&request).unwrap();
        assert!(json.starts_with(r#"{"summarize":{"id":7,"#), "{json}");
        let back = serde_json::from_str::<Request>(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(request.id(), 7);
    }

    #[test]
    fn responses_are_tagged_for_the_page() {
        let json = serde_json::to_string(&Response::Model { status: ModelStatus::Fetching { done: 5, total: 10 } }).unwrap();
        assert_eq!(json, r#"{"model":{"status":{"state":"fetching","done":5,"total":10}}}"#);
        assert_eq!(serde_json::to_string(&Response::Started).unwrap(), r#""started""#);
        let progress = Response::Progress { id: 1, stage: Stage::Encoding, done: 3, total: 9 };
        let json = serde_json::to_string(&progress).unwrap();
        let back: Response = serde_json::from_str(&json).unwrap();
        assert!(matches!(back, Response::Progress { id: 1, stage: Stage::Encoding, done: 3, total: 9 }), "{json}");
    }
}
