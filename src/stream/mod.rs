//! Streaming update summarization (the streaming paper, adapted to a browser).
//!
//! Dated documents are replayed in time order. For each sentence a [`Policy`]
//! decides at once whether it becomes an *update* (shown on the timeline with
//! its time) or is skipped; there is no look-ahead. The [`Engine`] keeps the
//! incremental [`StreamState`] (updates so far, running centroid, recent
//! sentences, document arrivals) whose cost per sentence grows only with the
//! number of updates. Every decision carries a [`Reason`] the app can show.
//!
//! Policies: [`cos::Cos`] (first sentences below a similarity threshold),
//! [`apsal::Apsal`] (affinity propagation in fixed time windows),
//! [`learned::Ls`] (a linear cost-sensitive policy trained by LOLS) and
//! [`learned::LsCos`] (LS filtered by the COS threshold).
//!
//! Two ways to run them on articles, free of browser code: [`timeline`]
//! replays a fixed set from the start (the app's timeline mode, the Python
//! package's replay), [`live`] decides articles as they are pushed.
//!
//! The engine, the policies, features and metrics build for wasm32; the
//! TREC-TS loader and the training code are native only.

pub mod apsal;
pub mod cos;
pub mod engine;
pub mod evaluate;
pub mod features;
pub mod kind;
pub mod learned;
pub mod live;
pub mod metrics;
pub mod replay;
pub mod rng;
pub mod settings;
pub mod snapshot;
pub mod timeline;
#[cfg(not(target_arch = "wasm32"))]
pub mod train;
#[cfg(not(target_arch = "wasm32"))]
pub mod trec;

pub use kind::PolicyKind;
pub use engine::{
    Action, Closest, Decision, Engine, Policy, Reason, Released, SentenceInput, StateConfig,
    StreamSentence, StreamState, Update,
};
#[cfg(not(target_arch = "wasm32"))]
pub use engine::EngineSnapshot;
