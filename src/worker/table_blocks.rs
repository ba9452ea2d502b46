//! The embedding table on demand (issue #43): at load the worker reads only
//! the table's head (its index, 0.3 MB); before encoding, the blocks the
//! texts' pieces need, from the Cache API where an earlier visit fetched
//! them, else by HTTP range requests; after the first summary,
//! the whole file in the background, so that any text, in any language,
//! can then be summarized offline.
//!
//! In the Cache API (beside the other model files, under the table's
//! versioned URL): the head (`…&part=head`), the runs of blocks each text
//! fetched, as one entry per text (`…&runs=FIRST-LAST-BYTES`), and at last
//! the whole file, which replaces them. The head and the whole file are
//! checked against the manifest's sha256 (a cached one while the encoder is
//! built from it); each block by its own Adler-32 as it is inflated,
//! against the checked index's offsets. A server that ignores range requests answers
//! with the whole file, which is taken as such.

use super::assets::{self, cached_bytes, cached_file, keep, matched_bytes, open_cache, response_bytes, scope, sha256_matches, start_keeping, ModelFile, PendingCheck};
use crate::encoder::{bundle_runs, fetch_runs, EmbeddingTable};
use js_sys::Array;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, RequestCache, RequestInit};

/// A gap of this many blocks is fetched through rather than split into two
/// requests. DUC2004 cluster 1 needs 635 blocks: gap 0 fetches 2.72 MB in
/// 343 requests, 1 3.07 MB in 261, 2 3.34 MB in 229, 4 4.24 MB in 166
/// (docs/speed.md): 1 keeps an English cluster's first visit under 12 MB.
const GAP_BLOCKS: usize = 1;

/// The table file as the manifest describes it.
pub struct TableFile {
    pub file: ModelFile,
    head: usize,
    head_sha256: String,
}

impl TableFile {
    pub fn from_manifest(manifest: &serde_json::Value) -> Result<TableFile, String> {
        let file = assets::manifest_entry(manifest, assets::TABLE_FILE)?;
        let head = &manifest["table_head"];
        let (bytes, sha256) = (head["bytes"].as_u64().unwrap_or(0), head["sha256"].as_str().unwrap_or_default());
        if bytes == 0 || bytes >= file.bytes || sha256.len() != 64 {
            return Err("The model manifest does not describe the embedding table's head.".into());
        }
        Ok(TableFile { file, head: bytes as usize, head_sha256: sha256.to_ascii_lowercase() })
    }

    pub fn head_bytes(&self) -> usize {
        self.head
    }

    /// What the URLs of the file's parts in the cache (head, runs of
    /// blocks) start with, after the origin.
    fn parts_prefix(&self) -> String {
        format!("{}&", self.file.url)
    }

    fn head_url(&self) -> String {
        format!("{}part=head", self.parts_prefix())
    }

    /// A text's runs of blocks, kept as one entry: named by the first and
    /// last block and the bytes, so that another text's runs do not take
    /// its place.
    fn runs_url(&self, first: usize, last: usize, bytes: usize) -> String {
        format!("{}runs={first}-{last}-{bytes}", self.parts_prefix())
    }
}

thread_local! {
    /// The table file of the loaded model.
    static FILE: RefCell<Option<Rc<TableFile>>> = const { RefCell::new(None) };
    /// Whether the whole file has been asked for in the background.
    static COMPLETING: Cell<bool> = const { Cell::new(false) };
}

pub fn set_file(file: TableFile) {
    FILE.with_borrow_mut(|slot| *slot = Some(Rc::new(file)));
}

/// The bytes of the loaded table's head.
pub fn head_bytes() -> usize {
    FILE.with_borrow(|file| file.as_ref().map_or(0, |f| f.head))
}

fn file() -> Result<Rc<TableFile>, String> {
    FILE.with_borrow(Clone::clone).ok_or_else(|| "The language model is not loaded.".to_string())
}

/// What the encoder is built from: the table's head, or the whole file when
/// this device has it; from the cache, with its sha256 check running.
pub struct TableStart {
    pub bytes: Vec<u8>,
    pub from_cache: bool,
    pub check: Option<PendingCheck>,
}

/// The table's head (or the whole file, when cached or when the server
/// sends it whole), checked against the manifest (a cached one as the
/// encoder is built: [`PendingCheck`]).
pub async fn read_start(cache: Option<&Cache>, file: &TableFile, hashing: &Cell<f64>) -> Result<TableStart, String> {
    if let Some((bytes, check)) = cached_file(cache, &file.file).await {
        return Ok(TableStart { bytes, from_cache: true, check: Some(check) });
    }
    if let Some(bytes) = cached_bytes(cache, &file.head_url()).await {
        if bytes.len() == file.head {
            let check = PendingCheck::start(&file.head_url(), &bytes, &file.head_sha256);
            return Ok(TableStart { bytes, from_cache: true, check: Some(check) });
        }
        delete(cache, &file.head_url()).await;
    }
    let bytes = match read_part(start_fetch(file, 0..file.head, false), file.head).await? {
        Part::Range(mut bytes) => {
            if bytes.len() != file.head || !sha256_matches(&bytes, &file.head_sha256, hashing).await {
                return Err(damaged(&file.file.url));
            }
            if let Some(cache) = cache {
                keep(cache, &file.head_url(), &mut bytes).await;
            }
            bytes
        }
        Part::Whole(bytes) => {
            let (bytes, storing) = checked_whole(cache, file, bytes, hashing).await?;
            wasm_bindgen_futures::spawn_local(storing);
            bytes
        }
    };
    Ok(TableStart { bytes, from_cache: false, check: None })
}

/// Reads the runs of blocks that earlier visits kept, in the background once
/// a returning visit's model is ready: its next text then finds its rows
/// in memory. A text that comes first reads what it needs itself
/// ([`ensure_blocks`]); a block read twice is kept once.
pub async fn add_all_cached_runs(table: &EmbeddingTable) {
    let (Ok(file), Some(cache)) = (file(), open_cache().await) else { return };
    add_cached_runs(table, &cache, &file, None).await;
}

/// Adds, of the runs of blocks this device fetched on earlier visits, those
/// that hold any of `missing` (all, when None), read side by side rather
/// than one at a time; not before the model is ready, where they held a
/// reload up (docs/speed.md). A damaged run is deleted (and fetched again).
async fn add_cached_runs(table: &EmbeddingTable, cache: &Cache, file: &TableFile, missing: Option<&[usize]>) {
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    let holds_missing = |blocks: &std::ops::RangeInclusive<usize>| {
        let Some(missing) = missing else { return true };
        let first_not_before = missing.partition_point(|&block| block < *blocks.start());
        missing.get(first_not_before).is_some_and(|block| blocks.contains(block))
    };
    let reads: Vec<_> = Array::from(&keys)
        .iter()
        .filter_map(|request| {
            let url = request.unchecked_into::<web_sys::Request>().url();
            let entry = CachedRuns::named(file, &url)?;
            holds_missing(&entry.blocks()).then(|| (entry, JsFuture::from(cache.match_with_str(&url)), url))
        })
        .collect();
    for (entry, read, url) in reads {
        if !matched_bytes(read).await.is_some_and(|bytes| entry.add_to(table, &bytes).is_ok()) {
            delete(Some(cache), &url).await;
        }
    }
}

/// A cache entry of table blocks: a text's runs as one bundle
/// (`…&runs=FIRST-LAST-BYTES`), or one run (`…&blocks=FIRST-LAST`, as
/// builds before the bundles kept them).
enum CachedRuns {
    Bundle(std::ops::RangeInclusive<usize>),
    Run(std::ops::RangeInclusive<usize>),
}

impl CachedRuns {
    fn named(file: &TableFile, url: &str) -> Option<CachedRuns> {
        // Cache keys are absolute URLs; the manifest's are relative.
        let (kind, name) = url.split_once(&file.parts_prefix())?.1.split_once('=')?;
        let mut numbers = name.split('-').map(|n| n.parse::<usize>().ok());
        let blocks = numbers.next()??..=numbers.next()??;
        match kind {
            "runs" => Some(CachedRuns::Bundle(blocks)),
            "blocks" => Some(CachedRuns::Run(blocks)),
            _ => None,
        }
    }

    /// The blocks it holds, or lies between.
    fn blocks(&self) -> std::ops::RangeInclusive<usize> {
        match self {
            CachedRuns::Bundle(blocks) | CachedRuns::Run(blocks) => blocks.clone(),
        }
    }

    fn add_to(&self, table: &EmbeddingTable, bytes: &[u8]) -> anyhow::Result<()> {
        match self {
            CachedRuns::Bundle(_) => table.add_bundle(bytes),
            CachedRuns::Run(blocks) => table.add_blocks(*blocks.start(), bytes),
        }
    }
}

/// Fetches the blocks that the pieces `ids` need and the table lacks, told
/// (runs fetched, runs in all) as they arrive. Errors are for the user.
pub async fn ensure_blocks(table: &EmbeddingTable, ids: impl IntoIterator<Item = u32> + Clone, progress: &dyn Fn(usize, usize)) -> Result<(), String> {
    let missing = table.missing_blocks(ids.clone());
    if missing.is_empty() {
        return Ok(());
    }
    let file = file()?;
    let cache = open_cache().await;
    if let Some(cache) = &cache {
        add_cached_runs(table, cache, &file, Some(&missing)).await;
    }
    let missing = table.missing_blocks(ids);
    if missing.is_empty() {
        return Ok(());
    }
    let runs = fetch_runs(&missing, GAP_BLOCKS);
    // Every request starts now; the browser runs them side by side.
    let requests: Vec<_> = runs
        .iter()
        .map(|run| {
            let span = table.block_span(*run.start()).start..table.block_span(*run.end()).end;
            (run, span.len(), start_fetch(&file, span, false))
        })
        .collect();
    let mut fetched = Vec::with_capacity(runs.len());
    for (done, (run, expected, request)) in requests.into_iter().enumerate() {
        match read_part(request, expected).await? {
            Part::Range(bytes) => {
                table.add_blocks(*run.start(), &bytes).map_err(|_| damaged(&file.file.url))?;
                fetched.push((*run.start(), bytes));
            }
            Part::Whole(bytes) => {
                let (bytes, storing) = checked_whole(cache.as_ref(), &file, bytes, &Cell::new(0.0)).await?;
                wasm_bindgen_futures::spawn_local(storing);
                return table.add_file(bytes).map_err(|e| e.to_string());
            }
        }
        progress(done + 1, runs.len());
    }
    if let (Some(cache), Some(first), Some(last)) = (cache, runs.first(), runs.last()) {
        let mut bundle = bundle_runs(&fetched);
        let url = file.runs_url(*first.start(), *last.end(), bundle.len());
        // Not awaited: the browser writes the copy while the text is encoded.
        wasm_bindgen_futures::spawn_local(async move { keep(&cache, &url, &mut bundle).await });
    }
    Ok(())
}

/// Downloads the rest of the table at low priority, once per page (after
/// the first summary, so that it never competes with one), and keeps the
/// whole file in place of the parts. True when the table became whole and
/// its copy is kept.
pub async fn complete_in_background(table: &EmbeddingTable) -> bool {
    if table.is_whole() || COMPLETING.replace(true) {
        return false;
    }
    let Ok(file) = file() else { return false };
    let cache = open_cache().await;
    let whole = match read_part(start_fetch(&file, 0..file.file.bytes as usize, true), file.file.bytes as usize).await {
        Ok(Part::Range(bytes) | Part::Whole(bytes)) => checked_whole(cache.as_ref(), &file, bytes, &Cell::new(0.0)).await,
        Err(e) => Err(e),
    };
    let Ok((whole, storing)) = whole else {
        // Offline, or a damaged download: the next summary tries again.
        COMPLETING.set(false);
        return false;
    };
    if table.add_file(whole).is_err() {
        return false;
    }
    storing.await;
    true
}

/// The cache's copy of a checked whole file being written, then the parts
/// deleted.
type Storing = std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>;

/// A checked whole file, and its copy being kept in the cache in place of
/// the parts: the table can read the file meanwhile (in WebKit writing 30
/// MB to the Cache API took long enough to hold a summary's rows up).
async fn checked_whole(cache: Option<&Cache>, file: &TableFile, mut bytes: Vec<u8>, hashing: &Cell<f64>) -> Result<(Vec<u8>, Storing), String> {
    if bytes.len() as u64 != file.file.bytes || !sha256_matches(&bytes, &file.file.sha256, hashing).await {
        return Err(damaged(&file.file.url));
    }
    let Some(cache) = cache.cloned() else { return Ok((bytes, Box::pin(async {}))) };
    let put = start_keeping(&cache, &file.file.url, &mut bytes);
    let parts = file.parts_prefix();
    let storing = async move {
        if let Some(put) = put {
            let _ = put.await;
        }
        delete_parts(&cache, &parts).await;
    };
    Ok((bytes, Box::pin(storing)))
}

/// Deletes the head and the runs of blocks (`parts`: [`TableFile::parts_prefix`]).
async fn delete_parts(cache: &Cache, parts: &str) {
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    for request in Array::from(&keys).iter() {
        let url = request.unchecked_into::<web_sys::Request>().url();
        if url.contains(parts) {
            delete(Some(cache), &url).await;
        }
    }
}

async fn delete(cache: Option<&Cache>, url: &str) {
    if let Some(cache) = cache {
        let _ = JsFuture::from(cache.delete_with_str(url)).await;
    }
}

fn damaged(url: &str) -> String {
    format!("The language model downloaded damaged ({url} does not match the manifest). Reload to try again.")
}

fn offline() -> String {
    "These articles need more of the language model, and the network is unreachable. \
     Connect once more: after the first summary Précis downloads the rest and then works offline."
        .to_string()
}

/// What a ranged request brought: the range, or (a server that ignores
/// ranges) the whole file.
enum Part {
    Range(Vec<u8>),
    Whole(Vec<u8>),
}

/// Starts a request for `span` of the table file (the whole file when it
/// spans it, at low priority when `background`).
fn start_fetch(file: &TableFile, span: Range<usize>, background: bool) -> Option<js_sys::Promise> {
    let init = RequestInit::new();
    // The Cache API keeps what is needed; the HTTP cache would keep a second copy.
    init.set_cache(RequestCache::NoStore);
    if span.len() < file.file.bytes as usize {
        let headers = web_sys::Headers::new().ok()?;
        headers.set("Range", &format!("bytes={}-{}", span.start, span.end - 1)).ok()?;
        init.set_headers(&headers);
    }
    if background {
        // Fetch Priority: the summaries' requests go first (ignored where unknown).
        let _ = js_sys::Reflect::set(&init, &"priority".into(), &"low".into());
    }
    Some(scope().fetch_with_str_and_init(&file.file.url, &init))
}

async fn read_part(request: Option<js_sys::Promise>, expected: usize) -> Result<Part, String> {
    let response: web_sys::Response = JsFuture::from(request.ok_or_else(offline)?).await.map_err(|_| offline())?.unchecked_into();
    let bytes = match response.status() {
        200 | 206 => response_bytes(&response).await.ok_or_else(offline)?,
        status => return Err(format!("The language model could not be downloaded (HTTP {status}).")),
    };
    Ok(if response.status() == 206 || bytes.len() == expected { Part::Range(bytes) } else { Part::Whole(bytes) })
}

