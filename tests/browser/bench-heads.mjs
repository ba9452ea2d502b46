// Centroid head benchmark (not a test): inference time of the trained CeRA
// and CeRAI heads (models/cera/*.onnx) in headless Chromium, through the
// same wasm package as the encoder benchmark, on synthetic clusters of 20
// (a truncated Multi-News cluster has ~17) and 40 sentences, and of the
// sizes of DUC2004's clusters as our splitter cuts them: 152 (the smallest),
// 218 (the median), 423 (90th percentile) and 598 (the largest). Prints the
// minimum and median of 30 calls after a warm-up (issue target: < 5 ms per
// cluster).
//
// Run after tests/browser/build-wasm.sh: node tests/browser/bench-heads.mjs

import { launchBrowser, openHarness, startServer } from "./lib/harness.mjs";

const SIZES = [20, 40, 152, 218, 423, 598];
const RUNS = 30;

const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await openHarness(browser, server.url);
  console.log("sentences   head    min ms  median ms");
  for (const name of ["cera", "cerai"]) {
    for (const sentences of SIZES) {
      const times = await page.evaluate(([n, s, r]) => harness.timeHead(n, s, r), [name, sentences, RUNS]);
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)];
      console.log(`${String(sentences).padStart(9)}   ${name.padEnd(6)} ${times[0].toFixed(2).padStart(7)} ${median.toFixed(2).padStart(10)}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
