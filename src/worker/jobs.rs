//! The worker's answer to each request: reading input, summaries, the
//! timeline and live streams. The work itself is browser-free (`read`,
//! `pipeline`, `crate::stream::timeline`, `crate::stream::live`); here it is fed the encoder's output,
//! with progress posted between batches.

use super::pipeline;
use super::protocol::{ComparisonResult, InputProblem, Job, Request, Response, Stage, SummaryResult, Timing};
use super::read::{self, ReadOutcome};
use super::readers;
use super::runtime::{complete_table_in_background, heads_now, wait_for_heads, now, post, scope, superseded, wait_for_model, with_state, yield_to_messages};
use super::table_blocks;
use super::schedule::{ChunkPlan, Supersedable, TOKENIZE_CHUNK};
use crate::document::{Document, Sentence};
use crate::encoder::Encoder;
use crate::input::{self, InputError};
use crate::limits::MAX_FILE_BYTES;
use crate::stream::settings::StreamSettings;
use crate::stream::live::{LiveJob, LiveOpened, LivePush, LiveStream};
use crate::stream::timeline::{self, StreamJob, Timeline};
use crate::stream::PolicyKind;
use crate::centroid::Heads;
use crate::summarize::Method;
use js_sys::Uint8Array;
use web_sys::Blob;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The answer to one request; None when a newer request made it moot.
pub(super) async fn handle(request: Request, files: Vec<Blob>) -> Option<Response> {
    let id = request.id();
    let read_response = |outcome: ReadOutcome| Response::Read { id, articles: outcome.articles, problems: outcome.problems };
    let answer = |result: Result<Response, String>| result.unwrap_or_else(|message| Response::Failed { id, message });
    Some(match request {
        Request::ReadPaste { text, .. } => read_response(read::read_paste(&text)),
        Request::ReadFiles { names, .. } => {
            let (files, too_large) = read_blobs(names, files).await;
            let mut outcome = read_uploads(&files).await;
            outcome.problems.extend(too_large);
            read_response(outcome)
        }
        Request::ReadExamples { .. } => match super::assets::fetch_examples().await {
            Ok(files) => read_response(read::read_files(&files)),
            Err(message) => Response::Failed { id, message },
        },
        Request::Describe { documents, .. } => {
            Response::Described { id, facts: documents.iter().map(pipeline::describe).collect() }
        }
        Request::Summarize { job, .. } => match summarize(id, job).await {
            Ok(Some(result)) => Response::Summarized { id, result: Box::new(result) },
            Ok(None) => return None,
            Err(message) => Response::Failed { id, message },
        },
        Request::Compare { job, methods, .. } => match compare(id, job, methods).await {
            Ok(Some(result)) => Response::Compared { id, result: Box::new(result) },
            Ok(None) => return None,
            Err(message) => Response::Failed { id, message },
        },
        Request::Stream { job, .. } => match stream(id, job).await {
            Ok(Some(timeline)) => Response::Streamed { id, timeline: Box::new(timeline) },
            Ok(None) => return None,
            Err(message) => Response::Failed { id, message },
        },
        Request::LiveOpen { job, .. } => answer(live_open(id, job).await.map(|opened| Response::LiveOpened { id, opened })),
        Request::LivePush { documents, finish, .. } => {
            answer(live_push(id, documents, finish).await.map(|push| Response::LivePushed { id, push: Box::new(push) }))
        }
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

/// Reads uploaded files in order. PDF and Word files go to the document
/// reader's worker (loaded on the first one); the rest are read here.
async fn read_uploads(files: &[(String, Vec<u8>)]) -> ReadOutcome {
    let mut outcome = ReadOutcome::default();
    for (name, bytes) in files {
        let read = match input::documents_from_file(name, bytes) {
            Err(InputError::ReaderNotLoaded { .. }) => readers::read(name, bytes).await,
            read => read.map_err(|e| e.to_string()),
        };
        outcome.accept(name, read);
    }
    outcome
}

/// The browser specs' way to crash this worker in the middle of a summary
/// (tests/e2e/specs/recovery.test.mjs): started with `fault=panic` it
/// panics, with `fault=oom` it fails an allocation as running out of memory
/// does; either aborts the wasm module, like a real crash. The page passes
/// the flag only when its own address has it, and only to its first
/// worker, so the restarted one works. It is compiled into every build:
/// a cargo feature would need a second Trunk build for the tests, and the
/// flag can do nothing a real crash would not (the page restarts the
/// worker; articles and settings are untouched).
fn inject_fault() {
    let search = scope().location().search();
    if search.contains("fault=panic") {
        panic!("fault injected (fault=panic)");
    }
    if search.contains("fault=oom") {
        std::alloc::handle_alloc_error(std::alloc::Layout::new::<[u8; 1 << 30]>());
    }
}

async fn summarize(id: u32, job: Job) -> Result<Option<SummaryResult>, String> {
    let started = now();
    let method = job.settings.method;
    let encoder = wait_for_model(id).await?;
    inject_fault();
    post(&Response::Progress { id, stage: Stage::Splitting, done: 0, total: 1 });
    let prepared = pipeline::prepare(job)?;
    let Some(timing) = embed_prepared(id, &encoder, &prepared, now() - started, Supersedable::Summary).await? else {
        return Ok(None);
    };
    let stemming_complete = ensure_stemming(&prepared).await;
    let heads = heads_for(&[method]).await;
    let select_started = now();
    let mut result = with_state(|s| pipeline::finish(&prepared, &s.embeddings, timing, &heads, &now))?;
    if !stemming_complete {
        result.summary.notes.push(pipeline::PARTIAL_STEMMING_NOTE.into());
    }
    result.timing.select_ms = now() - select_started;
    result.timing.total_ms = now() - started;
    complete_table_in_background();
    Ok(Some(result))
}

/// Methods side by side: their texts embedded once (through the same
/// cache as summaries), then each method's selection.
async fn compare(id: u32, job: Job, methods: Vec<Method>) -> Result<Option<ComparisonResult>, String> {
    let started = now();
    let encoder = wait_for_model(id).await?;
    post(&Response::Progress { id, stage: Stage::Splitting, done: 0, total: 1 });
    let prepared = pipeline::prepare_comparison(job, &methods)?;
    let Some(timing) = embed_prepared(id, &encoder, &prepared, now() - started, Supersedable::Comparison).await? else {
        return Ok(None);
    };
    let stemming_complete = ensure_stemming(&prepared).await;
    let heads = heads_for(&methods).await;
    let select_started = now();
    let mut result = with_state(|s| pipeline::finish_comparison(&prepared, &methods, &s.embeddings, timing, &heads, &now))?;
    if !stemming_complete {
        result.comparison.columns.iter_mut().for_each(|c| c.notes.push(pipeline::PARTIAL_STEMMING_NOTE.into()));
    }
    result.timing.select_ms = now() - select_started;
    result.timing.total_ms = now() - started;
    complete_table_in_background();
    Ok(Some(result))
}

/// The trained heads when one of `methods` runs on them (loaded now if
/// they are not yet); else those loaded so far.
async fn heads_for(methods: &[Method]) -> Rc<Heads> {
    if methods.iter().any(|m| matches!(m, Method::Cera | Method::Cerai)) {
        wait_for_heads().await
    } else {
        heads_now()
    }
}

/// With a reference to score against: makes sure ROUGE's English stemming
/// has WordNet's exception list, which the app downloads on first use.
/// False when it could not be had.
async fn ensure_stemming(prepared: &pipeline::Prepared) -> bool {
    prepared.extra.reference.is_empty() || super::assets::ensure_wordnet_exceptions().await
}

/// Embeds what the prepared job still needs; its timing so far, or None
/// when a newer request of the same kind made it moot.
async fn embed_prepared(
    id: u32,
    encoder: &Encoder,
    prepared: &pipeline::Prepared,
    split_ms: f64,
    kind: Supersedable,
) -> Result<Option<Timing>, String> {
    let encode_started = now();
    let Some(Embedded { missing, helped, rows_ms }) = embed_missing(id, encoder, prepared.texts(), kind).await? else {
        return Ok(None);
    };
    post(&Response::Progress { id, stage: Stage::Selecting, done: 0, total: 1 });
    Ok(Some(Timing {
        split_ms,
        encode_ms: now() - encode_started,
        encoded: missing,
        reused: prepared.texts().count() - missing,
        helped,
        rows_ms,
        ..Default::default()
    }))
}

/// Sentences embedded by [`embed_missing`], and of them by helper workers.
struct Embedded {
    missing: usize,
    helped: usize,
    /// Waiting for the embedding table's blocks (Cache API or network).
    rows_ms: f64,
}

/// Embeds the texts not embedded yet, posting progress; None when a newer
/// request of the same kind made it moot. Ready helper workers get their
/// share of the batches at once and encode it while this worker does its own.
async fn embed_missing<'a>(
    id: u32,
    encoder: &Encoder,
    texts: impl Iterator<Item = &'a str>,
    kind: Supersedable,
) -> Result<Option<Embedded>, String> {
    let (missing, pool) = with_state(|s| {
        let missing = s.embeddings.missing(texts);
        s.embeddings.make_room(missing.len());
        (missing, s.pool.clone())
    });
    let helped_before = pool.delivered();
    let mut encoded_here = 0;
    let (ids, rows_ms) = tokenize_with_rows(id, encoder, &missing).await?;
    for (chunk, ids) in missing.chunks(TOKENIZE_CHUNK).zip(ids.chunks(TOKENIZE_CHUNK)) {
        let plan = ChunkPlan::new(chunk, ids.to_vec(), 1 + pool.ready()).map_err(encoder_failed)?;
        let here: Vec<_> = plan
            .batches
            .iter()
            .filter(|b| b.worker == 0 || !pool.send(b.worker - 1, plan.texts_of(b), plan.ids_of(b), encoder.table()))
            .collect();
        // One progress event per forward pass here, so the page hears from
        // the worker every few hundred milliseconds and can cancel between.
        for batch in here {
            let done = (encoded_here + pool.delivered() - helped_before).min(missing.len());
            post(&Response::Progress { id, stage: Stage::Encoding, done, total: missing.len() });
            yield_to_messages().await;
            if superseded(kind) {
                return Ok(None);
            }
            encoded_here += batch.range.len();
            encode_here(encoder, plan.texts_of(batch).to_vec(), plan.ids_of(batch))?;
        }
    }
    pool.settle().await;
    for batch in pool.take_returned() {
        encode_here(encoder, batch.texts, &batch.ids)?;
    }
    let helped = (pool.delivered() - helped_before).min(missing.len());
    Ok(Some(Embedded { missing: missing.len(), helped, rows_ms }))
}

/// `texts` tokenized, with the embedding table's blocks their pieces need
/// fetched if this device lacks them (the model's progress shows
/// meanwhile), and how long that wait took in ms.
async fn tokenize_with_rows(id: u32, encoder: &Encoder, texts: &[impl AsRef<str>]) -> Result<(Vec<Vec<u32>>, f64), String> {
    let ids: Vec<Vec<u32>> = texts.iter().map(|text| encoder.tokenize(text.as_ref())).collect();
    let progress = |done, total| post(&Response::Progress { id, stage: Stage::Model, done, total });
    let started = now();
    table_blocks::ensure_blocks(encoder.table(), ids.iter().flatten().copied(), &progress).await?;
    Ok((ids, now() - started))
}

/// Embeds `texts` here at once (live streams), their rows fetched first.
async fn encode_now(id: u32, encoder: &Encoder, texts: &[&str]) -> Result<Vec<crate::encoder::Embedding>, String> {
    let (ids, _) = tokenize_with_rows(id, encoder, texts).await?;
    encoder.encode_ids(&ids).map_err(encoder_failed)
}

fn encode_here(encoder: &Encoder, texts: Vec<String>, ids: &[Vec<u32>]) -> Result<(), String> {
    let embeddings = encoder.encode_ids(ids).map_err(encoder_failed)?;
    with_state(|s| s.embeddings.insert(texts, embeddings));
    Ok(())
}

/// What the user reads when the encoder itself fails.
fn encoder_failed(e: anyhow::Error) -> String {
    format!("The encoder failed: {e}")
}

/// The stream settings, refused when `policy` needs the LS weights and
/// this build has none.
async fn settings_for(policy: PolicyKind) -> Result<Rc<StreamSettings>, String> {
    let (settings, trained) = with_state(|s| s.stream.clone()).wait().await;
    if policy.needs_weights() && !trained {
        return Err(format!(
            "The {} policy needs the learned weights (models/stream/ls.json), which are not part of this build. Pick COS or APSAL.",
            policy.name().to_uppercase()
        ));
    }
    Ok(settings)
}

/// The timeline: the articles replayed through a streaming policy.
async fn stream(id: u32, job: StreamJob) -> Result<Option<Timeline>, String> {
    let started = now();
    let encoder = wait_for_model(id).await?;
    let settings = settings_for(job.policy).await?;
    post(&Response::Progress { id, stage: Stage::Splitting, done: 0, total: 1 });
    let prepared = timeline::prepare(job, &settings)?;
    if embed_missing(id, &encoder, prepared.texts(), Supersedable::Timeline).await?.is_none() {
        return Ok(None);
    }
    post(&Response::Progress { id, stage: Stage::Selecting, done: 0, total: 1 });
    let mut result = with_state(|s| timeline::replay(&prepared, &s.embeddings))?;
    result.timing_ms = now() - started;
    complete_table_in_background();
    Ok(Some(result))
}

/// Opens a live stream (replacing any open one): its query is embedded now.
async fn live_open(id: u32, job: LiveJob) -> Result<LiveOpened, String> {
    let encoder = wait_for_model(id).await?;
    let settings = settings_for(job.policy).await?;
    let (settings, opened) = LiveStream::check(&job, &settings)?;
    let query = encode_now(id, &encoder, &[job.query.trim()]).await?[0];
    let live = LiveStream::open(&job, &settings, query);
    with_state(|s| s.live = Some(live));
    Ok(opened)
}

/// Splits, embeds and decides pushed articles in one go (their embeddings
/// are not kept: a stream does not come back, and the summaries' cache
/// stays as it was). Decisions are timed with `performance.now()`.
async fn live_push(id: u32, documents: Vec<Document>, finish: bool) -> Result<LivePush, String> {
    let encoder = wait_for_model(id).await?;
    if with_state(|s| s.live.is_none()) {
        return Err("No live stream is open.".into());
    }
    let performance = scope().performance();
    let mut clock = || performance.as_ref().map_or_else(now, |p| p.now());
    let started = clock();
    let cluster = LiveStream::split(documents)?;
    let split_ms = clock() - started;
    let started = clock();
    let texts: Vec<&str> = cluster.sentences.iter().map(Sentence::as_read).collect();
    let embeddings = if texts.is_empty() { vec![] } else { encode_now(id, &encoder, &texts).await? };
    let encode_ms = clock() - started;
    let arrival = (now() / 1000.0) as i64;
    let mut push = with_state(|s| {
        let live = s.live.as_mut().ok_or("No live stream is open.")?;
        live.push(cluster, &embeddings, arrival, finish, &mut clock)
    })?;
    if finish {
        with_state(|s| s.live = None);
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
