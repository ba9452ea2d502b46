//! The web app's one wasm module (built by Trunk from www/index.html). It
//! starts the page in a window and the pipeline in the page's worker
//! (www/worker.js loads this same module). Natively, or without the `app`
//! feature, there is nothing to run.

fn main() {
    #[cfg(all(target_arch = "wasm32", feature = "app"))]
    if precis::worker::in_worker() {
        precis::worker::start();
    } else {
        precis::app::mount();
    }
}
