#!/usr/bin/env python3
"""SkillGate's side-by-side proxy benchmark: the gateway, nginx (the cheapest proxy hop) and the upstream
itself, measured in one run on this machine, against the targets of the hardening-and-speed issue.

Everything runs on loopback: a mock OpenAI-compatible upstream (nginx + echo module), nginx as a reverse
proxy, the gateway (`skillgate serve`) and optionally LiteLLM, each answering the same ~2 KB chat request.
Repeats go round-robin over the targets so drift on a shared machine hits them alike; figures are medians.

Usage: python3 Bench/proxy/bench.py [--gateway .build/release/skillgate] [--duration 10] [--repeat 3]
       [--streams 10000] [--targets direct,nginx,skillgate] [--litellm PATH/TO/litellm] [--out DIR]
       python3 Bench/proxy/bench.py --surfaces   (only: CPU per request of /v1/responses beside /v1/chat/completions)
"""
import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import held_streams  # noqa: E402
import measure  # noqa: E402
import upstream  # noqa: E402
import report  # noqa: E402
import surfaces  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
UPSTREAM_PORT, NGINX_PORT, GATEWAY_PORT, LITELLM_PORT = 18080, 14100, 18090, 14000
UPSTREAM_TLS_PORT = 18443
BODY = {kind: os.path.join(HERE, f"request{suffix}.json") for kind, suffix in
        [("plain", ""), ("stream", "-stream"), ("paced", "-paced"), ("slow", "-slow")]}
UPSTREAM_PATH = {"plain": "/v1", "stream": "/stream/v1", "paced": "/paced/v1", "slow": "/slow/v1"}


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Target:
    """One thing under measurement: a process tree and the URL of each request kind."""

    def __init__(self, name, process, urls, token):
        self.name, self.process, self.urls, self.token = name, process, urls, token
        self.runs, self.first_event, self.streams_complete = [], [], 0
        self.idle_rss = self.peak_rss = float("nan")
        self.held = None

    def pids(self):
        return measure.process_tree(self.process.pid)


class Processes:
    """Children this run started; all stopped (process group SIGTERM, then SIGKILL) when it ends."""

    def __init__(self):
        self.children = []

    def start(self, argv, log_path, **kw):
        process = subprocess.Popen(argv, stdout=open(log_path, "ab"), stderr=subprocess.STDOUT,
                                   start_new_session=True, **kw)
        self.children.append(process)
        return process

    def stop_all(self):
        for process in reversed(self.children):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.time() + 5
        for process in self.children:
            try:
                process.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def require_free_port(port, what):
    """Refuses to start `what` on a port something already answers on: a leftover gateway from an earlier run would
    answer the health check in its place (and reject this run's token)."""
    with socket.socket() as probe:
        probe.settimeout(1)
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise RuntimeError(f"127.0.0.1:{port} is already in use, so {what} cannot listen there; stop the process "
                               f"holding it (an earlier benchmark run?) or pass --port-offset")


def wait_for(url, process, seconds=30, token=None):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited with status {process.returncode}; see its log")
        try:
            request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
            urllib.request.urlopen(request, timeout=2).read()
            return
        except Exception:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def work_directory(path):
    """Makes the run's work directory with the logs/ and tmp/ that nginx writes to (upstream.py's configurations);
    returns its absolute path."""
    work = os.path.abspath(path)
    for sub in ["logs", "tmp"]:
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    return work


def start_mock_upstream(processes, work, nofile, port=None):
    """Starts the plain mock upstream (no TLS listener) and waits until it answers; returns its process."""
    port = port or UPSTREAM_PORT
    mock = start_nginx(processes, work, "mock-upstream", upstream.mock_upstream_conf(port, nofile))
    wait_for(f"http://127.0.0.1:{port}/v1/models", mock)
    return mock


def start_nginx(processes, work, name, conf):
    path = os.path.join(work, f"{name}.conf")
    open(path, "w").write(conf)
    return processes.start(["nginx", "-p", work, "-c", path, "-g", "daemon off;"], os.path.join(work, f"{name}.log"))


def start_gateway(processes, work, binary, name="skillgate", port=None, slow_over_tls=None, preload=None, extra_config=None):
    """Starts `binary` as a gateway in front of the mock upstream (`name` keeps its files apart from another's).
    `slow_over_tls=(port, ca_file)` sends the held-streams model to the upstream's TLS/HTTP/2 listener.
    `preload` is a shared library put in LD_PRELOAD for the gateway alone (e.g. another malloc: decision 0042).
    `extra_config` is merged into the top level of the gateway's config (e.g. {"warm_code": false})."""
    port = port or GATEWAY_PORT
    require_free_port(port, f"the gateway `{name}`")
    state = os.path.join(work, "state" if name == "skillgate" else f"state-{name}")
    shutil.rmtree(state, ignore_errors=True)
    config = {"listen": f"127.0.0.1:{port}", "state_dir": state,
              "providers_dir": os.path.join(BENCH, "providers"),
              "tiers": {"light": ["mock/mock-model"], "strong": ["mock/mock-model"]},
              "default_model": "light", "scenarios": {"chat": {}},
              # No cap on client connections: the held-streams test opens thousands at once.
              # and holds as many upstream connections as streams (over HTTP/1.1, one per stream).
              "limits": {"shutdown_grace_seconds": 2, "max_connections": 0, "upstream_connections_per_host": 20000}}
    # The mock providers need no key, so the gateway serves them only when its config names them (decision 0092), as
    # an operator's config would; the catalog files name the default upstream port, moved here when it differs.
    specs = [json.load(open(os.path.join(BENCH, "providers", f))) for f in os.listdir(os.path.join(BENCH, "providers"))]
    config["providers"] = {s["id"]: ({"base_url": s["base_url"].replace(":18080/", f":{UPSTREAM_PORT}/")}
                                     if UPSTREAM_PORT != 18080 else {}) for s in specs}
    if slow_over_tls:
        tls_port, ca_file = slow_over_tls
        config.setdefault("providers", {})["mock-slow"] = {"base_url": f"https://127.0.0.1:{tls_port}/slow/v1", "ca_file": ca_file}
    config.update(extra_config or {})
    path = os.path.join(work, f"{name}.json")
    json.dump(config, open(path, "w"), indent=2)
    token = subprocess.run([binary, "tokens", "create", "--config", path, "--name", "bench"], check=True,
                           capture_output=True, text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ, LD_PRELOAD=os.path.abspath(preload)) if preload else None
    process = processes.start([binary, "serve", "--config", path], os.path.join(work, f"{name}.log"), env=env)
    wait_for(f"http://127.0.0.1:{port}/healthz", process)
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    return process, {kind: url for kind in BODY}, token


def start_litellm(processes, work, binary, key):
    models = [{"model_name": name, "litellm_params": {"model": f"openai/mock-model", "api_key": "none",
              "api_base": f"http://127.0.0.1:{UPSTREAM_PORT}{path}"}}
              for name, path in [("mock-model", "/v1"), ("mock-model-stream", "/stream/v1"),
                                 ("mock-model-paced", "/paced/v1"), ("mock-model-slow", "/slow/v1")]]
    path = os.path.join(work, "litellm.json")
    json.dump({"model_list": models}, open(path, "w"))
    env = dict(os.environ, LITELLM_LOG="ERROR", LITELLM_LOCAL_MODEL_COST_MAP="True",
               LITELLM_TELEMETRY_DISABLED="true", LITELLM_MASTER_KEY=key, NO_PROXY="*")
    process = processes.start([binary, "--config", path, "--host", "127.0.0.1", "--port", str(LITELLM_PORT)],
                              os.path.join(work, "litellm.log"), env=env)
    wait_for(f"http://127.0.0.1:{LITELLM_PORT}/health/liveliness", process, seconds=180)
    url = f"http://127.0.0.1:{LITELLM_PORT}/v1/chat/completions"
    return process, {kind: url for kind in BODY}


def sanity_check(target):
    body = open(BODY["plain"], "rb").read()
    request = urllib.request.Request(target.urls["plain"], data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {target.token}"})
    answer = json.loads(urllib.request.urlopen(request, timeout=30).read())
    if answer.get("object") != "chat.completion":
        raise RuntimeError(f"{target.name}: not a chat completion: {str(answer)[:200]}")


def measure_load(target, connections, args, lua):
    busy = measure.wait_quiet(args.quiet_percent, args.quiet_max, log)
    pids = target.pids()
    cpu0 = measure.cpu_seconds(pids)
    result = measure.run_wrk(target.urls["plain"], BODY["plain"], target.token, connections, args.duration, lua)
    cpu = measure.cpu_seconds(pids) - cpu0
    run = dict(result, connections=connections, rps=result["requests"] / (result["duration_us"] / 1e6),
               cpu_us_per_request=cpu * 1e6 / max(1, result["requests"]), machine_busy_percent=busy)
    target.runs.append(run)
    log(f"   {target.name:10} c={connections:<3} {run['rps']:9.0f} req/s  p50 {run['p50_us']} µs  "
        f"p99 {run['p99_us']} µs  {run['cpu_us_per_request']:.0f} µs CPU/req  errors {run['errors']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gateway", default=os.path.join(BENCH, "..", ".build", "release", "skillgate"))
    parser.add_argument("--targets", default="direct,nginx,skillgate")
    parser.add_argument("--litellm", help="path of a `litellm` executable to add LiteLLM as a target")
    parser.add_argument("--baseline", help="path of another skillgate build to add as the target `baseline` (an A/B in "
                                           "the same run, e.g. the previous release)")
    parser.add_argument("--preload", help="a shared library preloaded into the `skillgate` target only, e.g. "
                                          "/usr/lib/x86_64-linux-gnu/libmimalloc.so.2 (with --baseline: the same binary without it)")
    parser.add_argument("--baseline-config", type=json.loads, default=None, metavar="JSON",
                        help="top-level config keys for the `baseline` target, e.g. '{\"warm_code\": false}'; with it and "
                             "no --baseline, the baseline is the same binary as --gateway (an A/B of one setting)")
    parser.add_argument("--gateway-config", type=json.loads, default=None, metavar="JSON",
                        help="top-level config keys for the `skillgate` target, e.g. '{\"warm_code\": true}'")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--connections", default="1,32")
    parser.add_argument("--probe", type=int, default=100, help="sequential streams for the first-event probe")
    parser.add_argument("--streams", type=int, default=10000, help="held slow streams (0 skips the test)")
    parser.add_argument("--stream-pause", type=float, default=1.0, help="seconds between a slow stream's events")
    parser.add_argument("--held-upstream", choices=["tls", "plain"], default="tls",
                        help="the held streams' upstream side: TLS with HTTP/2, multiplexed as real providers are "
                             "reached (default), or plain HTTP/1.1 (a socket per stream, so the file limit caps the count)")
    parser.add_argument("--quiet-percent", type=float, default=15)
    parser.add_argument("--quiet-max", type=float, default=120)
    parser.add_argument("--out", default="/tmp/skillgate-proxy-bench")
    parser.add_argument("--surfaces", action="store_true",
                        help="only compare the gateway's CPU per request on /v1/responses and /v1/chat/completions")
    parser.add_argument("--surface-connections", type=int, default=1,
                        help="connections of the --surfaces runs (1: one event loop serves both surfaces alike)")
    parser.add_argument("--surface-rounds", type=int, default=12)
    parser.add_argument("--surface-slice", type=int, default=1, help="seconds of each --surfaces run")
    parser.add_argument("--port-offset", type=int, default=0,
                        help="added to every port of the run (two runs on one machine must not share ports)")
    parser.add_argument("--halt-poll-ns", type=int, default=None,
                        help="poll an idle vCPU this long before halting it during the run (KVM guests' haltpoll "
                             "driver, root; the kernel's default is 200000), then restore the machine's own value. "
                             "Every target runs under it alike; the report names the policy (decision 0046)")
    args = parser.parse_args()
    global UPSTREAM_PORT, NGINX_PORT, GATEWAY_PORT, LITELLM_PORT, UPSTREAM_TLS_PORT
    UPSTREAM_PORT, NGINX_PORT, GATEWAY_PORT, LITELLM_PORT, UPSTREAM_TLS_PORT = (
        p + args.port_offset for p in (UPSTREAM_PORT, NGINX_PORT, GATEWAY_PORT, LITELLM_PORT, UPSTREAM_TLS_PORT))

    if args.baseline_config is not None and not args.baseline:
        args.baseline = args.gateway
    nofile = held_streams.raise_file_limit()
    work = os.path.abspath(args.out)
    for sub in ["logs", "tmp"]:
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    lua = os.path.join(HERE, "post.lua")
    processes = Processes()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    halt_polling = measure.HaltPolling(args.halt_poll_ns)
    try:
        halt_polling.__enter__()
        log(f"idle policy: {measure.idle_policy()}")
        # A target named in --targets and added by --baseline or --litellm runs once.
        names = list(dict.fromkeys([n for n in args.targets.split(",") if n] + (["baseline"] if args.baseline else [])
                                   + (["litellm"] if args.litellm else [])))
        key = "sk-bench-local-only"
        slow_over_tls, tls = None, None
        if args.held_upstream == "tls":
            ca, certificate, key = upstream.make_certificate(work)
            slow_over_tls, tls = (UPSTREAM_TLS_PORT, ca), (UPSTREAM_TLS_PORT, certificate, key)
        mock = start_nginx(processes, work, "mock-upstream",
                           upstream.mock_upstream_conf(UPSTREAM_PORT, nofile, args.stream_pause, tls))
        direct_urls = {k: f"http://127.0.0.1:{UPSTREAM_PORT}{p}/chat/completions" for k, p in UPSTREAM_PATH.items()}
        wait_for(f"http://127.0.0.1:{UPSTREAM_PORT}/v1/models", mock)
        time.sleep(0.5)
        if mock.poll() is not None:
            raise SystemExit(f"the mock upstream exited (port {UPSTREAM_PORT} taken by another run?); see {work}/mock-upstream.log, "
                             f"or pass --port-offset")
        if args.surfaces:
            process, _, token = start_gateway(processes, work, os.path.abspath(args.gateway))
            print(surfaces.compare(lambda: measure.process_tree(process.pid), f"http://127.0.0.1:{GATEWAY_PORT}", token,
                                   work, args, lua, log))
            return
        targets = []
        for name in names:
            if name == "direct":
                targets.append(Target("direct", mock, direct_urls, key))
            elif name == "nginx":
                proxy = start_nginx(processes, work, "nginx-proxy",
                                    upstream.nginx_proxy_conf(NGINX_PORT, UPSTREAM_PORT, nofile))
                urls = {k: u.replace(str(UPSTREAM_PORT), str(NGINX_PORT)) for k, u in direct_urls.items()}
                wait_for(f"http://127.0.0.1:{NGINX_PORT}/v1/models", proxy)
                targets.append(Target("nginx", proxy, urls, key))
            elif name == "skillgate":
                process, urls, token = start_gateway(processes, work, os.path.abspath(args.gateway),
                                                     slow_over_tls=slow_over_tls, preload=args.preload,
                                                     extra_config=args.gateway_config)
                targets.append(Target("skillgate", process, urls, token))
            elif name == "baseline":
                process, urls, token = start_gateway(processes, work, os.path.abspath(args.baseline), "baseline",
                                                     GATEWAY_PORT + 50, extra_config=args.baseline_config)
                targets.append(Target("baseline", process, urls, token))
            elif name == "litellm":
                process, urls = start_litellm(processes, work, args.litellm, key)
                targets.append(Target("litellm", process, urls, key))
            else:
                raise SystemExit(f"unknown target {name}; use direct, nginx, skillgate (and --litellm PATH)")
        for target in targets:
            sanity_check(target)
        time.sleep(1)
        for target in targets:
            target.idle_rss = measure.rss_mb(target.pids())
        connections = [int(c) for c in args.connections.split(",")]
        log(f"load: {args.repeat} × {connections} connections × {args.duration} s per target, round-robin")
        for target in targets:
            measure.run_wrk(target.urls["plain"], BODY["plain"], target.token, 8, args.warmup, lua)
        for rep in range(args.repeat):
            for target in targets:
                with measure.PeakSampler(target.process.pid) as sampler:
                    for c in connections:
                        measure_load(target, c, args, lua)
                target.peak_rss = max(sampler.peak, 0 if target.peak_rss != target.peak_rss else target.peak_rss)
        log(f"first streamed event: {args.probe} sequential paced streams per target, round-robin")
        for _ in range(3):
            for target in targets:
                measure.wait_quiet(args.quiet_percent, args.quiet_max, log)
                ms, complete = measure.first_event_ms(target.urls["paced"], BODY["paced"], target.token,
                                                      max(1, args.probe // 3))
                target.first_event.append(ms)
                target.streams_complete += complete
        gateway = next((t for t in targets if t.name == "skillgate"), None)
        if args.streams and gateway:
            # Over plain HTTP/1.1 each stream holds two of the gateway's descriptors (client and upstream side); over
            # TLS with HTTP/2 the upstream side multiplexes (128 streams a connection), so a stream holds about one.
            # More than the file limit allows cannot be opened, so the count is capped and the report says so.
            per_stream = 2 if args.held_upstream == "plain" else 1.01
            count = min(args.streams, int((nofile - 400) / per_stream))
            log(f"held streams: {count} slow streams through the gateway (asked for {args.streams}; file limit {nofile}; "
                f"upstream {'TLS + HTTP/2' if args.held_upstream == 'tls' else 'HTTP/1.1'})")
            body = open(BODY["slow"], "rb").read()
            with measure.PeakSampler(gateway.process.pid) as sampler:
                gateway.held = asyncio.run(held_streams.hold_streams(gateway.urls["slow"], body, gateway.token, count))
            gateway.held["asked_for"] = args.streams
            gateway.held["upstream"] = "TLS + HTTP/2" if args.held_upstream == "tls" else "HTTP/1.1"
            gateway.held["peak_rss_mb"] = round(sampler.peak, 1)
            gateway.held["rss_after_mb"] = round(measure.rss_mb(gateway.pids()), 1)
            log(f"   {gateway.held}")
        results = report.summarise(targets, args)
        results["idle_policy"] = measure.idle_policy()
        json.dump(results, open(os.path.join(work, "results.json"), "w"), indent=2)
        print(report.render(results))
        log(f"results: {work}/results.json; logs in {work}")
    finally:
        processes.stop_all()
        halt_polling.__exit__(None, None, None)


if __name__ == "__main__":
    main()
