// ROUGE against the user's reference: English is stemmed as ROUGE-1.5.5
// does, with WordNet's irregular words, which the worker downloads on the
// first score instead of carrying them in the first-load bundle.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, openApp, pasteArticles, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("an English reference gives ROUGE with the WordNet list, fetched only then", async () => {
  const { page, context } = await openApp(env);
  const requests = [];
  context.on("request", (request) => request.serviceWorker() || requests.push(request.url()));
  await pasteArticles(page, [fixtureText("ship-en.txt")]);
  await waitForModel(page);
  await summarize(page);
  assert.equal(await page.locator("table.rouge").count(), 0, "no reference, no ROUGE");
  assert.ok(!requests.some((url) => url.includes("/rouge/")), "the WordNet list was loaded before any ROUGE score");

  await page.locator("details.reference summary").click();
  await page.locator("#reference").fill("A container ship ran aground on a sandbank off the port of Valtera and began leaking fuel oil. None of the crew members were hurt, the coast guard said.");
  await summarize(page);
  const table = page.locator("table.rouge");
  await table.waitFor();
  assert.ok(requests.some((url) => url.endsWith("/rouge/wordnet-2.0-exceptions.txt")), "the WordNet list was not fetched");
  const recall = Number((await table.locator("tbody tr").first().locator("td").first().textContent()).replace("%", ""));
  assert.ok(recall > 20 && recall <= 100, `ROUGE-1 recall ${recall}%`);
  assert.match(await page.locator(".rouge + .hint").textContent(), /Porter stemming \(English\)/);
  const notes = await page.locator('[data-testid="summary"] .notice').allTextContents();
  assert.ok(!notes.some((n) => /irregular words/.test(n)), notes.join(" | "));
  assert.deepEqual(page.errors, []);
  await context.close();
});
