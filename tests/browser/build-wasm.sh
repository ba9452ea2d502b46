#!/usr/bin/env bash
# Builds the encoder for the browser tests into tests/browser/artifacts/pkg/
# (precis.js + precis_bg.wasm): cargo (wasm-release, wasm32, SIMD) → wasm-bindgen
# --target web → optionally (WASM_OPT=1) wasm-opt from npm binaryen (Debian's
# binaryen 108 produces a module that fails to load). wasm-opt is off by
# default: minutes on this module for no measured speedup.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$HERE/artifacts/pkg"

# tract only has wasm kernels (8x8 f32 matmul, layernorm, reductions) with
# simd128 on; without it every matmul runs the generic scalar code.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:--C target-feature=+simd128}"

# The app's own profile (Cargo.toml, www/index.html), so the benchmark
# measures the code that ships.
PROFILE="${WASM_PROFILE:-wasm-release}"

cd "$ROOT"
cargo build --profile "$PROFILE" --target wasm32-unknown-unknown --lib --no-default-features --features encoder-api
command -v wasm-bindgen >/dev/null || { echo "wasm-bindgen not found: see scripts/setup.sh" >&2; exit 1; }
rm -rf "$OUT"
wasm-bindgen --target web --no-typescript --out-dir "$OUT" --out-name precis \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$PROFILE/precis.wasm"
if [ "${WASM_OPT:-0}" != 0 ]; then
  WASM_OPT_BIN="$HERE/node_modules/.bin/wasm-opt"
  [ -x "$WASM_OPT_BIN" ] || { echo "run 'npm ci' in tests/browser first (binaryen's wasm-opt)" >&2; exit 1; }
  "$WASM_OPT_BIN" -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$OUT/precis_bg.wasm" -o "$OUT/precis_bg.opt.wasm"
  mv "$OUT/precis_bg.opt.wasm" "$OUT/precis_bg.wasm"
fi
ls -l "$OUT/precis_bg.wasm" >&2
