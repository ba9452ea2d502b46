// Nothing leaves the tab: every request goes to the app's own origin, and
// summarizing makes no request at all.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixtureText, loadExample, openApp, pasteArticles, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

test("no request to another origin, and none while summarizing", async () => {
  const context = await env.browser.newContext();
  const requests = [];
  let phase = "loading";
  context.on("request", (request) => requests.push({ url: request.url(), phase }));
  const { page } = await openApp(env, { context });
  await waitForModel(page);
  assert.ok(requests.some((r) => r.url.includes("models/muse-v3/encoder.onnx")), "the model download is recorded");

  await loadExample(page);
  await pasteArticles(page, [fixtureText("ship-en.txt")]);
  phase = "summarizing";
  await summarize(page);
  await page.getByRole("tab", { name: "How it was chosen" }).click();
  await page.getByRole("tab", { name: "Map" }).click();
  phase = "done";

  const origin = new URL(env.server.url).origin;
  const foreign = requests.filter((r) => !r.url.startsWith(origin) && !r.url.startsWith("blob:") && !r.url.startsWith("data:"));
  assert.deepEqual(foreign, [], "requests to other origins");
  const during = requests.filter((r) => r.phase === "summarizing");
  assert.deepEqual(during, [], "requests while summarizing");
  assert.deepEqual(page.errors, []);
  await context.close();
});
