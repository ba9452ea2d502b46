//! Empty on purpose: the crate needs a build script for its
//! `[build-dependencies]` to count, and those exist only to unify the
//! features of `syn` between the normal build and the Python package's
//! (see Cargo.toml).
fn main() {}
