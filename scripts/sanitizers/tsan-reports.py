#!/usr/bin/env python3
"""Lists ThreadSanitizer's reports in a `scripts/sanitize.sh thread` log (decisions 0025, 0165).

Since decision 0165 every `Synchronization.Mutex` in the repository is taken with `locked`, which ThreadSanitizer sees,
so no report is expected: each one is listed with the repository's own frames of its two accesses, then printed
whole, to be read as a possible race. Exits 1 when there is any.

    python3 scripts/sanitizers/tsan-reports.py .build-thread/sanitize.log [--root CHECKOUT]
"""
import argparse
import collections
import os
import re
import sys

FRAMES_SHOWN = 3


def own_frames(section, root):
    for m in re.finditer(r"#\d+ \S+ (/\S+?):(\d+)", section):
        path = m.group(1)
        if path.startswith(root) and ("/Sources/" in path or "/Tests/" in path):
            yield f"{os.path.relpath(path, root)}:{m.group(2)}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--root", default=os.getcwd())
    args = parser.parse_args()
    root = os.path.abspath(args.root) + "/"
    reports = open(args.log, encoding="utf-8", errors="replace").read().split("WARNING: ThreadSanitizer:")[1:]
    pairs = collections.Counter()
    for report in reports:
        # A report of a child process (a gateway a process test started) comes indented in its test's output.
        sections = [s for s in re.split(r"\n[ \t]+(?=Read|Write|Previous|Modifying|Atomic|Location|Thread|Mutex|SUMMARY)",
                                        report) if re.match(r"(Read|Write|Previous|Modifying|Atomic)", s)][:2]
        pairs[" / ".join(", ".join(list(own_frames(s, root))[:FRAMES_SHOWN]) or "(no own frame)" for s in sections)] += 1
    print(f"{len(reports)} ThreadSanitizer reports")
    for pair, n in pairs.most_common():
        print(f"  {n:4d}  {pair}")
    for report in reports:
        print("\n==== report:" + report[:6000])
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
