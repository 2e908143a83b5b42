#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: `start PORT DIR` creates a cluster in DIR (initdb, trust auth, superuser
# `postgres`) listening on 127.0.0.1:PORT only (its socket in DIR too) and prints the admin URL; `stop DIR` stops
# it and removes DIR. As root it runs as the unprivileged `postgres` user (PostgreSQL refuses to run as root).
# Needs the Debian package `postgresql` (scripts/test.sh installs it).
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/pg_ctl" ] || { echo "error: PostgreSQL is not installed; apt-get install postgresql and retry" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "${1:-}" in
  start)
    port=$2; dir=$3
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=$2
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start PORT DIR | stop DIR" >&2; exit 2 ;;
esac
