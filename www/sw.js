// Précis service worker: keeps the app shell (HTML, JS, wasm, styles,
// icons) so the app opens without a network, and serves the model files
// (models/…) from the model cache it shares with the app's worker, so the
// language model and the streaming policy's weights work offline too.
//
// Model files are cached in "precis-models": the big content-hashed files
// (encoder-int8.graph?v=…, tokenizer.bin?v=…) are stored there by the app's
// worker once their size and sha256 are checked (src/worker/assets.rs; a
// damaged copy is deleted there, so this worker then fetches it anew), and
// served from there by this worker; the small unversioned ones (manifest.json,
// stream/ls.json) go to the network first and are kept here as the
// offline fallback.
//
// The build writes the list of shell files to precache.json and stamps this
// file with the build's hash (www/build/postbuild.mjs), so every new build
// installs as a new version and old shells are deleted.

const BUILD = "__PRECIS_BUILD__";
const SHELL_CACHE = `precis-shell-${BUILD}`;
const MODEL_CACHE = "precis-models";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch("precache.json", { cache: "no-store" });
      const { files } = await response.json();
      const cache = await caches.open(SHELL_CACHE);
      // Revalidated, not downloaded again: the page has just fetched most
      // of these (the app's wasm among them) into the HTTP cache.
      await cache.addAll(files.map((file) => new Request(file, { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("precis-shell-") && name !== SHELL_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.includes("/models/")) {
    event.respondWith(fromModelCache(request, url));
    return;
  }
  event.respondWith(fromShell(request));
});

async function fromModelCache(request, url) {
  const cache = await caches.open(MODEL_CACHE);
  if (url.searchParams.has("v")) {
    // A content-hashed file: a cached copy is always the right one.
    const cached = await cache.match(request);
    return cached || fetch(request);
  }
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw error;
  }
}

// Shell files come from the cache of this build; anything else (or a cache
// miss) goes to the network. The query is ignored: the page starts its
// worker as worker.js?js=…&wasm=… (src/app/ui/link.rs), and shell file
// names are already unique to the build.
async function fromShell(request) {
  const cache = await caches.open(SHELL_CACHE);
  const key = request.mode === "navigate" ? "index.html" : request;
  const cached = await cache.match(key, { ignoreSearch: true });
  if (!cached) return fetch(request);
  // A fresh response (no URL of its own) keeps the request's URL: the
  // worker reads its query (worker.js?js=…&wasm=…) from its location, which
  // a cached response would reset to plain worker.js.
  if (new URL(request.url).search) {
    return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers: cached.headers });
  }
  return cached;
}
