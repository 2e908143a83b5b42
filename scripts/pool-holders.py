#!/usr/bin/env python3
"""Who holds the shared task pool's threads while the Swift tests run in parallel (decisions 0159 and 0166).

Swift's global executor on Linux has one thread per core (two here). A test that blocks one of them, or computes on it
for seconds, delays every other test's task. This script runs the suite as `swift test` does. Every `--interval`
seconds it samples every thread's stack of the test process with `eu-stack` (Debian `elfutils`). It keeps the pool's
threads that are running a task (`swift_job_run` under Dispatch's worker; a test's own executor, `offThePool`, is not
the pool). It prints how many samples held each test frame, and the longest stretches in which one thread ran one
test, with the frames it was in. A stretch of seconds is a test (or the code it calls) holding a pool thread.

    swift build --build-tests
    python3 scripts/pool-holders.py [--interval 1] [--top 25] [--each] [-- extra swift test arguments]

With SKILLGATE_POSTGRES_URL and SKILLGATE_E5_URL set as scripts/test.sh sets them, the suite runs as in CI. Each sample
stops the test process while its stacks are read (about a second at the suite's width of 32, far longer with thousands
of threads), so tests with second-long timers can fail while it samples: a diagnostic to run by hand, not a test.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import time

# A task run by the global executor, which on Linux is Dispatch's default-QoS root queue (the shared pool); a task on
# an executor of its own (`swift_job_run_on_task_executor`, the tests' `offThePool`) is not on it.
TASK_FRAME = re.compile(r"\bswift_job_run$")
POOL_FRAME = re.compile(r"_dispatch_worker_thread|_dispatch_root_queue_drain")
# A frame of the test code: a symbol in one of the test modules (SkillGate...Tests) or a Swift Testing test body.
TEST_FRAME = re.compile(r"\$s\d*\w*?Tests\d|Tests\.")


def demangle(names):
    """Demangles a list of symbols with `swift demangle --simplified`, one per line, order kept."""
    if not names:
        return []
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def sample(pid):
    """Every thread's frames (innermost first) as {tid: [symbol, ...]}, from one `eu-stack` run."""
    run = subprocess.run(["eu-stack", "-p", str(pid)], capture_output=True, text=True, timeout=60)
    threads, current = {}, None
    for line in run.stdout.splitlines():
        if line.startswith("TID "):
            current = int(line[4:].rstrip(":"))
            threads[current] = []
        elif current is not None and line.startswith("#"):
            parts = line.split(None, 2)
            threads[current].append(parts[2] if len(parts) > 2 else "?")
    return threads


def task_threads(threads):
    """The threads of the shared pool running a task: for each, its outermost test frame (or, without one, the task's
    outermost frame) and the frames above it."""
    running = {}
    for tid, frames in threads.items():
        if not any(TASK_FRAME.search(f) for f in frames) or not any(POOL_FRAME.search(f) for f in frames):
            continue
        job_index = next(i for i, f in enumerate(frames) if TASK_FRAME.search(f))
        # The outermost test frame: the test function (or its closure) that holds the thread, whatever it calls.
        test_index = next((i for i in range(job_index - 1, -1, -1) if TEST_FRAME.search(frames[i])), None)
        # Without a test frame (a task the gateway under test started), the task's outermost frame names it.
        key_index = test_index if test_index is not None else max(job_index - 1, 0)
        running[tid] = (frames[key_index], frames[:key_index + 1])
    return running


def test_process(root_pid):
    """The pid of the xctest process under `swift test` (the root's descendant running an .xctest binary), if any."""
    out = subprocess.run(["pgrep", "-f", r"[.]xctest"], capture_output=True, text=True).stdout.split()
    for pid in map(int, out):
        ancestor = pid
        while ancestor > 1:
            if ancestor == root_pid:
                return pid
            try:
                with open(f"/proc/{ancestor}/stat") as stat:
                    ancestor = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                break
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between samples (default 1)")
    parser.add_argument("--top", type=int, default=25, help="lines to print per list (default 25)")
    parser.add_argument("--min-seconds", type=float, default=3.0, help="shortest stretch printed (default 3 s)")
    parser.add_argument("rest", nargs="*", help="more `swift test` arguments, after --")
    parser.add_argument("--each", action="store_true", help="also print every sample's busy pool threads")
    args = parser.parse_args()
    if shutil.which("eu-stack") is None:
        sys.exit("error: eu-stack is missing; install Debian's elfutils (apt-get install -y elfutils) and retry")

    log_path = os.path.join(".build", "pool-holders.log")
    samples = []  # (seconds since start, test process pid, {tid: (key frame, frames)})
    started = time.monotonic()
    with open(log_path, "wb") as log:
        test = subprocess.Popen(["swift", "test", "--skip-build", "--parallel", *args.rest], stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        while test.poll() is None:
            pid = test_process(test.pid)
            if pid is not None:
                try:
                    samples.append((time.monotonic() - started, pid, task_threads(sample(pid))))
                except subprocess.TimeoutExpired:
                    pass
            time.sleep(args.interval)
    print(f"swift test exited {test.returncode} after {time.monotonic() - started:.0f} s; its output: {log_path}")

    if args.each:
        for at, pid, running in samples:
            names = demangle([frame for tid in sorted(running) for frame in (running[tid][0], running[tid][1][0])])
            pairs = [f"{names[i][:110]}  [in {names[i + 1][:60]}]" for i in range(0, len(names), 2)]
            print(f"{at:6.1f} s  {len(running)} busy" + "".join(f"\n          {p}" for p in pairs))

    # Stretches: consecutive samples in which one thread (of one test process) ran the same frame.
    stretches, open_ = [], {}  # open_: (pid, tid, frame) -> (first seen, last seen, frames)
    for at, pid, running in samples:
        seen = {(pid, tid, frame): frames for tid, (frame, frames) in running.items()}
        for key in [key for key in open_ if key not in seen]:
            first, last, frames = open_.pop(key)
            stretches.append((last - first, first, key, frames))
        for key, frames in seen.items():
            open_[key] = (open_[key][0] if key in open_ else at, at, frames)
    stretches += [(last - first, first, key, frames) for key, (first, last, frames) in open_.items()]

    # Samples per key frame: with samples `interval` apart, roughly how long each test held a pool thread in all.
    held = collections.Counter(frame for _, _, running in samples for frame, _ in running.values())
    if held:
        gaps = [b[0] - a[0] for a, b in zip(samples, samples[1:])]
        spacing = sorted(gaps)[len(gaps) // 2] if gaps else args.interval
        top = held.most_common(args.top)
        names = demangle([frame for frame, _ in top])
        print(f"pool threads seen per test frame (samples; median spacing {spacing:.2f} s):")
        for (frame, count), name in zip(top, names):
            print(f"  {count:4d}  {name[:160]}")

    busy = collections.Counter(min(len(running), 3) for _, _, running in samples)
    print(f"{len(samples)} samples; task threads busy per sample: "
          + ", ".join(f"{n}{'+' if n == 3 else ''}: {busy[n]}" for n in sorted(busy)))
    stretches.sort(key=lambda s: -s[0])
    shown = [s for s in stretches if s[0] >= args.min_seconds][:args.top]
    for length, first, (pid, tid, frame), frames in shown:
        names = demangle([frame] + frames[:8])
        print(f"\n{length:5.1f} s from {first:6.1f} s, thread {tid}: {names[0]}")
        for name in names[1:]:
            print(f"        {name[:200]}")
    if not shown:
        print(f"no thread ran one test's frame for {args.min_seconds:g} s or more")


if __name__ == "__main__":
    main()
