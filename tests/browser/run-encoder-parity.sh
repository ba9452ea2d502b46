#!/usr/bin/env bash
# Wasm encoder parity in headless Chromium (CI runs it). Builds what it needs:
# npm packages (when package-lock.json changed), the wasm package and the
# release CLI; then encoder-parity.mjs compares wasm against native embeddings.
# Needs: python3 models/build.py done, wasm-bindgen-cli, /usr/bin/chromium.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

"$HERE/prepare.sh"
node "$HERE/encoder-parity.mjs"
