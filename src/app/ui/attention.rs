//! CeRA and CeRAI: the trained head's attention over the sentences (which
//! sentences the learned centroid listens to) as bars, and for CeRAI the
//! share of the centroid that comes from attention rather than the plain
//! mean of all sentences.

use super::state::Outcome;
use crate::app::present::{article_label, shorten};
use leptos::prelude::*;
use std::sync::Arc;

/// Sentences drawn, highest attention first.
const BARS: usize = 15;
const SNIPPET_CHARS: usize = 90;

#[component]
pub fn AttentionView(outcome: Arc<Outcome>) -> impl IntoView {
    let centroid = &outcome.result.summary.centroid;
    let Some(attention) = centroid.attention.clone() else {
        return ().into_any();
    };
    let sentences = &outcome.result.sentences;
    let n = attention.len().min(sentences.len());
    let uniform = 1.0 / n.max(1) as f32;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| attention[b].total_cmp(&attention[a]));
    let top = attention.get(order.first().copied().unwrap_or(0)).copied().unwrap_or(0.0).max(f32::EPSILON);
    let picked: Vec<usize> = outcome.result.summary.sentences.clone();
    let bars = order
        .iter()
        .take(BARS)
        .map(|&id| {
            let s = &sentences[id];
            let weight = attention[id];
            let label = format!("{}·{}", article_label(s.doc), s.index + 1);
            let description = format!("{label}: {:.1}% of the attention{}", weight * 100.0, if picked.contains(&id) { ", in the summary" } else { "" });
            view! {
                <li class=format!("attention-bar doc-{}", s.doc % 10) class:picked=picked.contains(&id) data-testid="attention-bar" data-sentence=id.to_string() aria-label=description>
                    <span class="chip">{label}</span>
                    <span class="bar-track"><span class="bar-fill" style:width=format!("{:.1}%", 100.0 * weight / top)></span></span>
                    <span class="bar-total">{format!("{:.1}%", weight * 100.0)}</span>
                    <span class="snippet" title=s.text.clone()>{shorten(&s.text, SNIPPET_CHARS)}</span>
                </li>
            }
        })
        .collect_view();
    let share = centroid.attention_share.map(|share| {
        view! {
            <p class="attention-share" data-testid="attention-share">
                <strong>{format!("{:.0}%", share * 100.0)}</strong>
                " of CeRAI's centroid comes from the attention, "
                <strong>{format!("{:.0}%", (1.0 - share) * 100.0)}</strong>
                " from the plain mean of all sentences (learned per dimension by α)."
            </p>
            <div class="share-bar" aria-hidden="true">
                <span class="from-attention" style:width=format!("{:.1}%", share * 100.0)></span>
            </div>
        }
    });
    view! {
        <section class="attention" aria-labelledby="attention-heading">
            <h4 id="attention-heading">"What the learned centroid listens to"</h4>
            <p class="hint">
                {format!(
                    "The trained head weighs every sentence (softmax over {n}; an even share would be {:.1}%) and points the centroid at the heavy ones. The {} heaviest:",
                    uniform * 100.0,
                    BARS.min(n)
                )}
            </p>
            {share}
            <ol class="attention-bars">{bars}</ol>
        </section>
    }
    .into_any()
}
