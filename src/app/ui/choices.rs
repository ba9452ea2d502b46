//! The reader in charge: pin a sentence (every summary keeps it), strike
//! one (never a candidate), undo and redo, reset; each choice re-selects at
//! once with the embeddings the worker already has.
//!
//! A choice is stored on its article (`Document::pinned` / `struck`, the
//! sentence's text), so it is saved with the articles, survives a reload
//! and a crash as they do, goes to the worker with every request (summary,
//! Compare) and into the exports. The core applies it (`crate::choices`).

use super::link;
use super::state::AppState;
use crate::document::Document;
use leptos::prelude::*;

/// A sentence's state as the reader set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Plain,
    Pinned,
    Struck,
}

/// One reader action (a pin, a strike, a reset): every sentence it
/// changed, with the mark before and after, for undo and redo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChoiceEdit {
    /// (document id, sentence text, before, after).
    changes: Vec<(String, String, Mark, Mark)>,
}

fn mark_in(document: &Document, text: &str) -> Mark {
    if document.pinned.iter().any(|t| t == text) {
        Mark::Pinned
    } else if document.struck.iter().any(|t| t == text) {
        Mark::Struck
    } else {
        Mark::Plain
    }
}

fn set_in(document: &mut Document, text: &str, mark: Mark) {
    document.pinned.retain(|t| t != text);
    document.struck.retain(|t| t != text);
    match mark {
        Mark::Pinned => document.pinned.push(text.to_string()),
        Mark::Struck => document.struck.push(text.to_string()),
        Mark::Plain => {}
    }
}

/// The mark of a sentence of the article whose document has `doc_id`.
pub fn mark_of(state: AppState, doc_id: &str, text: &str) -> Mark {
    state.cards.with(|cards| {
        cards
            .iter()
            .find(|c| c.article.document.id == doc_id)
            .map_or(Mark::Plain, |c| mark_in(&c.article.document, text))
    })
}

/// Applies the marks of an edit's `after` (or `before`) side.
fn apply(state: AppState, edit: &ChoiceEdit, forward: bool) {
    state.cards.update(|cards| {
        for (doc_id, text, before, after) in &edit.changes {
            if let Some(card) = cards.iter_mut().find(|c| c.article.document.id == *doc_id) {
                set_in(
                    &mut card.article.document,
                    text,
                    if forward { *after } else { *before },
                );
            }
        }
    });
    state.input_changed();
    link::summarize(state);
}

fn record(state: AppState, edit: ChoiceEdit) {
    if edit.changes.is_empty() {
        return;
    }
    apply(state, &edit, true);
    state.choice_undo.update(|undo| undo.push(edit));
    state.choice_redo.set(vec![]);
}

/// Sets one sentence's mark (a second click on the same mark clears it).
pub fn toggle(state: AppState, doc_id: &str, text: &str, mark: Mark) {
    let before = mark_of(state, doc_id, text);
    let after = if before == mark { Mark::Plain } else { mark };
    record(
        state,
        ChoiceEdit {
            changes: vec![(doc_id.to_string(), text.to_string(), before, after)],
        },
    );
}

pub fn undo(state: AppState) {
    let Some(edit) = state.choice_undo.try_update(Vec::pop).flatten() else {
        return;
    };
    apply(state, &edit, false);
    state.choice_redo.update(|redo| redo.push(edit));
}

pub fn redo(state: AppState) {
    let Some(edit) = state.choice_redo.try_update(Vec::pop).flatten() else {
        return;
    };
    apply(state, &edit, true);
    state.choice_undo.update(|undo| undo.push(edit));
}

/// Clears every pin and strike (one action: Undo brings them back).
pub fn reset(state: AppState) {
    let changes = state.cards.with_untracked(|cards| {
        cards
            .iter()
            .flat_map(|c| {
                let d = &c.article.document;
                let pins = d
                    .pinned
                    .iter()
                    .map(move |t| (d.id.clone(), t.clone(), Mark::Pinned, Mark::Plain));
                pins.chain(
                    d.struck
                        .iter()
                        .map(move |t| (d.id.clone(), t.clone(), Mark::Struck, Mark::Plain)),
                )
            })
            .collect()
    });
    record(state, ChoiceEdit { changes });
}

/// How many sentences are pinned and struck over all articles.
fn counts(state: AppState) -> (usize, usize) {
    state.cards.with(|cards| {
        cards.iter().fold((0, 0), |(p, s), c| {
            (
                p + c.article.document.pinned.len(),
                s + c.article.document.struck.len(),
            )
        })
    })
}

/// The choices at a glance, with Undo, Redo and Reset.
#[component]
pub fn ChoiceBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let summary = move || {
        let (pinned, struck) = counts(state);
        format!("{pinned} pinned · {struck} struck")
    };
    let any = move || counts(state) != (0, 0);
    let history = move || {
        state.choice_undo.with(|u| !u.is_empty()) || state.choice_redo.with(|r| !r.is_empty())
    };
    view! {
        <Show when=move || any() || history()>
            <div class="choice-bar" role="group" aria-label="Your pins and strikes">
                <span data-testid="choices-summary">{summary}</span>
                <button class="link" data-testid="choice-undo" on:click=move |_| undo(state) disabled=move || state.choice_undo.with(Vec::is_empty)>"Undo"</button>
                <button class="link" data-testid="choice-redo" on:click=move |_| redo(state) disabled=move || state.choice_redo.with(Vec::is_empty)>"Redo"</button>
                <button class="link" data-testid="choice-reset" on:click=move |_| reset(state) disabled=move || !any()>"Reset"</button>
            </div>
        </Show>
    }
}

/// Pin and Strike for one sentence of the article `doc_id`.
#[component]
pub fn ChoiceButtons(doc_id: String, text: String) -> impl IntoView {
    let state = expect_context::<AppState>();
    let mark = {
        let (doc_id, text) = (doc_id.clone(), text.clone());
        Signal::derive(move || mark_of(state, &doc_id, &text))
    };
    let sentence = StoredValue::new((doc_id, text));
    let choose =
        move |m: Mark| sentence.with_value(|(doc_id, text)| toggle(state, doc_id, text, m));
    let pinned = move || mark.get() == Mark::Pinned;
    let struck = move || mark.get() == Mark::Struck;
    view! {
        <span class="choice-buttons">
            <button class="small quiet" data-testid="pin" on:click=move |_| choose(Mark::Pinned) aria-pressed=move || pinned().to_string()
                title="Pin: every summary keeps this sentence">
                {move || if pinned() { "Unpin" } else { "Pin" }}
            </button>
            <button class="small quiet" data-testid="strike" on:click=move |_| choose(Mark::Struck) aria-pressed=move || struck().to_string()
                title="Strike: never pick this sentence">
                {move || if struck() { "Unstrike" } else { "Strike" }}
            </button>
        </span>
    }
}
