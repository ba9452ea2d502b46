// The reader in charge (issue 45): strike a summary line and the method
// re-selects without it, filling the freed budget; pin another, change the
// method, and the pin holds; both survive a reload and go into the .json
// export; undo and redo; and a sentence the filter excluded can be pinned
// from the Sources tab ("use it anyway").
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ARTIFACTS, fixtureText, loadExample, openApp, pasteArticles, setUp, setNumber, summarize, summarySentences, waitForModel, waitForSavedRecord } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** Words used, from the summary's meta line ("… · 57 of 60 words · …"). */
async function wordsUsed(page) {
  const meta = await page.locator(".summary-meta").textContent();
  return Number(/(\d+) of \d+ words/.exec(meta)[1]);
}

/** Waits for the summary that a choice started (the worker answers with it). */
async function resummarized(page, before) {
  await page.waitForFunction(
    (previous) =>
      document.querySelector('[data-testid="progress"]')?.dataset.state === "idle" &&
      JSON.stringify([...document.querySelectorAll('[data-testid="summary-sentence"] .sentence-link')].map((e) => e.textContent)) !== previous,
    JSON.stringify(before.map((s) => s.text)),
    { timeout: 120_000 },
  );
  return summarySentences(page);
}

async function download(page, label) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: label }).click()]);
  return readFileSync(await file.path(), "utf8");
}

test("strike a line and the budget is refilled; pin one and it holds across methods, a reload and the export", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await waitForModel(page);
  await setNumber(page, "#budget", 60);
  await summarize(page);
  const first = await summarySentences(page);
  const wordsBefore = await wordsUsed(page);

  // Strike the first line: it leaves, and others take its words.
  await page.getByTestId("summary-sentence").first().getByTestId("strike").click();
  const afterStrike = await resummarized(page, first);
  assert.ok(afterStrike.every((s) => s.text !== first[0].text), "the struck line is gone");
  assert.ok(afterStrike.length >= 1);
  const struckWords = first[0].text.split(/\s+/).length;
  assert.ok((await wordsUsed(page)) > wordsBefore - struckWords, "the freed words were used again");
  assert.match(await page.getByTestId("choices-summary").textContent(), /0 pinned · 1 struck/);
  // A re-selection reuses the embeddings: nothing is encoded again.
  assert.match(await page.getByText(/Done in .* reused/).textContent(), /· 0 sentences embedded, \d+ reused/);

  // Pin a sentence the summary did not pick (from the Sources tab).
  await page.getByRole("tab", { name: "Sources" }).click();
  const picked = new Set(afterStrike.map((s) => `${s.doc}:${s.index}`));
  const candidates = page.locator('[data-testid="source-sentence"]:has(.sentence.candidate)');
  const n = await candidates.count();
  let target = null;
  for (let i = 0; i < n && !target; i++) {
    const wrap = candidates.nth(i);
    const key = `${await wrap.getAttribute("data-doc")}:${await wrap.getAttribute("data-index")}`;
    const words = (await wrap.locator(".sentence").textContent()).split(/\s+/).length;
    if (!picked.has(key) && words < 25) target = { wrap, key, text: (await wrap.locator(".sentence").textContent()).replace(/^\d+/, "") };
  }
  assert.ok(target, "a candidate the summary left out");
  await target.wrap.hover();
  await target.wrap.getByTestId("pin").click();
  const afterPin = await resummarized(page, afterStrike);
  assert.ok(afterPin.some((s) => `${s.doc}:${s.index}` === target.key), `the pin ${target.key} is in ${JSON.stringify(afterPin)}`);
  assert.match(await page.getByTestId("choices-summary").textContent(), /1 pinned · 1 struck/);
  // The README's picture of the feature (tests/e2e/artifacts/choices.png).
  await page.getByTestId("summary").screenshot({ path: join(ARTIFACTS, "choices.png") });

  // Another method keeps the pin and the strike.
  await page.locator("#method").selectOption("mmr");
  await page.waitForFunction(() => /MMR/.test(document.querySelector(".summary-meta")?.textContent ?? ""), null, { timeout: 120_000 });
  const mmr = await summarySentences(page);
  assert.ok(mmr.some((s) => `${s.doc}:${s.index}` === target.key), "MMR keeps the pin");
  assert.ok(mmr.every((s) => s.text !== first[0].text), "MMR never picks the struck line");

  // Compare runs every method with the same choices.
  await page.getByRole("tab", { name: "Compare" }).click();
  await page.locator('[data-testid="compare-method"][value="mmr"]').check();
  await page.getByTestId("compare-run").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-column"]').length === 3, null, { timeout: 120_000 });
  const columns = await page.getByTestId("compare-column").evaluateAll((columns) =>
    columns.map((c) => [...c.querySelectorAll('[data-testid="compare-sentence"]')].map((li) => ({ text: li.firstChild.textContent, pinned: li.dataset.pinned }))),
  );
  for (const column of columns) {
    assert.ok(column.some((s) => s.pinned === "true" && s.text.trim() === target.text.trim()), `the pin is in every column: ${JSON.stringify(column)}`);
    assert.ok(column.every((s) => s.text !== first[0].text), "no column has the struck line");
  }
  assert.match(await page.getByTestId("compare-choices").textContent(), /1 pinned, 1 struck/);
  // The MMR table says the pin went first.
  await page.getByRole("tab", { name: "How it was chosen" }).click();
  assert.match(await page.locator("#panel-explorer").textContent(), /pinned by you: picked first/);
  assert.match(await page.getByTestId("explorer-choices").textContent(), /Pinned by you: .* Struck by you: /);

  // Undo the pin, redo it.
  await page.getByTestId("choice-undo").click();
  const undone = await resummarized(page, mmr);
  assert.match(await page.getByTestId("choices-summary").textContent(), /0 pinned · 1 struck/);
  await page.getByTestId("choice-redo").click();
  const redone = await resummarized(page, undone);
  assert.ok(redone.some((s) => `${s.doc}:${s.index}` === target.key));

  // A reload keeps both (they are the articles'); the export lists them.
  await waitForSavedRecord(page, (json) => /"pinned":\[/.test(json ?? "") && /"struck":\[/.test(json ?? ""), "held the pins and strikes");
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  await waitForModel(page);
  await summarize(page);
  const reloaded = await summarySentences(page);
  assert.ok(reloaded.some((s) => `${s.doc}:${s.index}` === target.key), "the pin survives a reload");
  assert.ok(reloaded.every((s) => s.text !== first[0].text), "so does the strike");
  const exported = JSON.parse(await download(page, "Export .json"));
  assert.equal(exported.pinned.length, 1);
  assert.equal(exported.struck[0].text, first[0].text);
  assert.match(exported.pinned[0].reason, /pinned/);

  // Reset clears them.
  await page.getByTestId("choice-reset").click();
  await page.waitForFunction(() => /0 pinned · 0 struck/.test(document.querySelector('[data-testid="choices-summary"]')?.textContent ?? ""));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a sentence the filter excluded can be pinned from the Sources tab, and is used anyway", async () => {
  const { page, context } = await openApp(env);
  const page_ = [fixtureText("quake-en.txt"), "Photo: Maria Lopez / Reuters"].join("\n\n");
  await pasteArticles(page, [page_]);
  await waitForModel(page);
  await summarize(page);
  await page.getByRole("tab", { name: "Sources" }).click();
  const credit = page.locator('[data-testid="source-sentence"]', { has: page.locator(".sentence.furniture", { hasText: "Maria Lopez" }) });
  await credit.hover();
  await credit.getByTestId("pin").click();
  await page.waitForFunction(
    () => [...document.querySelectorAll('[data-testid="summary-sentence"] .sentence-link')].some((e) => /Maria Lopez/.test(e.textContent)),
    null,
    { timeout: 120_000 },
  );
  const pinned = page.locator('[data-testid="summary-sentence"][data-pinned="true"]');
  assert.equal(await pinned.count(), 1);
  assert.match(await page.getByTestId("choices-summary").textContent(), /1 pinned · 0 struck/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
