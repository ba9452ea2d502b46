// Helper workers (one per spare core) encode batches alongside the app's
// worker; the summary must be exactly the one the worker makes alone. The
// page is asked for two helpers, so the spec runs the same on any number of
// cores (how many a machine gets by default is a unit test:
// worker::schedule::helper_count).
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
  if (query === "?helpers=2") {
    await page.waitForFunction(() => document.querySelector('[data-testid="model-status"]').dataset.helpers === "2", null, { timeout: 180_000 });
  }
  await summarize(page);
  const result = {
    sentences: await summarySentences(page),
    breakdown: await page.locator("#progress-label").getAttribute("title"),
    badge: await page.getByTestId("model-status").getAttribute("title"),
    errors,
  };
  await context.close();
  return result;
}

test("helper workers share the encoding and change nothing in the summary", async () => {
  const alone = await summaryWith("?helpers=0");
  const shared = await summaryWith("?helpers=2");
  assert.doesNotMatch(alone.breakdown, /helper/);
  // The tooltip goes on with how long the model took to read and build.
  assert.match(alone.badge, /^Encodes on one core( · |$)/);
  assert.match(shared.breakdown, /encode \d+ ms \(\d+ of \d+ by helper workers[;)]/);
  assert.match(shared.badge, /^Encodes on 3 cores( · |$)/);
  assert.ok(shared.sentences.length >= 2);
  assert.deepEqual(shared.sentences, alone.sentences);
  assert.deepEqual([...alone.errors, ...shared.errors], []);
});
