// Starts the app from a file rather than an inline script, so the page's
// Content-Security-Policy can forbid inline code. Trunk writes the hashed
// file names into the script tag (Trunk.toml, pattern_script).
const tag = document.querySelector("script[data-app-js]");
// The app's wasm uses WebAssembly SIMD (every current engine has it; Safari
// since 16.4) and has no scalar build: without SIMD it would not compile, so
// say so instead of leaving the page blank. The probe is wasm-feature-detect's.
const SIMD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
if (!WebAssembly.validate(new Uint8Array(SIMD))) {
  const note = document.createElement("p");
  note.className = "noscript";
  note.textContent = "Précis needs WebAssembly SIMD, which this browser lacks or has turned off. Any current Chrome, Edge, Firefox or Safari (16.4 or later) has it.";
  document.body.append(note);
  throw new Error("WebAssembly SIMD is not available");
}
const { default: init } = await import(new URL(tag.dataset.appJs, document.baseURI).href);
await init({ module_or_path: new URL(tag.dataset.appWasm, document.baseURI).href });

// The service worker keeps the app shell for offline visits (the language
// model is kept by the app's worker in the Cache API). It is registered once
// the whole model is on this device (the app marks "precis:offline-ready"),
// or after half a minute, so that its copy of the shell (the PDF reader's
// module among it) does not compete with a first visit's first summary.
if ("serviceWorker" in navigator) {
  let registered = false;
  const register = () => {
    if (registered) return;
    registered = true;
    navigator.serviceWorker.register("sw.js").catch(() => {
      // Without it the app still works online; offline visits need it.
    });
  };
  new PerformanceObserver((list) => {
    if (list.getEntriesByName("precis:offline-ready").length > 0) register();
  }).observe({ type: "mark", buffered: true });
  setTimeout(register, 30_000);
}
