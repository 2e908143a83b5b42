#!/usr/bin/env python3
"""A paired A/B of two skillgate builds: both run side by side behind the bench's mock upstream, and short wrk runs
alternate between them (which one goes first alternates too), so the machine's drift, which moves a 10 s run by
±15 % on a shared 2-core VM, hits both alike. Prints each build's medians and the median of the per-round A/B
throughput ratios with their quartiles: the figure to read.

Usage: python3 Bench/proxy/ab.py --a .build/release/skillgate --b /path/to/previous/skillgate
       [--rounds 12] [--duration 3] [--connections 1,32] [--body plain|stream|paced] [--a-preload LIB] [--b-preload LIB]
       [--a-config JSON] [--b-config JSON]
An allocator A/B: the same binary as A and B, with --a-preload /usr/lib/x86_64-linux-gnu/libmimalloc.so.2.
A setting's A/B: the same binary, e.g. --a-config '{"ledger": {"enabled": false}}' (top-level config keys merged in).
Bench/run.sh installs wrk and nginx (with the echo module) first; run it once if they are missing.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import held_streams  # noqa: E402
import measure  # noqa: E402
from bench import BODY, Processes  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="the build under test")
    parser.add_argument("--b", required=True, help="the build to compare with")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--duration", type=int, default=3, help="seconds of each run")
    parser.add_argument("--connections", default="1,32")
    parser.add_argument("--out", default="/tmp/skillgate-ab")
    parser.add_argument("--a-preload", help="a shared library in A's LD_PRELOAD (e.g. another malloc)")
    parser.add_argument("--b-preload", help="a shared library in B's LD_PRELOAD")
    parser.add_argument("--a-config", type=json.loads, default=None, metavar="JSON", help="top-level config keys for A")
    parser.add_argument("--b-config", type=json.loads, default=None, metavar="JSON", help="top-level config keys for B")
    parser.add_argument("--body", default="plain", choices=["plain", "stream", "paced"],
                        help="the request: a whole answer, a stream of 19 events sent at once by the mock, or paced 10 ms apart")
    args = parser.parse_args()
    work = bench.work_directory(args.out)
    nofile = held_streams.raise_file_limit()
    lua = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post.lua")
    connections = [int(c) for c in args.connections.split(",")]
    processes = Processes()
    try:
        bench.start_mock_upstream(processes, work, nofile)
        builds = []
        for name, binary, port, preload, config in (("A", args.a, bench.GATEWAY_PORT, args.a_preload, args.a_config),
                                                    ("B", args.b, bench.GATEWAY_PORT + 50, args.b_preload, args.b_config)):
            process, urls, token = bench.start_gateway(processes, work, os.path.abspath(binary), name, port, preload=preload,
                                                       extra_config=config)
            builds.append((name, process, urls[args.body], token))
        for _, _, url, token in builds:
            measure.run_wrk(url, BODY[args.body], token, 8, 2, lua)  # warm-up
        runs = {(name, c): [] for name, *_ in builds for c in connections}
        for round_index in range(args.rounds):
            for c in connections:
                for name, process, url, token in builds if round_index % 2 == 0 else builds[::-1]:
                    pids = measure.process_tree(process.pid)
                    cpu0 = measure.cpu_seconds(pids)
                    r = measure.run_wrk(url, BODY[args.body], token, c, args.duration, lua)
                    n = max(1, r["requests"])
                    runs[(name, c)].append({"rps": r["requests"] / (r["duration_us"] / 1e6), "p50_us": r["p50_us"],
                                            "p99_us": r["p99_us"], "cpu_us": (measure.cpu_seconds(pids) - cpu0) * 1e6 / n})
        describe = lambda path, lib, config: (path + (f" (LD_PRELOAD={lib})" if lib else "")
                                                  + (f" with {json.dumps(config)}" if config else ""))
        print(f"A = {describe(args.a, args.a_preload, args.a_config)}\nB = {describe(args.b, args.b_preload, args.b_config)}\n{args.rounds} rounds × {args.duration} s, alternating, {args.body} requests\n"
              f"idle policy: {measure.idle_policy()}\n")
        print("| connections | build | req/s | p50 µs | p99 µs | CPU µs/req |\n|---|---|---:|---:|---:|---:|")
        for c in connections:
            for name in ("A", "B"):
                m = {k: statistics.median(run[k] for run in runs[(name, c)]) for k in ("rps", "p50_us", "p99_us", "cpu_us")}
                print(f"| {c} | {name} | {m['rps']:.0f} | {m['p50_us']:.0f} | {m['p99_us']:.0f} | {m['cpu_us']:.0f} |")
        print()
        for c in connections:
            ratios = [a["rps"] / b["rps"] for a, b in zip(runs[("A", c)], runs[("B", c)])]
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            print(f"{c} connection(s): A/B req/s, median of {len(ratios)} paired rounds {statistics.median(ratios):.3f} "
                  f"(quartiles {q1:.3f}–{q3:.3f})")
            # The tail, paired the same way: A's p99 minus B's in each round (negative: A's tail is shorter).
            tails = [a["p99_us"] - b["p99_us"] for a, b in zip(runs[("A", c)], runs[("B", c)])]
            t1, _, t3 = statistics.quantiles(tails, n=4)
            shorter = sum(1 for t in tails if t < 0)
            print(f"{c} connection(s): A−B p99, median of {len(tails)} paired rounds {statistics.median(tails):+.0f} µs "
                  f"(quartiles {t1:+.0f} to {t3:+.0f}); A's shorter in {shorter} of {len(tails)}")
            json.dump({"connections": c, "A": runs[("A", c)], "B": runs[("B", c)]},
                      open(os.path.join(args.out, f"rounds-{c}.json"), "w"), indent=1)
    finally:
        processes.stop_all()


if __name__ == "__main__":
    main()
