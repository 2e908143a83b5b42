#!/usr/bin/env bash
# The side-by-side proxy benchmark: SkillGate beside nginx and the upstream itself (and LiteLLM when asked),
# one run on this machine, checked against the targets of the hardening-and-speed issue.
# Usage: Bench/run.sh [bench.py options]   e.g. Bench/run.sh --repeat 5 --streams 10000
#        LITELLM=1 Bench/run.sh            (also installs LiteLLM into .venv-bench and measures it)
# See Bench/README.md for what is measured, the options and the kernel settings of the held-streams test.
set -euo pipefail
cd "$(dirname "$0")/.."
./Bench/install-tools.sh
# The binary the quick start ships (scripts/run.sh), so a run measures what users run, not whatever was built last.
./scripts/build-release.sh
extra=()
if [ "${LITELLM:-0}" = 1 ]; then
  [ -x .venv-bench/bin/litellm ] || { python3 -m venv .venv-bench && .venv-bench/bin/pip install -q -r Bench/litellm-requirements.txt; }
  extra+=(--litellm .venv-bench/bin/litellm)
fi
exec python3 Bench/proxy/bench.py --gateway .build/release/skillgate "${extra[@]}" "$@"
