#!/usr/bin/env bash
# Tables on pages no rule was written from (issue 41 deliverable 2): the data sets of PyPI
# `pdf-parse-bench` 0.4.0 (MIT, Pius Horn): 100 single pages typeset with pdfLaTeX holding 451
# tables whose ground truth is their `tabular` source, and 100 pages of display formulas and prose
# with no table at all. `clair tables --json` is scored by scripts/latex_tables_score.py
# (detection by content, ICDAR 2013 adjacency relations for structure); on the formula pages every
# table found is a false one. The last line printed is the figure:
#   detF1=... structF1=... (n=100) false_tables_on_formula_pages=...
#
#   scripts/score_tables_latex.sh [PRED_DIR]
#
# PRED_DIR defaults to target/latex-tables-pred. CLAIR overrides the binary (default
# target/release/clair, built if missing). ANCHOR=/path/to/python-with-pymupdf scores PyMuPDF's
# find_tables on the same pages too (../shared/tools/anchor_tables.py). The wheel (24 MB) is
# downloaded once into target/pdf-parse-bench. With MIN_DET, MIN_STRUCT and/or MAX_FALSE set, exits
# non-zero when a figure is past them (CI's regression floor: the output is deterministic).
set -euo pipefail
cd "$(dirname "$0")/.."
PRED="${1:-target/latex-tables-pred}"
DATA=target/pdf-parse-bench
CLAIR="${CLAIR:-target/release/clair}"
if [ ! -d "$DATA/pdf_parse_bench/data" ]; then
  mkdir -p "$DATA"
  # The wheel asks for Python 3.12 or newer; it holds only data and pure Python, so any pip fetches it.
  python3 -m pip download --no-deps -q --only-binary :all: --python-version 3.12 -d "$DATA" pdf-parse-bench==0.4.0
  python3 -m zipfile -e "$DATA"/pdf_parse_bench-0.4.0-py3-none-any.whl "$DATA"
fi
if [ ! -x "$CLAIR" ]; then
  CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release -p clair-cli
fi
# The scorer first scores the ground truth against itself and its word split (exits on a failure).
python3 scripts/latex_tables_score.py --self-test "$DATA/pdf_parse_bench/data/2026-q1-tables-only" >/dev/null
ANCHOR_TOOL=../shared/tools/anchor_tables.py
[ -f "$ANCHOR_TOOL" ] || ANCHOR_TOOL=/work/shared/tools/anchor_tables.py
for set in tables-only formulas-only; do
  dir="$DATA/pdf_parse_bench/data/2026-q1-$set"
  out="$PRED/$set"
  mkdir -p "$out"
  for pdf in "$dir"/pdfs/*.pdf; do
    "$CLAIR" tables "$pdf" --json >"$out/$(basename "$pdf" .pdf).json" 2>/dev/null \
      || echo '{"tables":[]}' >"$out/$(basename "$pdf" .pdf).json"
  done
  if [ -n "${ANCHOR:-}" ]; then
    mkdir -p "$PRED/pymupdf-$set"
    "$ANCHOR" "$ANCHOR_TOOL" pymupdf "$PRED/pymupdf-$set" "$dir"/pdfs/*.pdf >/dev/null 2>&1
    echo "PyMuPDF find_tables, $set:"
    python3 scripts/latex_tables_score.py "$dir" "$PRED/pymupdf-$set" | tail -3
  fi
  echo "CLAIR-Fin, $set:"
  python3 scripts/latex_tables_score.py "$dir" "$out" | tail -3 | tee "$PRED/$set.score"
done
# The figure, last: the table pages' F1s, then the tables found on the formula pages (all false).
false=$(sed -n 's/.*(gt 0, pred \([0-9]*\)).*/\1/p' "$PRED/formulas-only.score")
echo "$(tail -1 "$PRED/tables-only.score") false_tables_on_formula_pages=$false"
python3 - "$(tail -1 "$PRED/tables-only.score")" "$false" "${MIN_DET:-0}" "${MIN_STRUCT:-0}" "${MAX_FALSE:-1000000}" <<'PY'
import re, sys
line, false, min_det, min_struct, max_false = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
det = float(re.search(r"detF1=([0-9.]+)", line).group(1)); struct = float(re.search(r"structF1=([0-9.]+)", line).group(1))
if det < min_det or struct < min_struct or false > max_false:
    sys.exit(f"past the floor: detF1 {det} (min {min_det}), structF1 {struct} (min {min_struct}), "
             f"false tables on formula pages {false} (max {max_false:.0f})")
PY
