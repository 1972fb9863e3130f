#!/usr/bin/env bash
# Native extraction speed against pdftotext (issue 3): `clair extract PDF --json` (the whole
# extraction a user gets: text, blocks, tables, signals) and `pdftotext PDF -` side by side on every
# FinanceBench PDF of at least MIN_PAGES pages (pdfinfo), best of RUNS each.
#
#   scripts/bench_extract.sh [PDF_DIR]
#
# PDF_DIR defaults to ../shared/corpus/financebench/pdfs. CLAIR overrides the binary (default
# target/release/clair, built if missing); MIN_PAGES (100), RUNS (3) and BAR (2) override the rest.
# Prints pages/s of both per file and in total (pages over the summed best times) and their ratio;
# the last line is the figure. Exits non-zero when the total ratio is below BAR.
#
# The two readers run alternately on the same file, so a busy machine slows both alike: the ratio is
# the bar, not the absolute pages/s (the load average is printed with it). pdftotext reads on one
# thread; clair reads pages on every core, as a user's `clair` does (CLAIR_THREADS=1 measures it on
# one; the thread count is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
PDFS="${1:-../shared/corpus/financebench/pdfs}"
[ -d "$PDFS" ] || PDFS=/work/shared/corpus/financebench/pdfs
CLAIR="${CLAIR:-target/release/clair}"
MIN_PAGES="${MIN_PAGES:-100}"
RUNS="${RUNS:-3}"
BAR="${BAR:-2}"
if [ ! -x "$CLAIR" ]; then
  CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release --locked -p clair-cli
fi
command -v pdftotext >/dev/null || { echo "pdftotext missing (apt-get install poppler-utils)" >&2; exit 2; }

# Wall nanoseconds of one run of "$@" (output discarded; a failed run fails the bench).
wall_ns() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
  t1=$(date +%s%N)
  echo $(( t1 - t0 ))
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; clair threads: ${CLAIR_THREADS:-all cores}"
printf '%-44s %6s %10s %10s %10s %10s %7s\n' file pages "clair s" "clair p/s" "pdftot s" "pdftot p/s" ratio
total_pages=0 total_c=0 total_p=0 n=0
for pdf in "$PDFS"/*.pdf; do
  pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
  [ -n "$pages" ] && [ "$pages" -ge "$MIN_PAGES" ] || continue
  # Warm the page cache so neither reader pays for the disk.
  cat "$pdf" >/dev/null
  # Alternate the two readers, so a burst of load elsewhere hits both; keep each one's fastest run.
  c="" p=""
  for _ in $(seq "$RUNS"); do
    t=$(wall_ns "$CLAIR" extract "$pdf" --json)
    if [ -z "$c" ] || [ "$t" -lt "$c" ]; then c=$t; fi
    t=$(wall_ns pdftotext "$pdf" -)
    if [ -z "$p" ] || [ "$t" -lt "$p" ]; then p=$t; fi
  done
  c=$(awk -v ns="$c" 'BEGIN { printf "%.4f", ns / 1e9 }')
  p=$(awk -v ns="$p" 'BEGIN { printf "%.4f", ns / 1e9 }')
  awk -v f="$(basename "$pdf")" -v n="$pages" -v c="$c" -v p="$p" \
    'BEGIN { printf "%-44s %6d %10.3f %10.1f %10.3f %10.1f %6.2f×\n", f, n, c, n / c, p, n / p, p / c }'
  total_pages=$(( total_pages + pages ))
  total_c=$(awk -v a="$total_c" -v b="$c" 'BEGIN { print a + b }')
  total_p=$(awk -v a="$total_p" -v b="$p" 'BEGIN { print a + b }')
  n=$(( n + 1 ))
done
[ "$n" -gt 0 ] || { echo "no PDF of $MIN_PAGES+ pages in $PDFS" >&2; exit 2; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v n="$n" -v pg="$total_pages" -v c="$total_c" -v p="$total_p" -v bar="$BAR" -v runs="$RUNS" 'BEGIN {
  ratio = p / c
  printf "total: %d files, %d pages, best of %d: clair %.1f pages/s (%.2f s), pdftotext %.1f pages/s (%.2f s), ratio %.2f× (bar %s×)\n",
    n, pg, runs, pg / c, c, pg / p, p, ratio, bar
  exit (ratio >= bar ? 0 : 1)
}'
