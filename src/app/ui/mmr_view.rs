//! How MMR, TBMMR and Location chose: at every step each candidate with its
//! relevance to the topic, redundancy with the sentences already picked,
//! position score, date and total, the picked one highlighted; a table the
//! reader can sort, a step slider and a bar chart of the totals' parts.
//! TBMMR adds its reading of the topic: seed articles and structure.

use super::state::Outcome;
use crate::app::present::{article_label, shorten};
use crate::document::Sentence;
use crate::select::mmr::{MmrRow, MmrTrace, Variant, Weights};
use crate::select::tbmmr::{Structure, TopicTrace};
use leptos::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

const SNIPPET_CHARS: usize = 80;
/// Candidates drawn in the chart: the step's best totals.
const CHART_ROWS: usize = 10;

/// A column the table can be sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Sentence,
    Relevance,
    Redundancy,
    Position,
    Time,
    Total,
}

impl Column {
    fn compare(self, sentences: &[Sentence], a: &MmrRow, b: &MmrRow) -> Ordering {
        let place = |r: &MmrRow| (sentences[r.sentence].doc, sentences[r.sentence].index);
        match self {
            Column::Sentence => place(a).cmp(&place(b)),
            Column::Relevance => a.relevance.total_cmp(&b.relevance),
            Column::Redundancy => a.redundancy.total_cmp(&b.redundancy),
            Column::Position => a.position.total_cmp(&b.position),
            Column::Time => a.time.cmp(&b.time),
            Column::Total => a.total.total_cmp(&b.total),
        }
    }
}

#[component]
pub fn MmrExplorer(outcome: Arc<Outcome>, trace: Arc<MmrTrace>) -> impl IntoView {
    let steps = trace.steps.len();
    let last = steps.saturating_sub(1);
    let step = RwSignal::new(0usize);
    let sort = RwSignal::new((Column::Total, true));
    let table = {
        let (outcome, trace) = (outcome.clone(), trace.clone());
        move || {
            let k = step.get().min(last);
            trace.steps.get(k).map(|s| {
                let rows = sorted_rows(&outcome.result.sentences, &s.candidates, sort.get());
                view! { <ScoreTable outcome=outcome.clone() rows=rows weights=trace.weights sort=sort number=k/> }
            })
        }
    };
    let chart = {
        let (outcome, trace) = (outcome.clone(), trace.clone());
        move || {
            let k = step.get().min(last);
            trace.steps.get(k).map(|s| view! { <ScoreChart outcome=outcome.clone() rows=s.candidates.clone() weights=trace.weights/> })
        }
    };
    let topic = trace.topic.clone().map(|t| view! { <TopicReading outcome=outcome.clone() topic=t query=trace.query.len()/> });
    view! {
        <p class="hint mmr-intro">{intro(&trace)}</p>
        {topic}
        {(steps == 0).then(|| view! { <p class="empty-state">"No sentence fit the budget, so nothing was picked."</p> })}
        {(steps > 0).then(|| view! {
            <div class="stepper" role="group" aria-label="MMR steps">
                <button on:click=move |_| step.update(|s| *s = s.saturating_sub(1)) disabled=move || step.get() == 0 aria-label="Previous step">"◀ Previous"</button>
                <input
                    type="range"
                    data-testid="mmr-step"
                    min="0"
                    max=last.to_string()
                    prop:value=move || step.get().to_string()
                    on:input=move |ev| step.set(event_target_value(&ev).parse().unwrap_or(0))
                    aria-label="Step"
                    aria-valuetext=move || format!("Pick {} of {steps}", step.get() + 1)
                />
                <button on:click=move |_| step.update(|s| *s = (*s + 1).min(last)) disabled=move || { step.get() >= last } aria-label="Next step">"Next ▶"</button>
                <span class="step-count" aria-live="polite">{move || format!("Pick {} of {steps}", step.get() + 1)}</span>
            </div>
        })}
        {chart}
        {table}
    }
}

/// What the totals add up, in the method's own terms.
fn intro(trace: &MmrTrace) -> String {
    let w = trace.weights.unwrap_or(Weights::position_only());
    let lambda = w.relevance;
    match trace.variant {
        Variant::Location => "Location: every sentence scores its position only — 1 for the first sentence of an article and of a paragraph, less further down. The best that still fits is picked.".into(),
        Variant::Smmr => format!(
            "MMR with λ = {lambda:.2}: total = λ · relevance to the topic − (1 − λ) · redundancy (the highest similarity to a sentence already picked). Scores are recomputed after every pick; the best that still fits is picked."
        ),
        Variant::Tbmmr => format!(
            "Topic-based MMR with λ = {lambda:.2}, μ = {:.2}: total = λ · relevance − (1 − λ) · redundancy + μ · position. Similarities mix in the sentences' dates (γ = {:.2}: 1 on the same day, 0.3 within three days).",
            w.position, trace.gamma
        ),
    }
}

fn sorted_rows(sentences: &[Sentence], rows: &[MmrRow], (column, descending): (Column, bool)) -> Vec<MmrRow> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| {
        let order = column.compare(sentences, a, b);
        if descending {
            order.reverse()
        } else {
            order
        }
    });
    rows
}

#[component]
fn ScoreTable(
    outcome: Arc<Outcome>,
    rows: Vec<MmrRow>,
    weights: Option<Weights>,
    sort: RwSignal<(Column, bool)>,
    number: usize,
) -> impl IntoView {
    let sentences = &outcome.result.sentences;
    let pinned = outcome.result.summary.pinned.clone();
    let header = move |column: Column, label: &'static str| {
        let state = move || match sort.get() {
            (c, true) if c == column => "descending",
            (c, false) if c == column => "ascending",
            _ => "none",
        };
        let toggle = move |_| sort.update(|(c, descending)| {
            *descending = if *c == column { !*descending } else { column != Column::Sentence };
            *c = column;
        });
        view! {
            <th scope="col" aria-sort=state>
                <button class="sort" on:click=toggle>{label}</button>
            </th>
        }
    };
    let uses_topic = weights.is_some_and(|w| w.relevance > 0.0 || w.redundancy > 0.0);
    let body = rows
        .iter()
        .map(|row| {
            let s = &sentences[row.sentence];
            let fits_note = (!row.fits).then_some("no longer fits the budget: dropped");
            view! {
                <tr
                    data-testid="mmr-row"
                    data-sentence=row.sentence.to_string()
                    data-picked=row.picked.to_string()
                    class:picked=row.picked
                    class:no-fit=!row.fits
                    title=fits_note
                >
                    <td class="sentence-cell">
                        <span class=format!("sentence-ref doc-{}", s.doc % 10)>
                            <span class="chip">{format!("{}·{}", article_label(s.doc), s.index + 1)}</span>
                            " "
                            <span class="snippet" title=s.text.clone()>{shorten(&s.text, SNIPPET_CHARS)}</span>
                        </span>
                        {row.picked.then(|| {
                            // A pin is picked first, whatever its total.
                            let label = if pinned.contains(&row.sentence) { "pinned by you: picked first" } else { "picked" };
                            view! { <span class="fate kept">{label}</span> }
                        })}
                        {fits_note.map(|n| view! { <span class="fate dropped">{n}</span> })}
                    </td>
                    <td>{score(row.relevance)}</td>
                    <td>{score(row.redundancy)}</td>
                    <td>{score(row.position)}</td>
                    <td>{row.time.map(|d| view! { <time datetime=d.to_string()>{d.to_string()}</time> })}</td>
                    <td class="total">{score(row.total)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="mmr-table" data-step=number.to_string()>
            <caption>{format!("Candidates at pick {}{}", number + 1, if uses_topic { "" } else { " (position only)" })}</caption>
            <thead>
                <tr>
                    {header(Column::Sentence, "Sentence")}
                    {header(Column::Relevance, "Relevance")}
                    {header(Column::Redundancy, "Redundancy")}
                    {header(Column::Position, "Position")}
                    {header(Column::Time, "Date")}
                    {header(Column::Total, "Total")}
                </tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}

fn score(value: f32) -> String {
    format!("{value:.3}")
}

/// The best candidates' totals as bars: what relevance and position add
/// (right of the axis) and what redundancy takes away (left).
#[component]
fn ScoreChart(outcome: Arc<Outcome>, rows: Vec<MmrRow>, weights: Option<Weights>) -> impl IntoView {
    let w = weights.unwrap_or(Weights::position_only());
    let mut best = rows;
    best.sort_by(|a, b| b.total.total_cmp(&a.total));
    best.truncate(CHART_ROWS);
    let parts = |r: &MmrRow| (w.relevance * r.relevance.max(0.0), w.position * r.position, w.redundancy * r.redundancy.max(0.0));
    let scale = best
        .iter()
        .map(|r| {
            let (relevance, position, redundancy) = parts(r);
            (relevance + position).max(redundancy)
        })
        .fold(f32::EPSILON, f32::max);
    let width = |x: f32| format!("{:.1}%", 100.0 * x / scale);
    let sentences = &outcome.result.sentences;
    let bars = best
        .iter()
        .map(|r| {
            let (relevance, position, redundancy) = parts(r);
            let s = &sentences[r.sentence];
            let label = format!("{}·{}", article_label(s.doc), s.index + 1);
            let description = format!(
                "{label}: total {}, relevance part {}, position part {}, redundancy part −{}",
                score(r.total),
                score(relevance),
                score(position),
                score(redundancy)
            );
            view! {
                <li class="mmr-bar" class:picked=r.picked class:no-fit=!r.fits aria-label=description>
                    <span class="bar-label">{label}</span>
                    <span class="bar-side negative"><span class="seg redundancy" style:width=width(redundancy)></span></span>
                    <span class="bar-side positive">
                        <span class="seg relevance" style:width=width(relevance)></span>
                        <span class="seg position" style:width=width(position)></span>
                    </span>
                    <span class="bar-total">{score(r.total)}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="mmr-chart" data-testid="mmr-chart">
            <ol>{bars}</ol>
            <figcaption class="hint">
                <span class="key relevance"></span>" relevance · "
                <span class="key position"></span>" position · "
                <span class="key redundancy"></span>" redundancy (subtracted) — the step's best candidates, highest total first."
            </figcaption>
        </figure>
    }
}

/// TBMMR's reading of the articles: which report the topic's seed event,
/// and whether the set is sequential or divergent.
#[component]
fn TopicReading(outcome: Arc<Outcome>, topic: TopicTrace, query: usize) -> impl IntoView {
    let structure = match (&topic.structure, &topic.divergent_day) {
        (Structure::Divergent, Some(day)) => format!(
            "Divergent: on {} the other articles report {} separate events, so the summary can be grouped by day.",
            day.day,
            day.events.len()
        ),
        _ => "Sequential: one line of events, so the summary can follow the sentences' dates.".to_string(),
    };
    let topic_source = match outcome.settings.topic.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => format!("Topic: “{}”", shorten(text, 120)),
        None => "Topic: the earliest article's headline and first sentence.".to_string(),
    };
    let articles = topic
        .documents
        .iter()
        .enumerate()
        .map(|(doc, d)| {
            let date = d.day.map(|day| format!(" ({day})")).unwrap_or_default();
            let role = if d.seed { "seed event" } else { "another event: its headline and first sentences join the query" };
            view! {
                <li class=format!("doc-{}", doc % 10) data-seed=d.seed.to_string()>
                    <span class="chip">{article_label(doc)}</span>
                    {format!("{date} topic relevance {} — {role}", score(d.relevance))}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="topic-reading" data-testid="topic-reading" data-structure=format!("{:?}", topic.structure).to_lowercase()>
            <p>{topic_source}{format!(" The query holds {query} sentences.")}</p>
            <p>{structure}</p>
            <details>
                <summary>{format!("Articles and the topic (seed threshold {:.2})", topic.seed_threshold)}</summary>
                <ul class="topic-articles">{articles}</ul>
            </details>
        </div>
    }
}
