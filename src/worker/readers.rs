//! PDF and Word files in the app. They are read by the core's own reader
//! (src/bin/readers.rs), a wasm module of its own, started in a worker of
//! its own on the first such file: the first-load bundle stays small, the
//! service worker has it cached for offline use, and a file that stalls or
//! crashes the reader costs only that worker, which is ended and started
//! afresh for the next file.

use super::runtime::scope;
use crate::document::Document;
use js_sys::{Array, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Worker, WorkerOptions, WorkerType};

/// A file the reader has not answered within this time is given up (a
/// real 20 MB report reads in a few seconds).
const READ_TIMEOUT_MS: i32 = 30_000;
/// Loading the reader's module (from the service worker's cache, or the
/// network on a first visit).
const START_TIMEOUT_MS: i32 = 30_000;
/// The reader's loader script (Trunk's loader shim for a worker module,
/// www/index.html), beside www/worker.js.
const LOADER: &str = "./readers_loader.js";
const TIMED_OUT: &str = "timed out";

thread_local! {
    static READER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// The documents in a PDF or Word file, or the reason in plain words.
pub(super) async fn read(name: &str, bytes: &[u8]) -> Result<Vec<Document>, String> {
    let worker = match READER.with(|r| r.borrow().clone()) {
        Some(worker) => worker,
        None => start().await?,
    };
    let request = Array::of2(&name.into(), &Uint8Array::from(bytes));
    match exchange(&worker, Some(&request), READ_TIMEOUT_MS).await {
        Ok(reply) => decode(&reply),
        Err(timed_out) => {
            stop();
            Err(if timed_out {
                format!(
                    "Reading it took more than {} seconds, so it was stopped: the file may be damaged or built to stall readers. Save it again from its application, or paste its text.",
                    READ_TIMEOUT_MS / 1000
                )
            } else {
                "The document reader stopped on this file: it is probably damaged. Save it again from its application, or paste its text.".into()
            })
        }
    }
}

/// Starts the reader's worker and waits until it listens.
async fn start() -> Result<Worker, String> {
    const UNAVAILABLE: &str = "The PDF and Word reader could not be loaded. If you are offline, open Précis once while online, then try again.";
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(LOADER, &options).map_err(|_| UNAVAILABLE)?;
    match exchange(&worker, None, START_TIMEOUT_MS).await {
        Ok(reply) if reply.get(0).as_string().as_deref() == Some("started") => {
            READER.with(|r| *r.borrow_mut() = Some(worker.clone()));
            Ok(worker)
        }
        _ => {
            worker.terminate();
            Err(UNAVAILABLE.into())
        }
    }
}

/// Sends `request` (if any) and waits for the worker's next message; Err
/// tells whether it timed out (true) or crashed (false).
async fn exchange(worker: &Worker, request: Option<&Array>, timeout_ms: i32) -> Result<Array, bool> {
    let reply = Promise::new(&mut |resolve, reject| {
        worker.set_onmessage(Some(&resolve));
        worker.set_onerror(Some(&reject));
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_1(&reject, timeout_ms, &TIMED_OUT.into());
    });
    if let Some(request) = request {
        worker.post_message(request).map_err(|_| false)?;
    }
    let outcome = JsFuture::from(reply).await;
    worker.set_onmessage(None);
    worker.set_onerror(None);
    match outcome {
        Ok(event) => Ok(Reflect::get(&event, &"data".into()).map(JsCast::unchecked_into).unwrap_or_default()),
        Err(reason) => Err(reason.as_string().as_deref() == Some(TIMED_OUT)),
    }
}

fn decode(reply: &Array) -> Result<Vec<Document>, String> {
    let text = reply.get(1).as_string().unwrap_or_default();
    match reply.get(0).as_string().as_deref() {
        Some("read") => serde_json::from_str(&text).map_err(|e| format!("The document reader sent a malformed answer: {e}")),
        _ => Err(text),
    }
}

/// Ends the reader's worker (stalled or crashed); the next file starts a
/// fresh one.
fn stop() {
    if let Some(worker) = READER.with(|r| r.borrow_mut().take()) {
        worker.terminate();
    }
}
