// Every language, not only English (issue 42): a Chinese article in a mixed
// English, Italian and Chinese cluster keeps all its prose, and its
// sentences are candidates in the Sources tab; an article whose every
// sentence reads as page furniture says so on its card, offers to use them
// all, and the choice is kept with the article across a reload.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, openApp, pasteArticles, setUp, summarize, waitForModel, waitForSaved, waitForSavedRecord } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** The Sources tab's sentences of article `doc`: their classes and text. */
async function sourceSentences(page, doc) {
  await page.getByRole("tab", { name: "Sources" }).click();
  await page.locator(`.source .sentence[data-doc="${doc}"]`).first().waitFor();
  return page.locator(`.source .sentence[data-doc="${doc}"]`).evaluateAll((spans) =>
    spans.map((s) => ({ classes: s.className, text: s.textContent })),
  );
}

test("a Chinese article among English and Italian ones keeps all its prose and its sentences are candidates", async () => {
  const { page, context } = await openApp(env);
  await pasteArticles(page, ["quake-en.txt", "quake-it.txt", "quake-zh.txt"].map(fixtureText));
  await waitForModel(page);
  await summarize(page);
  const chinese = await sourceSentences(page, 2);
  assert.ok(chinese.length >= 6, `the Chinese article's sentences: ${JSON.stringify(chinese)}`);
  for (const sentence of chinese) {
    assert.doesNotMatch(sentence.classes, /furniture/, `excluded as furniture: ${sentence.text}`);
    assert.match(sentence.classes, /candidate/, `not a candidate: ${sentence.text}`);
  }
  assert.equal(await page.getByTestId("no-prose").count(), 0, "no card says it has no prose");
  assert.deepEqual(page.errors, []);
  await context.close();
});

const WIDGETS = ["Breaking News", "Share this story", "Subscribe to our newsletter", "Follow us on Facebook", "Read more"].join("\n");

test("an article that is all page furniture says so on its card, and can use all its sentences, kept across a reload", async () => {
  const { page, context } = await openApp(env);
  await pasteArticles(page, [fixtureText("quake-en.txt"), WIDGETS]);
  await waitForModel(page);
  await summarize(page);
  const card = page.getByTestId("article-card").nth(1);
  const note = card.getByTestId("no-prose");
  await note.waitFor();
  assert.match(await note.textContent(), /^No prose found: 4 lines look like page furniture\./);
  await card.getByTestId("use-all-sentences").click();
  await card.getByTestId("furniture-kept").waitFor();
  await waitForSaved(page, 2);
  await summarize(page);
  const widgets = await sourceSentences(page, 1);
  assert.ok(widgets.length === 4 && widgets.every((s) => /candidate/.test(s.classes)), JSON.stringify(widgets));
  assert.equal(await page.getByTestId("no-prose").count(), 0);

  // The choice is the article's: it survives a reload, and can be undone.
  await waitForSavedRecord(page, (json) => (json ?? "").includes('"keep_furniture":true'), "kept the choice to use all sentences");
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  const reloaded = page.getByTestId("article-card").nth(1);
  await reloaded.getByTestId("furniture-kept").waitFor();
  await reloaded.getByRole("button", { name: "Filter page furniture again" }).click();
  assert.equal(await reloaded.getByTestId("furniture-kept").count(), 0);
  assert.deepEqual(page.errors, []);
  await context.close();
});
