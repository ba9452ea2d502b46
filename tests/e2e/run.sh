#!/usr/bin/env bash
# Builds the web app (trunk build --release) and runs the end-to-end tests
# in Debian's Chromium, then the core journeys in all three engines. SKIP_BUILD=1 reuses dist/. Screenshots land in
# tests/e2e/artifacts/.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
start=$SECONDS

if [ ! -d "$HERE/node_modules/playwright-core" ] || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.package-lock.json" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi
export PATH="$HERE/node_modules/.bin:$PATH" # wasm-opt (binaryen 132) for trunk

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  [ -f "$ROOT/models/muse-v3/table.u8" ] || python3 "$ROOT/models/build.py"
  (cd "$ROOT" && trunk build --release)
fi

# PDF and Word fixtures (tests/fixtures/documents/make.py; scripts/test.sh
# makes them before the Rust tests, this covers a run of this script alone).
FIXTURES="${PRECIS_DOCUMENT_FIXTURES:-$ROOT/target/document-fixtures}"
[ -d "$FIXTURES" ] || "${PYTHON:-python3}" "$ROOT/tests/fixtures/documents/make.py" "$FIXTURES"

cd "$HERE"
node --test --test-concurrency=1 --test-timeout=600000 specs/
# The core journeys in Chromium, Firefox and WebKit through WebDriver
# (PRECIS_ENGINES narrows them); WebKit's MiniBrowser needs a display.
xvfb-run -a node --test --test-concurrency=1 --test-timeout=900000 engines/
echo "e2e: done in $((SECONDS - start)) s"
