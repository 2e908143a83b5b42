#!/usr/bin/env python3
"""Instructions on a streamed request's way to its first event, in the two hops `Bench/proxy/first_event_hops.py`
times off the wire (decision 0080): the request's head read to the upstream request sent, and the upstream's first
answer to the client's first send.

Runs a release BINARY under callgrind (`--dump-before=send`: a dump before every `send`, so the dumps split at the
gateway's writes) in front of an upstream that answers each streamed request after `--delay` seconds with its head and
first event, then the rest `--delay` seconds later. On each event-loop thread, the dump that holds the request's
reading and the upstream request's start is the first hop; the next dump, the first answer's relay. Prints the
instructions per request of each hop and the functions with the most of their own (demangle with
`swift demangle --simplified`). Code warming is off, as in the other callgrind scripts (under callgrind every request
comes to a loop that slept).

    python3 Bench/profile/first_event_path.py .build/release/skillgate [--requests 10] [--warm 5] [--functions 40]
"""
import argparse
import collections
import http.server
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import upstream  # noqa: E402
from callgrind_request import EVENT_LOOP_SYMBOL, gateway_under_callgrind, post, self_cost_by_function  # noqa: E402
from delayed_upstream import serving  # noqa: E402

# Functions only the first hop runs on a loop (mangled): reading a request's head, and starting its upstream request
# on the own HTTP/1.1 client.
REQUEST_MARKERS = ("readHead", "HTTP1EngineC5start")


def split_upstream(delay_s):
    """A handler class answering a streamed chat request with its head and first event after `delay_s`, then the other
    events and the end `delay_s` later (chunked server-sent events, as the benchmark's mock)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            time.sleep(delay_s)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            events = [f"data: {payload}\n\n".encode() for payload in upstream.stream_events()]
            chunk = lambda event: f"{len(event):x}\r\n".encode() + event + b"\r\n"
            self.wfile.write(chunk(events[0]))
            self.wfile.flush()
            time.sleep(delay_s)
            self.wfile.write(b"".join(chunk(e) for e in events[1:]) + b"0\r\n\r\n")
    return Handler


def hop_dumps(work, requests):
    """The (first hop, first answer) dump pairs of the last `requests` requests, over the event-loop threads."""
    by_thread = collections.defaultdict(list)
    for name in os.listdir(work):
        match = re.match(r"callgrind\.out\.(\d+)-(\d+)$", name)
        if match:
            by_thread[match.group(2)].append((int(match.group(1)), os.path.join(work, name)))
    pairs = []
    for dumps in by_thread.values():
        dumps.sort()
        texts = [open(path, errors="replace").read() for _, path in dumps]
        if not any(EVENT_LOOP_SYMBOL in text for text in texts):
            continue
        for i, text in enumerate(texts[:-1]):
            if all(marker in text for marker in REQUEST_MARKERS):
                pairs.append((dumps[i][0], dumps[i][1], dumps[i + 1][1]))
    return [(first, second) for _, first, second in sorted(pairs)[-requests:]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.3, help="seconds before the first answer, and before the rest")
    parser.add_argument("--functions", type=int, default=40)
    args = parser.parse_args()
    with serving(split_upstream(args.delay)) as port:
        base = f"http://127.0.0.1:{port}"
        config = {"warm_code": False, "providers": {"mock": {"base_url": f"{base}/v1"}, "mock-stream": {"base_url": f"{base}/stream/v1"}}}
        options = "--dump-instr=no --separate-threads=yes --dump-before=send"
        with gateway_under_callgrind(args.binary, options, "sg-first-event-", config) as (work, process, token):
            body = open(bench.BODY["stream"], "rb").read()
            for _ in range(args.warm):
                post(bench.GATEWAY_PORT, token, body)
            subprocess.run(["callgrind_control", "-z", str(process.pid)], check=True, capture_output=True)
            for _ in range(args.requests):
                post(bench.GATEWAY_PORT, token, body)
            time.sleep(0.5)
            pairs = hop_dumps(work, args.requests)
            if len(pairs) < args.requests:
                raise SystemExit(f"found {len(pairs)} of {args.requests} requests' dumps; is the own HTTP/1.1 client on?")
            import shutil; os.makedirs('/tmp/fepdumps', exist_ok=True)
            for i,(a,b) in enumerate(pairs): shutil.copy(a, f'/tmp/fepdumps/h1-{i}'); shutil.copy(b, f'/tmp/fepdumps/h2-{i}')
            hops = [("request head read -> upstream request sent", collections.Counter()),
                    ("upstream's first answer -> client's first send", collections.Counter())]
            for dumps in pairs:
                for (_, totals), dump in zip(hops, dumps):
                    for (function, _), cost in self_cost_by_function(dump).items():
                        totals[function] += cost
            for title, totals in hops:
                print(f"== {title}: {sum(totals.values()) / len(pairs) / 1000:.1f}k instructions per request "
                      f"(event loops, {len(pairs)} requests)")
                for function, cost in totals.most_common(args.functions):
                    print(f"  {cost / len(pairs) / 1000:8.2f}k  {function}")


if __name__ == "__main__":
    main()
