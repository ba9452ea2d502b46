#!/usr/bin/env bash
# Installs what Précis needs on a fresh Debian machine, skipping what is
# already there. Sourced by scripts/serve.sh and scripts/test.sh.
# Everything comes from crates.io, PyPI, npm or Debian: nothing else is
# reachable (see ../shared/design/toolchain.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
GECKODRIVER_VERSION=0.37.1

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# Version of wasm-bindgen pinned by Cargo.lock: the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock"
}

ensure_apt() {
  local missing=() status
  for pkg in "$@"; do
    # Installed, not merely known: a removed package keeps its
    # configuration and `dpkg -s` still succeeds for it.
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    [ "$status" = "install ok installed" ] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_wasm_tools() {
  rustup target list --installed | grep -q wasm32-unknown-unknown \
    || { log "adding the wasm32 target"; rustup target add wasm32-unknown-unknown; }
  command -v trunk >/dev/null && trunk --version | grep -q "$TRUNK_VERSION" \
    || { log "installing trunk $TRUNK_VERSION (10-15 min)"; cargo install trunk --version "$TRUNK_VERSION" --locked; }
  local wbg
  wbg="$(wasm_bindgen_version)"
  command -v wasm-bindgen >/dev/null && wasm-bindgen --version | grep -q "$wbg" \
    || { log "installing wasm-bindgen-cli $wbg (~4 min)"; cargo install wasm-bindgen-cli --version "$wbg"; }
}

# npm packages of a test folder (playwright-core; binaryen, whose wasm-opt
# Trunk runs), installed from package-lock.json when it changed.
ensure_node_tools() {
  local dir="$ROOT/$1"
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "installing npm packages of $1"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
}

# Firefox's WebDriver server, from crates.io (npm's geckodriver downloads a
# binary from elsewhere).
ensure_geckodriver() {
  # Its whole version text in a variable: `| grep -q` would close the pipe
  # early and geckodriver would panic on the broken pipe.
  local version
  version="$(geckodriver --version 2>/dev/null || true)"
  [[ "$version" == *"geckodriver $GECKODRIVER_VERSION"* ]] \
    || { log "installing geckodriver $GECKODRIVER_VERSION (~3 min)"; cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked; }
}

ensure_models() {
  python3 "$ROOT/models/build.py"
}

# The Python package `precis` (pyproject.toml, src/python/) in .venv,
# with maturin and pytest. Built with the ci profile in target/, so it
# reuses the dependencies `cargo test --profile ci` compiled; cargo
# rebuilds only what changed. Needs the venv that ensure_models makes.
ensure_python_package() {
  local venv="$ROOT/.venv"
  "$venv/bin/python" -c 'import maturin, pytest' 2>/dev/null \
    || { log "installing maturin and pytest into .venv"; "$venv/bin/pip" install -q "maturin>=1.16,<2" "pytest>=8"; }
  # Spark for python/precis/spark.py: Java 17 from Debian, PySpark (its
  # jars included) from PyPI. PySpark 4.3 does not support pandas 3 yet.
  ensure_apt openjdk-17-jre-headless
  "$venv/bin/python" -c 'import pyspark, pandas, pyarrow; assert pyspark.__version__ == "4.3.0"' 2>/dev/null \
    || { log "installing pyspark 4.3.0 into .venv (~2 min)"; "$venv/bin/pip" install -q "pyspark==4.3.0" "pandas>=2.2,<3" "pyarrow>=15"; }
  log "building the Python package into .venv"
  PATH="$venv/bin:$PATH" "$venv/bin/pip" install -q --no-build-isolation "$ROOT"
}
