//! The Compare tab (the classroom): two to four methods run on the same
//! articles and settings in the worker, their summaries in columns with
//! each method's objective, word count and, with a reference, ROUGE-1/2.
//! Sentences several methods picked carry a badge. The numbers, the
//! Markdown and the JSON all come from the core (`crate::compare`).

use super::dom;
use super::link;
use super::state::AppState;
use super::summary::today;
use crate::app::catalogue;
use crate::compare::{Column, MOST_METHODS};
use crate::worker::protocol::ComparisonResult;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CompareView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let chosen = move || state.compare_methods.with(Vec::len);
    let choices = catalogue::methods()
        .map(|info| {
            let method = info.method;
            let checked = move || state.compare_methods.with(|m| m.contains(&method));
            let toggle = move |_| {
                state.compare_methods.update(|m| match m.iter().position(|&x| x == method) {
                    Some(i) => drop(m.remove(i)),
                    None => m.push(method),
                })
            };
            view! {
                <label class="compare-choice">
                    <input
                        type="checkbox"
                        data-testid="compare-method"
                        value=info.name
                        prop:checked=checked
                        disabled=move || !checked() && (!state.can_run(method) || chosen() >= MOST_METHODS)
                        on:change=toggle
                    />
                    {info.label}
                </label>
            }
        })
        .collect_view();
    let status = move || match (state.compare_progress.get(), state.compare_error.get()) {
        (Some(p), _) => Some(format!("{}…", p.stage.describe())),
        (None, Some(e)) => Some(e),
        _ => None,
    };
    view! {
        <p class="hint">"Run two to four methods on the same articles and settings. Sentences are embedded once for all of them."</p>
        <fieldset class="compare-choices"><legend class="field-label">"Methods"</legend>{choices}</fieldset>
        <button
            class="primary"
            data-testid="compare-run"
            on:click=move |_| link::compare(state)
            disabled=move || state.cards.with(Vec::is_empty) || !(2..=MOST_METHODS).contains(&chosen()) || state.compare_progress.with(Option::is_some)
        >
            {move || format!("Compare {} methods", chosen())}
        </button>
        <p class="hint" role="status" data-testid="compare-status">{status}</p>
        {move || state.comparison.get().map(|result| view! { <Columns result=result/> })}
    }
}

#[component]
fn Columns(result: Arc<ComparisonResult>) -> impl IntoView {
    let columns = result.comparison.columns.iter().map(column).collect_view();
    let t = &result.timing;
    let timing = format!("{} sentences embedded, {} reused · selection {:.0} ms for all methods", t.encoded, t.reused, t.select_ms);
    let (pinned, struck) = (result.comparison.pinned.len(), result.comparison.struck.len());
    let choices = (pinned + struck > 0).then(|| {
        view! { <p class="hint" data-testid="compare-choices">{format!("Every method kept your choices: {pinned} pinned, {struck} struck.")}</p> }
    });
    let feedback = RwSignal::new(None::<String>);
    let save = move |extension: &'static str, mime: &'static str| {
        let result = result.clone();
        move |_| {
            let comparison = &result.comparison;
            let text = if extension == "md" { comparison.to_markdown() } else { comparison.to_json() };
            let name = format!("precis-comparison-{}.{extension}", today());
            feedback.set(Some(dom::download(&name, mime, &text).map_or_else(|e| e, |()| format!("Saved {name}."))));
        }
    };
    view! {
        {choices}
        <div class="compare-grid">{columns}</div>
        <p class="hint">{timing}</p>
        <div class="button-row export" role="group" aria-label="Export the comparison">
            <button data-testid="compare-export-md" on:click=save("md", "text/markdown")>"Export .md"</button>
            <button data-testid="compare-export-json" on:click=save("json", "application/json")>"Export .json"</button>
        </div>
        <p class="hint" role="status">{move || feedback.get()}</p>
    }
}

fn column(c: &Column) -> impl IntoView {
    let percent = |share: f64| format!("{:.1}%", share * 100.0);
    let rouge = c.rouge.as_ref().map(|r| {
        let text = format!("ROUGE-1 {} · ROUGE-2 {} (recall)", percent(r.rouge_1.recall), percent(r.rouge_2.recall));
        view! { <p class="summary-meta" data-testid="compare-rouge" data-r1=r.rouge_1.recall.to_string() data-r2=r.rouge_2.recall.to_string()>{text}</p> }
    });
    let sentences = c
        .sentences
        .iter()
        .map(|p| {
            let shared = p.picked_by > 1;
            let badge = shared.then(|| format!("picked by {}", p.picked_by));
            let pinned = p.pinned.then(|| view! { <span class="pinned-badge">"pinned"</span> });
            view! {
                <li data-testid="compare-sentence" data-shared=p.picked_by.to_string() data-pinned=p.pinned.to_string() class:shared=shared>
                    {p.text.clone()}
                    {badge.map(|b| view! { <span class="shared-badge">{b}</span> })}
                    {pinned}
                </li>
            }
        })
        .collect_view();
    let notes: Vec<String> = c.notes.clone();
    view! {
        <div class="compare-column" data-testid="compare-column" data-method=c.method.name()>
            <h3>{catalogue::describe(c.method).label}</h3>
            <p class="summary-meta">
                <span data-testid="compare-objective" data-kind=c.objective.label()>{format!("{} {:.3}", c.objective.label(), c.objective_value)}</span>
                " · "
                <span data-testid="compare-words">{format!("{} words", c.words)}</span>
            </p>
            {rouge}
            <ol>{sentences}</ol>
            {notes.into_iter().map(|n| view! { <p class="notice">{n}</p> }).collect_view()}
        </div>
    }
}
