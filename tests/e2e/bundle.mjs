// Sizes of the built app's code (dist/, without the model), as a visitor
// downloads it: the first load (page and worker: the app's module and its
// glue) and the document reader, which is loaded only on the first PDF or
// Word file (src/worker/readers.rs). Gzip at level 9, as a server sends it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DIST } from "./serve.mjs";

/** The first-load bundle must stay under this (issue #4, issue #16). */
export const FIRST_LOAD_LIMIT = 3_000_000;

const isReader = (f) => f.file.startsWith("readers");
// WordNet's exception list, fetched on the first ROUGE score (src/eval/porter.rs).
const isRougeData = (f) => f.file.startsWith("rouge/");
const isWorker = (f) => f.file.startsWith("worker");

export function bundleSizes(dist = DIST) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== "models") walk(path);
      } else if (/\.(wasm|js)$/.test(name) || path.includes(`${dist}/rouge/`)) {
        const bytes = readFileSync(path);
        files.push({ file: path.slice(dist.length + 1), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
      }
    }
  };
  walk(dist);
  const sum = (filter) => ({
    raw: files.filter(filter).reduce((n, f) => n + f.raw, 0),
    gzip: files.filter(filter).reduce((n, f) => n + f.gzip, 0),
  });
  return {
    files,
    firstLoad: sum((f) => !isReader(f) && !isRougeData(f)),
    page: sum((f) => !isReader(f) && !isRougeData(f) && !isWorker(f)),
    worker: sum(isWorker),
    reader: sum(isReader),
    rougeData: sum(isRougeData),
  };
}
