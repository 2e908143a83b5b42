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
        out += #"{"id":"#.utf8
        JSONValue.writeString(id, to: &out)
        out += #","object":"chat.completion","created":"#.utf8
        out += String(created).utf8
        out += #","model":"#.utf8
        JSONValue.writeString(model, to: &out)
        out += #","choices":[{"index":0,"message":{"role":"assistant","content":"#.utf8
        let text = response.text
        let calls = response.toolCalls
        if response.finishReason == .refusal {
            out += #"null,"refusal":"#.utf8
            JSONValue.writeString(text, to: &out)
        } else {
            if text.isEmpty && !calls.isEmpty { out += "null".utf8 } else { JSONValue.writeString(text, to: &out) }
            out += #","refusal":null"#.utf8
        }
        var reasoning = ""
        for case .thinking(let t) in response.content { reasoning += t.text }
        if !reasoning.isEmpty {
            out += #","reasoning_content":"#.utf8
            JSONValue.writeString(reasoning, to: &out)
        }
        writeToolCalls(calls, to: &out)
        out += #"},"logprobs":null,"finish_reason":"#.utf8
        JSONValue.writeString(wireFinishReason(response.finishReason), to: &out)
        out += #"}],"usage":"#.utf8
        let u = response.usage
        out += #"{"prompt_tokens":"#.utf8; out += String(u.inputTokens).utf8
        out += #","completion_tokens":"#.utf8; out += String(u.outputTokens).utf8
        out += #","total_tokens":"#.utf8; out += String(u.totalTokens).utf8
        out += #","prompt_tokens_details":{"cached_tokens":"#.utf8; out += String(u.cachedInputTokens).utf8
        out += #"},"completion_tokens_details":{"reasoning_tokens":"#.utf8; out += String(u.reasoningTokens).utf8
        out += "}}}".utf8
        return out
    }

    /// The same body as a tree (`encodeInboundResponseBytes` parsed, so the two never disagree).
    public static func encodeInboundResponse(_ response: ChatResponse, id: String, model: String, created: Int) -> JSONValue {
        (try? JSONValue.parse(encodeInboundResponseBytes(response, id: id, model: model, created: created))) ?? .null
    }
}
