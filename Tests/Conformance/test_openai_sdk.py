"""The official OpenAI Python SDK against SkillGate's /v1/chat/completions and /v1/models."""
from __future__ import annotations

import upstream as up
from conftest import assert_gateway_headers
from sdk_helpers import (TIME_TOOL_OPENAI, assert_clean_upstream, calls_from_message, collect_openai_stream,
                         openai_tool_turns, parsed_args)

SYSTEM = "Be brief."
ASK = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Hello"}]


# ---- native: up-openai -------------------------------------------------------------------------

def test_non_stream_text(openai_client, gateway, upstream):
    mark = upstream.mark()
    raw = openai_client().chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ASK)
    assert_gateway_headers(raw.headers, provider="up-openai", model="gpt-test")
    r = raw.parse()
    assert r.choices[0].message.content == up.expected_text(up.OPENAI_JSON_TEXT)
    assert r.choices[0].finish_reason == "stop"
    assert r.usage and r.usage.prompt_tokens == 16 and r.usage.completion_tokens == 363
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    assert [q.path for q in reqs] == ["/openai/v1/chat/completions"]
    assert reqs[0].json["model"] == "gpt-test", "upstream must get the provider's own model id"
    assert not reqs[0].json.get("stream")


def test_stream_text(openai_client, gateway, upstream):
    mark = upstream.mark()
    raw = openai_client().chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ASK, stream=True)
    assert_gateway_headers(raw.headers, provider="up-openai", model="gpt-test")
    assert raw.headers["content-type"].startswith("text/event-stream")
    text, calls, finish = collect_openai_stream(raw.parse())
    assert text == up.expected_text(up.OPENAI_STREAM_TEXT)
    assert (calls, finish) == ([], "stop")
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    assert reqs[0].json.get("stream") is True


def test_stream_tool_call_round_trip(openai_client, gateway, upstream):
    client, tools = openai_client(), up.openai_tools()
    mark = upstream.mark()
    text, calls, finish = collect_openai_stream(client.chat.completions.create(
        model="up-openai/gpt-test", messages=ASK, tools=tools, stream=True))
    assert finish == "tool_calls"
    assert [(c["name"], parsed_args(c)) for c in calls] == [("get_capital", {"country": "UK"})]
    assert calls[0]["id"], "a streamed tool call needs its id"
    messages = ASK + openai_tool_turns(text, calls, lambda c: "London")
    text2, calls2, finish2 = collect_openai_stream(client.chat.completions.create(
        model="up-openai/gpt-test", messages=messages, tools=tools, stream=True))
    assert (text2, calls2, finish2) == (up.expected_text(up.OPENAI_STREAM_AFTER_TOOL), [], "stop")
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    follow_up = reqs[-1].json["messages"]
    assert follow_up[-1]["role"] == "tool" and follow_up[-1]["tool_call_id"] == calls[0]["id"]
    assert follow_up[-2]["tool_calls"][0]["function"]["name"] == "get_capital"


def test_non_stream_parallel_tool_calls_round_trip(openai_client, gateway, upstream):
    client, tools = openai_client(), up.openai_tools()
    mark = upstream.mark()
    r = client.chat.completions.create(model="up-openai/gpt-test", messages=ASK, tools=tools)
    assert r.choices[0].finish_reason == "tool_calls"
    calls = calls_from_message(r.choices[0].message)
    assert [(c["name"], parsed_args(c)) for c in calls] == [("delete_file", {"path": ".env"}), ("create_file", {"path": "test.txt"})]
    r2 = client.chat.completions.create(model="up-openai/gpt-test", tools=tools,
                                        messages=ASK + openai_tool_turns(None, calls, lambda c: "done"))
    assert r2.choices[0].message.content == up.expected_text(up.OPENAI_JSON_TEXT)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    assert [m["tool_call_id"] for m in reqs[-1].json["messages"] if m["role"] == "tool"] == [c["id"] for c in calls]


# ---- cross-format: OpenAI SDK → Anthropic and Gemini upstreams --------------------------------

def _assert_anthropic_wire(body: dict):
    assert isinstance(body.get("max_tokens"), int) and body["max_tokens"] > 0, "Anthropic needs max_tokens"
    assert all(m["role"] in ("user", "assistant") for m in body["messages"]), "system must be hoisted out of messages"
    system = body.get("system")
    system_text = system if isinstance(system, str) else "".join(b.get("text", "") for b in system or [])
    assert SYSTEM in system_text, f"the system prompt must be hoisted into `system`, got {system!r}"
    assert body["model"] == "claude-test"


def test_cross_to_anthropic_non_stream(openai_client, gateway, upstream):
    mark = upstream.mark()
    raw = openai_client().chat.completions.with_raw_response.create(model="up-anthropic/claude-test", messages=ASK)
    assert_gateway_headers(raw.headers, provider="up-anthropic", model="claude-test")
    r = raw.parse()
    assert r.choices[0].message.content == up.expected_text(up.ANTHROPIC_JSON_TEXT)
    assert r.choices[0].finish_reason == "stop"
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    assert reqs[0].path == "/anthropic/v1/messages"
    _assert_anthropic_wire(reqs[0].json)


def test_cross_to_anthropic_stream_tool_round_trip(openai_client, gateway, upstream):
    client, tools = openai_client(), up.openai_tools()
    mark = upstream.mark()
    text, calls, finish = collect_openai_stream(client.chat.completions.create(
        model="up-anthropic/claude-test", messages=ASK, tools=tools, stream=True))
    assert text == "I'll check the current weather in Paris for you."
    assert finish == "tool_calls"
    assert [(c["id"], c["name"], parsed_args(c)) for c in calls] == [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"})]
    text2, calls2, finish2 = collect_openai_stream(client.chat.completions.create(
        model="up-anthropic/claude-test", tools=tools, stream=True,
        messages=ASK + openai_tool_turns(text, calls, lambda c: "18°C, cloudy")))
    assert (text2, calls2, finish2) == (up.expected_text(up.ANTHROPIC_STREAM_TEXT_CHUNKS), [], "stop")
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    body = reqs[-1].json
    _assert_anthropic_wire(body)
    assert body["stream"] is True
    [tool_use] = [b for m in body["messages"] if m["role"] == "assistant" and isinstance(m["content"], list)
                  for b in m["content"] if b.get("type") == "tool_use"]
    assert (tool_use["id"], tool_use["name"], tool_use["input"]) == ("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"})
    last = body["messages"][-1]
    assert last["role"] == "user" and last["content"][0]["type"] == "tool_result"
    assert last["content"][0]["tool_use_id"] == "toolu_01NRLabsLyVHZPKxbKvkfSMn"
    assert [t["name"] for t in body["tools"]] == list(up.RECORDED_TOOLS), "client tools must reach Anthropic as tools"
    assert all("input_schema" in t for t in body["tools"])


def _assert_gemini_wire(req, method: str):
    assert req.path == f"/gemini/v1beta/models/gemini-test:{method}"
    if method == "streamGenerateContent":
        assert req.query.get("alt") == ["sse"], f"Gemini streaming needs ?alt=sse, got {req.raw_path}"
    body = req.json
    assert all(c["role"] in ("user", "model") for c in body["contents"])
    system = "".join(p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts", []))
    assert SYSTEM in system, f"the system prompt must go to systemInstruction, got {body.get('systemInstruction')!r}"


def test_cross_to_gemini_non_stream_text(openai_client, gateway, upstream):
    mark = upstream.mark()
    raw = openai_client().chat.completions.with_raw_response.create(model="up-gemini/gemini-test", messages=ASK)
    assert_gateway_headers(raw.headers, provider="up-gemini", model="gemini-test")
    r = raw.parse()
    assert r.choices[0].message.content == up.expected_text(up.GEMINI_JSON_TEXT)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "gemini")
    _assert_gemini_wire(reqs[0], "generateContent")


def test_cross_to_gemini_stream_text(openai_client, gateway, upstream):
    mark = upstream.mark()
    text, calls, finish = collect_openai_stream(openai_client().chat.completions.create(
        model="up-gemini/gemini-test", messages=ASK, stream=True))
    assert (text, calls, finish) == (up.expected_text(up.GEMINI_STREAM_TEXT), [], "stop")
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "gemini")
    _assert_gemini_wire(reqs[0], "streamGenerateContent")


def test_cross_to_gemini_tool_round_trip(openai_client, gateway, upstream):
    client, tools = openai_client(), up.openai_tools()
    mark = upstream.mark()
    r = client.chat.completions.create(model="up-gemini/gemini-test", messages=ASK, tools=tools)
    assert r.choices[0].finish_reason == "tool_calls", "a Gemini functionCall must come back as finish_reason tool_calls"
    calls = calls_from_message(r.choices[0].message)
    assert [(c["name"], parsed_args(c)) for c in calls] == [("weather", {"location": "San Francisco"})]
    assert calls[0]["id"], "SkillGate must synthesise a tool call id for Gemini"
    r2 = client.chat.completions.create(model="up-gemini/gemini-test", tools=tools,
                                        messages=ASK + openai_tool_turns(None, calls, lambda c: "foggy, 14°C"))
    assert r2.choices[0].message.content == up.expected_text(up.GEMINI_JSON_TEXT)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "gemini")
    first, follow_up = reqs[0].json, reqs[-1].json
    decls = [d for t in first["tools"] for d in t.get("functionDeclarations", [])]
    assert [d["name"] for d in decls] == list(up.RECORDED_TOOLS)
    parts = follow_up["contents"][-1]["parts"]
    assert any(p.get("functionResponse", {}).get("name") == "weather" for p in parts), f"expected a functionResponse, got {parts}"
    assert any("functionCall" in p for c in follow_up["contents"] if c["role"] == "model" for p in c["parts"])


# ---- models and the offline demo ----------------------------------------------------------------

def test_models_list(openai_client):
    ids = [m.id for m in openai_client().models.list()]
    for expected in ("gpt-test", "claude-test", "gemini-test", "demo"):
        assert any(i == expected or i.endswith("/" + expected) for i in ids), f"/v1/models lacks {expected}: {ids}"


def test_models_retrieve(openai_client):
    """models.retrieve: a listed name (a provider/model, an alias, the router's auto) answers its list entry; an
    unknown one is NotFoundError naming model."""
    import openai
    client = openai_client()
    listed = {m.id: m for m in client.models.list()}
    assert "auto" in listed and listed["auto"].owned_by == "skillgate-router", sorted(listed)
    for name in [next(i for i in listed if i.endswith("/gpt-test")), "auto"]:
        assert client.models.retrieve(name).model_dump() == listed[name].model_dump()
    try:
        client.models.retrieve("no-such-model")
        raise AssertionError("an unknown model was retrieved")
    except openai.NotFoundError as error:
        assert error.body["param"] == "model" and "GET /v1/models lists" in error.body["message"]


def test_models_list_respects_token_scope(openai_client, gateway):
    ids = [m.id for m in openai_client(gateway.tokens["conformance-light-only"]).models.list()]
    assert any(i.endswith("gpt-test") for i in ids), ids
    assert not any(i.endswith("claude-test") for i in ids), f"a token scoped to up-openai/gpt-test must not see claude-test: {ids}"


def test_demo_model_offline_text(openai_client, upstream):
    mark = upstream.mark()
    client = openai_client()
    r = client.chat.completions.create(model="demo/demo", messages=[{"role": "user", "content": "Hello there"}])
    assert r.choices[0].message.content and r.choices[0].finish_reason == "stop"
    text, calls, finish = collect_openai_stream(client.chat.completions.create(
        model="demo/demo-light", messages=[{"role": "user", "content": "Hello there"}], stream=True))
    assert text and not calls and finish == "stop"
    assert upstream.since(mark) == [], "the demo model must not call any upstream"


def test_demo_model_calls_time_tool_then_answers(openai_client, upstream):
    mark = upstream.mark()
    client = openai_client()
    ask = [{"role": "user", "content": "What time is it right now?"}]
    r = client.chat.completions.create(model="demo/demo", messages=ask, tools=[TIME_TOOL_OPENAI])
    assert r.choices[0].finish_reason == "tool_calls"
    calls = calls_from_message(r.choices[0].message)
    assert [c["name"] for c in calls] == ["get_current_time"]
    parsed_args(calls[0])  # arguments are valid JSON
    r2 = client.chat.completions.create(model="demo/demo", tools=[TIME_TOOL_OPENAI],
                                        messages=ask + openai_tool_turns(None, calls, lambda c: "2026-11-30T07:00:00Z"))
    assert r2.choices[0].finish_reason == "stop" and r2.choices[0].message.content
    # Without a time tool on offer, the demo answers in text.
    r3 = client.chat.completions.create(model="demo/demo", messages=ask)
    assert r3.choices[0].finish_reason == "stop" and r3.choices[0].message.content and not r3.choices[0].message.tool_calls
    assert upstream.since(mark) == []
