"""Hostile and malformed HTTP input over raw sockets: every case gets an error response in the
shape of the route's API (or a clean close for unparseable requests), and the gateway keeps
answering GET /healthz afterwards."""
from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from conftest import MAX_BODY_BYTES

OAI_MSG = [{"role": "user", "content": "Hello"}]


@pytest.fixture(autouse=True)
def still_healthy_afterwards(gateway):
    yield
    assert gateway.process.poll() is None, f"the gateway process died (exit {gateway.process.returncode}); log:\n{gateway.log_tail()}"
    assert gateway.healthz() == 200, "the gateway stopped answering GET /healthz"


def exchange(gateway, head: bytes, body: bytes = b"", timeout: float = 20):
    """Send raw bytes (body from a second thread, so a early reply is still read); return
    (status, headers, body) or None if the server closed without answering."""
    sock = socket.create_connection(("127.0.0.1", gateway.port), timeout=timeout)
    errors = []

    def send_body():
        try:
            view = memoryview(body)
            while view:
                n = sock.send(view[:65536])
                view = view[n:]
        except OSError as e:  # the server may stop reading after it answered (413)
            errors.append(e)

    try:
        sock.sendall(head)
        sender = threading.Thread(target=send_body, daemon=True)
        sender.start()
        resp = http.client.HTTPResponse(sock)
        try:
            resp.begin()
        except (http.client.RemoteDisconnected, ConnectionResetError, http.client.BadStatusLine):
            return None
        data = resp.read()
        sender.join(timeout=timeout)
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        sock.close()


def request_head(gateway, method: str, path: str, length: int, extra: dict | None = None, token: str | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{gateway.port}", "Content-Type: application/json",
             f"Content-Length: {length}", "Connection: close"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def post(gateway, path: str, body: bytes, token: str | None, extra: dict | None = None):
    return exchange(gateway, request_head(gateway, "POST", path, len(body), extra, token), body)


def assert_json_error(result, status: int, shape: str):
    assert result is not None, "the gateway closed the connection without an HTTP response"
    got, headers, body = result
    assert got == status, f"expected {status}, got {got}: {body[:300]!r}"
    assert headers.get("content-type", "").startswith("application/json"), f"error must be JSON, got {headers.get('content-type')}"
    assert "x-request-id" in headers
    doc = json.loads(body)
    if shape == "openai":
        assert isinstance(doc.get("error"), dict) and doc["error"].get("message") and "type" in doc["error"], doc
    else:
        assert doc.get("type") == "error" and doc["error"].get("type") and doc["error"].get("message"), doc
    return doc


ROUTES = [("/v1/chat/completions", "openai"), ("/v1/messages", "anthropic")]


@pytest.mark.parametrize("path, shape", ROUTES)
@pytest.mark.parametrize("body", [b'{"model": "demo/demo", "messages": [', b"not json at all", b'{"model": "demo/demo",}', b"\x00\x01\x02"])
def test_malformed_json_is_400(gateway, token, path, shape, body):
    assert_json_error(post(gateway, path, body, token), 400, shape)


@pytest.mark.parametrize("path, shape", ROUTES)
@pytest.mark.parametrize("body", [
    b'{"model": "demo/demo", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}], "model": "demo/other"}',
    b'{"model": "demo/demo", "max_tokens": 10, "messages": [{"role": "user", "content": "hi", "role": "assistant"}]}',
    b'{"model": "demo/demo", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}], "m\\u006fdel": "demo/other"}',
], ids=["model", "in-a-message", "escaped"])
def test_a_repeated_key_is_400(gateway, token, path, shape, body):
    """Python (and a proxy written in it) reads the last of a repeated key; the gateway refuses the body instead of
    reading another occurrence than the proxy checked (I-JSON, decision 0093)."""
    doc = assert_json_error(post(gateway, path, body, token), 400, shape)
    assert "appears twice in one object" in doc["error"]["message"] and "send each key once" in doc["error"]["message"], doc


WRONG_TYPES = [
    {"model": 5, "messages": OAI_MSG, "max_tokens": 10},
    {"model": "demo/demo", "messages": "Hello", "max_tokens": 10},
    {"model": "demo/demo", "messages": [{"role": "user", "content": 42}], "max_tokens": 10},
    {"model": "demo/demo", "messages": [{"role": "wizard", "content": "hi"}], "max_tokens": 10},
    {"model": "demo/demo", "messages": [{"content": "no role"}], "max_tokens": 10},
    {"model": "demo/demo", "messages": OAI_MSG, "max_tokens": "ten"},
    {"model": "demo/demo", "messages": OAI_MSG, "max_tokens": 10, "stream": "yes"},
    {"model": "demo/demo", "messages": OAI_MSG, "max_tokens": 10, "tools": "all of them"},
    {"model": "demo/demo", "messages": OAI_MSG, "max_tokens": 10, "temperature": "hot"},
    [],
    None,
]


WRONG_TYPE_IDS = ["model-number", "messages-string", "content-number", "unknown-role", "missing-role", "max_tokens-string",
                  "stream-string", "tools-string", "temperature-string", "top-level-array", "top-level-null"]


@pytest.mark.parametrize("path, shape", ROUTES)
@pytest.mark.parametrize("body", WRONG_TYPES, ids=WRONG_TYPE_IDS)
def test_wrong_types_are_400(gateway, token, path, shape, body):
    assert_json_error(post(gateway, path, json.dumps(body).encode(), token), 400, shape)


@pytest.mark.parametrize("path, shape", ROUTES)
def test_invalid_utf8_is_400(gateway, token, path, shape):
    body = b'{"model": "demo/demo", "max_tokens": 10, "messages": [{"role": "user", "content": "caf\xc3 \xff\xfe"}]}'
    assert_json_error(post(gateway, path, body, token), 400, shape)


@pytest.mark.parametrize("path, shape", ROUTES)
def test_empty_body_is_400(gateway, token, path, shape):
    assert_json_error(post(gateway, path, b"", token), 400, shape)


def _big_body(size: int) -> bytes:
    filler = "x" * size
    return json.dumps({"model": "demo/demo", "max_tokens": 10, "messages": [{"role": "user", "content": filler}]}).encode()


@pytest.mark.parametrize("path, shape", ROUTES)
@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1024, 5 * 1024 * 1024], ids=["over-limit", "5MiB"])
def test_body_over_limit_is_413(gateway, token, path, shape, size):
    assert_json_error(post(gateway, path, _big_body(size), token), 413, shape)


def test_body_at_the_limit_is_accepted(gateway, token):
    body = _big_body(MAX_BODY_BYTES - 200)
    assert len(body) <= MAX_BODY_BYTES
    result = post(gateway, "/v1/chat/completions", body, token)
    assert result is not None and result[0] == 200, result and result[2][:300]


@pytest.mark.parametrize("method, path", [("GET", "/v1/nope"), ("POST", "/v2/chat/completions"), ("GET", "/"),
                                          ("POST", "/v1/chat/completions/extra")])
def test_unknown_route_is_404_json(gateway, token, method, path):
    body = b"{}" if method == "POST" else b""
    result = exchange(gateway, request_head(gateway, method, path, len(body), token=token), body)
    assert_json_error(result, 404, "openai")


@pytest.mark.parametrize("method, path, shape", [("GET", "/v1/chat/completions", "openai"), ("PUT", "/v1/chat/completions", "openai"),
                                                 ("GET", "/v1/messages", "anthropic"), ("DELETE", "/v1/models", "openai"),
                                                 ("POST", "/healthz", "openai")])
def test_wrong_method_is_405_json(gateway, token, method, path, shape):
    body = b"{}" if method in ("PUT", "POST") else b""
    result = exchange(gateway, request_head(gateway, method, path, len(body), token=token), body)
    doc_shape = shape if path != "/healthz" else "openai"
    assert_json_error(result, 405, doc_shape)


def test_header_with_raw_newline_is_an_error(gateway, token):
    body = json.dumps({"model": "demo/demo", "messages": OAI_MSG}).encode()
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n").encode()
    head += b"X-Injected: first line\nthis line has no colon\r\n\r\n"
    result = exchange(gateway, head, body)
    assert result is not None, "expected an HTTP error response, the connection was closed without one"
    assert 400 <= result[0] < 500, f"a header with a raw newline must be refused, got {result[0]}"


def test_raw_cr_in_header_value_is_an_error(gateway):
    body = json.dumps({"model": "demo/demo", "messages": OAI_MSG}).encode()
    head = request_head(gateway, "POST", "/v1/chat/completions", len(body))[:-2] + b"X-Evil: a\rInjected: b\r\n\r\n"
    result = exchange(gateway, head, body)
    assert result is None or 400 <= result[0] < 500, f"got {result and result[0]}"


def test_truncated_body_then_close_does_not_hurt(gateway, token):
    sock = socket.create_connection(("127.0.0.1", gateway.port), timeout=10)
    sock.sendall(request_head(gateway, "POST", "/v1/chat/completions", 1000, token=token) + b'{"model": "demo')
    sock.close()


def test_garbage_request_line(gateway):
    result = exchange(gateway, b"HELLO THERE\r\n\r\n")
    assert result is None or 400 <= result[0] < 500


def test_readyz(gateway):
    assert gateway.request("GET", "/readyz").status == 200
