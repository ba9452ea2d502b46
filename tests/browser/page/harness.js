// Browser side of the encoder parity test and benchmark. Node drives it
// through window.harness (tests/browser/lib/harness.mjs serves this folder at /,
// the wasm-bindgen package at /pkg/, models/muse-v3 at /models/ and
// onnxruntime-web's dist at /ort/). Timings are taken here, in the page, so
// that no Playwright round trip is counted.

import init, { WasmCentroidHead, WasmEncoder, checkInt8Product, checkMatmulKernel } from "/pkg/precis.js";

// Encoder::encode_ids' batch limits (the largest of TIERS in src/encoder.rs), so that
// onnxruntime-web runs the batches our encoder runs. Keep them in step.
const BATCH_TOKENS = 2048;
const BATCH_SENTENCES = 128;
const BATCH_PIECES = 1024; // distinct pieces, for models with a piece_ids input

let model; // { onnx: Uint8Array, tokenizer: Uint8Array, table: Uint8Array }
let precis; // { wasm: exports (memory), encoder: WasmEncoder }
let ort; // the onnxruntime-web module, imported on demand
let ortSession;
let benchInput; // sentences, their ids and onnxruntime-web feeds (prepareBench)

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
  const ids = sentences.map((s) => Array.from(precis.encoder.tokenize(s)));
  const offsets = new Uint32Array(ids.length + 1);
  ids.forEach((sentence, i) => (offsets[i + 1] = offsets[i] + sentence.length));
  const flat = new Uint32Array(offsets[ids.length]);
  ids.forEach((sentence, i) => flat.set(sentence, offsets[i]));
  return { ids, flat, offsets };
}

/** A batch of tokenized sentences and its distinct pieces in order of first use. */
const emptyBatch = () => ({ sentences: [], indices: [], tokens: 0, pieces: new Map() });

function fits(batch, sentence, limitPieces) {
  const newPieces = new Set(sentence.filter((id) => !batch.pieces.has(id))).size;
  return (
    batch.tokens + sentence.length <= BATCH_TOKENS &&
    batch.sentences.length < BATCH_SENTENCES &&
    (!limitPieces || batch.pieces.size + newPieces <= BATCH_PIECES)
  );
}

function push(batch, sentence) {
  batch.sentences.push(sentence);
  batch.tokens += sentence.length;
  for (const id of sentence) if (!batch.pieces.has(id)) batch.pieces.set(id, batch.pieces.size);
}

/** Encoder::batch_order: by the lower median of each sentence's piece ids
 *  between BOS and EOS (0 for none), ties in input order. */
function batchOrder(ids) {
  const key = ids.map((sentence) => {
    const inner = sentence.slice(1, -1).sort((a, b) => a - b);
    return inner.length > 0 ? inner[(inner.length - 1) >> 1] : 0;
  });
  return ids.map((_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
}

/** Greedy packing in batch order, as Encoder::encode_ids does; each batch
 *  keeps its sentences' input positions in `indices`. */
function packBatches(ids) {
  const limitPieces = ortSession.inputNames.includes("piece_ids");
  const batches = [];
  let batch = emptyBatch();
  for (const index of batchOrder(ids)) {
    const sentence = ids[index];
    if (batch.sentences.length > 0 && !fits(batch, sentence, limitPieces)) {
      batches.push(batch);
      batch = emptyBatch();
    }
    push(batch, sentence);
    batch.indices.push(index);
  }
  if (batch.sentences.length > 0) batches.push(batch);
  return batches;
}

const int64Tensor = (values) => new ort.Tensor("int64", BigInt64Array.from(values, BigInt), [values.length]);

/** The rows of `ids` in table.u8, as our encoder reads them (the table's
 *  blocks are zlib; src/encoder/table.rs reads them, and the native parity
 *  test checks those rows against models/build.py's). */
function tableRows(ids) {
  const rows = precis.encoder.pieceRows(Uint32Array.from(ids));
  return new ort.Tensor("uint8", rows, [ids.length, rows.length / ids.length]);
}

/** The model's inputs for a batch, for either layout encoder.onnx has had:
 *  token_ids, or piece_ids + token_pieces (each token as an index into piece_ids). */
function ortFeeds(batch) {
  const offsets = [0];
  for (const sentence of batch.sentences) offsets.push(offsets.at(-1) + sentence.length);
  const tokens = batch.sentences.flat();
  const inputs = {
    token_ids: () => tokens,
    piece_ids: () => [...batch.pieces.keys()],
    token_pieces: () => tokens.map((id) => batch.pieces.get(id)),
    sentence_offsets: () => offsets,
  };
  return Object.fromEntries(
    ortSession.inputNames.map((name) => {
      if (name === "piece_rows") return [name, tableRows(inputs.piece_ids())];
      if (!(name in inputs)) throw new Error(`encoder.onnx input ${name} is unknown to this harness`);
      return [name, int64Tensor(inputs[name]())];
    }),
  );
}

/** Milliseconds of one run of each runtime, in turn (after one untimed run of each if `warmUp`). */
async function timeEach(runtimes, warmUp) {
  if (warmUp) for (const work of Object.values(runtimes)) await work();
  const times = {};
  for (const [name, work] of Object.entries(runtimes)) {
    const start = performance.now();
    await work();
    times[name] = since(start);
  }
  return times;
}

window.harness = {
  async fetchModel() {
    const start = performance.now();
    const [onnx, tokenizer, table] = await Promise.all([
      fetchBytes("/models/encoder.onnx"),
      fetchBytes("/models/tokenizer.json"),
      fetchBytes("/models/table.u8"),
    ]);
    model = { onnx, tokenizer, table };
    return { fetchMs: since(start), onnxBytes: onnx.length, tokenizerBytes: tokenizer.length, tableBytes: table.length };
  },

  /** The int8 build as the app reads it (models/muse-v3/encoder-int8.graph, the
   * ONNX file's graph typed and decluttered, and tokenizer.bin, tokenizer.json
   * parsed and sorted) as a second encoder, after loadPrecis. */
  async loadPrecisInt8() {
    const [onnx, tokenizer] = await Promise.all([fetchBytes("/models/encoder-int8.graph"), fetchBytes("/models/tokenizer.bin")]);
    const built = performance.now();
    precis.int8 = new WasmEncoder(onnx, tokenizer, model.table);
    return { loadMs: since(built), onnxBytes: onnx.length };
  },

  /** Instantiates our wasm and builds the encoder from the fetched bytes. */
  async loadPrecis() {
    const start = performance.now();
    const wasm = await init({ module_or_path: "/pkg/precis_bg.wasm" });
    const instantiateMs = since(start);
    const built = performance.now();
    const encoder = new WasmEncoder(model.onnx, model.tokenizer, model.table);
    precis = { wasm, encoder };
    return { instantiateMs, loadMs: since(built), wasmMemoryBytes: wasm.memory.buffer.byteLength };
  },

  /** Our wasm matmul kernels (f32, and the int8 product) against their scalar models (throws on a mismatch). */
  checkMatmulKernel() {
    return checkMatmulKernel() + checkInt8Product();
  },

  tokenize(sentences) {
    return sentences.map((s) => Array.from(precis.encoder.tokenize(s)));
  },

  /** One profiled pass of our wasm (`int8`: the int8 build) over `sentences`: time per op and the `top` slowest layers. */
  profileLayers(sentences, int8, top) {
    return JSON.parse((int8 ? precis.int8 : precis.encoder).profileLayers(sentences, top));
  },

  /** Embeddings of all sentences in one call, as base64 of the flat float32 bytes (`int8`: the int8 build's). */
  encodeBase64(sentences, int8 = false) {
    return toBase64((int8 ? precis.int8 : precis.encoder).encode(sentences));
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
    const dim = 512;
    const flat = new Float32Array(sentences.length * dim);
    for (const batch of packBatches(flatIds(sentences).ids)) {
      const output = await ortSession.run(ortFeeds(batch));
      // Back to input order (batches follow batchOrder).
      batch.indices.forEach((index, row) => flat.set(output.embeddings.data.subarray(row * dim, (row + 1) * dim), index * dim));
    }
    return toBase64(flat);
  },

  /** Tokenizes the benchmark sentences once and packs onnxruntime-web's batches. */
  prepareBench(sentences) {
    const start = performance.now();
    const { ids, flat, offsets } = flatIds(sentences);
    const tokenizeMs = since(start);
    const feeds = packBatches(ids).map(ortFeeds);
    benchInput = { sentences, flat, offsets, feeds };
    return { sentences: sentences.length, tokens: flat.length, batches: feeds.length, tokenizeMs };
  },

  /**
   * One timed run of each runtime over the prepared sentences: our wasm from
   * text (tokenization included), our wasm from token ids, onnxruntime-web
   * from the same ids in the same batches. Milliseconds per runtime.
   */
  async benchRound(warmUp) {
    const { sentences, flat, offsets, feeds } = benchInput;
    return timeEach(
      {
        precisText: () => precis.encoder.encode(sentences),
        precisIds: () => precis.encoder.encode_ids(flat, offsets),
        ...(precis.int8 ? { precisInt8Text: () => precis.int8.encode(sentences) } : {}),
        ortIds: async () => {
          for (const feed of feeds) await ortSession.run(feed);
        },
      },
      warmUp,
    );
  },

  /**
   * Inference time of a trained centroid head (models/cera/<name>.onnx) on
   * a synthetic cluster of `sentences` unit embeddings in 10 documents:
   * milliseconds of each of `runs` calls after one warm-up call.
   */
  async timeHead(name, sentences, runs) {
    if (!precis) await init({ module_or_path: "/pkg/precis_bg.wasm" });
    const head = new WasmCentroidHead(await fetchBytes(`/heads/${name}.onnx`));
    let seed = 12;
    const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const embeddings = new Float32Array(sentences * 512).map(random);
    for (let s = 0; s < sentences; s++) {
      const row = embeddings.subarray(s * 512, (s + 1) * 512);
      const norm = Math.hypot(...row);
      row.forEach((x, i) => (row[i] = x / norm));
    }
    const documents = Uint32Array.from({ length: sentences }, (_, s) => s % 10);
    const positions = Uint32Array.from({ length: sentences }, (_, s) => Math.floor(s / 10));
    head.centroid(embeddings, positions, documents);
    const times = [];
    for (let r = 0; r < runs; r++) {
      const start = performance.now();
      head.centroid(embeddings, positions, documents);
      times.push(since(start));
    }
    head.free();
    return times;
  },

  memory() {
    return {
      precisWasmMemoryBytes: precis?.wasm.memory.buffer.byteLength ?? null,
      jsHeapUsedBytes: performance.memory?.usedJSHeapSize ?? null,
      jsHeapTotalBytes: performance.memory?.totalJSHeapSize ?? null,
    };
  },
};
