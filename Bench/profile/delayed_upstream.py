"""A mock upstream that answers each chat request only after a delay, for splitting a request's profile in time
(hot_code.py): while the gateway waits for the answer, everything it ran so far belongs to the request's way out.

It speaks what the benchmark's nginx mock speaks, from the same payloads (upstream.py): a whole completion with a
Content-Length, or a streamed one as chunked server-sent events (every event at once, after the delay). Keep-alive,
HTTP/1.1, on 127.0.0.1.
"""
import contextlib
import http.server
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proxy"))
import upstream  # noqa: E402


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay_s = 0.0

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        time.sleep(self.delay_s)
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            out = b""
            for payload in upstream.stream_events():
                event = f"data: {payload}\n\n".encode()
                out += f"{len(event):x}\r\n".encode() + event + b"\r\n"
            self.wfile.write(out + b"0\r\n\r\n")
        else:
            answer = json.dumps(upstream.COMPLETION, separators=(",", ":")).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)


@contextlib.contextmanager
def serving(handler):
    """Serves `handler` (a `BaseHTTPRequestHandler` class) on a free port of 127.0.0.1 in a thread; yields the port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def delayed_upstream(delay_s):
    """Serves in a thread; yields its base URL (http://127.0.0.1:PORT)."""
    with serving(type("DelayedHandler", (_Handler,), {"delay_s": delay_s})) as port:
        yield f"http://127.0.0.1:{port}"
