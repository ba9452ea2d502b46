// Uploading .txt and .html files: cards with title, language and date; the
// HTML is reduced to its article and its scripts never run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, openApp, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("a .txt and an .html file become article cards", async () => {
  const { page, context } = await openApp(env);
  await page.getByTestId("file-input").setInputFiles([fixture("ship-en.txt"), fixture("ship-de.html")]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="article-card"]').length === 2);

  const cards = page.getByTestId("article-card");
  assert.equal(await cards.nth(0).locator(".card-title").textContent(), "Cargo ship runs aground off Valtera, spilling fuel");
  assert.equal(await cards.nth(1).locator(".card-title").textContent(), "Frachter vor Valtera auf Grund gelaufen");
  assert.equal(await cards.nth(1).locator(".lang").getAttribute("data-lang"), "de");
  assert.equal(await cards.nth(1).locator('input[type="date"]').inputValue(), "2026-05-14");
  assert.match(await cards.nth(1).locator(".card-meta").textContent(), /\d+ words · \d+ sentences/);

  // The navigation, footer, script and image of the page are gone.
  await cards.nth(1).getByRole("button", { name: "Edit" }).click();
  const text = await cards.nth(1).locator("textarea").inputValue();
  assert.match(text, /Sandbank/);
  assert.doesNotMatch(text, /Startseite|Beispielzeitung ©|__pwned|<img|onerror/);
  await cards.nth(1).getByRole("button", { name: "Cancel" }).click();

  await waitForModel(page);
  await summarize(page);
  const docs = new Set((await summarySentences(page)).map((s) => s.doc));
  assert.ok([...docs].every((d) => d === 0 || d === 1));
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(page.errors, []);
  await context.close();
});
