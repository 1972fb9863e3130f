#!/usr/bin/env bash
# Milvus 2.3.5 standalone on this machine, for the team-library store (`clair … --store milvus://…`)
# and its tests. The PyPI wheel `milvus==2.3.5` ships the server binary; it is installed into a
# project venv in target/milvus/venv (git-ignored) and skipped when already there.
#
#   scripts/milvus.sh install   install what is missing (pip, PyPI only)
#   scripts/milvus.sh serve     start `milvus-server` in the background with a FRESH data folder,
#                               wait until its REST API answers, write the PID file; prints the URL
#   scripts/milvus.sh start     start it on the data folder as it is (a library kept across
#                               restarts: a restart on 10⁵+ chunks takes longer, docs/scale.md)
#   scripts/milvus.sh stop      stop the server by its PID (SIGTERM, then SIGKILL: SIGTERM can hang)
#   scripts/milvus.sh status    exit 0 when the server answers on the port
#
# Environment: MILVUS_PORT (19530), MILVUS_ETCD_PORT (2379; its embedded etcd also listens for
# peers on the next port), MILVUS_HOME (target/milvus), MILVUS_EXTRA_CONFIG (space-separated
# `section.key=value` settings of Milvus's milvus.yaml, e.g. `rocksmq.retentionSizeInMB=1024` to
# bound the write-ahead log of a large ingest: docs/scale.md; they follow the script's own
# `queryNode.segcore.interimIndex.enableIndex=false`, explained in `serve`). A second server on this machine needs
# both ports changed: the launcher moves the etcd client port when it is taken, not the peer port. Known traps (issue 42): without
# --proxy-port a restart moves the API to 19531; a restart on old data takes over a minute (so
# `serve` always starts on an empty folder); the server also writes /run/milvus and /tmp/milvus.
set -euo pipefail
cd "$(dirname "$0")/.."

HOME_DIR=${MILVUS_HOME:-$PWD/target/milvus}
PORT=${MILVUS_PORT:-19530}
ETCD_PORT=${MILVUS_ETCD_PORT:-2379}
VENV=$HOME_DIR/venv
DATA=$HOME_DIR/data
PIDFILE=$HOME_DIR/milvus.pid
LOG=$HOME_DIR/milvus.log
VERSION=2.3.5

say() { printf '\033[1m[milvus]\033[0m %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

installed() { [ -x "$VENV/bin/milvus-server" ] && "$VENV/bin/python" -c "import milvus" 2>/dev/null; }

install() {
  if installed; then return; fi
  [ "$(uname -sm)" = "Linux x86_64" ] || die "the milvus $VERSION wheel ships a linux x86-64 server; found $(uname -sm)"
  python3 -m venv --help >/dev/null 2>&1 || die "python3 venv is needed: apt-get install python3-venv"
  local t0=$SECONDS
  say "pip install milvus==$VERSION into $VENV (PyPI; the wheel holds the server binary)"
  mkdir -p "$HOME_DIR"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "milvus==$VERSION" \
    || die "pip install milvus==$VERSION failed: the Milvus store tests cannot run"
  installed || die "milvus-server is missing from $VENV after the install"
  say "installed in $((SECONDS - t0)) s"
}

answers() { curl -sf -m 2 "http://127.0.0.1:$PORT/v1/vector/collections" >/dev/null 2>&1; }

stop() {
  [ -f "$PIDFILE" ] || return 0
  local pid
  pid=$(cat "$PIDFILE")
  # The process group (setsid in `serve`): milvus-server (python) runs the milvus binary as a
  # child, which can outlive the launcher.
  if kill -0 -- "-$pid" 2>/dev/null || kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 -- "-$pid" 2>/dev/null; then
      say "SIGTERM did not stop $pid within 10 s; SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$PIDFILE"
}

serve() {
  install
  if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    say "a server from $PIDFILE is running; stopping it first"
    stop
  fi
  answers && die "port $PORT already answers (another Milvus?); set MILVUS_PORT or stop it"
  if [ "${1:-fresh}" = fresh ]; then rm -rf "$DATA"; fi
  mkdir -p "$DATA"
  # Milvus reads etcd.config.path from ETCD_CONFIG_PATH: the embedded etcd's client and peer ports.
  cat > "$HOME_DIR/etcd.yaml" <<YAML
name: default
listen-client-urls: http://127.0.0.1:$ETCD_PORT
advertise-client-urls: http://127.0.0.1:$ETCD_PORT
listen-peer-urls: http://127.0.0.1:$((ETCD_PORT + 1))
initial-advertise-peer-urls: http://127.0.0.1:$((ETCD_PORT + 1))
initial-cluster: default=http://127.0.0.1:$((ETCD_PORT + 1))
YAML
  # Exact search over growing segments (rows not yet sealed into an indexed segment): Milvus 2.3
  # searches them through an interim IVF index (nlist 128, nprobe 16) once they hold a few
  # thousand rows, which on the offline embedder's vectors reached 2,870 of a 4-file library's
  # 7,113 rows (recall@32 0.959) and, after `clair ingest --replace`, 688 of 2,990 (the deleted
  # rows stay in the segment; recall@32 0.833): docs/scale.md. Brute force over a growing segment is exact;
  # sealed segments keep their HNSW index.
  local extra=(--extra-config queryNode.segcore.interimIndex.enableIndex=false)
  for kv in ${MILVUS_EXTRA_CONFIG:-}; do extra+=(--extra-config "$kv"); done
  local t0=$SECONDS
  # setsid: its own process group, so `stop` reaches the server binary behind the python launcher.
  ETCD_CONFIG_PATH="$HOME_DIR/etcd.yaml" setsid "$VENV/bin/milvus-server" --data "$DATA" \
    --proxy-port "$PORT" --etcd-port "$ETCD_PORT" "${extra[@]}" > "$LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  for _ in $(seq 1 600); do
    if answers; then
      say "ready on port $PORT in $((SECONDS - t0)) s (pid $(cat "$PIDFILE"), log $LOG)"
      echo "milvus://127.0.0.1:$PORT"
      return
    fi
    kill -0 "$(cat "$PIDFILE")" 2>/dev/null || { tail -20 "$LOG" >&2; rm -f "$PIDFILE"; die "milvus-server exited during start"; }
    sleep 0.5
  done
  tail -20 "$LOG" >&2
  stop
  die "milvus-server did not answer on port $PORT within 300 s"
}

case "${1:-}" in
  install) install ;;
  serve) serve fresh ;;
  start) serve keep ;;
  stop) stop ;;
  status) answers ;;
  *) echo "usage: scripts/milvus.sh install|serve|start|stop|status" >&2; exit 2 ;;
esac
