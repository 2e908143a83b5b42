#!/usr/bin/env python3
"""A paired A/B of the first streamed event: two gateways side by side behind the bench's mock upstream, and paced
streams (events 10 ms apart, as the harness's probe) that alternate between them one stream at a time, each gateway
on its own keep-alive connection. The machine's drift (a slow hour moves the first event by 0.1-0.2 ms on this VM)
then hits both alike, and the per-pair difference is the figure to read: its median, its quartiles, and how often A
came first. A block-wise round-robin (the harness's probe) cannot separate a 50 µs effect from such drift.

Usage: python3 Bench/proxy/first_event_ab.py --a .build/release/skillgate [--b OTHER_BUILD]
       [--a-config JSON] [--b-config JSON] [--pairs 300] [--load SECONDS]
e.g. one setting, same binary: --a-config '{"warm_code": true}' --b-config '{"warm_code": false}'
`--load S` first runs wrk against each gateway for S seconds at 1 and at 32 connections (as the harness does before
its probe), so that the streams start from a gateway that just served a burst.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import held_streams  # noqa: E402
import measure  # noqa: E402
from bench import BODY, Processes  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="the build under test")
    parser.add_argument("--b", help="the build to compare with (default: the same as --a)")
    parser.add_argument("--a-config", type=json.loads, default=None, metavar="JSON", help="top-level config keys for A")
    parser.add_argument("--b-config", type=json.loads, default=None, metavar="JSON", help="top-level config keys for B")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--load", type=int, default=0, help="seconds of wrk at 1 and at 32 connections per gateway first")
    parser.add_argument("--out", default="/tmp/skillgate-first-event-ab")
    args = parser.parse_args()
    work = bench.work_directory(args.out)
    nofile = held_streams.raise_file_limit()
    lua = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post.lua")
    processes = Processes()
    probes = []
    try:
        bench.start_mock_upstream(processes, work, nofile)
        gateways = []
        for name, binary, port, config in (("A", args.a, bench.GATEWAY_PORT, args.a_config),
                                           ("B", args.b or args.a, bench.GATEWAY_PORT + 50, args.b_config)):
            _, urls, token = bench.start_gateway(processes, work, os.path.abspath(binary), name, port, extra_config=config)
            gateways.append((name, urls, token))
        for _, urls, token in gateways:
            measure.run_wrk(urls["plain"], BODY["plain"], token, 8, 2, lua)  # warm-up
            for c in (1, 32) if args.load else ():
                measure.run_wrk(urls["plain"], BODY["plain"], token, c, args.load, lua)
        time.sleep(1)
        probes = [(name, measure.FirstEventProbe(urls["paced"], BODY["paced"], token)) for name, urls, token in gateways]
        for _, probe in probes:
            probe.once()
        times = {"A": [], "B": []}
        for pair in range(args.pairs):
            for name, probe in probes if pair % 2 == 0 else probes[::-1]:
                times[name].append(probe.once())
        pairs = [(a, b) for a, b in zip(times["A"], times["B"]) if a is not None and b is not None]
        differences = [a - b for a, b in pairs]
        q1, median, q3 = statistics.quantiles(differences, n=4)
        print(f"A = {args.a} {json.dumps(args.a_config or {})}\nB = {args.b or args.a} {json.dumps(args.b_config or {})}\n"
              f"{len(pairs)} pairs of paced streams, alternating{f', after {args.load} s of load at 1 and 32 connections' if args.load else ''}\n"
              f"idle policy: {measure.idle_policy()}\n")
        print(f"first event, median ms: A {statistics.median(a for a, _ in pairs):.3f}  B {statistics.median(b for _, b in pairs):.3f}")
        print(f"A - B per pair, ms: median {median:+.3f} (quartiles {q1:+.3f} to {q3:+.3f}); A first in "
              f"{sum(d < 0 for d in differences)} of {len(differences)} pairs")
        print(f"streams complete: A {probes[0][1].complete}, B {probes[1][1].complete}")
    finally:
        for _, probe in probes:
            probe.close()
        processes.stop_all()


if __name__ == "__main__":
    main()
