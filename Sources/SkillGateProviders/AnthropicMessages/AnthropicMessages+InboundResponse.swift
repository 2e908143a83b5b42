import SkillGateCore

extension AnthropicMessagesFormat {
    /// A `ChatResponse` as the Anthropic Message JSON a client of `POST /v1/messages` expects, written straight to bytes
    /// (decision 0065). Tool call arguments that are not a JSON object are sent as `input: {}` (Anthropic clients
    /// need an object; this only happens when the upstream model produced broken arguments).
    public static func inboundResponseBytes(_ response: ChatResponse, fallbackId: String = "msg_skillgate") -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        out += #"{"id":"#
        JSONValue.writeString(response.id.isEmpty ? fallbackId : response.id, to: &out)
        out += #","type":"message","role":"assistant","model":"#
        JSONValue.writeString(response.model, to: &out)
        out += #","content":["#
        var first = true
        for block in response.content {
            switch block {
            case .text(let text):
                separate(&first, &out)
                out += #"{"type":"text","text":"#
                JSONValue.writeString(text, to: &out)
            case .toolCall(let call):
                separate(&first, &out)
                writeToolUseBlockHead(id: call.id, name: call.name, to: &out)
                if let parsed = call.parsedArguments, parsed.objectValue != nil { parsed.write(to: &out) } else { out += "{}" }
            case .thinking(let thinking):
                separate(&first, &out)
                writeThinkingBlockFields(thinking, to: &out)
            case .image, .toolResult:
                continue   // an answer cannot hold them
            }
            out.append(UInt8(ascii: "}"))
        }
        out += #"],"stop_reason":"#
        JSONValue.writeString(wireStopReason(response.finishReason), to: &out)
        out += #","stop_sequence":null,"usage":"#
        wireUsage(response.usage).write(to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same body as a tree (`inboundResponseBytes` parsed, so the two never disagree).
    public static func inboundResponseBody(_ response: ChatResponse, fallbackId: String = "msg_skillgate") -> JSONValue {
        (try? JSONValue.parse(inboundResponseBytes(response, fallbackId: fallbackId))) ?? .null
    }

    /// Writes a `tool_use` block up to its `input`'s value, which the caller writes: `{"type":"tool_use","id":…,
    /// "name":…,"input":` (the answer's, the request's and the stream's blocks alike).
    static func writeToolUseBlockHead(id: String, name: String, to out: inout [UInt8]) {
        out += #"{"type":"tool_use","id":"#
        JSONValue.writeString(id, to: &out)
        out += #","name":"#
        JSONValue.writeString(name, to: &out)
        out += #","input":"#
    }

    /// Writes a thinking block up to its closing brace (left to the caller, which may add a cache breakpoint):
    /// `{"type":"thinking","thinking":…,"signature":…` or, redacted, `{"type":"redacted_thinking","data":…`.
    static func writeThinkingBlockFields(_ thinking: Thinking, to out: inout [UInt8]) {
        if let data = thinking.redactedData {
            out += #"{"type":"redacted_thinking","data":"#
            JSONValue.writeString(data, to: &out)
        } else {
            out += #"{"type":"thinking","thinking":"#
            JSONValue.writeString(thinking.text, to: &out)
            out += #","signature":"#
            JSONValue.writeString(thinking.signature ?? "", to: &out)
        }
    }

    private static func separate(_ first: inout Bool, _ out: inout [UInt8]) {
        if first { first = false } else { out.append(UInt8(ascii: ",")) }
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
