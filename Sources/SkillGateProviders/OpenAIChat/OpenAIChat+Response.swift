import SkillGateCore

/// Chat Completions response body → ChatResponse.
///
/// Uses choice 0 when the provider returned several (`n > 1`). Content may be a string or, from
/// some compatible servers, an array of text parts. `refusal` text becomes a text block (and the
/// reason `.refusal`); `reasoning_content` / `reasoning` (DeepSeek, vLLM, Ollama) becomes a
/// thinking block without signature.
extension OpenAIChatFormat {
    /// Parses a successful non-streaming body. Throws a `GatewayError` naming `provider` when the
    /// body is not a chat completion (or is an error object sent with status 200).
    public static func parseCompletion(_ body: [UInt8], provider: String) throws -> ChatResponse {
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).unreadableSuccessBody(body, syntax: error)
        }
        if let error = json["error"], !error.isNull {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).inStreamError(json, midStream: false)
        }
        guard let choices = json["choices"]?.arrayValue else {
            throw GatewayError.upstreamProtocol(
                "the answer has no \"choices\" array, so it is not a chat completion; check that the provider's base URL points at an OpenAI-compatible /v1 endpoint",
                provider: provider, upstreamStatus: 200)
        }
        guard let choice = choices.first(where: { ($0["index"]?.intValue ?? 0) == 0 }) ?? choices.first,
              let message = choice["message"], message.objectValue != nil else {
            throw GatewayError.upstreamProtocol(
                "the answer has no choices[0].message; the provider returned no answer — retry, or try another model",
                provider: provider, upstreamStatus: 200)
        }
        var content: [ContentBlock] = []
        if let reasoning = (message["reasoning_content"] ?? message["reasoning"])?.stringValue, !reasoning.isEmpty {
            content.append(.thinking(Thinking(text: reasoning)))
        }
        let text = contentText(message["content"])
        if !text.isEmpty { content.append(.text(text)) }
        var refused = false
        if let refusal = message["refusal"]?.stringValue, !refusal.isEmpty {
            refused = true
            content.append(.text(refusal))
        }
        for (i, call) in (message["tool_calls"]?.arrayValue ?? []).enumerated() {
            let function = call["function"]
            content.append(.toolCall(ToolCall(
                id: call["id"]?.stringValue ?? "call_\(i)",
                name: function?["name"]?.stringValue ?? "",
                arguments: argumentsText(function?["arguments"]))))
        }
        if let legacy = message["function_call"], legacy.objectValue != nil {
            content.append(.toolCall(ToolCall(id: "call_0", name: legacy["name"]?.stringValue ?? "",
                                              arguments: argumentsText(legacy["arguments"]))))
        }
        let hasCalls = content.contains { $0.toolCall != nil }
        return ChatResponse(
            id: json["id"]?.stringValue ?? "", model: json["model"]?.stringValue ?? "", content: content,
            finishReason: finishReason(wire: choice["finish_reason"]?.stringValue, hasToolCalls: hasCalls, refused: refused),
            usage: json["usage"].map(usage(wire:)) ?? Usage())
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
