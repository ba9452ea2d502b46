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
    end_quietly_on_a_closed_pipe();
    if let Err(e) = cli::run(cli::Cli::parse()) {
        eprintln!("precis: {e:#}");
        std::process::exit(1);
    }
}

/// Rust ignores SIGPIPE, so printing to a pipe whose reader has gone
/// (`precis segment … | head`) panicked with "failed printing to stdout".
/// With the default action restored the process ends at once, as `cat`
/// and `grep` do. The CLI writes to no child process, so no pipe of its own
/// can end it this way.
#[cfg(all(unix, not(target_arch = "wasm32")))]
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: called first in `main`, before any thread starts; it sets a
    // signal's action to the default, which involves no handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(all(not(unix), not(target_arch = "wasm32")))]
fn end_quietly_on_a_closed_pipe() {}

#[cfg(target_arch = "wasm32")]
fn main() {}
