//! The articles as the summarizer saw them: split into sentences, the
//! picked ones numbered, candidates and the rest told apart. Summary
//! sentences scroll here when clicked.

use super::choices::ChoiceButtons;
use super::dom::sentence_element_id;
use super::state::{AppState, Outcome};
use crate::app::present::{article_label, count, iso_date, language_name, title_of};
use leptos::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

#[component]
pub fn SourcesView() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || match state.result.get() {
        Some(outcome) => view! { <SourceArticles outcome=outcome/> }.into_any(),
        None => view! { <p class="empty-state">"After summarizing, the articles appear here split into sentences."</p> }.into_any(),
    }
}

#[component]
fn SourceArticles(outcome: Arc<Outcome>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let picked = Memo::new(move |_| state.shown.with(|s| s.as_ref().map(|s| s.sentences.clone()).unwrap_or_default()));
    let candidates: HashSet<usize> = outcome.result.summary.candidates.iter().copied().collect();
    let doubted: HashSet<usize> = outcome.result.summary.doubted.iter().copied().collect();
    let sentences = &outcome.result.sentences;
    let articles = outcome
        .documents
        .iter()
        .enumerate()
        .map(|(doc, document)| {
            let ids: Vec<usize> = (0..sentences.len()).filter(|&i| sentences[i].doc == doc).collect();
            let mut languages: Vec<String> = ids.iter().map(|&i| sentences[i].lang.clone()).collect();
            languages.sort();
            languages.dedup();
            let languages: Vec<String> = languages.iter().map(|l| language_name(l)).collect();
            let date = document.timestamp.map(iso_date).map(|d| format!(" · {d}")).unwrap_or_default();
            let paragraphs = paragraphs_of(&ids, |i| sentences[i].para)
                .into_iter()
                .map(|para| {
                    let spans = para
                        .into_iter()
                        .map(|id| {
                            let sentence = &sentences[id];
                            let status = if candidates.contains(&id) {
                                "candidate"
                            } else if sentence.excluded.is_some() {
                                "excluded furniture"
                            } else {
                                "excluded"
                            };
                            // Page furniture, fragments and the prose reader's doubts say why, visibly.
                            let doubt = doubted.contains(&id).then(|| crate::segment::prose_reader::DOUBTED.to_string());
                            let reason = sentence.excluded.clone().or(doubt);
                            let why = reason.clone().map(|r| view! { " "<small class="furniture-reason">{format!("({r})")}</small> });
                            let number = move || picked.with(|p| p.iter().position(|&x| x == id)).map(|n| view! { <sup class="pick-number">{n + 1}</sup> });
                            let lang = (sentence.lang != "und").then(|| sentence.lang.clone());
                            let pinned = outcome.result.summary.pinned.contains(&id);
                            let struck = outcome.result.summary.struck.contains(&id);
                            view! {
                                <span class="sentence-wrap" data-testid="source-sentence" data-doc=doc.to_string() data-index=sentence.index.to_string()>
                                <span
                                    id=sentence_element_id(id)
                                    class=format!("sentence {status}")
                                    class:picked=move || picked.with(|p| p.contains(&id))
                                    class:pinned=pinned
                                    class:struck=struck
                                    lang=lang
                                    tabindex="-1"
                                    data-doc=doc.to_string()
                                    data-index=sentence.index.to_string()
                                    title=reason
                                >
                                    {number}
                                    {sentence.text.clone()}
                                    {why}
                                </span>
                                <ChoiceButtons doc_id=document.id.clone() text=sentence.text.clone()/>
                                </span>
                                " "
                            }
                        })
                        .collect_view();
                    view! { <p>{spans}</p> }
                })
                .collect_view();
            view! {
                <article class=format!("source doc-{}", doc % 10) aria-labelledby=format!("source-{doc}")>
                    <h3 id=format!("source-{doc}")>
                        <span class="chip">{article_label(doc)}</span>" "{title_of(document)}
                    </h3>
                    <p class="card-meta">{format!("{}{date} · {}", languages.join(", "), count(ids.len(), "sentence", "sentences"))}</p>
                    {paragraphs}
                </article>
            }
        })
        .collect_view();
    view! {
        <p class="legend">
            <span class="sentence picked">"Numbered"</span>": in the summary. "
            <span class="sentence candidate">"Plain"</span>": could have been picked. "
            <span class="sentence excluded">"Grey"</span>": not a candidate (beyond the first n prose sentences of its article, too long for the budget, saying nothing alone in a summary (too short, only a date, presenting what follows it, or trailing off), reading too much like a caption, headline or post to be a summary line, a quoted original in another script than its article, or a repeat). "
            <span class="sentence excluded furniture">"Grey, with a reason"</span>": not prose (page furniture such as credits, share buttons and labels, a fragment, or a line that reads like a caption, headline or blurb), never a candidate."
        </p>
        {articles}
    }
}

/// Sentence ids grouped by paragraph, in order.
fn paragraphs_of(ids: &[usize], para: impl Fn(usize) -> usize) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = vec![];
    for &id in ids {
        match groups.last_mut() {
            Some(group) if para(group[0]) == para(id) => group.push(id),
            _ => groups.push(vec![id]),
        }
    }
    groups
}
