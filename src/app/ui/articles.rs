//! Step 1: articles in. A paste box, file upload and drag and drop, the
//! bundled example set, and a card per article (edit, date, remove).

use super::link;
use super::persist;
use super::state::{AppState, Card};
use crate::app::present::{count, iso_date, language_name, parse_iso_date, title_of};
use crate::limits::{megabytes, MAX_INPUT_BYTES};
use crate::worker::protocol::InputProblem;
use leptos::prelude::*;
use std::time::Duration;

/// Quiet time after typing before the paste box is saved.
const DRAFT_SAVE_DELAY: Duration = Duration::from_millis(400);

#[component]
pub fn ArticlesPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            link::read_files(state, &files);
        }
    };
    view! {
        <section
            class="panel articles"
            class:dragging=move || dragging.get()
            aria-labelledby="articles-heading"
            on:dragover=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <h2 id="articles-heading"><span class="step">"1"</span>" Articles"</h2>
            <PasteBox/>
            <InputProblems/>
            <ArticleList/>
            <div class="drop-hint" aria-hidden="true">"Drop files to add them"</div>
        </section>
    }
}

#[component]
fn PasteBox() -> impl IntoView {
    let state = expect_context::<AppState>();
    let save_timer = StoredValue::new(None::<leptos::prelude::TimeoutHandle>);
    let on_input = move |ev| {
        state.draft.set(event_target_value(&ev));
        if let Some(handle) = save_timer.get_value() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(move || state.draft.with_untracked(|d| persist::save_draft(d)), DRAFT_SAVE_DELAY);
        save_timer.set_value(handle.ok());
    };
    let add = move |_| {
        let problem = state.draft.with_untracked(|text| {
            if text.trim().is_empty() {
                Some("The paste box is empty: paste an article's text first.".to_string())
            } else if text.len() > MAX_INPUT_BYTES {
                Some(format!(
                    "This paste is {} of text; Précis reads at most {} at once (about 150,000 words). \
                     Split it into several articles or upload it as files.",
                    megabytes(text.len()),
                    megabytes(MAX_INPUT_BYTES)
                ))
            } else {
                None
            }
        });
        match problem {
            Some(message) => state.input_problems.set(vec![InputProblem { source: "paste".into(), message }]),
            None => link::read_paste(state, state.draft.get_untracked()),
        }
    };
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            link::read_files(state, &files);
        }
        input.set_value("");
    };
    let clear_all = move |_| {
        let removed = state.cards.get_untracked();
        if !removed.is_empty() {
            state.cleared.set(Some(removed));
        }
        state.cards.set(vec![]);
        state.set_draft(String::new());
        persist::save_draft("");
        state.input_problems.set(vec![]);
        state.result.set(None);
        state.shown.set(None);
        state.stale.set(false);
    };
    let undo_clear = move |_| {
        if let Some(cards) = state.cleared.get_untracked() {
            state.cards.update(|c| c.extend(cards));
            state.cleared.set(None);
        }
    };
    view! {
        <label for="article-input" class="field-label">"Paste one or more articles"</label>
        <p class="hint" id="article-input-hint">
            "Separate articles with a line holding only " <code>"---"</code>
            ". Pasted web pages are reduced to their text. Or upload .txt, .md, .html, .json, .jsonl, .pdf, .docx and .odt files, or drop them here."
        </p>
        <textarea
            id="article-input"
            data-testid="article-input"
            aria-describedby="article-input-hint"
            rows="7"
            spellcheck="false"
            placeholder="Headline\n\nFirst paragraph of the article…"
            prop:value=move || {
                state.draft_reset.track();
                state.draft.get_untracked()
            }
            on:input=on_input
        ></textarea>
        <div class="button-row">
            <button class="primary" data-testid="add-article" on:click=add disabled=move || state.reading.get()>
                "Add article"
            </button>
            <label class="button file-button">
                "Upload files"
                <input
                    type="file"
                    class="visually-hidden-input"
                    data-testid="file-input"
                    multiple
                    accept=".txt,.md,.markdown,.html,.htm,.json,.jsonl,.pdf,.docx,.odt,text/plain,text/markdown,text/html,application/json,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.oasis.opendocument.text"
                    on:change=on_files
                />
            </label>
            <button on:click=move |_| link::read_examples(state) disabled=move || state.reading.get()>
                "Load example"
            </button>
            <button class="quiet" on:click=clear_all disabled=move || state.cards.with(Vec::is_empty) && state.draft.with(String::is_empty)>
                "Clear all"
            </button>
        </div>
        {move || state.cleared.with(|c| c.as_ref().map(Vec::len)).map(|n| view! {
            <p class="notice" role="status">
                {format!("Removed {}. ", count(n, "article", "articles"))}
                <button class="link" on:click=undo_clear>"Undo"</button>
            </p>
        })}
        {move || state.reading.get().then(|| view! { <p class="notice" role="status">"Reading…"</p> })}
    }
}

#[component]
fn InputProblems() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="problems" aria-live="assertive">
            {move || {
                state
                    .input_problems
                    .get()
                    .into_iter()
                    .map(|problem| {
                        let source = if problem.source == "paste" || problem.source == "input" {
                            String::new()
                        } else {
                            format!("{}: ", problem.source)
                        };
                        view! {
                            <p class="error" role="alert" data-testid="error">
                                <strong>{source}</strong>
                                {problem.message}
                            </p>
                        }
                    })
                    .collect_view()
            }}
            {move || state.storage_warning.get().map(|w| view! { <p class="warning" role="status" data-testid="storage-warning">{w}</p> })}
        </div>
    }
}

#[component]
fn ArticleList() -> impl IntoView {
    let state = expect_context::<AppState>();
    let summary_line = move || {
        state.cards.with(|cards| {
            let words: usize = cards.iter().map(|c| c.article.facts.words).sum();
            format!("{} · {}", count(cards.len(), "article", "articles"), count(words, "word", "words"))
        })
    };
    view! {
        <Show
            when=move || state.cards.with(|c| !c.is_empty())
            fallback=|| view! { <p class="empty-state">"No articles yet. Paste one above, upload files, or load the example set."</p> }
        >
            <p class="list-summary">{summary_line}</p>
        </Show>
        <ol class="cards">
            <For each=move || state.cards.get() key=|card: &Card| card.key children=move |card: Card| view! { <ArticleCard card_key=card.key/> }/>
        </ol>
    }
}

#[component]
fn ArticleCard(card_key: u64) -> impl IntoView {
    let key = card_key;
    let state = expect_context::<AppState>();
    let editing = RwSignal::new(false);
    let position = move || state.cards.with(|cards| cards.iter().position(|c| c.key == key).unwrap_or(0));
    let article = move || state.article(key);
    let title = move || article().map(|a| title_of(&a.document)).unwrap_or_default();
    let languages = move || {
        article()
            .map(|a| {
                let names: Vec<String> = a.facts.languages.iter().map(|l| language_name(l)).collect();
                if names.is_empty() { "language not detected".to_string() } else { names.join(", ") }
            })
            .unwrap_or_default()
    };
    let lang_codes = move || article().map(|a| a.facts.languages.join(" ")).unwrap_or_default();
    let size = move || {
        article()
            .map(|a| format!("{} · {}", count(a.facts.words, "word", "words"), count(a.facts.sentences, "sentence", "sentences")))
            .unwrap_or_default()
    };
    let date = move || article().and_then(|a| a.document.timestamp).map(iso_date).unwrap_or_default();
    let set_date = move |ev| {
        let timestamp = parse_iso_date(&event_target_value(&ev));
        state.edit_article(key, |a| a.document.timestamp = timestamp);
    };
    let remove = move |_| {
        state.cards.update(|cards| cards.retain(|c| c.key != key));
        state.input_changed();
    };
    let date_id = format!("date-{key}");
    view! {
        <li class=move || format!("card doc-{}", position() % 10) data-testid="article-card">
            <div class="card-head">
                <span class="chip" aria-hidden="true">{move || format!("A{}", position() + 1)}</span>
                <h3 class="card-title" title=title>{title}</h3>
            </div>
            <p class="card-meta">
                <span class="lang" data-lang=lang_codes>{languages}</span>
                <span class="sep" aria-hidden="true">" · "</span>
                <span>{size}</span>
            </p>
            <div class="card-row">
                <label for=date_id.clone() class="inline-label">"Date"</label>
                <input id=date_id type="date" prop:value=date on:change=set_date/>
                <span class="grow"></span>
                <button class="small" on:click=move |_| editing.update(|e| *e = !*e) aria-expanded=move || editing.get().to_string()>
                    {move || if editing.get() { "Close" } else { "Edit" }}
                </button>
                <button class="small quiet" on:click=remove aria-label=move || format!("Remove article A{}", position() + 1)>
                    "Remove"
                </button>
            </div>
            <FurnitureNote card_key=key/>
            <Show when=move || editing.get()>
                <CardEditor card_key=key editing=editing/>
            </Show>
        </li>
    }
}

/// Sentences of the article in the last summary when every one of them
/// read as page furniture (an article pasted with its whole page, or a
/// text the rules cannot read): how many.
fn all_furniture(state: AppState, key: u64) -> Option<usize> {
    let id = state.article(key)?.document.id;
    state.result.with(|result| {
        let outcome = result.as_ref()?;
        let doc = outcome.documents.iter().position(|d| d.id == id)?;
        let mine: Vec<bool> = outcome.result.sentences.iter().filter(|s| s.doc == doc).map(|s| s.excluded.is_some()).collect();
        (!mine.is_empty() && mine.iter().all(|&excluded| excluded)).then_some(mine.len())
    })
}

/// "No prose found" on an article the summary had to leave out, with the
/// choice to use all its sentences, kept with the article (as the articles
/// are, across reloads); and the way back.
#[component]
fn FurnitureNote(card_key: u64) -> impl IntoView {
    let key = card_key;
    let state = expect_context::<AppState>();
    let keeps = move || state.article(key).is_some_and(|a| a.document.keep_furniture);
    let set_keep = move |keep: bool| state.edit_article(key, |a| a.document.keep_furniture = keep);
    move || {
        if keeps() {
            return Some(
                view! {
                    <p class="notice" data-testid="furniture-kept">
                        "Uses all its sentences, page furniture included. "
                        <button class="link" on:click=move |_| set_keep(false)>"Filter page furniture again"</button>
                    </p>
                }
                .into_any(),
            );
        }
        all_furniture(state, key).map(|lines| {
            let look = if lines == 1 { "line looks" } else { "lines look" };
            view! {
                <p class="warning" role="status" data-testid="no-prose">
                    {format!("No prose found: {lines} {look} like page furniture. ")}
                    <button class="small" data-testid="use-all-sentences" on:click=move |_| set_keep(true)>"Use all its sentences"</button>
                </p>
            }
            .into_any()
        })
    }
}

#[component]
fn CardEditor(card_key: u64, editing: RwSignal<bool>) -> impl IntoView {
    let key = card_key;
    let state = expect_context::<AppState>();
    let original = state.article(key);
    let title = RwSignal::new(original.as_ref().and_then(|a| a.document.title.clone()).unwrap_or_default());
    let text = RwSignal::new(original.map(|a| a.document.text).unwrap_or_default());
    let problem = RwSignal::new(None::<String>);
    let save = move |_| {
        let new_text = text.get_untracked();
        if new_text.trim().is_empty() {
            problem.set(Some("An article needs some text; use Remove to drop it.".into()));
            return;
        }
        if new_text.len() > MAX_INPUT_BYTES {
            problem.set(Some(format!("This text is {}; an article may hold at most {}.", megabytes(new_text.len()), megabytes(MAX_INPUT_BYTES))));
            return;
        }
        let new_title = Some(title.get_untracked().trim().to_string()).filter(|t| !t.is_empty());
        state.edit_article(key, |a| {
            a.document.title = new_title;
            a.document.text = new_text;
        });
        if let Some(article) = state.article(key) {
            link::describe(vec![key], vec![article.document]);
        }
        editing.set(false);
    };
    let title_id = format!("title-{key}");
    let text_id = format!("text-{key}");
    view! {
        <div class="editor">
            <label for=title_id.clone() class="field-label">"Title"</label>
            <input id=title_id type="text" prop:value=move || title.get() on:input=move |ev| title.set(event_target_value(&ev))/>
            <label for=text_id.clone() class="field-label">"Text"</label>
            <textarea id=text_id rows="8" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            {move || problem.get().map(|p| view! { <p class="error" role="alert" data-testid="error">{p}</p> })}
            <div class="button-row">
                <button class="primary small" on:click=save>"Save"</button>
                <button class="small" on:click=move |_| editing.set(false)>"Cancel"</button>
            </div>
        </div>
    }
}
