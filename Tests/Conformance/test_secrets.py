"""Secrets stay secret: provider keys and client tokens never appear in the gateway's logs, never
reach an upstream, and are not stored in plain text (tokens) or readable by others (keys).

Runs last in the default order (file name), so the log covers the traffic of the whole suite; it
also makes its own traffic, so it is meaningful when run alone."""
from __future__ import annotations

import json
import os
import stat
import time

import anthropic
import openai
import pytest

from conftest import FAKE_KEYS, forwarded_tokens, run_cli


@pytest.fixture(scope="module")
def traffic(gateway, upstream):
    """A little of everything: each provider, streams, upstream errors, bad tokens. Failures are
    ignored here (other files test behaviour); this only makes the gateway log real traffic."""
    oai = openai.OpenAI(api_key=gateway.tokens["conformance-full"], base_url=f"{gateway.base}/v1", max_retries=0, timeout=30)
    ant = anthropic.Anthropic(api_key=gateway.tokens["conformance-full"], base_url=gateway.base, max_retries=0, timeout=30)
    msgs = [{"role": "user", "content": "Hello"}]
    calls = []
    for model in ("up-openai/gpt-test", "up-anthropic/claude-test", "up-gemini/gemini-test"):
        calls += [lambda m=model: oai.chat.completions.create(model=m, messages=msgs),
                  lambda m=model: list(oai.chat.completions.create(model=m, messages=msgs, stream=True)),
                  lambda m=model: ant.messages.create(model=m, max_tokens=10, messages=msgs)]
    for model in ("up-openai/rate-limited", "up-anthropic/broken", "up-gemini/broken", "up-openai/html-proxy"):
        calls.append(lambda m=model: oai.chat.completions.create(model=m, messages=msgs))
    for tok in ("sg-not-a-real-token", gateway.tokens["conformance-revoked"]):
        calls.append(lambda t=tok: openai.OpenAI(api_key=t, base_url=f"{gateway.base}/v1", max_retries=0, timeout=30)
                     .chat.completions.create(model="demo/demo", messages=msgs))
    calls.append(lambda: gateway.request("POST", "/v1/chat/completions", b"{broken",
                                         {"Authorization": f"Bearer {gateway.tokens['conformance-full']}"}))
    for call in calls:
        try:
            call()
        except (openai.APIError, anthropic.APIError):
            pass
    return len(calls)


def _secrets(gateway):
    return {**FAKE_KEYS, **{f"token {name}": tok for name, tok in gateway.tokens.items()}}


def test_log_is_json_lines(gateway, traffic):
    lines = [line for line in gateway.log().splitlines() if line.strip()]
    assert lines, "the gateway wrote no log lines to stderr"
    bad = [line for line in lines if not line.lstrip().startswith("{")]
    for line in lines:
        if line.lstrip().startswith("{"):
            json.loads(line)
    assert not bad, f"every stderr line should be a JSON object; first offenders: {bad[:3]}"


def test_no_secret_in_logs(gateway, traffic):
    logs = gateway.log() + (gateway.directory / "gateway.stdout.log").read_text(errors="replace")
    leaked = [name for name, secret in _secrets(gateway).items() if secret in logs]
    assert not leaked, f"secrets found in the gateway's logs: {leaked}"
    # Also no long-enough fragment of a provider key (e.g. a half-masked key).
    for name, secret in FAKE_KEYS.items():
        assert secret[-12:] not in logs, f"the tail of {name} appears in the logs"


def test_client_token_never_forwarded_upstream(gateway, upstream, traffic):
    requests = upstream.all()
    assert requests, "no upstream traffic was recorded"
    assert forwarded_tokens(requests, gateway.tokens) == []


def test_provider_keys_only_go_to_their_own_provider(upstream, traffic):
    own = {"openai": "UP_OPENAI_KEY", "anthropic": "UP_ANTHROPIC_KEY", "gemini": "UP_GEMINI_KEY"}
    for r in upstream.all():
        blob = r.header_blob() + r.raw_path + r.body.decode("utf-8", "replace")
        for name, secret in FAKE_KEYS.items():
            if name != own.get(r.provider):
                assert secret not in blob, f"{name} was sent to the {r.provider} upstream ({r.raw_path})"


def test_key_file_is_private(gateway, traffic):
    key_file = gateway.directory / "state" / "keys" / "keys.json"
    assert key_file.is_file(), f"`skillgate keys set` did not write {key_file}"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600, oct(os.stat(key_file).st_mode)
    assert stat.S_IMODE(os.stat(key_file.parent).st_mode) == 0o700, oct(os.stat(key_file.parent).st_mode)


def test_tokens_are_not_stored_in_plain_text(gateway, traffic):
    state = gateway.directory / "state"
    found = []
    for path in state.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found += [f"{name} in {path.relative_to(state)}" for name, tok in gateway.tokens.items() if tok.encode() in data]
    assert not found, f"client tokens must be stored hashed, found in plain text: {found}"


def test_no_secret_in_metrics_limits_or_usage_ledger(gateway, traffic):
    """The metrics, the caller's limits and the usage ledger (the state database and `skillgate usage --json`)
    carry no provider key and no client token, after the whole suite's traffic."""
    token = gateway.tokens["conformance-full"]
    metrics = gateway.request("GET", "/metrics")
    limits = gateway.request("GET", "/v1/limits", headers={"Authorization": f"Bearer {token}"})
    assert metrics.status == 200, metrics.body[:300]
    assert limits.status == 200, limits.body[:300]
    time.sleep(1.5)  # the ledger writes its batch about once a second
    usage = run_cli("usage", "--config", str(gateway.config_path), "--since", "1d", "--json")
    assert json.loads(usage)["total"]["requests"] > 0, "the usage ledger recorded nothing"
    database = b"".join(p.read_bytes() for p in (gateway.directory / "state").glob("state.sqlite*") if p.is_file())
    texts = {"/metrics": metrics.body.decode("utf-8", "replace"), "/v1/limits": limits.body.decode("utf-8", "replace"),
             "skillgate usage --json": usage, "the state database": database.decode("utf-8", "replace")}
    leaked = [f"{name} in {where}" for where, text in texts.items() for name, secret in _secrets(gateway).items() if secret in text]
    assert not leaked, f"secrets found: {leaked}"
    assert "req_" not in texts["/metrics"], "request ids must not be metric labels"
