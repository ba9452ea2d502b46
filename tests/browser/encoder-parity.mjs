// Wasm encoder parity in headless Chromium: the fixture's sentences encoded
// by our wasm build (src/wasm_api.rs) must equal the native CLI's embeddings
// (`precis embed`) to within MAX_ABS_DIFF, with identical token ids; and the
// int8 build's (our integer product in wasm, tract's natively) to within
// MAX_ABS_DIFF_INT8.
//
// Run through ./run-encoder-parity.sh (builds the wasm package and the CLI first).

import { join } from "node:path";
import {
  ROOT, decodeFloat32, jsonLines, launchBrowser, openHarness, precisBin, readSentences, run, startServer,
} from "./lib/harness.mjs";

const MAX_ABS_DIFF = 1e-4;
// Both sides multiply the same int8 values exactly, but the f32 activations
// they quantize differ in the last bits, and a value on a rounding boundary
// then moves by one step (1/127 of its row's largest).
const MAX_ABS_DIFF_INT8 = 1e-3;
const FIXTURE = join(ROOT, "tests/fixtures/parity_sentences.txt");
const DIM = 512;

const preview = (s) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

async function nativeEncoding(sentences) {
  const input = sentences.join("\n") + "\n";
  const ids = jsonLines(await run(precisBin(), ["tokenize"], { input }));
  const embeddings = jsonLines(await run(precisBin(), ["--encoder", "f32", "embed"], { input }));
  const int8 = jsonLines(await run(precisBin(), ["--encoder", "int8", "embed"], { input }));
  return { ids, embeddings, int8 };
}

async function wasmEncoding(sentences) {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await openHarness(browser, server.url);
    const fetched = await page.evaluate(() => harness.fetchModel());
    const loaded = await page.evaluate(() => harness.loadPrecis());
    // Throws (failing the test) when the kernel disagrees with its model.
    const kernelChecks = await page.evaluate(() => harness.checkMatmulKernel());
    console.log(`wasm matmul kernel: ${kernelChecks} checks against its scalar model passed`);
    const start = performance.now();
    const flat = decodeFloat32(await page.evaluate((s) => harness.encodeBase64(s), sentences));
    const encodeMs = performance.now() - start;
    const ids = await page.evaluate((s) => harness.tokenize(s), sentences);
    const int8Loaded = await page.evaluate(() => harness.loadPrecisInt8());
    const int8Start = performance.now();
    const int8 = decodeFloat32(await page.evaluate((s) => harness.encodeBase64(s, true), sentences));
    console.log(`int8 build: loaded in ${int8Loaded.loadMs.toFixed(0)} ms, encoded in ${(performance.now() - int8Start).toFixed(0)} ms`);
    const memory = await page.evaluate(() => harness.memory());
    console.log(
      `browser: fetched ${(fetched.onnxBytes / 1e6).toFixed(1)} MB model in ${fetched.fetchMs.toFixed(0)} ms, ` +
        `wasm instantiated in ${loaded.instantiateMs.toFixed(0)} ms, encoder built in ${loaded.loadMs.toFixed(0)} ms, ` +
        `${sentences.length} sentences encoded in ${encodeMs.toFixed(0)} ms, ` +
        `wasm memory ${(memory.precisWasmMemoryBytes / 2 ** 20).toFixed(0)} MiB`,
    );
    return { ids, flat, int8 };
  } finally {
    await browser.close();
    await server.close();
  }
}

function compare(sentences, native, wasm, limit) {
  const failures = [];
  let worst = { diff: 0, line: 0 };
  sentences.forEach((sentence, i) => {
    if (JSON.stringify(native.ids[i]) !== JSON.stringify(wasm.ids[i])) {
      failures.push(`line ${i + 1}: token ids differ ${preview(sentence)}`);
    }
    let diff = 0;
    for (let d = 0; d < DIM; d++) {
      const delta = Math.abs(native.embeddings[i][d] - wasm.flat[i * DIM + d]);
      diff = Number.isNaN(delta) ? Infinity : Math.max(diff, delta);
    }
    if (diff > worst.diff) worst = { diff, line: i + 1 };
    if (!(diff <= limit)) failures.push(`line ${i + 1}: max |diff| ${diff.toExponential(2)} ${preview(sentence)}`);
  });
  return { failures, worst };
}

async function main() {
  const sentences = readSentences(FIXTURE);
  const native = await nativeEncoding(sentences);
  const wasm = await wasmEncoding(sentences);
  if (native.embeddings.length !== sentences.length || wasm.flat.length !== sentences.length * DIM) {
    throw new Error(`expected ${sentences.length} embeddings: native ${native.embeddings.length}, wasm ${wasm.flat.length / DIM}`);
  }
  const builds = [
    ["f32", compare(sentences, native, wasm, MAX_ABS_DIFF), MAX_ABS_DIFF],
    ["int8", compare(sentences, { ids: native.ids, embeddings: native.int8 }, { ids: wasm.ids, flat: wasm.int8 }, MAX_ABS_DIFF_INT8), MAX_ABS_DIFF_INT8],
  ];
  const failures = [];
  for (const [name, { failures: failed, worst }, limit] of builds) {
    console.log(
      `wasm vs native, ${name}: ${sentences.length} sentences, max |diff| ${worst.diff.toExponential(2)} ` +
        `(line ${worst.line}: ${preview(sentences[worst.line - 1] ?? "")}), limit ${limit}`,
    );
    failures.push(...failed.map((f) => `${name} ${f}`));
  }
  if (failures.length > 0) {
    console.error(`FAIL: ${failures.length} sentence(s)\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
  console.log("PASS: wasm encoders (f32, int8) match the native ones");
}

await main();
