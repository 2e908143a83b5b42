"""`"model": "auto"` through the gateway: the router scores the task, the `x-skillgate-tier`
header forces a tier, a concrete model is never re-routed, and every chat response says why in
`x-skillgate-route` (also the `route` field of the request's log line).

The test config's tiers: light = up-openai/gpt-test, strong = up-anthropic/claude-test; the
gateway default is `light`, so `auto` leans light (routing.scenario_lean, log-odds -1 with the learned router).
"""
from __future__ import annotations

import json
import time

import pytest

HARD = "Prove step by step that there are infinitely many primes of the form 4k+3, and justify every step rigorously."
EASY = "Hello, how are you?"


def _route(raw) -> str:
    lower = {k.lower(): v for k, v in dict(raw.headers).items()}
    assert "x-skillgate-route" in lower, f"response lacks x-skillgate-route; headers were {sorted(lower)}"
    value = lower["x-skillgate-route"]
    assert value.isascii() and "\n" not in value
    return value


def _chat(openai_client, content: str, model: str = "auto", headers: dict | None = None):
    return openai_client().chat.completions.with_raw_response.create(
        model=model, messages=[{"role": "user", "content": content}], extra_headers=headers or {})


def test_auto_scores_a_hard_task_to_the_strong_tier(openai_client):
    raw = _chat(openai_client, HARD)
    assert raw.headers["x-skillgate-model"] == "up-anthropic/claude-test"
    route = _route(raw)
    assert route.startswith("tier=strong; by=score; score="), route
    assert "reasons=reasoning(+" in route, route


def test_auto_keeps_small_talk_on_the_light_tier(openai_client):
    raw = _chat(openai_client, EASY)
    assert raw.headers["x-skillgate-model"] == "up-openai/gpt-test"
    assert _route(raw).startswith("tier=light; by=score")


@pytest.mark.parametrize("hint,model", [("strong", "up-anthropic/claude-test"), ("light", "up-openai/gpt-test")])
def test_tier_header_forces_the_tier(openai_client, hint, model):
    raw = _chat(openai_client, EASY if hint == "strong" else HARD, headers={"x-skillgate-tier": hint})
    assert raw.headers["x-skillgate-model"] == model
    assert _route(raw) == f"tier={hint}; by=header"


def test_a_concrete_model_is_not_rerouted(openai_client):
    raw = _chat(openai_client, HARD, model="gpt", headers={"x-skillgate-tier": "strong"})
    assert raw.headers["x-skillgate-model"] == "up-openai/gpt-test"
    assert _route(raw) == "tier=none; by=request"


def test_invalid_tier_header_is_400(gateway, token):
    r = gateway.request("POST", "/v1/chat/completions", {"model": "auto", "messages": [{"role": "user", "content": EASY}]},
                        headers={"x-skillgate-tier": "medium", "Authorization": f"Bearer {token}"})
    assert r.status == 400
    assert r.json()["error"]["param"] == "x-skillgate-tier"


def test_anthropic_surface_and_stream_carry_the_route_too(anthropic_client):
    raw = anthropic_client().messages.with_raw_response.create(model="auto", max_tokens=64, messages=[{"role": "user", "content": HARD}])
    assert _route(raw).startswith("tier=strong; by=score")
    with anthropic_client().messages.with_streaming_response.create(
            model="auto", max_tokens=64, stream=True, messages=[{"role": "user", "content": EASY}]) as s:
        assert _route(s).startswith("tier=light; by=score")
        for _ in s.iter_lines():
            pass


def test_log_line_has_the_route(gateway, openai_client):
    raw = _chat(openai_client, HARD)
    request_id = raw.headers["x-request-id"]
    route = _route(raw)
    deadline = time.monotonic() + 5  # the line is written just after the response
    while True:
        lines = [json.loads(line) for line in gateway.log().splitlines() if request_id in line]
        if lines or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert lines and lines[-1]["route"] == route
