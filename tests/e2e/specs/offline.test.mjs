// After one visit the app works without a network: the service worker
// serves the shell, the worker loads the model from the Cache API. The
// first visit fetches only the embedding table's head and the blocks its
// texts need; the rest follows in the background, and the badge says when
// the app is ready offline (issue #43). Offline, a text in languages the
// first visit never read is summarized from the blocks fetched in the
// background. A reload that cut the background download short reads the
// blocks its texts fetched from the device, not from the server again.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, loadExample, openApp, pasteArticles, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

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

test("after a reload the blocks a text fetched come from this device, though the whole table never arrived", async () => {
  const context = await env.browser.newContext();
  // Only ranges of the table get through: the background download of the
  // whole file fails on every visit, as a closed tab or a reload cuts it.
  const isTable = (url) => url.pathname.endsWith("/models/muse-v3/table.u8");
  await context.route(isTable, (route) => (route.request().headers().range ? route.continue() : route.abort()));
  const { page } = await openApp(env, { context });
  await waitForModel(page);
  const visit = env.server.requests.length;
  await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
  await summarize(page);
  const first = await summarySentences(page);
  assert.ok(first.length > 0);
  assert.ok(env.server.requests.slice(visit).some((r) => r.range), "the first visit fetched the text's blocks");

  // The worker writes the text's blocks to the Cache API as it encodes;
  // reload once they are there, however long the write takes.
  await page.waitForFunction(
    async () => (await (await caches.open("precis-models")).keys()).some((request) => request.url.includes("&runs=")),
    null,
    { timeout: 60_000 },
  );
  const reload = env.server.requests.length;
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  await waitForModel(page);
  assert.equal(await page.getByTestId("model-status").getAttribute("data-offline"), "false", "the table is still in parts");
  // The articles survive the reload; their embeddings (kept in memory) do not.
  await summarize(page);
  assert.deepEqual(await summarySentences(page), first);
  const ranges = env.server.requests.slice(reload).filter((r) => r.range);
  assert.deepEqual(ranges, [], "the text's blocks were read from the Cache API");
  await context.close();
});
