#!/usr/bin/env bash
# Behaviour unchanged, shown byte for byte: run `clair extract --json` and `clair tables --json` on
# every PDF under the shared corpora and keep each output (stdout, warnings on stderr, exit code) in
# a folder. Save a folder from a tree you trust, change the code, then compare.
#
#   scripts/check_identical.sh [--out DIR] [--compare BASE_DIR]
#
# --out defaults to target/identical-out. With --compare, every file of BASE_DIR and of the new run
# is diffed; the differing and missing files are named and the exit status is 1. CORPUS overrides
# the corpus root (default ../shared/corpus, else /work/shared/corpus). CLAIR overrides the binary;
# by default the debug `clair` is built first (dependencies are optimised in the dev profile, so
# a debug run over the corpora takes a few minutes and the incremental build is far quicker than
# release's LTO). PROFILE=release uses the release binary instead. Outputs are deterministic for
# any thread count (core/tests/ingest_corpus.rs checks it), so CLAIR_THREADS is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/identical-out
BASE=
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --compare) BASE="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
CORPUS="${CORPUS:-../shared/corpus}"
[ -d "$CORPUS" ] || CORPUS=/work/shared/corpus
PROFILE="${PROFILE:-debug}"
if [ -z "${CLAIR:-}" ]; then
  if [ "$PROFILE" = release ]; then
    cargo build --release -q -p clair-cli
  else
    cargo build -q -p clair-cli
  fi
  CLAIR="${CARGO_TARGET_DIR:-target}/$PROFILE/clair"
fi
[ -x "$CLAIR" ] || { echo "no clair binary at $CLAIR" >&2; exit 2; }

rm -rf "$OUT"
mkdir -p "$OUT"
n=0
while IFS= read -r pdf; do
  # One output name per PDF, unique across corpora: the path under the corpus root, / as __.
  name=$(printf '%s' "${pdf#"$CORPUS"/}" | sed 's|/|__|g')
  for cmd in extract tables; do
    set +e
    "$CLAIR" "$cmd" "$pdf" --json >"$OUT/$name.$cmd.json" 2>"$OUT/$name.$cmd.stderr"
    echo $? >"$OUT/$name.$cmd.rc"
    set -e
  done
  n=$((n + 1))
done < <(find "$CORPUS" -name '*.pdf' -type f | LC_ALL=C sort)
[ "$n" -gt 0 ] || { echo "no PDFs under $CORPUS" >&2; exit 2; }
echo "$n PDFs read into $OUT"

[ -n "$BASE" ] || exit 0
[ -d "$BASE" ] || { echo "no baseline folder $BASE" >&2; exit 2; }
bad=0
while IFS= read -r f; do
  if [ ! -f "$BASE/$f" ]; then
    echo "only in new run: $f"; bad=1
  elif [ ! -f "$OUT/$f" ]; then
    echo "only in baseline: $f"; bad=1
  elif ! cmp -s "$BASE/$f" "$OUT/$f"; then
    echo "differs: $f"; bad=1
  fi
done < <( { ls "$BASE"; ls "$OUT"; } | LC_ALL=C sort -u)
if [ "$bad" = 0 ]; then
  echo "identical: every output of $n PDFs matches $BASE"
else
  echo "DIFFERENT from $BASE" >&2
fi
exit "$bad"
