#!/usr/bin/env bash
# Runs the whole Swift test suite under a sanitizer: ./scripts/sanitize.sh address|thread [swift test args...]
# Each sanitizer builds into its own scratch directory (.build-address, .build-thread), so the two
# and the normal build do not rebuild each other. Tests run one at a time (--no-parallel), as in
# scripts/test.sh. SKILLGATE_SANITIZE_JOBS limits the build's jobs (default: all cores).
# The semantic-ranking tests skip unless SKILLGATE_E5_URL is set (scripts/test.sh starts that server).
# docs/decisions/0025-fuzzing-and-sanitizers.md has the results and the reasons for any suppression.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
case $kind in
  address)
    # Reports stop the test process with a non-zero status; leaks are reported too.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1}
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitizers/lsan.supp:print_suppressions=0}
    ;;
  thread)
    # exitcode=0: a report does not change a process's exit status (the gateways the process tests start inherit these
    # options, and a process test checks its gateway's status); the reports are listed below, and any fails the run.
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:exitcode=0:second_deadlock_stack=1:suppressions=$PWD/scripts/sanitizers/tsan.supp}
    # First, that ThreadSanitizer sees the Mutex annotations (decision 0165): the repro with `locked` must report
    # nothing; with the toolchain's `withLock` it reports the Mutex's false races in most runs (a check that can fail).
    repro=$(mktemp -d)
    for variant in locked withLock; do
      flags=(); [[ $variant == withLock ]] && flags=(-D WITH_LOCK)
      swiftc -sanitize=thread -I Sources/CThreadSanitizer Sources/SkillGateCore/Threads/Mutex+ThreadSanitizer.swift \
        scripts/sanitizers/tsan-mutex/main.swift "${flags[@]}" -o "$repro/$variant"
      reports=0
      for _ in 1 2 3 4 5; do
        n=$(TSAN_OPTIONS=exitcode=0 "$repro/$variant" 2>&1 | grep -c "WARNING: ThreadSanitizer" || true)
        reports=$((reports + n))
      done
      echo "== Mutex repro with $variant: $reports ThreadSanitizer reports in 5 runs" >&2
      if [[ $variant == locked && $reports -ne 0 ]]; then
        echo "error: ThreadSanitizer does not see Mutex.locked's annotations; see docs/decisions/0165" >&2; exit 1
      fi
      if [[ $variant == withLock && $reports -eq 0 ]]; then
        echo "warning: the unannotated repro reported nothing this time, so the check above proved less than usual" >&2
      fi
    done
    rm -rf "$repro"
    ;;
  *) echo "usage: $0 address|thread [swift test args...]" >&2; exit 2 ;;
esac
shift
jobs=()
[[ -n ${SKILLGATE_SANITIZE_JOBS:-} ]] && jobs=(-j "$SKILLGATE_SANITIZE_JOBS")
if ! swift build --build-tests --sanitize="$kind" --scratch-path ".build-$kind" "${jobs[@]}"; then
  # SwiftPM's incremental build can keep objects that still call a public initialiser's old default-argument
  # generators ("undefined reference to ...fA_") after its signature changed; a clean debug directory builds.
  echo "== the build failed; retrying once from a clean .build-$kind/$(uname -m)-unknown-linux-gnu/debug" >&2
  rm -rf ".build-$kind/$(uname -m)-unknown-linux-gnu/debug"
  swift build --build-tests --sanitize="$kind" --scratch-path ".build-$kind" "${jobs[@]}"
fi
log=".build-$kind/sanitize.log"
status=0
swift test --skip-build --sanitize="$kind" --scratch-path ".build-$kind" --no-parallel "$@" 2>&1 | tee "$log" || status=$?
if [[ $kind == thread ]] && grep -q "WARNING: ThreadSanitizer" "$log"; then
  # Every Mutex is taken with `locked`, which ThreadSanitizer sees (decision 0165): any report is a race to read.
  echo "== ThreadSanitizer reports (full text in $log):" >&2
  python3 scripts/sanitizers/tsan-reports.py "$log" >&2 || status=1
fi
exit "$status"
