import SkillGateCore

/// ChatResponse → `chat.completion` JSON for clients of the OpenAI-compatible surface.
///
/// A `.refusal` answer puts its text in `message.refusal` (content `null`), as OpenAI does, so a
/// client SDK sees a refusal; thinking blocks become `reasoning_content` (the DeepSeek/vLLM
/// convention; clients that do not know it ignore it).
extension OpenAIChatFormat {
    /// The body of a non-streamed answer. `id`, `model` and `created` (Unix seconds) are what the
    /// client sees: the gateway's response id and the model name the client asked for.
    public static func encodeInboundResponse(_ response: ChatResponse, id: String, model: String, created: Int) -> JSONValue {
        var message = JSONObject()
        message.append("role", "assistant")
        let text = response.text
        let calls = response.toolCalls
        if response.finishReason == .refusal {
            message.append("content", .null)
            message.append("refusal", .string(text))
        } else {
            message.append("content", text.isEmpty && !calls.isEmpty ? .null : .string(text))
            message.append("refusal", .null)
        }
        let reasoning = response.content.compactMap { block -> String? in
            if case .thinking(let t) = block, !t.text.isEmpty { return t.text } else { return nil }
        }.joined()
        if !reasoning.isEmpty { message.append("reasoning_content", .string(reasoning)) }
        if !calls.isEmpty { message.append("tool_calls", .array(calls.map(wireToolCall))) }

        let choice: JSONValue = ["index": 0, "message": .object(message), "logprobs": nil,
                                 "finish_reason": .string(wireFinishReason(response.finishReason))]
        return ["id": .string(id), "object": "chat.completion", "created": .int(created), "model": .string(model),
                "choices": [choice], "usage": wireUsage(response.usage)]
    }
}
