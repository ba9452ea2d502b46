//! The Copy and Export buttons under a summary and under a timeline, with
//! their feedback: one bar, given what to call the file and how to render
//! each format.

use super::dom;
use leptos::prelude::*;
use std::sync::Arc;

/// Renders the export in one format ("txt", "md" or "json").
pub type Render = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// `formats` are (extension, MIME type); `copy` adds a Copy button (the
/// .txt rendering); a saved file is `{stem}.{extension}` and its notice
/// reads "Saved {file}{saved_note}."
#[component]
pub fn ExportBar(
    label: &'static str,
    formats: &'static [(&'static str, &'static str)],
    #[prop(optional)] copy: bool,
    stem: String,
    #[prop(optional)] saved_note: &'static str,
    empty: bool,
    render: Render,
) -> impl IntoView {
    let feedback = RwSignal::new(None::<(bool, String)>);
    let copy_button = copy.then(|| {
        let render = render.clone();
        let on_copy = move |_| {
            let text = render("txt");
            leptos::task::spawn_local(async move {
                feedback.set(Some(match dom::copy_text(&text).await {
                    Ok(()) => (true, "Copied with sources.".to_string()),
                    Err(e) => (false, e),
                }));
            });
        };
        view! { <button on:click=on_copy disabled=empty>"Copy"</button> }
    });
    let buttons = formats
        .iter()
        .map(|&(extension, mime)| {
            let render = render.clone();
            let stem = stem.clone();
            let on_save = move |_| {
                let name = format!("{stem}.{extension}");
                feedback.set(Some(match dom::download(&name, mime, &render(extension)) {
                    Ok(()) => (true, format!("Saved {name}{saved_note}.")),
                    Err(e) => (false, e),
                }));
            };
            view! { <button on:click=on_save disabled=empty>{format!("Export .{extension}")}</button> }
        })
        .collect_view();
    view! {
        <div class="button-row export" role="group" aria-label=label>
            {copy_button}
            {buttons}
        </div>
        {move || feedback.get().map(|(ok, message)| if ok {
            view! { <p class="notice" role="status">{message}</p> }.into_any()
        } else {
            view! { <p class="error" role="alert" data-testid="error">{message}</p> }.into_any()
        })}
    }
}
