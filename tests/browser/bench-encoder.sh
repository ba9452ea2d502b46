#!/usr/bin/env bash
# Encoder benchmark (not a test): builds what it needs, then runs the Python
# reference, the native CLI, our wasm and onnxruntime-web in headless Chromium
# on the same 2,000 sentences; prints a table and writes bench-results/encoder.json.
# BENCH_ROUNDS=N sets how many rounds take turns over the runtimes (default 5).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

"$HERE/prepare.sh"
node "$HERE/bench-encoder.mjs"
