#!/usr/bin/env bash
# Checks the files README "Running in production" tells operators to install (Config/deploy/), so they cannot
# drift from what this SkillGate accepts: the production config passes `skillgate config check`, the nginx site
# passes `nginx -t` (with a throwaway certificate), the alert rules pass `promtool check rules`, and the systemd
# unit passes `systemd-analyze verify` (skipped, saying so, where systemd's tools are not installed).
# Usage: Tests/Team/deploy-configs.sh   (needs a built .build/debug/skillgate, nginx, openssl and promtool)
set -euo pipefail
cd "$(dirname "$0")/../.."
sg=$PWD/.build/debug/skillgate
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
for tool in nginx openssl promtool; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (scripts/test.sh installs nginx-light, openssl and prometheus)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/skillgate-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"

# 1. The production config, with its absolute paths moved into the temporary directory.
mkdir -p "$work/etc" && cp -r Providers "$work/etc/providers"
sed "s#/var/lib/skillgate#$work/state#g" Config/deploy/skillgate.production.json > "$work/etc/skillgate.json"
"$sg" config check --config "$work/etc/skillgate.json" >/dev/null
echo "ok: Config/deploy/skillgate.production.json passes skillgate config check"

# 2. The nginx site inside a minimal nginx.conf, with a throwaway self-signed certificate.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=gateway.example.com" \
  -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2>/dev/null
sed "s#/etc/ssl/skillgate#$work#g" Config/deploy/nginx-skillgate.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  access_log off;
  include $work/site.conf;
}
NGINX
nginx -t -q -c "$work/nginx.conf" -p "$work"
echo "ok: Config/deploy/nginx-skillgate.conf passes nginx -t"

# 2b. The same site serving: its ports moved to free ones and both upstream servers to one gateway on the demo model.
#     A plain request, a stream, and a request with 400 tools, whose x-skillgate-skills header once outgrew nginx's
#     4 KB buffer for an upstream's head (a 502; decision 0081).
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
gw=$(free_port); https=$(free_port); http=$(free_port)
mkdir -p "$work/gw/providers" && cp Providers/demo.json "$work/gw/providers/"
cat > "$work/gw/skillgate.json" <<JSON
{"listen":"127.0.0.1:$gw","state_dir":"state","providers_dir":"providers",
 "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light"}
JSON
chmod 700 "$work/gw"
token=$("$sg" tokens create --config "$work/gw/skillgate.json" --name deploy-check 2>/dev/null)
"$sg" serve --config "$work/gw/skillgate.json" 2>"$work/gw/log" & gw_pid=$!
trap 'kill $gw_pid 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
sed -e "s#127.0.0.1:8080#127.0.0.1:$gw#; s#127.0.0.1:8081#127.0.0.1:$gw#; s#listen 443 ssl#listen 127.0.0.1:$https ssl#; s#listen 80;#listen 127.0.0.1:$http;#" \
  "$work/site.conf" > "$work/site-serving.conf"
sed "s#$work/site.conf#$work/site-serving.conf#" "$work/nginx.conf" > "$work/nginx-serving.conf"
nginx -c "$work/nginx-serving.conf" -p "$work"
for i in $(seq 50); do curl -sf "http://127.0.0.1:$gw/healthz" >/dev/null && break; sleep 0.1; done
through_nginx() {
  curl -s --cacert "$work/fullchain.pem" --resolve "gateway.example.com:$https:127.0.0.1" \
    "https://gateway.example.com:$https/v1/chat/completions" -H "authorization: Bearer $token" \
    -H 'content-type: application/json' "$@"
}
fail() { echo "FAIL: $*" >&2; exit 1; }
code=$(through_nginx -o /dev/null -w "%{http_code}" -d '{"model":"light","messages":[{"role":"user","content":"Hello"}]}')
[ "$code" = 200 ] || fail "a chat request through the nginx site answered $code"
events=$(through_nginx -N -d '{"model":"light","stream":true,"messages":[{"role":"user","content":"Hello"}]}' | grep -c '^data: ' || true)
[ "$events" -gt 2 ] || fail "a stream through the nginx site brought $events events"
python3 - "$work/tools.json" <<'PY'
import json, sys
tools = [{"type": "function", "function": {"name": f"lookup_customer_record_{i}", "description": "Look up a customer record",
          "parameters": {"type": "object", "properties": {}}}} for i in range(400)]
json.dump({"model": "light", "messages": [{"role": "user", "content": "Hello"}], "tools": tools}, open(sys.argv[1], "w"))
PY
code=$(through_nginx -o /dev/null -w "%{http_code}" --data-binary @"$work/tools.json")
[ "$code" = 200 ] || fail "a request with 400 tools through the nginx site answered $code (nginx: $(tail -1 "$work/error.log"))"
echo "ok: Config/deploy/nginx-skillgate.conf serves a request, a stream and a request with 400 tools"

# 3. The alert rules.
promtool check rules Config/deploy/prometheus-alerts.yml >/dev/null
echo "ok: Config/deploy/prometheus-alerts.yml passes promtool check rules"

# 4. The systemd unit, pointed at the built binary.
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s#/usr/local/bin/skillgate#$sg#" Config/deploy/skillgate.service > "$work/skillgate.service"
  systemd-analyze verify "$work/skillgate.service"
  echo "ok: Config/deploy/skillgate.service passes systemd-analyze verify"
else
  echo "skip: systemd-analyze is not installed; Config/deploy/skillgate.service was not verified"
fi
