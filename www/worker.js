// The app's worker: it loads the same wasm module as the page (whose
// entry point then runs the pipeline instead of the interface). The page
// passes the hashed file names in the URL (src/app/ui/link.rs).
const params = new URL(self.location.href).searchParams;
const { default: init } = await import(params.get("js"));
let module_or_path = params.get("wasm");
if (params.get("role") === "encoder") {
  // A helper encoder (src/worker/pool.rs) asks the main worker for its
  // compiled module: the engine compiles the code once, and in WebKit the
  // helper runs code that has already tiered up.
  module_or_path = await new Promise((resolve) => {
    self.onmessage = (event) => resolve(event.data[1] ?? module_or_path);
    self.postMessage(["module?"]);
  });
}
await init({ module_or_path });
