//! The web app's PDF and Word reader: a wasm module of its own (Trunk builds
//! it from www/index.html with only the `documents` feature), loaded in a
//! worker of its own on the first such file (src/worker/readers.rs), so the
//! first-load bundle does not carry it and a hostile file can be stopped by
//! ending that worker. It runs the core's `documents_from_file`, the same
//! function as `precis segment FILE.pdf`, so both read the same text.
//!
//! Messages: to the main worker first `["started"]`; from it
//! `[name, bytes]` (a Uint8Array); back `["read", documents as JSON]` or
//! `["failed", message]`. Natively there is nothing to run.

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::listen();
}

#[cfg(target_arch = "wasm32")]
mod worker {
    use js_sys::{Array, Function, Reflect, Uint8Array};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    pub fn listen() {
        let on_message = Closure::<dyn Fn(JsValue)>::new(|event: JsValue| post(&answer(&event)));
        let _ = Reflect::set(&js_sys::global(), &"onmessage".into(), on_message.as_ref());
        on_message.forget();
        // Sent once the handler is in place: a message that arrived while
        // the module loaded would have had no listener.
        post(&Array::of1(&"started".into()));
    }

    fn answer(event: &JsValue) -> Array {
        let data: Array = Reflect::get(event, &"data".into()).map(JsCast::unchecked_into).unwrap_or_default();
        let name = data.get(0).as_string().unwrap_or_default();
        let bytes = data.get(1).dyn_into::<Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        let read = precis::input::documents_from_file(&name, &bytes)
            .map_err(|e| e.to_string())
            .and_then(|documents| serde_json::to_string(&documents).map_err(|e| e.to_string()));
        match read {
            Ok(json) => Array::of2(&"read".into(), &json.into()),
            Err(message) => Array::of2(&"failed".into(), &message.into()),
        }
    }

    fn post(message: &Array) {
        let global = js_sys::global();
        if let Ok(post) = Reflect::get(&global, &"postMessage".into()).and_then(|p| p.dyn_into::<Function>()) {
            let _ = post.call1(&global, message);
        }
    }
}
