// MMR and TBMMR in the app: the topic field and λ/μ knobs, the MMR score
// view (a sortable table of every step's candidates, a step slider, a bar
// chart), sentence dates and the chronological order.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadExample, openApp, setNumber, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

/** The score table of the step on screen: one object per row. */
async function rows(page) {
  return page.getByTestId("mmr-row").evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent.trim());
      return {
        sentence: Number(tr.dataset.sentence),
        picked: tr.dataset.picked === "true",
        fits: !tr.classList.contains("no-fit"),
        relevance: Number(cells[1]),
        total: Number(cells[5]),
      };
    }),
  );
}

async function openExplorer(page) {
  await page.getByRole("tab", { name: "How it was chosen" }).click();
  await page.getByTestId("mmr-step").waitFor();
}

test("tbmmr: every step's candidates, the pick highlighted, dated sentences in order", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await page.locator("#method").selectOption("tbmmr");
  for (const knob of ["#topic", "#lambda", "#mu"]) assert.ok(await page.locator(knob).isVisible(), `${knob} shown for tbmmr`);
  await page.locator("#order").selectOption("chronological");
  await setNumber(page, "#budget", 80);
  await waitForModel(page);
  await summarize(page);

  const summary = await page.getByTestId("summary-sentence").evaluateAll((items) =>
    items.map((li) => ({ key: `${li.dataset.doc}:${li.dataset.index}`, date: li.querySelector(".date-tag")?.getAttribute("datetime") })),
  );
  assert.ok(summary.length >= 2, "a few sentences");
  assert.ok(summary.every((s) => /^\d{4}-\d{2}-\d{2}$/.test(s.date ?? "")), "every sentence of the dated example shows a date");

  await openExplorer(page);
  const reading = page.getByTestId("topic-reading");
  const structure = await reading.getAttribute("data-structure");
  assert.ok(["sequential", "divergent"].includes(structure));
  if (structure === "sequential") {
    const dates = summary.map((s) => s.date);
    assert.deepEqual(dates, [...dates].sort(), "a sequential set is ordered by sentence date");
  }

  const slider = page.getByTestId("mmr-step");
  const steps = Number(await slider.getAttribute("max")) + 1;
  assert.equal(steps, summary.length, "one step per summary sentence");
  const sentenceIds = new Set();
  for (let k = 0; k < steps; k++) {
    await slider.fill(String(k));
    await page.locator(`.mmr-table[data-step="${k}"]`).waitFor();
    const table = await rows(page);
    const picked = table.filter((r) => r.picked);
    assert.equal(picked.length, 1, `step ${k}: one picked row`);
    const bestFitting = Math.max(...table.filter((r) => r.fits).map((r) => r.total));
    assert.ok(picked[0].total >= bestFitting - 0.0005, `step ${k}: the pick has the best total that fits`);
    assert.ok(!sentenceIds.has(picked[0].sentence), "a sentence is picked once");
    sentenceIds.add(picked[0].sentence);
    assert.ok((await page.locator(".mmr-chart .mmr-bar").count()) >= 1, "the chart draws the step");
  }

  // Sorting by a column reorders the rows; a second click reverses them.
  const relevanceHeader = page.locator(".mmr-table th").filter({ hasText: "Relevance" });
  await relevanceHeader.getByRole("button").click();
  assert.equal(await relevanceHeader.getAttribute("aria-sort"), "descending");
  const byRelevance = (await rows(page)).map((r) => r.relevance);
  assert.deepEqual(byRelevance, [...byRelevance].sort((a, b) => b - a));
  await relevanceHeader.getByRole("button").click();
  const ascending = (await rows(page)).map((r) => r.relevance);
  assert.deepEqual(ascending, [...ascending].sort((a, b) => a - b));

  assert.deepEqual(page.errors, []);
  await context.close();
});

test("mmr follows the topic typed in: the first pick is the most relevant sentence", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await page.locator("#method").selectOption("mmr");
  assert.equal(await page.locator("#mu").count(), 0, "no position weight for plain MMR");
  await page.locator("#topic").fill("Switzerland and Italy will review the glacial lakes on their border.");
  await page.locator("#topic").press("Tab");
  await setNumber(page, "#lambda", 0.6);
  await waitForModel(page);
  await summarize(page);
  await openExplorer(page);
  assert.match(await page.locator(".mmr-intro").textContent(), /λ = 0\.60/);
  const first = await rows(page);
  const best = Math.max(...first.filter((r) => r.fits).map((r) => r.relevance));
  const picked = first.find((r) => r.picked);
  assert.ok(picked.relevance >= best - 0.0005, "with nothing picked yet, relevance alone decides");
  assert.equal(await page.getByTestId("topic-reading").count(), 0, "the topic reading is TBMMR's");
  assert.deepEqual(page.errors, []);
  await context.close();
});
