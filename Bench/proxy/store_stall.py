#!/usr/bin/env python3
"""What the console's polls of a large ledger cost the gateway's other clients (decisions 0086, 0089).

Starts a gateway BINARY on the offline demo model with a state database whose ledger holds `--rows` rows (copies of
one real row, spread over the last 30 days), then for `--seconds`:
- a poller asks `GET /admin/api/usage?by=token&days=30` (the console's Usage view) every `--period` seconds;
- 8 keep-alive clients, each on a thread of its own, ask `GET /v1/models` (answered from memory) over and over;
- newcomers: every `--newcomer-period` seconds a client whose token the gateway has not looked up yet (one of
  `--newcomers` made before the start) sends its first `GET /v1/models`, which needs one read of the token's row.

Prints the usage call's own time, the other clients' latencies and the newcomers' first answers (median, p99, worst).
Run it on two builds to compare; nothing else should run on the machine meanwhile.

    python3 Bench/proxy/store_stall.py .build/release/skillgate [--rows 1000000] [--seconds 10] [--period 0.5]
        [--newcomers 60] [--newcomer-period 0.15]
"""
import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PORT = 18391


def run(binary, args, config):
    return subprocess.run([binary, *args, "--config", config], check=True, capture_output=True, text=True).stdout.strip()


def start(binary, config):
    process = subprocess.Popen([binary, "serve", "--config", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=1)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the gateway did not start")


def stop(process):
    process.terminate()
    process.wait(timeout=30)


def get(connection, path, token):
    begin = time.perf_counter()
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    response.read()
    return response.status, time.perf_counter() - begin


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--period", type=float, default=0.5)
    parser.add_argument("--newcomers", type=int, default=60)
    parser.add_argument("--newcomer-period", type=float, default=0.15)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = tempfile.mkdtemp(prefix="sg-store-stall-")
    try:
        config = os.path.join(work, "skillgate.json")
        with open(config, "w") as f:
            json.dump({"listen": f"127.0.0.1:{PORT}", "state_dir": "state", "providers_dir": os.path.join(repo, "Providers"),
                       "tiers": {"light": ["demo/demo-light"], "strong": ["demo/demo-strong"]}, "default_model": "light",
                       "scenarios": {"chat": {}}, "default_scenario": "chat", "warm_code": False}, f)
        chat = run(binary, ["tokens", "create", "--name", "app"], config)
        admin = run(binary, ["tokens", "create", "--name", "console", "--admin"], config)
        newcomers = [run(binary, ["tokens", "create", "--name", f"newcomer-{i}"], config).splitlines()[-1] for i in range(args.newcomers)]
        gateway = start(binary, config)
        c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        body = json.dumps({"model": "light", "messages": [{"role": "user", "content": "Hello"}]})
        c.request("POST", "/v1/chat/completions", body=body, headers={"Authorization": f"Bearer {chat}", "Content-Type": "application/json"})
        assert c.getresponse().read() and True
        stop(gateway)  # the ledger row is written at the drain
        database = os.path.join(work, "state", "state.sqlite")
        now_ms = int(time.time() * 1000)
        month_ms = 30 * 86_400_000
        columns = [line.split("|")[1] for line in subprocess.run(["sqlite3", database, "PRAGMA table_info(usage_records)"],
                                                                  check=True, capture_output=True, text=True).stdout.split()]
        copied = ", ".join(f"{now_ms} - (n * 7919 % {month_ms})" if name == "occurred_at" else name for name in columns if name != "id")
        subprocess.run(["sqlite3", database,
                        f"WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < {args.rows - 1}) "
                        f"INSERT INTO usage_records ({', '.join(c for c in columns if c != 'id')}) "
                        f"SELECT {copied} FROM usage_records, n"], check=True)
        rows = subprocess.run(["sqlite3", database, "SELECT count(*) FROM usage_records"], check=True, capture_output=True, text=True).stdout.strip()
        print(f"ledger rows: {rows}", flush=True)

        gateway = start(binary, config)
        stop_at = time.perf_counter() + args.seconds
        usage_times, latencies, failures = [], [], []
        lock = threading.Lock()

        def client():
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
            get(connection, "/v1/models", chat)
            mine = []
            while time.perf_counter() < stop_at:
                status, seconds = get(connection, "/v1/models", chat)
                mine.append(seconds)
                if status != 200:
                    failures.append(status)
                time.sleep(0.002)
            with lock:
                latencies.extend(mine)

        def poller():
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
            while time.perf_counter() < stop_at:
                status, seconds = get(connection, "/admin/api/usage?by=token&days=30", admin)
                usage_times.append(seconds)
                if status != 200:
                    failures.append(status)
                time.sleep(args.period)

        firsts = []

        def newcomer():
            for token in newcomers:
                if time.perf_counter() >= stop_at:
                    break
                connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
                status, seconds = get(connection, "/v1/models", token)
                connection.close()
                firsts.append(seconds)
                if status != 200:
                    failures.append(status)
                time.sleep(args.newcomer_period)

        threads = [threading.Thread(target=client) for _ in range(8)] + [threading.Thread(target=poller), threading.Thread(target=newcomer)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stop(gateway)
        ms = lambda s: f"{s * 1000:.1f} ms"
        print(f"usage report: {len(usage_times)} calls, median {ms(statistics.median(usage_times))}, worst {ms(max(usage_times))}")
        print(f"/v1/models on 8 other connections: {len(latencies)} answers, median {ms(statistics.median(latencies))}, "
              f"p99 {ms(percentile(latencies, 0.99))}, worst {ms(max(latencies))}; "
              f"{sum(1 for s in latencies if s > 0.1)} over 100 ms, {sum(s for s in latencies if s > 0.1):.1f} s spent in them")
        if firsts:
            print(f"newcomers' first answers: {len(firsts)}, median {ms(statistics.median(firsts))}, p99 {ms(percentile(firsts, 0.99))}, "
                  f"worst {ms(max(firsts))}; {sum(1 for s in firsts if s > 0.1)} over 100 ms")
        if failures:
            print(f"failed answers: {failures[:10]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
