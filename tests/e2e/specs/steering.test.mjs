// Issue 18, parts 1 and 2: the summary language (only Spanish sentences
// picked from English, Spanish and French articles, the rest shown as
// context) and a question that steers the centroid methods with a weight.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, openApp, pasteArticles, setNumber, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

const SHIP = ["ship-en.txt", "ship-es.txt", "ship-fr.txt"];

test("summary language: only Spanish sentences are picked, the others stay as context", async () => {
  const { page, context } = await openApp(env);
  await pasteArticles(page, SHIP.map(fixtureText));
  const boxes = page.getByTestId("summary-language");
  assert.deepEqual(await boxes.evaluateAll((els) => els.map((e) => e.value).sort()), ["en", "es", "fr"]);
  await page.locator('[data-testid="summary-language"][value="es"]').check();
  await setNumber(page, "#budget", 40);
  await waitForModel(page);
  await summarize(page);
  const picked = await summarySentences(page);
  assert.ok(picked.length >= 1, "a Spanish summary");
  assert.deepEqual([...new Set(picked.map((s) => s.lang))], ["es"]);

  // More budget than the Spanish article has: said plainly.
  await setNumber(page, "#budget", 500);
  await summarize(page);
  const notice = await page.locator('[data-testid="summary"] .notice').allTextContents();
  assert.ok(notice.some((n) => /^Only \d+ Spanish sentences \(\d+ words\): the summary is shorter than the budget\.$/.test(n)), notice.join(" | "));

  // The explorer and the map show English and French as context.
  await page.getByRole("tab", { name: "How it was chosen" }).click();
  assert.match(await page.getByTestId("explorer-language-context").textContent(), /sentences in other languages are context only.*Spanish/);
  await page.getByRole("tab", { name: "Map" }).click();
  const titles = await page.locator(".map .point title").allTextContents();
  assert.ok(titles.some((t) => t.endsWith("(context: English)")) && titles.some((t) => t.endsWith("(context: French)")), titles.join("\n"));
  assert.ok(!titles.some((t) => t.endsWith("(context: Spanish)")));

  // The choice survives a reload, like every setting.
  await page.reload();
  await page.getByTestId("article-card").first().waitFor();
  assert.ok(await page.locator('[data-testid="summary-language"][value="es"]').isChecked());
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a question steers beam search once its weight is high enough, and the map shows it", async () => {
  const { page, context } = await openApp(env);
  await pasteArticles(page, [fixtureText("ship-en.txt")]);
  await page.locator("#budget-unit").selectOption("sentences");
  await setNumber(page, "#budget", 1);
  const weight = page.getByTestId("topic-weight");
  assert.ok(await weight.isDisabled(), "no question, no weight");
  await page.locator("#topic").fill("Was anyone on board hurt?");
  await page.locator("#topic").press("Tab");
  await waitForModel(page);

  await summarize(page);
  const [plain] = await summarySentences(page);
  assert.doesNotMatch(plain.text, /hurt/, "weight 0: the question does not change the summary");

  await weight.fill("0.8");
  assert.equal(await page.getByTestId("topic-weight-value").textContent(), "0.80");
  await summarize(page);
  const [steered] = await summarySentences(page);
  assert.equal(steered.text, "None of the 22 crew members was hurt.");

  await page.getByRole("tab", { name: "How it was chosen" }).click();
  assert.match(await page.getByTestId("explorer-steering").textContent(), /moved the centroid by \d+° \(weight 0\.80\)/);
  await page.getByRole("tab", { name: "Map" }).click();
  assert.equal(await page.getByTestId("map-query").count(), 1);
  assert.match(await page.getByTestId("map-steering").textContent(), /question \(diamond\) moved the centroid by \d+°/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
