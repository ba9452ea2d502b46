// Node side of the browser tests: a static server on 127.0.0.1 for the page,
// the wasm package, the model files and onnxruntime-web; headless Chromium
// (Debian's, through playwright-core); and helpers shared by the scripts.

import { spawn } from "node:child_process";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const BROWSER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = resolve(BROWSER_DIR, "../..");
export const ARTIFACTS = join(BROWSER_DIR, "artifacts");

/** The models folder, as the CLI finds it: $PRECIS_MODELS, else the repo's models/. */
const MODELS = process.env.PRECIS_MODELS ?? join(ROOT, "models");

/** URL prefix → folder served under it. */
const ROUTES = {
  "/pkg/": join(ARTIFACTS, "pkg"),
  "/models/": join(MODELS, "muse-v3"),
  "/heads/": join(MODELS, "cera"),
  "/ort/": join(BROWSER_DIR, "node_modules/onnxruntime-web/dist"),
  "/": join(BROWSER_DIR, "page"),
};

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

function fileFor(urlPath) {
  const prefix = Object.keys(ROUTES).find((p) => urlPath.startsWith(p));
  const folder = ROUTES[prefix];
  const rest = decodeURIComponent(urlPath.slice(prefix.length)) || "index.html";
  const file = resolve(folder, rest);
  return file.startsWith(folder + sep) ? file : null;
}

/** Serves ROUTES on 127.0.0.1 (a free port); resolves to { url, close }. */
export async function startServer() {
  const server = createServer((request, response) => {
    const file = fileFor(new URL(request.url, "http://localhost").pathname);
    let size;
    try {
      size = file && statSync(file).isFile() ? statSync(file).size : null;
    } catch {
      size = null;
    }
    if (size === null) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      "Content-Type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": size,
      "Cache-Control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { url, close: () => new Promise((done) => server.close(done)) };
}

/** Debian's Chromium, headless; root needs --no-sandbox. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--enable-precise-memory-info",
    ],
  });
}

/** Opens the harness page; resolves once its module has loaded. */
export async function openHarness(browser, url) {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      console.error(`[page ${message.type()}] ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.harness !== undefined);
  return page;
}

/** Sentences one per line, split like Rust's str::lines (see tests/parity/reference_encoder.py). */
export function readSentences(path) {
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** Runs a command with `input` on stdin; resolves to its stdout (rejects on failure). */
export function run(command, args, { input = "", env = {} } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolveRun(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
    child.stdin.end(input);
  });
}

export const jsonLines = (text) => text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));

/** The release CLI the scripts compare against (built by their shell wrappers). */
export const precisBin = () => process.env.PRECIS_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "release/precis");

export function decodeFloat32(base64) {
  const bytes = Buffer.from(base64, "base64");
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}
