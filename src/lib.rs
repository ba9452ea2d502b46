//! Précis core: documents → sentences → embeddings → centroid → selection →
//! summary. No browser code here; the CLI and the web app are thin shells.

pub mod app;
pub mod centroid;
pub mod choices;
pub mod compare;
#[cfg(not(target_arch = "wasm32"))]
pub mod datasets;
pub mod dates;
pub mod document;
pub mod encoder;
pub mod eval;
pub mod input;
pub mod limits;
#[cfg(not(target_arch = "wasm32"))]
pub mod models;
pub mod project;
/// The Python package `precis` (maturin, pyproject.toml): glue over the
/// same functions the CLI calls.
#[cfg(all(not(target_arch = "wasm32"), feature = "python"))]
pub mod python;
pub mod registry;
pub mod segment;
pub mod select;
pub mod stream;
pub mod summarize;
pub mod text;
/// The encoder for JavaScript (the browser parity tests and benchmarks;
/// tests/browser/build-wasm.sh). A feature of its own: its exports would
/// otherwise be linked into every wasm binary of this crate.
#[cfg(all(target_arch = "wasm32", feature = "encoder-api"))]
pub mod wasm_api;
pub mod worker;
