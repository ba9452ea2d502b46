//! The worker's entry point and its inbox: messages from the page (`[json,
//! files?]` arrays) are queued and handed to `jobs` one at a time; answers
//! go back as JSON strings. Above `jobs` and `runtime`, so neither points
//! back here.

use super::jobs;
use super::protocol::{Request, Response};
use super::runtime::{self, post, scope, with_state};
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Blob, MessageEvent};

/// Entry point in the worker.
pub fn start() {
    console_error_panic_hook::set_once();
    if super::pool::is_helper() {
        return super::pool::serve();
    }
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(receive);
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Response::Started);
    spawn_local(async {
        // The small downloads before the model. The heads' 3 MB come when a
        // summary needs them, or after the first summary (or a few idle
        // seconds), with the rest of the embedding table
        // (`runtime::load_heads`): the page offers them from the list.
        runtime::load_stream_settings().await;
        let (cera, cerai) = super::assets::heads_shipped().await;
        post(&Response::Heads { cera, cerai });
        runtime::load_model().await;
    });
}

fn receive(event: MessageEvent) {
    match decode(&event.data()) {
        Ok(incoming) => with_state(|s| s.queue.push_back(incoming)),
        Err(message) => post(&Response::Failed { id: 0, message }),
    }
    if !with_state(|s| std::mem::replace(&mut s.draining, true)) {
        spawn_local(drain());
    }
}

fn decode(data: &JsValue) -> Result<(Request, Vec<Blob>), String> {
    let parts: Array = data.clone().dyn_into().map_err(|_| "The page sent a malformed message.".to_string())?;
    let json = parts.get(0).as_string().ok_or("The page sent a malformed message.")?;
    let request = serde_json::from_str(&json).map_err(|e| format!("The page sent a malformed request: {e}"))?;
    let files = match parts.get(1).dyn_into::<Array>() {
        Ok(list) => list.iter().filter_map(|f| f.dyn_into::<Blob>().ok()).collect(),
        Err(_) => vec![],
    };
    Ok((request, files))
}

async fn drain() {
    while let Some((request, files)) = with_state(|s| s.queue.pop_front()) {
        if let Some(response) = jobs::handle(request, files).await {
            post(&response);
        }
    }
    let epoch = with_state(|s| {
        s.draining = false;
        s.idle_epoch += 1;
        s.idle_epoch
    });
    spawn_local(runtime::prepare_plans_while_idle(epoch));
}
