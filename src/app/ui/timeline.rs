//! The timeline mode: the articles replayed in date order through a
//! streaming policy (run in the worker, `crate::stream::timeline`). Each
//! sentence is decided once when it arrives; selected ones land on a
//! vertical timeline with their time, source and language, skipped ones
//! can be shown with the reason. Play, pause, step and speed control the
//! replay; the policy and its threshold can change at any time (the stream
//! is replayed with the new setting up to the same point).

use super::export_bar::{ExportBar, Render};
use super::link;
use super::state::{AppState, StreamChoice, TimelineOutcome};
use crate::app::export::TimelineExport;
use crate::app::present::{article_label, count, duration, language_name, shorten, title_of};
use crate::stream::Action;
use crate::worker::protocol::Stage;
use crate::dates::format_time;
use crate::registry;
use crate::stream::PolicyKind;
use crate::stream::timeline::StreamEvent;
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// Control changes closer together than this make one new replay.
const RERUN_DELAY: Duration = Duration::from_millis(250);
/// Replay speeds offered (decisions per second).
const SPEEDS: [(f64, &str); 5] = [(1.0, "1 sentence/s"), (4.0, "4 sentences/s"), (10.0, "10 sentences/s"), (30.0, "30 sentences/s"), (100.0, "100 sentences/s")];

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    rerun_on_choice_change(state);
    play_while_playing(state);
    view! {
        <section class="panel timeline" data-testid="timeline" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading"><span class="step">"2"</span>" Timeline"</h2>
            <p class="hint">
                "The articles arrive in the order of their dates, one sentence at a time. A streaming policy decides at once, "
                "without looking ahead, whether each sentence is news worth an update or should be skipped."
            </p>
            <StreamControls/>
            <Replay/>
        </section>
    }
}

#[component]
fn StreamControls() -> impl IntoView {
    let state = expect_context::<AppState>();
    let trained = move || state.stream_offer.with(|o| o.as_ref().is_some_and(|o| o.trained));
    let choice = move || state.stream_choice.get();
    let tuned = move |policy: PolicyKind| state.stream_offer.with(|o| o.as_ref().and_then(|o| o.threshold(policy)));
    // Without the LS weights, a saved LS choice falls back to COS.
    Effect::new(move |_| {
        let known = state.stream_offer.with(|o| o.as_ref().map(|o| o.trained));
        if known == Some(false) && state.stream_choice.with_untracked(|c| c.policy.needs_weights()) {
            state.stream_choice.update(|c| {
                c.policy = PolicyKind::Cos;
                c.threshold = None;
            });
        }
    });
    let options = registry::policies()
        .map(|info| {
            let policy = info.kind;
            let disabled = move || policy.needs_weights() && !trained();
            let label = move || {
                if disabled() { format!("{} — not in this build", info.label) } else { info.label.to_string() }
            };
            view! {
                <option value=info.name selected=move || choice().policy == policy disabled=disabled>{label}</option>
            }
        })
        .collect_view();
    let choose = move |ev| {
        let Ok(policy) = event_target_value(&ev).parse::<PolicyKind>() else { return };
        state.stream_choice.update(|c| {
            c.policy = policy;
            c.threshold = None;
        });
    };
    let has_threshold = move || choice().policy.has_threshold();
    let threshold = move || {
        let c = choice();
        c.threshold.or_else(|| tuned(c.policy)).unwrap_or(0.6)
    };
    let problem = RwSignal::new(None::<String>);
    let set_threshold = move |ev| match event_target_value(&ev).trim().parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => {
            problem.set(None);
            state.stream_choice.update(|c| c.threshold = Some(v));
        }
        _ => problem.set(Some("Enter a cosine between 0 and 1: lower keeps fewer, more different updates.".into())),
    };
    let set_query = move |ev| {
        let text = event_target_value(&ev);
        state.stream_choice.update(|c| c.query = text);
    };
    let note = move || state.stream_offer.with(|o| o.as_ref().and_then(|o| o.note.clone()));
    let running = move || state.timeline_progress.with(Option::is_some);
    let label = move || {
        if state.timeline.with(Option::is_some) { "Replay again".to_string() } else { "Build the timeline".to_string() }
    };
    view! {
        <div class="stream-controls">
            <div class="field">
                <label for="stream-policy" class="field-label">"Policy"</label>
                <select id="stream-policy" on:change=choose aria-describedby="stream-policy-help">{options}</select>
                <p class="hint" id="stream-policy-help">{move || registry::policy(choice().policy).help}</p>
                {move || note().map(|n| view! { <p class="notice" role="status" data-testid="stream-note">{n}</p> })}
            </div>
            <Show when=has_threshold>
                <div class="field">
                    <label for="stream-threshold" class="field-label">"Redundancy threshold (cosine)"</label>
                    <div class="inline-inputs">
                        <input
                            id="stream-threshold-range"
                            type="range"
                            min="0"
                            max="1"
                            step="0.01"
                            aria-label="Redundancy threshold slider"
                            prop:value=move || format!("{:.2}", threshold())
                            on:change=set_threshold
                        />
                        <input
                            id="stream-threshold"
                            type="number"
                            min="0"
                            max="1"
                            step="0.01"
                            aria-describedby="stream-threshold-help"
                            prop:value=move || format!("{:.2}", threshold())
                            on:change=set_threshold
                        />
                    </div>
                    {move || problem.get().map(|p| view! { <p class="error" role="alert" data-testid="error">{p}</p> })}
                    <p class="hint" id="stream-threshold-help">
                        {move || match (choice().threshold, tuned(choice().policy)) {
                            (Some(_), Some(t)) => format!("A sentence this similar to an earlier update is skipped as a repeat. Tuned value: {t:.2}."),
                            _ => "A sentence this similar to an earlier update is skipped as a repeat. This is the tuned value.".to_string(),
                        }}
                    </p>
                </div>
            </Show>
            <div class="field">
                <label for="stream-query" class="field-label">"Event (query)"</label>
                <input
                    id="stream-query"
                    type="text"
                    placeholder="Empty: the earliest article's headline"
                    aria-describedby="stream-query-help"
                    prop:value=move || choice().query
                    on:change=set_query
                />
                <p class="hint" id="stream-query-help">"What the stream is about; the policies compare sentences with it."</p>
            </div>
            <div class="run-row">
                <button
                    class="primary"
                    data-testid="timeline-run"
                    on:click=move |_| link::stream(state)
                    disabled=move || state.cards.with(Vec::is_empty)
                >
                    {label}
                </button>
                <TimelineProgress/>
            </div>
            {move || state.timeline_error.get().map(|e| view! { <p class="error" role="alert" data-testid="error">{e}</p> })}
            {move || (state.stale.get() && state.timeline.with(Option::is_some) && !running()).then(|| view! {
                <p class="notice" role="status">"The articles changed since this timeline. Replay again to update it."</p>
            })}
        </div>
    }
}

#[component]
fn TimelineProgress() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = move || match state.timeline_progress.get() {
        Some(p) if p.stage == Stage::Encoding => format!("{}: {} of {}", p.stage.describe(), p.done, count(p.total, "sentence", "sentences")),
        Some(p) if p.stage == Stage::Selecting => "Replaying the stream…".to_string(),
        Some(p) => format!("{}…", p.stage.describe()),
        None => state
            .timeline
            .with(|t| t.as_ref().map(|t| format!("Replayed in {}", duration(t.timeline.timing_ms))))
            .unwrap_or_default(),
    };
    view! {
        <span
            class="progress-label"
            data-testid="timeline-progress"
            data-state=move || if state.timeline_progress.with(Option::is_some) { "running" } else { "idle" }
            role="status"
            aria-live="polite"
        >
            {text}
        </span>
    }
}

#[component]
fn Replay() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || match state.timeline.get() {
        Some(outcome) => view! { <ReplayView outcome=outcome/> }.into_any(),
        None => view! {
            <p class="empty-state">"Build the timeline to watch the articles arrive and the updates land here, oldest first."</p>
        }
        .into_any(),
    }
}

#[component]
fn ReplayView(outcome: Arc<TimelineOutcome>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let total = outcome.timeline.events.len();
    let show_skipped = state.show_skipped;
    let cursor = move || state.replay.get().min(total);
    let at_end = move || cursor() >= total;
    let toggle_play = move |_| {
        if state.playing.get_untracked() {
            state.playing.set(false);
        } else {
            if state.replay.get_untracked() >= total {
                state.replay.set(0);
            }
            state.playing.set(true);
        }
    };
    let step = move |_| {
        state.playing.set(false);
        state.replay.update(|c| *c = (*c + 1).min(total));
    };
    let back = move |_| {
        state.playing.set(false);
        state.replay.update(|c| *c = c.saturating_sub(1).min(total));
    };
    let restart = move |_| {
        state.playing.set(false);
        state.replay.set(0);
    };
    let to_end = move |_| {
        state.playing.set(false);
        state.replay.set(total);
    };
    let set_speed = move |ev| {
        if let Ok(speed) = event_target_value(&ev).parse::<f64>() {
            state.speed.set(speed);
        }
    };
    let speeds = SPEEDS
        .iter()
        .map(|&(speed, label)| view! { <option value=speed.to_string() selected=move || state.speed.get() == speed>{label}</option> })
        .collect_view();
    let status = {
        let outcome = outcome.clone();
        move || {
            let k = cursor();
            let timeline = &outcome.timeline;
            let arrived = super::state::arrived(timeline, k);
            let updates = timeline.events.iter().take(k).filter(|e| e.action == Action::Select).count();
            format!(
                "{} of {} arrived · {}",
                arrived,
                count(timeline.sentences.len(), "sentence", "sentences"),
                count(updates, "update", "updates")
            )
        }
    };
    let now = {
        let outcome = outcome.clone();
        move || {
            let k = cursor();
            (k > 0).then(|| outcome.timeline.events.get(k - 1).cloned()).flatten().map(|event| {
                view! { <NowDeciding outcome=outcome.clone() event=event/> }
            })
        }
    };
    let entries = {
        let outcome = outcome.clone();
        move || timeline_entries(&outcome, cursor(), show_skipped.get())
    };
    let timeline = &outcome.timeline;
    let order = timeline
        .articles
        .iter()
        .map(|a| {
            let date = a.date.map(format_time).unwrap_or_else(|| "undated".into());
            format!("{} ({date})", article_label(a.card))
        })
        .collect::<Vec<_>>()
        .join(" → ");
    let notes = timeline.notes.iter().map(|n| view! { <p class="notice" role="status">{n.clone()}</p> }).collect_view();
    let summary_line = format!(
        "{} on “{}”{}: {} from {} in {}.",
        registry::policy(timeline.policy).label,
        shorten(&timeline.query, 80),
        timeline.threshold.map(|t| format!(" at threshold {t:.2}")).unwrap_or_default(),
        count(timeline.updates, "update", "updates"),
        count(timeline.sentences.len(), "sentence", "sentences"),
        count(timeline.articles.len(), "article", "articles"),
    );
    view! {
        <p class="summary-meta" data-testid="timeline-meta">{summary_line}</p>
        <p class="hint">{format!("Arrival order: {order}")}</p>
        {notes}
        <div class="replay-bar" role="group" aria-label="Replay">
            <button on:click=restart data-testid="timeline-restart" aria-label="Back to the start">"Restart"</button>
            <button on:click=back data-testid="timeline-back" disabled=move || cursor() == 0 aria-label="One sentence back">"◀"</button>
            <button class="primary" on:click=toggle_play data-testid="timeline-play" aria-pressed=move || state.playing.get().to_string()>
                {move || if state.playing.get() { "Pause" } else if at_end() { "▶ Play again" } else { "▶ Play" }}
            </button>
            <button on:click=step data-testid="timeline-step" disabled=at_end aria-label="Next sentence">"Step ▶"</button>
            <button on:click=to_end data-testid="timeline-end" disabled=at_end>"Show all"</button>
            <label class="inline-label" for="timeline-speed">"Speed"</label>
            <select id="timeline-speed" on:change=set_speed>{speeds}</select>
        </div>
        <input
            type="range"
            class="replay-position"
            data-testid="timeline-position"
            min="0"
            max=total.to_string()
            prop:value=move || cursor().to_string()
            on:input=move |ev| {
                state.playing.set(false);
                state.replay.set(event_target_value(&ev).parse().unwrap_or(0));
            }
            aria-label="Replay position"
            aria-valuetext=status.clone()
        />
        <p class="step-count" aria-live="polite">{status}</p>
        <div class="now-deciding" aria-live="polite">{now}</div>
        <label class="checkbox">
            <input type="checkbox" id="show-skipped" prop:checked=move || show_skipped.get() on:change=move |ev| show_skipped.set(event_target_checked(&ev))/>
            "Show skipped sentences, with the reason"
        </label>
        <ol class="timeline-list" aria-label="Updates, oldest first">{entries}</ol>
        {timeline_export(outcome.clone())}
    }
}

/// The whole timeline's updates as Markdown or JSON, with their sources.
fn timeline_export(outcome: Arc<TimelineOutcome>) -> impl IntoView {
    let empty = outcome.timeline.updates == 0;
    let render: Render = Arc::new(move |format: &str| {
        let export = TimelineExport { timeline: &outcome.timeline, documents: &outcome.documents };
        if format == "json" { export.to_json() } else { export.to_markdown() }
    });
    const FORMATS: &[(&str, &str)] = &[("md", "text/markdown"), ("json", "application/json")];
    view! {
        <ExportBar label="Export the timeline" formats=FORMATS stem="precis-timeline".to_string()
            saved_note=" (all updates, whatever the replay shows)" empty render/>
    }
}

/// The sentence decided last, with its decision.
#[component]
fn NowDeciding(outcome: Arc<TimelineOutcome>, event: StreamEvent) -> impl IntoView {
    let timeline = &outcome.timeline;
    let sentence = &timeline.sentences[event.sentence];
    let article = &timeline.articles[sentence.doc];
    let (class, verdict) = match event.action {
        Action::Select => ("decision select", format!("update {}", event.update.map_or(0, |u| u + 1))),
        Action::Skip => ("decision skip", "skipped".to_string()),
        Action::Defer => ("decision defer", "waiting".to_string()),
    };
    view! {
        <p class="now">
            <span class="chip">{format!("{}·{}", article_label(article.card), sentence.index + 1)}</span>
            " "
            <span class="snippet" lang=sentence.lang.clone()>{shorten(&sentence.text, 140)}</span>
            " "
            <span class=class>{verdict}</span>
            <span class="reason">{format!(" — {}", event.reason)}</span>
        </p>
    }
}

/// What the timeline list shows after `cursor` decisions: article
/// arrivals, updates, and (on demand) skipped and waiting sentences.
fn timeline_entries(outcome: &TimelineOutcome, cursor: usize, show_skipped: bool) -> impl IntoView {
    let timeline = &outcome.timeline;
    let mut items = vec![];
    let mut arrived_docs = 0usize;
    for event in timeline.events.iter().take(cursor) {
        let sentence = &timeline.sentences[event.sentence];
        // An article arrives with the first decision on one of its sentences.
        while arrived_docs <= sentence.doc {
            let article = &timeline.articles[arrived_docs];
            let document = &outcome.documents[article.card];
            let languages: Vec<String> = timeline
                .sentences
                .iter()
                .filter(|s| s.doc == arrived_docs)
                .map(|s| s.lang.clone())
                .fold(vec![], |mut v, l| {
                    if !v.contains(&l) {
                        v.push(l)
                    }
                    v
                });
            let when = article.date.map(format_time).unwrap_or_else(|| "undated".into());
            items.push(
                view! {
                    <li class=format!("arrival doc-{}", article.card % 10) data-testid="timeline-arrival">
                        <span class="chip">{article_label(article.card)}</span>
                        {format!(" arrives · {when} · {} · {}", languages.iter().map(|l| language_name(l)).collect::<Vec<_>>().join(", "), title_of(document))}
                    </li>
                }
                .into_any(),
            );
            arrived_docs += 1;
        }
        let article = &timeline.articles[sentence.doc];
        let document = &outcome.documents[article.card];
        match event.action {
            Action::Select => {
                let when = if article.date.is_some() { format_time(event.time) } else { "undated".into() };
                let iso = crate::dates::CivilDate::from_timestamp(event.time).to_string();
                items.push(
                    view! {
                        <li
                            class=format!("timeline-update doc-{}", article.card % 10)
                            data-testid="timeline-update"
                            data-time=event.time.to_string()
                            data-doc=article.card.to_string()
                            data-index=sentence.index.to_string()
                            data-update=event.update.unwrap_or(0).to_string()
                        >
                            <div class="update-head">
                                <span class="update-number">{format!("{}", event.update.map_or(0, |u| u + 1))}</span>
                                <time datetime=iso>{when}</time>
                                <span class="chip">{article_label(article.card)}</span>
                                <span class="lang-tag" title=language_name(&sentence.lang)>{sentence.lang.clone()}</span>
                                <span class="source-title">{shorten(&title_of(document), 60)}</span>
                            </div>
                            <p class="update-text" lang=sentence.lang.clone()>{sentence.text.clone()}</p>
                            <p class="reason">{event.reason.clone()}</p>
                        </li>
                    }
                    .into_any(),
                );
            }
            Action::Skip | Action::Defer if show_skipped => {
                let (class, testid) = if event.action == Action::Skip {
                    ("timeline-skip", "timeline-skip")
                } else {
                    ("timeline-skip waiting", "timeline-wait")
                };
                items.push(
                    view! {
                        <li class=class data-testid=testid data-doc=article.card.to_string() data-index=sentence.index.to_string()>
                            <span class="chip">{format!("{}·{}", article_label(article.card), sentence.index + 1)}</span>
                            " "
                            <span class="snippet" lang=sentence.lang.clone()>{shorten(&sentence.text, 120)}</span>
                            <span class="reason">{format!(" — {}", event.reason)}</span>
                        </li>
                    }
                    .into_any(),
                );
            }
            _ => {}
        }
    }
    items.collect_view()
}

/// A new replay whenever the policy, threshold or query change, once there
/// is a timeline to update.
fn rerun_on_choice_change(state: AppState) {
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |previous: Option<StreamChoice>| {
        let choice = state.stream_choice.get();
        if previous.is_some_and(|p| p != choice) && state.timeline.with_untracked(Option::is_some) {
            if let Some(handle) = timer.get_value() {
                handle.clear();
            }
            let handle = set_timeout_with_handle(move || link::stream(state), RERUN_DELAY);
            timer.set_value(handle.ok());
        }
        choice
    });
}

/// Advances the replay while playing, at the chosen speed.
fn play_while_playing(state: AppState) {
    let interval = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(handle) = interval.get_value() {
            handle.clear();
            interval.set_value(None);
        }
    };
    Effect::new(move |_| {
        let playing = state.playing.get();
        let speed = state.speed.get();
        stop();
        if !playing {
            return;
        }
        let period = Duration::from_millis((1000.0 / speed.max(0.1)) as u64);
        let handle = set_interval_with_handle(
            move || {
                let total = state.timeline.with_untracked(|t| t.as_ref().map_or(0, |t| t.timeline.events.len()));
                let next = state.replay.get_untracked() + 1;
                if next >= total {
                    state.replay.set(total);
                    state.playing.set(false);
                } else {
                    state.replay.set(next);
                }
            },
            period,
        );
        interval.set_value(handle.ok());
    });
    on_cleanup(stop);
}
