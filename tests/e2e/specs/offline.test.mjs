// After one visit the app works without a network: the service worker
// serves the shell, the worker loads the model from the Cache API. The
// first visit fetches only the embedding table's head and the blocks its
// texts need; the rest follows in the background, and the badge says when
// the app is ready offline (issue #43). Offline, a text in languages the
// first visit never read is summarized from the blocks fetched in the
// background.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadExample, openApp, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("a second visit without network still summarizes", async () => {
  const { page, context } = await openApp(env);
  await waitForModel(page);
  await page.waitForSelector('[data-testid="model-status"][data-offline="true"]', { timeout: 120_000 });
  assert.match(await page.getByTestId("model-status").textContent(), /works offline$/);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  await waitForModel(page);
  assert.match(await page.getByTestId("model-status").textContent(), /from this device/);

  await loadExample(page);
  await summarize(page);
  const sentences = await summarySentences(page);
  assert.ok(sentences.length > 0);
  assert.equal(await page.getByTestId("error").count(), 0);
  assert.deepEqual(page.errors, []);
  await context.close();
});
