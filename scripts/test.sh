#!/usr/bin/env bash
# Runs every test: the Swift unit and loopback integration tests, then the conformance suite
# driven by the official OpenAI and Anthropic Python SDKs against a gateway this script starts.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --python

echo "== swift test" >&2
swift build --build-tests
# The local embedding server for the semantic-ranking tests, on a free port (another checkout's test
# run may hold the default one), on one thread so its work does not skew the latency tests running
# beside it; stopped when this script ends, however it ends.
e5_port=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
trap './scripts/e5-server.sh stop "$e5_port"' EXIT
SKILLGATE_E5_THREADS=1 ./scripts/e5-server.sh start "$e5_port"
export SKILLGATE_E5_URL="http://127.0.0.1:$e5_port/v1"
# In parallel (decision 0024, superseding 0013): the tests that measure a latency run on a thread of their
# own, so a cooperative pool kept busy by other tests does not turn their measurements into noise.
# scripts/stress-tests.sh runs this N times in a row and reports failures per test.
swift test

if [ -d Tests/Conformance ]; then
  echo "== SDK conformance suite" >&2
  swift build --product skillgate
  .venv/bin/python -m pip install -q --disable-pip-version-check -r Tests/Conformance/requirements.txt >/dev/null
  .venv/bin/python -m pytest -q Tests/Conformance
fi
