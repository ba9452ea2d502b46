// The app's worker: it loads the same wasm module as the page (whose
// entry point then runs the pipeline instead of the interface). The page
// passes the hashed file names in the URL (src/app/ui/link.rs).
const params = new URL(self.location.href).searchParams;
const { default: init } = await import(params.get("js"));
await init({ module_or_path: params.get("wasm") });
