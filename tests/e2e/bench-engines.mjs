// Benchmark of the built app in the three engines (not a test), through
// their WebDriver servers (engines/drivers.mjs), in one run, the engines
// taking turns (the order rotates every round) so that the machine's load
// falls on all of them alike:
//
//   xvfb-run -a node bench-engines.mjs --data ../../../shared/data/duc2004/docs [--rounds 2]
//       [--engines chromium,firefox,webkit] [--variant 'webkit JSC_useOMGJIT=false'] [--variant 'webkit ?helpers=0']
//
// Each engine gets a fresh profile per round and is measured on:
// - model ready, cold: the page opened for the first time, the model
//   downloaded from the local server, cached and built (the worker's own
//   "Model ready in … s" and the page's time from navigation);
// - first summary: "Load example" then Summarize right after the page is
//   interactive, so it waits for the model (time from navigation), and the
//   click → summary time;
// - model ready from the Cache API (the page reloaded);
// - a DUC2004 cluster warm: helpers up, the encoder warmed on the example
//   set, then the cluster's files uploaded and summarized (split + encode
//   + select, the worker's breakdown), and once more with its embeddings
//   cached.
// A variant is an engine with environment variables for its browser
// (WebKit's JSC_* options reach its web process), a query string for the
// app (?helpers=0: no helper workers, ?helpers=1: one) and/or another build
// (@path/to/dist, served on a server of its own: before/after in one run).
//
// Needs dist/ (trunk build --release). DUC files are read at run time from
// the shared data folder and never copied into the project.
import { By, until } from "selenium-webdriver";
import { readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ARTIFACTS } from "./helpers.mjs";
import { DIST, startServer } from "./serve.mjs";
import { ENGINES, startEngine } from "./engines/drivers.mjs";
import { startGate } from "./engines/gate.mjs";

const { values: args } = parseArgs({
  options: {
    engines: { type: "string", default: ENGINES.join(",") },
    variant: { type: "string", multiple: true, default: [] },
    rounds: { type: "string", default: "2" },
    cluster: { type: "string", default: "1" },
    data: { type: "string", default: resolve(DIST, "../../shared/data/duc2004/docs") },
    dist: { type: "string", default: DIST },
    out: { type: "string", default: join(ARTIFACTS, "bench-engines.json") },
  },
});

/** "webkit JSC_useOMGJIT=false ?helpers=0 @dist" → { name, engine, env, query, dist }. */
function variant(spec) {
  const [engine, ...rest] = spec.trim().split(/\s+/);
  if (!ENGINES.includes(engine)) throw new Error(`unknown engine in ${spec}`);
  const env = Object.fromEntries(rest.filter((t) => /^[A-Za-z_]\w*=/.test(t)).map((t) => t.split(/=(.*)/s).slice(0, 2)));
  const query = rest.find((t) => t.startsWith("?")) ?? "";
  const dist = resolve(rest.find((t) => t.startsWith("@"))?.slice(1) ?? args.dist);
  return { name: spec.trim(), engine, env, query, dist };
}

const variants = [...args.engines.split(",").filter(Boolean), ...args.variant].map(variant);
const clusterDir = join(args.data, args.cluster);
const ducFiles = readdirSync(clusterDir).filter((f) => f.endsWith(".txt")).sort().map((f) => join(clusterDir, f));
const MODEL_TIMEOUT = 300_000;
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/** The SIMD probe of wasm-feature-detect: a function returning a v128. */
const SIMD_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];

async function measure(v, servers) {
  const { server, gate } = servers.get(v.dist);
  const { driver, stop } = await startEngine(v.engine, gate.address, v.env);
  const url = server.url + v.query;
  const script = (body, ...a) => driver.executeScript(body, ...a);
  const waitFor = (condition, timeout, message) => driver.wait(condition, timeout, `${v.name}: ${message}`, 25);
  const byTestId = (id) => By.css(`[data-testid="${id}"]`);
  const cards = async () => (await driver.findElements(byTestId("article-card"))).length;
  const mark = (name) => script(`return performance.getEntriesByName(arguments[0]).at(-1)?.startTime ?? null`, name);
  const loadExample = async () => {
    await driver.findElement(By.xpath("//button[normalize-space()='Load example']")).click();
    await waitFor(async () => (await cards()) === 5, 60_000, "five example cards");
  };
  // The model's badge: polled for pages built before the precis:model-ready mark.
  const modelReady = async () => {
    await waitFor(until.elementLocated(By.css('[data-testid="model-status"][data-state="ready"]')), MODEL_TIMEOUT, "the model is ready");
    const polled = await script("return performance.now()");
    const badge = await driver.findElement(byTestId("model-status"));
    const text = await script("return arguments[0].textContent", badge);
    return {
      pageMs: Math.round((await mark("precis:model-ready")) ?? polled),
      workerS: Number(/ready in ([0-9.]+) s/.exec(text)?.[1]),
      details: await script("return arguments[0].title", badge),
    };
  };
  const summarize = async () => {
    await script("performance.clearMarks('precis:summary-shown'); performance.clearMarks('precis:summarize-start')");
    await driver.findElement(byTestId("summarize")).click();
    await waitFor(async () => (await mark("precis:summary-shown")) !== null, MODEL_TIMEOUT, "a summary");
    const [start, end] = [await mark("precis:summarize-start"), await mark("precis:summary-shown")];
    const breakdown = await script("return document.querySelector('#progress-label')?.title ?? ''");
    return { ms: Math.round(end - start), shownAt: Math.round(end), breakdown };
  };
  try {
    const result = { variant: v.name, loadBefore: load() };
    // Cold: a fresh profile, so the model is downloaded.
    await driver.get(url);
    await waitFor(until.elementLocated(By.css("html[data-ready=true]")), 60_000, "the app is interactive");
    result.engine = await script(
      `return { userAgent: navigator.userAgent, cores: navigator.hardwareConcurrency,
                simd: WebAssembly.validate(new Uint8Array(arguments[0])), interactiveMs: Math.round(performance.getEntriesByName("precis:interactive")[0]?.startTime) }`,
      SIMD_PROBE,
    );
    await loadExample();
    const first = await summarize();
    result.firstSummary = { fromNavigationMs: first.shownAt, clickToSummaryMs: first.ms, breakdown: first.breakdown };
    result.coldModel = await modelReady();
    // Warm: the model from the Cache API.
    await driver.get(url);
    await waitFor(until.elementLocated(By.css("html[data-ready=true]")), 60_000, "the app is interactive again");
    result.cachedModel = await modelReady();
    // Warm means every helper is up (as src/worker/pool.rs counts them).
    const asked = /helpers=(\d+)/.exec(v.query)?.[1];
    result.helpers = Math.min(2, asked === undefined ? Math.max(result.engine.cores - 1, 0) : Number(asked));
    const helpersReady = async () => Number(await driver.findElement(byTestId("model-status")).getAttribute("data-helpers"));
    await waitFor(async () => (await helpersReady()) >= result.helpers, MODEL_TIMEOUT, `${result.helpers} helpers`);
    result.helpersReadyMs = Math.round((await mark("precis:helper-ready")) ?? (await script("return performance.now()")));
    if ((await cards()) > 0) await driver.findElement(By.xpath("//button[normalize-space()='Clear all']")).click();
    await waitFor(async () => (await cards()) === 0, 10_000, "no cards");
    await loadExample();
    result.exampleWarm = await summarize();
    await driver.findElement(By.xpath("//button[normalize-space()='Clear all']")).click();
    await waitFor(async () => (await cards()) === 0, 10_000, "no cards");
    await driver.findElement(byTestId("file-input")).sendKeys(ducFiles.join("\n"));
    await waitFor(async () => (await cards()) === ducFiles.length, 60_000, `${ducFiles.length} cards`);
    result.loadDuc = load();
    result.duc = await summarize();
    result.duc.sentences = (await driver.findElements(By.css(".source .sentence"))).length;
    result.ducCached = await summarize();
    return result;
  } finally {
    await driver.quit().catch(() => {});
    stop?.();
  }
}

// One server (and gate) per build.
const servers = new Map();
for (const dist of new Set(variants.map((v) => v.dist))) {
  const server = await startServer(dist);
  servers.set(dist, { server, gate: await startGate(server.url) });
}
const results = [];
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const v of order) {
      process.stdout.write(`round ${round + 1}, ${v.name} (load ${load()}) … `);
      try {
        const r = await measure(v, servers);
        results.push({ round: round + 1, ...r });
        console.log(
          `model ready ${r.coldModel.workerS} s cold / ${r.cachedModel.workerS} s cached; first summary ${r.firstSummary.fromNavigationMs} ms ` +
            `(click → summary ${r.firstSummary.clickToSummaryMs} ms); example warm ${r.exampleWarm.ms} ms; ` +
            `DUC ${r.duc.sentences} sentences ${r.duc.ms} ms [${r.duc.breakdown}], cached ${r.ducCached.ms} ms; ` +
            `${r.helpers} helpers ready at ${r.helpersReadyMs} ms; cores ${r.engine.cores}, SIMD ${r.engine.simd}; ` +
            `cold: ${r.coldModel.details}; cached: ${r.cachedModel.details}`,
        );
      } catch (e) {
        console.log(`failed: ${e.message.split("\n")[0]}`);
        results.push({ round: round + 1, variant: v.name, error: e.message });
      }
    }
  }
} finally {
  for (const { server, gate } of servers.values()) {
    await gate.close();
    await server.close();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const summary = variants.map((v) => {
  const rs = results.filter((r) => r.variant === v.name && !r.error);
  const m = (f) => median(rs.map(f));
  return {
    variant: v.name,
    runs: rs.length,
    modelReadyColdS: m((r) => r.coldModel.workerS),
    modelReadyCachedS: m((r) => r.cachedModel.workerS),
    firstSummaryMs: m((r) => r.firstSummary.fromNavigationMs),
    clickToFirstSummaryMs: m((r) => r.firstSummary.clickToSummaryMs),
    helpersReadyMs: m((r) => r.helpersReadyMs),
    exampleWarmMs: m((r) => r.exampleWarm.ms),
    ducWarmMs: m((r) => r.duc.ms),
    ducCachedMs: m((r) => r.ducCached.ms),
  };
});
writeFileSync(args.out, JSON.stringify({ date: new Date().toISOString(), cluster: clusterDir, files: ducFiles.length, summary, results }, null, 1));
console.log(`\nmedians (${Number(args.rounds)} rounds; load average now ${load()}), cluster ${clusterDir} (${ducFiles.length} files):`);
console.table(summary);
