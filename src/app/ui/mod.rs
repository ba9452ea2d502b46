//! Leptos components of the page. State lives in [`state::AppState`]
//! (signals, provided as context); the worker is reached through
//! [`link`]; every panel is its own module.

mod articles;
mod attention;
mod choices;
mod compare;
mod dom;
mod explorer;
mod export_bar;
mod idb;
mod link;
mod map;
mod mmr_view;
mod persist;
mod recovery;
mod settings;
mod sources;
mod state;
mod summary;
mod timeline;

use crate::worker::protocol::{Article, ModelStatus};
use leptos::prelude::*;
use state::{AppState, Mode, Tab};

/// Entry point of the app bin. The saved articles are read first (a few
/// milliseconds from IndexedDB), so the page never shows an empty list
/// that then fills.
pub fn mount() {
    console_error_panic_hook::set_once();
    wasm_bindgen_futures::spawn_local(async {
        let articles = persist::load_articles().await;
        leptos::mount::mount_to_body(move || view! { <App articles/> });
    });
}

#[component]
fn App(articles: Vec<Article>) -> impl IntoView {
    let state = AppState::restore(articles);
    provide_context(state);
    link::connect(state);
    persist::keep_saved(state);
    summary::rerun_on_settings_change(state);
    dom::announce_ready();
    view! {
        <header class="masthead">
            <div class="brand">
                <h1>"Précis"</h1>
                <p class="tagline">"Multi-document news summaries that never leave this tab."</p>
            </div>
            <ModelBadge/>
        </header>
        <recovery::Notices/>
        <ModeSwitch/>
        <main class="layout">
            <div class="column input-column">
                <articles::ArticlesPanel/>
                <Show when=move || state.mode.get() == Mode::Summary>
                    <settings::SettingsPanel/>
                </Show>
            </div>
            <div class="column output-column">
                <Show
                    when=move || state.mode.get() == Mode::Summary
                    fallback=|| view! { <timeline::TimelinePanel/> }
                >
                    <summary::SummarizeBar/>
                    <summary::SummaryPanel/>
                    <ResultTabs/>
                </Show>
            </div>
        </main>
        <footer class="colophon">
            "Everything runs in your browser: splitting, the MUSE sentence encoder, centroid and beam search. "
            "No text is sent anywhere. Methods: Gholipour Ghalandari (2017); Gonçalves et al. (2023)."
        </footer>
    }
}

/// Summary or timeline: what to make of the articles.
#[component]
fn ModeSwitch() -> impl IntoView {
    let state = expect_context::<AppState>();
    let button = move |mode: Mode, label: &'static str, help: &'static str, testid: &'static str| {
        view! {
            <button
                class="mode-button"
                class:active=move || state.mode.get() == mode
                aria-pressed=move || (state.mode.get() == mode).to_string()
                data-testid=testid
                on:click=move |_| state.mode.set(mode)
            >
                <strong>{label}</strong>
                <span class="mode-help">{help}</span>
            </button>
        }
    };
    view! {
        <nav class="mode-switch" role="group" aria-label="What to make of the articles">
            {button(Mode::Summary, "Summary", "one summary of all the articles", "mode-summary")}
            {button(Mode::Timeline, "Timeline", "replay them by date, news as it breaks", "mode-timeline")}
        </nav>
    }
}

/// Where the language model is: downloading, loading, ready or missing.
#[component]
fn ModelBadge() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = move || match state.model.get() {
        None => "Starting the worker…".to_string(),
        Some(ModelStatus::Fetching { done, total }) => format!(
            "Downloading the language model: {:.0} of {:.0} MB (once; then it works offline)",
            done as f64 / 1e6,
            total as f64 / 1e6
        ),
        Some(ModelStatus::Loading { .. }) => "Preparing the language model…".to_string(),
        Some(ModelStatus::Ready { seconds, from_cache, offline, .. }) => format!(
            "Model ready in {seconds:.1} s{} · {}",
            if from_cache { " from this device" } else { "" },
            if offline { "works offline" } else { "works offline after the first summary" }
        ),
        Some(ModelStatus::Unavailable { message }) => message,
    };
    let fraction = move || match state.model.get() {
        Some(ModelStatus::Fetching { done, total }) if total > 0 => Some(done as f64 / total as f64),
        _ => None,
    };
    // In the tooltip, not the text: helpers come up a moment after the
    // model, and a longer line could wrap and move the page.
    let cores = move || {
        let cores = match state.helpers.get() {
            0 => "Encodes on one core".to_string(),
            n => format!("Encodes on {} cores", n + 1),
        };
        match state.model.get() {
            Some(ModelStatus::Ready { seconds, read_seconds, phases, .. }) => {
                let build = phases.build;
                format!(
                    "{cores} · model files read in {read_seconds:.1} s, encoder built in {:.1} s \
                     (tokenizer {:.2} s, table {:.2} s, parse {:.2} s, graph {:.2} s, first plan {:.2} s), waited for sha256 {:.2} s",
                    seconds - read_seconds,
                    build.tokenizer,
                    build.table,
                    build.parse,
                    build.graph,
                    build.first_plan,
                    phases.hash
                )
            }
            _ => cores,
        }
    };
    let kind = move || match state.model.get() {
        Some(ModelStatus::Ready { .. }) => "ready",
        Some(ModelStatus::Unavailable { .. }) => "missing",
        _ => "busy",
    };
    let offline = move || matches!(state.model.get(), Some(ModelStatus::Ready { offline: true, .. })).to_string();
    view! {
        <div class="model-badge" data-state=kind data-offline=offline role="status" aria-live="polite" data-testid="model-status" data-helpers=move || state.helpers.get().to_string() title=cores>
            <span class="dot" aria-hidden="true"></span>
            <span>{text}</span>
            {move || fraction().map(|f| view! { <progress max="1" value=f.to_string()></progress> })}
        </div>
    }
}

#[component]
fn ResultTabs() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tab_button = move |tab: Tab, label: &'static str| {
        view! {
            <button
                role="tab"
                id=format!("tab-{}", tab.slug())
                aria-controls=format!("panel-{}", tab.slug())
                aria-selected=move || (state.tab.get() == tab).to_string()
                class:active=move || state.tab.get() == tab
                on:click=move |_| state.tab.set(tab)
            >
                {label}
            </button>
        }
    };
    view! {
        <section class="panel tabs-panel" aria-label="Details">
            <div class="tabs" role="tablist">
                {tab_button(Tab::Sources, "Sources")}
                {tab_button(Tab::Explorer, "How it was chosen")}
                {tab_button(Tab::Map, "Map")}
                {tab_button(Tab::Compare, "Compare")}
            </div>
            <div role="tabpanel" id="panel-sources" aria-labelledby="tab-sources" hidden=move || state.tab.get() != Tab::Sources>
                <sources::SourcesView/>
            </div>
            <div role="tabpanel" id="panel-explorer" aria-labelledby="tab-explorer" hidden=move || state.tab.get() != Tab::Explorer>
                <explorer::Explorer/>
            </div>
            <div role="tabpanel" id="panel-map" aria-labelledby="tab-map" hidden=move || state.tab.get() != Tab::Map>
                <map::ClusterMap/>
            </div>
            <div role="tabpanel" id="panel-compare" aria-labelledby="tab-compare" hidden=move || state.tab.get() != Tab::Compare>
                <compare::CompareView/>
            </div>
        </section>
    }
}
