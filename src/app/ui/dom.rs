//! Small browser chores: downloads, the clipboard, scrolling to a source
//! sentence, and performance marks the benchmark reads.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The id of a sentence's element in the Sources view.
pub fn sentence_element_id(sentence: usize) -> String {
    format!("sentence-{sentence}")
}

/// A `performance.mark`, for the benchmark (tests/e2e/bench-app.mjs).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// Marks the first frame after mounting: the page is interactive.
pub fn announce_ready() {
    leptos::prelude::request_animation_frame(|| {
        mark("precis:interactive");
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-ready", "true");
        }
    });
}

/// Offers `content` as a file download.
pub fn download(file_name: &str, mime: &str, content: &str) -> Result<(), String> {
    let failed = |_| "The browser refused to create the file.".to_string();
    let parts = js_sys::Array::of1(&content.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(&format!("{mime};charset=utf-8"));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let document = leptos::prelude::document();
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a").map_err(failed)?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

pub async fn copy_text(text: &str) -> Result<(), String> {
    let clipboard = leptos::prelude::window().navigator().clipboard();
    JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| "The browser did not allow copying; select the summary and copy it by hand.".to_string())
}

/// Scrolls the Sources view to a sentence and highlights it (only one
/// sentence is highlighted at a time).
pub fn reveal_sentence(sentence: usize) {
    let document = leptos::prelude::document();
    if let Ok(previous) = document.query_selector_all(".sentence.highlight") {
        for i in 0..previous.length() {
            if let Some(element) = previous.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let _ = element.class_list().remove_1("highlight");
            }
        }
    }
    let Some(element) = document.get_element_by_id(&sentence_element_id(sentence)) else { return };
    let _ = element.class_list().add_1("highlight");
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_behavior(web_sys::ScrollBehavior::Smooth);
    options.set_block(web_sys::ScrollLogicalPosition::Center);
    element.scroll_into_view_with_scroll_into_view_options(&options);
    if let Ok(html) = element.dyn_into::<web_sys::HtmlElement>() {
        let _ = html.focus();
    }
}
