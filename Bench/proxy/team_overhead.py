#!/usr/bin/env python3
"""What running SkillGate for a team costs on the request path: throughput at 32 connections with the usage
ledger, limits/budgets and Prometheus metrics on, against the same build with them off — on the embedded SQLite
state and on PostgreSQL — measured in one run, round-robin, against the same mock upstream (issue "Running
SkillGate for a team", target: at most 10 % fewer requests per second with them on).

Four gateways run side by side, each with its own state: sqlite-off, sqlite-on, postgres-off, postgres-on.
"on" means `ledger.enabled` and `metrics.enabled` (the defaults), a token with every limit and budget set
(requests and tokens per minute, concurrent requests, day and month budgets — high enough never to refuse,
so every check and count runs) and scenario limits; "off" means both switches off and no limit anywhere.
The CPU column counts the gateway's process and, for PostgreSQL, the database server's processes.

Usage: python3 Bench/proxy/team_overhead.py --gateway .build/release/skillgate --postgres-url URL
       [--duration 5] [--repeat 12] [--connections 32]
Bench/team-overhead.sh installs what is needed, starts a throwaway PostgreSQL and runs this.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import held_streams  # noqa: E402
import measure  # noqa: E402
import bench  # noqa: E402
from bench import Processes, wait_for, BODY, BENCH, log  # noqa: E402

VARIANTS = [("sqlite-off", 18191), ("sqlite-on", 18192), ("postgres-off", 18193), ("postgres-on", 18194)]
HIGH = {"requests_per_minute": 100_000_000, "tokens_per_minute": 1_000_000_000_000, "concurrent_requests": 100_000,
        "budget_usd_per_day": 1_000_000.0, "budget_usd_per_month": 10_000_000.0}


def psql(admin_url, sql):
    pg_bin = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
    subprocess.run([f"/usr/lib/postgresql/{pg_bin}/bin/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", admin_url, "-c", sql],
                   check=True, capture_output=True)


def features(name):
    """The features a variant turns on: `sqlite-on` all, `sqlite-off` none, `sqlite-ledger+metrics` those named."""
    wanted = name.split("-", 1)[1]
    return {"ledger", "metrics", "limits"} if wanted == "on" else set() if wanted == "off" else set(wanted.split("+"))


def start_variant(processes, work, binary, name, port, admin_url):
    on = features(name)
    directory = os.path.join(work, name)
    shutil.rmtree(directory, ignore_errors=True)  # a fresh state per run (token names are unique)
    os.makedirs(directory, mode=0o700)
    config = {"listen": f"127.0.0.1:{port}", "state_dir": os.path.join(directory, "state"),
              "providers_dir": os.path.join(BENCH, "providers"),
              "tiers": {"light": ["mock/mock-model"], "strong": ["mock/mock-model"]},
              "default_model": "light", "default_scenario": "chat",
              "scenarios": {"chat": {"limits": HIGH} if "limits" in on else {}},
              "ledger": {"enabled": "ledger" in on}, "metrics": {"enabled": "metrics" in on},
              "limits": {"shutdown_grace_seconds": 2, "max_connections": 0}}
    if name.startswith("postgres"):
        database = name.replace("-", "_")
        psql(admin_url, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        psql(admin_url, f"CREATE DATABASE {database}")
        config["state"] = {"postgres_url": admin_url.rsplit("/", 1)[0] + "/" + database}
    path = os.path.join(directory, "skillgate.json")
    json.dump(config, open(path, "w"), indent=2)
    create = [binary, "tokens", "create", "--config", path, "--name", "bench"]
    if "limits" in on:
        create += ["--rpm", str(HIGH["requests_per_minute"]), "--tpm", str(HIGH["tokens_per_minute"]),
                   "--concurrent", str(HIGH["concurrent_requests"]),
                   "--budget-day", str(HIGH["budget_usd_per_day"]), "--budget-month", str(HIGH["budget_usd_per_month"])]
    token = subprocess.run(create, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    process = processes.start([binary, "serve", "--config", path], os.path.join(directory, "skillgate.log"))
    wait_for(f"http://127.0.0.1:{port}/healthz", process)
    return {"name": name, "process": process, "token": token, "runs": [],
            "url": f"http://127.0.0.1:{port}/v1/chat/completions"}


def round_order(variants, round_index):
    """The variants in the order round `round_index` runs them: a store's variants next to each other (their paired
    ratio is the figure), the stores' order and the order within each store turning from round to round, so no
    variant always runs first or right after the same neighbour."""
    stores = list(dict.fromkeys(v["name"].split("-", 1)[0] for v in variants))
    stores = stores[round_index % len(stores):] + stores[:round_index % len(stores)]
    order = []
    for store in stores:
        group = [v for v in variants if v["name"].split("-", 1)[0] == store]
        k = round_index % len(group)
        order += group[k:] + group[:k]
    return order


def postgres_pids(data_dir):
    """The benchmark cluster's server processes: its postmaster (from `postmaster.pid`) and its children."""
    if not data_dir:
        return []
    try:
        postmaster = int(open(os.path.join(data_dir, "postmaster.pid")).readline())
    except (OSError, ValueError):
        return []
    return measure.process_tree(postmaster)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gateway", default=os.path.join(BENCH, "..", ".build", "release", "skillgate"))
    parser.add_argument("--postgres-url", required=True, help="an admin URL of a throwaway PostgreSQL")
    parser.add_argument("--postgres-data", help="its data directory, to count the database server's CPU")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=12)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--quiet-percent", type=float, default=15)
    parser.add_argument("--quiet-max", type=float, default=120)
    parser.add_argument("--out", default="/tmp/skillgate-team-overhead")
    parser.add_argument("--variants", default=",".join(n for n, _ in VARIANTS),
                        help="STORE-FEATURES, comma-separated: FEATURES is on, off, or ledger, metrics, limits joined by +")
    args = parser.parse_args()

    nofile = held_streams.raise_file_limit()
    work = bench.work_directory(args.out)
    lua = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post.lua")
    processes = Processes()
    try:
        bench.start_mock_upstream(processes, work, nofile)
        variants = [start_variant(processes, work, os.path.abspath(args.gateway), n, 18191 + i, args.postgres_url)
                    for i, n in enumerate(args.variants.split(","))]
        for v in variants:
            request = urllib.request.Request(v["url"], data=open(BODY["plain"], "rb").read(), method="POST",
                                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {v['token']}"})
            assert json.loads(urllib.request.urlopen(request, timeout=30).read())["object"] == "chat.completion"
            measure.run_wrk(v["url"], BODY["plain"], v["token"], 8, 3, lua)  # warm-up
        log(f"{args.repeat} × {args.duration} s at {args.connections} connections per variant, round-robin")
        for rep in range(args.repeat):
            for v in round_order(variants, rep):
                busy = measure.wait_quiet(args.quiet_percent, args.quiet_max, log)
                pids = measure.process_tree(v["process"].pid)
                db = postgres_pids(args.postgres_data) if v["name"].startswith("postgres") else []
                cpu0, db0 = measure.cpu_seconds(pids), measure.cpu_seconds(db)
                r = measure.run_wrk(v["url"], BODY["plain"], v["token"], args.connections, args.duration, lua)
                cpu, db_cpu = measure.cpu_seconds(pids) - cpu0, measure.cpu_seconds(db) - db0
                n = max(1, r["requests"])
                run = dict(r, rps=r["requests"] / (r["duration_us"] / 1e6), cpu_us=cpu * 1e6 / n, db_cpu_us=db_cpu * 1e6 / n,
                           busy=busy)
                v["runs"].append(run)
                log(f"   {v['name']:13} {run['rps']:8.0f} req/s  gateway {run['cpu_us']:.0f} µs CPU/req  "
                    f"database {run['db_cpu_us']:.0f} µs/req  p50 {run['p50_us']} µs  errors {run['errors']}")
        time.sleep(1.5)  # let the ledgers write their last batch
        ledger = {}
        for v in variants:
            if "ledger" in features(v["name"]):
                out = subprocess.run([os.path.abspath(args.gateway), "usage", "--config",
                                      os.path.join(work, v["name"], "skillgate.json"), "--since", "1h", "--json"],
                                     capture_output=True, text=True)
                ledger[v["name"]] = json.loads(out.stdout)["total"]["requests"] if out.returncode == 0 else None
        med = {v["name"]: {k: statistics.median(run[k] for run in v["runs"]) for k in ("rps", "cpu_us", "db_cpu_us", "p50_us", "p99_us")}
               for v in variants}
        errors = {v["name"]: sum(run["errors"] for run in v["runs"]) for v in variants}
        lines = [f"Team features on vs off: {args.connections} connections, median of {args.repeat} × {args.duration} s",
                 "", "| state | features | req/s | gateway CPU µs/req | database CPU µs/req | p50 µs | p99 µs | errors |",
                 "|---|---|---|---|---|---|---|---|"]
        for v in variants:
            m = med[v["name"]]
            store, enabled = v["name"].split("-", 1)
            lines.append(f"| {store} | {enabled} | {m['rps']:.0f} | {m['cpu_us']:.0f} | {m['db_cpu_us']:.0f} | "
                         f"{m['p50_us']:.0f} | {m['p99_us']:.0f} | {errors[v['name']]} |")
        lines.append("")
        verdict = True
        runs = {v["name"]: v["runs"] for v in variants}
        for store in ("sqlite", "postgres"):
            if f"{store}-off" not in med or f"{store}-on" not in med:
                continue
            off, on = med[f"{store}-off"]["rps"], med[f"{store}-on"]["rps"]
            drop = (off - on) / off * 100
            # The same round's two runs are seconds apart, so the machine's drift (±15 % between minutes here) mostly
            # cancels in their ratio: the median of the per-round drops is the steadier figure, and the verdict's.
            paired = [(a["rps"] - b["rps"]) / a["rps"] * 100 for a, b in zip(runs[f"{store}-off"], runs[f"{store}-on"])]
            paired_drop = statistics.median(paired)
            q1, _, q3 = statistics.quantiles(paired, n=4) if len(paired) > 1 else (paired_drop, 0, paired_drop)
            ok = paired_drop <= 10
            verdict &= ok
            change = f"{drop:.1f} % lower" if drop >= 0 else f"{-drop:.1f} % higher"
            lines.append(f"{store}: with ledger, limits and metrics on, throughput is {paired_drop:.1f} % lower than with them "
                         f"off (median of {len(paired)} rounds' paired drops; quartiles {q1:.1f} to {q3:.1f} %; the medians "
                         f"above: {change}) — {'within' if ok else 'OVER'} the 10 % target; ledger rows written: "
                         f"{ledger.get(store + '-on')}")
        print("\n".join(lines))
        json.dump({"medians": med, "errors": errors, "ledger_rows": ledger, "runs": {v["name"]: v["runs"] for v in variants}},
                  open(os.path.join(work, "results.json"), "w"), indent=2)
        log(f"results: {work}/results.json")
        return 0 if verdict else 1
    finally:
        processes.stop_all()


if __name__ == "__main__":
    sys.exit(main())
