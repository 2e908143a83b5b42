import SkillGateCore

/// ChatResponse → `chat.completion` JSON for clients of the OpenAI-compatible surface, written straight to
/// bytes (decision 0039).
///
/// A `.refusal` answer puts its text in `message.refusal` (content `null`), as OpenAI does, so a
/// client SDK sees a refusal; thinking blocks become `reasoning_content` (the DeepSeek/vLLM
/// convention; clients that do not know it ignore it).
extension OpenAIChatFormat {
    /// The body of a non-streamed answer. `id`, `model` and `created` (Unix seconds) are what the
    /// client sees: the gateway's response id and the model name the client asked for.
    public static func encodeInboundResponseBytes(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        out += #","object":"chat.completion","created":"#
        out += String(created).utf8
        out += #","model":"#
        JSONValue.writeString(model, to: &out)
        out += #","choices":[{"index":0,"message":{"role":"assistant","content":"#
        let text = response.text
        let calls = response.toolCalls
        if response.finishReason == .refusal {
            out += #"null,"refusal":"#
            JSONValue.writeString(text, to: &out)
        } else {
            if text.isEmpty && !calls.isEmpty { out += "null" } else { JSONValue.writeString(text, to: &out) }
            out += #","refusal":null"#
        }
        var reasoning = ""
        for case .thinking(let t) in response.content { reasoning += t.text }
        if !reasoning.isEmpty {
            out += #","reasoning_content":"#
            JSONValue.writeString(reasoning, to: &out)
        }
        writeToolCalls(calls, to: &out)
        out += #"},"logprobs":null,"finish_reason":"#
        JSONValue.writeString(wireFinishReason(response.finishReason), to: &out)
        out += #"}],"usage":"#
        let u = response.usage
        out += #"{"prompt_tokens":"#; out += String(u.inputTokens).utf8
        out += #","completion_tokens":"#; out += String(u.outputTokens).utf8
        out += #","total_tokens":"#; out += String(u.totalTokens).utf8
        out += #","prompt_tokens_details":{"cached_tokens":"#; out += String(u.cachedInputTokens).utf8
        out += #"},"completion_tokens_details":{"reasoning_tokens":"#; out += String(u.reasoningTokens).utf8
        out += "}}}"
        return out
    }

    /// The same body as a tree (`encodeInboundResponseBytes` parsed, so the two never disagree).
    public static func encodeInboundResponse(_ response: ChatResponse, id: String, model: String, created: Int) -> JSONValue {
        (try? JSONValue.parse(encodeInboundResponseBytes(response, id: id, model: model, created: created))) ?? .null
    }
}
