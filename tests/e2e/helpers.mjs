// Shared set-up of the end-to-end tests: Debian's Chromium driven by
// playwright-core, the built app served from dist/ on 127.0.0.1.
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer } from "./serve.mjs";

/** The encoder file the app downloads (src/worker/assets.rs: the int8 build, as the CLI's default). */
export const ENCODER_FILE = "encoder-int8.graph";
export const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

export const fixture = (name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const fixtureText = (name) => readFileSync(fixture(name), "utf8");
/** PDF and Word fixtures, generated (tests/e2e/run.sh runs tests/fixtures/documents/make.py). */
export const DOCUMENT_FIXTURES =
  process.env.PRECIS_DOCUMENT_FIXTURES ?? fileURLToPath(new URL("../../target/document-fixtures/", import.meta.url));
export const documentFixture = (name) => `${DOCUMENT_FIXTURES.replace(/\/$/, "")}/${name}`;

/** Loading and preparing the 84 MB model can take a while on a busy machine. */
export const MODEL_TIMEOUT = 180_000;
export const SUMMARY_TIMEOUT = 120_000;

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A server and a browser (Playwright gives each launch a fresh profile). */
export async function setUp() {
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS, headless: true });
  return {
    server,
    browser,
    async tearDown() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Opens the app in a fresh context and waits until it is interactive.
 * Page errors are collected in `page.errors` (tests assert there are none).
 */
export async function openApp(env, { viewport = { width: 1280, height: 800 }, colorScheme = "light", context, query = "" } = {}) {
  const ctx = context ?? (await env.browser.newContext({ viewport, colorScheme }));
  const page = await ctx.newPage();
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push(message.text());
  });
  await page.goto(env.server.url + query);
  await page.waitForSelector("html[data-ready=true]");
  return { context: ctx, page };
}

export async function waitForModel(page) {
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: MODEL_TIMEOUT });
}

/** Pastes texts as separate articles (one paste, "---" between them). */
export async function pasteArticles(page, texts) {
  const before = await page.getByTestId("article-card").count();
  await page.getByTestId("article-input").fill(texts.join("\n---\n"));
  await page.getByTestId("add-article").click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="article-card"]').length >= n,
    before + texts.length,
  );
}

export async function loadExample(page) {
  await page.getByRole("button", { name: "Load example" }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="article-card"]').length === 5);
}

/** Sets a number field and commits it (change event). */
export async function setNumber(page, selector, value) {
  const input = page.locator(selector);
  await input.fill(String(value));
  await input.press("Tab");
}

/** Clicks Summarize and waits for the summary (or for an error or a note). */
export async function summarize(page) {
  await page.getByTestId("summarize").click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="progress"]')?.dataset.state === "idle" &&
      (document.querySelector('[data-testid="summary-sentence"]') ||
        document.querySelector('[data-testid="summary"] .notice') ||
        document.querySelector('[data-testid="error"]')),
    null,
    { timeout: SUMMARY_TIMEOUT },
  );
}

/** Budget words as the core counts them (text::count_words, Latin scripts). */
export function countWords(text) {
  return (text.match(/[\p{L}\p{M}\p{N}_]+/gu) ?? []).length;
}

export async function summarySentences(page) {
  return page.getByTestId("summary-sentence").evaluateAll((items) =>
    items.map((li) => ({
      doc: Number(li.dataset.doc),
      index: Number(li.dataset.index),
      text: li.querySelector(".sentence-link").textContent,
      lang: li.querySelector(".lang-tag").textContent,
    })),
  );
}

/** The articles' record in IndexedDB as stored (JSON text; null when there is none). */
export async function savedRecord(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("precis");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction("saved").objectStore("saved").get("precis.v1.articles");
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            db.close();
            resolve(get.result ?? null);
          };
        };
      }),
  );
}

/** The titles in the articles' record in IndexedDB (null when there is none); a damaged record throws. */
export async function savedArticles(page) {
  const json = await savedRecord(page);
  return json === null ? null : JSON.parse(json).map((article) => article.document.title);
}

/**
 * Waits until the articles' record, as stored, passes `accept` (`what` names
 * it in the failure). A reload right after a change can come before the
 * save commits; a user never reloads that fast, a test does.
 */
export async function waitForSavedRecord(page, accept, what) {
  // A watchdog, not a deadline: a save takes milliseconds.
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    if (accept(await savedRecord(page))) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`the saved record never ${what}`);
}

/** Waits until the saved list has `n` articles. */
export async function waitForSaved(page, n) {
  await waitForSavedRecord(page, (json) => json !== null && JSON.parse(json).length === n, `had ${n} articles`);
}
