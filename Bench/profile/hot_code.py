#!/usr/bin/env python3
"""Measures the code a request runs through and writes it as the gateway's hot-code table (decision 0054).

Runs a release BINARY under callgrind behind the benchmark's mock upstream (as callgrind_request.py does), warms it
up, then records every instruction the event-loop threads execute for N whole and N streamed chat requests. The
executed addresses become 64-byte code lines: per function of the executable (by symbol, so the table still places
most functions after a rebuild) and per shared library (by build id). The gateway prefetches those lines when a loop
wakes from a sleep (`warm_code`). Needs valgrind (Bench/install-tools.sh installs it) and binutils (`nm`, `readelf`).

    python3 Bench/profile/hot_code.py .build/release/skillgate [--requests 30] [--out Sources/SkillGateServer/Gateway/HotCode+Table.swift]

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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
sys.path.insert(0, HERE)
import bench  # noqa: E402
from callgrind_request import gateway_under_callgrind, record  # noqa: E402

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
    # One name per address (aliases share their code): the first in sort order.
    by_address = {}
    for (start, name), lines in sorted(functions.items()):
        if start not in by_address:
            by_address[start] = (name, lines)
    named = sorted(by_address.values())
    entries = [f"F {fnv1a64(name):016x} {ranges(lines)}" for name, lines in named]
    entries += [f"L {name} {ident} {ranges(lines)}" for name, ident, lines in libraries]
    return entries, named, libraries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--requests", type=int, default=30, help="measured requests of each kind (whole, streamed)")
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--names", help="also write the functions' names, hashes and line counts to this file")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    options = "--dump-instr=yes --demangle=no --separate-threads=yes"
    with gateway_under_callgrind(binary, options, "sg-hotcode-") as (work, process, token):
        record(process, token, [open(bench.BODY[kind], "rb").read() for kind in ("plain", "stream")], args.warm, args.requests)
        lines_by_object = collections.defaultdict(set)
        loops = 0
        for name in sorted(os.listdir(work)):
            if not re.match(r"callgrind\.out\.\d+-\d+$", name):
                continue
            lines, is_loop = executed_lines(os.path.join(work, name))
            if is_loop:
                loops += 1
                for path, found in lines.items():
                    lines_by_object[path] |= found
        if not loops:
            raise SystemExit("no event-loop thread found in the callgrind dumps")
        entries, named, libraries = table(binary, lines_by_object)
        functions, function_lines = len(named), sum(len(lines) for _, lines in named)
        if args.names:
            open(args.names, "w").write("".join(f"{fnv1a64(n):016x} {len(l):4d} {n}\n" for n, l in named))
        header = (f"// Generated by Bench/profile/hot_code.py from a release build: {args.requests} whole and {args.requests} streamed chat\n"
                  f"// requests, {loops} event-loop threads, {functions} functions ({function_lines} code lines) and "
                  f"{len(libraries)} libraries ({', '.join(n for n, _, _ in libraries)}).\n"
                  "// Functions are named by the FNV-1a hash of their symbol (`--names FILE` lists the names). Regenerate after\n"
                  "// changes to the request path (decision 0054); do not edit by hand.\n")
        body = "\n".join(entries)
        swift = (header + "\nextension HotCode {\n    /// The shipped hot-code table (`HotCodeTable`'s text form).\n"
                 "    static let shippedTable = \"\"\"\n" + body + "\n\"\"\"\n}\n")
        open(args.out, "w").write(swift)
        print(f"{functions} functions ({function_lines} lines), libraries: "
              + ", ".join(f"{n} ({len(l)} lines)" for n, _, l in libraries) + f"; written to {os.path.relpath(args.out)}")


if __name__ == "__main__":
    main()
