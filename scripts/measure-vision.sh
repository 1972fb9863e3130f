#!/bin/bash
# Per dev document: how many pages each §4.1 signal flags (`clair extract --json`), the vision
# estimate for every flagged page (`clair ingest --vision flagged --estimate`, no calls), and the
# 300-dpi render time over the first 5 flagged pages (sent to the mock server at $1).
# Usage: scripts/measure-vision.sh http://127.0.0.1:PORT/v1 [CLAIR] > measure.tsv
set -u
U=$1
C=${2:-target/debug/clair}
PDFS=${PDFS:-../shared/corpus/financebench/pdfs}
T=$(mktemp -d)
for f in "$PDFS"/*.pdf; do
  n=$(basename "$f" .pdf)
  "$C" extract "$f" --json > "$T/$n.json" 2>/dev/null
  read -r sig pages <<<"$(python3 - "$T/$n.json" <<'PY'
import json, sys
P = json.load(open(sys.argv[1]))["pages"]
s = lambda k: sum(1 for p in P if p["signals"][k])
rules_only = sum(1 for p in P if p["signals"]["chart"] and not p["signals"].get("drawing_region"))
first = [str(p["page"]) for p in P if p["signals"]["needs_vision"]][:5]
print(f'{len(P)}/{s("garbled")}/{s("chart")}/{s("image")}/{s("needs_vision")}/{rules_only}', ",".join(first) or "0")
PY
)"
  est=$("$C" ingest "$f" -o "$T/m.corpus" --vision flagged --estimate 2>&1 | grep -o "estimate .*")
  rend=$("$C" ingest "$f" -o "$T/m.corpus" --vision flagged --vision-pages "$pages" --base-url "$U" 2>&1 | grep -o "rendered .*")
  rm -f "$T/m.corpus" "$T/m.corpus.vision.json"
  printf '%s\t%s\t%s\t%s\n' "$n" "$sig" "$est" "$rend"
done
rm -rf "$T"
