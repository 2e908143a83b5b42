#!/usr/bin/env bash
# Profiles the outbound HTTP client: `perf record -g` on the release `skillgate-bench http-client`
# (20,000 sequential requests on one keep-alive connection), then where the time went by thread and
# by library, and the benchmark's own figures (req/s, p50, CPU µs per request). Decision 0024.
#
#   scripts/profile-http-client.sh [OUTPUT_DIR]     # default .build/profile
#
# Installs perf (Debian linux-perf) when missing. perf needs kernel.perf_event_paranoid <= 1 (or root).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/profile}
mkdir -p "$out"

if ! command -v perf >/dev/null 2>&1; then
  echo "installing linux-perf" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq linux-perf >/dev/null
fi

swift build -c release --product skillgate-bench
bench=.build/release/skillgate-bench

perf record -g -o "$out/http-client.perf.data" "$bench" http-client | tee "$out/http-client.txt"
echo
echo "== samples by thread (sg-curl: the client's libevent loop)"
perf report -i "$out/http-client.perf.data" --no-children --sort comm -g none 2>/dev/null | grep -v '^#' | sed '/^$/d' | head -8
echo "== samples by library"
perf report -i "$out/http-client.perf.data" --no-children --sort dso -g none 2>/dev/null | grep -v '^#' | sed '/^$/d' | head -10
echo "== the client thread's top symbols"
perf report -i "$out/http-client.perf.data" --no-children --comm sg-curl --sort dso,sym -g none 2>/dev/null | grep -v '^#' | sed '/^$/d' | head -15
