// The first load stays under 3 MB gzipped; the PDF and Word reader is a
// separate, lazily loaded module (issue #16).
import { test } from "node:test";
import assert from "node:assert/strict";
import { FIRST_LOAD_LIMIT, bundleSizes } from "../bundle.mjs";

test("the first load is under 3 MB gzipped, without the lazily loaded reader", () => {
  const sizes = bundleSizes();
  console.log(`first load ${sizes.firstLoad.gzip} B gzipped; document reader ${sizes.reader.gzip} B; ROUGE's WordNet list ${sizes.rougeData.gzip} B`);
  assert.ok(sizes.reader.gzip > 0, "the build has no document reader (readers_bg.wasm)");
  assert.ok(sizes.rougeData.raw > 80_000, "the build does not serve WordNet's exception list for ROUGE (rouge/)");
  assert.ok(sizes.firstLoad.gzip < FIRST_LOAD_LIMIT, `first load ${sizes.firstLoad.gzip} B gzipped is over ${FIRST_LOAD_LIMIT}`);
});
