#!/usr/bin/env bash
# The team-features overhead benchmark (ledger, limits, metrics on vs off, on SQLite and on PostgreSQL): installs
# wrk, nginx with the echo module and PostgreSQL when missing, builds the release gateway, starts a throwaway
# PostgreSQL, and runs Bench/proxy/team_overhead.py. Usage: Bench/team-overhead.sh [team_overhead.py options]
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || need+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ] || need+=(libnginx-mod-http-echo)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
./scripts/install-deps.sh
swift build -c release --product skillgate --static-swift-stdlib
pg_port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
pg_dir=$(mktemp -d /tmp/skillgate-bench-pg.XXXXXX)
trap './scripts/postgres-test.sh stop "$pg_dir"' EXIT
url=$(./scripts/postgres-test.sh start "$pg_port" "$pg_dir")
python3 Bench/proxy/team_overhead.py --gateway .build/release/skillgate --postgres-url "$url" --postgres-data "$pg_dir/data" "$@"
