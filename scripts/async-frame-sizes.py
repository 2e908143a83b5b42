#!/usr/bin/env python3
"""The largest async frames in a SkillGate binary: every async function's pointer record (its `...Tu` symbol)
holds the size of the context the task allocator gives it, and a task keeps the slab of its largest frame until
it ends — so these sizes are memory every held stream pays (decision 0033).

Usage: scripts/async-frame-sizes.py [BINARY] [N]   (defaults: .build/release/skillgate, 20)
"""
import re
import struct
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/skillgate"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
symbols = [(int(f[0], 16), f[2]) for f in (line.split() for line in
           subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines())
           if len(f) == 3 and f[2].endswith("Tu") and "SkillGate" in f[2]]
sections = []
for line in subprocess.run(["readelf", "-S", "-W", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
    if m and int(m.group(1), 16):
        sections.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)))
data = open(binary, "rb").read()
sizes = []
for address, name in symbols:
    for start, offset, size in sections:
        if start <= address < start + size:
            # struct AsyncFunctionPointer { int32 relative function; uint32 expected context size }
            sizes.append((struct.unpack_from("<iI", data, offset + address - start)[1], name))
            break
sizes.sort(reverse=True)
names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(n for _, n in sizes[:count]),
                       capture_output=True, text=True).stdout.splitlines()
for (size, _), name in zip(sizes[:count], names):
    print(f"{size:6d}  {name.replace('async function pointer to ', '')}")
