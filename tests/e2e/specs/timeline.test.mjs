// The timeline mode: the example set replayed by date through a streaming
// policy in the worker; dated updates land in time order, skipped
// sentences show their reason, play/pause/step drive the replay and the
// policy and threshold change it live.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadExample, openApp, setNumber, setUp, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

const idle = (page) =>
  page.waitForFunction(() => document.querySelector('[data-testid="timeline-progress"]')?.dataset.state === "idle" &&
    document.querySelector('[data-testid="timeline-meta"]'), null, { timeout: 120_000 });

/** Reveals every decision (the button is disabled when already there). */
async function showAll(page) {
  const end = page.getByTestId("timeline-end");
  if (await end.isEnabled()) await end.click();
}

async function updates(page) {
  return page.getByTestId("timeline-update").evaluateAll((items) =>
    items.map((li) => ({
      time: Number(li.dataset.time),
      date: li.querySelector("time").getAttribute("datetime"),
      doc: Number(li.dataset.doc),
      index: Number(li.dataset.index),
      lang: li.querySelector(".lang-tag").textContent,
      text: li.querySelector(".update-text").textContent,
    })),
  );
}

test("the example set's timeline gives dated updates in time order", async () => {
  const { page, context } = await openApp(env);
  await loadExample(page);
  await page.getByTestId("mode-timeline").click();
  await page.getByTestId("timeline").waitFor();
  assert.equal(await page.locator("#method").count(), 0, "the summary settings are out of the way");
  await waitForModel(page);
  // The worker says which policies this build has.
  await page.waitForFunction(() => [...document.querySelectorAll("#stream-policy option")].some((o) => !o.disabled));
  const cosAvailable = await page.locator('#stream-policy option[value="cos"]').evaluate((o) => !o.disabled);
  assert.ok(cosAvailable);
  const lsShipped = await page.locator('#stream-policy option[value="ls+cos"]').evaluate((o) => !o.disabled);
  if (!lsShipped) assert.match(await page.getByTestId("stream-note").textContent(), /ls\.json/);

  await page.locator("#stream-policy").selectOption("cos");
  await page.getByTestId("timeline-run").click();
  await idle(page);

  // It starts playing by itself; pause, step once, then show everything.
  await page.getByTestId("timeline-play").waitFor();
  if ((await page.getByTestId("timeline-play").getAttribute("aria-pressed")) === "true") {
    await page.getByTestId("timeline-play").click();
  }
  assert.equal(await page.getByTestId("timeline-play").getAttribute("aria-pressed"), "false");
  const before = Number(await page.getByTestId("timeline-position").inputValue());
  await page.getByTestId("timeline-step").click();
  assert.equal(Number(await page.getByTestId("timeline-position").inputValue()), before + 1);
  await showAll(page);

  const list = await updates(page);
  assert.ok(list.length >= 2, `several updates, got ${list.length}`);
  assert.ok(list.every((u) => /^\d{4}-\d{2}-\d{2}$/.test(u.date)), "every update is dated");
  const times = list.map((u) => u.time);
  assert.deepEqual(times, [...times].sort((a, b) => a - b), "updates in time order");
  assert.equal(list[0].date, "2026-03-10", "the first update comes from the earliest day");
  assert.ok(list.every((u) => u.index === 0), "COS only takes first sentences");
  assert.ok(new Set(list.map((u) => u.lang)).size >= 2, "updates in several languages");

  // Skipped sentences on demand, each with its reason.
  assert.equal(await page.getByTestId("timeline-skip").count(), 0);
  await page.locator("#show-skipped").check();
  const skipped = await page.getByTestId("timeline-skip").locator(".reason").allTextContents();
  assert.ok(skipped.length > 0);
  assert.ok(skipped.some((r) => /not a first sentence/.test(r)));

  // The threshold changes the replay live: a very low one keeps only the first update.
  await setNumber(page, "#stream-threshold", 0.05);
  await page.waitForFunction(() => /threshold 0\.05/.test(document.querySelector('[data-testid="timeline-meta"]')?.textContent ?? ""), null, { timeout: 60_000 });
  await showAll(page);
  const strict = await updates(page);
  assert.equal(strict.length, 1, "at 0.05 everything after the first update is a repeat");
  assert.ok(
    (await page.getByTestId("timeline-skip").locator(".reason").allTextContents()).some((r) => /too similar to update 1: 0\.\d\d ≥ 0\.05/.test(r)),
    "skips name the update they repeat",
  );

  // APSAL waits for its window to close, then decides.
  await page.locator("#stream-policy").selectOption("apsal");
  await page.waitForFunction(() => /APSAL/.test(document.querySelector('[data-testid="timeline-meta"]')?.textContent ?? ""), null, { timeout: 60_000 });
  await showAll(page);
  const apsal = await updates(page);
  const apsalTimes = apsal.map((u) => u.time);
  assert.deepEqual(apsalTimes, [...apsalTimes].sort((a, b) => a - b), "APSAL updates in time order");
  assert.ok((await page.getByTestId("timeline-wait").count()) > 0, "deferred sentences are shown waiting");

  // The mode survives a reload.
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  assert.equal(await page.getByTestId("mode-timeline").getAttribute("aria-pressed"), "true");
  assert.equal(await page.locator("#stream-policy").inputValue(), "apsal");
  assert.deepEqual(page.errors, []);
  await context.close();
});
