#!/usr/bin/env python3
"""Measures the code a request runs through and writes it as the gateway's hot-code table (decisions 0054, 0055).

Runs a release BINARY under callgrind in front of an upstream that answers after a delay (delayed_upstream.py), warms
it up, then records every instruction the event-loop threads execute for N whole and N streamed chat requests, in two
phases: callgrind dumps its counts while the gateway waits for the upstream (the request's way out: `request`) and
again after the reply (the answer's way back: `answer`). The executed addresses become 64-byte code lines: per
function of the executable (by symbol, so the table still places most functions after a rebuild) and per shared
library (by build id), per phase. The gateway prefetches a phase's lines when a loop wakes from a sleep into it, and
the answer's while it waits for the upstream (`warm_code`). Needs valgrind (Bench/install-tools.sh installs it) and
binutils (`nm`, `readelf`).

    python3 Bench/profile/hot_code.py .build/release/skillgate [--requests 30] [--delay 0.4] [--out Sources/SkillGateServer/Gateway/HotCode+Table.swift]

Run it after changes to the request path and commit the regenerated table; `skillgate serve` logs how much of the
table it placed ("code warming: N of M hot functions found").
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
sys.path.insert(0, HERE)
import bench  # noqa: E402
from callgrind_request import gateway_under_callgrind, post  # noqa: E402
from delayed_upstream import delayed_upstream  # noqa: E402

LOOP_MARKER = "$s13SkillGateHTTP9EventLoopC13runPostedJobsyyF"
DEFAULT_OUT = os.path.join(HERE, "..", "..", "Sources", "SkillGateServer", "Gateway", "HotCode+Table.swift")


def executed_lines(dump):
    """Per object path: the set of 64-byte lines (object-relative) holding executed instructions, and whether the
    dump is an event loop's thread."""
    objects, current, address, is_loop = {}, None, 0, False
    lines = collections.defaultdict(set)
    for raw in open(dump, errors="replace"):
        raw = raw.rstrip("\n")
        match = re.match(r"(c?ob)=\((\d+)\)(?: (.*))?$", raw)
        if match:
            if match.group(3):
                objects[match.group(2)] = match.group(3)
            if match.group(1) == "ob":
                current = objects.get(match.group(2))
            continue
        if LOOP_MARKER in raw:
            is_loop = True
        if not raw or not (raw[0].isdigit() or raw[0] in "+-*"):
            continue
        field = raw.split()[0]
        if field.startswith("0x"):
            address = int(field, 16)
        elif field[0] in "+-":
            step = int(field[1:], 16) if field[1:].startswith("0x") else int(field[1:])
            address += step if field[0] == "+" else -step
        elif field != "*":
            address = int(field)
        if current:
            lines[current].add(address // 64)
    return lines, is_loop


def function_symbols(binary):
    """(start addresses, rows) of the executable's sized functions, sorted by address."""
    rows = []
    for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW" and int(parts[1], 16) > 0:
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    rows.sort()
    return [r[0] for r in rows], rows


def build_id(path):
    out = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
    match = re.search(r"Build ID: ([0-9a-f]+)", out)
    return match.group(1) if match else None


def fnv1a64(name):
    """HotCodeTable.symbolHash: the 64-bit FNV-1a hash of the name's bytes."""
    value = 0xcbf29ce484222325
    for byte in name.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return value


def ranges(numbers):
    """0,1,2,5 -> '0-2,5' (hexadecimal)."""
    out, numbers = [], sorted(numbers)
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start:x}" if start == prev else f"{start:x}-{prev:x}")
        if n is not None:
            start = prev = n
    return ",".join(out)


def table(binary, lines_by_object):
    starts, rows = function_symbols(binary)
    functions = collections.defaultdict(set)   # (start address, name) -> lines
    libraries = []
    for path, lines in sorted(lines_by_object.items()):
        if os.path.realpath(path) == os.path.realpath(binary):
            for line in lines:
                address = line * 64
                # Every symbol whose code overlaps the line (an instruction may sit in a line a function shares).
                i = bisect.bisect_right(starts, address + 63) - 1
                while i >= 0 and rows[i][0] + rows[i][1] > address:
                    start, size, name = rows[i]
                    if start < address + 64:
                        functions[(start, name)].add(line - start // 64)
                    i -= 1
                    if start + 64 * 1024 < address:
                        break
        elif os.path.exists(path):
            ident = build_id(path)
            if ident:
                libraries.append((os.path.basename(path), ident, lines))
    # One name per address (aliases share their code): the first in sort order that names no other code (local
    # symbols of different objects can share a name, and the gateway finds a function by its name alone).
    addresses_of = collections.defaultdict(set)
    for start, _, name in rows:
        addresses_of[name].add(start)
    by_address = {}
    for (start, name), lines in sorted(functions.items()):
        if start not in by_address and len(addresses_of[name]) == 1:
            by_address[start] = (name, lines)
    named = sorted(by_address.values())
    entries = [f"F {fnv1a64(name):016x} {ranges(lines)}" for name, lines in named]
    entries += [f"L {name} {ident} {ranges(lines)}" for name, ident, lines in libraries]
    return entries, named, libraries


def record_phases(process, token, bodies, warm, requests, delay_s):
    """Posts `warm` rounds of `bodies`, zeroes callgrind's counts, then for each of `requests` more rounds and each
    body: sends the request, dumps while the upstream delays its answer, and dumps again after the reply. Returns the
    phase of each dump in order (callgrind numbers them from 1)."""
    control = lambda *a: subprocess.run(["callgrind_control", *a, str(process.pid)], check=True, capture_output=True)
    for _ in range(warm):
        for body in bodies:
            post(bench.GATEWAY_PORT, token, body)
    control("-z")
    phases, failures = [], []

    def send(body):
        try:
            post(bench.GATEWAY_PORT, token, body)
        except BaseException as error:  # post() raises SystemExit on a status other than 200
            failures.append(error)

    for _ in range(requests):
        for body in bodies:
            request = threading.Thread(target=send, args=(body,))
            request.start()
            time.sleep(delay_s / 2)
            control("-d")
            phases.append("request")
            request.join()
            if failures:
                raise SystemExit(f"a measured request failed ({failures[0]}); see the gateway's log")
            time.sleep(0.1)
            control("-d")
            phases.append("answer")
    return phases


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--requests", type=int, default=30, help="measured requests of each kind (whole, streamed)")
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--min-share", type=float, default=0.1, help="keep a line that ran in at least this share of a "
                        "phase's dumps (whole and streamed requests alternate, so a line of either kind runs in half)")
    parser.add_argument("--delay", type=float, default=0.4, help="seconds the upstream waits before answering; the "
                        "gateway under callgrind must have sent its upstream request within half of it")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--names", help="also write the functions' hashes and names to this file")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    options = "--dump-instr=yes --demangle=no --separate-threads=yes"
    # The gateway's own warming stays off while the profile is taken: the table records the request path, not the
    # warmer (under callgrind every request comes to a loop that slept, so each would warm).
    config = lambda base: {"warm_code": False,
                           "providers": {"mock": {"base_url": f"{base}/v1"}, "mock-stream": {"base_url": f"{base}/stream/v1"}}}
    with delayed_upstream(args.delay) as base, \
            gateway_under_callgrind(binary, options, "sg-hotcode-", config(base)) as (work, process, token):
        phases = record_phases(process, token, [open(bench.BODY[kind], "rb").read() for kind in ("plain", "stream")],
                               args.warm, args.requests, args.delay)
        # Per phase: in how many dumps each (object, line) ran on an event loop; a line kept must have run in at least
        # --min-share of the phase's dumps, so that a dump that caught a stray callback (a timer, a dump that came
        # late) does not put its code into the table.
        seen = {phase: collections.Counter() for phase in ("request", "answer")}
        loops = set()
        per_dump = collections.defaultdict(set)
        for name in sorted(os.listdir(work)):
            match = re.match(r"callgrind\.out\.(\d+)-(\d+)$", name)
            if not match:
                continue
            lines, is_loop = executed_lines(os.path.join(work, name))
            if is_loop:
                loops.add(match.group(2))
                for path, found in lines.items():
                    per_dump[int(match.group(1))] |= {(path, line) for line in found}
        if not loops:
            raise SystemExit("no event-loop thread found in the callgrind dumps")
        for number, found in per_dump.items():
            seen[phases[number - 1]].update(found)
        lines_by_phase = {}
        for phase, counter in seen.items():
            least = max(2, args.min_share * phases.count(phase))
            lines_by_phase[phase] = collections.defaultdict(set)
            for (path, line), count in counter.items():
                if count >= least:
                    lines_by_phase[phase][path].add(line)
        entries, names, counts = [], {}, []
        for phase, lines_by_object in lines_by_phase.items():
            phase_entries, named, libraries = table(binary, lines_by_object)
            entries += [f"P {phase}"] + phase_entries
            names.update((fnv1a64(n), n) for n, _ in named)
            counts.append(f"{phase}: {len(named)} functions ({sum(len(l) for _, l in named)} lines) and "
                          + ", ".join(f"{n} ({len(l)} lines)" for n, _, l in libraries))
        if args.names:
            open(args.names, "w").write("".join(f"{h:016x} {n}\n" for h, n in sorted(names.items(), key=lambda i: i[1])))
        header = (f"// Generated by Bench/profile/hot_code.py from a release build: {args.requests} whole and {args.requests} "
                  f"streamed chat requests,\n// {len(loops)} event-loop threads. {'; '.join(counts)}.\n"
                  "// Functions are named by the FNV-1a hash of their symbol (`--names FILE` lists the names). Regenerate after\n"
                  "// changes to the request path (decisions 0054, 0055); do not edit by hand.\n")
        swift = (header + "\nextension HotCode {\n    /// The shipped hot-code table (`HotCodeTable`'s text form).\n"
                 "    static let shippedTable = \"\"\"\n" + "\n".join(entries) + "\n\"\"\"\n}\n")
        open(args.out, "w").write(swift)
        print("; ".join(counts) + f"; written to {os.path.relpath(args.out)}")


if __name__ == "__main__":
    main()
