//! What survives a reload (this origin only, this device only): the
//! articles in IndexedDB (`idb`: megabytes of text, written without
//! blocking the page, each save one transaction); settings, the reference
//! summary and the unsent paste box in localStorage (small).
//!
//! Articles are read before the page mounts (a few milliseconds), so the
//! page never shows an empty list first and no save can come before the
//! load. Each save is the whole list: what is stored is always one tab's
//! complete list, the last one saved. A refused save (full storage) rolls
//! back, so the list saved before stays. Another tab that saved a different
//! list is announced on a BroadcastChannel; this tab then offers to load it
//! or to keep its own (which saves over it).

use super::idb::{self, WriteError};
use super::state::{AppState, Mode, StreamChoice};
use crate::summarize::Settings;
use crate::worker::protocol::Article;
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{BroadcastChannel, IdbDatabase};

/// The articles' record in IndexedDB, and where versions before it kept
/// them in localStorage (moved over on first load).
const ARTICLES: &str = "precis.v1.articles";
const SETTINGS: &str = "precis.v1.settings";
const REFERENCE: &str = "precis.v1.reference";
const DRAFT: &str = "precis.v1.draft";
const MODE: &str = "precis.v1.mode";
const STREAM: &str = "precis.v1.stream";

/// Tabs of this app tell each other here that they saved their articles.
const CHANNEL: &str = "precis.v1.articles";
/// How long the page waits for IndexedDB before it starts without the
/// saved articles (and without saving any, so as not to overwrite them).
const OPEN_TIMEOUT_MS: i32 = 3000;

const STORAGE_FULL: &str = "The browser's storage is full: the last change is not saved; older saved articles are kept.";
const NO_STORAGE: &str =
    "This browser does not let Précis keep articles (private browsing?): they will not survive a reload.";

thread_local! {
    /// None when IndexedDB could not be opened: articles are then not saved.
    static DB: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
    /// The articles as this tab last read or saved them (JSON): an
    /// unchanged list is not written again, and another tab's save of the
    /// same list is no news.
    static LAST_SAVED: RefCell<Option<String>> = const { RefCell::new(None) };
    static TABS: RefCell<Option<BroadcastChannel>> = const { RefCell::new(None) };
}

pub struct Saved {
    pub settings: Settings,
    pub reference: String,
    pub mode: Mode,
    pub stream: StreamChoice,
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn read(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `value`; false when the browser refused (quota, private mode).
fn write(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// The saved articles (see the module's comment); anything unreadable is
/// skipped, never fatal.
pub async fn load_articles() -> Vec<Article> {
    let Some(db) = idb::open(OPEN_TIMEOUT_MS).await else { return vec![] };
    let json = match idb::get(&db, ARTICLES).await {
        Ok(Some(json)) => json,
        Ok(None) => move_from_local_storage(&db).await.unwrap_or_else(|| "[]".into()),
        Err(_) => return vec![],
    };
    let articles = serde_json::from_str(&json).unwrap_or_default();
    LAST_SAVED.set(Some(json));
    DB.set(Some(db));
    articles
}

/// Moves the articles an older version kept in localStorage (capped at
/// ~5 MB) into IndexedDB; the old copy is removed only once the new one is
/// committed.
async fn move_from_local_storage(db: &IdbDatabase) -> Option<String> {
    let json = read(ARTICLES)?;
    if idb::put(db, ARTICLES, &json).await.is_ok() {
        let _ = storage()?.remove_item(ARTICLES);
    }
    Some(json)
}

fn articles_json(state: AppState) -> String {
    state.cards.with(|cards| {
        let articles: Vec<&Article> = cards.iter().map(|c| &c.article).collect();
        serde_json::to_string(&articles).unwrap_or_default()
    })
}

/// Saves the list unless it is what this tab last read or saved.
fn save_articles_if_changed(state: AppState) {
    let json = articles_json(state);
    if LAST_SAVED.with_borrow(|last| last.as_deref() != Some(json.as_str())) {
        // Transactions commit in the order they are created, so the last
        // change is the one that stays.
        spawn_local(save_articles(state, json));
    }
}

async fn save_articles(state: AppState, json: String) {
    let Some(db) = DB.with_borrow(Clone::clone) else { return };
    LAST_SAVED.set(Some(json.clone()));
    let warning = match idb::put(&db, ARTICLES, &json).await {
        Ok(()) => {
            // This tab's list is the stored one now: news of an earlier
            // save by another tab is out of date.
            state.articles_elsewhere.set(false);
            TABS.with_borrow(|tabs| tabs.as_ref().map(|t| t.post_message(&JsValue::from_str("saved"))));
            None
        }
        Err(error) => {
            // Not saved: the next change tries again, whatever it is.
            LAST_SAVED.set(None);
            Some(match error {
                WriteError::Quota => STORAGE_FULL.to_string(),
                WriteError::Other => "The browser refused to save the articles: the last change is not saved; older saved articles are kept.".to_string(),
            })
        }
    };
    state.storage_warning.set(warning);
}

/// Listens for other tabs' saves: a list unlike this tab's is announced.
fn watch_other_tabs(state: AppState) {
    let Ok(channel) = BroadcastChannel::new(CHANNEL) else { return };
    let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        spawn_local(async move {
            let differs = read_saved().await.is_some_and(|json| LAST_SAVED.with_borrow(|last| last.as_ref() != Some(&json)));
            state.articles_elsewhere.set(differs);
        })
    });
    channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    TABS.set(Some(channel));
}

async fn read_saved() -> Option<String> {
    let db = DB.with_borrow(Clone::clone)?;
    idb::get(&db, ARTICLES).await.ok().flatten()
}

/// Replaces this tab's articles with the list another tab saved.
pub fn load_other_tabs_articles(state: AppState) {
    spawn_local(async move {
        state.articles_elsewhere.set(false);
        let Some(json) = read_saved().await else { return };
        let Ok(articles) = serde_json::from_str::<Vec<Article>>(&json) else { return };
        LAST_SAVED.set(Some(json));
        state.replace_articles(articles);
    });
}

/// Keeps this tab's articles: saves them over the other tab's.
pub fn keep_this_tabs_articles(state: AppState) {
    state.articles_elsewhere.set(false);
    spawn_local(save_articles(state, articles_json(state)));
}

/// What the last visit stored; anything unreadable is skipped, never fatal.
pub fn load() -> Saved {
    Saved {
        settings: read(SETTINGS).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default(),
        reference: read(REFERENCE).unwrap_or_default(),
        mode: read(MODE).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or(Mode::Summary),
        stream: read(STREAM).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default(),
    }
}

pub fn load_draft() -> String {
    read(DRAFT).unwrap_or_default()
}

/// Saves the paste box; a draft too large to store is simply not kept.
pub fn save_draft(text: &str) {
    // Beyond what can be added at once it is not worth the storage (and
    // a failing multi-megabyte write only blocks the page).
    if text.len() > crate::limits::MAX_INPUT_BYTES || !write(DRAFT, text) {
        if let Some(s) = storage() {
            let _ = s.remove_item(DRAFT);
        }
    }
}

/// Stores articles, settings and reference whenever they change.
pub fn keep_saved(state: AppState) {
    if DB.with_borrow(Option::is_none) {
        state.storage_warning.set(Some(NO_STORAGE.into()));
    }
    watch_other_tabs(state);
    Effect::new(move |_| save_articles_if_changed(state));
    Effect::new(move |_| {
        let json = state.settings.with(|s| serde_json::to_string(s).unwrap_or_default());
        write(SETTINGS, &json);
    });
    Effect::new(move |_| {
        state.reference.with(|r| write(REFERENCE, r));
    });
    Effect::new(move |_| {
        let json = serde_json::to_string(&state.mode.get()).unwrap_or_default();
        write(MODE, &json);
    });
    Effect::new(move |_| {
        let json = state.stream_choice.with(|c| serde_json::to_string(c).unwrap_or_default());
        write(STREAM, &json);
    });
}
