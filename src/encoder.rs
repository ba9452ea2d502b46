//! Multilingual sentence encoder: SentencePiece's normalization
//! ([`spm_normalizer`]) and Unigram segmentation ([`unigram`]), both read
//! from tokenizer.json, turn text into SentencePiece ids; tract runs
//! `models/muse-v3/encoder.onnx` over a flat batch and returns one
//! L2-normalized 512-d embedding per sentence.
//!
//! Everything is built from bytes so the browser can hand over fetched files.

// The int8 encoder's ops (issue #21), in every build.
mod cache;
/// The int8 encoder's graph, typed and decluttered, in a file of our own.
pub mod graph_file;
/// The tokenizer as the app reads it: tokenizer.json's model, parsed and sorted.
pub mod tokenizer_file;
mod int8;
mod int8_product;
/// Reads ONNX graphs (the encoder, the centroid heads) with the int8 ops registered.
pub mod onnx_reader;
/// The int8 encoder's wasm kernels (product, quantization, dequantization)
/// against their scalar models; how many checks passed.
#[cfg(all(target_arch = "wasm32", feature = "encoder-api"))]
pub fn check_int8_product() -> Result<usize, String> {
    Ok(int8_product::self_check()? + int8::self_check()?)
}
#[cfg(any(not(target_arch = "wasm32"), feature = "encoder-api"))]
pub mod profile;
mod spm_normalizer;
mod table;
mod unigram;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm_matmul;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use wasm_matmul::self_check as check_wasm_matmul_kernel;
pub use cache::EmbeddingCache;
#[cfg(test)]
pub(crate) use cache::fake_embedding;

use anyhow::{bail, ensure, Context, Result};
use spm_normalizer::{decode_base64, SpmNormalizer};
pub use table::{bundle_runs, fetch_runs, EmbeddingTable};
use unigram::Unigram;
use tract_onnx::prelude::*;

/// Width of every sentence embedding.
pub const DIM: usize = 512;
/// One sentence embedding (L2-normalized).
pub type Embedding = [f32; DIM];

/// The sizes a forward pass is planned for. With concrete shapes tract fuses
/// bias, activation and residual adds into its matmuls (about 2x faster than
/// the symbolic plan), so batches are padded up to the smallest tier that
/// holds them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BatchShape {
    /// Distinct pieces: everything that depends on a piece alone is computed
    /// once per distinct piece, so large batches of one language share work.
    pieces: usize,
    tokens: usize,
    sentences: usize,
}

/// Cheapest first: a batch runs on the first tier that holds it. The small
/// tier keeps a lone query or a streamed sentence from paying for a full
/// batch; the 2,048-token ones amortize per-piece work. Batches are packed
/// up to [`LARGEST`]; the 2,048-token tiers with fewer pieces exist because a
/// batch of one language fills its tokens long before its pieces (English
/// news: ~600 distinct pieces per 2,048 tokens, so padding to 1,024 would
/// spend a third of the per-piece work on padding). The graph's bookkeeping
/// is linear in tokens, so large batches cost nothing extra.
const TIERS: [BatchShape; 6] = [
    BatchShape { pieces: 128, tokens: 256, sentences: 16 },
    BatchShape { pieces: 384, tokens: 768, sentences: 48 },
    BatchShape { pieces: 512, tokens: 2048, sentences: 128 },
    BatchShape { pieces: 640, tokens: 2048, sentences: 128 },
    BatchShape { pieces: 768, tokens: 2048, sentences: 128 },
    BatchShape { pieces: 1024, tokens: 2048, sentences: 128 },
];
/// The shape batches are packed up to.
const LARGEST: BatchShape = TIERS[TIERS.len() - 1];

const UNK_ID: u32 = 0;
const BOS_ID: u32 = 1;
const EOS_ID: u32 = 2;

type Plan = std::sync::Arc<TypedSimplePlan>;

pub struct Encoder {
    /// SentencePiece's normalization, from tokenizer.json's charsmap.
    normalizer: SpmNormalizer,
    /// SentencePiece's Unigram model: it segments the normalized text, `▁`
    /// escapes and dummy prefix included.
    unigram: Unigram,
    /// The embedding table: the encoder looks up each batch's rows and hands
    /// them to the graph (`piece_rows`).
    table: EmbeddingTable,
    /// The graph and its plans.
    network: Network,
}

/// The encoder's network: its graph, and the plans cut from it. Built from
/// the network's file alone, so that the app builds it while the other
/// files are still being read.
pub struct Network {
    /// The graph optimized for each of [`TIERS`], built on first use.
    fixed: [std::sync::OnceLock<Plan>; TIERS.len()],
    /// The graph with symbolic sizes, built on first use, for a sentence
    /// longer than the largest tier.
    dynamic: std::sync::OnceLock<Plan>,
    /// The graph typed and decluttered once with symbolic sizes; every plan
    /// is cut from it by giving the sizes values. Typing the ONNX graph was
    /// half of each plan's cost (a plan now takes about 22 ms in wasm instead
    /// of 51, natively 8–11 ms instead of 17–23), and the int8 weights are packed
    /// once, when it is typed, for all the plans. The plans are the same:
    /// embeddings bit-identical.
    typed: TypedModel,
    /// Where building it went: its share of [`BuildTimes`] (parse, graph,
    /// first plan; the tokenizer's and the table's are the encoder's).
    times: BuildTimes,
}

/// Where building an encoder from its files goes, in seconds (issue #43:
/// which of it need not happen at every page load).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BuildTimes {
    /// Reading the tokenizer (the normalizer's charsmap, 128,000 pieces).
    pub tokenizer: f64,
    /// Reading the embedding table (table.u8).
    #[serde(default)]
    pub table: f64,
    /// Decoding the ONNX protobuf into tract's graph.
    pub parse: f64,
    /// Typing and decluttering the graph (the int8 weights are packed here);
    /// from a graph file, reading and wiring it.
    pub graph: f64,
    /// Optimizing the graph for the smallest batch shape, and planning it.
    pub first_plan: f64,
}

/// The encoder's files, as bytes: the network (encoder.onnx,
/// encoder-int8.onnx, or the app's encoder-int8.graph), the tokenizer
/// (tokenizer.json, or the app's tokenizer.bin) and the embedding table
/// (table.u8).
#[derive(Clone, Copy)]
pub struct EncoderFiles<'a> {
    pub network: &'a [u8],
    pub tokenizer: &'a [u8],
    pub table: &'a [u8],
}

impl Encoder {
    /// Loads and optimizes the model once; `encode` only runs it.
    pub fn from_bytes(files: EncoderFiles) -> Result<Self> {
        Self::from_bytes_timed(files, &|| 0.0).map(|(encoder, _)| encoder)
    }

    /// [`Encoder::from_bytes`], timing each step with `clock` (seconds from
    /// any origin: the caller's clock, since the browser's is not `std`'s).
    pub fn from_bytes_timed(files: EncoderFiles, clock: &dyn Fn() -> f64) -> Result<(Self, BuildTimes)> {
        let network = Network::from_bytes_timed(files.network, clock)?;
        Self::with_network_timed(network, files.tokenizer, files.table, clock)
    }

    /// The encoder around a network built already, from the tokenizer's
    /// and the table's bytes.
    pub fn with_network_timed(network: Network, tokenizer: &[u8], table: &[u8], clock: &dyn Fn() -> f64) -> Result<(Self, BuildTimes)> {
        let mut lap = Lap::new(clock);
        let (normalizer, unigram) = read_tokenizer(tokenizer).context("the tokenizer")?;
        let tokenizer = lap.next();
        let table = EmbeddingTable::from_bytes(table).context("table.u8")?;
        ensure!(
            unigram.pieces() <= table.pieces() && table.row_bytes() == DIM,
            "table.u8 does not fit the tokenizer: {} rows of {} bytes for {} pieces of {DIM}",
            table.pieces(),
            table.row_bytes(),
            unigram.pieces()
        );
        let table_seconds = lap.next();
        let times = BuildTimes { tokenizer, table: table_seconds, ..network.times };
        Ok((Self { normalizer, unigram, table, network }, times))
    }

    /// Builds the plan of every batch size now instead of on first use
    /// (a helper worker does this while the page is idle).
    pub fn prepare_plans(&self) -> Result<()> {
        while self.prepare_next_plan()? {}
        Ok(())
    }

    /// Builds the plan of one batch size not built yet, largest first (the
    /// ones a long input needs); false once all are built. The app's worker
    /// calls it between messages, one plan (about 22 ms in wasm) at a time.
    pub fn prepare_next_plan(&self) -> Result<bool> {
        self.network.prepare_next_plan()
    }

    fn plan(&self, tier: Option<usize>) -> Result<&Plan> {
        self.network.plan(tier)
    }
}

impl Network {
    /// The network of encoder.onnx, encoder-int8.onnx or the app's
    /// encoder-int8.graph, planned for the smallest batch shape; `clock` as
    /// for [`Encoder::from_bytes_timed`].
    pub fn from_bytes_timed(network: &[u8], clock: &dyn Fn() -> f64) -> Result<Self> {
        let mut lap = Lap::new(clock);
        let (typed, parse, graph) = if graph_file::is_graph_file(network) {
            // Typed and decluttered already: reading it is wiring it.
            let typed = graph_file::read(network).context("encoder-int8.graph")?;
            (typed, 0.0, lap.next())
        } else {
            let model = read_model(network)?;
            let parse = lap.next();
            (model.into_typed()?.into_decluttered()?, parse, lap.next())
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        ensure!(wasm_matmul::selected_for(1024, 256, 768), "the wasm matmul kernel is not registered with tract");
        let times = BuildTimes { parse, graph, ..Default::default() };
        let mut network = Self { fixed: Default::default(), dynamic: Default::default(), typed, times };
        // Fail at load, not at the first sentence, on a model that cannot run.
        network.plan(Some(0))?;
        network.times.first_plan = lap.next();
        Ok(network)
    }

    fn prepare_next_plan(&self) -> Result<bool> {
        match (0..TIERS.len()).rev().find(|&tier| self.fixed[tier].get().is_none()) {
            Some(tier) => self.plan(Some(tier)).map(|_| true),
            None => Ok(false),
        }
    }

    /// The plan for tier `tier`, or the symbolic one for `None`.
    fn plan(&self, tier: Option<usize>) -> Result<&Plan> {
        let cell = match tier {
            Some(i) => &self.fixed[i],
            None => &self.dynamic,
        };
        if let Some(plan) = cell.get() {
            return Ok(plan);
        }
        let model = match tier {
            Some(i) => self.typed.set_symbols(&self.sizes_of(TIERS[i])?)?,
            None => self.typed.clone(),
        };
        let plan = model.into_optimized()?.into_runnable()?;
        Ok(cell.get_or_init(|| plan))
    }

    /// The value of each input's symbolic length for a batch of this shape,
    /// the symbols read from the inputs themselves (pieces, tokens,
    /// sentence offsets), so that the plan is concrete whatever they are named.
    fn sizes_of(&self, shape: BatchShape) -> Result<std::collections::HashMap<Symbol, TDim>> {
        // Inputs 0, 2 and 3; input 1, the pieces' rows, is [pieces, DIM].
        let lengths = [(0, shape.pieces), (2, shape.tokens), (3, shape.sentences + 1)];
        let mut sizes = std::collections::HashMap::new();
        for (input, length) in lengths {
            let fact = self.typed.input_fact(input)?;
            let [TDim::Sym(symbol)] = fact.shape.dims() else {
                bail!("the encoder's input {input} should be a vector of symbolic length, not {:?}", fact.shape)
            };
            sizes.insert(symbol.clone(), TDim::Val(length as i64));
        }
        Ok(sizes)
    }
}

impl Encoder {
    /// The embedding table: which of its blocks a text's pieces need, and
    /// those blocks added as they arrive (the app fetches them on demand,
    /// before encoding; see [`EmbeddingTable`]).
    pub fn table(&self) -> &EmbeddingTable {
        &self.table
    }

    /// Token ids exactly as the reference package produces them: BOS,
    /// pieces, EOS; a lone UNK for text that normalizes to nothing.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let normalized = self.normalizer.normalize(text);
        let mut ids = vec![BOS_ID];
        if normalized.is_empty() {
            ids.push(UNK_ID);
        } else {
            self.unigram.segment(&normalized, &mut ids);
        }
        ids.push(EOS_ID);
        ids
    }

    /// Embeds each sentence independently (no n-gram crosses a sentence).
    pub fn encode(&self, sentences: &[&str]) -> Result<Vec<Embedding>> {
        let ids: Vec<Vec<u32>> = sentences.iter().map(|s| self.tokenize(s)).collect();
        self.encode_ids(&ids)
    }

    /// Embeds already tokenized sentences: in [`Encoder::batch_order`],
    /// packed into batches (see [`Encoder::batch_ranges`]); the embeddings
    /// come back in the order of `ids`.
    pub fn encode_ids(&self, ids: &[Vec<u32>]) -> Result<Vec<Embedding>> {
        let (order, batches) = Self::ordered_batches(ids)?;
        let mut embedded = Vec::with_capacity(ids.len());
        for batch in &batches {
            self.run_batch(batch, &mut embedded)?;
        }
        let mut out = vec![[0f32; DIM]; ids.len()];
        for (embedding, &i) in embedded.into_iter().zip(&order) {
            out[i] = embedding;
        }
        Ok(out)
    }

    /// The forward passes of [`Encoder::encode_ids`]: the sentences in
    /// [`Encoder::batch_order`] (returned too), packed into batches.
    fn ordered_batches(ids: &[Vec<u32>]) -> Result<(Vec<usize>, Vec<Batch>)> {
        let order = Self::batch_order(ids);
        let ordered: Vec<Vec<u32>> = order.iter().map(|&i| ids[i].clone()).collect();
        let batches = Self::pack(&ordered, 1)?.into_iter().map(|(_, batch)| batch).collect();
        Ok((order, batches))
    }

    /// An order of the sentences that packs into fewer, cheaper batches:
    /// by the median of each sentence's piece ids (ties in input order).
    /// Sentences of one language and register share pieces, and grouping
    /// them roughly halves a mixed-language batch's distinct pieces (2,000
    /// sentences in 16 languages: 23 batches of ~480 pieces instead of 26
    /// of ~930). Each sentence is embedded on its own, so the order only
    /// changes the cost.
    pub fn batch_order(ids: &[Vec<u32>]) -> Vec<usize> {
        let median = |sentence: &Vec<u32>| {
            let mut inner = sentence.get(1..sentence.len().saturating_sub(1)).unwrap_or_default().to_vec();
            if inner.is_empty() {
                return 0;
            }
            let middle = (inner.len() - 1) / 2;
            *inner.select_nth_unstable(middle).1
        };
        let keys: Vec<u32> = ids.iter().map(median).collect();
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| (keys[i], i));
        order
    }

    /// How [`Encoder::encode_ids`] splits sentences (already in
    /// [`Encoder::batch_order`]) into forward passes: consecutive ranges,
    /// each filling the largest tier as far as it goes.
    /// Callers that report progress encode range by range.
    pub fn batch_ranges(ids: &[Vec<u32>]) -> Result<Vec<std::ops::Range<usize>>> {
        Self::batch_ranges_for(ids, 1)
    }

    /// Batches for `workers` encoders ([`share_batches`] deals them out): a
    /// batch is the largest tier that still leaves every worker a batch as
    /// large, so batches shrink towards the end and the workers can finish
    /// together instead of one waiting on a last large batch.
    pub fn batch_ranges_for(ids: &[Vec<u32>], workers: usize) -> Result<Vec<std::ops::Range<usize>>> {
        Ok(Self::pack(ids, workers)?.into_iter().map(|(range, _)| range).collect())
    }

    /// The batches of [`Encoder::batch_ranges_for`], each with its sentences' range.
    fn pack(ids: &[Vec<u32>], workers: usize) -> Result<Vec<(std::ops::Range<usize>, Batch)>> {
        ensure!(ids.iter().all(|s| !s.is_empty()), "a tokenized sentence is never empty");
        let shape_for = |remaining: usize| match workers {
            0 | 1 => LARGEST,
            _ => *TIERS.iter().rev().find(|t| t.tokens * workers <= remaining).unwrap_or(&TIERS[0]),
        };
        let mut remaining: usize = ids.iter().map(Vec::len).sum();
        let mut shape = shape_for(remaining);
        let mut batches = vec![];
        let mut batch = Batch::default();
        let mut first = 0;
        for (i, sentence) in ids.iter().enumerate() {
            if i > first && !batch.fits(sentence, shape) {
                batches.push((first..i, std::mem::take(&mut batch)));
                first = i;
                shape = shape_for(remaining);
            }
            batch.push(sentence);
            remaining -= sentence.len();
        }
        if first < ids.len() {
            batches.push((first..ids.len(), batch));
        }
        Ok(batches)
    }

    fn run_batch(&self, batch: &Batch, out: &mut Vec<Embedding>) -> Result<()> {
        let (tier, inputs) = self.batch_inputs(batch)?;
        let result = self.plan(tier)?.run(inputs)?;
        Self::collect_embeddings(batch, &result, out)
    }

    /// The four input tensors of a batch (its pieces, their rows of the
    /// table, its tokens, its sentences), padded to the first tier that
    /// holds it (`None`: the symbolic plan, unpadded).
    fn batch_inputs(&self, batch: &Batch) -> Result<(Option<usize>, TVec<TValue>)> {
        let mut pieces = batch.pieces.clone();
        let mut token_pieces = batch.token_pieces.clone();
        let mut offsets = batch.offsets.clone();
        let tier = TIERS.iter().position(|shape| batch.within(*shape));
        if let Some(shape) = tier.map(|i| TIERS[i]) {
            // Padding tokens belong to no sentence; padding sentences are
            // empty and their (NaN) rows are dropped below.
            pieces.resize(shape.pieces, table::PADDING_PIECE as i64);
            token_pieces.resize(shape.tokens, 0);
            offsets.resize(shape.sentences + 1, *offsets.last().unwrap_or(&0));
        }
        let tensor = |v: &[i64]| -> Result<TValue> { Ok(Tensor::from_shape(&[v.len()], v)?.into_tvalue()) };
        let rows = Tensor::from_shape(&[pieces.len(), DIM], &self.table.gather(&pieces)?)?.into_tvalue();
        Ok((tier, tvec![tensor(&pieces)?, rows, tensor(&token_pieces)?, tensor(&offsets)?]))
    }

    /// The batch's sentences' rows of the plan's output (padding dropped).
    fn collect_embeddings(batch: &Batch, result: &[TValue], out: &mut Vec<Embedding>) -> Result<()> {
        let embeddings = result[0].to_plain_array_view::<f32>()?;
        ensure!(embeddings.shape().last() == Some(&DIM), "encoder returned shape {:?}", embeddings.shape());
        for row in embeddings.outer_iter().take(batch.sentences()) {
            let mut e = [0f32; DIM];
            e.iter_mut().zip(row.iter()).for_each(|(d, s)| *d = *s);
            out.push(e);
        }
        Ok(())
    }
}

/// Which of `workers` encoders runs each batch (0 to `workers - 1`), given
/// each batch's cost (its tokens): the largest batch first, each to the
/// worker with the least work so far, so that all finish about together.
pub fn share_batches(costs: &[usize], workers: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&b| std::cmp::Reverse(costs[b]));
    let mut load = vec![0; workers.max(1)];
    let mut worker_of = vec![0; costs.len()];
    for b in order {
        let least = (0..load.len()).min_by_key(|&w| load[w]).unwrap_or(0);
        load[least] += costs[b];
        worker_of[b] = least;
    }
    worker_of
}

/// A batch in the model's input layout: distinct pieces, every token as an
/// index into them, and CSR sentence offsets.
struct Batch {
    pieces: Vec<i64>,
    index_of: std::collections::HashMap<u32, i64>,
    token_pieces: Vec<i64>,
    offsets: Vec<i64>,
}

impl Default for Batch {
    fn default() -> Self {
        Self { pieces: vec![], index_of: Default::default(), token_pieces: vec![], offsets: vec![0] }
    }
}

impl Batch {
    fn sentences(&self) -> usize {
        self.offsets.len() - 1
    }

    #[cfg(test)]
    fn of(sentences: &[Vec<u32>]) -> Self {
        let mut batch = Self::default();
        sentences.iter().for_each(|s| batch.push(s));
        batch
    }

    /// Does the batch fit a plan of this shape?
    fn within(&self, shape: BatchShape) -> bool {
        self.pieces.len() <= shape.pieces && self.token_pieces.len() <= shape.tokens && self.sentences() <= shape.sentences
    }

    /// Would the sentence keep the batch within `shape`?
    fn fits(&self, sentence: &[u32], shape: BatchShape) -> bool {
        let new_pieces = {
            let mut seen = std::collections::HashSet::new();
            sentence.iter().filter(|id| !self.index_of.contains_key(id) && seen.insert(**id)).count()
        };
        self.token_pieces.len() + sentence.len() <= shape.tokens
            && self.sentences() < shape.sentences
            && self.pieces.len() + new_pieces <= shape.pieces
    }

    fn push(&mut self, sentence: &[u32]) {
        for &id in sentence {
            let next = self.pieces.len() as i64;
            let index = *self.index_of.entry(id).or_insert(next);
            if index == next {
                self.pieces.push(id as i64);
            }
            self.token_pieces.push(index);
        }
        self.offsets.push(self.token_pieces.len() as i64);
    }
}

/// The parts of tokenizer.json the encoder reads (a file from `tokenizers`'
/// SentencePiece converter, models/build.py).
#[derive(serde::Deserialize)]
struct TokenizerJson<'a> {
    #[serde(default)]
    normalizer: serde_json::Value,
    #[serde(default)]
    pre_tokenizer: serde_json::Value,
    #[serde(borrow)]
    model: UnigramJson<'a>,
}

/// The pieces are borrowed from the file where they need no unescaping (all
/// but a few): 128,000 allocations fewer at every page load.
#[derive(serde::Deserialize)]
struct UnigramJson<'a> {
    #[serde(rename = "type")]
    kind: String,
    unk_id: Option<u32>,
    #[serde(default)]
    byte_fallback: bool,
    #[serde(borrow)]
    vocab: Vec<(Piece<'a>, f64)>,
}

/// A piece, borrowed where it can be (serde's `Cow` alone always copies).
#[derive(serde::Deserialize)]
struct Piece<'a>(#[serde(borrow)] std::borrow::Cow<'a, str>);

impl AsRef<str> for Piece<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// SentencePiece's normalization and Unigram model from tokenizer.json.
/// The charsmap comes as a `Precompiled` normalizer, which [`SpmNormalizer`]
/// applies the way SentencePiece does over the whole text (`tokenizers`
/// applies it per grapheme cluster, which differs on combining sequences).
/// The plain converter's `Sequence` of `Precompiled`, `Replace` and `Strip`
/// and its `Metaspace` pre-tokenizer are accepted: all of that is part of
/// SentencePiece's normalization, which SpmNormalizer does whole.
fn read_tokenizer(bytes: &[u8]) -> Result<(SpmNormalizer, Unigram)> {
    if tokenizer_file::is_tokenizer_file(bytes) {
        return tokenizer_file::read(bytes).context("tokenizer.bin");
    }
    let (charsmap, unigram) = read_tokenizer_json(bytes)?;
    Ok((SpmNormalizer::from_charsmap(&charsmap)?, unigram))
}

/// tokenizer.json's charsmap (decoded) and Unigram model.
fn read_tokenizer_json(json: &[u8]) -> Result<(Vec<u8>, Unigram)> {
    let spec: TokenizerJson = serde_json::from_slice(json).context("not a tokenizer.json")?;
    let normalizer = charsmap(&spec.normalizer)?;
    match spec.pre_tokenizer["type"].as_str() {
        None | Some("Metaspace") => {}
        Some(other) => bail!("unexpected pre-tokenizer {other}"),
    }
    let model = spec.model;
    ensure!(model.kind == "Unigram", "expected a Unigram model, found {}", model.kind);
    ensure!(!model.byte_fallback, "byte fallback is not part of this SentencePiece model");
    ensure!(model.unk_id == Some(UNK_ID), "expected unk_id {UNK_ID}, found {:?}", model.unk_id);
    for (id, piece) in [(UNK_ID, "<unk>"), (BOS_ID, "<s>"), (EOS_ID, "</s>")] {
        let found = model.vocab.get(id as usize).map(|(p, _)| p.as_ref());
        ensure!(found == Some(piece), "expected piece {piece} at id {id}, found {found:?}");
    }
    Ok((normalizer, Unigram::new(model.vocab, UNK_ID)?))
}

/// The normalizer's precompiled charsmap, decoded.
fn charsmap(spec: &serde_json::Value) -> Result<Vec<u8>> {
    let kind = |v: &serde_json::Value| v["type"].as_str().unwrap_or_default().to_string();
    let precompiled = match kind(spec).as_str() {
        "Precompiled" => spec.clone(),
        "Sequence" => {
            let parts = spec["normalizers"].as_array().cloned().unwrap_or_default();
            let (precompiled, rest): (Vec<_>, Vec<_>) = parts.into_iter().partition(|n| kind(n) == "Precompiled");
            if let Some(other) = rest.iter().find(|n| !matches!(kind(n).as_str(), "Replace" | "Strip")) {
                bail!("normalizer {} is not part of SentencePiece's normalization", kind(other));
            }
            match <[_; 1]>::try_from(precompiled) {
                Ok([p]) => p,
                Err(_) => bail!("expected one Precompiled normalizer (the SentencePiece charsmap)"),
            }
        }
        other => bail!("expected a Precompiled normalizer (the SentencePiece charsmap), found {other:?}"),
    };
    let charsmap = precompiled["precompiled_charsmap"]
        .as_str()
        .context("Precompiled normalizer without precompiled_charsmap")?;
    decode_base64(charsmap)
}

/// Seconds between successive calls of [`Lap::next`].
struct Lap<'c> {
    clock: &'c dyn Fn() -> f64,
    last: f64,
}

impl<'c> Lap<'c> {
    fn new(clock: &'c dyn Fn() -> f64) -> Self {
        Lap { clock, last: clock() }
    }

    fn next(&mut self) -> f64 {
        let now = (self.clock)();
        let elapsed = now - self.last;
        self.last = now;
        elapsed
    }
}

fn read_model(onnx: &[u8]) -> Result<InferenceModel> {
    onnx_reader::read(onnx, "encoder.onnx")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokenizer_json_we_cannot_use_says_why() {
        let message = |json: &str| format!("{:#}", read_tokenizer(json.as_bytes()).err().expect("an error"));
        assert!(message("<html>").contains("not a tokenizer.json"));
        let no_charsmap = r#"{"normalizer": null, "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0]]}}"#;
        assert!(message(no_charsmap).contains("expected a Precompiled normalizer"), "{}", message(no_charsmap));
        let lowercase = r#"{"normalizer": {"type": "Lowercase"}, "model": {"type": "Unigram", "vocab": []}}"#;
        assert!(message(lowercase).contains("found \"Lowercase\""), "{}", message(lowercase));
    }

    #[test]
    fn each_lap_is_the_time_since_the_last() {
        let ticks = std::cell::Cell::new(0.0);
        let clock = || {
            ticks.set(ticks.get() + 1.5);
            ticks.get()
        };
        let mut lap = Lap::new(&clock);
        assert_eq!((lap.next(), lap.next()), (1.5, 1.5));
        assert_eq!(ticks.get(), 4.5);
    }

    /// Sentences of `len` tokens drawn from `vocab` distinct ids starting at `base`.
    fn sentences(count: usize, len: usize, base: u32, vocab: u32) -> Vec<Vec<u32>> {
        (0..count).map(|s| (0..len).map(|t| base + (s * len + t) as u32 % vocab).collect()).collect()
    }

    fn check_ranges(ids: &[Vec<u32>]) -> Vec<std::ops::Range<usize>> {
        let ranges = Encoder::batch_ranges(ids).unwrap();
        let mut next = 0;
        for range in &ranges {
            assert_eq!(range.start, next, "ranges are consecutive");
            assert!(!range.is_empty());
            let batch = Batch::of(&ids[range.clone()]);
            assert!(batch.within(LARGEST) || range.len() == 1, "{range:?} overflows the largest plan");
            next = range.end;
        }
        assert_eq!(next, ids.len(), "every sentence is in a batch");
        ranges
    }

    #[test]
    fn batches_fill_the_largest_plan_in_order() {
        // 300 sentences of 20 tokens over 50 ids: the token limit binds.
        let ranges = check_ranges(&sentences(300, 20, 3, 50));
        let per_batch = LARGEST.tokens / 20;
        assert_eq!(ranges[0], 0..per_batch.min(LARGEST.sentences));
        // Many distinct pieces: the piece limit binds first.
        let ranges = check_ranges(&sentences(200, 20, 3, 100_000));
        assert_eq!(ranges[0].len(), LARGEST.pieces / 20);
        // Short sentences: the sentence limit binds.
        let ranges = check_ranges(&sentences(300, 3, 3, 10));
        assert_eq!(ranges[0].len(), LARGEST.sentences);
    }

    /// Padded tokens of each batch (the plan that runs it).
    fn padded(ids: &[Vec<u32>], ranges: &[std::ops::Range<usize>]) -> Vec<usize> {
        ranges.iter().map(|r| TIERS.iter().find(|t| Batch::of(&ids[r.clone()]).within(**t)).unwrap().tokens).collect()
    }

    /// When every worker is done with the batches [`share_batches`] gives it.
    fn makespan(costs: &[usize], workers: usize) -> usize {
        let shares = share_batches(costs, workers);
        (0..workers).map(|w| costs.iter().zip(&shares).filter(|(_, &s)| s == w).map(|(c, _)| c).sum()).max().unwrap()
    }

    #[test]
    fn batches_for_several_workers_shrink_so_they_finish_together() {
        // 300 sentences of 20 tokens: 6,000 tokens, three full batches alone.
        let ids = sentences(300, 20, 3, 50);
        let alone = Encoder::batch_ranges(&ids).unwrap();
        assert_eq!(Encoder::batch_ranges_for(&ids, 1).unwrap(), alone);
        let shared = Encoder::batch_ranges_for(&ids, 2).unwrap();
        let mut next = 0;
        for range in &shared {
            assert_eq!(range.start, next, "ranges are consecutive");
            next = range.end;
        }
        assert_eq!(next, ids.len(), "every sentence is in a batch");
        let costs = padded(&ids, &shared);
        assert_eq!(costs[0], LARGEST.tokens, "large batches first");
        assert!(costs.windows(2).all(|w| w[0] >= w[1]), "then smaller ones: {costs:?}");
        // Three 2,048-token batches on two workers: one does two. Shrinking
        // batches bring the slower worker close to half the padded total.
        assert_eq!(makespan(&padded(&ids, &alone), 2), 2 * LARGEST.tokens);
        let total: usize = costs.iter().sum();
        assert!(makespan(&costs, 2) <= total / 2 + TIERS[1].tokens, "{costs:?}");
        assert!(makespan(&costs, 2) < 2 * LARGEST.tokens, "{costs:?}");
    }

    #[test]
    fn batches_are_shared_out_so_workers_finish_together() {
        // Largest first, each to the least loaded: 9 → w0, 7 → w1, 5 → w1
        // (7 < 9), 4 → w0 (9 < 12), 2 → w1 (12 < 13).
        assert_eq!(share_batches(&[5, 9, 2, 7, 4], 2), vec![1, 0, 1, 1, 0]);
        assert_eq!(share_batches(&[3, 3, 3], 1), vec![0, 0, 0]);
        assert_eq!(share_batches(&[3, 3, 3], 0), vec![0, 0, 0], "no workers: all here");
        // The DUC2004 cluster the app benchmark uses, as the app batches it.
        let costs = [2026, 2022, 750, 740, 204, 125, 202, 205, 112];
        let total: usize = costs.iter().sum();
        let slower = makespan(&costs, 2);
        assert!(slower.abs_diff(total - slower) <= 125, "{slower} of {total}");
    }

    #[test]
    fn a_sentence_longer_than_any_plan_is_a_batch_of_its_own() {
        let mut ids = sentences(3, 10, 3, 40);
        ids.insert(1, (0..LARGEST.tokens as u32 + 5).collect());
        let ranges = check_ranges(&ids);
        assert_eq!(ranges, vec![0..1, 1..2, 2..4]);
        assert!(Encoder::batch_ranges(&[vec![]]).is_err(), "a tokenized sentence is never empty");
    }

    #[test]
    fn the_smallest_plan_that_holds_a_batch_runs_it() {
        let tier = |ids: &[Vec<u32>]| TIERS.iter().position(|t| Batch::of(ids).within(*t));
        assert_eq!(tier(&sentences(1, 12, 3, 100)), Some(0));
        assert_eq!(tier(&sentences(30, 20, 3, 100)), Some(1));
        // 2,000 tokens: the 2,048-token tier with the fewest pieces that
        // holds the batch's distinct pieces.
        assert_eq!(TIERS[2], BatchShape { pieces: 512, tokens: 2048, sentences: 128 });
        assert_eq!(tier(&sentences(100, 20, 3, 100)), Some(2));
        assert_eq!(tier(&sentences(100, 20, 3, 600)), Some(3));
        assert_eq!(tier(&sentences(100, 20, 3, 700)), Some(4));
        assert_eq!(tier(&sentences(100, 20, 3, 1000)), Some(5));
        assert_eq!(tier(&[(0..LARGEST.tokens as u32 + 1).collect()]), None);
    }

    #[test]
    fn batch_order_groups_sentences_by_their_median_piece() {
        // Medians of the pieces between BOS and EOS (the lower one for an
        // even count): 50, 5, none (0), 3.
        let ids = vec![vec![1, 60, 50, 2], vec![1, 5, 2], vec![1, 2], vec![1, 40, 3, 2]];
        assert_eq!(Encoder::batch_order(&ids), vec![2, 3, 1, 0]);
        // Ties keep the input order.
        assert_eq!(Encoder::batch_order(&[vec![1, 7, 2], vec![1, 7, 2]]), vec![0, 1]);
        // Two interleaved "languages" come out grouped, so a batch holds
        // one of them: half the distinct pieces of the input order.
        let mixed: Vec<Vec<u32>> = (0..40).map(|i| if i % 2 == 0 { vec![1, 100 + i % 7, 2] } else { vec![1, 9000 + i % 5, 2] }).collect();
        let order = Encoder::batch_order(&mixed);
        assert!(order[..20].iter().all(|&i| i % 2 == 0) && order[20..].iter().all(|&i| i % 2 == 1), "{order:?}");
    }
}
