import SkillGateCore

extension AnthropicMessagesFormat {
    /// Parses a Message body (`{"type":"message","content":[...],"stop_reason":...,"usage":{...}}`).
    /// A body that is not JSON, or JSON without `content`, is an upstream protocol error naming `provider`.
    static func parseMessageBody(_ body: [UInt8], provider: String) throws -> ChatResponse {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw GatewayError.upstreamProtocol(
                "the Anthropic Messages answer is not JSON (\(error)); it began with \(AnthropicBodyPreview.describe(body)). Check that the provider's base URL points at an Anthropic-compatible API.",
                provider: provider, upstreamStatus: 200)
        }
        if value["type"]?.stringValue == "error" {
            throw errorFromEvent(value, provider: provider)
        }
        guard let blocks = value["content"]?.arrayValue else {
            throw GatewayError.upstreamProtocol(
                "the Anthropic Messages answer has no `content` array (got \(value["content"]?.typeDescription ?? "no such field")); check that the provider speaks the Messages API.",
                provider: provider, upstreamStatus: 200)
        }
        let content = blocks.compactMap(contentBlock)
        let hasCalls = content.contains { $0.toolCall != nil }
        var reason = finishReason(value["stop_reason"]?.stringValue)
        if hasCalls, reason == .stop { reason = .toolCalls }
        return ChatResponse(id: value["id"]?.stringValue ?? "", model: value["model"]?.stringValue ?? "",
                            content: content, finishReason: reason, usage: usage(value["usage"]))
    }

    /// One response content block; blocks SkillGate does not model (server tool results, ...) are skipped.
    static func contentBlock(_ block: JSONValue) -> ContentBlock? {
        switch block["type"]?.stringValue {
        case "text":
            return .text(block["text"]?.stringValue ?? "")
        case "tool_use":
            let input = block["input"] ?? .object(JSONObject())
            return .toolCall(ToolCall(id: block["id"]?.stringValue ?? "", name: block["name"]?.stringValue ?? "",
                                      arguments: input.serialized()))
        case "thinking":
            return .thinking(Thinking(text: block["thinking"]?.stringValue ?? "", signature: block["signature"]?.stringValue))
        case "redacted_thinking":
            return .thinking(Thinking(text: "", redactedData: block["data"]?.stringValue ?? ""))
        default:
            return nil
        }
    }

    /// Maps `stop_reason`: end_turn/stop_sequence → stop, max_tokens and
    /// model_context_window_exceeded → length, tool_use → toolCalls, pause_turn → pauseTurn,
    /// refusal → contentFilter; anything else is kept verbatim as `.other`. A missing reason is `.other("missing")`.
    ///
    /// Anthropic's `refusal` is its streaming classifiers stopping the answer: the text before it is ordinary (often
    /// cut) answer text with no refusal message, and a stream has sent it before the reason arrives. So it is a content
    /// filter, not a refusal whose text explains it (OpenAI's `refusal` field): OpenAI clients see `content_filter`
    /// whole or streamed, Anthropic clients `refusal` again (decision 0114).
    static func finishReason(_ raw: String?) -> FinishReason {
        switch raw {
        case "end_turn"?, "stop_sequence"?: return .stop
        case "max_tokens"?, "model_context_window_exceeded"?: return .length
        case "tool_use"?: return .toolCalls
        case "pause_turn"?: return .pauseTurn
        case "refusal"?: return .contentFilter
        case let other?: return .other(other)
        case nil: return .other("missing")
        }
    }

    /// Canonical usage from an Anthropic `usage` object. `inputTokens` includes cache reads and writes.
    static func usage(_ value: JSONValue?) -> Usage {
        var parts = UsageParts()
        parts.merge(AnthropicUsageCounts(value))
        return parts.usage
    }
}

/// Anthropic's separate usage counters, merged from `message_start` and `message_delta`.
struct UsageParts: Sendable, Hashable {
    var input = 0
    var output = 0
    var cacheRead = 0
    var cacheCreation = 0

    /// Takes every counter present in `counts` (later events carry totals, not increments).
    mutating func merge(_ counts: AnthropicUsageCounts) {
        if let v = counts.input { input = v }
        if let v = counts.output { output = v }
        if let v = counts.cacheRead { cacheRead = v }
        if let v = counts.cacheCreation { cacheCreation = v }
    }

    var usage: Usage {
        Usage(inputTokens: input.clampedAdding(cacheRead).clampedAdding(cacheCreation), outputTokens: output,
              cachedInputTokens: cacheRead, cacheWriteTokens: cacheCreation)
    }
}

/// The counters one Anthropic `usage` object carries (integers only; `nil` for the others).
struct AnthropicUsageCounts: Sendable, Hashable {
    var input: Int?
    var output: Int?
    var cacheRead: Int?
    var cacheCreation: Int?

    init() {}

    /// The counters of a `usage` value (none when it is absent or not an object).
    init(_ value: JSONValue?) {
        input = value?["input_tokens"]?.intValue
        output = value?["output_tokens"]?.intValue
        cacheRead = value?["cache_read_input_tokens"]?.intValue
        cacheCreation = value?["cache_creation_input_tokens"]?.intValue
    }
}

/// Describes an unexpected body for an error message without dumping it.
enum AnthropicBodyPreview {
    static func describe(_ body: [UInt8]) -> String {
        if body.isEmpty { return "an empty body" }
        let text = String(String(decoding: body.prefix(80), as: UTF8.self).map { $0.isNewline ? " " : $0 })
        let lower = text.lowercased()
        let kind = lower.contains("<html") || lower.contains("<!doctype") ? "an HTML page" : "\(body.count) bytes of non-JSON text"
        return "\(kind) (\"\(text)\(body.count > 80 ? "…" : "")\")"
    }
}
