// Recovery without loss (issue #19): each fault is injected for real and
// its effect asserted.
// - the worker crashes mid-summary (a panic, or an allocation failing as
//   out of memory does: `?fault=panic|oom`, src/worker/jobs.rs): one
//   message, the articles stay, Retry summarizes on the restarted worker;
// - a cached model file is damaged (a flipped byte, same size; or cut
//   short): caught by its sha256 or size, downloaded again;
// - storage is full (each write's transaction aborted as by a full disk,
//   with QuotaExceededError): a message, and the articles saved before
//   survive a reload;
// - two tabs save at once: the store holds one tab's whole list; the other
//   tab is told and can load it or keep its own;
// - articles an older version kept in localStorage move to IndexedDB.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SUMMARY_TIMEOUT, fixtureText, pasteArticles, savedArticles, savedRecord, setUp, ENCODER_FILE, summarySentences, waitForModel, waitForSaved } from "../helpers.mjs";

const MANIFEST = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../models/muse-v3/manifest.json", import.meta.url)), "utf8"),
);

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** Opens the app at `query` in `context`; errors are collected as in helpers.openApp. */
async function open(context, query = "") {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push(message.text());
  });
  await page.goto(env.server.url + query);
  await page.waitForSelector("html[data-ready=true]");
  return page;
}

async function reload(page) {
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
}

const cardTitles = (page) => page.locator('[data-testid="article-card"] .card-title').allTextContents();

async function waitForSummary(page) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="progress"]')?.dataset.state === "idle" &&
      document.querySelector('[data-testid="summary-sentence"]'),
    null,
    { timeout: SUMMARY_TIMEOUT },
  );
}

for (const fault of ["panic", "oom"]) {
  test(`a worker that crashes (${fault}) is restarted: one message, articles kept, Retry summarizes`, async () => {
    const context = await env.browser.newContext();
    const page = await open(context, `?fault=${fault}`);
    await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
    await waitForModel(page);
    await page.getByTestId("summarize").click();

    const notice = page.getByTestId("worker-crash");
    await notice.waitFor({ timeout: SUMMARY_TIMEOUT });
    assert.match(await notice.textContent(), /The summarizer stopped .* It has been restarted; your articles are safe\./);
    assert.equal(await notice.count(), 1);
    assert.equal(await page.getByTestId("article-card").count(), 2);
    assert.equal(await page.getByTestId("summary-sentence").count(), 0);
    assert.equal(await page.getByTestId("progress").getAttribute("data-state"), "idle");

    // The new worker (started without the fault) loads the model again.
    await waitForModel(page);
    await page.getByTestId("retry").click();
    await waitForSummary(page);
    assert.ok((await summarySentences(page)).length > 0);
    assert.equal(await notice.count(), 0);
    assert.equal(await page.getByTestId("error").count(), 0);

    await reload(page);
    assert.equal(await page.getByTestId("article-card").count(), 2);
    // The only errors are the crash itself (the panic's or the allocation's message).
    const unexpected = page.errors.filter((e) => !/fault injected|memory allocation|unreachable|RuntimeError/.test(e));
    assert.deepEqual(unexpected, []);
    await context.close();
  });
}

for (const damage of ["a flipped byte", "cut short"]) {
  test(`a cached model file with ${damage} is caught and downloaded again`, async () => {
    const context = await env.browser.newContext();
    const page = await open(context);
    await waitForModel(page);
    // The page has no ENCODER_FILE of its own: the name travels with the damage.
    const url = await page.evaluate(async ({ damage, file }) => {
      const cache = await caches.open("precis-models");
      const key = (await cache.keys()).find((request) => request.url.includes(file));
      let bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
      if (damage === "cut short") bytes = bytes.slice(0, bytes.length - 1000);
      else bytes[bytes.length >> 1] ^= 0xff; // same size: only the hash tells
      await cache.put(key, new Response(bytes));
      return key.url;
    }, { damage, file: ENCODER_FILE });

    const seen = env.server.requests.length;
    await reload(page);
    await waitForModel(page);
    const fetched = env.server.requests.slice(seen).filter((r) => r.url.includes(ENCODER_FILE));
    assert.equal(fetched.length, 1, "the encoder is downloaded again, once");
    assert.doesNotMatch(await page.getByTestId("model-status").textContent(), /from this device/);
    const cached = await page.evaluate(async (url) => {
      const response = await (await caches.open("precis-models")).match(url);
      const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    }, url);
    assert.equal(cached, MANIFEST.files[ENCODER_FILE].sha256, "the cache holds an intact copy again");

    await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
    await page.getByTestId("summarize").click();
    await waitForSummary(page);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test("a full storage quota: a message, and the articles saved before survive a reload", async () => {
  const context = await env.browser.newContext();
  const page = await open(context);
  await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
  await waitForSaved(page, 2);

  // Storage is full from now on: every write's transaction is aborted by
  // the browser (its rollback is the real one) and reports what a full disk
  // reports. (Chromium's DevTools quota override did not refuse IndexedDB
  // writes reliably here, hence this.)
  await page.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    const full = new DOMException("The quota has been exceeded.", "QuotaExceededError");
    IDBObjectStore.prototype.put = function (...args) {
      const request = put.apply(this, args);
      Object.defineProperty(this.transaction, "error", { get: () => full });
      this.transaction.abort();
      return request;
    };
  });
  await pasteArticles(page, [fixtureText("ship-es.txt")]);
  const warning = page.getByTestId("storage-warning");
  await warning.waitFor();
  assert.equal(
    await warning.textContent(),
    "The browser's storage is full: the last change is not saved; older saved articles are kept.",
  );
  assert.equal(await page.getByTestId("article-card").count(), 3, "the tab keeps what it has");
  assert.equal((await savedArticles(page)).length, 2, "the refused write rolled back");

  await reload(page);
  assert.equal(await page.getByTestId("article-card").count(), 2);
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** Counts this page's completed IndexedDB writes in `window.__saves`. */
function countSaves() {
  window.__saves = 0;
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    const request = put.apply(this, args);
    request.addEventListener("success", () => window.__saves++);
    return request;
  };
}

test("two tabs: the store holds one tab's whole list; the other tab is told", async () => {
  const context = await env.browser.newContext();
  const [a, b] = [await open(context), await open(context)];
  await pasteArticles(a, [fixtureText("ship-en.txt")]);
  await waitForSaved(a, 1);
  await b.getByTestId("other-tab").waitFor();
  // Each tab counts its completed saves from here on.
  for (const tab of [a, b]) await tab.evaluate(countSaves);
  await b.getByTestId("load-other-tab").click();
  await b.waitForFunction(() => document.querySelectorAll('[data-testid="article-card"]').length === 1);
  assert.equal(await b.getByTestId("other-tab").count(), 0);
  assert.equal(await a.getByTestId("other-tab").count(), 0);

  // Both add an article at the same moment: one whole list wins, never a mix.
  await Promise.all([pasteArticles(a, [fixtureText("ship-fr.txt")]), pasteArticles(b, [fixtureText("ship-es.txt")])]);
  // The two saves land in either order, and each tab then compares the
  // store with its own list: wait until both saves are done and that has
  // settled (the store holds one tab's list, and only the other tab is
  // told), however long a loaded machine takes, rather than for a while.
  const settled = async () => {
    if ((await a.evaluate(() => window.__saves)) < 1 || (await b.evaluate(() => window.__saves)) < 1) return null;
    const saved = JSON.stringify(await savedArticles(a));
    const [listA, listB] = [JSON.stringify(await cardTitles(a)), JSON.stringify(await cardTitles(b))];
    const [toldA, toldB] = [await a.getByTestId("other-tab").count(), await b.getByTestId("other-tab").count()];
    if (saved === listA && toldB === 1 && toldA === 0) return [a, b];
    if (saved === listB && toldA === 1 && toldB === 0) return [b, a];
    return null;
  };
  let ends = null;
  for (const until = Date.now() + 60_000; !(ends = await settled()) && Date.now() < until; ) await a.waitForTimeout(100);
  assert.ok(ends, `never settled: saved ${JSON.stringify(await savedArticles(a))}, tabs ${JSON.stringify([await cardTitles(a), await cardTitles(b)])}`);
  const [winner, loser] = ends;
  // Adopting the other tab's list wrote nothing (so tab A heard no news of
  // it): each tab saved once, its own new list.
  assert.deepEqual([await a.evaluate(() => window.__saves), await b.evaluate(() => window.__saves)], [1, 1]);
  assert.notDeepEqual(await cardTitles(a), await cardTitles(b));
  assert.equal((await savedArticles(winner)).length, 2, "one whole list, never a mix");

  // The tab that lost keeps its own: it saves over, and the other is told.
  const kept = await cardTitles(loser);
  await loser.getByTestId("keep-this-tab").click();
  await winner.getByTestId("other-tab").waitFor();
  assert.deepEqual(await savedArticles(winner), kept);
  await winner.getByTestId("load-other-tab").click();
  // Both lists hold two articles, so wait for the titles, not the count.
  await winner.waitForFunction(
    (titles) =>
      JSON.stringify([...document.querySelectorAll('[data-testid="article-card"] .card-title')].map((t) => t.textContent)) ===
      JSON.stringify(titles),
    kept,
  );
  assert.deepEqual(await cardTitles(winner), kept);

  await reload(winner);
  assert.deepEqual(await cardTitles(winner), kept);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await context.close();
});

test("articles an older version kept in localStorage move to IndexedDB", async () => {
  const first = await env.browser.newContext();
  const page = await open(first);
  await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
  await waitForSaved(page, 2);
  const json = await savedRecord(page);
  await first.close();

  // A fresh profile where only localStorage holds the articles, as before.
  const context = await env.browser.newContext();
  const setter = await context.newPage();
  await setter.goto(`${env.server.url}manifest.webmanifest`);
  await setter.evaluate((json) => localStorage.setItem("precis.v1.articles", json), json);
  await setter.close();
  const moved = await open(context);
  assert.equal(await moved.getByTestId("article-card").count(), 2);
  assert.equal(await moved.evaluate(() => localStorage.getItem("precis.v1.articles")), null);
  assert.equal((await savedArticles(moved)).length, 2);
  await reload(moved);
  assert.equal(await moved.getByTestId("article-card").count(), 2);
  assert.deepEqual(moved.errors, []);
  await context.close();
});
