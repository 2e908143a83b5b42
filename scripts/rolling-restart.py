#!/usr/bin/env python3
"""A rolling restart over `reuse_port`, measured (decision 0145): how many requests fail while one gateway hands its port
to the next.

Starts gateway 1 on the default config's offline demo model with `reuse_port` (its own state directory and token), runs
clients against it (new connections for every request, and keep-alive connections), then `--restarts` times: starts
the next gateway on the same port, waits until it listens, sends the old one SIGTERM and waits for it to exit. Prints
every outcome seen (status codes, connection errors) and the old gateways' exit codes. Nothing is retried: a client
that gets an error counts it and goes on.

    python3 scripts/rolling-restart.py .build/release/skillgate [--restarts 5] [--port 18050] [--fresh 3] [--keepalive 2]

On Linux, connections the kernel completes for the old process in the instant between its last accept and the close
of its socket are reset unless `net.ipv4.tcp_migrate_req` is 1 (kernel 5.14 and later), which hands them to another
socket of the group; the script prints the setting.
"""
import argparse
import collections
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--port", type=int, default=18050)
    parser.add_argument("--fresh", type=int, default=3, help="clients opening a new connection for every request")
    parser.add_argument("--keepalive", type=int, default=2, help="clients reusing one connection while it stays open")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between restarts")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="sg-rolling-")
    try:
        run(binary, work, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(binary, work, args):
    config = json.load(open(os.path.join(ROOT, "Config", "skillgate.json")))
    config.update({"listen": f"127.0.0.1:{args.port}", "reuse_port": True, "state_dir": f"{work}/state",
                   "key_file": f"{work}/state/keys/keys.json", "providers_dir": os.path.join(ROOT, "Providers"),
                   "console": {"enabled": False}})
    config["limits"]["shutdown_grace_seconds"] = 10
    config_path = os.path.join(work, "config.json")
    json.dump(config, open(config_path, "w"))
    created = subprocess.run([binary, "tokens", "create", "--name", "rolling", "--config", config_path],
                             capture_output=True, text=True, check=True)
    token = next(line for line in created.stdout.split() if line.startswith("sgk_"))
    body = json.dumps({"model": "fast", "messages": [{"role": "user", "content": "hi"}]}).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def start(index):
        log = open(os.path.join(work, f"gateway-{index}.log"), "w")
        process = subprocess.Popen([binary, "serve", "--config", config_path], stdout=log, stderr=log)
        deadline = time.time() + 30
        while time.time() < deadline:
            # Its "listening" line: its sockets are in the port's group (a request could still reach the old one).
            if '"event":"listening"' in open(log.name).read():
                return process
            if process.poll() is not None:
                raise SystemExit(f"gateway {index} exited with {process.returncode}: {open(log.name).read()[-500:]}")
            time.sleep(0.02)
        raise SystemExit(f"gateway {index} did not start")

    outcomes = collections.Counter()
    lock = threading.Lock()
    stop = threading.Event()

    def note(kind, outcome):
        with lock:
            outcomes[f"{kind} {outcome}"] += 1

    def fresh_client():
        while not stop.is_set():
            try:
                connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=15)
                connection.request("POST", "/v1/chat/completions", body, headers)
                response = connection.getresponse()
                response.read()
                note("new connection", response.status)
                connection.close()
            except Exception as error:  # noqa: BLE001 - every failure is an outcome to count
                note("new connection", type(error).__name__)

    def keepalive_client():
        connection = None
        while not stop.is_set():
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=15)
                connection.request("POST", "/v1/chat/completions", body, headers)
                response = connection.getresponse()
                response.read()
                note("keep-alive", response.status)
                if (response.getheader("connection") or "").lower() == "close":
                    connection.close()
                    connection = None
            except Exception as error:  # noqa: BLE001
                note("keep-alive", type(error).__name__)
                connection = None

    current = start(0)
    clients = [threading.Thread(target=fresh_client) for _ in range(args.fresh)]
    clients += [threading.Thread(target=keepalive_client) for _ in range(args.keepalive)]
    for client in clients:
        client.start()
    exits = []
    for index in range(1, args.restarts + 1):
        time.sleep(args.interval)
        following = start(index)
        time.sleep(0.2)
        current.send_signal(signal.SIGTERM)
        exits.append(current.wait(timeout=30))
        current = following
    time.sleep(args.interval)
    stop.set()
    for client in clients:
        client.join()
    current.send_signal(signal.SIGTERM)
    exits.append(current.wait(timeout=30))
    try:
        migrate = open("/proc/sys/net/ipv4/tcp_migrate_req").read().strip()
    except OSError:
        migrate = "unknown"
    failed = sum(count for outcome, count in outcomes.items() if not outcome.endswith(" 200"))
    print(f"{args.restarts} restarts, net.ipv4.tcp_migrate_req={migrate}, gateways' exit codes {exits}")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome}: {count}")
    print(f"failed: {failed} of {sum(outcomes.values())}")


if __name__ == "__main__":
    main()
