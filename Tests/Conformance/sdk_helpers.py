"""Small helpers shared by the SDK-driven tests: collecting streams and building follow-up turns."""
from __future__ import annotations

import json

from conftest import DOUBLE_KEYS, forwarded_tokens

TIME_TOOL_OPENAI = {"type": "function", "function": {
    "name": "get_current_time", "description": "Returns the current time in a time zone.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": []}}}
TIME_TOOL_ANTHROPIC = {"name": "get_current_time", "description": "Returns the current time in a time zone.",
                       "input_schema": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": []}}


def collect_openai_stream(stream):
    """(text, [tool calls as dicts with id/name/arguments], finish_reason) from an OpenAI SDK stream."""
    text, calls, finish = [], {}, None
    for chunk in stream:
        for ch in chunk.choices:
            if ch.delta and ch.delta.content:
                text.append(ch.delta.content)
            for tc in (ch.delta.tool_calls if ch.delta else None) or []:
                c = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                c["id"] += tc.id or ""
                if tc.function:
                    c["name"] += tc.function.name or ""
                    c["arguments"] += tc.function.arguments or ""
            if ch.finish_reason:
                finish = ch.finish_reason
    return "".join(text), [calls[i] for i in sorted(calls)], finish


def openai_tool_turns(content, calls, results):
    """The assistant turn with `calls` and one tool message per call (results: name → content)."""
    assistant = {"role": "assistant", "content": content or None, "tool_calls": [
        {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in calls]}
    return [assistant] + [{"role": "tool", "tool_call_id": c["id"], "content": results(c)} for c in calls]


def calls_from_message(message):
    return [{"id": tc.id, "name": tc.function.name, "arguments": tc.function.arguments} for tc in message.tool_calls or []]


def anthropic_tool_turns(message, results):
    """The assistant turn replayed from `message` and one user turn with a tool_result per tool_use."""
    uses = [b for b in message.content if b.type == "tool_use"]
    assistant = {"role": "assistant", "content": [b.model_dump(exclude_none=True, include={"type", "text", "id", "name", "input"}) for b in message.content]}
    return [assistant, {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": u.id, "content": results(u)} for u in uses]}]


def assert_clean_upstream(requests, gateway, provider: str):
    """What every upstream request must look like: the provider's key, never a client token."""
    assert requests, "the gateway sent nothing upstream"
    for r in requests:
        assert r.provider == provider, f"expected a call to the {provider} double, got {r.method} {r.raw_path}"
        assert not forwarded_tokens([r], gateway.tokens), f"a SkillGate client token was forwarded upstream to {r.raw_path}"
        if provider == "openai":
            assert r.headers.get("authorization") == f"Bearer {DOUBLE_KEYS['openai']}", "OpenAI upstream must get the stored key as Bearer"
        elif provider == "anthropic":
            assert r.headers.get("x-api-key") == DOUBLE_KEYS["anthropic"], "Anthropic upstream must get the stored key in x-api-key"
            assert r.headers.get("anthropic-version") == "2023-06-01", "the catalog's anthropic-version header must be sent"
            assert "authorization" not in r.headers, f"unexpected Authorization header upstream: {r.headers.get('authorization')!r}"
        elif provider == "gemini":
            assert r.headers.get("x-goog-api-key") == DOUBLE_KEYS["gemini"], "Gemini upstream must get the key in x-goog-api-key"
            assert "key" not in r.query and DOUBLE_KEYS["gemini"] not in r.raw_path, "the Gemini key must never be in the URL"


def parsed_args(call) -> dict:
    return json.loads(call["arguments"] or "{}")
