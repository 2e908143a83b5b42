#!/usr/bin/env bash
# Runs the side-by-side benchmark (Bench/harness/run.sh) with SkillGate beside nginx (and LiteLLM with TARGETS=".. litellm").
# Usage: Bench/run.sh   (env: DURATION, REPEAT, CONNS, TARGETS as in Bench/harness/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DIR="${BENCH_DIR:-Bench/harness}"
command -v wrk >/dev/null && command -v nginx >/dev/null || apt-get install -y -qq nginx-light libnginx-mod-http-echo wrk curl >/dev/null
./scripts/install-deps.sh
swift build -c release --product skillgate
rm -rf /tmp/skillgate-bench && mkdir -p /tmp/skillgate-bench
BIN=.build/release/skillgate
TOKEN=$($BIN tokens create --config Bench/skillgate-bench.json --name bench)
$BIN serve --config Bench/skillgate-bench.json 2>/tmp/skillgate-bench/gateway.log &
GW=$!
trap 'kill $GW 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf http://127.0.0.1:8080/healthz >/dev/null && break; sleep 0.1; done
TARGETS="${TARGETS:-direct nginx}" EXTRA_URL=http://127.0.0.1:8080 EXTRA_NAME=skillgate EXTRA_TOKEN="$TOKEN" \
  DURATION="${DURATION:-10}" REPEAT="${REPEAT:-3}" bash "$BENCH_DIR/run.sh"
