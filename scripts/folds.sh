#!/usr/bin/env bash
# Held-out fold report (issue 41): retrieval by company, tables by document. See scripts/folds.py.
#   scripts/folds.sh [--variants offline,static:0.5,...] [--skip-tables] [--skip-retrieval]
set -euo pipefail
cd "$(dirname "$0")/.."
CLAIR="${CLAIR:-target/release/clair}"
[ -x "$CLAIR" ] || CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release -p clair-cli
# Corpora are cached per binary: a rebuilt clair starts a fresh folder.
OUT="${FOLDS_OUT:-target/folds/$(stat -c %Y "$CLAIR")}"
exec python3 scripts/folds.py --clair "$CLAIR" --out "$OUT" "$@"
