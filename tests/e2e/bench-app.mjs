// Benchmark of the built app (not a test): cold start on a local server,
// first summary of the example set, warm summary of a DUC 2004 cluster,
// its re-selection after a strike, main-thread long tasks while summarizing, a 5 MB paste (its input
// handler and the longest task until it is refused), and bundle sizes.
//
//   node bench-app.mjs [--cluster 1] [--data ../../../shared/data/duc2004/docs] [--alone] [--dist DIR]
//
// Needs dist/ (trunk build --release), or --dist: another build's dist/, to
// compare two builds with the same script in one series. Each measurement
// gets its own browser, so the peak resident memory of its renderer
// processes (the page, the app's worker and its helpers) is that page's. DUC files are read at run time from
// the shared data folder and never copied into the project.
import { chromium } from "playwright-core";
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ARTIFACTS } from "./helpers.mjs";
import { bundleSizes } from "./bundle.mjs";
import { peakRendererMemory } from "./processes.mjs";
import { DIST, startServer } from "./serve.mjs";

const { values: args } = parseArgs({
  options: {
    cluster: { type: "string", default: "1" },
    dist: { type: "string", default: DIST },
    data: { type: "string", default: resolve(DIST, "../../shared/data/duc2004/docs") },
    runs: { type: "string", default: "3" },
    // --alone: the worker encodes without its helper workers (?helpers=0).
    alone: { type: "boolean", default: false },
  },
});

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

/** Installs a long-task recorder; returns nothing. */
const watchLongTasks = (page) =>
  page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });

/** Clicks Summarize and returns the click→summary time and long tasks in between. */
async function timedSummary(page) {
  await page.evaluate(() => performance.clearMarks());
  await page.getByTestId("summarize").click();
  await page.waitForFunction(() => performance.getEntriesByName("precis:summary-shown").length > 0, null, { timeout: 300_000 });
  return page.evaluate(() => {
    const start = performance.getEntriesByName("precis:summarize-start")[0].startTime;
    const end = performance.getEntriesByName("precis:summary-shown")[0].startTime;
    const tasks = window.__longTasks.filter((t) => t.start + t.duration >= start && t.start <= end + 50);
    // The worker's own split / encode / select times (the progress label's tooltip).
    const label = document.querySelector("#progress-label");
    const breakdown = label?.title ?? "";
    // The messages' share: request sent → answer decoded, less the worker's own time.
    const decoded = performance.getEntriesByName("precis:answer-decoded").at(-1).startTime;
    const messageMs = decoded - start - Number(label?.dataset.workerMs ?? NaN);
    return { ms: end - start, messageMs, longTasks: tasks.map((t) => Math.round(t.duration)), breakdown };
  });
}

/** Strikes the summary's first line (then unstrikes it, to leave the
 *  articles as they were): the re-selection's time, click to summary shown,
 *  with the embeddings cached (issue 45's target: 150 ms warm). */
async function timedStrike(page) {
  const times = [];
  const embedded = [];
  const clicks = [() => page.getByTestId("summary-sentence").first().getByTestId("strike").click(), () => page.getByTestId("choice-undo").click()];
  for (const click of clicks) {
    await page.evaluate(() => performance.clearMarks());
    await click();
    await page.waitForFunction(() => performance.getEntriesByName("precis:summary-shown").length > 0, null, { timeout: 300_000 });
    times.push(
      await page.evaluate(
        () => performance.getEntriesByName("precis:summary-shown")[0].startTime - performance.getEntriesByName("precis:summarize-start")[0].startTime,
      ),
    );
    // The worker's own count: a re-selection encodes no sentence again.
    const done = await page.getByText(/Done in .* embedded, \d+ reused/).textContent();
    embedded.push(Number(/(\d+) sentences? embedded/.exec(done)[1]));
  }
  return { times, embedded };
}

/** The trained centroid heads on the page's articles (embeddings cached):
 *  the "centroid head" part of the breakdown, in ms per run (target < 5 ms). */
async function headTimes(page) {
  const heads = { sentences: await page.locator(".source .sentence").count() };
  for (const method of ["cera", "cerai"]) {
    if (await page.locator(`#method option[value="${method}"]`).isDisabled()) continue;
    await page.locator("#method").selectOption(method);
    const runs = [];
    for (let i = 0; i < Number(args.runs); i++) runs.push(await timedSummary(page));
    heads[method] = runs.map((r) => Number(/centroid head ([0-9.]+) ms/.exec(r.breakdown)?.[1]));
  }
  return heads;
}

async function coldStart(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("html[data-ready=true]");
  const interactive = await page.evaluate(() => performance.getEntriesByName("precis:interactive")[0].startTime);
  await watchLongTasks(page);
  await page.getByRole("button", { name: "Load example" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="article-card"]').length === 5);
  await page.getByTestId("summarize").click();
  await page.waitForFunction(() => performance.getEntriesByName("precis:summary-shown").length > 0, null, { timeout: 300_000 });
  const firstSummary = await page.evaluate(() => performance.getEntriesByName("precis:summary-shown")[0].startTime);
  const model = await page.getByTestId("model-status").textContent();
  const heads = await headTimes(page);
  const peakMemory = peakRendererMemory();
  await context.close();
  return { interactiveMs: Math.round(interactive), firstSummaryMs: Math.round(firstSummary), model, heads, peakMemory };
}

async function ducCluster(browser, url) {
  const dir = join(args.data, args.cluster);
  const files = readdirSync(dir).filter((f) => f.endsWith(".txt")).sort().map((f) => join(dir, f));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: 300_000 });
  // Warm means the helper workers (one per spare core) are up too.
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (cores > 1 && !args.alone) await page.waitForFunction(() => document.querySelector('[data-testid="model-status"]').dataset.helpers !== "0");
  // And the whole embedding table is on the device (issue #43: until then a
  // text's blocks are fetched first; builds before it have no data-offline).
  await page.waitForSelector('[data-testid="model-status"]:is([data-offline="true"], :not([data-offline]))', { timeout: 300_000 });
  await watchLongTasks(page);
  // Warm the encoder's code paths on other text first.
  await page.getByRole("button", { name: "Load example" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="article-card"]').length === 5);
  await timedSummary(page);
  await page.getByRole("button", { name: "Clear all" }).click();
  await page.getByTestId("file-input").setInputFiles(files);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="article-card"]').length === n, files.length);
  const firstTime = await timedSummary(page); // new sentences: split + encode + select
  const sentences = await page.locator(".source .sentence").count();
  const again = [];
  for (let i = 0; i < Number(args.runs); i++) again.push(await timedSummary(page)); // embeddings now cached
  const reselect = [];
  const reencoded = [];
  for (let i = 0; i < Number(args.runs); i++) {
    const { times, embedded } = await timedStrike(page);
    reselect.push(...times);
    reencoded.push(...embedded);
  }
  const heads = await headTimes(page);
  const peakMemory = peakRendererMemory();
  await context.close();
  return { cluster: args.cluster, files: files.length, sentences, firstTime, cachedEmbeddings: again, reselect, reencoded, heads, peakMemory };
}

/** A 5.4 MB paste, refused: how long the paste box's input handler takes
 *  and the longest main-thread task until the refusal shows
 *  (tests/e2e/specs/bad-input.test.mjs checks the refusal). */
async function hugePaste(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("html[data-ready=true]");
  const huge = "The harbour stayed closed all week. ".repeat(150_000);
  const handlerMs = await page.evaluate((text) => {
    const box = document.querySelector('[data-testid="article-input"]');
    box.value = text;
    const start = performance.now();
    box.dispatchEvent(new Event("input", { bubbles: true }));
    return performance.now() - start;
  }, huge);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
  await watchLongTasks(page);
  await page.getByTestId("add-article").click();
  await page.getByTestId("error").first().waitFor();
  const longestTaskMs = await page.evaluate(() => Math.max(0, ...window.__longTasks.map((t) => t.duration)));
  await context.close();
  return { bytes: huge.length, handlerMs: Math.round(handlerMs), longestTaskMs: Math.round(longestTaskMs) };
}

/** Runs `measure(browser)` in a browser of its own, closed after. */
async function inOwnBrowser(measure) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS, headless: true });
  try {
    return await measure(browser);
  } finally {
    await browser.close();
  }
}

const dist = resolve(args.dist);
const server = await startServer(dist);
try {
  const bundle = bundleSizes(dist);
  const url = server.url + (args.alone ? "?helpers=0" : "");
  const cold = await inOwnBrowser((browser) => coldStart(browser, url));
  const duc = await inOwnBrowser((browser) => ducCluster(browser, url));
  const paste = await inOwnBrowser((browser) => hugePaste(browser, url));
  const report = { date: new Date().toISOString(), dist, bundle, cold, duc, paste };
  writeFileSync(join(ARTIFACTS, "bench.json"), JSON.stringify(report, null, 1));
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`first load without model: ${kb(bundle.firstLoad.raw)} raw, ${kb(bundle.firstLoad.gzip)} gzip (${bundle.firstLoad.gzip} B)`);
  console.log(`  page ${kb(bundle.page.raw)} raw / ${kb(bundle.page.gzip)} gzip; worker ${kb(bundle.worker.raw)} raw / ${kb(bundle.worker.gzip)} gzip`);
  console.log(`  document reader, loaded on the first PDF or Word file: ${kb(bundle.reader.raw)} raw / ${kb(bundle.reader.gzip)} gzip (${bundle.reader.gzip} B)`);
  console.log(`cold: interactive ${cold.interactiveMs} ms, first summary of the example set ${cold.firstSummaryMs} ms (${cold.model})`);
  console.log(`DUC cluster ${duc.cluster} (${duc.files} files, ${duc.sentences} sentences): ${Math.round(duc.firstTime.ms)} ms with encoding (${duc.firstTime.breakdown}), long tasks ${JSON.stringify(duc.firstTime.longTasks)}`);
  console.log(`  with cached embeddings: ${duc.cachedEmbeddings.map((r) => Math.round(r.ms)).join(", ")} ms; long tasks ${JSON.stringify(duc.cachedEmbeddings.flatMap((r) => r.longTasks))}`);
  console.log(`  re-selection after a strike or its undo (click to summary shown): ${duc.reselect.map((ms) => Math.round(ms)).join(", ")} ms; sentences encoded again: ${duc.reencoded.join(", ")}`);
  console.log(`a ${(paste.bytes / 1e6).toFixed(1)} MB paste: input handler ${paste.handlerMs} ms, longest task until refused ${paste.longestTaskMs} ms`);
  const mib = (n) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  console.log(`peak resident memory of the page and its workers: cold start ${mib(cold.peakMemory)}, DUC cluster ${mib(duc.peakMemory)}`);
  console.log(`  messages (request sent → answer decoded, less the worker's time): ${[duc.firstTime, ...duc.cachedEmbeddings].map((r) => r.messageMs.toFixed(1)).join(", ")} ms`);
  for (const [set, heads] of [["example set", cold.heads], [`DUC cluster ${duc.cluster}`, duc.heads]]) {
    for (const method of ["cera", "cerai"]) {
      if (heads[method]) console.log(`  ${method} head inference, ${set} (${heads.sentences} sentences): ${heads[method].join(", ")} ms`);
    }
  }
} finally {
  await server.close();
}
