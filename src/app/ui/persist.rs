//! What survives a reload: articles, settings, the reference summary and
//! the unsent paste box, in localStorage (this origin only, this device
//! only).

use super::state::{AppState, Mode, StreamChoice};
use crate::summarize::Settings;
use crate::worker::protocol::Article;
use leptos::prelude::*;

const ARTICLES: &str = "precis.v1.articles";
const SETTINGS: &str = "precis.v1.settings";
const REFERENCE: &str = "precis.v1.reference";
const DRAFT: &str = "precis.v1.draft";
const MODE: &str = "precis.v1.mode";
const STREAM: &str = "precis.v1.stream";

pub struct Saved {
    pub articles: Vec<Article>,
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

/// What the last visit stored; anything unreadable is skipped, never fatal.
pub fn load() -> Saved {
    Saved {
        articles: read(ARTICLES).and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default(),
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
    Effect::new(move |_| {
        let json = state.cards.with(|cards| {
            let articles: Vec<&Article> = cards.iter().map(|c| &c.article).collect();
            serde_json::to_string(&articles).unwrap_or_default()
        });
        let warning = (!write(ARTICLES, &json)).then(|| {
            "These articles are too large for the browser's storage: they will not survive a reload.".to_string()
        });
        state.storage_warning.set(warning);
    });
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
