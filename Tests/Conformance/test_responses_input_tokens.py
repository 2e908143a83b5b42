"""POST /v1/responses/input_tokens (decision 0136) with the official `openai` SDK's `client.responses.input_tokens.count`
(openai 3.63.0, pinned in requirements.txt, has the method): the provider's count for a model whose deployment counts
(OpenAI's Responses count, Anthropic's count_tokens, Gemini's countTokens, each at the upstream double, which refuses any
member its endpoint does not take), the gateway's estimate for one that does not (an OpenAI-compatible API) or when the
count fails, the stored conversation of previous_response_id counted too, and errors in the OpenAI shape."""
from __future__ import annotations

import json
import time

import openai
import pytest

import upstream as up

INSTRUCTIONS = "You are a coding agent."
TOOLS = [{"type": "function", "name": "read_file", "description": "Read a file",
          "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]

# alias → (the count endpoint its deployment is asked at, the members the gateway sends there)
COUNTED = {
    "gpt": ("/openai/v1/responses/input_tokens", {"model", "input", "tools"}),
    "claude": ("/anthropic/v1/messages/count_tokens", {"model", "system", "messages", "tools"}),
    "gemini": ("/gemini/v1beta/models/gemini-test:countTokens", {"generateContentRequest"}),
}


@pytest.mark.parametrize("alias", list(COUNTED))
def test_a_deployment_that_counts_gives_the_providers_count(openai_client, upstream, alias):
    path, members = COUNTED[alias]
    mark = upstream.mark()
    raw = openai_client().responses.input_tokens.with_raw_response.count(model=alias, instructions=INSTRUCTIONS, tools=TOOLS,
                                                                         input="Summarise README.md")
    assert raw.headers["x-skillgate-token-count"] == "provider"
    counted = raw.parse()
    assert counted.object == "response.input_tokens"
    [seen] = upstream.since(mark)
    assert seen.path == path and seen.status == 200
    assert counted.input_tokens == up.counted(seen.body)
    assert set(seen.json) == members, sorted(seen.json)
    if alias == "gemini":
        inner = seen.json["generateContentRequest"]
        assert inner["model"] == "models/gemini-test" and set(inner) == {"model", "contents", "systemInstruction", "tools"}


def test_a_deployment_that_does_not_count_is_estimated_and_not_asked(openai_client, upstream):
    """An OpenAI-compatible API has no /responses/input_tokens: the gateway estimates, and asks it nothing."""
    client = openai_client()
    mark = upstream.mark()
    short = client.responses.input_tokens.with_raw_response.count(model="compat", instructions=INSTRUCTIONS, tools=TOOLS,
                                                                  input="Summarise README.md")
    longer = client.responses.input_tokens.count(model="compat", instructions=INSTRUCTIONS, tools=TOOLS,
                                                 input="Summarise README.md " * 200)
    assert short.headers["x-skillgate-token-count"] == "estimated"
    assert 0 < short.parse().input_tokens < longer.input_tokens
    assert upstream.since(mark) == []


def test_a_failed_count_is_answered_with_the_estimate(openai_client, gateway, upstream):
    mark = upstream.mark()
    raw = openai_client().responses.input_tokens.with_raw_response.count(model="up-openai/broken", input="Summarise README.md")
    assert raw.headers["x-skillgate-token-count"] == "estimated" and raw.parse().input_tokens > 0
    [seen] = upstream.since(mark)
    assert seen.path == "/openai/v1/responses/input_tokens" and seen.status == 500
    request_id = raw.headers["x-request-id"]
    deadline = time.monotonic() + 5  # the line is written just after the response
    while not (lines := [json.loads(line) for line in gateway.log().splitlines() if request_id in line]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert lines and lines[-1]["attempts"][0].startswith("up-openai/broken: token count failed (502 "), lines


@pytest.mark.parametrize("alias", ["gpt", "compat"])
def test_previous_response_id_counts_the_stored_conversation(openai_client, upstream, alias):
    """The conversation a previous_response_id names is counted with the new input: sent to the provider as items (the
    double refuses a previous_response_id it never made), or estimated."""
    client = openai_client()
    first = client.responses.create(model="compat", input="Remember 7, and the README's first heading.")
    mark = upstream.mark()
    continued = client.responses.input_tokens.count(model=alias, previous_response_id=first.id, input="Which number?")
    alone = client.responses.input_tokens.count(model=alias, input="Which number?")
    assert continued.input_tokens > alone.input_tokens
    seen = upstream.since(mark)
    if alias == "compat":
        assert seen == []
    else:
        sent = seen[0].json
        assert "previous_response_id" not in sent
        assert [item.get("role") for item in sent["input"]] == ["user", "assistant", "user"], sent["input"]
        assert "Remember 7" in sent["input"][0]["content"] and first.output_text[:30] in sent["input"][1]["content"]


def test_refusals_are_in_the_openai_shape(openai_client, gateway):
    client = openai_client()
    with pytest.raises(openai.BadRequestError) as caught:
        client.responses.input_tokens.count(input="hi")
    assert caught.value.body["param"] == "model"
    with pytest.raises(openai.PermissionDeniedError):
        openai_client(gateway.tokens["conformance-light-only"]).responses.input_tokens.count(model="claude", input="hi")
    with pytest.raises(openai.NotFoundError) as caught:
        client.responses.input_tokens.count(model="gpt", input="hi", previous_response_id="resp_does_not_exist")
    assert caught.value.body["code"] == "previous_response_not_found"
    with pytest.raises(openai.AuthenticationError):
        openai_client("sk-not-a-skillgate-token").responses.input_tokens.count(model="gpt", input="hi")
    get = gateway.request("GET", "/v1/responses/input_tokens", headers={"Authorization": f"Bearer {gateway.tokens['conformance-full']}"})
    assert get.status == 405 and get.headers["allow"] == "POST" and "POST" in get.json()["error"]["message"]
