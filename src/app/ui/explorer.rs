//! How the summary was chosen, step by step: the live beams with their
//! sentences and similarity to the centroid, every expansion and its fate,
//! beams that froze, the greedy continuation and the ranked finals (any of
//! which can be shown as the summary). Greedy runs show each pick with its
//! runners-up.

use super::mmr_view::MmrExplorer;
use super::state::{AppState, Outcome, Shown};
use crate::app::present::{article_label, cosine, order_sentences, shorten};
use crate::document::Sentence;
use crate::select::beam::{BeamMode, BeamTrace, Candidate, Expansion, Fate};
use crate::select::greedy::GreedyTrace;
use crate::select::Trace;
use leptos::prelude::*;
use std::sync::Arc;

const SNIPPET_CHARS: usize = 90;

#[component]
pub fn Explorer() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || match state.result.get() {
        None => view! { <p class="empty-state">"After summarizing, this tab shows how the sentences were chosen."</p> }.into_any(),
        Some(outcome) => view! {
            {aim_notes(&outcome)}
            <super::attention::AttentionView outcome=outcome.clone()/>
            {trace_view(outcome)}
        }
        .into_any(),
    }
}

/// What else decided where the summary aims: the reader's question and the
/// sentences kept as context only (outside the summary languages).
fn aim_notes(outcome: &Outcome) -> impl IntoView {
    let settings = &outcome.settings;
    let steering = outcome.result.summary.centroid.steering.as_ref().map(|s| {
        let question = settings.topic.clone().unwrap_or_default();
        let text = format!(
            "The question “{}” moved the centroid by {:.0}° (weight {:.2}); the articles' own centroid had cosine {:.2} with it.",
            shorten(&question, SNIPPET_CHARS),
            s.degrees_moved(),
            s.weight,
            s.cosine_to_query
        );
        view! { <p class="hint" data-testid="explorer-steering">{text}</p> }
    });
    let context = outcome.result.sentences.iter().filter(|s| !settings.accepts_language(&s.lang)).count();
    let languages = settings.languages.iter().map(|l| crate::segment::language_name(l)).collect::<Vec<_>>().join(", ");
    let context = (context > 0).then(|| {
        let text = format!("{context} sentences in other languages are context only: they shape the centroid but are not candidates (summary languages: {languages}).");
        view! { <p class="hint" data-testid="explorer-language-context">{text}</p> }
    });
    // The reader's choices: where every search started, what it never saw.
    let summary = &outcome.result.summary;
    let named = |ids: &[usize]| {
        ids.iter()
            .map(|&id| {
                format!(
                    "{}·{}",
                    article_label(outcome.result.sentences[id].doc),
                    outcome.result.sentences[id].index + 1
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let choices = (!summary.pinned.is_empty() || !summary.struck.is_empty()).then(|| {
        let mut parts = vec![];
        if !summary.pinned.is_empty() {
            parts.push(format!(
                "Pinned by you: {} (every summary starts from them).",
                named(&summary.pinned)
            ));
        }
        if !summary.struck.is_empty() {
            parts.push(format!(
                "Struck by you: {} (never candidates).",
                named(&summary.struck)
            ));
        }
        view! { <p class="hint" data-testid="explorer-choices">{parts.join(" ")}</p> }
    });
    (steering, context, choices)
}

fn trace_view(outcome: Arc<Outcome>) -> AnyView {
    match &outcome.result.summary.trace {
        Trace::Beam(trace) => view! { <BeamExplorer outcome=outcome.clone() trace=Arc::new(trace.clone())/> }.into_any(),
        Trace::Greedy(trace) => view! { <GreedyExplorer outcome=outcome.clone() trace=trace.clone()/> }.into_any(),
        Trace::Mmr(trace) => view! { <MmrExplorer outcome=outcome.clone() trace=Arc::new(trace.clone())/> }.into_any(),
        Trace::None => view! { <p class="empty-state">"This method keeps no record of its search."</p> }.into_any(),
    }
}

/// "A2·3" and the start of the sentence.
fn sentence_line(sentences: &[Sentence], id: usize) -> impl IntoView {
    let s = &sentences[id];
    view! {
        <span class=format!("sentence-ref doc-{}", s.doc % 10)>
            <span class="chip">{format!("{}·{}", article_label(s.doc), s.index + 1)}</span>
            " "
            <span class="snippet" title=s.text.clone()>{shorten(&s.text, SNIPPET_CHARS)}</span>
        </span>
    }
}

fn fate_badge(fate: Fate) -> impl IntoView {
    let (class, label) = match fate {
        Fate::Kept => ("fate kept", "kept"),
        Fate::KeptOverBudget => ("fate over", "kept, over budget"),
        Fate::Dropped => ("fate dropped", "dropped"),
        Fate::Duplicate => ("fate duplicate", "same set as a better one"),
    };
    view! { <span class=class>{label}</span> }
}

#[component]
fn BeamExplorer(outcome: Arc<Outcome>, trace: Arc<BeamTrace>) -> impl IntoView {
    let steps = trace.steps.len();
    let step = RwSignal::new(0usize);
    let mode = match trace.mode {
        BeamMode::Fill => "fill mode: beams only take sentences that still fit, and equal sets merge",
        BeamMode::Paper => "paper mode: as published, a beam may overflow the budget and then freezes the step before",
    };
    let intro = format!(
        "Beam search with B = {} ({mode}). At each step every live beam proposes its best next sentences; the {} best proposals become the next beams. Scores are the cosine between the summary and the centroid.",
        trace.width, trace.width
    );
    let step_view = {
        let (outcome, trace) = (outcome.clone(), trace.clone());
        move || {
            let k = step.get().min(steps.saturating_sub(1));
            trace.steps.get(k).map(|s| view! { <BeamStepView outcome=outcome.clone() step=s.clone() number=k/> })
        }
    };
    let last = steps.saturating_sub(1);
    view! {
        <p class="hint">{intro}</p>
        {(steps > 0).then(|| view! {
            <div class="stepper" role="group" aria-label="Beam search steps">
                <button on:click=move |_| step.update(|s| *s = s.saturating_sub(1)) disabled=move || step.get() == 0 aria-label="Previous step">"◀ Previous"</button>
                <input
                    type="range"
                    min="0"
                    max=last.to_string()
                    prop:value=move || step.get().to_string()
                    on:input=move |ev| step.set(event_target_value(&ev).parse().unwrap_or(0))
                    aria-label="Step"
                    aria-valuetext=move || format!("Step {} of {steps}", step.get() + 1)
                />
                <button on:click=move |_| step.update(|s| *s = (*s + 1).min(last)) disabled=move || { step.get() >= last } aria-label="Next step">"Next ▶"</button>
                <span class="step-count" aria-live="polite">{move || format!("Step {} of {steps}", step.get() + 1)}</span>
            </div>
        })}
        {step_view}
        <Continuations outcome=outcome.clone() trace=trace.clone()/>
        <Finals outcome=outcome trace=trace/>
    }
}

#[component]
fn BeamStepView(outcome: Arc<Outcome>, step: crate::select::beam::BeamStep, number: usize) -> impl IntoView {
    let sentences = &outcome.result.sentences;
    let beams = step
        .beams
        .iter()
        .enumerate()
        .map(|(b, beam)| {
            let expansions: Vec<&Expansion> = step.expansions.iter().filter(|x| x.beam == b).collect();
            let members = if beam.sentences.is_empty() {
                view! { <li class="empty-beam">"(empty summary)"</li> }.into_any()
            } else {
                beam.sentences.iter().map(|&id| view! { <li>{sentence_line(sentences, id)}</li> }).collect_view().into_any()
            };
            let proposals = expansions
                .iter()
                .map(|x| {
                    view! {
                        <li class="expansion">
                            "+ " {sentence_line(sentences, x.sentence)}
                            <span class="numbers">{format!("→ {} · {} words", cosine(x.score), x.cost)}</span>
                            {fate_badge(x.fate)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <li class="beam">
                    <div class="beam-head">
                        <strong>{format!("Beam {}", b + 1)}</strong>
                        <span class="numbers">{format!("similarity {} · {} words", cosine(beam.score), beam.cost)}</span>
                    </div>
                    <ol class="beam-members">{members}</ol>
                    {(!expansions.is_empty()).then(|| view! { <ul class="expansions" aria-label="Proposals">{proposals}</ul> })}
                </li>
            }
        })
        .collect_view();
    let frozen = (!step.frozen.is_empty()).then(|| {
        let items = step.frozen.iter().map(|c| view! { <li>{candidate_line(&outcome.result.sentences, c)}</li> }).collect_view();
        view! {
            <h4>"Became final at this step"</h4>
            <ul class="frozen">{items}</ul>
        }
    });
    view! {
        <div class="beam-step" data-testid="beam-step" data-step=number.to_string()>
            <h4>{format!("Live beams ({})", step.beams.len())}</h4>
            <ol class="beams">{beams}</ol>
            {frozen}
        </div>
    }
}

fn candidate_line(sentences: &[Sentence], c: &Candidate) -> impl IntoView {
    let refs: Vec<String> = c.sentences.iter().map(|&id| format!("{}·{}", article_label(sentences[id].doc), sentences[id].index + 1)).collect();
    format!("{} — similarity {} · {} words", refs.join(" + "), cosine(c.score), c.cost)
}

#[component]
fn Continuations(outcome: Arc<Outcome>, trace: Arc<BeamTrace>) -> impl IntoView {
    (!trace.continuations.is_empty()).then(|| {
        let sentences = &outcome.result.sentences;
        let items = trace
            .continuations
            .iter()
            .map(|c| {
                let added = if c.added.is_empty() {
                    view! { <li class="empty-beam">"nothing more fit"</li> }.into_any()
                } else {
                    c.added.iter().map(|&id| view! { <li>"+ "{sentence_line(sentences, id)}</li> }).collect_view().into_any()
                };
                view! {
                    <li>
                        <p>{candidate_line(sentences, &c.start)}</p>
                        <ul class="expansions">{added}</ul>
                        <p class="numbers">{format!("→ similarity {} · {} words", cosine(c.result.score), c.result.cost)}</p>
                    </li>
                }
            })
            .collect_view();
        view! {
            <h4>"Greedy continuation"</h4>
            <p class="hint">"Each of the best beams is filled up greedily with sentences that still fit."</p>
            <ol class="continuations">{items}</ol>
        }
    })
}

#[component]
fn Finals(outcome: Arc<Outcome>, trace: Arc<BeamTrace>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let items = trace
        .finals
        .iter()
        .enumerate()
        .map(|(rank, candidate)| {
            let outcome = outcome.clone();
            let candidate = candidate.clone();
            let line = candidate_line(&outcome.result.sentences, &candidate);
            let is_shown = move || state.shown.with(|s| s.as_ref().map(|s| s.candidate.unwrap_or(0)) == Some(rank));
            let show = move |_| {
                let order = outcome.settings.order;
                let sentences = order_sentences(&outcome.result.sentences, &outcome.documents, &candidate.sentences, order);
                state.shown.set(Some(Shown {
                    sentences,
                    score: candidate.score,
                    cost: candidate.cost,
                    candidate: (rank > 0).then_some(rank),
                }));
            };
            view! {
                <li class="final" class:shown=is_shown data-testid="beam-candidate" data-rank=rank.to_string()>
                    <span>{format!("#{} ", rank + 1)}{line}</span>
                    <button class="small" on:click=show disabled=is_shown>
                        {move || if is_shown() { "Shown" } else { "Show as summary" }}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <h4>"Final candidates, best first"</h4>
        <p class="hint">"The first is the method's answer. Pick another to read it as the summary."</p>
        <ol class="finals">{items}</ol>
    }
}

#[component]
fn GreedyExplorer(outcome: Arc<Outcome>, trace: GreedyTrace) -> impl IntoView {
    let sentences = &outcome.result.sentences;
    let items = trace
        .steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let runners_up = step
                .runners_up
                .iter()
                .map(|&(id, score)| view! { <li>{sentence_line(sentences, id)}<span class="numbers">{format!("→ {}", cosine(score))}</span></li> })
                .collect_view();
            view! {
                <li class="greedy-step" data-step=k.to_string()>
                    <p>
                        <strong>{format!("Pick {}: ", k + 1)}</strong>
                        {sentence_line(sentences, step.picked)}
                        <span class="numbers">{format!("similarity {} · {} words used", cosine(step.score), step.cost)}</span>
                    </p>
                    <details>
                        <summary>"Best alternatives at this step"</summary>
                        <ul class="expansions">{runners_up}</ul>
                    </details>
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="hint">"Greedy search: at each step, the sentence that brings the summary closest to the centroid is added, as long as it fits."</p>
        <ol class="greedy-steps">{items}</ol>
    }
}
