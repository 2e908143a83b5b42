#!/usr/bin/env python3
"""Instructions per proxied request, by shared object, under callgrind (decisions 0047, 0050, 0051).

Starts the benchmark's mock upstream (nginx) and one gateway built from BINARY inside valgrind, warms it with W
plain chat requests, then counts N more and prints the instructions per request of each object (the gateway's own
code, libcurl, glibc, libevent, ...). SQLite is left out by default: the usage ledger's batches land in random
requests' windows and swamp small differences (decision 0047). Needs valgrind (Bench/install-tools.sh installs it).

    python3 Bench/profile/callgrind_request.py BINARY [--requests 200] [--warm 50] [--with-sqlite] [--by object|module|function]
       [--loops-only]

`--by module` splits the gateway's own code by Swift module (each SkillGate module, the standard library's code, the
Swift runtime: reference counting, tasks, exclusivity checks) beside the shared objects; `--by function` lists the
functions with the most instructions of their own (demangle with `swift demangle --simplified`).
"""
import argparse
import collections
import contextlib
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
import bench  # noqa: E402
import upstream  # noqa: E402


def post(port, token, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/v1/chat/completions", body=body,
                       headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    connection.close()
    if response.status != 200:
        raise SystemExit(f"the gateway answered {response.status}")


@contextlib.contextmanager
def gateway_under_callgrind(binary, valgrind_options, prefix, extra_config=None):
    """Starts the benchmark's mock upstream and a gateway built from `binary` inside callgrind (`valgrind_options`
    are callgrind's, e.g. "--dump-instr=no"; `extra_config` is merged into the gateway's config); yields
    (work directory, gateway process, token). Stops both after, and
    removes the work directory with the dumps unless SKILLGATE_KEEP_WORK is set (then it prints where it is)."""
    binary = os.path.abspath(binary)
    work = tempfile.mkdtemp(prefix=prefix)
    for sub in ["logs", "tmp"]:
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    processes = bench.Processes()
    try:
        bench.start_nginx(processes, work, "upstream", upstream.mock_upstream_conf(bench.UPSTREAM_PORT, 4096, 1.0, None))
        wrapper = os.path.join(work, "valgrind-skillgate")
        open(wrapper, "w").write(
            f"#!/bin/sh\nif [ \"$1\" = serve ]; then exec valgrind --tool=callgrind {valgrind_options} "
            f"--callgrind-out-file={work}/callgrind.out {binary} \"$@\"; fi\nexec {binary} \"$@\"\n")
        os.chmod(wrapper, 0o755)
        process, _, token = bench.start_gateway(processes, work, wrapper, extra_config=extra_config)
        yield work, process, token
    finally:
        processes.stop_all()
        if os.environ.get("SKILLGATE_KEEP_WORK"):
            print(f"callgrind dumps kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def record(process, token, bodies, warm, requests):
    """Posts `warm` rounds of `bodies` (one request each), zeroes callgrind's counts, posts `requests` more rounds
    and dumps them (callgrind.out.1, or callgrind.out.1-NN per thread)."""
    for _ in range(warm):
        for body in bodies:
            post(bench.GATEWAY_PORT, token, body)
    subprocess.run(["callgrind_control", "-z", str(process.pid)], check=True, capture_output=True)
    for _ in range(requests):
        for body in bodies:
            post(bench.GATEWAY_PORT, token, body)
    time.sleep(0.5)
    subprocess.run(["callgrind_control", "-d", str(process.pid)], check=True, capture_output=True)


# A function only the server's event-loop threads run (its mangled name): it marks their dumps.
EVENT_LOOP_SYMBOL = "$s13SkillGateHTTP9EventLoopC13runPostedJobsyyF"


def self_cost_by_function(path):
    """Sums callgrind's self cost per function (fn=) and the object (ob=) it is in, from a dump made with --dump-instr=no,
    following its name compression (a name is given the first time its id appears)."""
    names, objects, totals = {}, {}, collections.Counter()
    function, obj, in_call = "?", "?", False
    for line in open(path, errors="replace"):
        key, _, value = line.rstrip("\n").partition("=")
        if key in ("fn", "cfn", "ob", "cob"):
            match = re.match(r"\((\d+)\)(?: (.*))?", value)
            if match:
                table = objects if key in ("ob", "cob") else names
                if match.group(2):
                    table[match.group(1)] = match.group(2)
                if key == "fn":
                    function = names.get(match.group(1), "?")
                elif key == "ob":
                    obj = objects.get(match.group(1), "?")
            continue
        if line.startswith("calls="):
            in_call = True
            continue
        if line and (line[0].isdigit() or line[0] in "+-*"):
            if in_call:
                in_call = False
                continue
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                totals[(function, obj)] += int(parts[1])
    return totals


def self_cost_by_object(path):
    """Sums callgrind's self cost per object (ob=) from a dump."""
    totals = collections.Counter()
    for (_, obj), cost in self_cost_by_function(path).items():
        totals[obj] += cost
    return totals


def module_of(function, obj, binary):
    """The Swift module a function of the gateway's binary belongs to (by its mangled name), the runtime, or the
    shared object it is in."""
    if os.path.basename(obj) != os.path.basename(binary):
        return os.path.basename(obj)
    match = re.match(r"\$s(\d+)(SkillGate\w+)", function)
    if match:
        return match.group(2)[:int(match.group(1))]
    if function.startswith("$s"):
        return "Swift standard library"
    return "Swift runtime (and C in the binary)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warm", type=int, default=50)
    parser.add_argument("--with-sqlite", action="store_true")
    parser.add_argument("--by", default="object", choices=["object", "module", "function"],
                        help="split the instructions by shared object, by Swift module, or by function")
    parser.add_argument("--body", default="plain", choices=["plain", "stream"],
                        help="whole answers, or streamed ones (the mock's events all at once)")
    parser.add_argument("--loops-only", action="store_true",
                        help="count the event loops' threads only: what a request costs on its way through, without the "
                             "log writer's and the ledger's batches, whose timing moves the whole-process figure by up to "
                             "~13k instructions from run to run")
    args = parser.parse_args()
    # Code warming off: under callgrind every request comes to a loop that slept, so each would prefetch the hot code
    # (~8,000 prefetches), which a gateway under load never does; the figures stay comparable with decisions 0047-0052.
    options = "--dump-instr=no" + (" --separate-threads=yes" if args.loops_only else "")
    with gateway_under_callgrind(args.binary, options, "sg-callgrind-", {"warm_code": False}) as (work, process, token):
        record(process, token, [open(bench.BODY[args.body], "rb").read()], args.warm, args.requests)
        if args.loops_only:
            # One dump per thread (callgrind.out.1-NN); the loops' threads are the ones that ran the loop's jobs.
            dumps = [os.path.join(work, p) for p in os.listdir(work) if p.startswith("callgrind.out.1-")]
            dumps = [d for d in dumps if EVENT_LOOP_SYMBOL in open(d, errors="replace").read()]
        else:
            dumps = [os.path.join(work, sorted(p for p in os.listdir(work) if p.startswith("callgrind.out") and p != "callgrind.out")[-1])]
        totals = collections.Counter()
        for dump in dumps:
            if args.by == "object":
                totals.update(self_cost_by_object(dump))
            else:
                for (function, obj), cost in self_cost_by_function(dump).items():
                    totals[module_of(function, obj, args.binary) if args.by == "module" else function] += cost
        rows = [(name, cost) for name, cost in totals.items() if args.with_sqlite or "sqlite" not in name]
        total = sum(cost for _, cost in rows)
        print(f"{args.requests} {'whole answers' if args.body == 'plain' else 'streamed answers'} after {args.warm} to warm up; instructions per request"
              + (f" on the event loops ({len(dumps)} threads)" if args.loops_only else "")
              + ("" if args.with_sqlite else " (SQLite left out)"))
        for name, cost in sorted(rows, key=lambda r: -r[1])[:40 if args.by == "function" else 16]:
            print(f"  {cost / args.requests / 1000:8.1f}k  {os.path.basename(name) if args.by == 'object' else name}")
        print(f"  {total / args.requests / 1000:8.1f}k  in all")

if __name__ == "__main__":
    main()
