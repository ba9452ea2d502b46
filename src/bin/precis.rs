//! The `precis` command-line tool (native only).

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../cli/mod.rs"]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use clap::Parser;
    if let Err(e) = cli::run(cli::Cli::parse()) {
        eprintln!("precis: {e:#}");
        std::process::exit(1);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
