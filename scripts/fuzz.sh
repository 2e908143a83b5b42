#!/usr/bin/env bash
# Builds the fuzzing targets (Fuzz/, a package of its own) and runs each for SECONDS (default 600),
# one after the other, on one core each: ./scripts/fuzz.sh [seconds] [target...]
# Targets: json sse http1-response http1-request inbound openai-upstream anthropic-upstream gemini-upstream prompt-tools validator selector
# (all when none is named). Seeds are made from Tests/Fixtures and Tests/Conformance/recordings into
# Fuzz/corpus/<target>/ (which keeps what the fuzzer adds); crashers go to Fuzz/crashers/<target>/;
# logs to Fuzz/logs/. docs/decisions/0025-fuzzing-and-sanitizers.md says why and how.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

seconds=600
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
all=(json sse http1-response http1-request inbound openai-upstream anthropic-upstream gemini-upstream prompt-tools validator selector)
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all[@]}")

max_len() {
  case $1 in
    json | prompt-tools | validator) echo 4096 ;;
    selector) echo 20000 ;;
    sse | inbound | http1-response | http1-request) echo 8192 ;;
    *-upstream) echo 16384 ;;
    *) echo "unknown target: $1" >&2; exit 2 ;;
  esac
}
for t in "${targets[@]}"; do max_len "$t" >/dev/null; done

# SKILLGATE_FUZZ_SCRATCH: the build directory under Fuzz/ (default .build), e.g. to build a fix while a run goes on.
scratch=${SKILLGATE_FUZZ_SCRATCH:-.build}
build=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --scratch-path "$scratch")
echo "== building Fuzz/ (release, -sanitize=fuzzer,address)" >&2
if ! (cd Fuzz && swift build "${build[@]}" >&2); then
  # A build directory left from an older tree can fail on today's sources (seen: "cannot find type
  # 'ChatEventIterator' in scope" for a file the root package gained since); a clean one builds.
  echo "== the build failed; retrying once from a clean Fuzz/$scratch" >&2
  rm -rf "Fuzz/$scratch"
  (cd Fuzz && swift build "${build[@]}" >&2)
fi
bin=$(cd Fuzz && swift build "${build[@]}" --show-bin-path)/skillgate-fuzz

# Swift's runtime keeps metadata caches for the process's life: leak reports would be noise.
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
# A crash goes straight to libFuzzer (the Swift backtracer can stall a fork-mode job).
export SWIFT_BACKTRACE=enable=no
mkdir -p Fuzz/logs
summary=()
for t in "${targets[@]}"; do
  corpus=Fuzz/corpus/$t crashers=Fuzz/crashers/$t log=Fuzz/logs/$t.log
  mkdir -p "$corpus" "$crashers"
  SKILLGATE_FUZZ_TARGET=$t SKILLGATE_FUZZ_SEEDS="$repo:$corpus" "$bin" >&2
  before=$(find "$crashers" -type f | wc -l)
  echo "== fuzzing $t for ${seconds}s (log: $log)" >&2
  start=$(date +%s)
  # Fork mode with one job: a crash is saved and the run goes on (one core at a time). The crashers
  # dir is a second, read-only corpus: every run first replays what crashed before.
  SKILLGATE_FUZZ_TARGET=$t "$bin" "$corpus" "$crashers" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -dict=Fuzz/dict/skillgate.dict -artifact_prefix="$crashers/" -print_final_stats=1 >"$log" 2>&1 || true
  took=$(($(date +%s) - start))
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  crashes=$(sed -nE 's|.*oom/timeout/crash: ([0-9]+/[0-9]+/[0-9]+).*|\1|p' <<<"$last")
  after=$(find "$crashers" -type f | wc -l)
  summary+=("$(printf '%-20s %6ss %12s execs  cov %6s  ft %7s  corpus %6s  oom/timeout/crash %s  new crashers %3s (total %s)' \
    "$t" "$took" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$(find "$corpus" -type f | wc -l)" "${crashes:-?}" "$((after - before))" "$after")")
  echo "${summary[-1]}" >&2
done
echo "== summary"
printf '%s\n' "${summary[@]}"
