#!/usr/bin/env python3
"""Where a one-connection request's time goes between processes, from the kernel's scheduler (decision 0060).

For each target (direct, nginx, skillgate) it runs `wrk` at one connection against it behind the bench's mock
upstream, records the scheduler for a few seconds (`perf sched record`), and prints from `perf sched timehist`:

- per role (the client `wrk`, the `upstream`, the `proxy`: nginx's worker or the gateway's event loops, and the
  gateway's background writers): runs per request, the median run, and the scheduling delay (woken to running)
  at the median, p99 and max;
- the delayed wake-ups (longer than `--threshold` µs) of the client, the upstream and the proxy, and what held
  their CPU meanwhile, in µs: `<idle>` means the CPU had nothing else to run yet did not run the woken thread (on a
  virtual machine: a halted vCPU the host had not resumed yet), any other name is a thread that ran first.

    python3 Bench/profile/wake_delays.py .build/release/skillgate [--targets direct,nginx,skillgate] [--seconds 2]
        [--threshold 100] [--gateway-config JSON]

Needs root (or perf_event_paranoid ≤ 1), perf (`Bench/install-tools.sh linux-perf`), wrk and nginx with the echo
module (`Bench/install-tools.sh`). The figures move with the machine's hour; compare targets within one run.
"""
import argparse
import collections
import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
import bench  # noqa: E402
import held_streams  # noqa: E402
import upstream  # noqa: E402
from bench import BODY, Processes  # noqa: E402

ROW = re.compile(r"^\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")
CHAIN = ("client", "upstream", "proxy")


def thread_ids(pid):
    """Thread ids of `pid` and of its child processes (nginx's workers)."""
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()]
    tids = set()
    for p in pids:
        try:
            tids.update(int(t) for t in os.listdir(f"/proc/{p}/task"))
        except FileNotFoundError:
            pass
    return tids


def thread_name(tid):
    """The name of thread `tid`, or "" when it has ended."""
    try:
        return open(f"/proc/{tid}/comm").read().strip()
    except OSError:
        return ""


def chain_roles(upstream_pid, proxy_pid, proxy_is_gateway):
    """The role of each thread of the chain, by thread id: `upstream`, `client` (wrk), `proxy` (nginx's workers or the
    gateway's event loops) and, for the gateway's other threads, their own names (`sg-log`, `sg-ledger`, ...)."""
    roles = {tid: "upstream" for tid in thread_ids(upstream_pid)}
    for tid in thread_ids(proxy_pid) if proxy_pid else ():
        name = thread_name(tid) if proxy_is_gateway else ""
        roles[tid] = name if name and not name.startswith("sg-http") else "proxy"
    for pid in subprocess.run(["pgrep", "-x", "wrk"], capture_output=True, text=True).stdout.split():
        for tid in thread_ids(int(pid)):
            roles[tid] = "client"
    return roles


def timehist(data):
    """Rows of `perf sched timehist`: (end time s, cpu, task, tid, wait µs, delay µs, run µs)."""
    out = subprocess.run(["perf", "sched", "timehist", "-i", data], capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        task = m.group(3)
        tid = re.search(r"\[(\d+)(?:/\d+)?\]", task)
        rows.append((float(m.group(1)), m.group(2), task.split("[")[0], int(tid.group(1)) if tid else 0,
                     float(m.group(4)) * 1000, float(m.group(5)) * 1000, float(m.group(6)) * 1000))
    return rows


def analyse(rows, roles, requests, threshold):
    """Per-role figures and, for delayed wake-ups of the chain, what held their CPU (µs by task name)."""
    per_role = collections.defaultdict(lambda: {"runs": [], "delays": []})
    held = collections.Counter()
    delayed = collections.Counter()
    wakes = collections.Counter()
    by_cpu = collections.defaultdict(list)
    for row in rows:
        by_cpu[row[1]].append(row)
    for cpu_rows in by_cpu.values():
        for i, (end, cpu, name, tid, wait, delay, run) in enumerate(cpu_rows):
            role = roles.get(tid)
            if role is None:
                continue
            per_role[role]["runs"].append(run)
            if wait > 0:
                per_role[role]["delays"].append(delay)
            if role not in CHAIN or wait <= 0:
                continue
            wakes[role] += 1
            if delay <= threshold:
                continue
            delayed[role] += 1
            start = end - run / 1e6
            window = (start - delay / 1e6, start)
            j = i - 1
            while j >= 0:
                other_end, _, other, _, _, _, other_run = cpu_rows[j]
                other_start = other_end - other_run / 1e6
                if other_end <= window[0]:
                    break
                overlap = min(window[1], other_end) - max(window[0], other_start)
                if overlap > 0:
                    held[other] += overlap * 1e6
                j -= 1
    figures = {}
    for role, v in per_role.items():
        runs, delays = sorted(v["runs"]), sorted(v["delays"])
        figures[role] = {
            "runs_per_request": round(len(runs) / max(1, requests), 2),
            "median_run_us": round(statistics.median(runs), 1) if runs else None,
            "delay_p50_us": round(delays[len(delays) // 2], 1) if delays else None,
            "delay_p99_us": round(delays[int(len(delays) * 0.99)], 1) if delays else None,
            "delay_max_us": round(delays[-1], 1) if delays else None,
        }
    return figures, dict(wakes), dict(delayed), held


def run_target(name, url, token, roles_of, seconds, threshold, lua, work):
    data = os.path.join(work, f"{name}.sched.data")
    load = subprocess.Popen(["wrk", "-t1", "-c1", f"-d{int(seconds) + 3}s", "--timeout", "10s", "-s", lua, url],
                            env=dict(os.environ, REQ_BODY=BODY["plain"], AUTH_TOKEN=token),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(1)
    roles = roles_of()  # while wrk runs
    subprocess.run(["perf", "sched", "record", "-o", data, "--", "sleep", str(seconds)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    output, _ = load.communicate()
    result = next((dict(kv.split("=") for kv in line.split()[1:]) for line in output.splitlines() if line.startswith("RESULT ")), None)
    if not result:
        raise RuntimeError(f"wrk printed no result for {name}: {output[-300:]}")
    rows = timehist(data)
    span = (rows[-1][0] - rows[0][0]) if rows else seconds
    rps = int(result["requests"]) / (int(result["duration_us"]) / 1e6)
    figures, wakes, delayed, held = analyse(rows, roles, int(rps * span), threshold)
    return {"target": name, "rps": round(rps), "p50_us": int(result["p50_us"]), "p99_us": int(result["p99_us"]),
            "roles": figures, "wakes": wakes, "delayed_wakes": delayed,
            "held_by_us": {k: round(v) for k, v in held.most_common()}}


def report(results, threshold):
    for r in results:
        print(f"\n## {r['target']}: {r['rps']} req/s, p50 {r['p50_us']} µs, p99 {r['p99_us']} µs (wrk, one connection)")
        print("| role | runs/request | median run µs | delay p50 / p99 / max µs |")
        print("|---|---:|---:|---|")
        for role, f in sorted(r["roles"].items()):
            print(f"| {role} | {f['runs_per_request']} | {f['median_run_us']} | "
                  f"{f['delay_p50_us']} / {f['delay_p99_us']} / {f['delay_max_us']} |")
        total = sum(r["wakes"].values())
        late = sum(r["delayed_wakes"].values())
        print(f"\nwake-ups of client, upstream and proxy delayed > {threshold} µs: {late} of {total} "
              f"({100 * late / max(1, total):.2f} %); {r['delayed_wakes']}")
        if r["held_by_us"]:
            print("what held their CPU meanwhile (µs): " +
                  ", ".join(f"{k} {v}" for k, v in list(r["held_by_us"].items())[:10]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gateway", help="a release build of skillgate")
    parser.add_argument("--targets", default="direct,nginx,skillgate")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of scheduler trace per target")
    parser.add_argument("--threshold", type=float, default=100.0, help="µs of scheduling delay that counts as delayed")
    parser.add_argument("--gateway-config", type=json.loads, default=None, metavar="JSON",
                        help="top-level config keys for the gateway, e.g. '{\"ledger\": {\"enabled\": false}}'")
    parser.add_argument("--out", default="/tmp/skillgate-wake-delays")
    args = parser.parse_args()
    for tool in ("perf", "wrk", "nginx"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: run Bench/install-tools.sh linux-perf")
    work = bench.work_directory(args.out)
    nofile = held_streams.raise_file_limit()
    lua = os.path.join(HERE, "..", "proxy", "post.lua")
    processes = Processes()
    results = []
    try:
        mock = bench.start_mock_upstream(processes, work, nofile)
        direct_url = f"http://127.0.0.1:{bench.UPSTREAM_PORT}/v1/chat/completions"
        for name in args.targets.split(","):
            if name == "direct":
                url, token, proxy_pid = direct_url, "sk-bench-local-only", None
            elif name == "nginx":
                proxy = bench.start_nginx(processes, work, "nginx-proxy",
                                          upstream.nginx_proxy_conf(bench.NGINX_PORT, bench.UPSTREAM_PORT, nofile))
                bench.wait_for(f"http://127.0.0.1:{bench.NGINX_PORT}/v1/models", proxy)
                url, token, proxy_pid = direct_url.replace(str(bench.UPSTREAM_PORT), str(bench.NGINX_PORT)), "sk-bench-local-only", proxy.pid
            elif name == "skillgate":
                process, urls, token = bench.start_gateway(processes, work, os.path.abspath(args.gateway),
                                                           extra_config=args.gateway_config)
                url, proxy_pid = urls["plain"], process.pid
            else:
                raise SystemExit(f"unknown target {name}: use direct, nginx or skillgate")
            subprocess.run(["wrk", "-t1", "-c1", "-d2s", "-s", lua, url], env=dict(os.environ, REQ_BODY=BODY["plain"], AUTH_TOKEN=token),
                           capture_output=True)  # warm-up

            roles_of = functools.partial(chain_roles, mock.pid, proxy_pid, name == "skillgate")
            results.append(run_target(name, url, token, roles_of, args.seconds, args.threshold, lua, work))
    finally:
        processes.stop_all()
    report(results, args.threshold)
    json.dump(results, open(os.path.join(work, "wake_delays.json"), "w"), indent=2)
    print(f"\nresults: {work}/wake_delays.json")


if __name__ == "__main__":
    main()
