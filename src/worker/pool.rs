//! Extra encoders in helper workers, so that many sentences are embedded on
//! several cores. The main worker tokenizes, hands whole encoder batches
//! (token ids) to helpers, shared out so that all finish together
//! ([`crate::encoder::share_batches`]), and encodes its own share; a helper
//! answers with the embeddings, which go straight into the cache.
//!
//! A helper is the app's own worker script started with `role=encoder`
//! ([`is_helper`]). It gets the main worker's compiled wasm module (so the
//! engine compiles the code once, and WebKit, whose compiled code is per
//! module, starts the helper on code that has already tiered up) and the
//! model's bytes, so nothing is downloaded twice, and does nothing but
//! encode. Each holds its own copy of the model (about 300 MiB), hence the
//! cap on their number. Helpers load one at a time: building the encoder is
//! the heaviest thing a helper does, and browsers may report more cores than
//! there are (WebKit says 4 for anything under 8 cores), so two helpers
//! loading at once could take both cores of a small machine from the main
//! worker.
//!
//! Messages are arrays: from a helper's script first `["module?"]`, answered
//! `["module", WebAssembly.Module]` (www/worker.js); then `["started"]`;
//! to it `["model", onnx, tokenizer, table head]` and
//! `["encode", ids, lengths, blocks, rows]` (Uint8Array / Uint32Array: the
//! embedding table's blocks the batch needs that the helper was not sent
//! before, and their rows, so a helper never downloads); back
//! `["ready"]`, `["encoded", embeddings]` (Float32Array, 512 per sentence)
//! or `["failed", message]`.

use crate::encoder::{EmbeddingTable, Embedding, Encoder, EncoderFiles, DIM};
use std::collections::HashSet;
use js_sys::{Array, Float32Array, Function, Promise, Uint32Array, Uint8Array};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

const ROLE_PARAMETER: &str = "role=encoder";

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// True in a helper worker (started by [`Pool::start`]).
pub fn is_helper() -> bool {
    scope().location().search().contains(ROLE_PARAMETER)
}

/// How many helpers this machine gets ([`super::schedule::helper_count`]).
fn helper_count() -> usize {
    super::schedule::helper_count(&scope().location().search(), scope().navigator().hardware_concurrency() as usize)
}

/// What a helper is doing, as the main worker sees it.
enum Job {
    /// Its script is loading; it says "started" when it can hear messages
    /// (a message sent earlier would be lost).
    Starting,
    /// Started, waiting for another helper to finish loading.
    Waiting,
    /// Building the model it was sent.
    Loading,
    /// Encoding these batches, in order (none: idle).
    Ready(VecDeque<InFlight>),
    /// Could not load the model or failed a batch: never used again.
    Gone,
}

/// A batch sent to a helper; calling `done` resolves `finished`.
struct InFlight {
    batch: Batch,
    finished: Promise,
    done: Function,
}

impl Job {
    fn is_ready(&self) -> bool {
        matches!(self, Job::Ready(_))
    }
}

/// Sentences and their token ids, as handed to a helper.
pub struct Batch {
    pub texts: Vec<String>,
    pub ids: Vec<Vec<u32>>,
}

struct Helper {
    worker: Worker,
    job: Rc<RefCell<Job>>,
    /// The embedding table's blocks it was sent.
    blocks: RefCell<HashSet<usize>>,
}

/// Where a helper's embeddings go (the main worker's cache).
pub type Deliver = Box<dyn Fn(Vec<String>, Vec<Embedding>)>;
/// Told how many helpers are ready each time one becomes ready.
pub type Announce = Box<dyn Fn(usize)>;

/// What every helper's answers update.
struct Shared {
    /// The encoder's files (network, tokenizer, table), kept until every
    /// helper has been sent them.
    model: RefCell<Option<Vec<Uint8Array>>>,
    /// Helpers sent the model, and that became ready (for the page; a
    /// helper that fails later is not taken off).
    sent: Cell<usize>,
    ready: Cell<usize>,
    /// Sentences the helpers have embedded so far (for progress).
    delivered: Cell<usize>,
    /// Batches a failing helper gave back, for the main worker to encode.
    returned: RefCell<Vec<Batch>>,
    /// True while a helper builds its encoder; the others that have
    /// started wait here, in order.
    loading: Cell<bool>,
    waiting: RefCell<VecDeque<(Worker, Rc<RefCell<Job>>)>>,
    deliver: Deliver,
    announce: Announce,
}

/// The helpers of the main worker.
#[derive(Default)]
pub struct Pool {
    helpers: Vec<Helper>,
    shared: Option<Rc<Shared>>,
}

impl Pool {
    /// Starts the helpers; each gets the model once its script runs and is
    /// used once it reports ready.
    pub fn start(files: &[Vec<u8>], deliver: Deliver, announce: Announce) -> Pool {
        let count = helper_count();
        let model = (count > 0).then(|| files.iter().map(|bytes| Uint8Array::from(&bytes[..])).collect());
        let shared = Rc::new(Shared {
            model: RefCell::new(model),
            sent: Cell::new(0),
            ready: Cell::new(0),
            delivered: Cell::new(0),
            returned: RefCell::new(vec![]),
            loading: Cell::new(false),
            waiting: RefCell::new(VecDeque::new()),
            deliver,
            announce,
        });
        let url = helper_url();
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let helpers = (0..count)
            .filter_map(|_| {
                let worker = Worker::new_with_options(&url, &options).ok()?;
                let job = Rc::new(RefCell::new(Job::Starting));
                let on_message = answer_handler(worker.clone(), job.clone(), shared.clone(), count);
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                // A helper whose script fails says nothing: count it as failed,
                // so that the next one loads.
                let handler: Function = on_message.as_ref().unchecked_ref::<Function>().clone();
                let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
                    let failed = js_sys::Object::new();
                    let _ = js_sys::Reflect::set(&failed, &"data".into(), &Array::of1(&"failed".into()));
                    let _ = handler.call1(&JsValue::NULL, &failed);
                });
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                on_message.forget();
                on_error.forget();
                Some(Helper { worker, job, blocks: Default::default() })
            })
            .collect();
        Pool { helpers, shared: Some(shared) }
    }

    /// True once helpers were started (even if this machine gets none).
    pub fn is_started(&self) -> bool {
        self.shared.is_some()
    }

    /// Queues the batch on the `nth` ready helper (it encodes its queue in
    /// order, without waiting for this worker); false when there is no
    /// such helper.
    /// The rows come from `table`, which holds them (the main worker
    /// fetched them before encoding).
    pub fn send(&self, nth: usize, texts: &[String], ids: &[Vec<u32>], table: &EmbeddingTable) -> bool {
        let Some(helper) = self.helpers.iter().filter(|h| h.job.borrow().is_ready()).nth(nth) else {
            return false;
        };
        let lengths: Vec<u32> = ids.iter().map(|s| s.len() as u32).collect();
        let mut blocks = table.blocks_of(ids.iter().flatten().copied());
        blocks.retain(|block| !helper.blocks.borrow().contains(block));
        let mut rows = Vec::with_capacity(blocks.iter().map(|&b| table.inflated_bytes(b)).sum());
        for &block in &blocks {
            let Ok(block_rows) = table.block_rows(block) else { return false };
            rows.extend_from_slice(block_rows);
        }
        let message: Array = [
            JsValue::from("encode"),
            Uint32Array::from(&ids.concat()[..]).into(),
            Uint32Array::from(&lengths[..]).into(),
            Uint32Array::from(&blocks.iter().map(|&b| b as u32).collect::<Vec<u32>>()[..]).into(),
            Uint8Array::from(&rows[..]).into(),
        ]
        .into_iter()
        .collect();
        helper.blocks.borrow_mut().extend(blocks);
        if helper.worker.post_message(&message).is_err() {
            *helper.job.borrow_mut() = Job::Gone;
            return false;
        }
        let mut done = None;
        let finished = Promise::new(&mut |resolve, _| done = Some(resolve));
        let done = done.expect("a promise's executor runs at once");
        let batch = Batch { texts: texts.to_vec(), ids: ids.to_vec() };
        if let Job::Ready(queue) = &mut *helper.job.borrow_mut() {
            queue.push_back(InFlight { batch, finished, done });
        }
        true
    }

    /// Helpers that have the model and can take batches.
    pub fn ready(&self) -> usize {
        self.helpers.iter().filter(|h| h.job.borrow().is_ready()).count()
    }

    /// Sentences the helpers have embedded since the pool started.
    pub fn delivered(&self) -> usize {
        self.shared.as_ref().map_or(0, |s| s.delivered.get())
    }

    /// Batches that failing helpers gave back (to be encoded here).
    pub fn take_returned(&self) -> Vec<Batch> {
        self.shared.as_ref().map_or_else(Vec::new, |s| std::mem::take(&mut s.returned.borrow_mut()))
    }

    /// Waits until no helper is encoding.
    pub async fn settle(&self) {
        loop {
            let busy: Array = self
                .helpers
                .iter()
                .filter_map(|h| match &*h.job.borrow() {
                    Job::Ready(queue) => queue.front().map(|f| JsValue::from(&f.finished)),
                    _ => None,
                })
                .collect();
            if busy.length() == 0 {
                return;
            }
            let _ = wasm_bindgen_futures::JsFuture::from(Promise::race(&busy)).await;
        }
    }
}

/// This worker's own script URL with the helper role added.
fn helper_url() -> String {
    let href = scope().location().href();
    let separator = if href.contains('?') { '&' } else { '?' };
    format!("{href}{separator}{ROLE_PARAMETER}")
}

/// The main worker's side of a helper's messages.
fn answer_handler(worker: Worker, job: Rc<RefCell<Job>>, shared: Rc<Shared>, helpers: usize) -> Closure<dyn FnMut(MessageEvent)> {
    Closure::new(move |event: MessageEvent| {
        let parts: Array = event.data().unchecked_into();
        let kind = parts.get(0).as_string().unwrap_or_default();
        let previous = std::mem::replace(&mut *job.borrow_mut(), Job::Gone);
        let next = match (kind.as_str(), previous) {
            ("module?", Job::Starting) => {
                // Without it (a browser that cannot post modules) the
                // helper compiles the wasm file itself.
                let module = Array::of2(&"module".into(), &wasm_bindgen::module());
                if worker.post_message(&module).is_err() {
                    let _ = worker.post_message(&Array::of1(&"module".into()));
                }
                Job::Starting
            }
            ("started", Job::Starting) if shared.loading.get() => {
                shared.waiting.borrow_mut().push_back((worker.clone(), job.clone()));
                Job::Waiting
            }
            ("started", Job::Starting) => {
                shared.loading.set(true);
                send_model(&worker, &shared, helpers)
            }
            ("ready", Job::Loading) => {
                shared.ready.set(shared.ready.get() + 1);
                (shared.announce)(shared.ready.get());
                load_next(&shared, helpers);
                Job::Ready(VecDeque::new())
            }
            (_, Job::Loading) => {
                load_next(&shared, helpers);
                Job::Gone
            }
            ("encoded", Job::Ready(mut queue)) if !queue.is_empty() => {
                let InFlight { batch, done, .. } = queue.pop_front().expect("not empty");
                let embeddings = embeddings_from(&parts.get(1).unchecked_into());
                let next = if embeddings.len() == batch.texts.len() {
                    shared.delivered.set(shared.delivered.get() + batch.texts.len());
                    (shared.deliver)(batch.texts, embeddings);
                    Job::Ready(queue)
                } else {
                    shared.returned.borrow_mut().push(batch);
                    give_back(&shared, queue.into_iter());
                    Job::Gone
                };
                let _ = done.call0(&JsValue::NULL);
                next
            }
            (_, Job::Ready(queue)) => {
                give_back(&shared, queue.into_iter());
                Job::Gone
            }
            _ => Job::Gone,
        };
        *job.borrow_mut() = next;
    })
}

/// The next waiting helper gets the model, now that none is loading.
fn load_next(shared: &Shared, helpers: usize) {
    shared.loading.set(false);
    let next = shared.waiting.borrow_mut().pop_front();
    if let Some((worker, job)) = next {
        shared.loading.set(true);
        let state = send_model(&worker, shared, helpers);
        if matches!(state, Job::Gone) {
            *job.borrow_mut() = Job::Gone;
            return load_next(shared, helpers);
        }
        *job.borrow_mut() = state;
    }
}

/// A failed helper's batches go back to the main worker; whoever waits on
/// them is woken.
fn give_back(shared: &Shared, batches: impl Iterator<Item = InFlight>) {
    for InFlight { batch, done, .. } in batches {
        shared.returned.borrow_mut().push(batch);
        let _ = done.call0(&JsValue::NULL);
    }
}

/// Sends a copy of the model to a helper that has started; the last one
/// gets the original buffers (transferred) and the pool lets go of them.
fn send_model(worker: &Worker, shared: &Shared, helpers: usize) -> Job {
    let Some(files) = shared.model.borrow().clone() else { return Job::Gone };
    shared.sent.set(shared.sent.get() + 1);
    let last = shared.sent.get() == helpers;
    let copy = |bytes: &Uint8Array| if last { bytes.clone() } else { bytes.slice(0, bytes.length()) };
    let files: Vec<Uint8Array> = files.iter().map(copy).collect();
    let transfer: Array = files.iter().map(|f| JsValue::from(f.buffer())).collect();
    let message: Array = std::iter::once(JsValue::from("model")).chain(files.iter().map(JsValue::from)).collect();
    if last {
        shared.model.replace(None);
    }
    match worker.post_message_with_transfer(&message, &transfer) {
        Ok(()) => Job::Loading,
        Err(_) => Job::Gone,
    }
}

/// The table's blocks a batch brought, each block's rows one after the other.
fn add_rows(blocks: &[u32], rows: &[u8]) -> Result<(), String> {
    ENCODER.with_borrow(|encoder| {
        let table = encoder.as_ref().ok_or("no model")?.table();
        let mut rest = rows;
        for &block in blocks {
            let size = table.inflated_bytes(block as usize);
            let (these, tail) = rest.split_at_checked(size).ok_or("rows shorter than their blocks")?;
            table.add_rows(block as usize, these).map_err(|e| e.to_string())?;
            rest = tail;
        }
        Ok(())
    })
}

fn embeddings_from(values: &Float32Array) -> Vec<Embedding> {
    let flat = values.to_vec();
    flat.chunks_exact(DIM).map(|c| c.try_into().expect("chunks of DIM")).collect()
}

// --- the helper's side ---

thread_local! {
    static ENCODER: RefCell<Option<Encoder>> = const { RefCell::new(None) };
}

/// Entry point of a helper worker.
pub fn serve() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let parts: Array = event.data().unchecked_into();
        let answer = match parts.get(0).as_string().as_deref() {
            Some("model") => load(&parts),
            Some("encode") => encode(&parts),
            _ => Err("unknown request".into()),
        };
        let _ = match answer {
            Ok((message, transfer)) => scope().post_message_with_transfer(&message, &transfer),
            Err(e) => scope().post_message(&Array::of2(&"failed".into(), &e.into())),
        };
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope().post_message(&Array::of1(&"started".into()));
}

type Answer = Result<(Array, Array), String>;

fn load(parts: &Array) -> Answer {
    let bytes = |i| Uint8Array::new(&parts.get(i)).to_vec();
    let (network, tokenizer, table) = (bytes(1), bytes(2), bytes(3));
    let encoder = Encoder::from_bytes(EncoderFiles { network: &network, tokenizer: &tokenizer, table: &table }).map_err(|e| e.to_string())?;
    // Build every batch plan now, while the page is idle, not on the first
    // batch a user waits for.
    encoder.prepare_plans().map_err(|e| e.to_string())?;
    ENCODER.with_borrow_mut(|slot| *slot = Some(encoder));
    Ok((Array::of1(&"ready".into()), Array::new()))
}

fn encode(parts: &Array) -> Answer {
    let flat = Uint32Array::new(&parts.get(1)).to_vec();
    let lengths = Uint32Array::new(&parts.get(2)).to_vec();
    add_rows(&Uint32Array::new(&parts.get(3)).to_vec(), &Uint8Array::new(&parts.get(4)).to_vec())?;
    let mut ids = Vec::with_capacity(lengths.len());
    let mut rest = &flat[..];
    for &n in &lengths {
        let (sentence, tail) = rest.split_at_checked(n as usize).ok_or("token ids shorter than their lengths")?;
        ids.push(sentence.to_vec());
        rest = tail;
    }
    let embeddings = ENCODER
        .with_borrow(|encoder| encoder.as_ref().map(|e| e.encode_ids(&ids)))
        .ok_or("no model")?
        .map_err(|e| e.to_string())?;
    let values = Float32Array::from(embeddings.as_flattened());
    let transfer = Array::of1(&values.buffer());
    Ok((Array::of2(&"encoded".into(), &values), transfer))
}
