// The beam-search explorer: B live beams per step, expansions with their
// fate, final candidates that can be shown as the summary.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadExample, openApp, setNumber, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("the explorer shows B beams, their expansions and the ranked finals", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await page.locator("#method").selectOption("bs+gs");
  await setNumber(page, "#beam-width", 3);
  await waitForModel(page);
  await summarize(page);

  await page.getByRole("tab", { name: "How it was chosen" }).click();
  const step = page.getByTestId("beam-step");
  assert.equal(await step.getAttribute("data-step"), "0");
  assert.equal(await step.locator(".beam").count(), 1, "the search starts from one empty beam");
  assert.equal(await step.locator(".fate.kept").count(), 3, "B proposals survive the first step");

  await page.getByRole("button", { name: "Next step" }).click();
  assert.equal(await page.getByTestId("beam-step").getAttribute("data-step"), "1");
  assert.equal(await page.getByTestId("beam-step").locator(".beam").count(), 3, "B = 3 live beams");

  // Every step keeps at most B beams.
  const steps = Number(await page.locator('.stepper input[type="range"]').getAttribute("max")) + 1;
  for (let k = 0; k < steps; k++) {
    await page.locator('.stepper input[type="range"]').fill(String(k));
    const beams = await page.getByTestId("beam-step").locator(".beam").count();
    assert.ok(beams >= 1 && beams <= 3, `step ${k}: ${beams} beams`);
  }

  const finals = page.getByTestId("beam-candidate");
  assert.ok((await finals.count()) >= 2, "several final candidates");
  const answer = await page.getByTestId("summary-sentence").evaluateAll((l) => l.map((e) => e.dataset.doc + ":" + e.dataset.index));
  await finals.nth(1).getByRole("button", { name: "Show as summary" }).click();
  await page.locator(".candidate-banner").waitFor();
  assert.match(await page.locator(".candidate-banner").textContent(), /candidate #2/);
  const other = await page.getByTestId("summary-sentence").evaluateAll((l) => l.map((e) => e.dataset.doc + ":" + e.dataset.index));
  assert.notDeepEqual(other, answer);
  await page.getByRole("button", { name: "Back to the summary" }).click();
  const back = await page.getByTestId("summary-sentence").evaluateAll((l) => l.map((e) => e.dataset.doc + ":" + e.dataset.index));
  assert.deepEqual(back, answer);

  // The map shows every sentence and numbers the picked ones.
  await page.getByRole("tab", { name: "Map" }).click();
  const points = await page.locator(".map circle.point").count();
  const sentences = await page.locator(".source .sentence").count();
  assert.equal(points, sentences);
  assert.equal(await page.locator(".map .picked").count(), answer.length);

  assert.deepEqual(page.errors, []);
  await context.close();
});
