"""Measurements of one target process tree: CPU time and memory from /proc, load from wrk, the first streamed
event from a keep-alive probe, and a wait for a quiet machine (the box may be shared)."""
import http.client
import os
import statistics
import subprocess
import threading
import time
import urllib.parse

HZ = os.sysconf("SC_CLK_TCK")


def process_tree(pid):
    """`pid` and all its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += children.get(p, [])
    return tree


def cpu_seconds(pids):
    """User + system CPU seconds used so far by `pids`."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / HZ


def rss_mb(pids, field="VmRSS"):
    """Summed resident memory (or `VmHWM`, the peak) of `pids`, MiB."""
    kb = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        kb += int(line.split()[1])
        except OSError:
            pass
    return kb / 1024


def _busy_and_total():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    busy = v[0] + v[1] + v[2] + v[5] + v[6]
    return busy, busy + v[3] + v[4]


def machine_busy_percent(interval=1.0):
    b0, t0 = _busy_and_total()
    time.sleep(interval)
    b1, t1 = _busy_and_total()
    return 100.0 * (b1 - b0) / max(1, t1 - t0)


def wait_quiet(limit_percent, max_wait_s, log):
    """Waits (at most `max_wait_s`) until less than `limit_percent` of all cores is busy; returns the last
    reading, which the report shows beside each measurement."""
    waited, busy = 0.0, machine_busy_percent()
    while busy >= limit_percent and waited < max_wait_s:
        if waited == 0:
            log(f"   machine busy ({busy:.0f}% of all cores); waiting up to {max_wait_s:.0f} s")
        time.sleep(2)
        waited += 3
        busy = machine_busy_percent()
    return busy


class PeakSampler:
    """Samples the summed RSS of a process tree every 0.2 s in a thread and keeps the peak."""

    def __init__(self, root_pid):
        self.root, self.peak, self._stop = root_pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        pids, n = process_tree(self.root), 0
        while not self._stop.is_set():
            if n % 25 == 0:
                pids = process_tree(self.root)
            self.peak = max(self.peak, rss_mb(pids))
            n += 1
            self._stop.wait(0.2)


def run_wrk(url, body_file, token, connections, duration_s, lua, threads=1):
    """One wrk run; returns its RESULT fields (requests, duration_us, p50_us, p90_us, p99_us, max_us, errors)."""
    env = dict(os.environ, REQ_BODY=body_file, AUTH_TOKEN=token)
    out = subprocess.run(["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{duration_s}s",
                          "--timeout", "10s", "-s", lua, url], env=env, capture_output=True, text=True,
                         timeout=duration_s + 60)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return {k: int(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
    raise RuntimeError(f"wrk printed no result for {url}: {out.stdout[-400:]} {out.stderr[-400:]}")


class FirstEventProbe:
    """Streaming requests one at a time on one keep-alive connection, timing each from sending it to its first
    `data:` line."""

    def __init__(self, url, body_file, token):
        self.body = open(body_file, "rb").read()
        self.url = urllib.parse.urlsplit(url)
        self.headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token,
                        "Accept": "text/event-stream"}
        self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=30)
        self.complete = 0

    def once(self):
        """Milliseconds to the first event of one stream (None if it had none)."""
        t0 = time.perf_counter()
        self.conn.request("POST", self.url.path, body=self.body, headers=self.headers)
        response = self.conn.getresponse()
        first = None
        while True:
            line = response.readline()
            if not line:
                break
            if line.startswith(b"data:"):
                first = first or time.perf_counter()
                if line.strip() == b"data: [DONE]":
                    self.complete += 1
        response.close()
        if response.getheader("connection", "").lower() == "close":
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=30)
        return (first - t0) * 1000 if first else None

    def close(self):
        self.conn.close()


def first_event_ms(url, body_file, token, n):
    """Median milliseconds from sending a streaming request to its first `data:` line, over `n` requests on
    one keep-alive connection; also returns how many streams ended with `[DONE]`."""
    probe = FirstEventProbe(url, body_file, token)
    firsts = [ms for ms in (probe.once() for _ in range(n)) if ms is not None]
    probe.close()
    return (statistics.median(firsts) if firsts else float("nan")), probe.complete


HALT_POLL = "/sys/module/haltpoll/parameters/guest_halt_poll_ns"
CPUIDLE = "/sys/devices/system/cpu/cpuidle"


def idle_policy():
    """How this machine's CPUs idle: the cpuidle driver and governor and, under the KVM guest's `haltpoll` driver,
    how long an idle vCPU polls before it halts (`guest_halt_poll_ns`; the kernel's default is 200000, some hosts
    set 0). A halted vCPU wakes slowly and cold, which moves every figure at one connection (decision 0046), so
    each report names the policy it was measured under."""
    def read(path):
        try:
            return open(path).read().strip()
        except OSError:
            return None
    return {"driver": read(os.path.join(CPUIDLE, "current_driver")),
            "governor": read(os.path.join(CPUIDLE, "current_governor_ro")) or read(os.path.join(CPUIDLE, "current_governor")),
            "guest_halt_poll_ns": read(HALT_POLL)}


class HaltPolling:
    """Sets `guest_halt_poll_ns` for the length of a run and puts the machine's own value back after it
    (`bench.py --halt-poll-ns`). Needs root and the `haltpoll` cpuidle driver; refuses clearly otherwise."""

    def __init__(self, nanoseconds):
        self.wanted, self.saved = nanoseconds, None

    def __enter__(self):
        if self.wanted is None:
            return self
        try:
            self.saved = open(HALT_POLL).read().strip()
            open(HALT_POLL, "w").write(str(self.wanted))
        except OSError as error:
            raise SystemExit(f"--halt-poll-ns needs the haltpoll cpuidle driver and root ({HALT_POLL}: {error}); "
                             f"run without it to measure the machine as it is")
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            open(HALT_POLL, "w").write(self.saved)
