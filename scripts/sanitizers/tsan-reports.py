#!/usr/bin/env python3
"""Sorts ThreadSanitizer's reports in a `scripts/sanitize.sh thread` log (decision 0025).

TSan does not see `Synchronization.Mutex`'s futex-based lock as synchronisation (scripts/sanitizers/tsan-mutex.swift),
so it reports accesses that one Mutex guards. A report is put down to that when each of its two accesses has, among
the first frames of its stack that are the repository's own code, one that lies inside a `withLock { ... }` block in
the source (the access itself, or the function it was called from under the lock: a static helper taking the state
`inout`, a connection's method called in `withConnection`'s lock). That both blocks lock the *same* Mutex is not
checked: the pairs of source lines are listed for a reader to confirm. Every other report is printed whole, to be
read: it may be a real race. Exits 1 when there is any such report.

    python3 scripts/sanitizers/tsan-reports.py .build-thread/sanitize.log [--root CHECKOUT]
"""
import argparse
import collections
import os
import re
import sys

FRAMES_LOOKED_AT = 6


def inside_with_lock(path, line, cache={}):
    """Whether `line` of `path` lies inside a block opened by a line that calls `withLock`."""
    if path not in cache:
        try:
            cache[path] = open(path, encoding="utf-8", errors="replace").read().split("\n")
        except OSError:
            cache[path] = None
    lines = cache[path]
    if lines is None or line < 1 or line > len(lines):
        return False
    if "withLock" in lines[line - 1] and "{" in lines[line - 1]:
        return True
    depth = 0
    for i in range(line - 2, max(-1, line - 120), -1):
        text = lines[i]
        depth += text.count("}") - text.count("{")
        if depth < 0:
            if "withLock" in text:
                return True
            if re.search(r"\bfunc\b|\binit\b|\bdeinit\b", text):
                return False
            depth = 0
    return False


def own_frames(section, root):
    for m in re.finditer(r"#\d+ \S+ (/\S+?):(\d+)", section):
        path = m.group(1)
        if path.startswith(root) and ("/Sources/" in path or "/Tests/" in path):
            yield path, int(m.group(2))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--root", default=os.getcwd())
    args = parser.parse_args()
    root = os.path.abspath(args.root) + "/"
    reports = open(args.log, encoding="utf-8", errors="replace").read().split("WARNING: ThreadSanitizer:")[1:]
    under_lock = collections.Counter()
    others = []
    for report in reports:
        # A report of a child process (a gateway a process test started) comes indented in its test's output.
        sections = [s for s in re.split(r"\n[ \t]+(?=Read|Write|Previous|Modifying|Atomic|Location|Thread|Mutex|SUMMARY)", report) if re.match(r"(Read|Write|Previous|Modifying|Atomic)", s)][:2]
        locked = []
        for section in sections:
            frames = list(own_frames(section, root))[:FRAMES_LOOKED_AT]
            hit = next(((p, l) for p, l in frames if inside_with_lock(p, l)), None)
            locked.append(hit)
        if len(locked) == 2 and all(locked):
            under_lock[tuple(sorted(f"{os.path.relpath(p, root)}:{l}" for p, l in locked))] += 1
        else:
            others.append(report)
    print(f"{len(reports)} reports: {sum(under_lock.values())} with both accesses under a Mutex's withLock, {len(others)} to read")
    for pair, n in under_lock.most_common():
        print(f"  {n:4d}  {' / '.join(pair)}")
    for report in others:
        print("\n==== to read:" + report[:6000])
    return 1 if others else 0


if __name__ == "__main__":
    sys.exit(main())
