#!/usr/bin/env bash
# What the browser encoder scripts need, built only when out of date: the npm
# packages of tests/browser, the model files, the wasm package
# (artifacts/pkg) and the release CLI (target/release/precis), unless the
# caller names a CLI already built in PRECIS_BIN (scripts/test.sh: the test
# suite's own, so that nothing is compiled twice).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

for needed in "$ROOT/models/muse-v3/encoder.onnx" "$ROOT/models/muse-v3/tokenizer.json" "$ROOT/models/muse-v3/table.u8" "$ROOT/.venv/bin/python"; do
  [ -e "$needed" ] || { echo "$needed is missing: run python3 models/build.py first" >&2; exit 1; }
done
if [ ! -x "$HERE/node_modules/.bin/wasm-opt" ] \
   || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.package-lock.json" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi
"$HERE/build-wasm.sh"
if [ -z "${PRECIS_BIN:-}" ]; then
  (cd "$ROOT" && cargo build --release --bin precis)
else
  [ -x "$PRECIS_BIN" ] || { echo "PRECIS_BIN=$PRECIS_BIN is not an executable" >&2; exit 1; }
fi
