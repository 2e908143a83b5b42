#!/usr/bin/env bash
# Runs every test: the Swift unit and loopback integration tests, then the conformance suite
# driven by the official OpenAI and Anthropic Python SDKs against a gateway this script starts.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --python

# The conformance suite's Python packages (the official SDKs, `mcp` among them) before the Swift tests: the MCP
# client and gateway tests run the SDK's example server (Tests/Fixtures/mcp/example_server.py) with this Python.
.venv/bin/python -m pip install -q --disable-pip-version-check -r Tests/Conformance/requirements.txt >/dev/null
export SKILLGATE_MCP_PYTHON="$PWD/.venv/bin/python"

echo "== swift test" >&2
swift build --build-tests
# The local embedding server for the semantic-ranking tests, on a free port (another checkout's test
# run may hold the default one), on one thread so its work does not skew the latency tests running
# beside it; stopped when this script ends, however it ends.
e5_port=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
# A throwaway PostgreSQL (Debian `postgresql`, installed when missing) on another free port, in a temporary
# directory, as the unprivileged `postgres` user: the PostgreSQL store and two-instance tests find it through
# SKILLGATE_POSTGRES_URL (they skip, saying so, when it is unset; here it is required).
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "installing postgresql (for the PostgreSQL state store tests)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
pg_port=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
pg_dir=$(mktemp -d /tmp/skillgate-pg.XXXXXX)
trap './scripts/e5-server.sh stop "$e5_port"; ./scripts/postgres-test.sh stop "$pg_dir"' EXIT
SKILLGATE_POSTGRES_URL=$(./scripts/postgres-test.sh start "$pg_port" "$pg_dir")
export SKILLGATE_POSTGRES_URL
SKILLGATE_E5_THREADS=1 ./scripts/e5-server.sh start "$e5_port"
export SKILLGATE_E5_URL="http://127.0.0.1:$e5_port/v1"
# A real Prometheus for the /metrics scrape test (MetricsGatewayTests): the Debian package, found by the Swift
# tests through SKILLGATE_PROMETHEUS_BIN (they skip the scrape test, saying so, when it is unset; here it is required).
if ! command -v prometheus >/dev/null 2>&1; then
  echo "installing prometheus (for the /metrics scrape test)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
SKILLGATE_PROMETHEUS_BIN="$(command -v prometheus)" || { echo "error: prometheus is not installed; apt-get install prometheus and retry" >&2; exit 1; }
export SKILLGATE_PROMETHEUS_BIN
# In parallel (decision 0024, superseding 0013): the tests that measure a latency run on a thread of their
# own, so a cooperative pool kept busy by other tests does not turn their measurements into noise.
# scripts/stress-tests.sh runs this N times in a row and reports failures per test. The watchdog stops a run that
# hangs (seen twice, cause not found: decision 0034) and names the tests that never finished.
./scripts/swift-test-watchdog.sh

# Two instances behind nginx on the same PostgreSQL: a token, a budget and one usage report across both.
if ! command -v nginx >/dev/null 2>&1; then
  echo "installing nginx-light (for the two-instance check)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx-light >/dev/null
fi
echo "== two instances behind nginx on PostgreSQL" >&2
./Tests/Team/two-instances.sh "$SKILLGATE_POSTGRES_URL"

# The production files README "Running in production" installs (Config/deploy/): config, nginx site, alert
# rules and systemd unit, each checked by its own tool.
if ! command -v openssl >/dev/null 2>&1; then
  echo "installing openssl (a throwaway certificate for the nginx check)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends openssl >/dev/null
fi
echo "== production deployment files" >&2
./Tests/Team/deploy-configs.sh

# A SIGTERM sent the moment the gateway first answers stops it cleanly (decision 0044).
echo "== stop right after start" >&2
./Tests/Team/stop-right-after-start.sh

# The optional allocator of README "Running in production" (Debian's libmimalloc2.0, installed when missing).
echo "== gateway under mimalloc" >&2
./Tests/Team/mimalloc.sh

# An upstream behind a private CA over TLS and HTTP/2 (nginx with a throwaway CA): `providers.<id>.ca_file`.
echo "== upstream over TLS with a private CA" >&2
./Tests/Upstream/tls-upstream.sh

if [ -d Tests/Conformance ]; then
  echo "== SDK conformance suite" >&2
  swift build --product skillgate
  .venv/bin/python -m pytest -q Tests/Conformance
fi

# The web console driven in headless Chromium (Tests/Console): Debian's chromium and chromium-driver (installed when
# missing) and Selenium, pinned in Tests/Console/requirements.txt, in .venv. One browser session, about a minute.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "installing chromium and chromium-driver (for the console's browser tests)" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
echo "== console browser tests (screenshots in Tests/Console/artifacts)" >&2
swift build --product skillgate
.venv/bin/python -m pip install -q --disable-pip-version-check -r Tests/Console/requirements.txt >/dev/null
.venv/bin/python -m pytest -q Tests/Console
