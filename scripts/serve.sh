#!/usr/bin/env bash
# Set-up and serve: builds the models, the command-line tool
# (target/release/precis) and the web app, then serves the app on
# http://127.0.0.1:8080 (override with PORT=…).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

ensure_models
ensure_wasm_tools
ensure_node_tools tests/e2e      # wasm-opt (npm binaryen 132) for Trunk
log "building the command-line tool"
cargo build --release --bin precis
log "CLI ready: target/release/precis --help"
exec trunk serve --release --address 127.0.0.1 --port "${PORT:-8080}"
