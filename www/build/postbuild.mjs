// Trunk post-build hook (Trunk.toml): copies the optional model files that
// may not exist yet (models/stream/ls.json: the streaming policy's weights;
// models/cera/*.onnx: the trained centroid heads of CeRA and CeRAI),
// lists the app shell for the service worker and stamps sw.js with a hash
// of the build, so a new build installs as a new service worker version.
// The model files are not part of the shell (they are cached on first use).
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, relative, sep } from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("TRUNK_STAGING_DIR is not set: run this through trunk build");

const SKIP = new Set(["precache.json", "sw.js"]);

// Optional model files: shipped when present at build time; the app offers
// less without them (the timeline: COS and APSAL only) and says so.
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OPTIONAL = [
  "models/stream/ls.json",
  "models/stream/MODEL_CARD.md",
  "models/cera/cera.onnx",
  "models/cera/cerai.onnx",
  "models/cera/MODEL_CARD.md",
];
for (const file of OPTIONAL) {
  const from = join(ROOT, file);
  if (!existsSync(from)) {
    console.log(`optional ${file}: not found, not shipped`);
    continue;
  }
  const to = join(staging, file);
  mkdirSync(join(to, ".."), { recursive: true });
  copyFileSync(from, to);
  console.log(`optional ${file}: shipped`);
}

// Which heads are shipped, for the worker to offer them before fetching
// them (src/worker/assets.rs, heads_shipped).
const shipped = (name) => existsSync(join(staging, `models/cera/${name}.onnx`));
mkdirSync(join(staging, "models/cera"), { recursive: true });
writeFileSync(join(staging, "models/cera/shipped.json"), JSON.stringify({ cera: shipped("cera"), cerai: shipped("cerai") }));

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

const files = [];
const hash = createHash("sha256");
for (const path of walk(staging)) {
  const file = relative(staging, path).split(sep).join("/");
  if (SKIP.has(file) || file.startsWith("models/")) continue;
  files.push(file);
  hash.update(file).update(readFileSync(path));
}
const version = hash.digest("hex").slice(0, 16);

writeFileSync(join(staging, "precache.json"), JSON.stringify({ version, files }, null, 1));
const sw = join(staging, "sw.js");
writeFileSync(sw, readFileSync(sw, "utf8").replace("__PRECIS_BUILD__", version));
console.log(`precache.json: ${files.length} shell files, build ${version}`);
