import SkillGateCore

extension AnthropicMessagesFormat {
    static let userBlockTypes = "text, image, tool_result"
    static let assistantBlockTypes = "text, tool_use, thinking, redacted_thinking"

    /// One wire turn as canonical messages: an assistant turn stays one message; a user turn's
    /// `tool_result` blocks become `.tool` messages and its other blocks `.user` messages, in order.
    static func decodeTurn(_ turn: AnthropicInboundField) throws -> [Message] {
        _ = try turn.object()
        let roleField = turn.member("role")
        let role = try roleField.string()
        guard role == "user" || role == "assistant" else {
            let hint = role == "system" ? " Put system instructions in the top-level `system` field." : ""
            throw GatewayError.invalidRequest("\(roleField.path): expected \"user\" or \"assistant\", got \"\(role)\".\(hint)", param: roleField.path)
        }
        let contentField = turn.member("content")
        if let text = contentField.value?.stringValue {
            return [Message(role: role == "user" ? .user : .assistant, text: text)]
        }
        guard contentField.value?.arrayValue != nil else { throw contentField.fail("a string or an array of content blocks") }
        let blocks = try contentField.array()
        if role == "assistant" {
            var message = Message(role: .assistant, content: [])
            for block in blocks {
                message.content.append(try decodeAssistantBlock(block))
                if let cache = try decodeCacheControl(block) { message.cacheBreakpoints[message.content.count - 1] = cache }
            }
            return [message]
        }
        var messages: [Message] = []
        for block in blocks {
            let decoded = try decodeUserBlock(block)
            let role: Role = decoded.toolResult != nil ? .tool : .user
            if messages.last?.role != role { messages.append(Message(role: role, content: [])) }
            messages[messages.count - 1].content.append(decoded)
            if let cache = try decodeCacheControl(block) {
                messages[messages.count - 1].cacheBreakpoints[messages[messages.count - 1].content.count - 1] = cache
            }
        }
        return messages
    }

    static func blockType(_ block: AnthropicInboundField) throws -> String {
        _ = try block.object()
        return try block.member("type").string()
    }

    static func unsupported(_ block: AnthropicInboundField, _ type: String, role: String, expected: String) -> GatewayError {
        GatewayError.invalidRequest(
            "\(block.path).type: \"\(type)\" is not a content block SkillGate accepts in a \(role) turn; expected one of \(expected).",
            param: "\(block.path).type")
    }

    static func decodeUserBlock(_ block: AnthropicInboundField) throws -> ContentBlock {
        let type = try blockType(block)
        switch type {
        case "text": return .text(try block.member("text").string())
        case "image": return try decodeImage(block)
        case "tool_result":
            let callId = try block.member("tool_use_id").string()
            let isError = try block.member("is_error").optionalBool() ?? false
            let content = block.member("content")
            var parts: [ContentBlock] = []
            if let text = content.value?.stringValue {
                parts = [.text(text)]
            } else if content.isPresent {
                guard content.value?.arrayValue != nil else { throw content.fail("a string or an array of text and image blocks") }
                for part in try content.array() {
                    let partType = try blockType(part)
                    switch partType {
                    case "text": parts.append(.text(try part.member("text").string()))
                    case "image": parts.append(try decodeImage(part))
                    default: throw unsupported(part, partType, role: "tool_result", expected: "text, image")
                    }
                }
            }
            return .toolResult(ToolResult(callId: callId, content: parts, isError: isError))
        default:
            throw unsupported(block, type, role: "user", expected: userBlockTypes)
        }
    }

    static func decodeAssistantBlock(_ block: AnthropicInboundField) throws -> ContentBlock {
        let type = try blockType(block)
        switch type {
        case "text": return .text(try block.member("text").string())
        case "tool_use":
            let input = block.member("input")
            guard input.value?.objectValue != nil else { throw input.fail("an object") }
            return .toolCall(ToolCall(id: try block.member("id").string(), name: try block.member("name").string(),
                                      arguments: input.value!.serialized()))
        case "thinking":
            return .thinking(Thinking(text: try block.member("thinking").string(),
                                      signature: try block.member("signature").optionalString()))
        case "redacted_thinking":
            return .thinking(Thinking(text: "", redactedData: try block.member("data").string()))
        default:
            throw unsupported(block, type, role: "assistant", expected: assistantBlockTypes)
        }
    }

    static func decodeImage(_ block: AnthropicInboundField) throws -> ContentBlock {
        let source = block.member("source")
        _ = try source.object()
        let kind = try source.member("type").string()
        switch kind {
        case "base64":
            return .image(.base64(mediaType: try source.member("media_type").string(), data: try source.member("data").string()))
        case "url":
            return .image(.url(try source.member("url").string()))
        default:
            throw GatewayError.invalidRequest("\(source.path).type: expected \"base64\" or \"url\", got \"\(kind)\".", param: "\(source.path).type")
        }
    }
}
