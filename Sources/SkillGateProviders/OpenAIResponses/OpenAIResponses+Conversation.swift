import SkillGateCore

/// A conversation as Responses input items, for the gateway's store of responses
/// (`previous_response_id`): the same grammar clients send, read back with the same decoder. Two
/// fields of the gateway's own keep what the public items have no place for: a provider's
/// signature on a tool call, and that a tool result was an error.
extension OpenAIResponsesFormat {
    /// The messages as input items (a JSON array). System messages become `system` messages.
    public static func conversationItems<C: Collection>(_ messages: C) -> JSONValue where C.Element == Message {
        var items: [JSONValue] = []
        for message in messages {
            switch message.role {
            case .system, .user:
                let parts: [JSONValue] = message.content.compactMap { block in
                    switch block {
                    case .text(let t): return ["type": "input_text", "text": .string(t)]
                    case .image(let source): return ["type": "input_image", "image_url": .string(source.urlString)]
                    default: return nil
                    }
                }
                items.append(["type": "message", "role": message.role == .system ? "system" : "user", "content": .array(parts)])
            case .assistant:
                for block in message.content {
                    switch block {
                    case .text(let t):
                        items.append(["type": "message", "role": "assistant", "content": [["type": "output_text", "text": .string(t)]]])
                    case .thinking(let thinking):
                        items.append(ResponsesOutputItems.reasoning(id: "rs", thinking: thinking))
                    case .toolCall(let call):
                        var item: JSONObject = ["type": "function_call", "call_id": .string(call.id), "name": .string(call.name),
                                                "arguments": .string(call.arguments)]
                        item.append(ResponsesInputItems.signatureKey, ifPresent: call.signature.map(JSONValue.string))
                        items.append(.object(item))
                    case .image, .toolResult:
                        break
                    }
                }
            case .tool:
                for result in message.toolResults {
                    let parts: [JSONValue] = result.content.compactMap { block in
                        switch block {
                        case .text(let t): return ["type": "input_text", "text": .string(t)]
                        case .image(let source): return ["type": "input_image", "image_url": .string(source.urlString)]
                        default: return nil
                        }
                    }
                    var item: JSONObject = ["type": "function_call_output", "call_id": .string(result.callId), "output": .array(parts)]
                    if result.isError { item.append(ResponsesInputItems.isErrorKey, true) }
                    items.append(.object(item))
                }
            }
        }
        return .array(items)
    }

    /// Input items written by `conversationItems` (or sent by a client) → messages.
    public static func conversation(fromItems items: [JSONValue]) throws -> [Message] {
        try ResponsesInputItems.decode(items)
    }
}
