#!/usr/bin/env bash
# Quick start: installs what is needed, builds SkillGate and runs the gateway on the default
# config (offline, with the built-in demo model). Extra arguments go to `skillgate serve`.
# On the first run it creates a client token named "quickstart" and prints it once.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build-release.sh
BIN=.build/release/skillgate
if ! $BIN tokens list 2>/dev/null | grep -q "active"; then
  token=$($BIN tokens create --name quickstart 2>/dev/null)
  echo "Client token for this gateway (shown once; only its hash is stored): $token" >&2
  echo "Try: curl -s http://127.0.0.1:8080/v1/chat/completions -H \"Authorization: Bearer $token\" -H 'x-skillgate-scenario: assistant' -d '{\"model\":\"light\",\"messages\":[{\"role\":\"user\",\"content\":\"What is 17 * 23?\"}]}'" >&2
fi
exec $BIN serve --config Config/skillgate.json "$@"
