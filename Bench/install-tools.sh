#!/usr/bin/env bash
# What the benchmarks need from Debian, installed when missing: wrk, nginx with the echo module (the mock upstream
# and the reference proxy), and any extra packages named as arguments (e.g. postgresql). Then SkillGate's own
# dependencies and its release build with the Swift runtime linked statically, as it ships.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || need+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ] || need+=(libnginx-mod-http-echo)
for package in "$@"; do
  case "$package" in
    postgresql) ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql) ;;
    *) dpkg -s "$package" >/dev/null 2>&1 || need+=("$package") ;;
  esac
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
./scripts/install-deps.sh
./scripts/build-release.sh
