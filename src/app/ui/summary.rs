//! Step 3: the Summarize button with its progress bar, and the summary:
//! each sentence linked to its source, copy and export.

use super::choices::{ChoiceBar, ChoiceButtons};
use super::dom;
use super::export_bar::{ExportBar, Render};
use super::link;
use super::state::{AppState, Outcome, Shown, Tab};
use crate::app::catalogue;
use crate::app::export::SummaryExport;
use crate::app::present::{article_label, budget_use, cosine, count, duration, language_name, provenance};
use crate::select::topic::sentence_day;
use crate::worker::protocol::{RougeResult, Stage};
use crate::eval::rouge::Tokenization;
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// Settings changes closer together than this make one new summary.
const RERUN_DELAY: Duration = Duration::from_millis(250);

#[component]
pub fn SummarizeBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let running = move || state.progress.with(Option::is_some);
    let label = move || {
        let articles = state.cards.with(Vec::len);
        if articles == 0 { "Summarize".to_string() } else { format!("Summarize {}", count(articles, "article", "articles")) }
    };
    view! {
        <section class="panel run" aria-label="Summarize">
            <button
                class="primary big"
                data-testid="summarize"
                on:click=move |_| link::summarize(state)
                disabled=move || state.cards.with(Vec::is_empty)
                aria-describedby="progress-label"
            >
                {label}
            </button>
            <ProgressBar/>
            {move || state.summary_error.get().map(|e| view! { <p class="error" role="alert" data-testid="error">{e}</p> })}
            {move || (state.stale.get() && !running()).then(|| view! {
                <p class="notice" role="status">"The articles changed since this summary. Summarize again to update it."</p>
            })}
        </section>
    }
}

/// Always on screen, so nothing moves when a summary starts or ends.
#[component]
fn ProgressBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let fraction = move || {
        state.progress.get().map(|p| match p.stage {
            Stage::Model => match state.model.get() {
                Some(crate::worker::protocol::ModelStatus::Fetching { done, total }) if total > 0 => done as f64 / total as f64 * 0.05,
                _ => 0.05,
            },
            Stage::Splitting => 0.05,
            Stage::Encoding => 0.08 + 0.85 * p.done as f64 / p.total.max(1) as f64,
            Stage::Selecting => 0.95,
        })
    };
    let text = move || match state.progress.get() {
        Some(p) if p.stage == Stage::Encoding => format!("{}: {} of {}", p.stage.describe(), p.done, count(p.total, "sentence", "sentences")),
        Some(p) => format!("{}…", p.stage.describe()),
        None => state
            .result
            .with(|r| {
                r.as_ref().map(|r| {
                    let t = &r.result.timing;
                    format!(
                        "Done in {} · {} embedded, {} reused",
                        duration(t.total_ms),
                        count(t.encoded, "sentence", "sentences"),
                        t.reused
                    )
                })
            })
            .unwrap_or_default(),
    };
    // Where the time went, on hover (and for tests/e2e/bench-app.mjs).
    let breakdown = move || {
        state.result.with(|r| {
            r.as_ref().map(|r| {
                let t = &r.result.timing;
                let mut encode_notes = vec![];
                if t.helped > 0 {
                    encode_notes.push(format!("{} of {} by helper workers", t.helped, t.encoded));
                }
                // Only a text that needed blocks this device lacked waits for them.
                if t.rows_ms >= 1.0 {
                    encode_notes.push(format!("model rows {:.0} ms", t.rows_ms));
                }
                let encode_notes = if encode_notes.is_empty() { String::new() } else { format!(" ({})", encode_notes.join("; ")) };
                // A trained head's inference is the part of selection worth naming.
                let head = if r.result.summary.centroid.attention.is_some() { format!(" (centroid head {:.1} ms)", t.centroid_ms) } else { String::new() };
                format!("split {:.0} ms · encode {:.0} ms{encode_notes} · select {:.0} ms{head}", t.split_ms, t.encode_ms, t.select_ms)
            })
        })
    };
    let percent = move || fraction().map(|f| (f * 100.0).round() as u32).unwrap_or(0);
    view! {
        <div
            class="progress"
            data-testid="progress"
            data-state=move || if fraction().is_some() { "running" } else { "idle" }
            role="progressbar"
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || percent().to_string()
            aria-labelledby="progress-label"
        >
            <div class="track"><div class="fill" style:width=move || format!("{}%", percent())></div></div>
            <span
                id="progress-label"
                class="progress-label"
                title=breakdown
                data-worker-ms=move || state.result.with(|r| r.as_ref().map(|r| format!("{:.2}", r.result.timing.total_ms)))
            >
                {text}
            </span>
        </div>
    }
}

#[component]
pub fn SummaryPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let content = move || match (state.result.get(), state.shown.get()) {
        (Some(outcome), Some(shown)) => view! { <SummaryBody outcome=outcome shown=shown/> }.into_any(),
        _ => view! {
            <p class="empty-state">"The summary appears here, each sentence linked to the article it comes from."</p>
        }
        .into_any(),
    };
    view! {
        <section class="panel summary" data-testid="summary" aria-labelledby="summary-heading" aria-busy=move || state.progress.with(Option::is_some).to_string()>
            <h2 id="summary-heading"><span class="step">"3"</span>" Summary"</h2>
            {content}
        </section>
    }
}

#[component]
fn SummaryBody(outcome: Arc<Outcome>, shown: Shown) -> impl IntoView {
    let state = expect_context::<AppState>();
    let Outcome { result, documents, settings } = &*outcome;
    let method = catalogue::describe(settings.method).label;
    let meta = format!(
        "{method} · {} · similarity to the centroid {}",
        budget_use(shown.cost, result.summary.limit, &settings.budget),
        cosine(shown.score)
    );
    let sentences_per_doc = |doc: usize| result.sentences.iter().filter(|s| s.doc == doc).count();
    let pinned = &result.summary.pinned;
    let items = shown
        .sentences
        .iter()
        .map(|&id| {
            let sentence = &result.sentences[id];
            let tip = provenance(sentence, documents.get(sentence.doc), sentences_per_doc(sentence.doc));
            let lang = (sentence.lang != "und").then(|| sentence.lang.clone());
            let date = documents.get(sentence.doc).and_then(|d| sentence_day(sentence, d));
            let open_source = move |_| {
                state.tab.set(Tab::Sources);
                request_animation_frame(move || dom::reveal_sentence(id));
            };
            let doc_id = documents.get(sentence.doc).map(|d| d.id.clone()).unwrap_or_default();
            let is_pinned = pinned.contains(&id);
            view! {
                <li
                    data-testid="summary-sentence"
                    data-doc=sentence.doc.to_string()
                    data-index=sentence.index.to_string()
                    data-pinned=is_pinned.to_string()
                    class=format!("summary-sentence doc-{}", sentence.doc % 10)
                    class:pinned=is_pinned
                >
                    <button class="sentence-link" lang=lang on:click=open_source aria-describedby=format!("tip-{id}")>
                        {sentence.text.clone()}
                    </button>
                    <span class="source-tag">
                        <span class="chip">{article_label(sentence.doc)}</span>
                        <span class="lang-tag" title=language_name(&sentence.lang)>{sentence.lang.clone()}</span>
                        {date.map(|d| view! { <time class="date-tag" datetime=d.to_string() title="The date the sentence speaks of">{d.to_string()}</time> })}
                    </span>
                    <span class="tip" role="tooltip" id=format!("tip-{id}")>{tip}</span>
                    <ChoiceButtons doc_id=doc_id text=sentence.text.clone()/>
                </li>
            }
        })
        .collect_view();
    let banner = shown.candidate.map(|rank| {
        view! {
            <p class="notice candidate-banner" role="status">
                {format!("Showing beam candidate #{} instead of the method's answer. ", rank + 1)}
                <button class="link" on:click=move |_| {
                    if let Some(result) = state.result.get_untracked() {
                        state.show_result(result);
                    }
                }>"Back to the summary"</button>
            </p>
        }
    });
    let notes = result.summary.notes.iter().map(|n| view! { <p class="notice" role="status">{n.clone()}</p> }).collect_view();
    let rouge = result.rouge.clone().map(|r| view! { <RougeTable rouge=r/> });
    let export = summary_export(outcome.clone(), shown.clone());
    view! {
        <p class="summary-meta">{meta}</p>
        <ChoiceBar/>
        {banner}
        {notes}
        <ol class="summary-list">{items}</ol>
        {rouge}
        {export}
    }
}

/// The summary as shown (pins and strikes included), to copy or save.
fn summary_export(outcome: Arc<Outcome>, shown: Shown) -> impl IntoView {
    let empty = shown.sentences.is_empty();
    let render: Render = Arc::new(move |format: &str| {
        let summary = SummaryExport {
            documents: &outcome.documents,
            sentences: &outcome.result.sentences,
            picked: &shown.sentences,
            settings: &outcome.settings,
            score: shown.score,
            cost: shown.cost,
            limit: outcome.result.summary.limit,
            pinned: &outcome.result.summary.pinned,
            struck: &outcome.result.summary.struck,
        };
        match format {
            "md" => summary.to_markdown(),
            "json" => summary.to_json(),
            _ => summary.to_text(),
        }
    });
    const FORMATS: &[(&str, &str)] = &[("txt", "text/plain"), ("md", "text/markdown"), ("json", "application/json")];
    view! {
        <ExportBar label="Copy or export the summary" formats=FORMATS copy=true
            stem=format!("precis-summary-{}", today()) empty render/>
    }
}

/// ROUGE-1/2/L recall, precision and F against the user's reference.
#[component]
fn RougeTable(rouge: RougeResult) -> impl IntoView {
    let row = |name: &'static str, prf: crate::eval::rouge::Prf| {
        view! {
            <tr>
                <th scope="row">{name}</th>
                <td>{format!("{:.1}%", prf.recall * 100.0)}</td>
                <td>{format!("{:.1}%", prf.precision * 100.0)}</td>
                <td>{format!("{:.1}%", prf.f * 100.0)}</td>
            </tr>
        }
    };
    let tokens = match rouge.tokenization {
        Tokenization::Unicode => "Unicode words, no stemming (non-English text)",
        Tokenization::Rouge155 => "ROUGE-1.5.5 tokens with Porter stemming (English)",
    };
    view! {
        <table class="rouge">
            <caption>"Overlap with your reference summary"</caption>
            <thead><tr><th scope="col">"Metric"</th><th scope="col">"Recall"</th><th scope="col">"Precision"</th><th scope="col">"F"</th></tr></thead>
            <tbody>
                {row("ROUGE-1", rouge.rouge_1)}
                {row("ROUGE-2", rouge.rouge_2)}
                {row("ROUGE-L", rouge.rouge_l)}
            </tbody>
        </table>
        <p class="hint">{format!("Tokens: {tokens}.")}</p>
    }
}

/// Today's date (local), for export file names.
pub(super) fn today() -> String {
    let now = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
}

/// A new summary whenever a setting changes, once there is one to update.
pub fn rerun_on_settings_change(state: AppState) {
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |previous: Option<()>| {
        state.settings.track();
        if previous.is_none() || state.result.with_untracked(Option::is_none) {
            return;
        }
        if let Some(handle) = timer.get_value() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(move || link::summarize(state), RERUN_DELAY);
        timer.set_value(handle.ok());
    });
}
