// What was pasted survives a reload; "Clear all" empties it (with undo).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, openApp, pasteArticles, setUp, waitForSaved } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("articles, settings and the unsent paste survive a reload", async () => {
  const { page, context } = await openApp(env);
  await pasteArticles(page, [fixtureText("ship-en.txt"), fixtureText("ship-fr.txt")]);
  await page.locator("#budget").fill("80");
  await page.locator("#budget").press("Tab");
  await page.getByTestId("article-input").fill("A draft that was never added.");
  // The paste box is saved after a short pause: wait for the save itself.
  await page.waitForFunction(() => localStorage.getItem("precis.v1.draft") === "A draft that was never added.", null, { timeout: 60_000 });
  await waitForSaved(page, 2);

  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  assert.equal(await page.getByTestId("article-card").count(), 2);
  assert.match(await page.getByTestId("article-card").nth(1).locator(".card-title").textContent(), /porte-conteneurs/);
  assert.equal(await page.locator("#budget").inputValue(), "80");
  assert.equal(await page.getByTestId("article-input").inputValue(), "A draft that was never added.");

  await page.getByRole("button", { name: "Clear all" }).click();
  assert.equal(await page.getByTestId("article-card").count(), 0);
  await page.getByRole("button", { name: "Undo" }).click();
  assert.equal(await page.getByTestId("article-card").count(), 2);
  await page.getByRole("button", { name: "Clear all" }).click();
  await waitForSaved(page, 0);
  await page.reload();
  await page.waitForSelector("html[data-ready=true]");
  assert.equal(await page.getByTestId("article-card").count(), 0);
  assert.equal(await page.getByTestId("article-input").inputValue(), "");
  assert.deepEqual(page.errors, []);
  await context.close();
});
