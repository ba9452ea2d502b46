//! Multilingual sentence encoder: SentencePiece's normalization
//! ([`spm_normalizer`]) and the `tokenizers` crate's Unigram model turn text
//! into SentencePiece ids, tract runs `models/muse-v3/encoder.onnx` over a
//! flat batch and returns one L2-normalized 512-d embedding per sentence.
//!
//! Everything is built from bytes so the browser can hand over fetched files.

mod spm_normalizer;

use anyhow::{anyhow, bail, ensure, Context, Result};
use spm_normalizer::{decode_base64, SpmNormalizer};
use std::io::Cursor;
use tokenizers::{NormalizerWrapper, PreTokenizerWrapper, Tokenizer};
use tract_onnx::prelude::*;

/// Width of every sentence embedding.
pub const DIM: usize = 512;
/// One sentence embedding (L2-normalized).
pub type Embedding = [f32; DIM];

/// Tokens per forward pass. Large enough that every weight matrix is streamed
/// once for many sentences, small enough that the [tokens x sentences]
/// bookkeeping inside the graph stays negligible.
const BATCH_TOKENS: usize = 1024;
/// Sentences per forward pass.
const BATCH_SENTENCES: usize = 64;
/// Distinct pieces per forward pass: the graph computes everything that
/// depends on a piece alone once per distinct piece, and a 1,024-token batch
/// of news has about 450.
const BATCH_PIECES: usize = 512;

const UNK_ID: u32 = 0;
const BOS_ID: u32 = 1;
const EOS_ID: u32 = 2;

type Plan = std::sync::Arc<TypedSimplePlan>;

pub struct Encoder {
    /// SentencePiece's normalization, from tokenizer.json's charsmap.
    normalizer: SpmNormalizer,
    /// The Unigram model alone (no normalizer, no pre-tokenizer): it sees
    /// the normalized text, `▁` escapes and dummy prefix included.
    tokenizer: Tokenizer,
    /// The graph optimized for exactly BATCH_PIECES x BATCH_TOKENS x
    /// BATCH_SENTENCES: with
    /// concrete shapes tract fuses bias, activation and residual adds into its
    /// matmuls (about 2x faster than the symbolic plan). Batches are padded.
    fixed: Plan,
    /// The graph with symbolic sizes, built on first use, for a sentence
    /// longer than BATCH_TOKENS or with more than BATCH_PIECES distinct pieces.
    dynamic: std::sync::OnceLock<Plan>,
    onnx: Vec<u8>,
}

impl Encoder {
    /// Loads and optimizes the model once; `encode` only runs it.
    pub fn from_bytes(onnx: &[u8], tokenizer_json: &[u8]) -> Result<Self> {
        let mut tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|e| anyhow!("tokenizer.json: {e}"))?;
        let normalizer = take_spm_normalizer(&mut tokenizer).context("tokenizer.json")?;
        let mut model = read_model(onnx)?;
        model.set_input_fact(0, i64::fact([BATCH_PIECES]).into())?;
        model.set_input_fact(1, i64::fact([BATCH_TOKENS]).into())?;
        model.set_input_fact(2, i64::fact([BATCH_SENTENCES + 1]).into())?;
        let fixed = model.into_optimized()?.into_runnable()?;
        Ok(Self { normalizer, tokenizer, fixed, dynamic: Default::default(), onnx: onnx.to_vec() })
    }

    fn dynamic_plan(&self) -> Result<&Plan> {
        if let Some(plan) = self.dynamic.get() {
            return Ok(plan);
        }
        let plan = read_model(&self.onnx)?.into_optimized()?.into_runnable()?;
        Ok(self.dynamic.get_or_init(|| plan))
    }

    /// Token ids exactly as the reference package produces them: BOS, pieces,
    /// EOS; every unknown character its own UNK (the `tokenizers` Unigram model
    /// fuses runs of them); a lone UNK for text that normalizes to nothing.
    pub fn tokenize(&self, text: &str) -> Result<Vec<u32>> {
        let normalized = self.normalizer.normalize(text);
        if normalized.is_empty() {
            return Ok(vec![BOS_ID, UNK_ID, EOS_ID]);
        }
        let encoding = self
            .tokenizer
            .encode(normalized.as_str(), true)
            .map_err(|e| anyhow!("tokenizer: {e}"))?;
        let mut ids = Vec::with_capacity(encoding.len() + 1);
        for (&id, token) in encoding.get_ids().iter().zip(encoding.get_tokens()) {
            if id == UNK_ID {
                ids.extend(std::iter::repeat_n(UNK_ID, token.chars().count().max(1)));
            } else {
                ids.push(id);
            }
        }
        if ids.len() == 2 {
            ids.insert(1, UNK_ID);
        }
        Ok(ids)
    }

    /// Embeds each sentence independently (no n-gram crosses a sentence).
    pub fn encode(&self, sentences: &[&str]) -> Result<Vec<Embedding>> {
        let ids = sentences
            .iter()
            .map(|s| self.tokenize(s))
            .collect::<Result<Vec<_>>>()?;
        self.encode_ids(&ids)
    }

    /// Embeds already tokenized sentences, packed in order into batches of at
    /// most BATCH_TOKENS tokens, BATCH_SENTENCES sentences and BATCH_PIECES
    /// distinct pieces.
    pub fn encode_ids(&self, ids: &[Vec<u32>]) -> Result<Vec<Embedding>> {
        ensure!(ids.iter().all(|s| !s.is_empty()), "a tokenized sentence is never empty");
        let mut out = Vec::with_capacity(ids.len());
        let mut batch = Batch::default();
        let mut first = 0;
        for (i, sentence) in ids.iter().enumerate() {
            if i > first && !batch.fits(sentence) {
                self.run_batch(&batch, &mut out)?;
                batch = Batch::default();
                first = i;
            }
            batch.push(sentence);
        }
        if first < ids.len() {
            self.run_batch(&batch, &mut out)?;
        }
        Ok(out)
    }

    fn run_batch(&self, batch: &Batch, out: &mut Vec<Embedding>) -> Result<()> {
        let mut pieces = batch.pieces.clone();
        let mut token_pieces = batch.token_pieces.clone();
        let mut offsets = batch.offsets.clone();
        let fixed = pieces.len() <= BATCH_PIECES && token_pieces.len() <= BATCH_TOKENS;
        let plan = if fixed {
            // Padding tokens belong to no sentence; padding sentences are
            // empty and their (NaN) rows are dropped below.
            pieces.resize(BATCH_PIECES, 0);
            token_pieces.resize(BATCH_TOKENS, 0);
            offsets.resize(BATCH_SENTENCES + 1, *offsets.last().unwrap_or(&0));
            &self.fixed
        } else {
            self.dynamic_plan()?
        };
        let tensor = |v: &[i64]| -> Result<TValue> { Ok(Tensor::from_shape(&[v.len()], v)?.into_tvalue()) };
        let result = plan.run(tvec![tensor(&pieces)?, tensor(&token_pieces)?, tensor(&offsets)?])?;
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

    /// Would the sentence keep the batch within the fixed plan's sizes?
    fn fits(&self, sentence: &[u32]) -> bool {
        let new_pieces = {
            let mut seen = std::collections::HashSet::new();
            sentence.iter().filter(|id| !self.index_of.contains_key(id) && seen.insert(**id)).count()
        };
        self.token_pieces.len() + sentence.len() <= BATCH_TOKENS
            && self.sentences() < BATCH_SENTENCES
            && self.pieces.len() + new_pieces <= BATCH_PIECES
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

/// Takes SentencePiece's normalization out of the tokenizer: tokenizer.json
/// carries the model's precompiled charsmap as a `Precompiled` normalizer,
/// which [`SpmNormalizer`] applies the way SentencePiece does (`tokenizers`
/// applies it per grapheme cluster, which differs on combining sequences).
/// The tokenizer is left with no normalizer and no pre-tokenizer, so its
/// Unigram model segments the normalized text as a whole, as SentencePiece
/// does. A tokenizer.json from the plain converter (`Sequence` of
/// `Precompiled`, `Replace` and `Strip`, `Metaspace` pre-tokenizer) is
/// accepted too: all of that is part of SentencePiece's normalization.
fn take_spm_normalizer(tokenizer: &mut Tokenizer) -> Result<SpmNormalizer> {
    let spec = serde_json::to_value(tokenizer.get_normalizer())?;
    let kind = |v: &serde_json::Value| v["type"].as_str().unwrap_or_default().to_string();
    let precompiled = match kind(&spec).as_str() {
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
    let normalizer = SpmNormalizer::from_charsmap(&decode_base64(charsmap)?)?;
    match tokenizer.get_pre_tokenizer() {
        None | Some(PreTokenizerWrapper::Metaspace(_)) => {}
        Some(other) => bail!("unexpected pre-tokenizer {:?}", serde_json::to_value(other)?["type"]),
    }
    tokenizer.with_normalizer(None::<NormalizerWrapper>).map_err(|e| anyhow!("{e}"))?;
    tokenizer.with_pre_tokenizer(None::<PreTokenizerWrapper>);
    Ok(normalizer)
}

fn read_model(onnx: &[u8]) -> Result<InferenceModel> {
    tract_onnx::onnx()
        .model_for_read(&mut Cursor::new(onnx))
        .context("encoder.onnx: not a readable ONNX model")
}
