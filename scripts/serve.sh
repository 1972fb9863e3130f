#!/usr/bin/env bash
# Install what is missing, build the web app (release) and serve dist/ on 127.0.0.1.
#   scripts/serve.sh [--port N] [--mock]
# --mock also starts the project's OpenAI-compatible mock server and prints its URL, so the app can
# be tried without an API key (paste that URL as the base URL in "Model connection").
set -euo pipefail
cd "$(dirname "$0")/.."
port=8080; mock=0
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2;;
    --mock) mock=1; shift;;
    *) echo "usage: scripts/serve.sh [--port N] [--mock]"; exit 2;;
  esac
done
scripts/setup.sh
. scripts/env.sh
trunk build index.html --release
if [ "$mock" = 1 ]; then
  cargo build --release -q -p clair-mock-server
  target/release/clair-mock-server --port 0 &
  trap 'kill %1 2>/dev/null' EXIT
  sleep 1
fi
echo
echo "CLAIR-Fin is served at http://127.0.0.1:$port/  (Ctrl-C to stop)"
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist
