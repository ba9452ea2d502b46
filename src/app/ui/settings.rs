//! Step 2: how to summarize. Every control edits the one `Settings`
//! struct the CLI uses too; the method list and which knobs show come from
//! `app::catalogue`.

use super::state::AppState;
use crate::app::catalogue::{self, help, Knob};
use crate::select::beam::BeamMode;
use crate::summarize::{Budget, Method, Order, Settings};
use leptos::prelude::*;

#[component]
pub fn SettingsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let method = Memo::new(move |_| catalogue::describe(state.settings.with(|s| s.method)));
    let uses = move |knob: Knob| method.with(|m| m.uses(knob));
    let update = move |change: Box<dyn FnOnce(&mut Settings)>| state.settings.update(|s| change(s));
    view! {
        <section class="panel settings" aria-labelledby="settings-heading">
            <div class="panel-head">
                <h2 id="settings-heading"><span class="step">"2"</span>" Settings"</h2>
                <button class="small quiet" on:click=move |_| state.settings.set(Settings::default())>"Defaults"</button>
            </div>
            <MethodField/>
            <Show when=move || uses(Knob::Topic)>
                <TopicField question=Signal::derive(move || uses(Knob::TopicWeight))/>
            </Show>
            <Show when=move || uses(Knob::TopicWeight)>
                <TopicWeightField/>
            </Show>
            <LanguagesField/>
            <BudgetField/>
            <div class="field-grid">
                <NumberField
                    id="first-sentences" label="Leading sentences (n)" help=help::FIRST_SENTENCES
                    min=1.0 max=100.0 step=1.0
                    value=Signal::derive(move || state.settings.with(|s| s.first_sentences as f64))
                    set=Callback::new(move |v: f64| update(Box::new(move |s| s.first_sentences = v as usize)))
                />
                <Show when=move || uses(Knob::BeamWidth)>
                    <NumberField
                        id="beam-width" label="Beam width (B)" help=help::BEAM_WIDTH
                        min=1.0 max=20.0 step=1.0
                        value=Signal::derive(move || state.settings.with(|s| s.beam_width as f64))
                        set=Callback::new(move |v: f64| update(Box::new(move |s| s.beam_width = v as usize)))
                    />
                </Show>
                <Show when=move || uses(Knob::GreedyCandidates)>
                    <NumberField
                        id="greedy-candidates" label="Greedy patience (T)" help=help::GREEDY_CANDIDATES
                        min=1.0 max=100.0 step=1.0
                        value=Signal::derive(move || state.settings.with(|s| s.greedy_candidates as f64))
                        set=Callback::new(move |v: f64| update(Box::new(move |s| s.greedy_candidates = v as usize)))
                    />
                </Show>
                <Show when=move || uses(Knob::Lambda)>
                    <NumberField
                        id="lambda" label="Relevance vs novelty (λ)" help=help::LAMBDA
                        min=0.0 max=1.0 step=0.05
                        value=Signal::derive(move || state.settings.with(|s| rounded(s.lambda)))
                        set=Callback::new(move |v: f64| update(Box::new(move |s| s.lambda = v as f32)))
                    />
                </Show>
                <Show when=move || uses(Knob::Mu)>
                    <NumberField
                        id="mu" label="Position weight (μ)" help=help::MU
                        min=0.0 max=5.0 step=0.05
                        value=Signal::derive(move || state.settings.with(|s| rounded(s.mu)))
                        set=Callback::new(move |v: f64| update(Box::new(move |s| s.mu = v as f32)))
                    />
                </Show>
            </div>
            <Show when=move || uses(Knob::BeamMode)>
                <BeamModeField/>
            </Show>
            <RedundancyField/>
            <OrderField/>
            <ReferenceField/>
        </section>
    }
}

#[component]
fn MethodField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let methods = catalogue::methods();
    let has_reference = move || state.reference.with(|r| !r.trim().is_empty());
    let current = move || state.settings.with(|s| s.method);
    let help_text = move || catalogue::describe(current()).help;
    let options = methods
        .into_iter()
        .map(|info| {
            let needs_reference = info.uses(Knob::Reference);
            let method = info.method;
            // CeRA and CeRAI need their trained heads (models/cera), when shipped.
            let missing_head = move || {
                let (cera, cerai) = state.heads.get();
                match method {
                    Method::Cera => !cera,
                    Method::Cerai => !cerai,
                    _ => false,
                }
            };
            let base = info.label;
            let label = move || {
                if missing_head() {
                    format!("{base} — its trained model is not in this build")
                } else if needs_reference {
                    format!("{base} — needs a reference")
                } else {
                    base.to_string()
                }
            };
            view! {
                <option value=info.name selected=move || current() == method disabled=move || missing_head() || (needs_reference && !has_reference())>
                    {label}
                </option>
            }
        })
        .collect_view();
    let choose = move |ev| {
        if let Ok(method) = event_target_value(&ev).parse::<Method>() {
            state.settings.update(|s| s.method = method);
        }
    };
    view! {
        <div class="field">
            <label for="method" class="field-label">"Method"</label>
            <select id="method" on:change=choose aria-describedby="method-help">{options}</select>
            <p class="hint" id="method-help">{help_text}</p>
        </div>
    }
}

/// Words, sentences or percent, with a number.
#[component]
fn BudgetField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let unit = move || match state.settings.with(|s| s.budget) {
        Budget::Words(_) => "words",
        Budget::Sentences(_) => "sentences",
        Budget::Percent(_) => "percent",
    };
    let amount = move || match state.settings.with(|s| s.budget) {
        Budget::Words(n) | Budget::Sentences(n) => n.to_string(),
        Budget::Percent(p) => p.to_string(),
    };
    let problem = RwSignal::new(None::<String>);
    let set_amount = move |ev| {
        let text = event_target_value(&ev);
        let parsed = text.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0);
        let budget = match (unit(), parsed) {
            ("words", Some(v)) if v <= 100_000.0 => Some(Budget::Words(v.round() as usize)),
            ("sentences", Some(v)) if v <= 1000.0 => Some(Budget::Sentences(v.round() as usize)),
            ("percent", Some(v)) if v <= 100.0 => Some(Budget::Percent(v as f32)),
            _ => None,
        };
        match budget {
            Some(budget) => {
                problem.set(None);
                state.settings.update(|s| s.budget = budget);
            }
            None => problem.set(Some(match unit() {
                "percent" => "Enter a share between 0 and 100 percent.".to_string(),
                "sentences" => "Enter a whole number of sentences, at least 1.".to_string(),
                _ => "Enter a whole number of words, at least 1.".to_string(),
            })),
        }
    };
    let set_unit = move |ev| {
        let budget = match event_target_value(&ev).as_str() {
            "sentences" => Budget::Sentences(5),
            "percent" => Budget::Percent(10.0),
            _ => Budget::Words(100),
        };
        problem.set(None);
        state.settings.update(|s| s.budget = budget);
    };
    let unit_option = move |value: &'static str, label: &'static str| {
        view! { <option value=value selected=move || unit() == value>{label}</option> }
    };
    view! {
        <div class="field">
            <label for="budget" class="field-label">"Length"</label>
            <div class="inline-inputs">
                <input id="budget" type="number" min="1" step="any" inputmode="decimal" prop:value=amount on:change=set_amount aria-describedby="budget-help"/>
                <select id="budget-unit" aria-label="Length unit" on:change=set_unit>
                    {unit_option("words", "words")}
                    {unit_option("sentences", "sentences")}
                    {unit_option("percent", "% of all words")}
                </select>
            </div>
            {move || problem.get().map(|p| view! { <p class="error" role="alert" data-testid="error">{p}</p> })}
            <p class="hint" id="budget-help">{help::BUDGET}</p>
        </div>
    }
}

/// A number within bounds; anything else is refused next to the field.
#[component]
fn NumberField(
    id: &'static str,
    label: &'static str,
    help: &'static str,
    min: f64,
    max: f64,
    step: f64,
    value: Signal<f64>,
    set: Callback<f64>,
) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let help_id = format!("{id}-help");
    let on_change = move |ev| {
        let parsed = event_target_value(&ev).trim().parse::<f64>().ok();
        let whole = step >= 1.0;
        match parsed.filter(|v| *v >= min && *v <= max && (!whole || v.fract() == 0.0)) {
            Some(v) => {
                problem.set(None);
                set.run(v);
            }
            None => problem.set(Some(format!(
                "Enter {} between {min} and {max}.",
                if whole { "a whole number" } else { "a number" }
            ))),
        }
    };
    view! {
        <div class="field">
            <label for=id class="field-label">{label}</label>
            <input
                id=id
                type="number"
                min=min.to_string()
                max=max.to_string()
                step=step.to_string()
                prop:value=move || value.get().to_string()
                on:change=on_change
                aria-describedby=help_id.clone()
            />
            {move || problem.get().map(|p| view! { <p class="error" role="alert" data-testid="error">{p}</p> })}
            <p class="hint" id=help_id>{help}</p>
        </div>
    }
}

#[component]
fn BeamModeField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let mode = move || state.settings.with(|s| s.beam_mode);
    let radio = move |value: BeamMode, label: &'static str| {
        view! {
            <label class="radio">
                <input
                    type="radio"
                    name="beam-mode"
                    prop:checked=move || mode() == value
                    on:change=move |_| state.settings.update(|s| s.beam_mode = value)
                />
                {label}
            </label>
        }
    };
    view! {
        <fieldset class="field">
            <legend class="field-label">"Beam mode"</legend>
            <div class="inline-inputs">
                {radio(BeamMode::Fill, "Fill (ours)")}
                {radio(BeamMode::Paper, "Paper (as published)")}
            </div>
            <p class="hint">{help::BEAM_MODE}</p>
        </fieldset>
    }
}

#[component]
fn RedundancyField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let threshold = move || state.settings.with(|s| s.redundancy);
    let problem = RwSignal::new(None::<String>);
    let toggle = move |ev| {
        let on = event_target_checked(&ev);
        state.settings.update(|s| s.redundancy = on.then_some(0.9));
        problem.set(None);
    };
    let set_value = move |ev| match event_target_value(&ev).trim().parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => {
            problem.set(None);
            state.settings.update(|s| s.redundancy = Some(v));
        }
        _ => problem.set(Some("Enter a cosine between 0 and 1 (0.9 skips only near-repeats).".into())),
    };
    view! {
        <div class="field">
            <div class="inline-inputs">
                <label class="checkbox">
                    <input type="checkbox" id="redundancy-on" prop:checked=move || threshold().is_some() on:change=toggle/>
                    "Skip near-repeats above"
                </label>
                <input
                    id="redundancy"
                    type="number"
                    min="0"
                    max="1"
                    step="0.01"
                    aria-label="Redundancy threshold (cosine)"
                    disabled=move || threshold().is_none()
                    prop:value=move || format!("{:.2}", threshold().unwrap_or(0.9))
                    on:change=set_value
                />
            </div>
            {move || problem.get().map(|p| view! { <p class="error" role="alert" data-testid="error">{p}</p> })}
            <p class="hint">{help::REDUNDANCY}</p>
        </div>
    }
}

#[component]
fn OrderField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let order = move || state.settings.with(|s| s.order);
    let option = move |value: Order, name: &'static str, label: &'static str| {
        view! { <option value=name selected=move || order() == value>{label}</option> }
    };
    let choose = move |ev| {
        let order = match event_target_value(&ev).as_str() {
            "chronological" => Order::Chronological,
            "score" => Order::Score,
            _ => Order::Position,
        };
        state.settings.update(|s| s.order = order);
    };
    view! {
        <div class="field">
            <label for="order" class="field-label">"Order of sentences"</label>
            <select id="order" on:change=choose aria-describedby="order-help">
                {option(Order::Position, "position", "As in the articles")}
                {option(Order::Chronological, "chronological", "By date (TBMMR: by sentence date, or grouped by day)")}
                {option(Order::Score, "score", "In the order picked")}
            </select>
            <p class="hint" id="order-help">{help::ORDER}</p>
        </div>
    }
}

/// An f32 knob as the field shows it (0.7, not 0.699999988).
fn rounded(value: f32) -> f64 {
    (value as f64 * 1000.0).round() / 1000.0
}

/// The topic description MMR and TBMMR compare sentences with, or the
/// question that steers the centroid methods (`question`).
#[component]
fn TopicField(question: Signal<bool>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let set_topic = move |ev| {
        let text = event_target_value(&ev);
        let topic = Some(text.trim().to_string()).filter(|t| !t.is_empty());
        state.settings.update(|s| s.topic = topic);
    };
    view! {
        <div class="field">
            <label for="topic" class="field-label">{move || if question.get() { "Question or topic" } else { "Topic" }}</label>
            <textarea
                id="topic"
                rows="2"
                placeholder="e.g. The container ship that ran aground and its salvage"
                aria-describedby="topic-help"
                prop:value=move || state.settings.with(|s| s.topic.clone().unwrap_or_default())
                on:change=set_topic
            ></textarea>
            <p class="hint" id="topic-help">{move || if question.get() { help::QUESTION } else { help::TOPIC }}</p>
        </div>
    }
}

/// w: how far the question pulls the centroid, 0 to 1.
#[component]
fn TopicWeightField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let weight = move || state.settings.with(|s| s.topic_weight);
    let no_topic = move || state.settings.with(|s| s.topic.is_none());
    view! {
        <div class="field">
            <label for="topic-weight" class="field-label">"Pull towards the question: "<output data-testid="topic-weight-value">{move || format!("{:.2}", weight())}</output></label>
            <input
                id="topic-weight"
                data-testid="topic-weight"
                type="range"
                min="0"
                max="1"
                step="0.05"
                disabled=no_topic
                aria-describedby="topic-weight-help"
                prop:value=move || weight().to_string()
                on:input=move |ev| {
                    let w = event_target_value(&ev).parse::<f32>().unwrap_or(0.0).clamp(0.0, 1.0);
                    state.settings.update(|s| s.topic_weight = w);
                }
            />
            <p class="hint" id="topic-weight-help">{help::TOPIC_WEIGHT}</p>
        </div>
    }
}

/// Summary languages: one checkbox per language detected in the articles
/// (shown once there are two, or a choice is set); none checked is any.
#[component]
fn LanguagesField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let detected = Memo::new(move |_| {
        let mut languages: Vec<String> = vec![];
        state.cards.with(|cards| {
            for lang in cards.iter().flat_map(|c| &c.article.facts.languages) {
                if lang != crate::segment::UNDETERMINED && !languages.contains(lang) {
                    languages.push(lang.clone());
                }
            }
        });
        state.settings.with(|s| s.languages.iter().filter(|l| !languages.contains(l)).cloned().collect::<Vec<_>>()).into_iter().for_each(|l| languages.push(l));
        languages
    });
    let toggle = move |lang: String, on: bool| {
        state.settings.update(|s| {
            s.languages.retain(|l| *l != lang);
            if on {
                s.languages.push(lang);
            }
        })
    };
    let boxes = move || {
        detected
            .get()
            .into_iter()
            .map(|lang| {
                let (code, name) = (lang.clone(), crate::segment::language_name(&lang));
                let checked = { let lang = lang.clone(); move || state.settings.with(|s| s.languages.contains(&lang)) };
                view! {
                    <label class="checkbox">
                        <input type="checkbox" data-testid="summary-language" value=code prop:checked=checked on:change=move |ev| toggle(lang.clone(), event_target_checked(&ev))/>
                        {name}
                    </label>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || detected.with(|d| d.len() >= 2)>
            <fieldset class="field" id="summary-languages">
                <legend class="field-label">"Summary language"</legend>
                <div class="inline-inputs">{boxes}</div>
                <p class="hint">{help::LANGUAGES}</p>
            </fieldset>
        </Show>
    }
}

#[component]
fn ReferenceField() -> impl IntoView {
    let state = expect_context::<AppState>();
    let needs_it = move || state.settings.with(|s| s.method.needs_reference()) && state.reference.with(|r| r.trim().is_empty());
    view! {
        <details class="field reference" open=move || state.reference.with(|r| !r.is_empty()) || needs_it()>
            <summary>"Reference summary (optional)"</summary>
            <label for="reference" class="field-label">"Your own summary of these articles"</label>
            <textarea
                id="reference"
                rows="4"
                aria-describedby="reference-help"
                prop:value=move || state.reference.get()
                on:input=move |ev| {
                    state.reference.set(event_target_value(&ev));
                    state.input_changed();
                }
            ></textarea>
            <p class="hint" id="reference-help">{help::REFERENCE}</p>
            {move || needs_it().then(|| view! {
                <p class="error" role="alert" data-testid="error">"The oracle method needs a reference summary: write one here, or pick another method."</p>
            })}
        </details>
    }
}
