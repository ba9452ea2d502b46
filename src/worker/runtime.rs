//! What the worker keeps between requests, and the model's life: it loads
//! the encoder (from the Cache API when it was downloaded before, see
//! `assets`), starts the helpers, and builds batch plans while idle. The
//! requests themselves come through `inbox` and are answered by `jobs`,
//! both above this module: they use it, it knows neither.
//!
//! A request overtaken by a newer one of its kind is dropped between
//! encoding batches (`schedule::superseded`), so dragging a slider never
//! queues up work. Tasks that need the model or the stream settings wait on
//! a [`Signal`], not a polling timer.

use super::assets;
use super::table_blocks;
use super::pool::Pool;
use super::protocol::{LoadPhases, ModelStatus, Request, Response, Stage};
use super::schedule::{self, Supersedable};
use super::signal::Signal;
use crate::centroid::Heads;
use crate::encoder::{BuildTimes, EmbeddingCache, Encoder, Network};
use crate::stream::live::LiveStream;
use crate::stream::timeline::StreamOffer;
use crate::stream::settings::StreamSettings;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Blob, DedicatedWorkerGlobalScope};

/// Idle time after which the encoder's remaining batch plans are built:
/// long enough for the page's next request of a burst (reading dropped
/// files, then describing them) to come first, short enough that the
/// plans are ready when a user who clicks at once asks for a summary
/// (at 1 s, `tests/e2e/bench-app.mjs`'s DUC cluster found two missing,
/// about 50 ms each in wasm then).
const IDLE_MS: u32 = 200;

/// Idle time after the model is ready after which the rest of the
/// embedding table downloads even before a first summary (a user still
/// pasting articles then finds the app ready offline); a summary asked for
/// sooner goes first, and starts the download when it is done.
const TABLE_AFTER_MS: i32 = 5_000;
/// After an answer, the wait before that download starts.
const TABLE_AFTER_ANSWER_MS: i32 = 1_000;

/// Everything the worker keeps between requests.
pub(super) struct State {
    /// The encoder, or why it could not be had.
    pub model: Signal<Result<Rc<Encoder>, String>>,
    model_loading: bool,
    /// What the page was last told of the model.
    model_status: Option<ModelStatus>,
    /// The streaming policies' settings, and whether the LS weights were found.
    pub stream: Signal<(Rc<StreamSettings>, bool)>,
    /// The trained centroid heads that were found (CeRA, CeRAI), once
    /// loaded ([`load_heads`]).
    pub heads: Signal<Rc<Heads>>,
    heads_loading: bool,
    pub embeddings: EmbeddingCache,
    /// Helper workers that encode alongside this one.
    pub pool: Rc<Pool>,
    /// The open live stream, if any.
    pub live: Option<LiveStream>,
    /// Requests waiting, with the files that came with them.
    pub queue: VecDeque<(Request, Vec<Blob>)>,
    pub draining: bool,
    /// Counts the times the queue ran dry, so idle work knows it stayed idle.
    pub idle_epoch: u64,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        model: Signal::default(),
        model_loading: false,
        model_status: None,
        stream: Signal::default(),
        heads: Signal::default(),
        heads_loading: false,
        embeddings: EmbeddingCache::default(),
        pool: Rc::new(Pool::default()),
        live: None,
        queue: VecDeque::new(),
        draining: false,
        idle_epoch: 0,
    });
}

pub(super) fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with_borrow_mut(f)
}

pub(super) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub(super) fn post(response: &Response) {
    if let Ok(json) = serde_json::to_string(response) {
        let _ = scope().post_message(&JsValue::from_str(&json));
    }
}

pub(super) fn now() -> f64 {
    js_sys::Date::now()
}

/// True when a newer request of the running work's kind waits.
pub(super) fn superseded(running: Supersedable) -> bool {
    with_state(|s| schedule::superseded(running, s.queue.iter().map(|(request, _)| request.overtakes())))
}

/// Lets queued `message` events run (a timer task, not a microtask).
pub(super) async fn yield_to_messages() {
    sleep(0).await;
}

/// The encoder, once loaded. A model that could not be had is tried once
/// more (the network may be back).
pub(super) async fn wait_for_model(id: u32) -> Result<Rc<Encoder>, String> {
    let model = with_state(|s| s.model.clone());
    if !matches!(model.get(), Some(Ok(_))) {
        post(&Response::Progress { id, stage: Stage::Model, done: 0, total: 1 });
    }
    match model.wait().await {
        Ok(encoder) => Ok(encoder),
        Err(_) => {
            model.clear();
            spawn_local(load_model());
            model.wait().await
        }
    }
}

pub(super) async fn load_model() {
    if with_state(|s| std::mem::replace(&mut s.model_loading, true)) {
        return;
    }
    let started = now();
    let mut resume_table = false;
    let (model, status, files) = match read_and_build().await {
        Ok(Built { encoder, read, build, read_at, hash_seconds }) => {
            let (seconds, read_seconds) = (((now() - started) / 1000.0) as f32, ((read_at - started) / 1000.0) as f32);
            let phases = LoadPhases { hash: hash_seconds, build };
            let offline = encoder.table().is_whole();
            resume_table = read.from_cache && !offline;
            let status = ModelStatus::Ready { seconds, from_cache: read.from_cache, read_seconds, phases, offline };
            // Helpers get the table's head alone: each batch brings its rows.
            let head = read.table.bytes[..table_blocks::head_bytes()].to_vec();
            let [network, tokenizer]: [Vec<u8>; 2] = read.contents.try_into().expect("two model files");
            (Ok(Rc::new(encoder)), status, Some(vec![network, tokenizer, head]))
        }
        Err(message) => (Err(message.clone()), ModelStatus::Unavailable { message }, None),
    };
    let signal = with_state(|s| {
        s.model_loading = false;
        s.model_status = Some(status.clone());
        s.model.clone()
    });
    signal.set(model);
    post(&Response::Model { status });
    if let Some(files) = files {
        start_helpers(&files);
        start_idle_work(resume_table);
    }
}

/// The encoder, as [`read_and_build`] made it.
struct Built {
    encoder: Encoder,
    read: assets::ModelFiles,
    build: BuildTimes,
    /// When the files were read (`now()`).
    read_at: f64,
    /// Hashing that held the model up: downloads, and the cached files'
    /// checks not done by the time the encoder was built.
    hash_seconds: f64,
}

/// Reads the model files and builds the encoder: the network as soon as its
/// file is in and checked (the engine reads the other files meanwhile), the
/// rest once they are. The other cached files' sha256 runs while the
/// encoder is built; when one is damaged (a flipped byte on disk), its copy
/// is deleted and the files are read once more, so that it is downloaded
/// again.
async fn read_and_build() -> Result<Built, String> {
    let progress = |done, total| post(&Response::Model { status: ModelStatus::Fetching { done, total } });
    let clock = || now() / 1000.0;
    let build_network = |network: &[u8], from_cache| {
        post(&Response::Model { status: ModelStatus::Loading { from_cache } });
        Network::from_bytes_timed(network, &clock)
    };
    let mut attempts_left = 2;
    loop {
        attempts_left -= 1;
        let mut read = assets::model_files(&progress, build_network).await?;
        let read_at = now();
        let hashing = Cell::new(read.hash_seconds);
        let network = read.network.take().expect("the network is built as its file is read");
        let built = network.and_then(|network| Encoder::with_network_timed(network, &read.contents[1], &read.table.bytes, &clock));
        if !assets::cached_files_intact(std::mem::take(&mut read.checks), &hashing).await {
            if attempts_left > 0 {
                continue;
            }
            return Err("The language model kept on this device is damaged and could not be replaced. Reload to try again.".into());
        }
        let (encoder, build) = built.map_err(|e| format!("The language model could not be loaded: {e}"))?;
        // The network was built while the files were read: not reading time.
        let read_at = read_at - read.network_seconds * 1000.0;
        return Ok(Built { encoder, read, build, read_at, hash_seconds: hashing.get() });
    }
}

/// Once the model is ready: the batch plans and the whole table's blocks
/// while idle, and the rest of the table (with the heads) a few seconds on.
/// A returning visit whose table is still in parts (`resume_table`: the
/// last visit's download was cut short, by a reload or a closed tab)
/// resumes it at once: its next text in a new language would otherwise
/// wait for its blocks, a few hundred range requests for a DUC2004 cluster
/// (docs/speed.md); and it reads the blocks the last visit kept into
/// memory meanwhile.
fn start_idle_work(resume_table: bool) {
    let epoch = with_state(|s| s.idle_epoch);
    spawn_local(prepare_plans_while_idle(epoch));
    let Some(Ok(encoder)) = with_state(|s| s.model.get()) else { return };
    if encoder.table().is_whole() {
        spawn_local(inflate_table_while_idle(encoder));
    } else if resume_table {
        spawn_local(async move { table_blocks::add_all_cached_runs(encoder.table()).await });
        return complete_table_now();
    }
    spawn_local(async {
        sleep(TABLE_AFTER_MS - TABLE_AFTER_ANSWER_MS).await;
        if !with_state(|s| s.draining) {
            complete_table_in_background();
        }
    });
}

/// The trained heads, as loaded so far: none until [`load_heads`] is done.
pub(super) fn heads_now() -> Rc<Heads> {
    with_state(|s| s.heads.get()).unwrap_or_default()
}

/// The trained heads, loaded first if they are not yet (a summary with
/// CeRA or CeRAI waits here).
pub(super) async fn wait_for_heads() -> Rc<Heads> {
    load_heads();
    with_state(|s| s.heads.clone()).wait().await
}

/// Starts loading the trained heads, once.
pub(super) fn load_heads() {
    if with_state(|s| std::mem::replace(&mut s.heads_loading, true)) {
        return;
    }
    spawn_local(async {
        let heads = assets::heads_from(assets::head_files().await);
        with_state(|s| s.heads.clone()).set(Rc::new(heads));
    });
}

/// After a summary, or [`TABLE_AFTER_MS`] after the model is ready: the rest
/// of the embedding table in the background (once), then the badge says the
/// app works offline.
pub(super) fn complete_table_in_background() {
    spawn_local(async {
        // The answer goes to the page first, and the page draws it.
        sleep(TABLE_AFTER_ANSWER_MS).await;
        complete_table_now();
    });
}

/// [`complete_table_in_background`] without the wait.
fn complete_table_now() {
    let Some(Ok(encoder)) = with_state(|s| s.model.get()) else { return };
    spawn_local(async move {
        load_heads();
        if table_blocks::complete_in_background(encoder.table()).await {
            spawn_local(inflate_table_while_idle(encoder.clone()));
            let status = with_state(|s| {
                if let Some(ModelStatus::Ready { offline, .. }) = &mut s.model_status {
                    *offline = true;
                }
                s.model_status.clone()
            });
            if let Some(status) = status {
                post(&Response::Model { status });
            }
        }
    });
}

/// Builds the encoder's remaining batch plans one at a time (about 22 ms
/// each in wasm) while the worker stays idle, starting [`IDLE_MS`] after the
/// queue ran dry, so that a later long input does not wait for them and a
/// request sent meanwhile waits behind one plan at most.
pub(super) async fn prepare_plans_while_idle(epoch: u64) {
    sleep(IDLE_MS as i32).await;
    loop {
        let (encoder, idle) = with_state(|s| (s.model.get().and_then(Result::ok), !s.draining && s.idle_epoch == epoch));
        let Some(encoder) = encoder else { return };
        if !idle || !matches!(encoder.prepare_next_plan(), Ok(true)) {
            return;
        }
        yield_to_messages().await;
    }
}

/// Blocks of the whole table inflated at a time while idle (about 1 MB of
/// rows, a few milliseconds in wasm).
const INFLATE_AT_ONCE: usize = 128;

/// Inflates the whole table's blocks while the worker is idle, so that a
/// summary never pays for it: a DUC2004 cluster touches 635 blocks, which
/// took its warm summary from 334 to 428 ms when inflated on first use.
async fn inflate_table_while_idle(encoder: Rc<Encoder>) {
    loop {
        if with_state(|s| s.draining) {
            sleep(IDLE_MS as i32).await;
            continue;
        }
        if !encoder.table().inflate_ahead(INFLATE_AT_ONCE) {
            return;
        }
        yield_to_messages().await;
    }
}

/// Helper workers get the model's bytes once this worker is ready (they load
/// while the user is still reading); until then this worker encodes alone.
fn start_helpers(files: &[Vec<u8>]) {
    if with_state(|s| s.pool.is_started()) {
        return;
    }
    let deliver = Box::new(|texts, embeddings| with_state(|s| s.embeddings.insert(texts, embeddings)));
    let announce = Box::new(|ready| post(&Response::Helpers { ready }));
    let pool = Pool::start(files, deliver, announce);
    with_state(|s| s.pool = Rc::new(pool));
}

pub(super) async fn load_stream_settings() {
    let (settings, trained, note) = assets::stream_settings().await;
    let offer = StreamOffer::of(&settings, trained, note);
    with_state(|s| s.stream.clone()).set((Rc::new(settings), trained));
    post(&Response::StreamOffer { offer });
}

/// Resolves after `ms` milliseconds (a timer task). Not gloo-timers: the
/// README's dependency table gives the measured reason.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
