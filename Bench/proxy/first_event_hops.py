#!/usr/bin/env python3
"""Where a streamed request's time goes between the hops, read off the wire: the gateway and nginx side by side
(decision 0076).

The bench's mock upstream, its nginx reverse proxy and one gateway run on loopback; paced streams (events 10 ms
apart, as the harness's probe) alternate between the gateway and nginx one at a time, with a stream straight to the
mock every other pair. `tcpdump` records every segment that carries data, with the kernel's timestamps, so nothing in
the processes measured changes. Each stream through a proxy is cut into its hops:

- `request in -> upstream request out`: the client's last request segment reaching the proxy, to the proxy's last
  segment of the upstream request (everything the proxy does with a request: read, check, decide, write);
- `upstream request -> first answer`: the mock's own time, plus any wait for a CPU (on this VM the mock is usually
  woken onto the CPU of the proxy that wrote to it, so it runs only once the proxy blocks);
- `first answer in -> first event out`: the mock's first answer segment (head and first event) to the proxy's first
  segment to the client;
- `later event in -> out`: the same for each later event, 10 ms after the one before (a cold relay each time).

For the direct streams, `request in -> first answer out` is the mock's own figure. The probe's client-side first
event (send to first `data:` line) is printed beside them. Needs root (packet capture) and tcpdump
(`Bench/install-tools.sh tcpdump`).

Usage: python3 Bench/proxy/first_event_hops.py --gateway .build/release/skillgate [--config JSON] [--pairs 100]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import measure  # noqa: E402
import upstream  # noqa: E402

SEGMENT = re.compile(r"(\d+\.\d+) IP 127\.0\.0\.1\.(\d+) > 127\.0\.0\.1\.(\d+): .* length (\d+)")


def capture(path, ports):
    """tcpdump of loopback segments that carry data to or from `ports`, nanosecond timestamps, into `path`."""
    port_filter = " or ".join(f"port {p}" for p in ports)
    return subprocess.Popen(["tcpdump", "-i", "lo", "-n", "-tt", "--time-stamp-precision=nano", "-B", "16384",
                             f"tcp and ({port_filter}) and (tcp[tcpflags] & tcp-push != 0)"],
                            stdout=open(path, "w"), stderr=subprocess.DEVNULL)


def read_segments(path):
    """(time in s, source port, destination port, payload bytes) of each captured segment, in order."""
    segments = []
    for line in open(path):
        m = SEGMENT.match(line)
        if m and int(m[4]) > 0:
            segments.append((float(m[1]), int(m[2]), int(m[3]), int(m[4])))
    return segments


def hops(segments, proxy_port, upstream_port):
    """Each stream through the proxy on `proxy_port`, cut into hops (µs), and the proxy's own ports towards the upstream
    (under `"upstream ports"`). A stream starts with a client segment to the proxy after the proxy's last answer;
    streams never overlap (the probe runs one at a time)."""
    figures = {"request in -> upstream request out": [], "upstream request -> first answer": [],
               "first answer in -> first event out": [], "later event in -> out": []}
    streams, current = [], None
    for seg in segments:
        to_proxy = seg[2] == proxy_port
        if to_proxy and (current is None or current["answered"]):
            current = {"request": [], "upstream_request": [], "upstream_answers": [], "answers": [], "answered": False,
                       "proxy_upstream_port": None}
            streams.append(current)
        if current is None:
            continue
        if to_proxy:
            current["request"].append(seg)
        elif seg[1] == proxy_port:
            current["answers"].append(seg)
            current["answered"] = True
        elif seg[2] == upstream_port and current["request"] and not current["upstream_answers"]:
            current["upstream_request"].append(seg)
            current["proxy_upstream_port"] = seg[1]
        elif seg[1] == upstream_port and seg[2] == current["proxy_upstream_port"]:
            current["upstream_answers"].append(seg)
    for s in streams:
        if not (s["request"] and s["upstream_request"] and s["upstream_answers"] and s["answers"]):
            continue
        request_in = s["request"][-1][0]
        upstream_out = s["upstream_request"][-1][0]
        first_answer = s["upstream_answers"][0][0]
        first_out = s["answers"][0][0]
        figures["request in -> upstream request out"].append(upstream_out - request_in)
        figures["upstream request -> first answer"].append(first_answer - upstream_out)
        figures["first answer in -> first event out"].append(first_out - first_answer)
        later_out = [a[0] for a in s["answers"][1:]]
        for event in s["upstream_answers"][1:]:
            out = next((t for t in later_out if t >= event[0]), None)
            if out is not None and out - event[0] < 0.005:
                figures["later event in -> out"].append(out - event[0])
    result = {name: [v * 1e6 for v in values] for name, values in figures.items()}
    result["upstream ports"] = {s["proxy_upstream_port"] for s in streams if s["proxy_upstream_port"]}
    return result


def direct_hops(segments, upstream_port, proxy_upstream_ports):
    """The mock's own figure for the direct streams: the client's last request segment to the first answer segment."""
    answers, request = [], {}
    for seg in segments:
        if seg[2] == upstream_port and seg[1] not in proxy_upstream_ports:
            request[seg[1]] = seg[0]
        elif seg[1] == upstream_port and seg[2] in request:
            answers.append((seg[0] - request.pop(seg[2])) * 1e6)
    return answers


def median_text(values):
    return f"{statistics.median(values):7.1f}" if values else "      -"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gateway", required=True, help="the skillgate binary")
    parser.add_argument("--config", type=json.loads, default=None, metavar="JSON", help="top-level config keys")
    parser.add_argument("--pairs", type=int, default=100, help="streams through each proxy")
    parser.add_argument("--out", default="/tmp/skillgate-first-event-hops")
    args = parser.parse_args()
    if subprocess.run(["which", "tcpdump"], capture_output=True).returncode != 0:
        sys.exit("tcpdump is missing: run Bench/install-tools.sh tcpdump")
    if os.geteuid() != 0:
        sys.exit("capturing on loopback needs root: run this script as root (or with sudo)")
    processes = bench.Processes()
    try:
        work = bench.work_directory(args.out)
        bench.start_mock_upstream(processes, work, 4096)
        bench.start_nginx(processes, work, "nginx-proxy", upstream.nginx_proxy_conf(bench.NGINX_PORT, bench.UPSTREAM_PORT, 4096))
        _, urls, token = bench.start_gateway(processes, work, os.path.abspath(args.gateway), extra_config=args.config)
        path = bench.UPSTREAM_PATH["paced"] + "/chat/completions"
        probes = {"skillgate": measure.FirstEventProbe(urls["paced"], bench.BODY["paced"], token),
                  "nginx": measure.FirstEventProbe(f"http://127.0.0.1:{bench.NGINX_PORT}{path}", bench.BODY["paced"], token),
                  "direct": measure.FirstEventProbe(f"http://127.0.0.1:{bench.UPSTREAM_PORT}{path}", bench.BODY["paced"], token)}
        for _ in range(3):
            for probe in probes.values():
                probe.once()
        capture_path = os.path.join(work, "segments.txt")
        tcpdump = capture(capture_path, [bench.GATEWAY_PORT, bench.NGINX_PORT, bench.UPSTREAM_PORT])
        time.sleep(1.0)
        client = {name: [] for name in probes}
        for i in range(args.pairs):
            for name in ("skillgate", "nginx") if i % 2 == 0 else ("nginx", "skillgate"):
                client[name].append(probes[name].once())
            if i % 2 == 0:
                client["direct"].append(probes["direct"].once())
        time.sleep(0.5)
        tcpdump.terminate()
        tcpdump.wait()
        for probe in probes.values():
            probe.close()
    finally:
        processes.stop_all()
    segments = read_segments(capture_path)
    gateway = hops(segments, bench.GATEWAY_PORT, bench.UPSTREAM_PORT)
    nginx = hops(segments, bench.NGINX_PORT, bench.UPSTREAM_PORT)
    direct = direct_hops(segments, bench.UPSTREAM_PORT, gateway.pop("upstream ports") | nginx.pop("upstream ports"))
    print(f"{len(gateway['request in -> upstream request out'])} streams through the gateway, "
          f"{len(nginx['request in -> upstream request out'])} through nginx; medians, µs:")
    print(f"{'hop':40} {'nginx':>7} {'gateway':>7} {'added':>7}")
    for name in gateway:
        added = (f"{statistics.median(gateway[name]) - statistics.median(nginx[name]):+7.1f}"
                 if gateway[name] and nginx[name] else "      -")
        print(f"{name:40} {median_text(nginx[name])} {median_text(gateway[name])} {added}")
    print(f"{'direct: request in -> first answer out':40} {median_text(direct)} (the mock alone, {len(direct)} streams)")
    first = {name: [v for v in values if v is not None] for name, values in client.items()}
    print(f"client's first event, ms: direct {statistics.median(first['direct']):.3f}, "
          f"nginx {statistics.median(first['nginx']):.3f} (+{statistics.median(first['nginx']) - statistics.median(first['direct']):.3f}), "
          f"gateway {statistics.median(first['skillgate']):.3f} (+{statistics.median(first['skillgate']) - statistics.median(first['direct']):.3f})")


if __name__ == "__main__":
    main()
