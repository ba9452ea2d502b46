// CeRA and CeRAI (trained centroid heads, models/cera): when the build
// ships them, the methods are offered, summarize, and the explorer shows
// the head's attention over the sentences as bars (and CeRAI's share of
// attention against the plain mean). Without them the methods are shown
// disabled with the reason.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadExample, openApp, setUp, summarize, summarySentences, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("cera and cerai show the attention of their trained heads", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await waitForModel(page);
  // The build lists the heads it ships (models/cera/shipped.json); they
  // are fetched when a summary needs them.
  const shipped = await page
    .waitForFunction(() => !document.querySelector('#method option[value="cerai"]')?.disabled, null, { timeout: 30_000 })
    .then(() => true, () => false);
  if (!shipped) {
    assert.match(await page.locator('#method option[value="cera"]').textContent(), /not in this build/);
    await context.close();
    return;
  }
  for (const method of ["cera", "cerai"]) {
    await page.locator("#method").selectOption(method);
    await summarize(page);
    assert.ok((await summarySentences(page)).length >= 1, `${method} summarizes`);
    await page.getByRole("tab", { name: "How it was chosen" }).click();
    const bars = page.getByTestId("attention-bar");
    assert.ok((await bars.count()) >= 5, `${method}: attention bars`);
    const weights = await bars.locator(".bar-total").allTextContents();
    const numbers = weights.map((w) => parseFloat(w));
    assert.deepEqual(numbers, [...numbers].sort((a, b) => b - a), "heaviest first");
    assert.ok(numbers.every((x) => x >= 0 && x <= 100));
    const share = page.getByTestId("attention-share");
    if (method === "cerai") assert.match(await share.textContent(), /\d+% of CeRAI's centroid comes from the attention/);
    else assert.equal(await share.count(), 0, "the share is CeRAI's");
    assert.ok((await page.getByTestId("beam-candidate").count()) >= 1, "the beam search explorer follows");
    await page.getByRole("tab", { name: "Sources" }).click();
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});
