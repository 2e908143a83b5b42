# Shared by scripts/e5-server.sh and scripts/selector-model.sh (sourced, not run): a local server started in
# the background with its pid in a file, waited for until it answers, and stopped with TERM, then KILL.
#
# The caller sets `venv` (the virtualenv whose python checks the server), then calls `server_setup` with its
# arguments, then `server_start` or `server_stop` by `$command`.

server_usage() { echo "usage: $0 start|stop [PORT]" >&2; exit 2; }

# server_setup NAME FILE_STEM DEFAULT_PORT HEALTH_PATH [start|stop [PORT]]: reads the command and port, and sets
# `server_name` (for messages), `command`, `port`, `health_path`, and the pid and log files
# .build/FILE_STEM.PORT.pid and .log.
server_setup() {
  server_name=$1
  local stem=$2 default_port=$3
  health_path=$4
  shift 4
  [ $# -ge 1 ] || server_usage
  command=$1
  port=${2:-$default_port}
  case "$port" in ''|*[!0-9]*) echo "error: PORT must be a number, got \"$port\"" >&2; exit 2 ;; esac
  pidfile=".build/$stem.$port.pid"
  logfile=".build/$stem.$port.log"
  mkdir -p .build
}

# Status 0 once the server answers GET $health_path on 127.0.0.1:$port.
answers() {
  "$venv/bin/python" - "$port" "$health_path" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=2).read()
PY
}

server_running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

# Exits 0 with a message when the server already runs (nothing to start).
server_exit_if_running() {
  if server_running; then
    echo "$server_name already running on 127.0.0.1:$port (pid $(cat "$pidfile"))" >&2
    exit 0
  fi
}

# server_start SECONDS COMMAND [ARG ...]: starts COMMAND in the background, then waits up to SECONDS for `answers`.
# On failure prints the server's last output and a next step, stops it and exits 1.
server_start() {
  local seconds=$1
  shift
  nohup "$@" >"$logfile" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 $((seconds * 2))); do
    if answers; then
      echo "$server_name on http://127.0.0.1:$port/v1 (pid $(cat "$pidfile"))" >&2
      return 0
    fi
    if ! server_running; then break; fi
    sleep 0.5
  done
  echo "error: the $server_name did not answer on 127.0.0.1:$port within $seconds s; its output ($logfile):" >&2
  tail -n 20 "$logfile" >&2 || true
  if server_running; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
  rm -f "$pidfile"
  echo "Is the port taken? Try another: $0 start PORT" >&2
  exit 1
}

# Stops the server (TERM, then KILL after 5 s); says so when it was not running.
server_stop() {
  if ! server_running; then
    rm -f "$pidfile"
    echo "$server_name on port $port is not running" >&2
    return 0
  fi
  local pid
  pid=$(cat "$pidfile")
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
  echo "$server_name on port $port stopped" >&2
}
