#!/usr/bin/env bash
# Two gateway instances behind nginx (round robin) on one PostgreSQL database: a token created through the CLI
# works through both, a day budget spent across both stops both, and `skillgate usage` reports both.
# Usage: Tests/Team/two-instances.sh ADMIN_URL   (a PostgreSQL admin URL; scripts/test.sh passes its throwaway one)
# Needs nginx (Debian nginx-light) and a built .build/debug/skillgate.
set -euo pipefail
cd "$(dirname "$0")/../.."
admin=${1:?usage: $0 POSTGRES_ADMIN_URL}
command -v nginx >/dev/null || { echo "error: nginx is not installed; apt-get install nginx-light and retry" >&2; exit 1; }
sg=.build/debug/skillgate
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
work=$(mktemp -d /tmp/skillgate-two.XXXXXX)
chmod 700 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  psql_admin "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
db="sg_two_$$"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
psql_admin() { "$pg_bin/psql" -q -X -v ON_ERROR_STOP=1 "$admin" -c "$1"; }
trap cleanup EXIT
psql_admin "CREATE DATABASE $db"
url="${admin%/*}/$db"

mkdir -p "$work/providers"
# The offline demo model, priced so each answer costs about a cent.
sed 's/"input_per_mtok": 0.0/"input_per_mtok": 100.0/; s/"output_per_mtok": 0.0/"output_per_mtok": 100.0/' Providers/demo.json > "$work/providers/demo.json"
ports=()
for i in 1 2; do
  port=$(free_port); ports+=("$port")
  mkdir -p "$work/i$i"; chmod 700 "$work/i$i"
  cat > "$work/i$i/skillgate.json" <<JSON
{"listen":"127.0.0.1:$port","state_dir":"state","providers_dir":"../providers",
 "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light",
 "state":{"postgres_url":"$url"},"ledger":{"flush_interval_ms":100}}
JSON
done
token=$("$sg" tokens create --config "$work/i1/skillgate.json" --name team-two --budget-day 0.05 2>/dev/null)
for i in 1 2; do
  "$sg" serve --config "$work/i$i/skillgate.json" 2>"$work/i$i/log" & pids+=($!)
done
lb=$(free_port)
cat > "$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events {}
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  upstream skillgate { server 127.0.0.1:${ports[0]}; server 127.0.0.1:${ports[1]}; }
  server { listen 127.0.0.1:$lb; location / { proxy_pass http://skillgate; proxy_http_version 1.1; proxy_buffering off; } }
}
NGINX
nginx -c "$work/nginx.conf" -p "$work"
for i in $(seq 50); do
  curl -sf "http://127.0.0.1:${ports[0]}/healthz" >/dev/null && curl -sf "http://127.0.0.1:${ports[1]}/healthz" >/dev/null && break
  sleep 0.1
done

chat() {
  curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$1/v1/chat/completions" -H "authorization: Bearer $token" \
    -H 'content-type: application/json' -d '{"model":"light","messages":[{"role":"user","content":"Hello there"}]}'
}
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. A token created through the CLI works on both instances (directly) and through nginx.
[ "$(chat "${ports[0]}")" = 200 ] || fail "the token was refused by instance 1"
[ "$(chat "${ports[1]}")" = 200 ] || fail "the token was refused by instance 2"
echo "ok: a token created once works on both instances"

# 2. A day budget of \$0.05 spent through nginx (both instances) stops both.
codes=""
for i in $(seq 12); do codes="$codes $(chat "$lb")"; sleep 0.05; done
sleep 1.3   # each instance re-reads the shared spend at most once a second
a=$(chat "${ports[0]}"); b=$(chat "${ports[1]}")
echo "through nginx:$codes; then instance 1: $a, instance 2: $b"
[[ "$codes" == *429* ]] || fail "the budget never stopped a request"
[ "$a" = 429 ] && [ "$b" = 429 ] || fail "the budget spent across both did not stop both"
echo "ok: a budget spent across both instances stops both"

# 3. Usage from both instances is in one report.
sleep 0.3
report=$("$sg" usage --config "$work/i2/skillgate.json" --since 1h --json)
python3 - "$report" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
ok = sum(1 for _ in r["rows"]) == 1 and r["total"]["requests"] >= 14
print(f"usage report: {r['total']['requests']} requests, ${r['total']['cost_usd']:.4f}")
sys.exit(0 if ok else 1)
PY
grep -q '"path":"/v1/chat/completions"' "$work/i1/log" && grep -q '"path":"/v1/chat/completions"' "$work/i2/log" \
  || fail "nginx did not spread requests over both instances"
echo "ok: usage from both instances is in one report"
