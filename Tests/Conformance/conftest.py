"""Session fixtures for the SkillGate conformance suite.

One upstream double (fake OpenAI/Anthropic/Gemini), one temporary config + provider catalog + key
file, one `skillgate serve` process whose stderr log is captured to a file, and a set of client tokens
with different scopes. Tests that need the gateway are skipped (with the build command) only when the
binary does not exist; a binary that exists but fails to start is an error.

Run: .venv/bin/python -m pytest -q Tests/Conformance
"""
from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mcp_upstream import mcp_http_server, with_mcp
from upstream import UpstreamDouble

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BUILD_COMMAND = "swift build --product skillgate"
SKILLGATE_BIN = Path(os.environ.get("SKILLGATE_BIN") or REPO / ".build" / "debug" / "skillgate")

# Fake provider secrets, stored with `skillgate keys set`; they must never show up in a log line.
FAKE_KEYS = {
    "UP_OPENAI_KEY": "sk-test-upstream-openai-0001",
    "UP_ANTHROPIC_KEY": "sk-ant-test-upstream-anthropic-0002",
    "UP_GEMINI_KEY": "AIzaSyTest-upstream-gemini-0003",
}
DOUBLE_KEYS = {"openai": FAKE_KEYS["UP_OPENAI_KEY"], "anthropic": FAKE_KEYS["UP_ANTHROPIC_KEY"], "gemini": FAKE_KEYS["UP_GEMINI_KEY"]}

# The small body limit of the test gateway (the 413 tests send more than this).
MAX_BODY_BYTES = 64 * 1024

# Token name → (scenarios, models). Empty lists mean "no restriction".
TOKEN_SCOPES = {
    "conformance-full": ([], []),
    "conformance-light-only": ([], ["up-openai/gpt-test"]),
    "conformance-chat-only": (["chat"], []),
    "conformance-restricted": (["restricted"], []),
    "conformance-revoked": ([], []),
    "conformance-revoke-live": ([], []),
}


def _models(*ids_and_tiers):
    return [{"id": i, "tier": t, "context_window": 128000, "tools": "native",
             "price": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}} for i, t in ids_and_tiers]


FAILING_MODELS = [("rate-limited", "strong"), ("broken", "strong"), ("html-proxy", "strong")]


def provider_files(upstream_base: str) -> dict[str, dict]:
    """The catalog files of the upstream providers, pointing at the double: OpenAI (its own API, so it counts tokens at
    `/responses/input_tokens`, as `Providers/openai.json` says), an OpenAI-compatible API at the same double that does
    not declare the count (as Groq or vLLM, which lack it), Anthropic and Gemini."""
    return {
        "up-openai": {"id": "up-openai", "display_name": "Upstream double (OpenAI)", "wire_format": "openai-chat",
                      "base_url": f"{upstream_base}/openai/v1", "auth": "bearer", "key_name": "UP_OPENAI_KEY", "count_tokens": True,
                      "models": _models(("gpt-test", "light"), ("refuses", "strong"), *FAILING_MODELS)},
        "up-compat": {"id": "up-compat", "display_name": "Upstream double (an OpenAI-compatible API)", "wire_format": "openai-chat",
                      "base_url": f"{upstream_base}/openai/v1", "auth": "bearer", "key_name": "UP_OPENAI_KEY",
                      "models": _models(("compat-test", "light"))},
        "up-anthropic": {"id": "up-anthropic", "display_name": "Upstream double (Anthropic)", "wire_format": "anthropic-messages",
                         "base_url": f"{upstream_base}/anthropic/v1", "auth": "x-api-key", "key_name": "UP_ANTHROPIC_KEY",
                         "headers": {"anthropic-version": "2023-06-01"},
                         "models": _models(("claude-test", "strong"), ("refuses", "strong"), *FAILING_MODELS)},
        "up-gemini": {"id": "up-gemini", "display_name": "Upstream double (Gemini)", "wire_format": "gemini",
                      "base_url": f"{upstream_base}/gemini/v1beta", "auth": "x-goog-api-key", "key_name": "UP_GEMINI_KEY",
                      "models": _models(("gemini-test", "light"), *FAILING_MODELS)},
    }


def gateway_config(port: int, mcp_http_url: str | None = None) -> dict:
    return with_mcp({
        "listen": f"127.0.0.1:{port}",
        "state_dir": "state",
        "key_file": "state/keys/keys.json",
        "providers_dir": "providers",
        "aliases": {"gpt": "up-openai/gpt-test", "claude": "up-anthropic/claude-test", "gemini": "up-gemini/gemini-test",
                    "compat": "up-compat/compat-test"},
        "tiers": {"light": ["up-openai/gpt-test"], "strong": ["up-anthropic/claude-test"]},
        "default_model": "light",
        "default_scenario": "chat",
        "scenarios": {"chat": {}, "restricted": {"allowed_models": ["strong"]},
                      "assistant": {"skill_packs": ["builtin"], "default_model": "demo/demo-light"},
                      # Answers kept by the response cache (test_response_cache.py); no other scenario caches.
                      "cached": {"response_cache": {"ttl_seconds": 600}}},
        "skill_packs": {"builtin": ["current_time", "calculator"]},
        "server_skills": {"builtin": ["current_time", "calculator"]},
        "limits": {"max_body_bytes": MAX_BODY_BYTES},
    }, mcp_http_url)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Response:
    status: int
    headers: dict  # lower-cased
    body: bytes

    def json(self):
        return json.loads(self.body)


@dataclass
class Gateway:
    """A running `skillgate serve` and what it was started with."""
    port: int
    directory: Path
    config_path: Path
    log_path: Path
    process: subprocess.Popen
    tokens: dict = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cli(self, command: str, subcommand: str, *args: str, stdin: str | None = None) -> str:
        """`skillgate COMMAND SUBCOMMAND --config CFG ARGS...` (e.g. "tokens", "revoke", NAME)."""
        return run_cli(command, subcommand, "--config", str(self.config_path), *args, stdin=stdin)

    def request(self, method: str, path: str, body: bytes | str | dict | None = None, headers: dict | None = None,
                timeout: float = 30) -> Response:
        if isinstance(body, dict):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            hdrs = {"Content-Type": "application/json"} if body is not None else {}
            hdrs.update(headers or {})
            conn.request(method, path, body=body, headers=hdrs)
            r = conn.getresponse()
            return Response(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        finally:
            conn.close()

    def healthz(self) -> int:
        return self.request("GET", "/healthz", timeout=10).status

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, n: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-n:])


def run_cli(*args: str, stdin: str | None = None) -> str:
    proc = subprocess.run([str(SKILLGATE_BIN), *args], input=stdin, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"`skillgate {' '.join(args)}` exited with {proc.returncode}:\n{proc.stderr.strip()}")
    return proc.stdout


def _missing_binary_note() -> str:
    return (f"gateway binary not found at {SKILLGATE_BIN}; build it with `{BUILD_COMMAND}` "
            f"(or point SKILLGATE_BIN at it), then rerun the conformance suite")


def pytest_report_header(config):
    if not SKILLGATE_BIN.is_file():
        return f"skillgate: {_missing_binary_note()} -- tests that need the gateway will be SKIPPED"
    return f"skillgate: {SKILLGATE_BIN}"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not SKILLGATE_BIN.is_file():
        terminalreporter.write_line(f"NOTE: {_missing_binary_note()}", yellow=True, bold=True)


@pytest.fixture(scope="session")
def upstream():
    double = UpstreamDouble(DOUBLE_KEYS).start()
    yield double
    double.stop()


@pytest.fixture(scope="session")
def mcp_http_upstream():
    """The SDK example MCP server over streamable HTTP (test_mcp.py); its URL."""
    with mcp_http_server() as url:
        yield url


@pytest.fixture(scope="session")
def gateway(upstream, mcp_http_upstream, tmp_path_factory):
    if not SKILLGATE_BIN.is_file():
        pytest.skip(_missing_binary_note())
    directory = tmp_path_factory.mktemp("skillgate")
    providers = directory / "providers"
    providers.mkdir()
    for pid, spec in provider_files(upstream.base).items():
        (providers / f"{pid}.json").write_text(json.dumps(spec, indent=2))
    shutil.copy(REPO / "Providers" / "demo.json", providers / "demo.json")
    port = free_port()
    config_path = directory / "skillgate.json"
    config_path.write_text(json.dumps(gateway_config(port, mcp_http_upstream), indent=2))
    cfg = ["--config", str(config_path)]

    for name, secret in FAKE_KEYS.items():
        run_cli("keys", "set", *cfg, name, stdin=secret)
    tokens = {}
    for name, (scenarios, models) in TOKEN_SCOPES.items():
        args = ["tokens", "create", *cfg, "--name", name]
        for s in scenarios:
            args += ["--scenario", s]
        for m in models:
            args += ["--model", m]
        out = run_cli(*args).strip()
        assert out and len(out.split()) == 1, f"`skillgate tokens create` must print only the token on stdout, got {out!r}"
        tokens[name] = out
    run_cli("tokens", "revoke", *cfg, "conformance-revoked")

    log_path = directory / "gateway.stderr.log"
    log_file, out_file = open(log_path, "wb"), open(directory / "gateway.stdout.log", "wb")
    process = subprocess.Popen([str(SKILLGATE_BIN), "serve", *cfg, "--listen", f"127.0.0.1:{port}"],
                               stdout=out_file, stderr=log_file, cwd=directory)
    gw = Gateway(port=port, directory=directory, config_path=config_path, log_path=log_path, process=process, tokens=tokens)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"`skillgate serve` exited with {process.returncode} before it was ready; log:\n{gw.log_tail()}")
        try:
            if gw.healthz() == 200:
                break
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"`skillgate serve` did not answer GET /healthz with 200 within 60 s; log:\n{gw.log_tail()}")
        time.sleep(0.1)
    yield gw
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log_file.close()
    out_file.close()


@pytest.fixture(scope="session")
def token(gateway) -> str:
    return gateway.tokens["conformance-full"]


@pytest.fixture
def openai_client(gateway):
    import openai

    def make(token: str | None = None, **kw):
        return openai.OpenAI(api_key=token if token is not None else gateway.tokens["conformance-full"],
                             base_url=f"{gateway.base}/v1", max_retries=0, timeout=30, **kw)
    return make


@pytest.fixture
def anthropic_client(gateway):
    import anthropic

    def make(token: str | None = None, **kw):
        return anthropic.Anthropic(api_key=token if token is not None else gateway.tokens["conformance-full"],
                                   base_url=gateway.base, max_retries=0, timeout=30, **kw)
    return make


def assert_gateway_headers(headers, provider: str | None = None, model: str | None = None):
    """Every gateway response carries x-request-id, x-skillgate-provider and x-skillgate-model."""
    lower = {k.lower(): v for k, v in dict(headers).items()}
    for name in ("x-request-id", "x-skillgate-provider", "x-skillgate-model"):
        assert name in lower, f"response lacks the {name} header; headers were {sorted(lower)}"
    assert lower["x-request-id"].strip(), "x-request-id is empty"
    if provider:
        assert lower["x-skillgate-provider"] == provider, f"x-skillgate-provider is {lower['x-skillgate-provider']!r}, expected {provider!r}"
    if model:
        assert model in lower["x-skillgate-model"], f"x-skillgate-model is {lower['x-skillgate-model']!r}, expected it to name {model!r}"


def forwarded_tokens(requests, tokens) -> list:
    """(path, token name) for every upstream request that carried a SkillGate client token anywhere."""
    found = []
    for r in requests:
        blob = r.header_blob() + "\n" + r.raw_path + "\n" + r.body.decode("utf-8", "replace")
        for name, tok in tokens.items():
            if tok and tok in blob:
                found.append((r.path, name))
    return found
