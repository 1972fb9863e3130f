#!/usr/bin/env bash
# First load of the built app (issue 43 item 7): what the page fetches before it is usable — the
# HTML, the app's JS and wasm, the stylesheet — gzipped (-9), against a limit (default 1.5 MB). The
# worker's bundle is fetched by the worker after the page is up, so it is reported but not counted.
# Usage: scripts/first_load.sh [DIST] (after `trunk build index.html --release`).
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist}
limit=${FIRST_LOAD_LIMIT:-1500000}
gz() { gzip -9 -c "$1" | wc -c; }
total=0
shopt -s nullglob
app=( "$dist"/clair-app*_bg.wasm )
if [ ${#app[@]} -eq 0 ]; then echo "no app wasm in $dist: build it first (trunk build index.html --release)" >&2; exit 1; fi
for f in "$dist"/index.html "$dist"/clair-app*.js "$dist"/clair-app*_bg.wasm "$dist"/*.css; do
  n=$(gz "$f"); total=$((total + n)); printf '%10d B  %s\n' "$n" "${f#"$dist"/}"
done
for f in "$dist"/worker*.js "$dist"/worker*_bg.wasm; do
  printf '%10d B  %s (worker, fetched after the page is up; not counted)\n' "$(gz "$f")" "${f#"$dist"/}"
done
for f in "$dist"/minilm-l6-static-*.bin; do
  printf '%10d B  %s (the semantic part'"'"'s table, %d B as served: fetched by the worker, kept in Cache Storage; not counted)\n' "$(gz "$f")" "${f#"$dist"/}" "$(wc -c < "$f")"
done
printf 'first load, gzipped: %d B (limit %d B)\n' "$total" "$limit"
if [ "$total" -gt "$limit" ]; then echo "first load is over the limit" >&2; exit 1; fi
