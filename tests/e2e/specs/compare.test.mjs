// The Compare tab (issue #18, part 3): three methods side by side on the
// example set, sentences several methods picked marked, ROUGE-1/2 once a
// reference is pasted, and the Markdown and JSON exports.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SUMMARY_TIMEOUT, countWords, loadExample, openApp, setUp, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** Clicks Compare and waits until `columns` columns (and `rouge` ROUGE lines) are on screen. */
async function compare(page, columns, rouge = 0) {
  await page.getByTestId("compare-run").click();
  await page.waitForFunction(
    ([columns, rouge]) =>
      !document.querySelector('[data-testid="compare-run"]').disabled &&
      document.querySelectorAll('[data-testid="compare-column"]').length === columns &&
      document.querySelectorAll('[data-testid="compare-rouge"]').length === rouge,
    [columns, rouge],
    { timeout: SUMMARY_TIMEOUT },
  );
}

/** Every column: its method, numbers and sentences (without their badges). */
async function readColumns(page) {
  return page.getByTestId("compare-column").evaluateAll((columns) =>
    columns.map((c) => ({
      method: c.dataset.method,
      objective: c.querySelector('[data-testid="compare-objective"]').textContent,
      words: c.querySelector('[data-testid="compare-words"]').textContent,
      rouge: c.querySelector('[data-testid="compare-rouge"]')?.dataset,
      sentences: [...c.querySelectorAll('[data-testid="compare-sentence"]')].map((li) => ({
        text: li.firstChild.textContent,
        shared: Number(li.dataset.shared),
        badge: li.querySelector(".shared-badge")?.textContent ?? null,
      })),
    })),
  );
}

async function download(page, testid) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testid).click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

test("three methods side by side: objectives, words, shared picks, ROUGE with a reference, exports", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await page.getByRole("tab", { name: "Compare" }).click();
  const choice = (method) => page.locator(`[data-testid="compare-method"][value="${method}"]`);
  assert.ok(await choice("gg").isChecked(), "greedy is ticked by default");
  assert.ok(await choice("bs+gs").isChecked(), "beam + greedy is ticked by default");
  assert.ok(await choice("oracle").isDisabled(), "the oracle needs a reference");
  await choice("mmr").check();
  assert.match(await page.getByTestId("compare-run").textContent(), /Compare 3 methods/);
  await waitForModel(page);
  await compare(page, 3);

  const columns = await readColumns(page);
  assert.deepEqual(columns.map((c) => c.method), ["gg", "bs+gs", "mmr"]);
  for (const c of columns) {
    const kind = c.method === "mmr" ? /^MMR total -?\d+\.\d{3}$/ : /^centroid similarity 0\.\d{3}$/;
    assert.match(c.objective, kind, c.method);
    assert.ok(c.sentences.length >= 2, `${c.method}: a few sentences`);
    const words = Number(c.words.match(/^(\d+) words$/)[1]);
    assert.equal(words, c.sentences.reduce((n, s) => n + countWords(s.text), 0), `${c.method}: the word count adds up`);
    assert.ok(words <= 100, `${c.method}: ${words} words over the budget`);
    assert.equal(c.rouge, undefined, "no ROUGE without a reference");
    // A sentence's mark counts the columns that hold it.
    for (const s of c.sentences) {
      const holding = columns.filter((o) => o.sentences.some((x) => x.text === s.text)).length;
      assert.equal(s.shared, holding, `${c.method}: ${s.text}`);
      assert.equal(s.badge, holding > 1 ? `picked by ${holding}` : null);
    }
  }
  assert.ok(columns.some((c) => c.sentences.some((s) => s.shared > 1)), "greedy and beam + greedy share a pick");

  await page.getByText("Reference summary (optional)").click();
  await page.locator("#reference").fill(columns[2].sentences.map((s) => s.text).join(" "));
  await choice("mmr").uncheck();
  await choice("oracle").check();
  await compare(page, 3, 3);
  const scored = await readColumns(page);
  assert.deepEqual(scored.map((c) => c.method), ["gg", "bs+gs", "oracle"]);
  for (const c of scored) {
    const [r1, r2] = [Number(c.rouge.r1), Number(c.rouge.r2)];
    assert.ok(r1 > 0 && r1 <= 1 && r2 >= 0 && r2 <= r1, `${c.method}: ROUGE-1 ${r1}, ROUGE-2 ${r2}`);
  }
  assert.match(await page.getByTestId("compare-rouge").first().textContent(), /^ROUGE-1 \d+\.\d% · ROUGE-2 \d+\.\d%/);

  const md = await download(page, "compare-export-md");
  assert.match(md.name, /^precis-comparison-\d{4}-\d{2}-\d{2}\.md$/);
  assert.ok(md.text.startsWith("## Methods compared"), md.text);
  assert.match(md.text, /\| ROUGE-1 R \/ F \| ROUGE-2 R \/ F \|/);
  for (const heading of ["### Greedy (gg)", "### Beam + greedy (bs+gs)", "### Oracle (reference centroid) (oracle)"]) {
    assert.ok(md.text.includes(heading), `${heading} in the Markdown`);
  }
  const json = await download(page, "compare-export-json");
  assert.match(json.name, /\.json$/);
  const exported = JSON.parse(json.text);
  assert.deepEqual(exported.columns.map((c) => c.method), ["gg", "bs+gs", "oracle"]);
  exported.columns.forEach((c, i) => {
    assert.deepEqual(c.sentences.map((s) => s.text), scored[i].sentences.map((s) => s.text));
    assert.deepEqual(c.sentences.map((s) => s.picked_by), scored[i].sentences.map((s) => s.shared));
    assert.equal(c.rouge.rouge_1.recall, Number(scored[i].rouge.r1));
  });
  assert.equal(exported.documents.length, 5);

  assert.deepEqual(page.errors, []);
  await context.close();
});
