#!/usr/bin/env bash
# LLM-gateway proxy-overhead benchmark (loopback only).
#
# Targets, all in front of ONE mock OpenAI upstream (nginx, 127.0.0.1:18080):
#   direct         client -> mock upstream (no proxy hop; the baseline)
#   nginx-proxy    client -> nginx reverse proxy :14100 -> upstream   (physical-limit proxy hop)
#   litellm-<v>    client -> LiteLLM proxy :14000 (variant v, see LITELLM_VARIANTS) -> upstream
#   $EXTRA_NAME    client -> $EXTRA_URL -> upstream  (already running; e.g. our Swift gateway)
#
# Per target: wrk POST of a ~2 KB chat.completions body (3 messages, 3 tools) at each
# concurrency in $CONNS for $DURATION s (after a $WARMUP s warm-up), then streaming checks
# (curl TTFB/total + sse_probe.py first-event time) on a static and a paced SSE stream,
# plus CPU time per request and RSS (idle / peak) of the target's processes.
#
# Usage:   bash run.sh
# Env:     DURATION=10 WARMUP=3 CONNS="1 32" WRK_THREADS=1 STREAM_N=20
#          TARGETS="direct nginx litellm"
#          LITELLM_VARIANTS="w1 w2 granian-w1 granian-w2"  (wN = uvicorn --num_workers N, LiteLLM's default;
#              granian-wN = --run_granian --num_workers N; gunicorn-wN = --run_gunicorn --num_workers N)
#          EXTRA_URL=http://127.0.0.1:PORT  EXTRA_NAME=swift-gw   (base URL; chat path appended)
#          EXTRA_TOKEN=...  (bearer; default $BENCH_KEY)
#          EXTRA_STREAM_URL / EXTRA_PACED_URL  (default $EXTRA_URL/v1/chat/completions; the
#              gateway must route model "mock-model-stream" -> http://127.0.0.1:18080/stream/v1
#              and "mock-model-stream-paced" -> http://127.0.0.1:18080/stream-paced/v1,
#              "mock-model" -> http://127.0.0.1:18080/v1)
#          QUIET_PCT=10 QUIET_MAX=300  (shared machine: wait for others' CPU use to drop first)
#          WORK=/tmp/bench (venv at $WORK/venv, logs/results under $WORK)  OUT=<results dir>
# Needs:   nginx (+ libnginx-mod-http-echo), wrk, curl, python3, and LiteLLM in $VENV:
#          python3 -m venv /tmp/bench/venv && /tmp/bench/venv/bin/pip install 'litellm[proxy]'
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${WORK:-/tmp/bench}"
VENV="${VENV:-$WORK/venv}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-3}"
CONNS="${CONNS:-1 32}"
WRK_THREADS="${WRK_THREADS:-1}"
STREAM_N="${STREAM_N:-20}"
REPEAT="${REPEAT:-1}"
QUIET_PCT="${QUIET_PCT:-10}"    # before each measurement wait until <QUIET_PCT % of all cores is busy ...
QUIET_MAX="${QUIET_MAX:-300}"   # ... for at most QUIET_MAX s (then measure anyway; see other_cpu_pct)
TARGETS="${TARGETS:-direct nginx litellm}"
LITELLM_VARIANTS="${LITELLM_VARIANTS:-w1 w2 granian-w1 granian-w2}"
BENCH_KEY="${BENCH_KEY:-sk-bench-7d2f4a91c3e85b06f1a2d4c6e8b0a3f5}"   # local-only master key
EXTRA_URL="${EXTRA_URL:-}"
EXTRA_NAME="${EXTRA_NAME:-extra}"
EXTRA_TOKEN="${EXTRA_TOKEN:-$BENCH_KEY}"
MAX_STARTUP="${MAX_STARTUP:-120}"
UP_PORT=18080; NGX_PORT=14100; LL_PORT=14000
RUN_ID="$(date +%Y%m%d-%H%M%S)"
OUT="${OUT:-$WORK/results/$RUN_ID}"
NGX_PREFIX="$WORK/ngx"
mkdir -p "$OUT" "$NGX_PREFIX/logs" "$NGX_PREFIX/tmp"

LOAD_TSV="$OUT/load.tsv"; STREAM_TSV="$OUT/stream.tsv"; MEM_TSV="$OUT/mem.tsv"
printf 'target\tconc\trps\tp50_us\tp90_us\tp99_us\tmax_us\trequests\terrors\tcpu_us_per_req\trep\tother_cpu_pct\n' >"$LOAD_TSV"
printf 'target\tkind\tcurl_ttfb_ms\tcurl_total_ms\tfirst_event_ms\tdone_ms\tevents\tok\n' >"$STREAM_TSV"
printf 'target\tnprocs\tidle_rss_mb\tpeak_rss_mb\thwm_sum_mb\tstartup_s\n' >"$MEM_TSV"

log() { echo "[$(date +%T)] $*" >&2; }

# ---------------------------------------------------------------- process bookkeeping
STARTED_NGINX_PIDFILES=()   # nginx instances this script started
LL_PID=""                   # current LiteLLM main pid (started by us)
SAMPLER_PID=""

descendants() {  # all descendant pids of $1 (recursive)
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
port_pids() {    # pids holding a LISTEN socket on port $1, plus their descendants
  local p
  for p in $(ss -ltnpH "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u); do
    echo "$p"; descendants "$p"
  done | sort -un
}
port_busy() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
cpu_ticks() {    # utime+stime (clock ticks) summed over pids
  local t=0 p f
  for p in "$@"; do
    f=$(cat "/proc/$p/stat" 2>/dev/null) || continue
    f=${f##*) }; set -- $f
    t=$((t + ${12} + ${13}))
  done
  echo "$t"
}
cpu_each() { local p f; for p in "$@"; do f=$(cat "/proc/$p/stat" 2>/dev/null) || continue; f=${f##*) }; set -- $f; echo "$p ${12} ${13}"; done; }
sys_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat; }  # user+nice+system+irq+softirq, all cpus
wait_quiet() {  # the machine may be shared: wait (bounded) until nothing else is using the CPU
  local waited=0 a b busy said=0
  while :; do
    a=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat); sleep 1
    b=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat)
    busy=$(awk -v a="$a" -v b="$b" 'BEGIN{split(a,x," "); split(b,y," "); d=y[2]-x[2]; print (d>0)?int(100*(y[1]-x[1])/d):0}')
    [ "$busy" -lt "$QUIET_PCT" ] && { [ $said = 1 ] && log "   machine quiet again after ${waited}s"; return 0; }
    [ $said = 0 ] && log "   machine busy (${busy}% of all cores used by others); waiting up to ${QUIET_MAX}s" && said=1
    waited=$((waited + 3))
    [ "$waited" -ge "$QUIET_MAX" ] && { log "   still busy (${busy}%); measuring anyway"; return 0; }
    sleep 2
  done
}
rss_kb() { local k=0 p v; for p in "$@"; do v=$(awk '/^VmRSS/{print $2}' "/proc/$p/status" 2>/dev/null); k=$((k + ${v:-0})); done; echo "$k"; }

start_sampler() {  # $1 = port, $2 = out file: peak summed VmRSS (kB) of the port's process tree,
  local port=$1 f=$2  # sampled at 2 Hz (pid set refreshed every 10 s), bounded to 30 min
  (
    peak=0; pids=""
    for i in $(seq 0 3599); do
      [ $((i % 20)) -eq 0 ] && pids=$(port_pids "$port")
      [ -z "$pids" ] && break
      k=$(cd /proc && awk '/^VmRSS/{s+=$2} END{print s+0}' $(printf '%s/status ' $pids) 2>/dev/null)
      [ "${k:-0}" -gt "$peak" ] && peak=$k && echo "$peak" >"$f"
      sleep 0.5
    done
  ) &
  SAMPLER_PID=$!
}
hwm_kb() { (cd /proc && awk '/^VmHWM/{s+=$2} END{print s+0}' $(printf '%s/status ' "$@") 2>/dev/null); }
stop_sampler() { [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null; wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=""; }

start_nginx() {  # $1 = conf file, $2 = port, $3 = pid file name (relative to prefix)
  if port_busy "$2"; then log "port $2 already in use; stop that process first"; exit 1; fi
  nginx -p "$NGX_PREFIX" -c "$HERE/$1" || { log "nginx failed to start ($1)"; exit 1; }
  STARTED_NGINX_PIDFILES+=("$NGX_PREFIX/$3")
  for _ in $(seq 1 50); do port_busy "$2" && return 0; sleep 0.1; done
  log "nginx ($1) not listening on $2"; exit 1
}

litellm_args() {  # variant name -> CLI args
  case "$1" in
    w[0-9]*)         echo "--num_workers ${1#w}" ;;
    granian-w[0-9]*) echo "--run_granian --num_workers ${1#granian-w}" ;;
    gunicorn-w[0-9]*) echo "--run_gunicorn --num_workers ${1#gunicorn-w}" ;;
    *) return 1 ;;
  esac
}
start_litellm() {  # $1 = variant (see LITELLM_VARIANTS)
  local args; args=$(litellm_args "$1") || { log "unknown litellm variant $1"; return 1; }
  if port_busy "$LL_PORT"; then log "port $LL_PORT already in use"; return 1; fi
  local t0=$(date +%s.%N)
  # No network: local cost map, telemetry vetoed, logs at ERROR (also silences uvicorn access log).
  env LITELLM_LOG=ERROR LITELLM_LOCAL_MODEL_COST_MAP=True LITELLM_TELEMETRY_DISABLED=true \
      LITELLM_MASTER_KEY="$BENCH_KEY" NO_PROXY='*' no_proxy='*' \
      "$VENV/bin/litellm" --config "$HERE/litellm-config.yaml" --host 127.0.0.1 --port "$LL_PORT" \
      $args >"$OUT/litellm-$1.log" 2>&1 &
  echo "litellm-$1: litellm --config litellm-config.yaml --host 127.0.0.1 --port $LL_PORT $args" >>"$OUT/versions.txt"
  LL_PID=$!
  for _ in $(seq 1 $((MAX_STARTUP * 4))); do
    if curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$LL_PORT/health/liveliness" 2>/dev/null | grep -q 200; then
      LL_STARTUP=$(echo "$(date +%s.%N) - $t0" | bc); return 0
    fi
    kill -0 "$LL_PID" 2>/dev/null || { log "litellm exited during startup; see $OUT/litellm-$1.log"; LL_PID=""; return 1; }
    sleep 0.25
  done
  log "litellm not up after ${MAX_STARTUP}s"; stop_litellm; return 1
}
stop_litellm() {
  [ -z "$LL_PID" ] && return 0
  local kids; kids=$(descendants "$LL_PID")
  kill -TERM "$LL_PID" 2>/dev/null
  for _ in $(seq 1 60); do kill -0 "$LL_PID" 2>/dev/null || break; sleep 0.25; done
  kill -0 "$LL_PID" 2>/dev/null && kill -KILL "$LL_PID" 2>/dev/null
  for k in $kids; do kill -0 "$k" 2>/dev/null && kill -KILL "$k" 2>/dev/null; done
  wait "$LL_PID" 2>/dev/null; LL_PID=""
}

cleanup() {
  stop_sampler
  stop_litellm
  local f
  for f in "${STARTED_NGINX_PIDFILES[@]}"; do
    [ -f "$f" ] && kill -QUIT "$(cat "$f")" 2>/dev/null
  done
  STARTED_NGINX_PIDFILES=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- measurement
check_chat() {  # $1 url, $2 token -> 0 if HTTP 200 and a chat.completion comes back
  local body code
  body=$(curl -sS --max-time 30 -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $2" \
         --data-binary @"$HERE/request.json" -w '\n%{http_code}' "$1" 2>&1)
  code=${body##*$'\n'}
  if [ "$code" != 200 ] || ! grep -q '"chat.completion"' <<<"$body"; then
    log "sanity check failed for $1 (HTTP $code): $(head -c 300 <<<"$body")"; return 1
  fi
}

stream_check() {  # $1 name, $2 kind, $3 url, $4 body file, $5 token
  local ttfb=() tot=() i line last="$OUT/stream-$1-$2.last"
  for i in $(seq 1 "$STREAM_N"); do
    line=$(curl -sS -N --max-time 30 -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $5" \
           --data-binary @"$4" -o "$last" -w '%{time_starttransfer} %{time_total} %{http_code}' "$3" 2>/dev/null)
    ttfb+=("$(awk '{printf "%.3f", $1*1000}' <<<"$line")"); tot+=("$(awk '{printf "%.3f", $2*1000}' <<<"$line")")
  done
  local med_ttfb med_tot events probe
  med_ttfb=$(printf '%s\n' "${ttfb[@]}" | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}')
  med_tot=$(printf '%s\n' "${tot[@]}" | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}')
  events=$(grep -c '^data:' "$last" 2>/dev/null || echo 0)
  grep -q '^data: \[DONE\]' "$last" 2>/dev/null || events="${events}(no DONE)"
  probe=$(timeout 120 python3 "$HERE/sse_probe.py" "$3" "$4" "$STREAM_N" "$5" 2>&1 | grep '^RESULT' || echo "RESULT failed")
  echo "$probe" >"$OUT/probe-$1-$2.txt"
  local fe dn ok
  fe=$(grep -o 'first_event_ms=[0-9.]*' <<<"$probe" | cut -d= -f2); dn=$(grep -o 'done_ms=[0-9.]*' <<<"$probe" | cut -d= -f2)
  ok=$(grep -o ' ok=[0-9]*' <<<"$probe" | cut -d= -f2)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s\n' "$1" "$2" "$med_ttfb" "$med_tot" "${fe:-NA}" "${dn:-NA}" "$events" "${ok:-0}" "$STREAM_N" >>"$STREAM_TSV"
}

bench_target() {  # $1 name, $2 port (for pids), $3 chat url, $4 stream url, $5 paced url, $6 token, $7 startup_s
  local name=$1 port=$2 url=$3 surl=$4 purl=$5 tok=$6 startup=${7:-NA}
  log "== $name ($url)"
  check_chat "$url" "$tok" || { printf '%s\tNA\tFAILED\n' "$name" >>"$LOAD_TSV"; return 1; }
  local pids; pids=$(port_pids "$port")
  local nprocs; nprocs=$(wc -w <<<"$pids")
  local idle; idle=$(rss_kb $pids)
  rm -f "$OUT/peak-$name.kb"; start_sampler "$port" "$OUT/peak-$name.kb"
  # warm-up (not reported)
  REQ_BODY="$HERE/request.json" AUTH_TOKEN="$tok" timeout $((WARMUP + 30)) \
    wrk -t1 -c8 -d"${WARMUP}s" --timeout 10s -s "$HERE/post.lua" "$url" >"$OUT/wrk-$name-warmup.txt" 2>&1
  local c t c0 c1 r
  local c t rep c0 c1 u0 u1 s0 s1 r tag upids wcpu
  upids=$(port_pids "$UP_PORT")
  for c in $CONNS; do
   for rep in $(seq 1 "$REPEAT"); do
    t=$WRK_THREADS; [ "$t" -gt "$c" ] && t=$c
    tag="$name-c$c-r$rep"
    wait_quiet
    pids=$(port_pids "$port")
    c0=$(cpu_ticks $pids); u0=$(cpu_ticks $upids); s0=$(sys_busy); cpu_each $pids >"$OUT/cpu-$tag.before"
    REQ_BODY="$HERE/request.json" AUTH_TOKEN="$tok" timeout $((DURATION + 30)) \
      /usr/bin/time -f '%U %S' -o "$OUT/time-$tag.txt" \
      wrk -t"$t" -c"$c" -d"${DURATION}s" --timeout 10s -s "$HERE/post.lua" "$url" >"$OUT/wrk-$tag.txt" 2>&1
    c1=$(cpu_ticks $pids); u1=$(cpu_ticks $upids); s1=$(sys_busy); cpu_each $pids >"$OUT/cpu-$tag.after"
    # per-process CPU split (shows e.g. whether multi-worker servers spread the load)
    awk 'NR==FNR {b[$1]=$2+$3; next} ($1 in b) {printf "pid %s: %d ticks\n", $1, $2+$3-b[$1]}' \
      "$OUT/cpu-$tag.before" "$OUT/cpu-$tag.after" >"$OUT/cpu-split-$tag.txt"
    rm -f "$OUT/cpu-$tag.before" "$OUT/cpu-$tag.after"
    wcpu=$(awk '{printf "%d", ($1+$2)*100}' "$OUT/time-$tag.txt" 2>/dev/null)
    r=$(grep '^RESULT' "$OUT/wrk-$tag.txt")
    if [ -z "$r" ]; then log "wrk produced no result for $tag"; continue; fi
    # other_cpu_pct: CPU (user+system+irq+softirq, all cores) used during the run by anything that is not
    # the target, the mock upstream or wrk, as % of 2 cores -- flags a noisy machine.
    [ "$port" = "$UP_PORT" ] && u0=0 && u1=0
    python3 - "$name" "$c" "$rep" "$((c1 - c0))" "$((u1 - u0))" "$((s1 - s0))" "${wcpu:-0}" \
      "$(getconf CLK_TCK)" "$(nproc)" "$r" >>"$LOAD_TSV" <<'EOF2'
import sys
name, c, rep = sys.argv[1:4]
dt, du, ds, dw, hz, ncpu = (int(x) for x in sys.argv[4:10])
kv = dict(x.split("=") for x in sys.argv[10].split()[1:])
req = int(kv["requests"]); err = sum(int(kv[k]) for k in ("non2xx", "connect_err", "read_err", "write_err", "timeout"))
cpu = dt / hz * 1e6 / req if req else float("nan")
dur = int(kv["duration_us"]) / 1e6
other = (ds - dt - du - dw) / hz / (dur * ncpu) * 100   # may dip below 0 (softirq accounting)
print("\t".join([name, c, kv["rps"], kv["p50_us"], kv["p90_us"], kv["p99_us"], kv["max_us"], str(req),
                 str(err), "%.1f" % cpu, rep, "%.1f" % other]))
EOF2
    log "   c=$c rep=$rep  $(tail -1 "$LOAD_TSV" | cut -f3-)"
   done
  done
  wait_quiet
  stream_check "$name" static "$surl" "$HERE/request-stream.json" "$tok"
  stream_check "$name" paced "$purl" "$HERE/request-stream-paced.json" "$tok"
  stop_sampler
  local peak hwm; peak=$(cat "$OUT/peak-$name.kb" 2>/dev/null || echo 0); hwm=$(hwm_kb $(port_pids "$port"))
  printf '%s\t%s\t%.1f\t%.1f\t%.1f\t%s\n' "$name" "$nprocs" "$(echo "$idle/1024" | bc -l)" \
    "$(echo "$peak/1024" | bc -l)" "$(echo "${hwm:-0}/1024" | bc -l)" "$startup" >>"$MEM_TSV"
}

# ---------------------------------------------------------------- versions
{
  echo "run_id: $RUN_ID"
  echo "kernel: $(uname -r)   cpus: $(nproc)   cpu: $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)"
  echo "nginx: $(nginx -v 2>&1 | sed 's/.*version: //')"
  echo "wrk: $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
  echo "curl: $(curl --version | head -1 | awk '{print $2}')"
  echo "python: $(python3 --version 2>&1 | awk '{print $2}')"
  if [ -x "$VENV/bin/pip" ]; then
    echo "litellm venv: $("$VENV/bin/pip" list 2>/dev/null | awk 'tolower($1) ~ /^(litellm|uvicorn|fastapi|httpx|aiohttp|openai|uvloop|starlette|pydantic)$/ {printf "%s=%s ", $1, $2}')"
  fi
  echo "params: DURATION=$DURATION WARMUP=$WARMUP CONNS='$CONNS' WRK_THREADS=$WRK_THREADS STREAM_N=$STREAM_N REPEAT=$REPEAT QUIET_PCT=$QUIET_PCT"
} >"$OUT/versions.txt"
cat "$OUT/versions.txt" >&2

# ---------------------------------------------------------------- run
log "results -> $OUT"
start_nginx mock-upstream.conf "$UP_PORT" mock-upstream.pid
U="http://127.0.0.1:$UP_PORT"
for tgt in $TARGETS; do
  case "$tgt" in
    direct)
      bench_target direct "$UP_PORT" "$U/v1/chat/completions" "$U/stream/v1/chat/completions" \
        "$U/stream-paced/v1/chat/completions" "$BENCH_KEY" ;;
    nginx)
      start_nginx nginx-proxy.conf "$NGX_PORT" nginx-proxy.pid
      N="http://127.0.0.1:$NGX_PORT"
      bench_target nginx-proxy "$NGX_PORT" "$N/v1/chat/completions" "$N/stream/v1/chat/completions" \
        "$N/stream-paced/v1/chat/completions" "$BENCH_KEY" ;;
    litellm)
      for v in $LITELLM_VARIANTS; do
        log "starting litellm variant $v: $(litellm_args "$v")"
        if start_litellm "$v"; then
          L="http://127.0.0.1:$LL_PORT/v1/chat/completions"
          bench_target "litellm-$v" "$LL_PORT" "$L" "$L" "$L" "$BENCH_KEY" "$LL_STARTUP"
          stop_litellm
        else
          printf 'litellm-%s\tNA\tFAILED(start)\n' "$v" >>"$LOAD_TSV"
        fi
      done ;;
    *) log "unknown target $tgt (use direct nginx litellm)";;
  esac
done
if [ -n "$EXTRA_URL" ]; then
  xport=$(sed -E 's#^[a-z]+://[^:/]+:([0-9]+).*#\1#' <<<"$EXTRA_URL")
  X="${EXTRA_URL%/}/v1/chat/completions"
  bench_target "$EXTRA_NAME" "$xport" "$X" "${EXTRA_STREAM_URL:-$X}" "${EXTRA_PACED_URL:-$X}" "$EXTRA_TOKEN"
fi

python3 "$HERE/table.py" "$OUT" | tee "$OUT/table.md"
cp "$OUT/table.md" "$WORK/last-run.md"
log "raw results in $OUT ; table also in $WORK/last-run.md"
