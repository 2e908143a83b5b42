"""Server-side skills through the official SDKs: the gateway runs the skills itself (agent loop) and the
OpenAI and Anthropic SDKs still see ordinary answers in their own shapes; /v1/agent streams every step."""
from __future__ import annotations

import json
import urllib.request

from sdk_helpers import collect_openai_stream

ASSISTANT = {"x-skillgate-scenario": "assistant"}
ASK = [{"role": "user", "content": "What is 17 * 23?"}]


def test_openai_sdk_gets_the_answer_after_the_gateway_ran_the_skill(openai_client):
    r = openai_client().chat.completions.create(model="auto", messages=ASK, extra_headers=ASSISTANT)
    assert "391" in (r.choices[0].message.content or "")
    assert r.choices[0].finish_reason == "stop"
    assert not r.choices[0].message.tool_calls, "server-side skill calls are never handed to the client"


def test_openai_sdk_stream_stays_valid_while_skills_run(openai_client):
    stream = openai_client().chat.completions.create(model="auto", messages=ASK, stream=True, extra_headers=ASSISTANT)
    text, calls, finish = collect_openai_stream(stream)
    assert "391" in text and calls == [] and finish == "stop"


def test_anthropic_sdk_gets_the_answer_after_the_gateway_ran_the_skill(anthropic_client):
    msg = anthropic_client().messages.create(model="auto", max_tokens=256, messages=ASK, extra_headers=ASSISTANT)
    assert msg.stop_reason == "end_turn"
    assert "391" in "".join(b.text for b in msg.content if b.type == "text")


def test_agent_endpoint_streams_every_step(gateway, token):
    body = json.dumps({"scenario": "assistant", "messages": ASK}).encode()
    req = urllib.request.Request(f"{gateway.base}/v1/agent", data=body, method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.headers["content-type"].startswith("text/event-stream")
        raw = resp.read().decode()
    events = []
    for block in raw.strip().split("\n\n"):
        name = next(l[7:] for l in block.splitlines() if l.startswith("event: "))
        data = json.loads(next(l[6:] for l in block.splitlines() if l.startswith("data: ")))
        events.append((name, data))
    names = [n for n, _ in events]
    assert names[0] == "run.started" and names[1] == "route.selected" and names[-1] == "run.completed"
    started = next(d for n, d in events if n == "skill.started")
    finished = next(d for n, d in events if n == "skill.finished")
    assert started["skill"] == "calculator" and started["arguments"] == {"expression": "17 * 23"}
    assert finished["ok"] is True and finished["call_id"] == started["call_id"]
    assert "391" in "".join(d["text"] for n, d in events if n == "text.delta")
    assert events[-1][1]["iterations"] == 2
