"""Self-tests of the upstream doubles: no gateway needed.

The official SDKs talk straight to the doubles, which proves the doubles speak wire formats the
real clients parse, and raw HTTP checks that served bodies are byte-for-byte the recordings.
"""
from __future__ import annotations

import http.client
import json

import anthropic
import openai
import pytest

import upstream as up
from conftest import DOUBLE_KEYS
from sdk_helpers import anthropic_tool_turns, calls_from_message, collect_openai_stream, openai_tool_turns, parsed_args


@pytest.fixture
def oai(upstream):
    return openai.OpenAI(api_key=DOUBLE_KEYS["openai"], base_url=f"{upstream.base}/openai/v1", max_retries=0, timeout=10)


@pytest.fixture
def ant(upstream):
    return anthropic.Anthropic(api_key=DOUBLE_KEYS["anthropic"], base_url=f"{upstream.base}/anthropic", max_retries=0, timeout=10)


def raw(upstream, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", upstream.port, timeout=10)
    try:
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


USER = [{"role": "user", "content": "Hello"}]


# ---- OpenAI ------------------------------------------------------------------------------------

def test_openai_double_text_json(oai, upstream):
    mark = upstream.mark()
    r = oai.chat.completions.create(model="gpt-test", messages=USER)
    assert r.choices[0].message.content == up.expected_text(up.OPENAI_JSON_TEXT)
    assert r.choices[0].finish_reason == "stop"
    [req] = upstream.since(mark)
    assert req.provider == "openai" and req.model == "gpt-test" and req.json["messages"] == USER
    assert req.headers["authorization"] == f"Bearer {DOUBLE_KEYS['openai']}"


def test_openai_double_stream_text_is_byte_exact(upstream):
    status, headers, body = raw(upstream, "POST", "/openai/v1/chat/completions",
                                {"model": "gpt-test", "messages": USER, "stream": True},
                                {"Authorization": f"Bearer {DOUBLE_KEYS['openai']}"})
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    assert body == up.recording_bytes(up.OPENAI_STREAM_TEXT)


def test_openai_double_stream_tool_call_round_trip(oai, upstream):
    """Also exercises the stream/turn helpers the gateway tests use."""
    tools = up.openai_tools()
    text, calls, finish = collect_openai_stream(oai.chat.completions.create(model="gpt-test", messages=USER, tools=tools, stream=True))
    assert finish == "tool_calls" and text == ""
    assert [(c["id"], c["name"], parsed_args(c)) for c in calls] == [("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", {"country": "UK"})]
    mark = upstream.mark()
    text2, calls2, finish2 = collect_openai_stream(oai.chat.completions.create(
        model="gpt-test", messages=USER + openai_tool_turns(text, calls, lambda c: "London"), tools=tools, stream=True))
    assert (text2, calls2, finish2) == (up.expected_text(up.OPENAI_STREAM_AFTER_TOOL), [], "stop") and "London" in text2
    [req] = upstream.since(mark)
    assert req.json["messages"][-1] == {"role": "tool", "tool_call_id": "call_ZR5UUuTt3pf61kjwAJIYdVMj", "content": "London"}


def test_openai_double_json_tool_calls(oai):
    r = oai.chat.completions.create(model="gpt-test", messages=USER, tools=up.openai_tools())
    assert r.choices[0].finish_reason == "tool_calls"
    calls = calls_from_message(r.choices[0].message)
    assert [(c["name"], parsed_args(c)) for c in calls] == [("delete_file", {"path": ".env"}), ("create_file", {"path": "test.txt"})]
    r2 = oai.chat.completions.create(model="gpt-test", messages=USER + openai_tool_turns(None, calls, lambda c: "ok"), tools=up.openai_tools())
    assert r2.choices[0].message.content == up.expected_text(up.OPENAI_JSON_TEXT)


def test_openai_double_rejects_wrong_key(upstream):
    client = openai.OpenAI(api_key="sk-wrong", base_url=f"{upstream.base}/openai/v1", max_retries=0, timeout=10)
    with pytest.raises(openai.AuthenticationError):
        client.chat.completions.create(model="gpt-test", messages=USER)


def test_openai_double_scripted_failures(oai):
    with pytest.raises(openai.RateLimitError) as e:
        oai.chat.completions.create(model="rate-limited", messages=USER)
    assert e.value.response.headers["retry-after"] == up.RETRY_AFTER_SECONDS
    assert e.value.body["code"] == "rate_limit_exceeded"
    assert json.loads(e.value.response.text)["error"]["type"] == "requests"
    with pytest.raises(openai.InternalServerError) as e:
        oai.chat.completions.create(model="broken", messages=USER)
    assert e.value.status_code == 500
    with pytest.raises(openai.APIStatusError) as e:
        oai.chat.completions.create(model="html-proxy", messages=USER)
    assert e.value.status_code == 502 and e.value.response.headers["content-type"].startswith("text/html")


def test_openai_double_counts_tokens_as_the_sdk_reads_them(oai, upstream):
    """OpenAI's Responses count (`responses.input_tokens.count`): the SDK reads the double's answer; a member the endpoint
    does not take and a previous_response_id it never made are refused as the API refuses them."""
    mark = upstream.mark()
    counted = oai.responses.input_tokens.count(model="gpt-test", instructions="Be brief.", input="Hello")
    [req] = upstream.since(mark)
    assert counted.object == "response.input_tokens" and counted.input_tokens == up.counted(req.body) > 0
    with pytest.raises(openai.BadRequestError) as e:
        oai.responses.input_tokens.count(model="gpt-test", input="Hello", extra_body={"max_output_tokens": 10})
    assert e.value.body["code"] == "unknown_parameter" and e.value.body["param"] == "max_output_tokens"
    with pytest.raises(openai.NotFoundError):
        oai.responses.input_tokens.count(model="gpt-test", input="Hello", previous_response_id="resp_gateway_own")
    with pytest.raises(openai.BadRequestError) as e:
        oai.responses.input_tokens.count(model="gpt-test", input="Hello", tools=[{"type": "function", "name": "f", "parameters": {}}])
    assert e.value.body["param"] == "tools[0].strict"


# ---- Anthropic ---------------------------------------------------------------------------------

def test_anthropic_double_text_json(ant, upstream):
    mark = upstream.mark()
    r = ant.messages.create(model="claude-test", max_tokens=100, system="Be brief.", messages=USER)
    assert r.content[0].text == up.expected_text(up.ANTHROPIC_JSON_TEXT)
    [req] = upstream.since(mark)
    # anthropic SDK 2.x sends the key as Authorization: Bearer (the double accepts that and x-api-key).
    assert req.headers["authorization"] == f"Bearer {DOUBLE_KEYS['anthropic']}" and req.headers["anthropic-version"]
    assert req.json["system"] == "Be brief." and req.json["max_tokens"] == 100


def test_anthropic_double_stream_text(ant):
    with ant.messages.stream(model="claude-test", max_tokens=100, messages=USER) as s:
        text = "".join(s.text_stream)
        final = s.get_final_message()
    assert text == up.expected_text(up.ANTHROPIC_STREAM_TEXT_CHUNKS) and final.stop_reason == "end_turn"


def test_anthropic_double_stream_tool_use_is_byte_exact(ant, upstream):
    status, _, body = raw(upstream, "POST", "/anthropic/v1/messages",
                          {"model": "claude-test", "max_tokens": 100, "messages": USER, "tools": up.anthropic_tools(), "stream": True},
                          {"x-api-key": DOUBLE_KEYS["anthropic"], "anthropic-version": "2023-06-01"})
    assert status == 200 and body == up.recording_bytes(up.ANTHROPIC_STREAM_TOOL)
    with ant.messages.stream(model="claude-test", max_tokens=100, messages=USER, tools=up.anthropic_tools()) as s:
        final = s.get_final_message()
    [tool] = [b for b in final.content if b.type == "tool_use"]
    assert (tool.name, tool.input, final.stop_reason) == ("get_weather", {"location": "Paris"}, "tool_use")
    mark = upstream.mark()
    with ant.messages.stream(model="claude-test", max_tokens=100, tools=up.anthropic_tools(),
                             messages=USER + anthropic_tool_turns(final, lambda u: "sunny")) as s:
        text = "".join(s.text_stream)
    assert text == up.expected_text(up.ANTHROPIC_STREAM_TEXT_CHUNKS)
    [req] = upstream.since(mark)
    assert req.json["messages"][1]["content"] == [
        {"type": "text", "text": "I'll check the current weather in Paris for you."},
        {"type": "tool_use", "id": "toolu_01NRLabsLyVHZPKxbKvkfSMn", "name": "get_weather", "input": {"location": "Paris"}}]
    assert req.json["messages"][2]["content"] == [{"type": "tool_result", "tool_use_id": "toolu_01NRLabsLyVHZPKxbKvkfSMn", "content": "sunny"}]


def test_anthropic_double_json_tool_round_trip(ant):
    tools = up.anthropic_tools()
    r = ant.messages.create(model="claude-test", max_tokens=100, messages=USER, tools=tools)
    uses = [b for b in r.content if b.type == "tool_use"]
    assert r.stop_reason == "tool_use" and [u.input["name"] for u in uses] == ["Alice", "Bob", "Charlie", "Daisy"]
    r2 = ant.messages.create(model="claude-test", max_tokens=100, messages=USER + anthropic_tool_turns(r, lambda u: "ok"), tools=tools)
    assert r2.content[0].text == up.expected_text(up.ANTHROPIC_JSON_AFTER_TOOL)


def test_anthropic_double_enforces_wire_rules(upstream):
    h = {"x-api-key": DOUBLE_KEYS["anthropic"], "anthropic-version": "2023-06-01"}
    status, _, body = raw(upstream, "POST", "/anthropic/v1/messages", {"model": "claude-test", "messages": USER}, h)
    assert status == 400 and json.loads(body)["error"]["message"].startswith("max_tokens")
    status, _, _ = raw(upstream, "POST", "/anthropic/v1/messages",
                       {"model": "claude-test", "max_tokens": 5, "messages": [{"role": "system", "content": "x"}] + USER}, h)
    assert status == 400
    status, _, _ = raw(upstream, "POST", "/anthropic/v1/messages", {"model": "claude-test", "max_tokens": 5, "messages": USER},
                       {"x-api-key": DOUBLE_KEYS["anthropic"]})
    assert status == 400


def test_anthropic_double_rate_limited(ant):
    with pytest.raises(anthropic.RateLimitError) as e:
        ant.messages.create(model="rate-limited", max_tokens=10, messages=USER)
    assert e.value.response.headers["retry-after"] == up.RETRY_AFTER_SECONDS
    assert e.value.body["error"]["type"] == "rate_limit_error"


# ---- Gemini ------------------------------------------------------------------------------------

GEMINI_KEY = {"x-goog-api-key": DOUBLE_KEYS["gemini"]}
GEMINI_USER = {"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}
GEMINI_TOOLS = [{"functionDeclarations": [{"name": "weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}]}]


def test_gemini_double_stream_is_byte_exact(upstream):
    mark = upstream.mark()
    status, headers, body = raw(upstream, "POST", "/gemini/v1beta/models/gemini-test:streamGenerateContent?alt=sse", GEMINI_USER, GEMINI_KEY)
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert body == up.recording_bytes(up.GEMINI_STREAM_TEXT)
    [req] = upstream.since(mark)
    assert req.model == "gemini-test" and req.query == {"alt": ["sse"]}


def test_gemini_double_tool_calls_and_text(upstream):
    path = "/gemini/v1beta/models/gemini-test:generateContent"
    status, _, body = raw(upstream, "POST", path, {**GEMINI_USER, "tools": GEMINI_TOOLS}, GEMINI_KEY)
    assert status == 200 and body == up.recording_bytes(up.GEMINI_JSON_TOOL)
    status, _, body = raw(upstream, "POST", path.replace(":generate", ":streamGenerate") + "?alt=sse", {**GEMINI_USER, "tools": GEMINI_TOOLS}, GEMINI_KEY)
    assert status == 200 and b'"functionCall"' in body and b'"get_country"' in body
    after = {"contents": GEMINI_USER["contents"] + [
        {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"location": "Paris"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"result": "sunny"}}}]}], "tools": GEMINI_TOOLS}
    status, _, body = raw(upstream, "POST", path, after, GEMINI_KEY)
    doc = json.loads(body)
    assert status == 200 and doc["candidates"][0]["content"]["parts"][0]["text"] == "The capital of Mexico is Mexico City."
    assert up.expected_text(up.GEMINI_JSON_TEXT) == up.expected_text(up.GEMINI_STREAM_TEXT) == "The capital of Mexico is Mexico City."


def test_gemini_double_wants_key_in_header(upstream):
    status, _, body = raw(upstream, "POST", f"/gemini/v1beta/models/gemini-test:generateContent?key={DOUBLE_KEYS['gemini']}", GEMINI_USER)
    assert status == 400 and json.loads(body)["error"]["status"] == "INVALID_ARGUMENT"


def test_gemini_double_rate_limited_serves_recorded_body(upstream):
    status, headers, body = raw(upstream, "POST", "/gemini/v1beta/models/rate-limited:generateContent", GEMINI_USER, GEMINI_KEY)
    assert status == 429 and headers["retry-after"] == up.RETRY_AFTER_SECONDS
    assert body == up.recording_bytes(up.GEMINI_429)


def test_gemini_double_counts_tokens_as_the_api_answers(upstream):
    """`countTokens`: `contents`, or a `generateContentRequest` naming the URL's model (never both); unknown members
    refused by name."""
    path = "/gemini/v1beta/models/gemini-test:countTokens"
    whole = {"generateContentRequest": {"model": "models/gemini-test", **GEMINI_USER, "tools": GEMINI_TOOLS,
                                        "systemInstruction": {"parts": [{"text": "Be brief."}]}}}
    status, _, body = raw(upstream, "POST", path, whole, GEMINI_KEY)
    doc = json.loads(body)
    assert status == 200 and doc["totalTokens"] == up.counted(json.dumps(whole).encode()) and doc["promptTokensDetails"][0]["modality"] == "TEXT"
    assert raw(upstream, "POST", path, GEMINI_USER, GEMINI_KEY)[0] == 200
    for refused in ({**GEMINI_USER, **whole}, {**GEMINI_USER, "tools": GEMINI_TOOLS},
                    {"generateContentRequest": {**whole["generateContentRequest"], "model": "models/other"}},
                    {"generateContentRequest": {**whole["generateContentRequest"], "max_tokens": 5}}):
        status, _, body = raw(upstream, "POST", path, refused, GEMINI_KEY)
        assert status == 400 and json.loads(body)["error"]["status"] == "INVALID_ARGUMENT", refused


def test_double_unknown_route_is_404(upstream):
    assert raw(upstream, "POST", "/nowhere", {})[0] == 404
    assert raw(upstream, "GET", "/openai/v1/models", headers={"Authorization": f"Bearer {DOUBLE_KEYS['openai']}"})[0] == 404


def test_recordings_match_shared_fixtures():
    """The copies are byte-for-byte the recordings they were copied from, when that folder is given
    (SKILLGATE_SOURCE_FIXTURES=<folder with openai/, anthropic/, gemini/>; see recordings/PROVENANCE.md)."""
    import os
    from pathlib import Path
    source = os.environ.get("SKILLGATE_SOURCE_FIXTURES")
    if not source or not Path(source).is_dir():
        pytest.skip("set SKILLGATE_SOURCE_FIXTURES to the folder the recordings were copied from to compare them")
    shared = Path(source)
    copies = [p for p in up.RECORDINGS.glob("*/*") if p.parent.name != "LICENSES"]
    assert copies
    for p in copies:
        assert p.read_bytes() == (shared / p.parent.name / p.name).read_bytes(), f"{p} differs from the shared recording"
