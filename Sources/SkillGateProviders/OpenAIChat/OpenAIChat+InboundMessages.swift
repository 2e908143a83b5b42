import SkillGateCore

/// Decodes the inbound `messages` array.
///
/// `developer` is treated as `system`. Consecutive `tool` messages become one canonical `.tool`
/// message (one `.toolResult` each), and each result gets its tool's name from the assistant
/// call it answers (Gemini needs it).
enum InboundMessages {
    /// The members of one wire message that decoding reads (a tree lookup's, so the first of a duplicated key).
    struct Fields {
        var role: JSONValue?
        var content: JSONValue?
        var toolCalls: JSONValue?
        var toolCallId: JSONValue?

        init(role: JSONValue? = nil, content: JSONValue? = nil, toolCalls: JSONValue? = nil, toolCallId: JSONValue? = nil) {
            self.role = role
            self.content = content
            self.toolCalls = toolCalls
            self.toolCallId = toolCallId
        }

        /// The members of a message object in a tree.
        init(_ object: JSONValue) {
            self.init(role: object["role"], content: object["content"], toolCalls: object["tool_calls"], toolCallId: object["tool_call_id"])
        }
    }

    /// Decodes messages parsed into a tree.
    static func decode(_ wire: [JSONValue]) throws -> [Message] {
        var messages: [Message] = []
        messages.reserveCapacity(wire.count)
        var toolNames: [String: String] = [:]
        for (i, m) in wire.enumerated() {
            guard m.objectValue != nil else { throw InboundField.wrongType("messages[\(i)]", expected: "an object with role and content", got: m) }
            try append(Fields(m), at: i, to: &messages, toolNames: &toolNames)
        }
        return messages
    }

    /// Decodes the message at index `i` and appends it to `messages`; `toolNames` maps the ids of the calls so far to
    /// their tools' names (a tool result is named after the call it answers, and consecutive results share one message).
    static func append(_ m: Fields, at i: Int, to messages: inout [Message], toolNames: inout [String: String]) throws {
        func param() -> String { "messages[\(i)]" }
        let role = try InboundField.requiredString(m.role, at: "\(param()).role")
        switch role {
        case "system", "developer":
            messages.append(Message(role: .system, content: try textOnly(m.content, at: "\(param()).content", required: true)))
        case "user":
            messages.append(Message(role: .user, content: try userContent(m.content, at: "\(param()).content")))
        case "assistant":
            let message = try assistant(m, at: param())
            for call in message.toolCalls { toolNames[call.id] = call.name }
            messages.append(message)
        case "tool":
            let callId = try InboundField.requiredString(m.toolCallId, at: "\(param()).tool_call_id")
            let text = try textOnly(m.content, at: "\(param()).content", required: true).compactMap(\.text).joined()
            let result = ContentBlock.toolResult(ToolResult(callId: callId, name: toolNames[callId], text: text))
            if let last = messages.last, last.role == .tool {
                messages[messages.count - 1].content.append(result)
            } else {
                messages.append(Message(role: .tool, content: [result]))
            }
        case "function":
            throw GatewayError.invalidRequest(
                "`\(param()).role` \"function\" is the legacy functions API; send tool results as {\"role\":\"tool\",\"tool_call_id\":...,\"content\":...}",
                param: "\(param()).role")
        default:
            throw GatewayError.invalidRequest(
                "`\(param()).role` is \"\(role)\"; it must be one of system, developer, user, assistant, tool",
                param: "\(param()).role")
        }
    }

    /// Content that may only hold text: a string or an array of `text` parts.
    private static func textOnly(_ value: JSONValue?, at param: @autoclosure () -> String, required: Bool) throws -> [ContentBlock] {
        switch value {
        case .string(let s)?: return [.text(s)]
        case nil where !required, .null? where !required: return []
        case .array(let parts)?:
            return try parts.enumerated().map { j, part in
                let type = try InboundField.requiredString(part, "type", at: "\(param())[\(j)].type")
                guard type == "text" else {
                    throw GatewayError.invalidRequest("`\(param())[\(j)].type` is \"\(type)\"; only \"text\" parts are allowed here", param: "\(param())[\(j)].type")
                }
                return .text(try InboundField.requiredString(part, "text", at: "\(param())[\(j)].text"))
            }
        case let other: throw InboundField.wrongType(param(), expected: "a string or an array of text parts", got: other)
        }
    }

    private static func userContent(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> [ContentBlock] {
        switch value {
        case .string(let s)?: return [.text(s)]
        case .array(let parts)?:
            return try parts.enumerated().map { j, part in
                func p() -> String { "\(param())[\(j)]" }
                let type = try InboundField.requiredString(part, "type", at: "\(p()).type")
                switch type {
                case "text":
                    return .text(try InboundField.requiredString(part, "text", at: "\(p()).text"))
                case "image_url":
                    let url: String
                    switch part["image_url"] {
                    case .string(let s)?: url = s
                    case let v? where v.objectValue != nil: url = try InboundField.requiredString(v, "url", at: "\(p()).image_url.url")
                    case let other: throw InboundField.wrongType("\(p()).image_url", expected: "an object like {\"url\":\"https://...\"}", got: other)
                    }
                    return .image(ImageSource.fromURL(url))
                default:
                    throw GatewayError.invalidRequest(
                        "`\(p()).type` is \"\(type)\"; SkillGate accepts \"text\" and \"image_url\" parts in user messages",
                        param: "\(p()).type")
                }
            }
        case let other: throw InboundField.wrongType(param(), expected: "a string or an array of content parts", got: other)
        }
    }

    private static func assistant(_ m: Fields, at param: @autoclosure () -> String) throws -> Message {
        var content: [ContentBlock] = []
        switch m.content {
        case nil, .null?: break
        case .string(let s)?: if !s.isEmpty { content.append(.text(s)) }
        case .array(let parts)?:
            for (j, part) in parts.enumerated() {
                let type = try InboundField.requiredString(part, "type", at: "\(param()).content[\(j)].type")
                let key = type == "refusal" ? "refusal" : "text"
                guard type == "text" || type == "refusal" else {
                    throw GatewayError.invalidRequest("`\(param()).content[\(j)].type` is \"\(type)\"; assistant content parts must be \"text\" or \"refusal\"",
                                                      param: "\(param()).content[\(j)].type")
                }
                content.append(.text(try InboundField.requiredString(part, key, at: "\(param()).content[\(j)].\(key)")))
            }
        case let other: throw InboundField.wrongType("\(param()).content", expected: "a string, null, or an array of text parts", got: other)
        }
        switch m.toolCalls {
        case nil, .null?: break
        case .array(let calls)?:
            for (j, call) in calls.enumerated() {
                func p() -> String { "\(param()).tool_calls[\(j)]" }
                let id = try InboundField.requiredString(call, "id", at: "\(p()).id")
                guard let function = call["function"], function.objectValue != nil else {
                    throw InboundField.wrongType("\(p()).function", expected: "an object with name and arguments", got: call["function"])
                }
                let name = try InboundField.requiredString(function, "name", at: "\(p()).function.name")
                let arguments: String
                switch function["arguments"] {
                case .string(let s)?: arguments = s
                case nil, .null?: arguments = "{}"
                case let v? where v.objectValue != nil: arguments = v.serialized()
                case let other: throw InboundField.wrongType("\(p()).function.arguments", expected: "a JSON string", got: other)
                }
                content.append(.toolCall(ToolCall(id: id, name: name, arguments: arguments)))
            }
        case let other: throw InboundField.wrongType("\(param()).tool_calls", expected: "an array of tool calls", got: other)
        }
        return Message(role: .assistant, content: content)
    }
}
