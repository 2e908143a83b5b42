#!/usr/bin/env bash
# An upstream behind a private CA, over TLS with HTTP/2 (how real providers and most self-hosted servers are
# reached): nginx with a throwaway CA-signed certificate answers with recorded OpenAI bodies
# (Tests/Fixtures/openai/PROVENANCE.md). Shows that
#   1. with `providers.<id>.ca_file` a chat completion and a stream go through, over HTTP/2;
#   2. without it the same upstream is refused with the TLS error in the OpenAI error shape, naming the fix;
#   3. concurrent requests share a few multiplexed connections instead of one each;
#   4. a missing or non-PEM `ca_file` is a config error naming the key.
# Needs nginx (Debian nginx-light), openssl and a built .build/debug/skillgate.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v nginx >/dev/null || { echo "error: nginx is not installed; apt-get install nginx-light and retry" >&2; exit 1; }
command -v openssl >/dev/null || { echo "error: openssl is not installed; apt-get install openssl and retry" >&2; exit 1; }
sg=$PWD/.build/debug/skillgate
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
work=$(mktemp -d /tmp/skillgate-tls.XXXXXX)
chmod 700 "$work"
gateway_pid=""
cleanup() {
  [ -n "$gateway_pid" ] && kill "$gateway_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$work/gateway.log" ] && tail -5 "$work/gateway.log" >&2; exit 1; }

# A private CA and a server certificate it signs for 127.0.0.1.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=SkillGate test CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > "$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 1 \
  -extfile "$work/san.ext" -out "$work/server.pem" 2>/dev/null

# The mock upstream: recorded bodies served as files (a POST to a static file is a 405 in nginx; error_page turns it
# into the file with status 200). The access log names each request's connection and protocol.
mkdir -p "$work/www/v1/chat" "$work/stream/v1/chat"
cp Tests/Fixtures/openai/openai-text.json "$work/www/v1/chat/completions"
cp Tests/Fixtures/openai/test_run_stream_sync_streams_real_model.1.response.sse "$work/stream/v1/chat/completions"
upstream_port=$(free_port)
cat > "$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events {}
http {
  log_format conn '\$connection \$server_protocol \$request_uri';
  access_log $work/access.log conn;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  server {
    listen 127.0.0.1:$upstream_port ssl http2;
    ssl_certificate $work/server.pem; ssl_certificate_key $work/server.key;
    location /v1/ { root $work/www; default_type application/json; error_page 405 =200 \$uri; }
    location /stream/v1/ { root $work; default_type text/event-stream; error_page 405 =200 \$uri; }
  }
}
NGINX
nginx -c "$work/nginx.conf" -p "$work"

mkdir -p "$work/providers"
for id in private-ca private-ca-stream untrusted; do
  path=/v1; [ "$id" = private-ca-stream ] && path=/stream/v1
  cat > "$work/providers/$id.json" <<JSON
{"id":"$id","wire_format":"openai-chat","base_url":"https://127.0.0.1:$upstream_port$path","auth":"none",
 "models":[{"id":"mock","tier":"light","tools":"native"}]}
JSON
done
port=$(free_port)
cat > "$work/skillgate.json" <<JSON
{"listen":"127.0.0.1:$port","state_dir":"state","providers_dir":"providers",
 "providers":{"private-ca":{"ca_file":"ca.pem"},"private-ca-stream":{"ca_file":"ca.pem"},"untrusted":{}},
 "tiers":{"light":["private-ca/mock"],"strong":["private-ca/mock"]},"default_model":"light",
 "upstream_timeouts":{"connect_seconds":5,"first_byte_seconds":10}}
JSON
token=$("$sg" tokens create --config "$work/skillgate.json" --name tls 2>/dev/null)
"$sg" serve --config "$work/skillgate.json" 2>"$work/gateway.log" & gateway_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

chat() {  # MODEL [STREAM] -> writes the body to $work/out, prints the status
  curl -s -o "$work/out" -w "%{http_code}" "http://127.0.0.1:$port/v1/chat/completions" -H "authorization: Bearer $token" \
    -H 'content-type: application/json' -d "{\"model\":\"$1\",\"stream\":${2:-false},\"messages\":[{\"role\":\"user\",\"content\":\"Name a holiday\"}]}"
}

# 1. Trusted through ca_file: a whole answer and a stream, both over HTTP/2.
[ "$(chat private-ca/mock)" = 200 ] || fail "the upstream behind the private CA was refused: $(cat "$work/out")"
grep -q "Galaxy Day" "$work/out" || fail "the answer is not the recorded one: $(head -c 300 "$work/out")"
[ "$(chat private-ca-stream/mock true)" = 200 ] || fail "the stream was refused: $(cat "$work/out")"
grep -q '^data: \[DONE\]' "$work/out" || fail "the stream did not end with [DONE]: $(tail -c 300 "$work/out")"
grep -q 'HTTP/2.0' "$work/access.log" || fail "the upstream was not reached over HTTP/2: $(cat "$work/access.log")"
grep -q 'HTTP/1' "$work/access.log" && fail "some requests used HTTP/1: $(cat "$work/access.log")"
echo "ok: with ca_file, an answer and a stream from a private-CA upstream over HTTP/2"

# 2. Without ca_file, the system store does not know the CA: a 502 in the OpenAI error shape that names the fix.
status=$(chat untrusted/mock)
[ "$status" = 502 ] || fail "an untrusted upstream gave $status, expected 502: $(cat "$work/out")"
python3 - "$work/out" <<'PY' || fail "the refusal is not an OpenAI error naming ca_file: $(cat "$work/out")"
import json, sys
error = json.load(open(sys.argv[1]))["error"]
assert "ca_file" in error["message"] and "certificate" in error["message"].lower(), error
PY
echo "ok: without ca_file the same upstream is refused (502, the message names ca_file)"

# 3. Forty concurrent requests share multiplexed connections (one per event loop that used it, not one per request).
cp "$work/access.log" "$work/access.log.before"
clients=()
for i in $(seq 40); do chat private-ca/mock > "$work/status-$i" & clients+=($!); done
for client in "${clients[@]}"; do wait "$client"; done
for i in $(seq 40); do [ "$(cat "$work/status-$i")" = 200 ] || fail "concurrent request $i gave $(cat "$work/status-$i")"; done
connections=$(tail -n +"$(( $(wc -l < "$work/access.log.before") + 1 ))" "$work/access.log" | awk '{print $1}' | sort -u | wc -l)
[ "$connections" -le 4 ] || fail "40 concurrent requests used $connections upstream connections (expected at most 4: multiplexed)"
echo "ok: 40 concurrent requests over $connections multiplexed connection(s)"

# 4. A ca_file that is missing or not PEM is a config error naming the key.
sed 's/"ca_file":"ca.pem"}/"ca_file":"missing.pem"}/' "$work/skillgate.json" > "$work/bad.json"
if "$sg" config check --config "$work/bad.json" >"$work/check.out" 2>&1; then fail "config check accepted a missing ca_file"; fi
grep -q 'ca_file' "$work/check.out" || fail "the config error does not name ca_file: $(cat "$work/check.out")"
sed 's/"ca_file":"ca.pem"}/"ca_file":"server.csr"}/' "$work/skillgate.json" > "$work/bad.json"
if "$sg" config check --config "$work/bad.json" >"$work/check.out" 2>&1; then fail "config check accepted a ca_file without a certificate"; fi
grep -q 'no PEM certificate' "$work/check.out" || fail "the config error does not say the file holds no certificate: $(cat "$work/check.out")"
echo "ok: a missing or non-PEM ca_file is a config error"
