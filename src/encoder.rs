//! Multilingual sentence encoder: the `tokenizers` crate turns text into
//! SentencePiece ids, tract runs `models/muse-v3/encoder.onnx` over a flat
//! batch and returns one L2-normalized 512-d embedding per sentence.
//!
//! Everything is built from bytes so the browser can hand over fetched files.

use anyhow::{anyhow, ensure, Context, Result};
use std::io::Cursor;
use tokenizers::Tokenizer;
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

const UNK_ID: u32 = 0;

type Plan = std::sync::Arc<TypedSimplePlan>;

pub struct Encoder {
    tokenizer: Tokenizer,
    /// The graph optimized for exactly BATCH_TOKENS x BATCH_SENTENCES: with
    /// concrete shapes tract fuses bias, activation and residual adds into its
    /// matmuls (about 2x faster than the symbolic plan). Batches are padded.
    fixed: Plan,
    /// The graph with symbolic sizes, built on first use, for a sentence
    /// longer than BATCH_TOKENS.
    dynamic: std::sync::OnceLock<Plan>,
    onnx: Vec<u8>,
}

impl Encoder {
    /// Loads and optimizes the model once; `encode` only runs it.
    pub fn from_bytes(onnx: &[u8], tokenizer_json: &[u8]) -> Result<Self> {
        let tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|e| anyhow!("tokenizer.json: {e}"))?;
        let mut model = read_model(onnx)?;
        model.set_input_fact(0, i64::fact([BATCH_TOKENS]).into())?;
        model.set_input_fact(1, i64::fact([BATCH_SENTENCES + 1]).into())?;
        let fixed = model.into_optimized()?.into_runnable()?;
        Ok(Self { tokenizer, fixed, dynamic: Default::default(), onnx: onnx.to_vec() })
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
        let encoding = self
            .tokenizer
            .encode(text, true)
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

    /// Embeds already tokenized sentences, packed in order into batches of
    /// at most BATCH_TOKENS tokens and BATCH_SENTENCES sentences.
    pub fn encode_ids(&self, ids: &[Vec<u32>]) -> Result<Vec<Embedding>> {
        ensure!(ids.iter().all(|s| !s.is_empty()), "a tokenized sentence is never empty");
        let mut out = Vec::with_capacity(ids.len());
        let mut first = 0;
        let mut tokens = 0;
        for (i, sentence) in ids.iter().enumerate() {
            let full = tokens + sentence.len() > BATCH_TOKENS || i - first == BATCH_SENTENCES;
            if i > first && full {
                self.run_batch(&ids[first..i], &mut out)?;
                first = i;
                tokens = 0;
            }
            tokens += sentence.len();
        }
        if first < ids.len() {
            self.run_batch(&ids[first..], &mut out)?;
        }
        Ok(out)
    }

    fn run_batch(&self, batch: &[Vec<u32>], out: &mut Vec<Embedding>) -> Result<()> {
        let mut flat: Vec<i64> = batch.iter().flatten().map(|&id| id as i64).collect();
        let mut offsets: Vec<i64> = std::iter::once(0)
            .chain(batch.iter().scan(0, |end, s| {
                *end += s.len() as i64;
                Some(*end)
            }))
            .collect();
        let plan = if flat.len() <= BATCH_TOKENS {
            // Padding tokens belong to no sentence; padding sentences are
            // empty and their (NaN) rows are dropped below.
            flat.resize(BATCH_TOKENS, 0);
            offsets.resize(BATCH_SENTENCES + 1, *offsets.last().unwrap_or(&0));
            &self.fixed
        } else {
            self.dynamic_plan()?
        };
        let inputs = tvec![
            Tensor::from_shape(&[flat.len()], &flat)?.into_tvalue(),
            Tensor::from_shape(&[offsets.len()], &offsets)?.into_tvalue(),
        ];
        let result = plan.run(inputs)?;
        let embeddings = result[0].to_plain_array_view::<f32>()?;
        ensure!(embeddings.shape().last() == Some(&DIM), "encoder returned shape {:?}", embeddings.shape());
        for row in embeddings.outer_iter().take(batch.len()) {
            let mut e = [0f32; DIM];
            e.iter_mut().zip(row.iter()).for_each(|(d, s)| *d = *s);
            out.push(e);
        }
        Ok(())
    }
}

fn read_model(onnx: &[u8]) -> Result<InferenceModel> {
    tract_onnx::onnx()
        .model_for_read(&mut Cursor::new(onnx))
        .context("encoder.onnx: not a readable ONNX model")
}
