#!/usr/bin/env bash
# Set-up and run every test: Rust unit and integration tests (ROUGE against
# the ROUGE-1.5.5 perl script, encoder parity against the Python package,
# CLI, a short fuzz run), the Python package and its Spark jobs (local[2])
# against the CLI, the wasm encoder in headless Chromium against native, and
# the web app end to end in headless Chromium, then its core journeys in
# Chromium, Firefox and WebKit through WebDriver.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

# Chromium for the browser tests and the PDF fixtures (with a Chinese font
# for the CJK one); XML::Parser and LWP for ROUGE-1.5.5.
ensure_apt chromium chromium-driver fonts-wqy-zenhei perl libxml-parser-perl libwww-perl
# Firefox ESR and WebKitGTK (Safari's engine) for the journeys in every
# engine (tests/e2e/engines), WebKit's MiniBrowser under Xvfb.
ensure_apt firefox-esr webkit2gtk-driver xvfb
ensure_geckodriver
ensure_models
ensure_wasm_tools

log "PDF and Word fixtures (printed by Chromium; tests/documents.rs reads them)"
"$ROOT/.venv/bin/python" tests/fixtures/documents/make.py "$ROOT/target/document-fixtures"

log "Rust tests (unit, integration, ROUGE vs perl, encoder parity vs Python)"
# Profile ci: release code without LTO (Cargo.toml), so the test binaries
# link fast; the browser parity test then compares with this build's CLI.
cargo test --profile ci
log "Python package and its Spark jobs (local[2]) against the CLI (tests/python)"
ensure_python_package
PRECIS_BIN="$ROOT/target/ci/precis" "$ROOT/.venv/bin/python" -m pytest -q tests/python
log "wasm encoder parity in Chromium"
PRECIS_BIN="$ROOT/target/ci/precis" tests/browser/run-encoder-parity.sh
log "web app end to end in Chromium"
tests/e2e/run.sh
log "all tests passed"
