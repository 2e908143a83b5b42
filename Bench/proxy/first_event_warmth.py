#!/usr/bin/env python3
"""How much of the first streamed event's added time is the gateway running cold (decision 0056).

One gateway behind the bench's mock upstream. Paced streams (events 10 ms apart, as the harness's probe) are timed to
their first event in blocks of three kinds, round-robin:
- `cold`: nothing else runs, so each stream's request comes to a loop that idled ~10 ms (as in the harness's probe);
- `warm`: the same while a separate process sends the gateway a whole chat request every `--period` seconds, so the
  request path has run a moment before each stream's request (its code and data, the TLBs and branch predictors);
- `direct`: the same streams straight to the mock upstream.
The `warm - cold` difference is what the cold CPU costs; `warm - direct` is what the gateway adds even when warm. A
change that only prefetches (code warming) can at best close the first; only a shorter path closes the second.

Usage: python3 Bench/proxy/first_event_warmth.py --gateway .build/release/skillgate [--config JSON]
       [--rounds 4] [--streams 25] [--period 0.001]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import measure  # noqa: E402

# The keep-warm client: whole chat requests on one keep-alive connection, one every PERIOD seconds. A process of its
# own, so that it does not hold the probe's interpreter lock.
WARMER = r'''
import http.client, sys, time
port, body_file, token, period = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
body = open(body_file, "rb").read()
headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
while True:
    connection.request("POST", "/v1/chat/completions", body=body, headers=headers)
    connection.getresponse().read()
    time.sleep(period)
'''


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values):.3f} ms (quartiles {q[0]:.3f} to {q[2]:.3f}), {len(values)} streams"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gateway", required=True, help="the skillgate binary")
    parser.add_argument("--config", type=json.loads, default=None, metavar="JSON", help="top-level config keys")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--streams", type=int, default=25, help="streams per block (direct: half as many)")
    parser.add_argument("--period", type=float, default=0.001, help="seconds the keep-warm client sleeps between requests")
    parser.add_argument("--out", default="/tmp/skillgate-first-event-warmth")
    args = parser.parse_args()
    processes = bench.Processes()
    try:
        work = bench.work_directory(args.out)
        bench.start_mock_upstream(processes, work, 4096)
        _, urls, token = bench.start_gateway(processes, work, os.path.abspath(args.gateway), extra_config=args.config)
        gateway = measure.FirstEventProbe(urls["paced"], bench.BODY["paced"], token)
        direct = measure.FirstEventProbe(f"http://127.0.0.1:{bench.UPSTREAM_PORT}{bench.UPSTREAM_PATH['paced']}/chat/completions",
                                         bench.BODY["paced"], token)
        for _ in range(3):
            gateway.once()
            direct.once()
        warmer_file = os.path.join(work, "keep_warm_client.py")
        open(warmer_file, "w").write(WARMER)
        figures = {"cold": [], "warm": [], "direct": []}
        for round_number in range(args.rounds):
            for kind in ("cold", "warm", "direct"):
                warmer = None
                if kind == "warm":
                    warmer = subprocess.Popen([sys.executable, warmer_file, str(bench.GATEWAY_PORT), bench.BODY["plain"],
                                               token, str(args.period)])
                    time.sleep(0.5)
                probe = direct if kind == "direct" else gateway
                count = args.streams // 2 if kind == "direct" else args.streams
                figures[kind] += [ms for ms in (probe.once() for _ in range(count)) if ms is not None]
                if warmer:
                    warmer.kill()
                    warmer.wait()
            print(f"round {round_number + 1} of {args.rounds} done", flush=True)
        gateway.close()
        direct.close()
        for kind, values in figures.items():
            print(f"{kind:>6}: {quartiles(values)}")
        median = {kind: statistics.median(values) for kind, values in figures.items()}
        print(f"added, cold: {median['cold'] - median['direct']:+.3f} ms; added, warm: {median['warm'] - median['direct']:+.3f} ms; "
              f"what running cold costs (cold - warm): {median['cold'] - median['warm']:+.3f} ms")
    finally:
        processes.stop_all()


if __name__ == "__main__":
    main()
