//! The worker's event loop: it loads the encoder (from the Cache API when
//! it was downloaded before), then answers the page's requests one at a
//! time, posting progress while it works.
//!
//! Messages from the page are `[json, files?]` arrays; answers are JSON
//! strings. A summary request that is overtaken by a newer one is dropped
//! between encoding chunks, so dragging a slider never queues up work.

use super::live::{LiveJob, LiveOpened, LivePush, LiveStream};
use super::pool::Pool;
use super::pipeline::{self, EmbeddingCache};
use super::protocol::{InputProblem, Job, ModelStatus, Request, Response, Stage, SummaryResult, Timing, MAX_FILE_BYTES};
use super::read::{self, ReadOutcome};
use super::timeline::{self, StreamJob, StreamOffer, Timeline};
use crate::centroid::{CeraHead, Heads};
use crate::stream::learned::StreamSettings;
use super::EXAMPLES;
use crate::document::Document;
use crate::encoder::{share_batches, Encoder};
use js_sys::{Array, Promise, Uint8Array};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Blob, Cache, DedicatedWorkerGlobalScope, MessageEvent, ReadableStreamDefaultReader, RequestCache, RequestInit};

/// Model files, relative to the app's root (where the worker script is).
const MODEL_DIR: &str = "models/muse-v3/";
const MODEL_FILES: [&str; 2] = ["encoder.onnx", "tokenizer.json"];
const MODEL_CACHE: &str = "precis-models";
/// Sentences tokenized at a time: the encoder's batches are cut from each
/// chunk, and a chunk's last, partial batch runs on a smaller plan.
const TOKENIZE_CHUNK: usize = 256;

enum Model {
    Loading,
    Ready(Rc<Encoder>),
    Unavailable(String),
}

struct Incoming {
    request: Request,
    files: Vec<Blob>,
}

struct State {
    model: Model,
    /// The streaming policies' settings, and whether the LS weights were
    /// found; None while they load.
    stream: Option<(Rc<StreamSettings>, bool)>,
    /// The trained centroid heads that were found (CeRA, CeRAI).
    heads: Rc<Heads>,
    embeddings: EmbeddingCache,
    /// Helper workers that encode alongside this one.
    pool: Rc<Pool>,
    /// The open live stream, if any.
    live: Option<LiveStream>,
    queue: VecDeque<Incoming>,
    draining: bool,
    /// When the queue last ran dry (ms), for work that waits until idle.
    idle_since: f64,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        model: Model::Loading,
        stream: None,
        heads: Rc::new(Heads::default()),
        embeddings: EmbeddingCache::default(),
        pool: Rc::new(Pool::default()),
        live: None,
        queue: VecDeque::new(),
        draining: false,
        idle_since: 0.0,
    });
}

/// True inside a dedicated worker (the page and the worker run the same
/// wasm module; see src/bin/app.rs).
pub fn in_worker() -> bool {
    !js_sys::Reflect::has(&js_sys::global(), &"document".into()).unwrap_or(false)
}

/// Entry point in the worker.
pub fn start() {
    console_error_panic_hook::set_once();
    if super::pool::is_helper() {
        return super::pool::serve();
    }
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(receive);
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Response::Started);
    spawn_local(async {
        // Every download first (the small ones before the model), so that
        // nothing is fetched once the model is ready.
        load_stream_settings().await;
        let heads = fetch_heads().await;
        load_model().await;
        build_heads(heads);
    });
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(response: &Response) {
    if let Ok(json) = serde_json::to_string(response) {
        let _ = scope().post_message(&JsValue::from_str(&json));
    }
}

fn now() -> f64 {
    js_sys::Date::now()
}

fn receive(event: MessageEvent) {
    match decode(&event.data()) {
        Ok(incoming) => STATE.with_borrow_mut(|s| s.queue.push_back(incoming)),
        Err(message) => post(&Response::Failed { id: 0, message }),
    }
    let already_draining = STATE.with_borrow_mut(|s| std::mem::replace(&mut s.draining, true));
    if !already_draining {
        spawn_local(drain());
    }
}

fn decode(data: &JsValue) -> Result<Incoming, String> {
    let parts: Array = data.clone().dyn_into().map_err(|_| "The page sent a malformed message.".to_string())?;
    let json = parts.get(0).as_string().ok_or("The page sent a malformed message.")?;
    let request = serde_json::from_str(&json).map_err(|e| format!("The page sent a malformed request: {e}"))?;
    let files = match parts.get(1).dyn_into::<Array>() {
        Ok(list) => list.iter().filter_map(|f| f.dyn_into::<Blob>().ok()).collect(),
        Err(_) => vec![],
    };
    Ok(Incoming { request, files })
}

async fn drain() {
    while let Some(next) = STATE.with_borrow_mut(|s| s.queue.pop_front()) {
        if let Some(response) = handle(next).await {
            post(&response);
        }
    }
    STATE.with_borrow_mut(|s| {
        s.draining = false;
        s.idle_since = now();
    });
}

/// The answer to one request; None when a newer request made it moot.
async fn handle(Incoming { request, files }: Incoming) -> Option<Response> {
    let id = request.id();
    let read_response = |outcome: ReadOutcome| Response::Read { id, articles: outcome.articles, problems: outcome.problems };
    Some(match request {
        Request::ReadPaste { text, .. } => read_response(read::read_paste(&text)),
        Request::ReadFiles { names, .. } => {
            let (files, too_large) = read_blobs(names, files).await;
            let mut outcome = read::read_files(&files);
            outcome.problems.extend(too_large);
            read_response(outcome)
        }
        Request::ReadExamples { .. } => {
            let files: Vec<(String, Vec<u8>)> = EXAMPLES.iter().map(|(n, b)| (n.to_string(), b.to_vec())).collect();
            read_response(read::read_files(&files))
        }
        Request::Describe { documents, .. } => {
            Response::Described { id, facts: documents.iter().map(pipeline::describe).collect() }
        }
        Request::Summarize { job, .. } => match summarize(id, job).await {
            Ok(Some(result)) => Response::Summarized { id, result: Box::new(result) },
            Ok(None) => return None,
            Err(message) => Response::Failed { id, message },
        },
        Request::Stream { job, .. } => match stream(id, job).await {
            Ok(Some(timeline)) => Response::Streamed { id, timeline: Box::new(timeline) },
            Ok(None) => return None,
            Err(message) => Response::Failed { id, message },
        },
        Request::LiveOpen { job, .. } => match live_open(id, job).await {
            Ok(opened) => Response::LiveOpened { id, opened },
            Err(message) => Response::Failed { id, message },
        },
        Request::LivePush { documents, finish, .. } => match live_push(id, documents, finish).await {
            Ok(push) => Response::LivePushed { id, push: Box::new(push) },
            Err(message) => Response::Failed { id, message },
        },
    })
}

/// The bytes of each uploaded file; files over the size limit are not
/// read at all and come back as problems.
async fn read_blobs(names: Vec<String>, blobs: Vec<Blob>) -> (Vec<(String, Vec<u8>)>, Vec<InputProblem>) {
    let mut files = vec![];
    let mut problems = vec![];
    for (name, blob) in names.into_iter().zip(blobs) {
        if blob.size() > MAX_FILE_BYTES as f64 {
            problems.push(InputProblem { message: read::too_large(blob.size() as usize), source: name });
            continue;
        }
        match JsFuture::from(blob.array_buffer()).await {
            Ok(buffer) => files.push((name, Uint8Array::new(&buffer).to_vec())),
            Err(_) => problems.push(InputProblem { source: name, message: "The browser could not read this file.".into() }),
        }
    }
    (files, problems)
}

async fn summarize(id: u32, job: Job) -> Result<Option<SummaryResult>, String> {
    let started = now();
    let encoder = wait_for_model(id).await?;
    post(&Response::Progress { id, stage: Stage::Splitting, done: 0, total: 1 });
    let prepared = pipeline::prepare(job)?;
    let split_ms = now() - started;
    let encode_started = now();
    let Some(Embedded { missing, helped }) = embed_missing(id, &encoder, prepared.texts(), false).await? else {
        return Ok(None);
    };
    post(&Response::Progress { id, stage: Stage::Selecting, done: 0, total: 1 });
    let timing = Timing {
        split_ms,
        encode_ms: now() - encode_started,
        encoded: missing,
        reused: prepared.texts().count() - missing,
        helped,
        ..Default::default()
    };
    let select_started = now();
    let mut result = STATE.with_borrow(|s| pipeline::finish_with_heads(&prepared, &s.embeddings, timing, &s.heads, &now))?;
    result.timing.select_ms = now() - select_started;
    result.timing.total_ms = now() - started;
    Ok(Some(result))
}

/// Sentences embedded by [`embed_missing`], and of them by helper workers.
struct Embedded {
    missing: usize,
    helped: usize,
}

/// Embeds the texts not embedded yet, posting progress; None when a newer
/// request of the same kind made it moot. Ready helper workers get their
/// share of the batches at once and encode it while this worker does its own.
async fn embed_missing<'a>(
    id: u32,
    encoder: &Encoder,
    texts: impl Iterator<Item = &'a str>,
    streaming: bool,
) -> Result<Option<Embedded>, String> {
    let (missing, pool) = STATE.with_borrow_mut(|s| {
        let missing = s.embeddings.missing(texts);
        s.embeddings.make_room(missing.len());
        (missing, s.pool.clone())
    });
    let helped_before = pool.delivered();
    let mut encoded_here = 0;
    for chunk in missing.chunks(TOKENIZE_CHUNK) {
        let mut ids: Vec<Vec<u32>> = chunk.iter().map(|text| encoder.tokenize(text)).collect();
        // Grouped so that batches share pieces (the cache is keyed by text,
        // so the order the embeddings arrive in does not matter).
        let order = Encoder::batch_order(&ids);
        let chunk: Vec<String> = order.iter().map(|&i| chunk[i].clone()).collect();
        let ids: Vec<Vec<u32>> = order.into_iter().map(|i| std::mem::take(&mut ids[i])).collect();
        let workers = 1 + pool.ready();
        let batches = Encoder::batch_ranges_for(&ids, workers).map_err(encoder_failed)?;
        let costs: Vec<usize> = batches.iter().map(|b| ids[b.clone()].iter().map(Vec::len).sum()).collect();
        let mut here = vec![];
        for (batch, worker) in batches.into_iter().zip(share_batches(&costs, workers)) {
            if worker == 0 || !pool.send(worker - 1, &chunk[batch.clone()], &ids[batch.clone()]) {
                here.push(batch);
            }
        }
        // One progress event per forward pass here, so the page hears from
        // the worker every few hundred milliseconds and can cancel between.
        for batch in here {
            let done = (encoded_here + pool.delivered() - helped_before).min(missing.len());
            post(&Response::Progress { id, stage: Stage::Encoding, done, total: missing.len() });
            yield_to_messages().await;
            if superseded(streaming) {
                return Ok(None);
            }
            encoded_here += batch.len();
            encode_here(encoder, chunk[batch.clone()].to_vec(), &ids[batch])?;
        }
    }
    pool.settle().await;
    for batch in pool.take_returned() {
        encode_here(encoder, batch.texts, &batch.ids)?;
    }
    let helped = (pool.delivered() - helped_before).min(missing.len());
    Ok(Some(Embedded { missing: missing.len(), helped }))
}

fn encode_here(encoder: &Encoder, texts: Vec<String>, ids: &[Vec<u32>]) -> Result<(), String> {
    let embeddings = encoder.encode_ids(ids).map_err(encoder_failed)?;
    STATE.with_borrow_mut(|s| s.embeddings.insert(texts, embeddings));
    Ok(())
}

/// What the user reads when the encoder itself fails.
fn encoder_failed(e: anyhow::Error) -> String {
    format!("The encoder failed: {e}")
}

/// The streaming policies' settings, once loaded; refused when `policy`
/// needs the LS weights and this build has none.
async fn stream_settings(policy: &str) -> Result<Rc<StreamSettings>, String> {
    let (settings, trained) = loop {
        if let Some(found) = STATE.with_borrow(|s| s.stream.clone()) {
            break found;
        }
        sleep(50).await;
    };
    if timeline::needs_weights(policy) && !trained {
        return Err(format!(
            "The {} policy needs the learned weights (models/stream/ls.json), which are not part of this build. Pick COS or APSAL.",
            policy.to_uppercase()
        ));
    }
    Ok(settings)
}

/// The timeline: the articles replayed through a streaming policy.
async fn stream(id: u32, job: StreamJob) -> Result<Option<Timeline>, String> {
    let started = now();
    let encoder = wait_for_model(id).await?;
    let settings = stream_settings(&job.policy).await?;
    post(&Response::Progress { id, stage: Stage::Splitting, done: 0, total: 1 });
    let prepared = timeline::prepare(job, &settings)?;
    if embed_missing(id, &encoder, prepared.texts(), true).await?.is_none() {
        return Ok(None);
    }
    post(&Response::Progress { id, stage: Stage::Selecting, done: 0, total: 1 });
    let mut result = STATE.with_borrow(|s| timeline::replay(&prepared, &s.embeddings, &settings))?;
    result.timing_ms = now() - started;
    Ok(Some(result))
}

/// Opens a live stream (replacing any open one): its query is embedded now.
async fn live_open(id: u32, job: LiveJob) -> Result<LiveOpened, String> {
    let encoder = wait_for_model(id).await?;
    let settings = stream_settings(&job.policy).await?;
    let (settings, opened) = LiveStream::check(&job, &settings)?;
    let query = encoder.encode(&[job.query.trim()]).map_err(encoder_failed)?[0];
    let live = LiveStream::open(&job, &settings, query)?;
    STATE.with_borrow_mut(|s| s.live = Some(live));
    Ok(opened)
}

/// Splits, embeds and decides pushed articles in one go (their embeddings
/// are not kept: a stream does not come back, and the summaries' cache
/// stays as it was). Decisions are timed with `performance.now()`.
async fn live_push(id: u32, documents: Vec<Document>, finish: bool) -> Result<LivePush, String> {
    let encoder = wait_for_model(id).await?;
    if STATE.with_borrow(|s| s.live.is_none()) {
        return Err("No live stream is open.".into());
    }
    let performance = scope().performance();
    let mut clock = || performance.as_ref().map_or_else(now, |p| p.now());
    let started = clock();
    let cluster = LiveStream::split(documents)?;
    let split_ms = clock() - started;
    let started = clock();
    let texts: Vec<&str> = cluster.sentences.iter().map(|s| s.text.as_str()).collect();
    let embeddings = if texts.is_empty() { vec![] } else { encoder.encode(&texts).map_err(encoder_failed)? };
    let encode_ms = clock() - started;
    let arrival = (now() / 1000.0) as i64;
    let mut push = STATE.with_borrow_mut(|s| {
        let live = s.live.as_mut().ok_or("No live stream is open.")?;
        live.push(cluster, &embeddings, arrival, finish, &mut clock)
    })?;
    if finish {
        STATE.with_borrow_mut(|s| s.live = None);
    }
    push.timing.split_ms = split_ms;
    push.timing.encode_ms = encode_ms;
    push.timing.memory_bytes = Some(wasm_memory_bytes());
    Ok(push)
}

/// The size of this module's linear memory (it only ever grows).
fn wasm_memory_bytes() -> u64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64
}

/// True when a newer request of the same kind (summary or timeline) waits.
fn superseded(streaming: bool) -> bool {
    STATE.with_borrow(|s| {
        s.queue.iter().any(|m| match m.request {
            Request::Summarize { .. } => !streaming,
            Request::Stream { .. } => streaming,
            _ => false,
        })
    })
}

/// models/stream/ls.json: the LS weights and tuned thresholds. Without it
/// (not shipped, or never downloaded and offline) COS and APSAL run with
/// their default thresholds.
async fn load_stream_settings() {
    let cache = open_cache().await;
    let (settings, trained, note) = match fetch_text(timeline::SETTINGS_URL, cache.as_ref()).await {
        Some(json) => match StreamSettings::from_json(&json) {
            Ok(settings) => (settings, true, None),
            Err(e) => (
                StreamSettings::untrained(),
                false,
                Some(format!("The learned policy's file is unreadable ({e}); COS and APSAL run with default thresholds.")),
            ),
        },
        None => (
            StreamSettings::untrained(),
            false,
            Some(
                "The learned policy (LS) is not part of this build: its weights (models/stream/ls.json) were not found. \
                 COS and APSAL run with their default thresholds."
                    .into(),
            ),
        ),
    };
    let offer = StreamOffer::of(&settings, trained, note);
    STATE.with_borrow_mut(|s| s.stream = Some((Rc::new(settings), trained)));
    post(&Response::StreamOffer { offer });
}

/// models/cera/{cera,cerai}.onnx, the trained centroid heads, when this
/// build ships them (network first, the cached copy offline).
async fn fetch_heads() -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let cache = open_cache().await;
    (fetch_bytes("models/cera/cera.onnx", cache.as_ref()).await, fetch_bytes("models/cera/cerai.onnx", cache.as_ref()).await)
}

fn build_heads((cera, cerai): (Option<Vec<u8>>, Option<Vec<u8>>)) {
    let load = |bytes: Option<Vec<u8>>| bytes.and_then(|b| CeraHead::from_bytes(&b).ok());
    let (cera, cerai) = (load(cera), load(cerai));
    let (has_cera, has_cerai) = (cera.is_some(), cerai.is_some());
    if let Ok(heads) = Heads::new(cera, cerai) {
        STATE.with_borrow_mut(|s| s.heads = Rc::new(heads));
        post(&Response::Heads { cera: has_cera, cerai: has_cerai });
    }
}

/// A small file: from the network when reachable (kept in the cache), else
/// the cached copy.
async fn fetch_bytes(url: &str, cache: Option<&Cache>) -> Option<Vec<u8>> {
    let init = RequestInit::new();
    init.set_cache(RequestCache::NoCache);
    let fresh = match JsFuture::from(scope().fetch_with_str_and_init(url, &init)).await {
        Ok(response) => {
            let response: web_sys::Response = response.unchecked_into();
            if response.ok() {
                response_bytes(&response).await
            } else {
                None
            }
        }
        Err(_) => None,
    };
    match fresh {
        Some(mut bytes) => {
            if let Some(cache) = cache {
                if let Ok(copy) = web_sys::Response::new_with_opt_u8_array(Some(&mut bytes)) {
                    let _ = JsFuture::from(cache.put_with_str(url, &copy)).await;
                }
            }
            Some(bytes)
        }
        None => cached_bytes(cache, url).await,
    }
}

/// A small text file: from the network when reachable (kept in the cache),
/// else the cached copy; decoded as UTF-8 the way `Response.text()` does.
async fn fetch_text(url: &str, cache: Option<&Cache>) -> Option<String> {
    let bytes = fetch_bytes(url, cache).await?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Lets queued `message` events run (a timer task, not a microtask).
async fn yield_to_messages() {
    sleep(0).await;
}

async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// The encoder, once loaded. A model that could not be had is tried once
/// more (the network may be back).
async fn wait_for_model(id: u32) -> Result<Rc<Encoder>, String> {
    let mut announced = false;
    let mut retried = false;
    loop {
        let model = STATE.with_borrow(|s| match &s.model {
            Model::Ready(encoder) => Some(Ok(encoder.clone())),
            Model::Unavailable(message) => Some(Err(message.clone())),
            Model::Loading => None,
        });
        match model {
            Some(Ok(encoder)) => return Ok(encoder),
            Some(Err(message)) if retried => return Err(message),
            Some(Err(_)) => {
                retried = true;
                STATE.with_borrow_mut(|s| s.model = Model::Loading);
                spawn_local(load_model());
            }
            None => {}
        }
        if !announced {
            announced = true;
            post(&Response::Progress { id, stage: Stage::Model, done: 0, total: 1 });
        }
        sleep(50).await;
    }
}

thread_local! {
    static MODEL_LOAD_RUNNING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

async fn load_model() {
    if MODEL_LOAD_RUNNING.replace(true) {
        return;
    }
    let started = now();
    let loaded = fetch_model().await.and_then(|(files, from_cache)| {
        post(&Response::Model { status: ModelStatus::Loading { from_cache } });
        let encoder = Encoder::from_bytes(&files[0], &files[1]).map_err(|e| format!("The language model could not be loaded: {e}"))?;
        Ok((encoder, files, from_cache))
    });
    let (model, status, files) = match loaded {
        Ok((encoder, files, from_cache)) => {
            let seconds = ((now() - started) / 1000.0) as f32;
            (Model::Ready(Rc::new(encoder)), ModelStatus::Ready { seconds, from_cache }, Some(files))
        }
        Err(message) => (Model::Unavailable(message.clone()), ModelStatus::Unavailable { message }, None),
    };
    STATE.with_borrow_mut(|s| {
        s.model = model;
        s.idle_since = now();
    });
    MODEL_LOAD_RUNNING.set(false);
    post(&Response::Model { status });
    if let Some(files) = files {
        start_helpers(&files);
        spawn_local(prepare_plans_while_idle());
    }
}

/// Builds the encoder's remaining batch plans one at a time (a few hundred
/// ms each) once the worker has been idle for a second, so that a later long
/// input does not wait for them and a request sent right away does not wait
/// behind them.
async fn prepare_plans_while_idle() {
    loop {
        sleep(100).await;
        let (encoder, busy) = STATE.with_borrow(|s| {
            let encoder = match &s.model {
                Model::Ready(encoder) => Some(encoder.clone()),
                _ => None,
            };
            (encoder, s.draining || !s.queue.is_empty() || now() - s.idle_since < 1000.0)
        });
        let Some(encoder) = encoder else { return };
        if !busy && !matches!(encoder.prepare_next_plan(), Ok(true)) {
            return;
        }
    }
}

/// Helper workers get the model's bytes once this worker is ready (they load
/// while the user is still reading); until then this worker encodes alone.
fn start_helpers(files: &[Vec<u8>]) {
    if STATE.with_borrow(|s| s.pool.is_started()) {
        return;
    }
    let deliver = Box::new(|texts, embeddings| STATE.with_borrow_mut(|s| s.embeddings.insert(texts, embeddings)));
    let announce = Box::new(|ready| post(&Response::Helpers { ready }));
    let pool = Pool::start(&files[0], &files[1], deliver, announce);
    STATE.with_borrow_mut(|s| s.pool = Rc::new(pool));
}

/// The model files' bytes, and whether they all came from the cache.
async fn fetch_model() -> Result<(Vec<Vec<u8>>, bool), String> {
    // The Cache API is missing outside secure contexts: download then.
    let cache = open_cache().await;
    let manifest = fetch_manifest(cache.as_ref()).await?;
    let files = MODEL_FILES
        .iter()
        .map(|name| manifest_entry(&manifest, name))
        .collect::<Result<Vec<(String, u64)>, String>>()?;
    let total: u64 = files.iter().map(|(_, bytes)| bytes).sum();
    let mut done = 0;
    let mut from_cache = true;
    let mut contents = vec![];
    for (url, bytes) in &files {
        let data = match cached_bytes(cache.as_ref(), url).await {
            Some(data) if data.len() as u64 == *bytes => data,
            _ => {
                from_cache = false;
                download(url, *bytes, cache.as_ref(), |n| done + n, total).await?
            }
        };
        done += bytes;
        contents.push(data);
    }
    if let Some(cache) = &cache {
        let current: Vec<String> = files.iter().map(|(url, _)| url.clone()).collect();
        prune(cache, &current).await;
    }
    Ok((contents, from_cache))
}

async fn open_cache() -> Option<Cache> {
    let storage = scope().caches().ok()?;
    JsFuture::from(storage.open(MODEL_CACHE)).await.ok()?.dyn_into().ok()
}

/// models/muse-v3/manifest.json: from the network when reachable (a new
/// model replaces the old), else the copy kept in the cache.
async fn fetch_manifest(cache: Option<&Cache>) -> Result<serde_json::Value, String> {
    let url = format!("{MODEL_DIR}manifest.json");
    let text = fetch_text(&url, cache).await.ok_or_else(|| {
        "The language model has not been downloaded yet and the network is unreachable. \
         Connect once to download it (84 MB); after that Précis works offline."
            .to_string()
    })?;
    serde_json::from_str(&text).map_err(|e| format!("The model manifest is damaged: {e}"))
}

/// (versioned URL, size in bytes) of a model file: the URL carries the
/// file's hash, so a new model never hits an old cache entry.
fn manifest_entry(manifest: &serde_json::Value, name: &str) -> Result<(String, u64), String> {
    let entry = &manifest["files"][name];
    let sha = entry["sha256"].as_str().unwrap_or_default();
    let bytes = entry["bytes"].as_u64().unwrap_or(0);
    if sha.len() < 16 || bytes == 0 {
        return Err(format!("The model manifest does not describe {name}."));
    }
    Ok((format!("{MODEL_DIR}{name}?v={}", &sha[..16]), bytes))
}

async fn cached_response(cache: Option<&Cache>, url: &str) -> Option<web_sys::Response> {
    let found = JsFuture::from(cache?.match_with_str(url)).await.ok()?;
    found.dyn_into().ok()
}

async fn cached_bytes(cache: Option<&Cache>, url: &str) -> Option<Vec<u8>> {
    response_bytes(&cached_response(cache, url).await?).await
}

async fn response_bytes(response: &web_sys::Response) -> Option<Vec<u8>> {
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// Downloads a file, reporting progress (bytes of all files: `offset(n)`
/// of `total`), and keeps it in the cache.
async fn download(
    url: &str,
    expected: u64,
    cache: Option<&Cache>,
    offset: impl Fn(u64) -> u64,
    total: u64,
) -> Result<Vec<u8>, String> {
    let offline = || "The language model could not be downloaded: the network is unreachable. \
        Connect once to download it (84 MB); after that Précis works offline."
        .to_string();
    let init = RequestInit::new();
    // The Cache API keeps the file; the HTTP cache would only keep a second copy.
    init.set_cache(RequestCache::NoStore);
    let response: web_sys::Response =
        JsFuture::from(scope().fetch_with_str_and_init(url, &init)).await.map_err(|_| offline())?.unchecked_into();
    if !response.ok() {
        return Err(format!("The language model could not be downloaded ({url}: HTTP {}).", response.status()));
    }
    let body = response.body().ok_or_else(offline)?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::with_capacity(expected as usize);
    let mut reported = 0u64;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| offline())?;
        if js_sys::Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value: Uint8Array = js_sys::Reflect::get(&chunk, &"value".into()).map_err(|_| offline())?.unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        let done = offset(bytes.len() as u64);
        if done - reported >= total / 100 {
            reported = done;
            post(&Response::Model { status: ModelStatus::Fetching { done, total } });
        }
    }
    if bytes.len() as u64 != expected {
        return Err(format!(
            "The language model download was cut short ({} of {} bytes). Reload to try again.",
            bytes.len(),
            expected
        ));
    }
    if let Some(cache) = cache {
        if let Ok(copy) = web_sys::Response::new_with_opt_u8_array(Some(&mut bytes)) {
            // A full disk only means the next visit downloads again.
            let _ = JsFuture::from(cache.put_with_str(url, &copy)).await;
        }
    }
    Ok(bytes)
}

/// Deletes cached model files of other versions.
async fn prune(cache: &Cache, current: &[String]) {
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    for request in Array::from(&keys).iter() {
        let request: web_sys::Request = request.unchecked_into();
        let url = request.url();
        let is_model_file = MODEL_FILES.iter().any(|f| url.contains(&format!("{MODEL_DIR}{f}")));
        if is_model_file && !current.iter().any(|c| url.ends_with(c.as_str())) {
            let _ = JsFuture::from(cache.delete_with_request(&request)).await;
        }
    }
}
