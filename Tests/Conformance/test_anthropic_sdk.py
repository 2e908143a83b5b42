"""The official Anthropic Python SDK against SkillGate's /v1/messages and /v1/models.

Note: anthropic SDK 2.x sends the client key as `Authorization: Bearer` (and a newer
`anthropic-version`); the x-api-key form is covered by raw-HTTP tests in test_errors.py.
"""
from __future__ import annotations

import pytest

import upstream as up
from conftest import assert_gateway_headers
from sdk_helpers import TIME_TOOL_ANTHROPIC, anthropic_tool_turns, assert_clean_upstream

SYSTEM = "Be brief."
USER = [{"role": "user", "content": "Hello"}]


def _tool_uses(message):
    return [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]


def _text(message):
    return "".join(b.text for b in message.content if b.type == "text")


# ---- native: up-anthropic ----------------------------------------------------------------------

def test_non_stream_text(anthropic_client, gateway, upstream):
    mark = upstream.mark()
    raw = anthropic_client().messages.with_raw_response.create(model="up-anthropic/claude-test", max_tokens=256, system=SYSTEM, messages=USER)
    assert_gateway_headers(raw.headers, provider="up-anthropic", model="claude-test")
    m = raw.parse()
    assert (m.type, m.role, m.stop_reason) == ("message", "assistant", "end_turn")
    assert _text(m) == up.expected_text(up.ANTHROPIC_JSON_TEXT)
    assert m.usage.input_tokens == 12 and m.usage.output_tokens == 29
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    body = reqs[0].json
    assert (body["model"], body["max_tokens"]) == ("claude-test", 256)
    assert SYSTEM in (body["system"] if isinstance(body["system"], str) else "".join(b["text"] for b in body["system"]))


def test_stream_text(anthropic_client, gateway, upstream):
    mark = upstream.mark()
    with anthropic_client().messages.stream(model="up-anthropic/claude-test", max_tokens=256, messages=USER) as s:
        text = "".join(s.text_stream)
        final = s.get_final_message()
    assert text == up.expected_text(up.ANTHROPIC_STREAM_TEXT_CHUNKS)
    assert final.stop_reason == "end_turn" and _text(final) == text
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    assert reqs[0].json["stream"] is True


def test_stream_tool_use_round_trip(anthropic_client, gateway, upstream):
    client, tools = anthropic_client(), up.anthropic_tools()
    mark = upstream.mark()
    with client.messages.stream(model="up-anthropic/claude-test", max_tokens=256, messages=USER, tools=tools) as s:
        first = s.get_final_message()
    assert first.stop_reason == "tool_use"
    assert _text(first) == "I'll check the current weather in Paris for you."
    assert _tool_uses(first) == [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"})]
    with client.messages.stream(model="up-anthropic/claude-test", max_tokens=256, tools=tools,
                                messages=USER + anthropic_tool_turns(first, lambda u: "18°C, cloudy")) as s:
        final = s.get_final_message()
    assert final.stop_reason == "end_turn" and _text(final) == up.expected_text(up.ANTHROPIC_STREAM_TEXT_CHUNKS)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    last = reqs[-1].json["messages"][-1]
    assert last["role"] == "user" and last["content"][0]["tool_use_id"] == "toolu_01NRLabsLyVHZPKxbKvkfSMn"


def test_non_stream_parallel_tool_use_round_trip(anthropic_client, gateway, upstream):
    client, tools = anthropic_client(), up.anthropic_tools()
    mark = upstream.mark()
    first = client.messages.create(model="up-anthropic/claude-test", max_tokens=256, messages=USER, tools=tools)
    uses = _tool_uses(first)
    assert first.stop_reason == "tool_use"
    assert [(name, inp["name"]) for _, name, inp in uses] == [("retrieve_entity_info", n) for n in ("Alice", "Bob", "Charlie", "Daisy")]
    final = client.messages.create(model="up-anthropic/claude-test", max_tokens=256, tools=tools,
                                   messages=USER + anthropic_tool_turns(first, lambda u: f"{u.input['name']}: adult"))
    assert _text(final) == up.expected_text(up.ANTHROPIC_JSON_AFTER_TOOL)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "anthropic")
    last = reqs[-1].json["messages"][-1]
    assert [b["tool_use_id"] for b in last["content"] if b["type"] == "tool_result"] == [u[0] for u in uses], \
        "the four tool results must reach Anthropic in one user turn, in order"


# ---- cross-format: Anthropic SDK → OpenAI upstream ---------------------------------------------

def _assert_openai_wire(body: dict):
    assert body["model"] == "gpt-test"
    first = body["messages"][0]
    assert first["role"] in ("system", "developer") and SYSTEM in str(first["content"]), f"system prompt must lead the messages: {first}"


def test_cross_to_openai_non_stream(anthropic_client, gateway, upstream):
    mark = upstream.mark()
    raw = anthropic_client().messages.with_raw_response.create(model="up-openai/gpt-test", max_tokens=256, system=SYSTEM, messages=USER)
    assert_gateway_headers(raw.headers, provider="up-openai", model="gpt-test")
    m = raw.parse()
    assert (m.type, m.stop_reason) == ("message", "end_turn")
    assert _text(m) == up.expected_text(up.OPENAI_JSON_TEXT)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    assert reqs[0].path == "/openai/v1/chat/completions"
    _assert_openai_wire(reqs[0].json)


def test_cross_to_openai_stream_text(anthropic_client, gateway, upstream):
    mark = upstream.mark()
    with anthropic_client().messages.stream(model="up-openai/gpt-test", max_tokens=256, system=SYSTEM, messages=USER) as s:
        text = "".join(s.text_stream)
        final = s.get_final_message()
    assert text == up.expected_text(up.OPENAI_STREAM_TEXT) and final.stop_reason == "end_turn"
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    _assert_openai_wire(reqs[0].json)
    assert reqs[0].json["stream"] is True


def test_cross_to_openai_stream_tool_round_trip(anthropic_client, gateway, upstream):
    client, tools = anthropic_client(), up.anthropic_tools()
    mark = upstream.mark()
    with client.messages.stream(model="up-openai/gpt-test", max_tokens=256, system=SYSTEM, messages=USER, tools=tools) as s:
        first = s.get_final_message()
    assert first.stop_reason == "tool_use", "OpenAI finish_reason tool_calls must map to stop_reason tool_use"
    assert _tool_uses(first) == [("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", {"country": "UK"})]
    with client.messages.stream(model="up-openai/gpt-test", max_tokens=256, system=SYSTEM, tools=tools,
                                messages=USER + anthropic_tool_turns(first, lambda u: "London")) as s:
        final = s.get_final_message()
    assert _text(final) == up.expected_text(up.OPENAI_STREAM_AFTER_TOOL) and final.stop_reason == "end_turn"
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "openai")
    msgs = reqs[-1].json["messages"]
    assert msgs[-1] == {**msgs[-1], "role": "tool", "tool_call_id": "call_ZR5UUuTt3pf61kjwAJIYdVMj"}
    assert "London" in str(msgs[-1]["content"])
    assert msgs[-2]["role"] == "assistant" and msgs[-2]["tool_calls"][0]["id"] == "call_ZR5UUuTt3pf61kjwAJIYdVMj"
    assert [t["function"]["name"] for t in reqs[0].json["tools"]] == list(up.RECORDED_TOOLS)


def test_cross_to_gemini_non_stream(anthropic_client, gateway, upstream):
    mark = upstream.mark()
    m = anthropic_client().messages.create(model="up-gemini/gemini-test", max_tokens=256, system=SYSTEM, messages=USER)
    assert _text(m) == up.expected_text(up.GEMINI_JSON_TEXT) and m.stop_reason == "end_turn"
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, "gemini")
    assert reqs[0].path == "/gemini/v1beta/models/gemini-test:generateContent"


# ---- models and the offline demo ----------------------------------------------------------------

def test_models_list(anthropic_client):
    ids = [m.id for m in anthropic_client().models.list()]
    for expected in ("gpt-test", "claude-test", "gemini-test", "demo"):
        assert any(i == expected or i.endswith("/" + expected) for i in ids), f"/v1/models lacks {expected}: {ids}"


def test_models_in_the_anthropic_shape_and_retrieved(anthropic_client):
    """models.list and models.retrieve read the Anthropic API's shape (type, display_name, created_at); the router's
    names are listed; a name outside the token's reach is NotFoundError."""
    import anthropic
    client = anthropic_client()
    models = list(client.models.list())
    assert all(m.type == "model" and m.display_name == m.id and m.created_at.year == 1970 for m in models)
    ids = [m.id for m in models]
    assert "auto" in ids and "light" in ids, ids
    deployment = next(i for i in ids if i.endswith("/claude-test"))
    assert client.models.retrieve(deployment).id == deployment
    assert client.models.retrieve("auto").id == "auto"
    try:
        client.models.retrieve("no-such-model")
        raise AssertionError("an unknown model was retrieved")
    except anthropic.NotFoundError as error:
        assert error.body["error"]["type"] == "not_found_error" and "GET /v1/models lists" in error.body["error"]["message"]


def test_count_tokens_is_an_estimate_never_sent_upstream(anthropic_client, upstream):
    """messages.count_tokens (Claude Code calls the beta form every turn) of a model whose deployment cannot count (an
    OpenAI-compatible API, without OpenAI's count endpoint; decision 0136): an estimate that grows with the conversation,
    marked as such, never sent to the provider."""
    import anthropic
    client = anthropic_client()
    mark = upstream.mark()
    tools = [{"name": "read_file", "description": "Read a file", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
    short = client.messages.with_raw_response.count_tokens(model="compat", system="Be brief.", tools=tools,
                                                         messages=[{"role": "user", "content": "Summarise README.md"}])
    assert short.headers["x-skillgate-token-count"] == "estimated"
    counted = short.parse().input_tokens
    longer = client.beta.messages.count_tokens(model="compat", system="Be brief.", tools=tools,
                                               messages=[{"role": "user", "content": "Summarise README.md " * 200}])
    assert 0 < counted < longer.input_tokens
    assert upstream.since(mark) == []
    try:
        client.messages.count_tokens(model="compat", messages=[])
        raise AssertionError("an empty conversation was counted")
    except anthropic.BadRequestError as error:
        assert error.body["error"]["type"] == "invalid_request_error" and "messages" in error.body["error"]["message"]


def test_count_tokens_of_an_anthropic_model_is_the_providers(anthropic_client, upstream):
    """A model routed to an Anthropic deployment is counted by the provider: the double's count comes back, marked so,
    asked with the Messages body less what only shapes the answer (the double refuses any member the API does not take)."""
    client = anthropic_client()
    mark = upstream.mark()
    counted = client.messages.with_raw_response.count_tokens(
        model="claude", system="Be brief.", messages=[{"role": "user", "content": "Summarise README.md"}],
        tools=[{"name": "read_file", "description": "Read a file", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}])
    assert counted.headers["x-skillgate-token-count"] == "provider"
    seen = upstream.since(mark)
    assert [r.path for r in seen] == ["/anthropic/v1/messages/count_tokens"]
    assert counted.parse().input_tokens == len(seen[0].body) // 4
    assert set(seen[0].json) == {"model", "system", "messages", "tools"}


@pytest.mark.parametrize("alias, path, members", [
    ("gpt", "/openai/v1/responses/input_tokens", {"model", "input", "tools"}),
    ("gemini", "/gemini/v1beta/models/gemini-test:countTokens", {"generateContentRequest"}),
])
def test_count_tokens_of_an_openai_or_gemini_model_is_the_providers(anthropic_client, upstream, alias, path, members):
    """A model routed to OpenAI's own API or to Gemini is counted by the provider too (decision 0136): OpenAI's Responses
    count, Gemini's countTokens with the system instruction and tools inside generateContentRequest."""
    mark = upstream.mark()
    counted = anthropic_client().messages.with_raw_response.count_tokens(
        model=alias, system="Be brief.", messages=[{"role": "user", "content": "Summarise README.md"}],
        tools=[{"name": "read_file", "description": "Read a file", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}])
    assert counted.headers["x-skillgate-token-count"] == "provider"
    [seen] = upstream.since(mark)
    assert seen.path == path and set(seen.json) == members, (seen.path, sorted(seen.json))
    assert counted.parse().input_tokens == up.counted(seen.body)


def test_demo_model_offline_text(anthropic_client, upstream):
    mark = upstream.mark()
    client = anthropic_client()
    m = client.messages.create(model="demo/demo", max_tokens=256, messages=[{"role": "user", "content": "Hello there"}])
    assert _text(m) and m.stop_reason == "end_turn"
    with client.messages.stream(model="demo/demo-light", max_tokens=256, messages=[{"role": "user", "content": "Hello there"}]) as s:
        text = "".join(s.text_stream)
    assert text
    assert upstream.since(mark) == [], "the demo model must not call any upstream"


def test_demo_model_calls_time_tool_then_answers(anthropic_client, upstream):
    mark = upstream.mark()
    client = anthropic_client()
    ask = [{"role": "user", "content": "What time is it right now?"}]
    first = client.messages.create(model="demo/demo", max_tokens=256, messages=ask, tools=[TIME_TOOL_ANTHROPIC])
    assert first.stop_reason == "tool_use"
    assert [name for _, name, _ in _tool_uses(first)] == ["get_current_time"]
    final = client.messages.create(model="demo/demo", max_tokens=256, tools=[TIME_TOOL_ANTHROPIC],
                                   messages=ask + anthropic_tool_turns(first, lambda u: "2026-11-30T07:00:00Z"))
    assert final.stop_reason == "end_turn" and _text(final)
    plain = client.messages.create(model="demo/demo", max_tokens=256, messages=ask)
    assert plain.stop_reason == "end_turn" and _text(plain) and not _tool_uses(plain)
    assert upstream.since(mark) == []
