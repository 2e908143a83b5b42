#!/usr/bin/env python3
"""Gives every corpus line without a "split" a fixed one: "dev" or "test", half and half,
stratified by (lang, kind, label) for routing and (lang, category) for skill requests.

Within a stratum the lines are ordered by the SHA-256 of their id and alternate dev, test, dev, ...
(the first line of every other stratum starts with test, so odd strata do not all favour dev).
A line that already has a split keeps it: the split is fixed once assigned. Run it after adding
lines; tune on dev only and report test.

Usage: python3 Tests/Eval/assign-splits.py FILE.jsonl...
"""
import hashlib
import json
import sys


def stratum(item):
    if "label" in item:
        return (item.get("lang"), item.get("kind"), item.get("label"))
    return (item.get("lang"), item.get("category"))


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
        groups = {}
        for item in lines:
            if "split" not in item:
                groups.setdefault(stratum(item), []).append(item)
        for n, key in enumerate(sorted(groups, key=repr)):
            ordered = sorted(groups[key], key=lambda i: hashlib.sha256(i["id"].encode()).hexdigest())
            for k, item in enumerate(ordered):
                item["split"] = "dev" if (k + n) % 2 == 0 else "test"
        with open(path, "w", encoding="utf-8") as f:
            for item in lines:
                f.write(json.dumps(item, ensure_ascii=False) + "\n")
        dev = sum(1 for i in lines if i["split"] == "dev")
        print(f"{path}: {len(lines)} lines, {dev} dev, {len(lines) - dev} test")


if __name__ == "__main__":
    main(sys.argv[1:])
