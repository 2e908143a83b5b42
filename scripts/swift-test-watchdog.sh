#!/usr/bin/env bash
# Runs `swift test ARGS...` with a deadline. A run still going after SKILLGATE_SWIFT_TEST_TIMEOUT seconds (default
# 1200; a whole parallel run takes under a minute on this machine) is stopped with its test process, and the tests
# that started and never finished are named. A full-suite hang has been seen twice without its cause found
# (decision 0034, "A rare full-suite hang"): this turns one into a fast failure that names its test, instead of a CI
# run held to its time limit. Before stopping it, the watchdog takes every thread's stack of the test process with gdb
# (when installed) and prints them: where each thread waits is what the hang's cause needs.
# Usage: scripts/swift-test-watchdog.sh [swift test arguments]
set -uo pipefail
limit=${SKILLGATE_SWIFT_TEST_TIMEOUT:-1200}
log=$(mktemp /tmp/skillgate-swift-test.XXXXXX)
trap 'rm -f "$log" "$log.timed-out" "$log.timed-out.stacks"' EXIT
# In a session of its own, so a hung run is stopped together with the test process swift test starts (which
# has a process group of its own, but stays in this session).
setsid swift test "$@" > >(tee "$log") 2>&1 &
run=$!
# The watchdog in a session of its own too, so it is stopped whole (it and its sleep) once the run ends in time.
setsid bash -c '
  sleep "$1"; touch "$2"
  if command -v gdb > /dev/null; then
    for pid in $(pgrep -s "$3" -f "[.]xctest"); do
      echo "== every thread of the test process $pid, as it hung (gdb)"
      timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt" 2> /dev/null | swift demangle --simplified
    done > "$2.stacks"
  fi
  pkill -TERM -s "$3"; sleep 10; pkill -KILL -s "$3"' \
  watchdog "$limit" "$log.timed-out" "$run" &
watchdog=$!
disown "$watchdog"
wait "$run"
status=$?
kill -- "-$watchdog" 2>/dev/null
if [ -e "$log.timed-out" ]; then
  # swift test ends on TERM, its test process may not: stop whatever is left of the run.
  sleep 2
  pkill -KILL -s "$run"
  [ -s "$log.timed-out.stacks" ] && cat "$log.timed-out.stacks" >&2
  rm -f "$log.timed-out.stacks"
  echo "error: swift test was still running after $limit s and was stopped. Tests that started and never finished:" >&2
  comm -23 <(grep -aoE '◇ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/^◇ Test (.*)\($/\1/' | sort -u) \
           <(grep -aoE '[✔✘] Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/^[✔✘] Test (.*)\($/\1/' | sort -u) | sed 's/^/  /' >&2
  echo "Run each alone (swift test --filter NAME) to find the one that hangs; decision 0034 has what is known." >&2
  exit 124
fi
if [ "$status" -ne 0 ]; then
  # CI keeps only the end of the output: repeat what failed there, each issue with the lines that explain it.
  echo "== swift test failed (status $status); what failed:" >&2
  grep -aE -A6 '✘ Test .* recorded an issue' "$log" | head -n 200 >&2
  grep -aE '✘ Test .* failed after|Test Case .* failed|Fatal error|Exited with' "$log" | head -n 60 >&2
fi
exit "$status"
