// Starts the app from a file rather than an inline script, so the page's
// Content-Security-Policy can forbid inline code. Trunk writes the hashed
// file names into the script tag (Trunk.toml, pattern_script).
const tag = document.querySelector("script[data-app-js]");
const { default: init } = await import(new URL(tag.dataset.appJs, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.appWasm, document.baseURI).href });

// The service worker keeps the app shell for offline visits (the language
// model is kept by the app's worker in the Cache API).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("sw.js").catch(() => {
    // Without it the app still works online; offline visits need it.
  });
}
