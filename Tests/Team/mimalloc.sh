#!/usr/bin/env bash
# The gateway under mimalloc (README "Running in production": the optional allocator, decision 0042): started with
# LD_PRELOAD as the systemd unit's commented line does it, it must really run on mimalloc, answer a whole and a
# streamed chat completion, and drain to exit 0 on SIGTERM.
# Usage: Tests/Team/mimalloc.sh   (needs Debian's libmimalloc2.0, installed when missing, and a built .build/debug/skillgate)
set -euo pipefail
cd "$(dirname "$0")/../.."
sg=.build/debug/skillgate
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
lib=/usr/lib/x86_64-linux-gnu/libmimalloc.so.2
if [ ! -e "$lib" ]; then
  echo "installing libmimalloc2.0 (for the allocator check)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libmimalloc2.0 >/dev/null
fi
[ -e "$lib" ] || { echo "error: $lib is missing after installing libmimalloc2.0" >&2; exit 1; }

port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
work=$(mktemp -d /tmp/skillgate-mimalloc.XXXXXX)
chmod 700 "$work"
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cat > "$work/skillgate.json" <<JSON
{"listen":"127.0.0.1:$port","state_dir":"state","providers_dir":"$PWD/Providers",
 "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light"}
JSON
token=$("$sg" tokens create --config "$work/skillgate.json" --name mimalloc 2>/dev/null)
LD_PRELOAD=$lib "$sg" serve --config "$work/skillgate.json" 2>"$work/log" & pid=$!
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
grep -q libmimalloc "/proc/$pid/maps" || { echo "error: the gateway did not load $lib" >&2; exit 1; }

chat() {
  curl -fsS "http://127.0.0.1:$port/v1/chat/completions" -H "Authorization: Bearer $token" -H "Content-Type: application/json" -d "$1"
}
whole=$(chat '{"model":"light","messages":[{"role":"user","content":"Say hello"}]}')
python3 -c 'import json,sys; a=json.loads(sys.argv[1]); assert a["object"]=="chat.completion" and a["choices"][0]["message"]["content"], a' "$whole"
stream=$(chat '{"model":"light","stream":true,"messages":[{"role":"user","content":"Say hello"}]}')
grep -q '"chat.completion.chunk"' <<<"$stream" && grep -q '^data: \[DONE\]' <<<"$stream" || { echo "error: no complete stream: $stream" >&2; exit 1; }
# A burst of 200 requests on 8 connections at once, then the drain.
python3 - "$port" "$token" <<'PY'
import json, sys, threading, urllib.request
port, token = sys.argv[1], sys.argv[2]
failures = []
def run():
    for _ in range(25):
        r = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", method="POST",
                                   data=json.dumps({"model": "light", "messages": [{"role": "user", "content": "hi"}]}).encode(),
                                   headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            if json.loads(urllib.request.urlopen(r, timeout=30).read())["object"] != "chat.completion": failures.append("shape")
        except Exception as e:
            failures.append(str(e))
threads = [threading.Thread(target=run) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert not failures, failures[:3]
PY
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
pid=""
[ "$status" -eq 0 ] || { echo "error: the gateway exited $status after SIGTERM under mimalloc; its log:" >&2; tail -5 "$work/log" >&2; exit 1; }
echo "ok: under mimalloc ($lib) the gateway answered a whole and a streamed completion and 200 concurrent requests, and drained to exit 0"
