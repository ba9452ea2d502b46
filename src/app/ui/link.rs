//! The page's end of the worker: start it, send requests, route answers to
//! the state. Only the latest summary request counts; answers to older
//! ones are ignored.
//!
//! A worker that crashes (a panic or running out of memory aborts its wasm
//! module, which reaches the page as the Worker's `error` event) is ended
//! and replaced at once; the requests it never answered are kept, and
//! Retry sends them to the new worker. Articles and settings live in the
//! page and in storage, so nothing the user made is lost.

use super::dom;
use super::persist;
use super::state::{AppState, Outcome, Progress, TimelineOutcome, WorkerCrash};
use crate::document::Document;
use crate::summarize::Settings;
use crate::worker::protocol::{InputProblem, Job, ModelStatus, Request, Response, Stage, StreamJob};
use js_sys::Array;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// Loads the app's wasm module in a worker (www/worker.js).
const WORKER_SCRIPT: &str = "worker.js";
/// Crashes within `CRASH_WINDOW_MS` after which the page stops restarting
/// the worker: one that fails at once (its script gone, memory too short
/// for the model) would otherwise restart for ever.
const MAX_CRASHES: usize = 3;
const CRASH_WINDOW_MS: f64 = 60_000.0;

#[derive(Clone)]
enum Pending {
    /// Reading the paste box: emptied once its text became articles.
    ReadPaste,
    Read,
    /// Card keys, in the order of the documents sent.
    Describe(Vec<u64>),
    /// The job's articles and settings, kept with its result.
    Summarize(Box<(Vec<Document>, Settings)>),
    /// The timeline's articles, kept with its result.
    Stream(Vec<Document>),
    Compare,
}

/// A request the worker has not answered yet: what to do with the answer,
/// and the message itself (with its files), to send again after a crash.
struct Sent {
    pending: Pending,
    message: JsValue,
}

struct Link {
    worker: Worker,
    /// The worker has started (it spoke first); until then messages wait
    /// here, as a worker still loading its module would drop them.
    ready: bool,
    queued: Vec<JsValue>,
    next_id: u32,
    pending: HashMap<u32, Sent>,
    latest_summary: u32,
    latest_stream: u32,
    latest_compare: u32,
    /// Requests a crashed worker never answered; Retry sends them again.
    lost: Vec<(u32, Sent)>,
    /// When the worker crashed (ms since the epoch), the last few.
    crashes: Vec<f64>,
}

thread_local! {
    static LINK: RefCell<Option<Link>> = const { RefCell::new(None) };
}

/// worker.js with the page's own module and wasm files (hashed names,
/// written by Trunk into the boot script's tag) as absolute URLs.
fn worker_url(first: bool) -> Option<String> {
    let document = document();
    let tag = document.query_selector("script[data-app-js]").ok()??;
    let base = document.base_uri().ok()??;
    let absolute = |attribute: &str| -> Option<String> {
        let relative = tag.get_attribute(attribute)?;
        Some(web_sys::Url::new_with_base(&relative, &base).ok()?.href())
    };
    let (js, wasm) = (absolute("data-app-js")?, absolute("data-app-wasm")?);
    let encode = |url: &str| String::from(js_sys::encode_uri_component(url));
    // `?helpers=N` on the page sets the number of helper workers (tests and
    // benchmarks compare; 0: the worker encodes alone). `?fault=…` (the
    // recovery specs) goes only to the first worker, so the one that replaces
    // it works (src/worker/jobs.rs, `inject_fault`).
    let search = web_sys::window()?.location().search().ok()?;
    let passed = search
        .split(['?', '&'])
        .filter(|p| p.starts_with("helpers=") || (first && p.starts_with("fault=")))
        .fold(String::new(), |all, p| all + "&" + p);
    Some(format!("{WORKER_SCRIPT}?js={}&wasm={}{passed}", encode(&js), encode(&wasm)))
}


/// Starts a worker whose answers go to `state` and whose crash restarts it.
fn start_worker(state: AppState, first: bool) -> Option<Worker> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = Worker::new_with_options(&worker_url(first)?, &options).ok()?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        flush_queue();
        let Some(json) = event.data().as_string() else { return };
        match serde_json::from_str::<Response>(&json) {
            Ok(response) => dispatch(state, response),
            Err(e) => state.summary_error.set(Some(format!("The worker sent an unreadable answer: {e}"))),
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        // Handled here: the browser need not report it again.
        event.prevent_default();
        crashed(state);
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Some(worker)
}

pub fn connect(state: AppState) {
    let Some(worker) = start_worker(state, true) else {
        let message = "This browser could not start the app's background worker; Précis needs a recent browser.";
        state.model.set(Some(ModelStatus::Unavailable { message: message.into() }));
        return;
    };
    LINK.set(Some(Link {
        worker,
        ready: false,
        queued: vec![],
        next_id: 1,
        pending: HashMap::new(),
        latest_summary: 0,
        latest_stream: 0,
        latest_compare: 0,
        lost: vec![],
        crashes: vec![],
    }));
}

/// The worker died (an uncaught error: a panic, out of memory, its script
/// failing to load): end it, keep what it was asked, start a new one unless
/// it keeps dying, and tell the user once.
fn crashed(state: AppState) {
    let Some((retry, gave_up)) = LINK.with_borrow_mut(|link| {
        let link = link.as_mut()?;
        link.worker.set_onerror(None);
        link.worker.set_onmessage(None);
        link.worker.terminate();
        link.queued.clear();
        link.ready = false;
        // Each request carries all it needs, so the order they go again in
        // does not matter.
        link.lost.extend(link.pending.drain());
        let now = js_sys::Date::now();
        link.crashes.retain(|at| now - at < CRASH_WINDOW_MS);
        link.crashes.push(now);
        Some((!link.lost.is_empty(), link.crashes.len() >= MAX_CRASHES))
    }) else {
        return;
    };
    state.progress.set(None);
    state.timeline_progress.set(None);
    state.compare_progress.set(None);
    state.reading.set(false);
    state.helpers.set(0);
    let restarted = !gave_up && start_worker(state, false).is_some_and(|worker| {
        LINK.with_borrow_mut(|link| link.as_mut().map(|link| link.worker = worker)).is_some()
    });
    let status = if restarted {
        None
    } else {
        Some(ModelStatus::Unavailable { message: "The summarizer keeps stopping. Reload the page; your articles are saved.".into() })
    };
    state.model.set(status);
    state.worker_crash.set(Some(WorkerCrash { retry: retry && restarted, restarted }));
}

/// Sends the requests the crashed worker never answered to its successor.
pub fn retry(state: AppState) {
    state.worker_crash.set(None);
    let lost = LINK.with_borrow_mut(|link| link.as_mut().map(|link| std::mem::take(&mut link.lost))).unwrap_or_default();
    for (id, sent) in lost {
        show_running(state, &sent.pending);
        LINK.with_borrow_mut(|link| {
            let Some(link) = link.as_mut() else { return };
            post_or_queue(link, sent.message.clone());
            link.pending.insert(id, sent);
        });
    }
}

/// The progress a request shows while it runs.
fn show_running(state: AppState, pending: &Pending) {
    let starting = Some(Progress { stage: Stage::Splitting, done: 0, total: 1 });
    match pending {
        Pending::ReadPaste | Pending::Read => state.reading.set(true),
        Pending::Summarize(_) => state.progress.set(starting),
        Pending::Stream(_) => state.timeline_progress.set(starting),
        Pending::Compare => state.compare_progress.set(starting),
        Pending::Describe(_) => {}
    }
}

fn post_or_queue(link: &mut Link, message: JsValue) {
    if link.ready {
        let _ = link.worker.post_message(&message);
    } else {
        link.queued.push(message);
    }
}

/// The worker is listening: send what waited.
fn flush_queue() {
    LINK.with_borrow_mut(|link| {
        let Some(link) = link.as_mut() else { return };
        if !link.ready {
            link.ready = true;
            for message in link.queued.drain(..) {
                let _ = link.worker.post_message(&message);
            }
        }
    });
}

/// Sends a request built around a fresh id; returns the id.
fn send(build: impl FnOnce(u32) -> Request, pending: Pending, files: Option<Array>) -> Option<u32> {
    LINK.with_borrow_mut(|link| {
        let link = link.as_mut()?;
        let id = link.next_id;
        link.next_id += 1;
        let request = build(id);
        let message: JsValue =
            Array::of2(&JsValue::from_str(&serde_json::to_string(&request).ok()?), &files.unwrap_or_else(Array::new)).into();
        post_or_queue(link, message.clone());
        if matches!(pending, Pending::Summarize(_)) {
            // The worker drops summaries overtaken by this one.
            link.pending.retain(|_, p| !matches!(p.pending, Pending::Summarize(_)));
            link.latest_summary = id;
        }
        if matches!(pending, Pending::Stream(_)) {
            link.pending.retain(|_, p| !matches!(p.pending, Pending::Stream(_)));
            link.latest_stream = id;
        }
        if matches!(pending, Pending::Compare) {
            link.pending.retain(|_, p| !matches!(p.pending, Pending::Compare));
            link.latest_compare = id;
        }
        link.pending.insert(id, Sent { pending, message });
        Some(id)
    })
}

fn take_pending(id: u32) -> Option<(Pending, bool)> {
    LINK.with_borrow_mut(|link| {
        let link = link.as_mut()?;
        let latest = link.latest_summary == id || link.latest_stream == id || link.latest_compare == id;
        link.pending.remove(&id).map(|sent| (sent.pending, latest))
    })
}

fn is_latest_summary(id: u32) -> bool {
    LINK.with_borrow(|link| link.as_ref().is_some_and(|l| l.latest_summary == id))
}

fn is_latest_stream(id: u32) -> bool {
    LINK.with_borrow(|link| link.as_ref().is_some_and(|l| l.latest_stream == id))
}

fn is_latest_comparison(id: u32) -> bool {
    LINK.with_borrow(|link| link.as_ref().is_some_and(|l| l.latest_compare == id))
}

fn dispatch(state: AppState, response: Response) {
    match response {
        Response::Started => {}
        Response::Model { status } => {
            // Model and helpers ready, for the benchmarks (tests/e2e/bench-engines.mjs).
            if matches!(status, ModelStatus::Ready { .. }) {
                dom::mark("precis:model-ready");
            }
            // The whole model is on this device: www/boot.js registers the
            // service worker now, so that its copy of the app shell does
            // not compete with the first summary's downloads.
            if matches!(status, ModelStatus::Ready { offline: true, .. }) {
                dom::mark("precis:offline-ready");
            }
            state.model.set(Some(status));
        }
        Response::Progress { id, stage, done, total } => {
            if is_latest_summary(id) {
                state.progress.set(Some(Progress { stage, done, total }));
            } else if is_latest_stream(id) {
                state.timeline_progress.set(Some(Progress { stage, done, total }));
            } else if is_latest_comparison(id) {
                state.compare_progress.set(Some(Progress { stage, done, total }));
            }
        }
        Response::Read { id, articles, problems } => {
            if let (Some((Pending::ReadPaste, _)), false) = (take_pending(id), articles.is_empty()) {
                state.set_draft(String::new());
                persist::save_draft("");
            }
            state.reading.set(false);
            state.input_problems.set(problems);
            state.add_articles(articles);
        }
        Response::Described { id, facts } => {
            if let Some((Pending::Describe(keys), _)) = take_pending(id) {
                state.cards.update(|cards| {
                    for (key, facts) in keys.into_iter().zip(facts) {
                        if let Some(card) = cards.iter_mut().find(|c| c.key == key) {
                            card.article.facts = facts;
                        }
                    }
                });
            }
        }
        Response::Summarized { id, result } => {
            // The answer is decoded: with the worker's own time, the cost of
            // the messages (tests/e2e/bench-app.mjs).
            dom::mark("precis:answer-decoded");
            if let Some((Pending::Summarize(job), true)) = take_pending(id) {
                let (documents, settings) = *job;
                state.progress.set(None);
                state.summary_error.set(None);
                state.show_result(Arc::new(Outcome { result: *result, documents, settings }));
                dom::mark("precis:summary-shown");
            }
        }
        Response::Compared { id, result } => {
            if let Some((Pending::Compare, true)) = take_pending(id) {
                state.compare_progress.set(None);
                state.comparison.set(Some(Arc::new(*result)));
            }
        }
        Response::StreamOffer { offer } => state.stream_offer.set(Some(offer)),
        Response::Heads { cera, cerai } => state.heads.set((cera, cerai)),
        Response::Helpers { ready } => {
            dom::mark("precis:helper-ready");
            state.helpers.set(ready);
        }
        Response::Streamed { id, timeline } => {
            if let Some((Pending::Stream(documents), true)) = take_pending(id) {
                state.timeline_progress.set(None);
                state.timeline_error.set(None);
                state.show_timeline(Arc::new(TimelineOutcome { timeline: *timeline, documents }));
                dom::mark("precis:timeline-shown");
            }
        }
        // The page opens no live stream (only tests/e2e/bench-stream.mjs does).
        Response::LiveOpened { .. } | Response::LivePushed { .. } => {}
        Response::Failed { id, message } => match take_pending(id) {
            Some((Pending::Read | Pending::ReadPaste, _)) => {
                state.reading.set(false);
                state.input_problems.set(vec![InputProblem { source: "input".into(), message }]);
            }
            Some((Pending::Summarize(_), true)) => {
                state.progress.set(None);
                state.summary_error.set(Some(message));
            }
            Some((Pending::Stream(_), true)) => {
                state.timeline_progress.set(None);
                state.timeline_error.set(Some(message));
            }
            Some((Pending::Compare, true)) => {
                state.compare_progress.set(None);
                state.compare_error.set(Some(message));
            }
            _ => {}
        },
    }
}

pub fn read_paste(state: AppState, text: String) {
    state.reading.set(true);
    send(|id| Request::ReadPaste { id, text }, Pending::ReadPaste, None);
}

/// Sends the files themselves: the worker reads their bytes.
pub fn read_files(state: AppState, files: &web_sys::FileList) {
    let list = Array::new();
    let mut names = vec![];
    for i in 0..files.length() {
        if let Some(file) = files.get(i) {
            names.push(file.name());
            list.push(&file);
        }
    }
    if names.is_empty() {
        return;
    }
    state.reading.set(true);
    send(|id| Request::ReadFiles { id, names }, Pending::Read, Some(list));
}

pub fn read_examples(state: AppState) {
    state.reading.set(true);
    send(|id| Request::ReadExamples { id }, Pending::Read, None);
}

/// New facts (languages, words, sentences) for edited cards.
pub fn describe(keys: Vec<u64>, documents: Vec<Document>) {
    send(|id| Request::Describe { id, documents }, Pending::Describe(keys), None);
}

/// Summarizes the current articles with the current settings.
pub fn summarize(state: AppState) {
    let documents: Vec<Document> = state.cards.with_untracked(|cards| cards.iter().map(|c| c.article.document.clone()).collect());
    let reference = state.reference.with_untracked(|r| Some(r.trim().to_string()).filter(|r| !r.is_empty()));
    let settings = state.settings.get_untracked();
    let kept = Pending::Summarize(Box::new((documents.clone(), settings.clone())));
    let job = Job { documents, settings, reference };
    state.summary_error.set(None);
    state.progress.set(Some(Progress { stage: crate::worker::protocol::Stage::Splitting, done: 0, total: 1 }));
    dom::mark("precis:summarize-start");
    if send(|id| Request::Summarize { id, job }, kept, None).is_none() {
        state.progress.set(None);
        state.summary_error.set(Some("The app's background worker is not running. Reload the page.".into()));
    }
}

/// Replays the current articles through the chosen streaming policy.
pub fn stream(state: AppState) {
    let documents: Vec<Document> = state.cards.with_untracked(|cards| cards.iter().map(|c| c.article.document.clone()).collect());
    let choice = state.stream_choice.get_untracked();
    let settings = state.settings.get_untracked();
    let job = StreamJob {
        documents: documents.clone(),
        policy: choice.policy,
        threshold: choice.threshold,
        query: Some(choice.query.trim().to_string()).filter(|q| !q.is_empty()),
        // The reader's question steers the timeline as it steers the summary.
        topic: settings.topic.clone(),
        topic_weight: settings.topic_weight,
    };
    state.timeline_error.set(None);
    state.timeline_progress.set(Some(Progress { stage: Stage::Splitting, done: 0, total: 1 }));
    if send(|id| Request::Stream { id, job }, Pending::Stream(documents), None).is_none() {
        state.timeline_progress.set(None);
        state.timeline_error.set(Some("The app's background worker is not running. Reload the page.".into()));
    }
}

/// Runs the ticked methods side by side on the current articles and settings.
pub fn compare(state: AppState) {
    let documents: Vec<Document> = state.cards.with_untracked(|cards| cards.iter().map(|c| c.article.document.clone()).collect());
    let reference = state.reference.with_untracked(|r| Some(r.trim().to_string()).filter(|r| !r.is_empty()));
    let job = Job { documents, settings: state.settings.get_untracked(), reference };
    let methods = state.compare_methods.get_untracked();
    state.compare_error.set(None);
    state.compare_progress.set(Some(Progress { stage: Stage::Splitting, done: 0, total: 1 }));
    if send(|id| Request::Compare { id, job, methods }, Pending::Compare, None).is_none() {
        state.compare_progress.set(None);
        state.compare_error.set(Some("The app's background worker is not running. Reload the page.".into()));
    }
}
