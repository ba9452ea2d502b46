//! The JS-facing API of the core (wasm32 only): the encoder, built from the
//! bytes the page fetched (models/muse-v3/encoder.onnx, tokenizer.json and
//! table.u8).
//!
//! ```js
//! import init, { WasmEncoder } from "./precis.js";
//! await init();
//! const encoder = new WasmEncoder(onnxBytes, tokenizerBytes, tableBytes);
//! const flat = encoder.encode(["First sentence.", "Second one."]); // Float32Array, 2 × 512
//! ```

use crate::encoder::{Encoder, EncoderFiles, Embedding, DIM};
use js_sys::Float32Array;
use wasm_bindgen::prelude::*;

/// Checks the encoder's wasm matmul kernel against a scalar model of every
/// op tract may ask of it; returns how many checks passed.
#[wasm_bindgen(js_name = checkMatmulKernel)]
pub fn check_matmul_kernel() -> Result<usize, JsError> {
    crate::encoder::check_wasm_matmul_kernel().map_err(|e| JsError::new(&format!("wasm matmul kernel: {e}")))
}

/// Checks the int8 encoder's integer product (i32x4.dot_i16x8_s) against
/// its scalar model and a plain triple loop; returns how many checks passed.
#[wasm_bindgen(js_name = checkInt8Product)]
pub fn check_int8_product() -> Result<usize, JsError> {
    crate::encoder::check_int8_product().map_err(|e| JsError::new(&format!("int8 product: {e}")))
}

#[wasm_bindgen]
pub struct WasmEncoder {
    encoder: Encoder,
}

#[wasm_bindgen]
impl WasmEncoder {
    /// Loads and optimizes the model once; the other methods only run it.
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8], tokenizer: &[u8], table: &[u8]) -> Result<WasmEncoder, JsError> {
        console_error_panic_hook::set_once();
        let encoder = Encoder::from_bytes(EncoderFiles { network: onnx, tokenizer, table }).map_err(js_error)?;
        Ok(WasmEncoder { encoder })
    }

    /// Width of one embedding (512).
    #[wasm_bindgen(getter)]
    pub fn dim(&self) -> usize {
        DIM
    }

    /// The rows of `ids` in the embedding table, one after the other (a
    /// Uint8Array of ids × dim): what the encoder hands its graph, for a
    /// reference runtime fed the same inputs.
    #[wasm_bindgen(js_name = pieceRows)]
    pub fn piece_rows(&self, ids: Vec<u32>) -> Result<Vec<u8>, JsError> {
        let ids: Vec<i64> = ids.into_iter().map(i64::from).collect();
        self.encoder.table().gather(&ids).map_err(js_error)
    }

    /// Token ids of one sentence, BOS and EOS included (a Uint32Array).
    pub fn tokenize(&self, sentence: &str) -> Vec<u32> {
        self.encoder.tokenize(sentence)
    }

    /// L2-normalized embeddings, flat: sentence i is `[i * dim, (i + 1) * dim)`.
    pub fn encode(&self, sentences: Vec<String>) -> Result<Float32Array, JsError> {
        let sentences: Vec<&str> = sentences.iter().map(String::as_str).collect();
        let embeddings = self.encoder.encode(&sentences).map_err(js_error)?;
        Ok(flatten(&embeddings))
    }

    /// One profiled pass over `sentences`, every node timed by the page's
    /// `performance.now()`: JSON of [`crate::encoder::profile::Profile`] with
    /// the `top` slowest layers.
    #[wasm_bindgen(js_name = profileLayers)]
    pub fn profile_layers(&self, sentences: Vec<String>, top: usize) -> Result<String, JsError> {
        let global = js_sys::global();
        let performance = js_sys::Reflect::get(&global, &"performance".into()).map_err(|_| JsError::new("no performance"))?;
        let now: js_sys::Function =
            js_sys::Reflect::get(&performance, &"now".into()).map_err(|_| JsError::new("no performance.now"))?.into();
        let seconds = || now.call0(&performance).ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN) / 1000.0;
        let sentences: Vec<&str> = sentences.iter().map(String::as_str).collect();
        let pass = self.encoder.profile_layers_timed(&sentences, seconds).map_err(js_error)?;
        let profile = crate::encoder::profile::Profile::of(pass, top);
        serde_json::to_string(&profile).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Embeddings of already tokenized sentences: `token_ids` holds them all
    /// concatenated and sentence i owns `token_ids[offsets[i]..offsets[i + 1]]`
    /// (the layout of encoder.onnx's inputs). Lets a benchmark time the model
    /// alone, on exactly the ids another runtime is given.
    pub fn encode_ids(&self, token_ids: &[u32], offsets: &[u32]) -> Result<Float32Array, JsError> {
        let sentences = split_at_offsets(token_ids, offsets).map_err(js_error)?;
        let embeddings = self.encoder.encode_ids(&sentences).map_err(js_error)?;
        Ok(flatten(&embeddings))
    }
}

fn split_at_offsets(token_ids: &[u32], offsets: &[u32]) -> anyhow::Result<Vec<Vec<u32>>> {
    anyhow::ensure!(
        offsets.first() == Some(&0) && offsets.last().map(|&end| end as usize) == Some(token_ids.len()),
        "offsets must start at 0 and end at token_ids.length"
    );
    offsets
        .windows(2)
        .map(|pair| {
            let (start, end) = (pair[0] as usize, pair[1] as usize);
            anyhow::ensure!(start < end, "offsets must be strictly increasing (no empty sentence)");
            Ok(token_ids[start..end].to_vec())
        })
        .collect()
}

fn flatten(embeddings: &[Embedding]) -> Float32Array {
    let flat: Vec<f32> = embeddings.iter().flatten().copied().collect();
    Float32Array::from(&flat[..])
}

fn js_error(error: anyhow::Error) -> JsError {
    JsError::new(&format!("{error:#}"))
}

/// A trained centroid head (models/cera/cera.onnx or cerai.onnx), for the
/// browser benchmark of head inference.
#[wasm_bindgen]
pub struct WasmCentroidHead {
    head: crate::centroid::CeraHead,
}

#[wasm_bindgen]
impl WasmCentroidHead {
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8]) -> Result<WasmCentroidHead, JsError> {
        Ok(WasmCentroidHead { head: crate::centroid::CeraHead::from_bytes(onnx).map_err(js_error)? })
    }

    /// The centroid of `embeddings` (flat, 512 per sentence), each sentence
    /// at `positions[i]` of document `documents[i]`.
    pub fn centroid(&self, embeddings: &[f32], positions: &[u32], documents: &[u32]) -> Result<Float32Array, JsError> {
        let rows: Vec<Embedding> = embeddings
            .chunks_exact(DIM)
            .map(|row| row.try_into().expect("chunks of DIM"))
            .collect();
        let widen = |v: &[u32]| v.iter().map(|&x| x as usize).collect::<Vec<_>>();
        let output = self.head.run(&rows, &widen(positions), &widen(documents)).map_err(js_error)?;
        Ok(Float32Array::from(&output.centroid[..]))
    }
}

