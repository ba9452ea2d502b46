//! The Web Worker side of the app: it owns the encoder and does all heavy
//! work (reading input, splitting, encoding, selecting, projecting) so the
//! page never freezes.
//!
//! - [`protocol`]: the messages between page and worker;
//! - [`read`]: pasted text and files into articles (with limits);
//! - [`pipeline`]: the work itself, without browser code (tested natively);
//! - [`schedule`]: how encoding is spread over this worker and its helpers,
//!   and when running work is overtaken (tested natively);
//! - [`signal`]: values tasks wait for (the model, the stream settings),
//!   tested natively;
//! - `inbox` (wasm only): the entry point; the page's messages, queued and
//!   handed to `jobs` one at a time;
//! - `jobs` (wasm only): each request's answer, with progress events;
//! - `runtime` (wasm only): what the worker keeps between requests, the
//!   model's life, idle work;
//! - `assets` (wasm only): downloads and the Cache API (model, heads,
//!   stream settings);
//! - `table_blocks` (wasm only): the embedding table's blocks, fetched as
//!   texts need them, and the whole table in the background;
//! - `readers` (wasm only): PDF and Word files, read by the core's reader
//!   in a worker of its own, loaded on the first such file;
//! - `pool` (wasm only): helper workers that encode batches alongside the
//!   main worker, one per spare core.

pub mod pipeline;
pub mod protocol;
pub mod read;
pub mod schedule;
pub mod signal;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod assets;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod inbox;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod jobs;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod pool;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod readers;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod runtime;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod table_blocks;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub use inbox::start;

/// True inside a dedicated worker (the page and the worker run the same
/// wasm module; see src/bin/app.rs).
#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub fn in_worker() -> bool {
    !js_sys::Reflect::has(&js_sys::global(), &"document".into()).unwrap_or(false)
}

/// The bundled example set (assets/examples, copied to `examples/` in the
/// built app by www/index.html): read exactly like uploaded files. The
/// worker fetches them on "Load example" instead of carrying them in the
/// wasm, so the first load is 3 KB (gzipped) lighter; the service worker
/// precaches them with the app shell, so they load offline too.
pub const EXAMPLE_FILES: [&str; 5] =
    ["01-en-wire.json", "02-fr-quotidien.json", "03-de-zeitung.json", "04-it-cronaca.json", "05-es-agencia.json"];

/// Where the built app serves [`EXAMPLE_FILES`], relative to the worker.
pub const EXAMPLES_URL: &str = "examples/";
