#!/usr/bin/env bash
# A SIGTERM sent the moment the gateway first answers must stop it (exit 0 after the drain), as a supervisor or a
# deploy script does it. Before the stop signals were armed ahead of the listener (SignalWatch), such a SIGTERM
# arrived while the signal was ignored and not yet watched, and `skillgate serve` went on serving: 3 of 30 starts.
# The race showed in release builds (3 of 30 and 3 of 100 starts) and not in the debug build CI runs (0 of 150), so run it on a
# release build after touching startup or signals: SKILLGATE_BINARY=.build/release/skillgate.
# Usage: Tests/Team/stop-right-after-start.sh [STARTS]   (default 20; needs a built .build/debug/skillgate)
set -euo pipefail
cd "$(dirname "$0")/../.."
sg=${SKILLGATE_BINARY:-.build/debug/skillgate}
[ -x "$sg" ] || { echo "error: $sg is missing; run swift build first" >&2; exit 1; }
starts=${1:-20}
work=$(mktemp -d /tmp/skillgate-stop.XXXXXX)
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT
python3 - "$sg" "$work" "$starts" <<'PY'
import json, os, signal, socket, subprocess, sys, time, urllib.request
sg, work, starts = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
config = os.path.join(work, "skillgate.json")
json.dump({"listen": f"127.0.0.1:{port}", "state_dir": "state", "providers_dir": os.path.abspath("Providers"),
           "tiers": {"light": ["demo/demo-light"], "strong": ["demo/demo-strong"]}}, open(config, "w"))
failures = []
for start in range(1, starts + 1):
    log = open(os.path.join(work, "serve.log"), "wb")
    gateway = subprocess.Popen([sg, "serve", "--config", config], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            break
        except Exception:
            if gateway.poll() is not None or time.time() > deadline:
                sys.exit(f"error: start {start}: the gateway did not answer /healthz (exit {gateway.poll()}); see {log.name}")
            time.sleep(0.002)
    gateway.send_signal(signal.SIGTERM)
    try:
        status = gateway.wait(10)
    except subprocess.TimeoutExpired:
        gateway.kill(); gateway.wait()
        status = "still running 10 s after SIGTERM"
    if status != 0:
        failures.append(f"start {start}: {status}")
if failures:
    sys.exit("error: a SIGTERM sent as the gateway first answered did not stop it cleanly:\n  " + "\n  ".join(failures))
print(f"ok: {starts} of {starts} starts stopped with exit 0 by a SIGTERM sent as soon as /healthz answered")
PY
