// Helper workers (one per spare core) encode batches alongside the app's
// worker; the summary must be exactly the one the worker makes alone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, loadExample, pasteArticles, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** The example set and three more articles, summarized; `query` goes on the page's URL. */
async function summaryWith(query) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(env.server.url + query);
  await page.waitForSelector("html[data-ready=true]");
  await loadExample(page);
  await pasteArticles(page, ["ship-en.txt", "ship-es.txt", "ship-fr.txt"].map(fixtureText));
  await waitForModel(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (query === "" && cores > 1) {
    await page.waitForFunction(() => document.querySelector('[data-testid="model-status"]').dataset.helpers !== "0");
  }
  await summarize(page);
  const result = {
    cores,
    sentences: await summarySentences(page),
    breakdown: await page.locator("#progress-label").getAttribute("title"),
    badge: await page.getByTestId("model-status").getAttribute("title"),
    errors,
  };
  await context.close();
  return result;
}

test("helper workers share the encoding and change nothing in the summary", async (t) => {
  const alone = await summaryWith("?helpers=0");
  const shared = await summaryWith("");
  if (shared.cores < 2) return t.skip("one core: no helper workers");
  assert.doesNotMatch(alone.breakdown, /helper/);
  // The tooltip goes on with how long the model took to read and build.
  assert.match(alone.badge, /^Encodes on one core( · |$)/);
  assert.match(shared.breakdown, /encode \d+ ms \(\d+ of \d+ by helper workers\)/);
  assert.match(shared.badge, /^Encodes on [23] cores( · |$)/);
  assert.ok(shared.sentences.length >= 2);
  assert.deepEqual(shared.sentences, alone.sentences);
  assert.deepEqual([...alone.errors, ...shared.errors], []);
});
