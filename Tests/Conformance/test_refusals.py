"""A model's refusal through the official SDKs, streamed as whole (decision 0114): OpenAI's refusal text reaches the
openai SDK's `refusal` (Chat Completions, the `.stream()` helper's `refusal.delta` events) and a Responses `refusal`
part (`response.refusal.delta`); it reaches the anthropic SDK as text with `stop_reason: refusal`. Anthropic's
classifier stop reaches the openai SDK as `content_filter` (Chat Completions) and an `incomplete` response."""
from __future__ import annotations

REFUSAL = "I'm sorry, I can't assist with that request."
ASK = [{"role": "user", "content": "Hello"}]


def test_openai_refusal_text_in_chat_completions(openai_client, gateway):
    client = openai_client()
    whole = client.chat.completions.create(model="up-openai/refuses", messages=ASK)
    assert (whole.choices[0].message.refusal, whole.choices[0].message.content, whole.choices[0].finish_reason) == (REFUSAL, None, "stop")
    with client.chat.completions.stream(model="up-openai/refuses", messages=ASK) as stream:
        events = list(stream)
        final = stream.get_final_completion()
    assert "".join(e.delta for e in events if e.type == "refusal.delta") == REFUSAL
    assert not [e for e in events if e.type == "content.delta" and e.delta]
    message = final.choices[0].message
    assert (message.refusal, message.content or "", final.choices[0].finish_reason) == (REFUSAL, "", "stop")


def test_openai_refusal_text_in_responses(openai_client, gateway):
    client = openai_client()
    whole = client.responses.create(model="up-openai/refuses", input="Hello")
    assert whole.status == "completed"
    assert [(p.type, p.refusal) for p in whole.output[0].content] == [("refusal", REFUSAL)]
    with client.responses.stream(model="up-openai/refuses", input="Hello") as stream:
        events = list(stream)
        final = stream.get_final_response()
    assert "".join(e.delta for e in events if e.type == "response.refusal.delta") == REFUSAL
    assert [e.refusal for e in events if e.type == "response.refusal.done"] == [REFUSAL]
    assert not [e for e in events if e.type == "response.output_text.delta"]
    assert final.status == "completed"
    assert [(p.type, p.refusal) for p in final.output[0].content] == [("refusal", REFUSAL)]


def test_openai_refusal_text_in_messages(anthropic_client, gateway):
    client = anthropic_client()
    whole = client.messages.create(model="up-openai/refuses", max_tokens=100, messages=ASK)
    assert (whole.stop_reason, "".join(b.text for b in whole.content if b.type == "text")) == ("refusal", REFUSAL)
    with client.messages.stream(model="up-openai/refuses", max_tokens=100, messages=ASK) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert (final.stop_reason, text) == ("refusal", REFUSAL)


def test_anthropic_classifier_stop_is_a_content_filter(openai_client, gateway):
    client = openai_client()
    whole = client.chat.completions.create(model="up-anthropic/refuses", messages=ASK)
    assert (whole.choices[0].finish_reason, whole.choices[0].message.content, whole.choices[0].message.refusal) == ("content_filter", "Hello..", None)
    chunks = list(client.chat.completions.create(model="up-anthropic/refuses", messages=ASK, stream=True))
    finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finish == ["content_filter"]
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Hello.."
    for response in (client.responses.create(model="up-anthropic/refuses", input="Hello"),
                     list(client.responses.create(model="up-anthropic/refuses", input="Hello", stream=True))[-1].response):
        assert (response.status, response.incomplete_details.reason) == ("incomplete", "content_filter")
