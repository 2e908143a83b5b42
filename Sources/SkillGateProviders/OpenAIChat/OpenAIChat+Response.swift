import SkillGateCore

/// Chat Completions response body → ChatResponse, read without a tree (`OpenAIChatCompletionBody`).
///
/// Uses choice 0 when the provider returned several (`n > 1`). Content may be a string or, from
/// some compatible servers, an array of text parts. `refusal` text becomes a text block (and the
/// reason `.refusal`); `reasoning_content` / `reasoning` (DeepSeek, vLLM, Ollama) becomes a
/// thinking block without signature.
extension OpenAIChatFormat {
    /// Parses a successful non-streaming body. Throws a `GatewayError` naming `provider` when the
    /// body is not a chat completion (or is an error object sent with status 200).
    public static func parseCompletion(_ body: [UInt8], provider: String) throws -> ChatResponse {
        let read: OpenAIChatCompletionBody
        do { read = try OpenAIChatCompletionBody.read(body) } catch {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).unreadableSuccessBody(body, syntax: error)
        }
        if read.isError {
            // Rare: an error object sent with status 200, mapped from the tree as a stream's error is.
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).inStreamError(try JSONValue.parse(body), midStream: false)
        }
        guard read.choices != nil else {
            throw GatewayError.upstreamProtocol(
                "the answer has no \"choices\" array, so it is not a chat completion; check that the provider's base URL points at an OpenAI-compatible /v1 endpoint",
                provider: provider, upstreamStatus: 200)
        }
        guard let choice = read.chosen, let message = choice.message else {
            throw GatewayError.upstreamProtocol(
                "the answer has no choices[0].message; the provider returned no answer — retry, or try another model",
                provider: provider, upstreamStatus: 200)
        }
        var content: [ContentBlock] = []
        if let reasoning = message.reasoning, !reasoning.isEmpty {
            content.append(.thinking(Thinking(text: reasoning)))
        }
        if !message.content.isEmpty { content.append(.text(message.content)) }
        var refused = false
        if let refusal = message.refusal, !refusal.isEmpty {
            refused = true
            content.append(.text(refusal))
        }
        for call in message.toolCalls { content.append(.toolCall(call)) }
        if let legacy = message.functionCall { content.append(.toolCall(legacy)) }
        let hasCalls = !message.toolCalls.isEmpty || message.functionCall != nil
        return ChatResponse(
            id: read.id ?? "", model: read.model ?? "", content: content,
            finishReason: finishReason(wire: choice.finishReason, hasToolCalls: hasCalls, refused: refused),
            usage: read.usage ?? Usage())
    }

    /// Text of a `content` that is a string, null, or an array of `{type:"text",text}` parts.
    static func contentText(_ content: JSONValue?) -> String {
        switch content {
        case .string(let s)?: return s
        case .array(let parts)?: return parts.compactMap { $0["text"]?.stringValue }.joined()
        default: return ""
        }
    }

    /// Tool-call arguments as JSON text; some compatible servers send an object instead of a string.
    static func argumentsText(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case nil, .null?: return ""
        case let other?: return other.serialized()
        }
    }
}
