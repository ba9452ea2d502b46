// Précis service worker: keeps the app shell (HTML, JS, wasm, styles,
// icons) so the app opens without a network. The language model is not
// handled here: the app's worker keeps it in the Cache API itself.
//
// The build writes the list of shell files to precache.json and stamps this
// file with the build's hash (www/build/postbuild.mjs), so every new build
// installs as a new version and old shells are deleted.

const BUILD = "__PRECIS_BUILD__";
const SHELL_CACHE = `precis-shell-${BUILD}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch("precache.json", { cache: "no-store" });
      const { files } = await response.json();
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(files.map((file) => new Request(file, { cache: "no-store" })));
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
  if (url.pathname.includes("/models/")) return;
  event.respondWith(fromShell(request));
});

// Shell files come from the cache of this build; anything else (or a cache
// miss) goes to the network.
async function fromShell(request) {
  const cache = await caches.open(SHELL_CACHE);
  const key = request.mode === "navigate" ? "index.html" : request;
  const cached = await cache.match(key, { ignoreSearch: request.mode === "navigate" });
  return cached || fetch(request);
}
