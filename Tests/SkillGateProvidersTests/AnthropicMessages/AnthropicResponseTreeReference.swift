import SkillGateCore
@testable import SkillGateProviders

/// The Anthropic whole-answer body as it was built before decision 0065: a tree, then serialised. Kept here, unchanged,
/// as the oracle `AnthropicMessagesFormat.inboundResponseBytes` (which writes bytes directly) is compared with.
enum AnthropicResponseTreeReference {
    static func body(_ response: ChatResponse, fallbackId: String = "msg_skillgate") -> JSONValue {
        var m = JSONObject()
        m.append("id", .string(response.id.isEmpty ? fallbackId : response.id))
        m.append("type", "message")
        m.append("role", "assistant")
        m.append("model", .string(response.model))
        m.append("content", .array(response.content.compactMap(contentBlock)))
        m.append("stop_reason", .string(AnthropicMessagesFormat.wireStopReason(response.finishReason)))
        m.append("stop_sequence", .null)
        m.append("usage", AnthropicMessagesFormat.wireUsage(response.usage))
        return .object(m)
    }

    static func contentBlock(_ block: ContentBlock) -> JSONValue? {
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
}
