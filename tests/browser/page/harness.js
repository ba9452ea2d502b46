// Browser side of the encoder parity test and benchmark. Node drives it
// through window.harness (tests/browser/lib/harness.mjs serves this folder at /,
// the wasm-bindgen package at /pkg/, models/muse-v3 at /models/ and
// onnxruntime-web's dist at /ort/). Timings are taken here, in the page, so
// that no Playwright round trip is counted.

import init, { WasmEncoder } from "/pkg/precis.js";

// The packing encoder.rs uses, so onnxruntime-web runs the same batches.
const BATCH_TOKENS = 1024;
const BATCH_SENTENCES = 64;

let model; // { onnx: Uint8Array, tokenizer: Uint8Array }
let precis; // { wasm: exports (memory), encoder: WasmEncoder }
let ort; // the onnxruntime-web module, imported on demand
let ortSession;

const since = (start) => performance.now() - start;

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function toBase64(floats) {
  const bytes = new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Token ids of every sentence, concatenated, with CSR offsets. */
function flatIds(sentences) {
  const ids = sentences.map((s) => precis.encoder.tokenize(s));
  const offsets = new Uint32Array(ids.length + 1);
  ids.forEach((sentence, i) => (offsets[i + 1] = offsets[i] + sentence.length));
  const flat = new Uint32Array(offsets[ids.length]);
  ids.forEach((sentence, i) => flat.set(sentence, offsets[i]));
  return { ids, flat, offsets };
}

/** Greedy in-order packing, as Encoder::encode_ids does. */
function packBatches(ids) {
  const batches = [];
  let batch = [];
  let tokens = 0;
  for (const sentence of ids) {
    const full = tokens + sentence.length > BATCH_TOKENS || batch.length === BATCH_SENTENCES;
    if (batch.length > 0 && full) {
      batches.push(batch);
      batch = [];
      tokens = 0;
    }
    batch.push(sentence);
    tokens += sentence.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function ortFeeds(batch) {
  const offsets = new BigInt64Array(batch.length + 1);
  batch.forEach((sentence, i) => (offsets[i + 1] = offsets[i] + BigInt(sentence.length)));
  const tokenIds = new BigInt64Array(Number(offsets[batch.length]));
  let at = 0;
  for (const sentence of batch) for (const id of sentence) tokenIds[at++] = BigInt(id);
  return {
    token_ids: new ort.Tensor("int64", tokenIds, [tokenIds.length]),
    sentence_offsets: new ort.Tensor("int64", offsets, [offsets.length]),
  };
}

/**
 * One warm-up run of each runtime, then `passes` rounds that run each once in
 * turn, so that a change in machine load hits all of them alike.
 * Returns each runtime's milliseconds per round.
 */
async function timeRounds(passes, runtimes) {
  for (const work of Object.values(runtimes)) await work();
  const times = Object.fromEntries(Object.keys(runtimes).map((name) => [name, []]));
  for (let round = 0; round < passes; round++) {
    for (const [name, work] of Object.entries(runtimes)) {
      const start = performance.now();
      await work();
      times[name].push(since(start));
    }
  }
  return times;
}

window.harness = {
  async fetchModel() {
    const start = performance.now();
    const [onnx, tokenizer] = await Promise.all([
      fetchBytes("/models/encoder.onnx"),
      fetchBytes("/models/tokenizer.json"),
    ]);
    model = { onnx, tokenizer };
    return { fetchMs: since(start), onnxBytes: onnx.length, tokenizerBytes: tokenizer.length };
  },

  /** Instantiates our wasm and builds the encoder from the fetched bytes. */
  async loadPrecis() {
    const start = performance.now();
    const wasm = await init({ module_or_path: "/pkg/precis_bg.wasm" });
    const instantiateMs = since(start);
    const built = performance.now();
    const encoder = new WasmEncoder(model.onnx, model.tokenizer);
    precis = { wasm, encoder };
    return { instantiateMs, loadMs: since(built), wasmMemoryBytes: wasm.memory.buffer.byteLength };
  },

  tokenize(sentences) {
    return sentences.map((s) => Array.from(precis.encoder.tokenize(s)));
  },

  /** Embeddings of all sentences in one call, as base64 of the flat float32 bytes. */
  encodeBase64(sentences) {
    return toBase64(precis.encoder.encode(sentences));
  },

  async loadOrt() {
    const start = performance.now();
    ort = await import("/ort/ort.wasm.min.mjs");
    ort.env.wasm.wasmPaths = "/ort/";
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.simd = true;
    const imported = performance.now();
    ortSession = await ort.InferenceSession.create(model.onnx, {
      executionProviders: ["wasm"],
      graphOptimizationLevel: "all",
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    });
    return { importMs: imported - start, loadMs: since(imported) };
  },

  async ortEncodeBase64(sentences) {
    const rows = [];
    for (const batch of packBatches(flatIds(sentences).ids)) {
      const output = await ortSession.run(ortFeeds(batch));
      rows.push(output.embeddings.data);
    }
    const flat = new Float32Array(rows.reduce((n, r) => n + r.length, 0));
    rows.reduce((at, r) => (flat.set(r, at), at + r.length), 0);
    return toBase64(flat);
  },

  /**
   * Timed rounds over the same sentences of: our wasm from text (tokenization
   * included), our wasm from token ids, onnxruntime-web from the same ids in
   * the same batches.
   */
  async bench(sentences, passes) {
    const { ids, flat, offsets } = flatIds(sentences);
    const batches = packBatches(ids);
    const feeds = batches.map(ortFeeds);
    const tokenizeStart = performance.now();
    sentences.forEach((s) => precis.encoder.tokenize(s));
    const tokenizeMs = since(tokenizeStart);
    const times = await timeRounds(passes, {
      precisText: () => precis.encoder.encode(sentences),
      precisIds: () => precis.encoder.encode_ids(flat, offsets),
      ortIds: async () => {
        for (const feed of feeds) await ortSession.run(feed);
      },
    });
    return { sentences: sentences.length, tokens: flat.length, batches: batches.length, tokenizeMs, ...times };
  },

  memory() {
    return {
      precisWasmMemoryBytes: precis?.wasm.memory.buffer.byteLength ?? null,
      jsHeapUsedBytes: performance.memory?.usedJSHeapSize ?? null,
      jsHeapTotalBytes: performance.memory?.totalJSHeapSize ?? null,
    };
  },
};
