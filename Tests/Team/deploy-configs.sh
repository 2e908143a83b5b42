#!/usr/bin/env bash
# Checks the files README "Running in production" tells operators to install (Config/deploy/), so they cannot
# drift from what this SkillGate accepts: the production config passes `skillgate config check`, the nginx site
# passes `nginx -t` (with a throwaway certificate), the alert rules pass `promtool check rules`, and the systemd
# unit passes `systemd-analyze verify` (skipped, saying so, where systemd's tools are not installed).
# Usage: Tests/Team/deploy-configs.sh   (needs a built .build/debug/skillgate, nginx, openssl and promtool)
set -euo pipefail
cd "$(dirname "$0")/../.."
sg=$PWD/.build/debug/skillgate
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
for tool in nginx openssl promtool; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (scripts/test.sh installs nginx-light, openssl and prometheus)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/skillgate-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"

# 1. The production config, with its absolute paths moved into the temporary directory.
mkdir -p "$work/etc" && cp -r Providers "$work/etc/providers"
sed "s#/var/lib/skillgate#$work/state#g" Config/deploy/skillgate.production.json > "$work/etc/skillgate.json"
"$sg" config check --config "$work/etc/skillgate.json" >/dev/null
echo "ok: Config/deploy/skillgate.production.json passes skillgate config check"

# 2. The nginx site inside a minimal nginx.conf, with a throwaway self-signed certificate.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=gateway.example.com" \
  -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2>/dev/null
sed "s#/etc/ssl/skillgate#$work#g" Config/deploy/nginx-skillgate.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<NGINX
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  access_log off;
  include $work/site.conf;
}
NGINX
nginx -t -q -c "$work/nginx.conf" -p "$work"
echo "ok: Config/deploy/nginx-skillgate.conf passes nginx -t"

# 3. The alert rules.
promtool check rules Config/deploy/prometheus-alerts.yml >/dev/null
echo "ok: Config/deploy/prometheus-alerts.yml passes promtool check rules"

# 4. The systemd unit, pointed at the built binary.
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s#/usr/local/bin/skillgate#$sg#" Config/deploy/skillgate.service > "$work/skillgate.service"
  systemd-analyze verify "$work/skillgate.service"
  echo "ok: Config/deploy/skillgate.service passes systemd-analyze verify"
else
  echo "skip: systemd-analyze is not installed; Config/deploy/skillgate.service was not verified"
fi
