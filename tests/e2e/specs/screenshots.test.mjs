// Screenshots of the main views (summary, explorer, map, timeline) at desktop and phone width, light and dark
// (tests/e2e/artifacts/). Also checks nothing overflows sideways on a phone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, loadExample, openApp, setUp, summarize, waitForModel } from "../helpers.mjs";

let env;
before(async () => (env = await setUp()));
after(async () => env?.tearDown());

const LAYOUTS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];

for (const layout of LAYOUTS) {
  for (const colorScheme of ["light", "dark"]) {
    test(`${layout.name} ${colorScheme}`, async () => {
      const { page, context } = await openApp(env, { viewport: layout.viewport, colorScheme });
      const shot = (view) => page.screenshot({ path: join(ARTIFACTS, `${view}-${layout.name}-${colorScheme}.png`), fullPage: view !== "start" });
      await shot("start");
      await loadExample(page);
      await waitForModel(page);
      const heightBefore = await page.getByTestId("summary").evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
      await summarize(page);
      const heightAfter = await page.getByTestId("summary").evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
      assert.equal(heightAfter, heightBefore, "the summary panel does not move when the result arrives");
      await shot("summary");
      await page.getByRole("tab", { name: "How it was chosen" }).click();
      await shot("explorer");
      await page.getByRole("tab", { name: "Map" }).click();
      await shot("map");
      await page.getByTestId("mode-timeline").click();
      await page.locator("#stream-policy").selectOption("cos");
      await page.getByTestId("timeline-run").click();
      await page.getByTestId("timeline-meta").waitFor({ timeout: 60_000 });
      await page.getByTestId("timeline-end").click();
      await page.locator("#show-skipped").check();
      await shot("timeline");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
      assert.deepEqual(page.errors, []);
      await context.close();
    });
  }
}
