//! A small key-value store on IndexedDB: one database, one object store,
//! one record per key. Each write is a transaction of its own, so it lands
//! whole or not at all: a write the browser refuses (quota) rolls back and
//! leaves the previous record as it was. Unlike localStorage it is not
//! capped at ~5 MB, and it never blocks the page.

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransaction, IdbTransactionMode};

const DATABASE: &str = "precis";
const STORE: &str = "saved";

/// Why a write did not land.
#[derive(Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The browser's storage for this site is full.
    Quota,
    Other,
}

/// Resolves with the request's success, rejects with its error.
fn finished(request: &IdbRequest) -> JsFuture {
    JsFuture::from(Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    }))
}

/// Resolves when the transaction commits, rejects when it aborts.
fn committed(transaction: &IdbTransaction) -> JsFuture {
    JsFuture::from(Promise::new(&mut |resolve, reject| {
        transaction.set_oncomplete(Some(&resolve));
        transaction.set_onabort(Some(&reject));
    }))
}

/// Opens (creating on first use) the database; None when this browser has
/// no IndexedDB (some private modes), refuses it, or does not answer within
/// `timeout_ms` (the page waits for it before showing anything).
pub async fn open(timeout_ms: i32) -> Option<IdbDatabase> {
    let window = web_sys::window()?;
    let request: IdbOpenDbRequest = window.indexed_db().ok()??.open_with_u32(DATABASE, 1).ok()?;
    let create_store = Closure::once_into_js(|event: web_sys::Event| {
        let db = event.target().and_then(|t| t.unchecked_into::<IdbOpenDbRequest>().result().ok());
        if let Some(db) = db {
            let _ = db.unchecked_into::<IdbDatabase>().create_object_store(STORE);
        }
    });
    request.set_onupgradeneeded(Some(create_store.unchecked_ref()));
    let opened = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let timeout = Promise::new(&mut |resolve, _| {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, timeout_ms);
    });
    let _ = JsFuture::from(Promise::race(&js_sys::Array::of2(&opened, &timeout))).await;
    // Still pending (timed out), the result getter throws; failed, it is
    // no database.
    request.result().ok().and_then(|db| db.dyn_into().ok())
}

/// The record stored under `key` (a string), if any; Err when it could not
/// be read.
pub async fn get(db: &IdbDatabase, key: &str) -> Result<Option<String>, JsValue> {
    let request = db.transaction_with_str(STORE)?.object_store(STORE)?.get(&key.into())?;
    finished(&request).await?;
    Ok(request.result()?.as_string())
}

/// Stores `value` under `key` in one transaction; resolves once committed.
pub async fn put(db: &IdbDatabase, key: &str, value: &str) -> Result<(), WriteError> {
    let transaction = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite).map_err(|e| write_error(&e))?;
    let done = committed(&transaction);
    let put = transaction.object_store(STORE).and_then(|store| store.put_with_key(&value.into(), &key.into()));
    if let Err(thrown) = put {
        // Thrown before the write was queued: nothing was written; end the
        // transaction so it cannot commit half of anything.
        let _ = transaction.abort();
        return Err(write_error(&thrown));
    }
    match done.await {
        Ok(_) => Ok(()),
        Err(_) => Err(transaction.error().map_or(WriteError::Other, |e| write_error(&e))),
    }
}

fn write_error(error: &JsValue) -> WriteError {
    let name = js_sys::Reflect::get(error, &"name".into()).ok().and_then(|n| n.as_string());
    if name.as_deref() == Some("QuotaExceededError") {
        WriteError::Quota
    } else {
        WriteError::Other
    }
}
