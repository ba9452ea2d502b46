//! What the worker downloads and keeps in the Cache API: the encoder's
//! files (checked against the manifest's sizes and sha256), the trained
//! centroid heads and the streaming policies' settings. Every file is
//! fetched from the app's own origin; offline, the cached copy answers.
//!
//! A cached model file that no longer matches its sha256 (a disk error, a
//! write cut short) is deleted and downloaded again; a download that does
//! not match is refused and not kept. The hash is the browser's WebCrypto
//! (native code, off the worker's thread), which exists wherever the Cache
//! API does (secure contexts); without it only sizes are checked.

use super::runtime::now;
use super::table_blocks::{self, TableFile, TableStart};
use crate::centroid::{CeraHead, Heads};
use crate::encoder::Network;
use crate::stream::settings::StreamSettings;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use std::cell::Cell;
use web_sys::{Cache, DedicatedWorkerGlobalScope, ReadableStreamDefaultReader, RequestCache, RequestInit};

/// Model files, relative to the app's root (where the worker script is).
const MODEL_DIR: &str = "models/muse-v3/";
/// The int8 encoder, as the CLI's and the Python package's default
/// (`precis::models::Precision`), so that the app gives their summaries,
/// in the files `models/build.py` writes for the app (issue #43): the
/// graph typed and decluttered from encoder-int8.onnx, and tokenizer.json
/// parsed and sorted (`precis::encoder::{graph_file, tokenizer_file}`), so
/// that a page load does neither again.
/// The embedding table (table.u8) is read apart: by blocks, on demand
/// (`super::table_blocks`).
const MODEL_FILES: [&str; 2] = ["encoder-int8.graph", "tokenizer.bin"];
pub(super) const TABLE_FILE: &str = "table.u8";
const MODEL_CACHE: &str = "precis-models";
/// The trained centroid heads (CeRA, CeRAI), when this build ships them.
const HEAD_FILES: [&str; 2] = ["models/cera/cera.onnx", "models/cera/cerai.onnx"];
/// Which of them the build ships: `{"cera": bool, "cerai": bool}`.
const HEADS_SHIPPED: &str = "models/cera/shipped.json";
/// Where the trained stream settings (LS weights, tuned thresholds) are served.
pub const STREAM_SETTINGS: &str = "models/stream/ls.json";

/// Told (bytes done, bytes in all) while the model downloads.
pub type Progress<'a> = &'a dyn Fn(u64, u64);

pub(super) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// The encoder's files as read: the network, built from its file as soon
/// as that is in and checked (the engine reads the tokenizer and the
/// table's head meanwhile), and the seconds that took; the files' contents
/// (network, tokenizer); the embedding table's start (its head, or the
/// whole file); whether all came from the cache; the seconds spent
/// checking the downloaded ones' sha256; and the other cached files'
/// checks, still running.
pub struct ModelFiles {
    pub network: Option<anyhow::Result<Network>>,
    pub network_seconds: f64,
    pub contents: Vec<Vec<u8>>,
    pub table: TableStart,
    pub from_cache: bool,
    pub hash_seconds: f64,
    pub checks: Vec<PendingCheck>,
}

/// The encoder's files, the network built by `build_network` (given the
/// file and whether it came from the cache). Errors are for the user.
pub async fn model_files(
    progress: Progress<'_>,
    build_network: impl FnOnce(&[u8], bool) -> anyhow::Result<Network>,
) -> Result<ModelFiles, String> {
    // The Cache API is missing outside secure contexts: download then.
    let cache = open_cache().await;
    let manifest = fetch_manifest(cache.as_ref()).await?;
    let files = MODEL_FILES
        .iter()
        .map(|name| manifest_entry(&manifest, name))
        .collect::<Result<Vec<ModelFile>, String>>()?;
    let table_file = TableFile::from_manifest(&manifest)?;
    let total: u64 = files.iter().map(|f| f.bytes).sum::<u64>() + table_file.head_bytes() as u64;
    let mut done = 0;
    let mut from_cache = true;
    let mut contents = vec![];
    let mut checks = vec![];
    let (mut build_network, mut network, mut network_seconds) = (Some(build_network), None, 0.0);
    let hashing = Cell::new(0.0);
    // Every file's `cache.match` starts now, so that the engine reads the
    // tokenizer while the network is built.
    let mut found: Vec<Option<JsFuture>> =
        files.iter().map(|file| cache.as_ref().map(|cache| JsFuture::from(cache.match_with_str(&file.url)))).collect();
    for (index, file) in files.iter().enumerate() {
        let cached = match found[index].take() {
            Some(found) => cached_file_found(cache.as_ref(), file, found).await,
            None => None,
        };
        let cached = match cached {
            // The network's copy must pass its check before it is read (a
            // damaged graph file could fail in any way); one that does not
            // is deleted, and downloaded below.
            Some((data, check)) if index == 0 => cached_files_intact(vec![check], &hashing).await.then_some(data),
            Some((data, check)) => {
                checks.push(check);
                Some(data)
            }
            None => None,
        };
        let data = match cached {
            Some(data) => data,
            None => {
                from_cache = false;
                download(file, cache.as_ref(), &|n| progress(done + n, total), &hashing).await?
            }
        };
        done += file.bytes;
        if let Some(build_network) = build_network.take() {
            let started = now();
            network = Some(build_network(&data, from_cache));
            network_seconds = (now() - started) / 1000.0;
        }
        contents.push(data);
    }
    let mut table = table_blocks::read_start(cache.as_ref(), &table_file, &hashing).await?;
    from_cache &= table.from_cache;
    checks.extend(table.check.take());
    if let Some(cache) = cache {
        // Not awaited: nothing the model needs.
        let current: Vec<String> = files.iter().chain([&table_file.file]).map(|f| f.url.clone()).collect();
        wasm_bindgen_futures::spawn_local(async move { prune(&cache, &current).await });
    }
    table_blocks::set_file(table_file);
    Ok(ModelFiles { network, network_seconds, contents, table, from_cache, hash_seconds: hashing.get(), checks })
}

/// A model file as the manifest describes it.
pub(super) struct ModelFile {
    /// Versioned by the file's hash, so a new model never hits an old
    /// cache entry.
    pub url: String,
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
}

/// The cached copy of a model file, if it has the manifest's size, with
/// its sha256 check started. A copy of another size is deleted (then
/// downloaded again).
pub(super) async fn cached_file(cache: Option<&Cache>, file: &ModelFile) -> Option<(Vec<u8>, PendingCheck)> {
    let found = JsFuture::from(cache?.match_with_str(&file.url));
    cached_file_found(cache, file, found).await
}

/// [`cached_file`], its `cache.match` already started.
async fn cached_file_found(cache: Option<&Cache>, file: &ModelFile, found: JsFuture) -> Option<(Vec<u8>, PendingCheck)> {
    let bytes = matched_bytes(found).await?;
    if bytes.len() as u64 != file.bytes {
        discard_damaged(cache?, &file.url).await;
        return None;
    }
    let check = PendingCheck::start(&file.url, &bytes, &file.sha256);
    Some((bytes, check))
}

async fn discard_damaged(cache: &Cache, url: &str) {
    web_sys::console::warn_1(
        &format!("Précis: the cached {url} does not match its size or sha256 in the manifest; downloading it again.").into(),
    );
    let _ = JsFuture::from(cache.delete_with_str(url)).await;
}

/// A cached file's sha256, started as the file is read. WebCrypto hashes
/// a copy off the worker's thread, so the encoder is built from the bytes
/// meanwhile; a reload used to wait 0.07-0.11 s for it first (docs/speed.md).
pub struct PendingCheck {
    url: String,
    digest: Option<JsFuture>,
    expected: String,
}

impl PendingCheck {
    pub(super) fn start(url: &str, bytes: &[u8], expected: &str) -> Self {
        PendingCheck { url: url.to_string(), digest: start_sha256(bytes), expected: expected.to_string() }
    }

    /// Whether the file hashed to the manifest's sha256; a damaged copy is
    /// deleted, so that the next read downloads it.
    async fn passes(self) -> bool {
        if sha256_is(self.digest, &self.expected).await {
            return true;
        }
        if let Some(cache) = open_cache().await {
            discard_damaged(&cache, &self.url).await;
        }
        false
    }
}

/// Waits for the cached files' checks: false when one was damaged (its copy
/// is then deleted). The seconds waited are added to `hashing`.
pub async fn cached_files_intact(checks: Vec<PendingCheck>, hashing: &Cell<f64>) -> bool {
    let started = now();
    let mut intact = true;
    for check in checks {
        intact &= check.passes().await;
    }
    hashing.set(hashing.get() + (now() - started) / 1000.0);
    intact
}

/// Whether `bytes` hash to `expected` (hex); true when this browser cannot
/// hash (no WebCrypto outside secure contexts: the size was checked). The
/// seconds it took are added to `hashing`.
pub(super) async fn sha256_matches(bytes: &[u8], expected: &str, hashing: &Cell<f64>) -> bool {
    let started = now();
    let matches = sha256_is(start_sha256(bytes), expected).await;
    hashing.set(hashing.get() + (now() - started) / 1000.0);
    matches
}

/// WebCrypto's SHA-256 of a copy of `bytes`, running; None without WebCrypto.
fn start_sha256(bytes: &[u8]) -> Option<JsFuture> {
    let subtle = scope().crypto().ok()?.subtle();
    subtle.digest_with_str_and_u8_array("SHA-256", bytes).ok().map(JsFuture::from)
}

async fn sha256_is(digest: Option<JsFuture>, expected: &str) -> bool {
    let Some(digest) = digest else { return true };
    match digest.await {
        Ok(buffer) => {
            let hex: String = Uint8Array::new(&buffer).to_vec().iter().map(|b| format!("{b:02x}")).collect();
            hex == expected
        }
        Err(_) => true,
    }
}

/// Which heads this build ships (CeRA, CeRAI), from the list the build
/// writes beside them (www/build/postbuild.mjs), so that the page can offer
/// them before their 3 MB are fetched.
pub async fn heads_shipped() -> (bool, bool) {
    let cache = open_cache().await;
    let listed = fetch_bytes(HEADS_SHIPPED, cache.as_ref()).await.and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
    let shipped = |name: &str| listed.as_ref().is_some_and(|l| l[name].as_bool() == Some(true));
    (shipped("cera"), shipped("cerai"))
}

/// The heads' files (CeRA, CeRAI), each when this build ships it.
pub async fn head_files() -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let cache = open_cache().await;
    (fetch_bytes(HEAD_FILES[0], cache.as_ref()).await, fetch_bytes(HEAD_FILES[1], cache.as_ref()).await)
}

/// The heads that load from their files (built once the encoder is ready,
/// so that the model's download comes first).
pub fn heads_from((cera, cerai): (Option<Vec<u8>>, Option<Vec<u8>>)) -> Heads {
    let load = |bytes: Option<Vec<u8>>| bytes.and_then(|b| CeraHead::from_bytes(&b).ok());
    Heads::new(load(cera), load(cerai)).unwrap_or_default()
}

/// models/stream/ls.json: the LS weights and tuned thresholds, whether
/// they were found, and what to tell the user when not. Without them (not
/// shipped, or never downloaded and offline) COS and APSAL run with their
/// default thresholds.
pub async fn stream_settings() -> (StreamSettings, bool, Option<String>) {
    let cache = open_cache().await;
    let Some(bytes) = fetch_bytes(STREAM_SETTINGS, cache.as_ref()).await else {
        let note = "The learned policy (LS) is not part of this build: its weights (models/stream/ls.json) were not found. \
                    COS and APSAL run with their default thresholds.";
        return (StreamSettings::untrained(), false, Some(note.into()));
    };
    // Decoded as UTF-8 the way `Response.text()` does.
    match StreamSettings::from_json(&String::from_utf8_lossy(&bytes)) {
        Ok(settings) => (settings, true, None),
        Err(e) => (
            StreamSettings::untrained(),
            false,
            Some(format!("The learned policy's file is unreadable ({e}); COS and APSAL run with default thresholds.")),
        ),
    }
}

/// Makes sure ROUGE's stemming has WordNet's exception list, downloading
/// the app's copy on first use (kept in the cache, and precached by the
/// service worker for offline use). False when it cannot be had.
pub async fn ensure_wordnet_exceptions() -> bool {
    use crate::eval::porter;
    if porter::has_wordnet_exceptions() {
        return true;
    }
    let cache = open_cache().await;
    match fetch_bytes(porter::WORDNET_EXCEPTIONS_URL, cache.as_ref()).await {
        Some(bytes) => {
            porter::install_wordnet_exceptions(String::from_utf8_lossy(&bytes).into_owned());
            porter::has_wordnet_exceptions()
        }
        None => false,
    }
}

/// The example set's files (see [`super::EXAMPLE_FILES`]), or what is
/// missing when the server or the offline copy lacks one.
pub async fn fetch_examples() -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::with_capacity(super::EXAMPLE_FILES.len());
    for name in super::EXAMPLE_FILES {
        let url = format!("{}{name}", super::EXAMPLES_URL);
        let bytes = fetch_bytes(&url, None).await.ok_or_else(|| format!("The example {url} could not be loaded."))?;
        files.push((name.to_string(), bytes));
    }
    Ok(files)
}

pub(super) async fn open_cache() -> Option<Cache> {
    let storage = scope().caches().ok()?;
    JsFuture::from(storage.open(MODEL_CACHE)).await.ok()?.dyn_into().ok()
}

/// A small file: from the network when reachable (kept in the cache),
/// else the cached copy.
async fn fetch_bytes(url: &str, cache: Option<&Cache>) -> Option<Vec<u8>> {
    let init = RequestInit::new();
    init.set_cache(RequestCache::NoCache);
    let fresh = match JsFuture::from(scope().fetch_with_str_and_init(url, &init)).await {
        Ok(response) => {
            let response: web_sys::Response = response.unchecked_into();
            if response.ok() {
                response_bytes(&response).await
            } else {
                None
            }
        }
        Err(_) => None,
    };
    match fresh {
        Some(mut bytes) => {
            if let Some(cache) = cache {
                keep(cache, url, &mut bytes).await;
            }
            Some(bytes)
        }
        None => cached_bytes(cache, url).await,
    }
}

/// Keeps a copy in the cache; a full disk only means the next visit
/// downloads again.
pub(super) async fn keep(cache: &Cache, url: &str, bytes: &mut [u8]) {
    if let Some(put) = start_keeping(cache, url, bytes) {
        let _ = put.await;
    }
}

/// Starts keeping a copy: the response copies the bytes now, so the caller
/// may give them away before the write is done.
pub(super) fn start_keeping(cache: &Cache, url: &str, bytes: &mut [u8]) -> Option<JsFuture> {
    let copy = web_sys::Response::new_with_opt_u8_array(Some(bytes)).ok()?;
    Some(JsFuture::from(cache.put_with_str(url, &copy)))
}

/// models/muse-v3/manifest.json: from the network when reachable (a new
/// model replaces the old), else the copy kept in the cache.
async fn fetch_manifest(cache: Option<&Cache>) -> Result<serde_json::Value, String> {
    let url = format!("{MODEL_DIR}manifest.json");
    let bytes = fetch_bytes(&url, cache).await.ok_or_else(|| {
        "The language model has not been downloaded yet and the network is unreachable. \
         Connect once to download it (13 MB, then the rest in the background); after that Précis works offline."
            .to_string()
    })?;
    serde_json::from_slice(&bytes).map_err(|e| format!("The model manifest is damaged: {e}"))
}

pub(super) fn manifest_entry(manifest: &serde_json::Value, name: &str) -> Result<ModelFile, String> {
    let entry = &manifest["files"][name];
    let sha256 = entry["sha256"].as_str().unwrap_or_default().to_ascii_lowercase();
    let bytes = entry["bytes"].as_u64().unwrap_or(0);
    if sha256.len() != 64 || bytes == 0 {
        return Err(format!("The model manifest does not describe {name}."));
    }
    Ok(ModelFile { url: format!("{MODEL_DIR}{name}?v={}", &sha256[..16]), bytes, sha256 })
}

pub(super) async fn cached_bytes(cache: Option<&Cache>, url: &str) -> Option<Vec<u8>> {
    matched_bytes(JsFuture::from(cache?.match_with_str(url))).await
}

/// The bytes of a started `cache.match`, if it found the entry.
pub(super) async fn matched_bytes(found: JsFuture) -> Option<Vec<u8>> {
    response_bytes(&found.await.ok()?.dyn_into().ok()?).await
}

pub(super) async fn response_bytes(response: &web_sys::Response) -> Option<Vec<u8>> {
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    Some(Uint8Array::new(&buffer).to_vec())
}

/// Downloads a file, reporting the bytes read so far, checks it against
/// the manifest and keeps it in the cache.
async fn download(file: &ModelFile, cache: Option<&Cache>, progress: &dyn Fn(u64), hashing: &Cell<f64>) -> Result<Vec<u8>, String> {
    let (url, expected) = (file.url.as_str(), file.bytes);
    let offline = || "The language model could not be downloaded: the network is unreachable. \
        Connect once to download it (13 MB, then the rest in the background); after that Précis works offline."
        .to_string();
    let init = RequestInit::new();
    // The Cache API keeps the file; the HTTP cache would only keep a second copy.
    init.set_cache(RequestCache::NoStore);
    let response: web_sys::Response =
        JsFuture::from(scope().fetch_with_str_and_init(url, &init)).await.map_err(|_| offline())?.unchecked_into();
    if !response.ok() {
        return Err(format!("The language model could not be downloaded ({url}: HTTP {}).", response.status()));
    }
    let body = response.body().ok_or_else(offline)?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes: Vec<u8> = Vec::with_capacity(expected as usize);
    let mut reported = 0u64;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| offline())?;
        if js_sys::Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value: Uint8Array = js_sys::Reflect::get(&chunk, &"value".into()).map_err(|_| offline())?.unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        if bytes.len() as u64 - reported >= expected / 100 {
            reported = bytes.len() as u64;
            progress(reported);
        }
    }
    if bytes.len() as u64 != expected {
        return Err(format!(
            "The language model download was cut short ({} of {} bytes). Reload to try again.",
            bytes.len(),
            expected
        ));
    }
    if !sha256_matches(&bytes, &file.sha256, hashing).await {
        return Err(format!(
            "The language model downloaded damaged ({url} does not match its sha256 in the manifest). Reload to try again."
        ));
    }
    if let Some(cache) = cache {
        // Not awaited: the browser writes the copy while the encoder is
        // built (WebKit's put of the 79 MB encoder takes 1.2-1.7 s).
        let copy = web_sys::Response::new_with_opt_u8_array(Some(&mut bytes));
        if let Ok(put) = copy.map(|copy| cache.put_with_str(url, &copy)) {
            wasm_bindgen_futures::spawn_local(async move { let _ = JsFuture::from(put).await; });
        }
    }
    Ok(bytes)
}

/// Deletes cached model files of other versions (the table's head and
/// blocks are kept under its versioned URL with more after it).
async fn prune(cache: &Cache, current: &[String]) {
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    for request in Array::from(&keys).iter() {
        let request: web_sys::Request = request.unchecked_into();
        let url = request.url();
        let is_model_file = MODEL_FILES.iter().chain([&TABLE_FILE]).any(|f| url.contains(&format!("{MODEL_DIR}{f}")));
        if is_model_file && !current.iter().any(|c| url.contains(c.as_str())) {
            let _ = JsFuture::from(cache.delete_with_request(&request)).await;
        }
    }
}
