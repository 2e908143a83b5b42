#!/usr/bin/env bash
# Runs the Swift tests in parallel (plain `swift test`) N times in a row and reports which tests
# failed in which iterations — for latency and race failures that show only under load.
#
#   scripts/stress-tests.sh [N]        # default 20
#
# Builds once, then runs the prebuilt tests. The local embedding server for the semantic-ranking
# tests is started as scripts/test.sh starts it (free port, one thread) and stopped when the script
# ends. Each iteration's output is kept in .build/stress/iteration-K.log. An iteration that runs
# longer than STRESS_ITERATION_TIMEOUT seconds (default 300) is stopped and its unfinished tests are
# reported as hung. Exits non-zero when any iteration failed.
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=${1:-20}
iteration_timeout=${STRESS_ITERATION_TIMEOUT:-300}
case "$iterations" in ''|*[!0-9]*) echo "error: N must be a number, got \"$iterations\"" >&2; exit 2 ;; esac

swift build --build-tests

if [ -x .venv/bin/python ] || ./scripts/install-deps.sh --python >/dev/null 2>&1; then
  e5_port=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
  trap './scripts/e5-server.sh stop "$e5_port" >/dev/null 2>&1 || true' EXIT
  if SKILLGATE_E5_THREADS=1 ./scripts/e5-server.sh start "$e5_port"; then
    export SKILLGATE_E5_URL="http://127.0.0.1:$e5_port/v1"
  else
    echo "warning: the e5 server did not start; the semantic-ranking tests that need it are skipped" >&2
  fi
else
  echo "warning: no Python environment for the e5 server; the semantic-ranking tests that need it are skipped" >&2
fi

logs=.build/stress
rm -rf "$logs"
mkdir -p "$logs"
failures="$logs/failures.txt"
: >"$failures"
passed=0
for k in $(seq 1 "$iterations"); do
  log="$logs/iteration-$k.log"
  started=$(date +%s)
  hung=""
  # The same watchdog as scripts/test.sh: a hung run is stopped with its test process after the iteration's time,
  # every thread's stack goes into the log, and the tests that never finished are listed (exit status 124).
  if SKILLGATE_SWIFT_TEST_TIMEOUT="$iteration_timeout" ./scripts/swift-test-watchdog.sh --skip-build >"$log" 2>&1; then
    status=passed
    passed=$((passed + 1))
  elif [ $? -eq 124 ]; then
    status="FAILED (hung, stopped after $iteration_timeout s)"
    # The output may end mid-buffer, so this can name a test that did finish as well.
    hung=$(sed -n '/Tests that started and never finished:/,/^Run each alone/p' "$log" | sed -n 's/^  \(.*\)$/\1 (hung)/p')
  else
    status=FAILED
  fi
  # Swift Testing: "✘ Test name() failed after ..."; XCTest: "Test Case '...' failed".
  failed_tests=$( { grep -aoE '✘ Test .+ failed after' "$log" | sed -E 's/^✘ Test (.+) failed after$/\1/' | grep -v '^run with ';
                    grep -aoE "Test Case '[^']+' failed" "$log" | sed -E "s/^Test Case '([^']+)' failed$/\1/"; } | sort -u || true)
  if [ -n "$hung" ]; then failed_tests=$(printf '%s\n%s' "$failed_tests" "$hung" | sed '/^$/d'); fi
  if [ "$status" != passed ] && [ -z "$failed_tests" ]; then
    failed_tests="(no test named: crash or build problem, see $log)"
  fi
  if [ -n "$failed_tests" ]; then
    while IFS= read -r name; do printf '%s\t%s\n' "$k" "$name" >>"$failures"; done <<<"$failed_tests"
  fi
  echo "iteration $k/$iterations: $status ($(( $(date +%s) - started )) s)" >&2
done

echo
echo "== $passed of $iterations iterations passed"
if [ -s "$failures" ]; then
  echo "== failures per test (count, iterations):"
  cut -f2 "$failures" | sort | uniq -c | sort -rn | while read -r count name; do
    its=$(awk -F'\t' -v n="$name" '$2 == n { printf "%s%s", sep, $1; sep="," }' "$failures")
    echo "  $count  $name  [iterations $its]"
  done
  exit 1
fi
