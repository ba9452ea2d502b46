//! The one harness of the command-line tests: `precis` run as a program
//! (with this checkout's models), scratch folders, and the checks every test
//! makes on its output. Each test file takes it with
//! `#[path = "support/cli.rs"] mod cli;`.
#![allow(dead_code)] // each test file uses a part

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A web page pasted as text: a headline, a share widget, a photo credit,
/// two sentences of prose and a quote opener.
pub const WEB_PAGE: &str = "Storm hits the coast\nTweet with a location\n(Photo: Jane Doe, KARE 11)\n\
     The storm hit the coast on Monday and thousands of homes lost power.\n\
     Officials said schools would stay closed until Wednesday.\nKarl Rove:\n";

pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture folder of tests/fixtures.
pub fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures").join(name)
}

/// An empty folder for one test, under Cargo's scratch space for
/// integration tests; removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file in the folder; its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// The path as a string, for argument lists.
    pub fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `precis ARGS…` with this checkout's models, to be run; for a test that
/// wires its own streams.
pub fn command<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_precis"));
    command.args(args).env("PRECIS_MODELS", repo().join("models"));
    command
}

/// Runs `precis ARGS…`.
pub fn precis<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Output {
    command(args).output().expect("run precis")
}

/// Runs `precis ARGS…` with `input` on its standard input.
pub fn precis_with_stdin<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I, input: &[u8]) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run precis");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The standard output of a run that must succeed.
pub fn stdout_of(output: &Output) -> String {
    assert!(output.status.success(), "precis failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The standard error of a run that must fail.
pub fn stderr_of_failure(output: &Output) -> String {
    assert!(!output.status.success(), "precis should have failed: {}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `precis ARGS…` must succeed: its standard output.
pub fn succeed<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> String {
    stdout_of(&precis(args))
}

/// `precis ARGS…` must fail: its standard error.
pub fn fail<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> String {
    stderr_of_failure(&precis(args))
}

/// Whitespace runs made one space.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
