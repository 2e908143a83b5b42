"""The OpenAI Responses API (POST /v1/responses) through SkillGate with the official SDKs: `openai`
(`client.responses.create`, streaming, the `client.responses.stream(...)` helper, function tools,
`previous_response_id`) and `openai-agents` with its default model (OpenAIResponsesModel), each in
front of an OpenAI-, an Anthropic- and a Gemini-format upstream double."""
from __future__ import annotations

import asyncio
import json

import openai
import pytest

import upstream as up
from conftest import assert_gateway_headers
from sdk_helpers import assert_clean_upstream

INSTRUCTIONS = "Be brief."

# alias → (provider double, recording answering a text request without / with streaming,
#          and a request after a tool result without / with streaming)
PROVIDERS = {
    "gpt": ("openai", up.OPENAI_JSON_TEXT, up.OPENAI_STREAM_TEXT, up.OPENAI_JSON_TEXT, up.OPENAI_STREAM_AFTER_TOOL),
    "claude": ("anthropic", up.ANTHROPIC_JSON_TEXT, up.ANTHROPIC_STREAM_TEXT_CHUNKS, up.ANTHROPIC_JSON_AFTER_TOOL, up.ANTHROPIC_STREAM_TEXT_CHUNKS),
    "gemini": ("gemini", up.GEMINI_JSON_TEXT, up.GEMINI_STREAM_TEXT, up.GEMINI_JSON_TEXT, up.GEMINI_STREAM_TEXT),
}
ALIASES = list(PROVIDERS)


def responses_tools() -> list[dict]:
    """The recordings' tools as Responses function tools (flat: name/parameters at the top)."""
    return [{"type": "function", "name": t["function"]["name"], "description": t["function"]["description"],
             "parameters": t["function"]["parameters"]} for t in up.openai_tools()]


def last_turn_is_tool_result(provider: str, body: dict) -> list[str]:
    """The call ids the upstream request's last turn answers, in the provider's own format."""
    if provider == "openai":
        return [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"]
    if provider == "anthropic":
        return [b["tool_use_id"] for b in body["messages"][-1]["content"] if b.get("type") == "tool_result"]
    return [p["functionResponse"]["name"] for p in body["contents"][-1]["parts"] if "functionResponse" in p]


# ---- openai SDK: client.responses ------------------------------------------------------------

@pytest.mark.parametrize("alias", ALIASES)
def test_create_non_stream(openai_client, gateway, upstream, alias):
    provider, text_json = PROVIDERS[alias][:2]
    mark = upstream.mark()
    raw = openai_client().responses.with_raw_response.create(model=alias, instructions=INSTRUCTIONS, input="Hello")
    assert_gateway_headers(raw.headers, provider=f"up-{provider}")
    r = raw.parse()
    assert r.object == "response" and r.status == "completed" and r.id.startswith("resp_")
    assert r.output_text == up.expected_text(text_json)
    assert r.usage.input_tokens > 0 and r.usage.output_tokens > 0
    assert r.usage.total_tokens == r.usage.input_tokens + r.usage.output_tokens
    assert r.usage.input_tokens_details.cached_tokens >= 0 and r.usage.output_tokens_details.reasoning_tokens >= 0
    assert r.instructions == INSTRUCTIONS
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, provider)
    assert INSTRUCTIONS in json.dumps(reqs[0].json), "instructions must reach the upstream as its system prompt"


@pytest.mark.parametrize("alias", ALIASES)
def test_create_stream_events(openai_client, upstream, alias):
    provider, _, text_stream = PROVIDERS[alias][:3]
    events = list(openai_client().responses.create(model=alias, input="Hello", stream=True))
    types = [e.type for e in events]
    assert types[:2] == ["response.created", "response.in_progress"]
    assert types[-1] == "response.completed"
    for expected in ("response.output_item.added", "response.content_part.added", "response.output_text.delta",
                     "response.output_text.done", "response.content_part.done", "response.output_item.done"):
        assert expected in types, f"the stream lacks {expected}: {types}"
    assert [e.sequence_number for e in events] == list(range(len(events)))
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert text == up.expected_text(text_stream)
    assert events[-1].response.output_text == text


@pytest.mark.parametrize("alias", ALIASES)
def test_stream_helper_final_response(openai_client, alias):
    text_stream = PROVIDERS[alias][2]
    deltas = []
    with openai_client().responses.stream(model=alias, input="Hello", instructions=INSTRUCTIONS) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                deltas.append(event.delta)
        final = stream.get_final_response()
    assert "".join(deltas) == final.output_text == up.expected_text(text_stream)
    assert final.status == "completed"


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("alias", ALIASES)
def test_function_tool_round_trip_by_previous_response_id(openai_client, gateway, upstream, alias, stream):
    provider, _, _, after_json, after_stream = PROVIDERS[alias]
    client, tools = openai_client(), responses_tools()
    mark = upstream.mark()
    if stream:
        with client.responses.stream(model=alias, input="Use the tools.", tools=tools) as s:
            first = s.get_final_response()
    else:
        first = client.responses.create(model=alias, input="Use the tools.", tools=tools)
    calls = [o for o in first.output if o.type == "function_call"]
    assert calls, f"expected function calls, got {first.output}"
    assert all(c.name in up.RECORDED_TOOLS and c.call_id and isinstance(json.loads(c.arguments or "{}"), dict) for c in calls)
    outputs = [{"type": "function_call_output", "call_id": c.call_id, "output": f"result of {c.name}"} for c in calls]
    if stream:
        with client.responses.stream(model=alias, previous_response_id=first.id, input=outputs, tools=tools) as s:
            second = s.get_final_response()
    else:
        second = client.responses.create(model=alias, previous_response_id=first.id, input=outputs, tools=tools)
    assert second.output_text == up.expected_text(after_stream if stream else after_json)
    assert second.previous_response_id == first.id
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, provider)
    answered = last_turn_is_tool_result(provider, reqs[-1].json)
    assert answered == ([c.name for c in calls] if provider == "gemini" else [c.call_id for c in calls])


@pytest.mark.parametrize("alias", ALIASES)
def test_function_tool_round_trip_with_items_sent_back(openai_client, upstream, alias):
    """Without previous_response_id: the client sends the output items back itself (what agents do)."""
    provider, _, _, after_json, _ = PROVIDERS[alias]
    client, tools = openai_client(), responses_tools()
    ask = [{"role": "user", "content": "Use the tools."}]
    first = client.responses.create(model=alias, input=ask, tools=tools, store=False)
    calls = [o for o in first.output if o.type == "function_call"]
    items = ask + [o.model_dump(exclude_none=True) for o in first.output] + [
        {"type": "function_call_output", "call_id": c.call_id, "output": "done"} for c in calls]
    mark = upstream.mark()
    second = client.responses.create(model=alias, input=items, tools=tools, store=False)
    assert second.output_text == up.expected_text(after_json)
    assert len(last_turn_is_tool_result(provider, upstream.since(mark)[-1].json)) == len(calls)


def test_previous_response_id_chains_the_conversation(openai_client, upstream):
    client = openai_client()
    first = client.responses.create(model="claude", input="My name is Ada.", instructions=INSTRUCTIONS)
    mark = upstream.mark()
    second = client.responses.create(model="claude", input="What is my name?", previous_response_id=first.id)
    assert second.status == "completed"
    sent = upstream.since(mark)[0].json
    texts = [json.dumps(m["content"]) for m in sent["messages"]]
    assert [m["role"] for m in sent["messages"]] == ["user", "assistant", "user"]
    assert "My name is Ada." in texts[0] and "What is my name?" in texts[2]
    assert first.output_text[:40].replace("\n", "\\n") in texts[1]
    assert "system" not in sent, "instructions of an earlier response are not carried over"


def test_previous_response_of_another_token_unknown_or_unstored_is_404(openai_client, gateway):
    mine = openai_client()
    first = mine.responses.create(model="gpt", input="Remember 7.")
    unstored = mine.responses.create(model="gpt", input="Forget this.", store=False)
    other = openai_client(gateway.tokens["conformance-chat-only"])
    for client, rid in ((other, first.id), (mine, "resp_does_not_exist"), (mine, unstored.id)):
        with pytest.raises(openai.NotFoundError) as caught:
            client.responses.create(model="gpt", input="Which number?", previous_response_id=rid)
        error = caught.value.body
        assert caught.value.status_code == 404 and error["code"] == "previous_response_not_found"
        assert error["param"] == "previous_response_id" and "send the whole conversation" in error["message"]


def test_a_deleted_response_can_no_longer_be_continued(openai_client, gateway):
    """responses.delete: only the token that kept a response deletes it; afterwards it cannot be continued."""
    mine = openai_client()
    first = mine.responses.create(model="gpt", input="Remember 7.")
    other = openai_client(gateway.tokens["conformance-chat-only"])
    with pytest.raises(openai.NotFoundError):
        other.responses.delete(first.id)
    assert mine.responses.delete(first.id) is None
    with pytest.raises(openai.NotFoundError) as caught:
        mine.responses.create(model="gpt", input="Which number?", previous_response_id=first.id)
    assert caught.value.body["code"] == "previous_response_not_found"
    with pytest.raises(openai.NotFoundError) as caught:
        mine.responses.delete(first.id)
    assert caught.value.body["param"] == "response_id" and "nothing was deleted" in caught.value.body["message"]
    with pytest.raises(openai.NotFoundError) as caught:
        mine.responses.retrieve(first.id)
    assert caught.value.body["param"] == "response_id" and "was deleted" in caught.value.body["message"]


def test_a_kept_response_is_retrieved_by_its_token_only(openai_client, gateway):
    """responses.retrieve: the Response object as it was given, whole or streamed; another token gets a 404."""
    mine = openai_client()
    whole = mine.responses.create(model="gpt", input="Remember 7.", metadata={"k": "v"})
    again = mine.responses.retrieve(whole.id)
    assert again.model_dump() == whole.model_dump()
    with mine.responses.stream(model="gpt", input="Remember 8.") as stream:
        completed = stream.get_final_response()
    streamed = mine.responses.retrieve(completed.id)
    assert streamed.output_text == completed.output_text and streamed.usage == completed.usage
    other = openai_client(gateway.tokens["conformance-chat-only"])
    with pytest.raises(openai.NotFoundError) as caught:
        other.responses.retrieve(whole.id)
    assert caught.value.body["param"] == "response_id" and "was not found for this token" in caught.value.body["message"]


def test_a_kept_responses_input_items_are_listed_and_paged(openai_client, gateway):
    """responses.input_items.list: what the model was given (the chain, then the input), as the SDK's item types,
    paged by the SDK itself; another token gets a 404."""
    mine = openai_client()
    first = mine.responses.create(model="gpt", instructions="Be brief.", input="Remember 7.")
    second = mine.responses.create(model="gpt", previous_response_id=first.id,
                                   input=[{"role": "user", "content": "Which number?"}])
    listed = list(mine.responses.input_items.list(second.id, order="asc", limit=1))
    assert [(item.type, item.role) for item in listed] == [("message", "user"), ("message", "assistant"), ("message", "user")]
    assert listed[0].content[0].type == "input_text" and listed[0].content[0].text == "Remember 7."
    assert listed[1].content[0].type == "output_text" and listed[1].content[0].text == first.output_text
    assert listed[2].content[0].text == "Which number?"
    assert len({item.id for item in listed}) == 3 and all(item.status == "completed" for item in listed)
    page = mine.responses.input_items.list(second.id)
    assert [item.id for item in page.data] == [item.id for item in reversed(listed)] and page.has_more is False
    assert page.first_id == listed[-1].id and page.last_id == listed[0].id
    other = openai_client(gateway.tokens["conformance-chat-only"])
    with pytest.raises(openai.NotFoundError) as caught:
        other.responses.input_items.list(second.id)
    assert caught.value.body["param"] == "response_id" and "was not found for this token" in caught.value.body["message"]
    with pytest.raises(openai.BadRequestError) as caught:
        mine.responses.input_items.list(second.id, limit=101)
    assert caught.value.body["param"] == "limit"


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_input_items_keep_their_ids_across_a_chain(openai_client, stream):
    """Decision 0138: an item keeps its id in the input items of every later response of a chain, an answer's items
    are listed with the ids its response showed, and a client's own id is kept; so a client that merges a conversation
    by item id (the history from input_items.list, then the latest output) sees each item once."""
    client, tools = openai_client(), responses_tools()

    def create(**kwargs):
        if not stream:
            return client.responses.create(model="gpt", **kwargs)
        with client.responses.stream(model="gpt", **kwargs) as s:
            return s.get_final_response()

    def listed(response):
        return list(client.responses.input_items.list(response.id, order="asc", limit=2))

    ask = {"id": "msg_client_ask", "type": "message", "role": "user", "content": [{"type": "input_text", "text": "Use the tools."}]}
    a = create(input=[ask], tools=tools)
    calls = [o for o in a.output if o.type == "function_call"]
    assert calls, f"expected function calls, got {a.output}"
    b = create(previous_response_id=a.id, tools=tools,
               input=[{"type": "function_call_output", "call_id": c.call_id, "output": f"result of {c.name}"} for c in calls])
    c = create(previous_response_id=b.id, input="Thanks.")
    from_a, from_b, from_c = listed(a), listed(b), listed(c)
    ids = lambda items: [item.id for item in items]
    assert ids(from_a) == ["msg_client_ask"]
    assert ids(from_b)[:1 + len(a.output)] == ids(from_a) + ids(a.output)
    assert ids(from_c)[:len(from_b) + len(b.output)] == ids(from_b) + ids(b.output) and len(from_c) == len(from_b) + len(b.output) + 1
    assert [item.model_dump(exclude_none=True) for item in from_c[1:1 + len(a.output)]] == [o.model_dump(exclude_none=True) for o in a.output]
    assert [item.model_dump(exclude_none=True) for item in from_b[:1]] == [item.model_dump(exclude_none=True) for item in from_c[:1]]
    merged = {item.id: item for item in from_a + from_b + from_c + a.output + b.output + c.output}
    assert len(merged) == len(from_c) + len(c.output), "each item of the conversation once"


def test_malformed_items_are_400_naming_the_item(openai_client):
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client().responses.create(model="gpt", input=[{"role": "user", "content": "hi"},
                                                              {"type": "function_call_output", "output": "x"}])
    assert caught.value.status_code == 400 and caught.value.body["param"] == "input[1].call_id"
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client().responses.create(model="gpt", input="hi", tools=[{"type": "web_search"}])
    assert caught.value.body["param"] == "tools[0].type"


def test_structured_output_reaches_the_upstream(openai_client, upstream):
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"], "additionalProperties": False}
    mark = upstream.mark()
    r = openai_client().responses.create(model="gpt", input="Hello", max_output_tokens=64, reasoning={"effort": "low"},
                                         text={"format": {"type": "json_schema", "name": "reply", "schema": schema, "strict": True}})
    assert r.text.format.type == "json_schema" and r.max_output_tokens == 64 and r.reasoning.effort == "low"
    sent = upstream.since(mark)[0].json
    assert sent["response_format"] == {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema, "strict": True}}
    assert sent.get("max_tokens") == 64 or sent.get("max_completion_tokens") == 64


# ---- openai-agents SDK: the default model (OpenAIResponsesModel) ------------------------------

def _use_gateway(gateway):
    """The README's setup: the SDK's default client pointed at SkillGate, tracing off (it would call OpenAI)."""
    from agents import set_default_openai_client, set_tracing_disabled
    client = openai.AsyncOpenAI(api_key=gateway.tokens["conformance-full"], base_url=f"{gateway.base}/v1", max_retries=0, timeout=30)
    set_default_openai_client(client, use_for_tracing=False)
    set_tracing_disabled(True)
    return client


def _tools(calls: list):
    from agents import FunctionTool

    def tool(name: str, props: dict) -> FunctionTool:
        async def invoke(_ctx, args: str) -> str:
            calls.append((name, json.loads(args or "{}")))
            return f"{name} done"
        return FunctionTool(name=name, description=f"{name} (conformance tool)", on_invoke_tool=invoke, strict_json_schema=False,
                            params_json_schema={"type": "object", "properties": {k: {"type": v} for k, v in props.items()},
                                                "required": list(props)})
    return [tool(n, p) for n, p in up.RECORDED_TOOLS.items()]


def _agent(gateway, model, calls: list):
    """An agent with the SDK's default model provider: a model name becomes an OpenAIResponsesModel."""
    from agents import Agent
    from agents.models.multi_provider import MultiProvider
    _use_gateway(gateway)
    if isinstance(model, str) and "/" not in model:
        assert type(MultiProvider().get_model(model)).__name__ == "OpenAIResponsesModel"
    return Agent(name="conformance", instructions=INSTRUCTIONS, model=model, tools=_tools(calls))


@pytest.mark.parametrize("alias", ALIASES)
def test_agents_sdk_tool_round_trip(gateway, upstream, alias):
    from agents import Runner
    provider, _, _, after_json, _ = PROVIDERS[alias]
    calls: list = []
    agent = _agent(gateway, alias, calls)
    mark = upstream.mark()
    result = Runner.run_sync(agent, "Use the tools.")
    assert calls and all(name in up.RECORDED_TOOLS for name, _ in calls), "the agent ran the tools the model called"
    assert result.final_output == up.expected_text(after_json)
    reqs = upstream.since(mark)
    assert_clean_upstream(reqs, gateway, provider)
    assert len(reqs) == 2 and last_turn_is_tool_result(provider, reqs[-1].json)


@pytest.mark.parametrize("alias", ALIASES)
def test_agents_sdk_streamed_tool_round_trip(gateway, alias):
    from agents import Runner
    after_stream = PROVIDERS[alias][4]
    calls: list = []
    agent = _agent(gateway, alias, calls)

    async def run():
        result = Runner.run_streamed(agent, "Use the tools.")
        deltas = []
        async for event in result.stream_events():
            if event.type == "raw_response_event" and event.data.type == "response.output_text.delta":
                deltas.append(event.data.delta)
        return result, "".join(deltas)

    result, streamed = asyncio.run(run())
    assert calls
    assert result.final_output == up.expected_text(after_stream)
    assert streamed.endswith(result.final_output)


def test_agents_sdk_anthropic_by_tier_or_chat_completions_model(gateway, upstream):
    """The SDK reads `anthropic/...` in a model string as its own (LiteLLM) prefix: name a tier or an alias
    instead, or wrap the gateway's model name in OpenAIChatCompletionsModel (the README's three ways)."""
    from agents import OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, UserError
    with pytest.raises(UserError, match="Unknown prefix"):
        Runner.run_sync(_agent(gateway, "up-anthropic/claude-test", []), "Use the tools.")
    for model in ("strong", "claude", "chat-completions", "responses"):
        calls: list = []
        if model == "chat-completions":
            model = OpenAIChatCompletionsModel(model="up-anthropic/claude-test", openai_client=_use_gateway(gateway))
        elif model == "responses":
            model = OpenAIResponsesModel(model="up-anthropic/claude-test", openai_client=_use_gateway(gateway))
        mark = upstream.mark()
        result = Runner.run_sync(_agent(gateway, model, calls), "Use the tools.")
        assert calls and result.final_output == up.expected_text(up.ANTHROPIC_JSON_AFTER_TOOL)
        reqs = upstream.since(mark)
        assert [r.provider for r in reqs] == ["anthropic", "anthropic"]
