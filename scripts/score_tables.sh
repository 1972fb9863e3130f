#!/usr/bin/env bash
# Table extraction on the ICDAR 2013 table competition (issue 3): run `clair tables --json` on every
# PDF of the corpus and score detection and structure with the shared scorer.
#
#   scripts/score_tables.sh [GT_DIR] [PRED_DIR]
#
# GT_DIR defaults to ../shared/corpus/icdar2013 (X.pdf, X-reg.xml, X-str.xml); PRED_DIR to
# target/icdar-pred. CLAIR overrides the binary (default target/release/clair, built if missing).
# The last line printed is the figure: detF1=... structF1=... (n=...). Per-document numbers follow
# with PER_DOC=1. With MIN_DET and/or MIN_STRUCT set, exits non-zero when a figure is below them
# (CI's regression floor: the output is deterministic).
set -euo pipefail
cd "$(dirname "$0")/.."
GT="${1:-../shared/corpus/icdar2013}"
[ -d "$GT" ] || GT=/work/shared/corpus/icdar2013
PRED="${2:-target/icdar-pred}"
SCORER="${SCORER:-$(dirname "$GT")/../tools/icdar_score.py}"
[ -f "$SCORER" ] || SCORER=/work/shared/tools/icdar_score.py
CLAIR="${CLAIR:-target/release/clair}"
if [ ! -x "$CLAIR" ]; then
  CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release -p clair-cli
fi
mkdir -p "$PRED"
for gt in "$GT"/*-str.xml; do
  doc=$(basename "$gt" -str.xml)
  pdf="$GT/$doc.pdf"
  # A second annotation of one document (eu-009b next to eu-009a.pdf) reads the same PDF.
  [ -f "$pdf" ] || pdf=$(ls "$GT/${doc%[a-z]}"*.pdf 2>/dev/null | head -1)
  [ -n "$pdf" ] && [ -f "$pdf" ] || continue
  "$CLAIR" tables "$pdf" --json >"$PRED/$doc.json" 2>/dev/null || echo '{"tables":[]}' >"$PRED/$doc.json"
done
if [ "${PER_DOC:-0}" = 1 ]; then
  for f in "$GT"/*-str.xml; do
    doc=$(basename "$f" -str.xml)
    printf '%s  ' "$doc"; python3 "$SCORER" "$GT" "$PRED" "$doc" | tail -3 | head -2 | tr '\n' ' '; echo
  done
fi
out=$(python3 "$SCORER" "$GT" "$PRED")
echo "$out"
last=$(echo "$out" | tail -1)
det=$(echo "$last" | sed -n 's/.*detF1=\([0-9.]*\).*/\1/p')
struct=$(echo "$last" | sed -n 's/.*structF1=\([0-9.]*\).*/\1/p')
python3 - "$det" "$struct" "${MIN_DET:-0}" "${MIN_STRUCT:-0}" <<'PY'
import sys
det, struct, min_det, min_struct = (float(x) for x in sys.argv[1:])
if det < min_det or struct < min_struct:
    sys.exit(f"below the floor: detF1 {det} (min {min_det}), structF1 {struct} (min {min_struct})")
PY
