#!/usr/bin/env bash
# Fuzz the PDF parser (issue 3 deliverable 5): build the harness (core/tests/fuzz_ingest.rs) in
# release and run it for SECONDS (default 600) from run seed SEED (default: the clock). Seeds are
# ../shared/corpus/icdar2013/*.pdf and the FinanceBench PDFs up to 160 KB (else /work/shared/corpus).
#
#   scripts/fuzz.sh [SECONDS] [SEED] [extra harness flags, e.g. --timeout 10 --stack-kb 1024]
#
# Reproducers: target/fuzz/crashes/ (crashes, hangs, deaths) and target/fuzz/caught/ (dependency
# panics the per-page guards caught), each with a .txt of the mutations. Replay one with
#   $(scripts/fuzz.sh --exe) --replay FILE.pdf
# The last line printed is the summary: executions=N crashes=K hangs=H unique=U seconds=S ...
set -euo pipefail
cd "$(dirname "$0")/.."
build() {
  CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo test --release -p clair-core --test fuzz_ingest --no-run \
    --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "fuzz_ingest" and m.get("executable"):
        print(m["executable"])'
}
if [ "${1:-}" = "--exe" ]; then build; exit; fi
SECONDS_="${1:-600}"
SEED="${2:-$(date +%s)}"
shift $(( $# > 2 ? 2 : $# )) || true
EXE=$(build | tail -1)
[ -x "$EXE" ] || { echo "fuzz.sh: the harness did not build" >&2; exit 2; }
exec "$EXE" --seconds "$SECONDS_" --seed "$SEED" --timeout 10 "$@"
