// Benchmark of a first visit (issue #43; not a test): a fresh browser
// profile opens the app on a line of --mbit Mbit/s (the local server shares
// that bandwidth among all responses), the text is added at once and
// Summarize clicked, as a user who arrives with articles in hand does. It
// reports the time from navigation to the summary on screen and the bytes
// the server sent until then (code, model files, table blocks; whole files
// gzipped, as a static host sends them, table blocks as they are), then keeps
// the page open until the badge says the app works offline (the background
// download) and reports those bytes too.
//
//   node bench-first-visit.mjs --data /abs/path/to/duc2004/docs [--cluster 1] [--mbit 50] [--rounds 2] [--dist DIR ...]
//       [--engine chromium|firefox|webkit]
//
// Texts: the DUC2004 cluster (the README's), tests/e2e/fixtures/quake-it.txt
// and quake-zh.txt, each alone. Each --dist is served on a server of its
// own and the builds take turns within each round (before/after in one run).
// Chromium through Playwright; Firefox or WebKit (--engine, under
// xvfb-run -a) through their WebDriver servers, as bench-engines.mjs drives
// them. The bytes do not depend on the engine; the times do.
import { chromium } from "playwright-core";
import { By } from "selenium-webdriver";
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fixture } from "./helpers.mjs";
import { DIST, startServer } from "./serve.mjs";
import { ENGINES, startEngine } from "./engines/drivers.mjs";
import { startGate } from "./engines/gate.mjs";

const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: resolve(DIST, "../../shared/data/duc2004/docs") },
    cluster: { type: "string", default: "1" },
    mbit: { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
    dist: { type: "string", multiple: true, default: [DIST] },
    engine: { type: "string", default: "chromium" },
  },
});
if (!ENGINES.includes(args.engine)) throw new Error(`--engine: one of ${ENGINES.join(", ")}`);

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

const ducDir = join(args.data, args.cluster);
const TEXTS = {
  [`DUC2004 cluster ${args.cluster} (en)`]: readdirSync(ducDir).filter((f) => f.endsWith(".txt")).sort().map((f) => join(ducDir, f)),
  "quake-it.txt (it)": [fixture("quake-it.txt")],
  "quake-zh.txt (zh)": [fixture("quake-zh.txt")],
};

/** Bytes the server sent between two moments (gzipped where a static host would compress). */
const sent = (server, since, until = Infinity) => {
  const upTo = (t) => server.sent.findLast(([at]) => at <= t)?.[1] ?? 0;
  return upTo(until) - upTo(since);
};

/** The page, as much of it as a first visit needs, in Chromium (Playwright). */
async function openChromium(url) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: FLAGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const until = (fn, arg) => page.waitForFunction(fn, arg, { timeout: 600_000, polling: 25 });
  return {
    goto: () => page.goto(url),
    addFiles: (files) => page.getByTestId("file-input").setInputFiles(files),
    click: (testId) => page.getByTestId(testId).click(),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    until,
    close: () => browser.close(),
  };
}

/** The same in Firefox or WebKit, through WebDriver (a fresh profile each time). */
async function openWebDriver(url, gate) {
  const { driver, stop } = await startEngine(args.engine, gate.address);
  const evaluate = (fn, arg) => driver.executeScript(`return (${fn})(arguments[0])`, arg);
  const until = (fn, arg) => driver.wait(async () => await evaluate(fn, arg), 600_000, String(fn), 25);
  return {
    goto: () => driver.get(url),
    addFiles: (files) => driver.findElement(By.css('[data-testid="file-input"]')).sendKeys(files.join("\n")),
    click: (testId) => driver.findElement(By.css(`[data-testid="${testId}"]`)).click(),
    evaluate,
    until,
    close: async () => (await driver.quit().catch(() => {}), stop?.()),
  };
}

async function firstVisit({ server, gate }, files) {
  const page = args.engine === "chromium" ? await openChromium(server.url) : await openWebDriver(server.url, gate);
  try {
    const started = Date.now();
    await page.goto();
    await page.until(() => document.documentElement.dataset.ready === "true");
    await page.addFiles(files);
    await page.until((n) => document.querySelectorAll('[data-testid="article-card"]').length === n, files.length);
    await page.click("summarize");
    await page.until(() => performance.getEntriesByName("precis:summary-shown").length > 0);
    const shownAt = Date.now();
    const summaryMs = await page.evaluate(() => performance.getEntriesByName("precis:summary-shown")[0].startTime);
    const bytes = sent(server, started, shownAt);
    const blockRequests = server.requests.filter((r) => r.at >= started && r.at <= shownAt && r.range).length;
    // The builds before issue #43 have no data-offline: they were whole at "ready".
    await page.until(() => document.querySelector('[data-testid="model-status"]:is([data-offline="true"], :not([data-offline]))[data-state="ready"]') !== null);
    const offlineMs = Date.now() - started;
    const allBytes = sent(server, started);
    return { summaryMs: Math.round(summaryMs), bytes, blockRequests, offlineMs, allBytes };
  } finally {
    await page.close();
  }
}

const servers = [];
for (const dist of args.dist) {
  const server = await startServer(resolve(dist), 0, {}, { bitsPerSecond: Number(args.mbit) * 1e6, gzip: true });
  servers.push({ dist, server, gate: await startGate(server.url) });
}
const results = {};
const loads = [loadavg()[0]];
for (let round = 0; round < Number(args.rounds); round++) {
  for (const [text, files] of Object.entries(TEXTS)) {
    for (const { dist, server, gate } of servers) {
      const r = await firstVisit({ server, gate }, files);
      (results[`${dist}\t${text}`] ??= []).push(r);
      loads.push(loadavg()[0]);
      console.error(`round ${round + 1}, ${dist}, ${text}: ${JSON.stringify(r)}`);
    }
  }
}
for (const { server, gate } of servers) await Promise.all([server.close(), gate.close()]);
const range = (xs, scale, digits) => {
  const [lo, hi] = [Math.min(...xs) / scale, Math.max(...xs) / scale];
  return lo.toFixed(digits) === hi.toFixed(digits) ? lo.toFixed(digits) : `${lo.toFixed(digits)}–${hi.toFixed(digits)}`;
};
console.log(`first visit at ${args.mbit} Mbit/s, ${args.engine}, ${args.rounds} rounds (lowest–highest); load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
console.log("| build | text | navigation → summary (s) | MB before the summary | range requests | whole table in (s) | MB in all |");
console.log("|---|---|---:|---:|---:|---:|---:|");
for (const [key, runs] of Object.entries(results)) {
  const [dist, text] = key.split("\t");
  const of = (field) => runs.map((r) => r[field]);
  console.log(`| ${dist} | ${text} | ${range(of("summaryMs"), 1000, 1)} | ${range(of("bytes"), 1e6, 2)} | ${range(of("blockRequests"), 1, 0)} | ${range(of("offlineMs"), 1000, 1)} | ${range(of("allBytes"), 1e6, 2)} |`);
}
