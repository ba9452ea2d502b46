//! The web app: a thin Leptos shell over the core. All heavy work runs in
//! the worker (`crate::worker`); the page keeps the articles, the settings
//! and the last result, and draws them.
//!
//! `catalogue`, `present` and `export` are plain Rust (tested natively);
//! the components under `ui` exist only in the wasm build with the `app`
//! feature (Trunk turns it on), so other wasm builds never compile Leptos.

pub mod catalogue;
pub mod export;
pub mod present;
#[cfg(all(target_arch = "wasm32", feature = "app"))]
mod ui;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub use ui::mount;
