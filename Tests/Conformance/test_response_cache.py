"""The exact-match response cache (decision 0140) through the official SDKs: a repeated call returns the same content,
says it was a hit, and the upstream is asked once. The `cached` scenario keeps answers; each test asks a question of
its own, so the session's other requests never make it a hit."""
from __future__ import annotations

import uuid

from sdk_helpers import collect_openai_stream

CACHED = {"x-skillgate-scenario": "cached"}


def _question() -> str:
    return f"Hello, {uuid.uuid4().hex}"


def test_openai_repeat_is_a_hit(openai_client, upstream):
    client, ask = openai_client(), [{"role": "user", "content": _question()}]
    mark = upstream.mark()
    first = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask, extra_headers=CACHED)
    second = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask, extra_headers=CACHED)
    assert (first.headers["x-skillgate-cache"], second.headers["x-skillgate-cache"]) == ("miss", "hit")
    assert second.headers["age"] == "0"
    a, b = first.parse(), second.parse()
    assert b.choices[0].message.content == a.choices[0].message.content and b.choices[0].message.content
    assert b.choices[0].finish_reason == "stop" and b.model == a.model
    assert b.id != a.id and b.id.startswith("chatcmpl-")
    assert len(upstream.since(mark)) == 1
    # The whole answer again, streamed.
    raw = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask, stream=True, extra_headers=CACHED)
    assert raw.headers["x-skillgate-cache"] == "hit"
    text, calls, finish = collect_openai_stream(raw.parse())
    assert (text, calls, finish) == (a.choices[0].message.content, [], "stop")
    assert len(upstream.since(mark)) == 1


def test_anthropic_repeat_is_a_hit(anthropic_client, upstream):
    client, ask = anthropic_client(), [{"role": "user", "content": _question()}]
    mark = upstream.mark()
    first = client.messages.with_raw_response.create(model="up-anthropic/claude-test", max_tokens=256, messages=ask, extra_headers=CACHED)
    second = client.messages.with_raw_response.create(model="up-anthropic/claude-test", max_tokens=256, messages=ask, extra_headers=CACHED)
    assert (first.headers["x-skillgate-cache"], second.headers["x-skillgate-cache"]) == ("miss", "hit")
    a, b = first.parse(), second.parse()
    assert [c.text for c in b.content] == [c.text for c in a.content] and b.content
    assert (b.stop_reason, b.type, b.role) == ("end_turn", "message", "assistant")
    assert b.id != a.id and b.id.startswith("msg_")
    with client.messages.stream(model="up-anthropic/claude-test", max_tokens=256, messages=ask, extra_headers=CACHED) as s:
        text = "".join(s.text_stream)
        assert s.response.headers["x-skillgate-cache"] == "hit"
    assert text == "".join(c.text for c in a.content)
    assert len(upstream.since(mark)) == 1


def test_no_store_neither_reads_nor_keeps(openai_client, upstream):
    client, ask = openai_client(), [{"role": "user", "content": _question()}]
    mark = upstream.mark()
    headers = {**CACHED, "x-skillgate-cache": "no-store"}
    first = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask, extra_headers=headers)
    second = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask, extra_headers=CACHED)
    assert (first.headers["x-skillgate-cache"], second.headers["x-skillgate-cache"]) == ("bypass", "miss")
    assert len(upstream.since(mark)) == 2


def test_end_users_named_by_safety_identifier_keep_their_answers_apart(openai_client, upstream):
    """The SDK's `safety_identifier` (OpenAI's successor to `user`) names the end user, as on the Responses API: two
    end users of one app token never share a kept answer, and the provider gets each one's identifier as `user`
    (decision 0143)."""
    client, ask = openai_client(), [{"role": "user", "content": _question()}]
    mark = upstream.mark()
    for person in ("alice", "bob", "alice"):
        client.chat.completions.create(model="up-openai/gpt-test", messages=ask, safety_identifier=person, extra_headers=CACHED)
    sent = upstream.since(mark)
    assert [r.json.get("user") for r in sent] == ["alice", "bob"]
    assert all("safety_identifier" not in r.json for r in sent)


def test_max_age_zero_in_any_spelling_refreshes(openai_client, upstream):
    """`Cache-Control: max-age` is read as HTTP delta-seconds: `00` and the quoted `"0"` ask for a fresh answer as
    `0` does (decision 0143)."""
    client, ask = openai_client(), [{"role": "user", "content": _question()}]
    mark = upstream.mark()
    client.chat.completions.create(model="up-openai/gpt-test", messages=ask, extra_headers=CACHED)
    for value in ("max-age=00", 'max-age="0"'):
        raw = client.chat.completions.with_raw_response.create(model="up-openai/gpt-test", messages=ask,
                                                               extra_headers={**CACHED, "cache-control": value})
        assert raw.headers["x-skillgate-cache"] == "refresh", value
    assert len(upstream.since(mark)) == 3
