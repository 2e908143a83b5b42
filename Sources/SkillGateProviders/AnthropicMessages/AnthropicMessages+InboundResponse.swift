import SkillGateCore

extension AnthropicMessagesFormat {
    /// A `ChatResponse` as the Anthropic Message JSON a client of `POST /v1/messages` expects.
    /// Tool call arguments that are not a JSON object are sent as `input: {}` (Anthropic clients
    /// need an object; this only happens when the upstream model produced broken arguments).
    public static func inboundResponseBody(_ response: ChatResponse, fallbackId: String = "msg_skillgate") -> JSONValue {
        var m = JSONObject()
        m.append("id", .string(response.id.isEmpty ? fallbackId : response.id))
        m.append("type", "message")
        m.append("role", "assistant")
        m.append("model", .string(response.model))
        m.append("content", .array(response.content.compactMap(inboundContentBlock)))
        m.append("stop_reason", .string(wireStopReason(response.finishReason)))
        m.append("stop_sequence", .null)
        m.append("usage", wireUsage(response.usage))
        return .object(m)
    }

    /// One answer block on the Anthropic wire (`nil` for blocks an answer cannot hold).
    static func inboundContentBlock(_ block: ContentBlock) -> JSONValue? {
        switch block {
        case .text(let t): return ["type": "text", "text": .string(t)]
        case .toolCall(let call):
            var input = JSONValue.object(JSONObject())
            if let parsed = call.parsedArguments, parsed.objectValue != nil { input = parsed }
            return ["type": "tool_use", "id": .string(call.id), "name": .string(call.name), "input": input]
        case .thinking(let th):
            if let data = th.redactedData { return ["type": "redacted_thinking", "data": .string(data)] }
            return ["type": "thinking", "thinking": .string(th.text), "signature": .string(th.signature ?? "")]
        case .image, .toolResult: return nil
        }
    }

    /// The Anthropic `stop_reason` for a canonical finish reason (content_filter → refusal,
    /// unknown reasons verbatim).
    static func wireStopReason(_ reason: FinishReason) -> String {
        switch reason {
        case .stop: return "end_turn"
        case .length: return "max_tokens"
        case .toolCalls: return "tool_use"
        case .pauseTurn: return "pause_turn"
        case .refusal, .contentFilter: return "refusal"
        case .other(let raw): return raw
        }
    }

    /// Anthropic's `usage`: `input_tokens` excludes cache reads and writes, which are listed apart.
    static func wireUsage(_ usage: Usage) -> JSONValue {
        let plain = max(0, usage.inputTokens.clampedSubtracting(usage.cachedInputTokens).clampedSubtracting(usage.cacheWriteTokens))
        return ["input_tokens": .int(plain), "cache_creation_input_tokens": .int(usage.cacheWriteTokens),
                "cache_read_input_tokens": .int(usage.cachedInputTokens), "output_tokens": .int(usage.outputTokens)]
    }
}
