#!/usr/bin/env bash
# The release build of the gateway, as the quick start (scripts/run.sh), the benchmark (Bench/run.sh) and a production
# install use it: the Swift runtime linked statically (decision 0026) and link-time optimisation across the gateway's
# modules (SwiftPM's full LTO mode, decision 0050: ~3 % fewer instructions per request). To build without LTO (for
# example on a toolchain whose SwiftPM lacks the option), run the same command without --experimental-lto-mode.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --product skillgate --static-swift-stdlib --experimental-lto-mode=full "$@"
