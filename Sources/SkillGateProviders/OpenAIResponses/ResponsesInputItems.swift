import SkillGateCore

/// The request's `input` items → messages of the wire-neutral model.
///
/// - `message` items (also without `type`, the SDKs' short form) by role: `developer` is `system`;
///   parts `input_text`, `output_text`, `refusal` become text, `input_image` an image.
/// - `reasoning`, assistant `message` and `function_call` items that follow each other form one
///   assistant message (one model turn); `function_call_output` items that follow each other form
///   one tool message, each result named after the call it answers.
/// - Anything else (`item_reference`, hosted tool calls, files) is a 400 naming the item's index.
enum ResponsesInputItems {
    /// The key under which a stored `function_call` item keeps a provider's opaque signature
    /// (Gemini thought signatures): the gateway's own stored conversations only.
    static let signatureKey = "skillgate_signature"
    /// The key under which a stored `function_call_output` item keeps that the tool failed.
    static let isErrorKey = "skillgate_is_error"
    /// `encrypted_content` of a reasoning item that carries redacted reasoning starts with this.
    static let redactedPrefix = "redacted:"

    static func decode(_ items: [JSONValue]) throws -> [Message] {
        var messages: [Message] = []
        messages.reserveCapacity(items.count)
        var toolNames: [String: String] = [:]
        for (i, item) in items.enumerated() {
            let param = "input[\(i)]"
            guard item.objectValue != nil else { throw InboundField.wrongType(param, expected: "an input item object", got: item) }
            let type: String
            switch item["type"] {
            case .string(let t)?: type = t
            case nil, .null?:
                guard item["role"] != nil else {
                    throw GatewayError.invalidRequest("`\(param)` has neither `type` nor `role`; send a message ({\"role\":\"user\",\"content\":...}) or an item with a `type`",
                                                      param: param)
                }
                type = "message"
            case let other?: throw InboundField.wrongType("\(param).type", expected: "a string", got: other)
            }
            switch type {
            case "message":
                let message = try decodeMessage(item, at: param)
                if message.role == .assistant { appendToAssistantTurn(message.content, &messages) } else { messages.append(message) }
            case "function_call":
                let call = try decodeFunctionCall(item, at: param)
                toolNames[call.id] = call.name
                appendToAssistantTurn([.toolCall(call)], &messages)
            case "function_call_output":
                let callId = try InboundField.requiredString(item, "call_id", at: "\(param).call_id")
                var result = ToolResult(callId: callId, name: toolNames[callId], content: try outputContent(item["output"], at: "\(param).output"))
                result.isError = item[isErrorKey]?.boolValue ?? false
                if let last = messages.last, last.role == .tool {
                    messages[messages.count - 1].content.append(.toolResult(result))
                } else {
                    messages.append(Message(role: .tool, content: [.toolResult(result)]))
                }
            case "reasoning":
                if let thinking = try decodeReasoning(item, at: param) { appendToAssistantTurn([.thinking(thinking)], &messages) }
            case "item_reference":
                throw GatewayError.invalidRequest(
                    "`\(param).type` is \"item_reference\"; SkillGate keeps whole responses, not items by id: send the item itself, or continue with `previous_response_id`",
                    param: "\(param).type")
            default:
                throw GatewayError.invalidRequest(
                    "`\(param).type` is \"\(type)\"; SkillGate accepts message, function_call, function_call_output and reasoning items",
                    param: "\(param).type")
            }
        }
        return messages
    }

    /// Appends assistant content to the assistant message at the end, or starts one.
    private static func appendToAssistantTurn(_ content: [ContentBlock], _ messages: inout [Message]) {
        if let last = messages.last, last.role == .assistant {
            messages[messages.count - 1].content += content
        } else {
            messages.append(Message(role: .assistant, content: content))
        }
    }

    private static func decodeMessage(_ item: JSONValue, at param: String) throws -> Message {
        let roleName = try InboundField.requiredString(item, "role", at: "\(param).role")
        let role: Role
        switch roleName {
        case "user": role = .user
        case "assistant": role = .assistant
        case "system", "developer": role = .system
        default:
            throw GatewayError.invalidRequest("`\(param).role` is \"\(roleName)\"; it must be one of user, assistant, system, developer",
                                              param: "\(param).role")
        }
        switch item["content"] {
        case .string(let s)?:
            return Message(role: role, content: role == .assistant && s.isEmpty ? [] : [.text(s)])
        case .array(let parts)?:
            let content = try parts.enumerated().map { j, part in try decodePart(part, at: "\(param).content[\(j)]", imagesAllowed: role == .user) }
            return Message(role: role, content: content)
        case let other:
            throw InboundField.wrongType("\(param).content", expected: "a string or an array of content parts", got: other)
        }
    }

    private static func decodePart(_ part: JSONValue, at param: String, imagesAllowed: Bool) throws -> ContentBlock {
        guard part.objectValue != nil else { throw InboundField.wrongType(param, expected: "a content part object", got: part) }
        let type = try InboundField.requiredString(part, "type", at: "\(param).type")
        switch type {
        case "input_text", "output_text", "text":
            return .text(try InboundField.requiredString(part, "text", at: "\(param).text"))
        case "refusal":
            return .text(try InboundField.requiredString(part, "refusal", at: "\(param).refusal"))
        case "input_image" where imagesAllowed:
            guard let url = try InboundField.optionalString(part, "image_url", at: "\(param).image_url") else {
                throw GatewayError.invalidRequest(
                    "`\(param).image_url` is missing; SkillGate has no file store, so send the image as a URL or a data: URL in `image_url` (not `file_id`)",
                    param: "\(param).image_url")
            }
            return .image(ImageSource.fromURL(url))
        default:
            throw GatewayError.invalidRequest(
                "`\(param).type` is \"\(type)\"; SkillGate accepts input_text and input_image parts (user messages) and output_text or refusal parts (assistant messages)",
                param: "\(param).type")
        }
    }

    private static func decodeFunctionCall(_ item: JSONValue, at param: String) throws -> ToolCall {
        let callId = try InboundField.requiredString(item, "call_id", at: "\(param).call_id")
        let name = try InboundField.requiredString(item, "name", at: "\(param).name")
        let arguments: String
        switch item["arguments"] {
        case .string(let s)?: arguments = s
        case nil, .null?: arguments = "{}"
        case let v? where v.objectValue != nil: arguments = v.serialized()
        case let other: throw InboundField.wrongType("\(param).arguments", expected: "a JSON string", got: other)
        }
        return ToolCall(id: callId, name: name, arguments: arguments, signature: item[signatureKey]?.stringValue)
    }

    /// `output`: a string, or an array of `input_text` / `input_image` parts.
    private static func outputContent(_ value: JSONValue?, at param: String) throws -> [ContentBlock] {
        switch value {
        case .string(let s)?: return [.text(s)]
        case .array(let parts)?:
            return try parts.enumerated().map { j, part in try decodePart(part, at: "\(param)[\(j)]", imagesAllowed: true) }
        case let other: throw InboundField.wrongType(param, expected: "a string or an array of input_text parts", got: other)
        }
    }

    /// A reasoning item: its summary text, and its `encrypted_content` as the provider's signature
    /// (or redacted reasoning). Nil when it carries neither.
    private static func decodeReasoning(_ item: JSONValue, at param: String) throws -> Thinking? {
        var text = ""
        switch item["summary"] {
        case nil, .null?: break
        case .array(let parts)?:
            for (j, part) in parts.enumerated() {
                text += try InboundField.requiredString(part, "text", at: "\(param).summary[\(j)].text")
            }
        case let other: throw InboundField.wrongType("\(param).summary", expected: "an array of summary_text parts", got: other)
        }
        let encrypted = try InboundField.optionalString(item, "encrypted_content", at: "\(param).encrypted_content")
        if let encrypted, encrypted.hasPrefix(redactedPrefix) {
            return Thinking(text: "", redactedData: String(encrypted.dropFirst(redactedPrefix.count)))
        }
        guard !text.isEmpty || encrypted != nil else { return nil }
        return Thinking(text: text, signature: encrypted)
    }
}
