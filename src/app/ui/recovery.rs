//! Notices about something that went wrong outside the user's doing, each
//! with what the user can do: the worker crashed and was restarted (Retry
//! sends again what it lost), or another tab saved other articles. One
//! view draws them all (every view costs first-load bytes).

use super::link;
use super::persist;
use super::state::AppState;
use leptos::prelude::*;

/// A notice: its test id, what happened, and its buttons.
type Notice = (&'static str, &'static str, Vec<Action>);
/// A button: its label, its test id, what it does.
type Action = (&'static str, &'static str, fn(AppState));

fn worker_crash(state: AppState) -> Option<Notice> {
    let crash = state.worker_crash.get()?;
    let text = if crash.restarted {
        "The summarizer stopped (out of memory or an internal error). It has been restarted; your articles are safe."
    } else {
        "The summarizer keeps stopping (out of memory or an internal error). Reload the page to start it again; your articles are saved."
    };
    let mut actions: Vec<Action> = vec![];
    if crash.retry {
        actions.push(("Retry", "retry", link::retry));
    }
    actions.push(("Dismiss", "dismiss", |state| state.worker_crash.set(None)));
    Some(("worker-crash", text, actions))
}

fn other_tab(state: AppState) -> Option<Notice> {
    state.articles_elsewhere.get().then(|| {
        let actions: Vec<Action> = vec![
            ("Load them", "load-other-tab", persist::load_other_tabs_articles),
            ("Keep this tab's (saves over them)", "keep-this-tab", persist::keep_this_tabs_articles),
        ];
        ("other-tab", "The articles were changed in another tab.", actions)
    })
}

#[component]
pub fn Notices() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        [worker_crash(state), other_tab(state)]
            .into_iter()
            .flatten()
            .map(|(testid, text, actions)| {
                let buttons = actions
                    .into_iter()
                    .enumerate()
                    .map(|(i, (label, id, act))| {
                        let class = if i == 0 { "primary" } else { "link" };
                        view! { <button class=class data-testid=id on:click=move |_| act(state)>{label}</button> }
                    })
                    .collect_view();
                view! {
                    <div class="panel recovery-notice" role="alert" data-testid=testid>
                        <p>{text}</p>
                        {buttons}
                    </div>
                }
            })
            .collect_view()
    }
}
