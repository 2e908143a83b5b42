#!/usr/bin/env bash
# Quick start: installs what is needed, builds SkillGate and runs the gateway on the default
# config (offline, with the built-in demo model). Extra arguments go to `skillgate serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product skillgate
exec .build/release/skillgate serve --config Config/skillgate.json "$@"
