import SkillGateCore
@testable import SkillGateProviders

/// The Messages API request body as it was built before decision 0066: a tree (each tool's schema parsed into one),
/// then serialised. Kept here as the oracle `AnthropicMessagesFormat.wireBodyBytes` is compared with (changed since
/// only to add `top_k`, decision 0094).
/// `system` and the tool-call arguments' check are the format's own functions, which the byte writer also uses.
enum AnthropicRequestTreeReference {
    static func wireBody(for request: ChatRequest, model: String, stream: Bool) throws -> JSONValue {
        typealias F = AnthropicMessagesFormat
        var body = JSONObject()
        body.append("model", .string(model))
        body.append("max_tokens", .int(F.effectiveMaxTokens(for: request)))
        let placeOnPrefix = request.cachePlacement == .prefix && !request.hasCacheBreakpoints
        if let system = F.systemValue(request.messages, breakpointAtEnd: placeOnPrefix) { body.append("system", system) }
        body.append("messages", .array(try wireMessages(request.messages)))
        if !request.tools.isEmpty {
            var tools = request.tools.map(wireTool)
            if placeOnPrefix, case .object(var last)? = tools.last {
                last["cache_control"] = F.wireCacheControl(CacheControl())
                tools[tools.count - 1] = .object(last)
            }
            body.append("tools", .array(tools))
            if let choice = F.wireToolChoice(request.toolChoice, parallelToolCalls: request.parallelToolCalls) {
                body.append("tool_choice", choice)
            }
        }
        if !request.stopSequences.isEmpty { body.append("stop_sequences", .array(request.stopSequences.map(JSONValue.string))) }
        if let t = request.temperature { body.append("temperature", .double(t)) }
        if let p = request.topP { body.append("top_p", .double(p)) }
        if let k = request.topK { body.append("top_k", .int(k)) }
        if let user = request.user, !user.isEmpty { body.append("metadata", ["user_id": .string(user)]) }
        if let thinking = request.thinking {
            if !thinking.enabled {
                body.append("thinking", ["type": "disabled"])
            } else if F.toolTurnAllowsThinking(request.messages) {
                body.append("thinking", ["type": "enabled", "budget_tokens": .int(F.effectiveThinkingBudget(thinking))])
            }
        }
        if stream { body.append("stream", true) }
        return .object(body)
    }

    static func wireTool(_ tool: ToolDefinition) -> JSONValue {
        var t = JSONObject()
        t.append("name", .string(tool.name))
        if let d = tool.description, !d.isEmpty { t.append("description", .string(d)) }
        t.append("input_schema", tool.parameters)
        if let cache = tool.cacheControl { t.append("cache_control", AnthropicMessagesFormat.wireCacheControl(cache)) }
        return .object(t)
    }

    // The `messages` mapping as it was (`AnthropicMessages+RequestMessages.swift` before decision 0066).

    /// The `messages` array: system messages left out (they go to `system`), tool messages turned
    /// into user turns of `tool_result` blocks, adjacent turns of one role merged into one turn.
    static func wireMessages(_ messages: [Message]) throws -> [JSONValue] {
        var turns: [(role: String, blocks: [JSONValue])] = []
        turns.reserveCapacity(messages.count)
        for (i, message) in messages.enumerated() where message.role != .system {
            let role = message.role == .assistant ? "assistant" : "user"
            var blocks: [JSONValue] = []
            blocks.reserveCapacity(message.content.count)
            for (j, block) in message.content.enumerated() {
                guard var wire = try wireBlock(block, role: message.role, path: "messages[\(i)].content[\(j)]") else { continue }
                if let cache = message.cacheBreakpoints[j], case .object(var o) = wire, o["type"]?.stringValue != "thinking",
                   o["type"]?.stringValue != "redacted_thinking" {
                    o["cache_control"] = AnthropicMessagesFormat.wireCacheControl(cache)
                    wire = .object(o)
                }
                blocks.append(wire)
            }
            if blocks.isEmpty { continue }
            if let last = turns.last, last.role == role {
                turns[turns.count - 1].blocks += blocks
            } else {
                turns.append((role, blocks))
            }
        }
        return turns.map { turn in
            .object(["role": .string(turn.role), "content": .array(turn.role == "user" ? toolResultsFirst(turn.blocks) : turn.blocks)])
        }
    }

    /// Anthropic wants a user turn's `tool_result` blocks before its other content; the order
    /// within each group is kept.
    static func toolResultsFirst(_ blocks: [JSONValue]) -> [JSONValue] {
        let isResult = { (b: JSONValue) in b["type"]?.stringValue == "tool_result" }
        guard let firstOther = blocks.firstIndex(where: { !isResult($0) }),
              blocks[firstOther...].contains(where: isResult) else { return blocks }
        return blocks.filter(isResult) + blocks.filter { !isResult($0) }
    }

    /// One content block on the wire; `nil` for blocks Anthropic rejects and that carry nothing
    /// (empty text).
    static func wireBlock(_ block: ContentBlock, role: Role, path: String) throws -> JSONValue? {
        switch block {
        case .text(let text):
            return text.isEmpty ? nil : ["type": "text", "text": .string(text)]
        case .image(let source):
            return wireImage(source)
        case .toolCall(let call):
            guard role == .assistant else {
                throw GatewayError.invalidRequest(
                    "\(path): a tool call can only appear in an assistant message, not in a \(role.rawValue) message; move it to the assistant turn that made it.",
                    param: path)
            }
            return ["type": "tool_use", "id": .string(call.id), "name": .string(call.name),
                    "input": try AnthropicMessagesFormat.toolInput(call, path: path)]
        case .toolResult(let result):
            guard role != .assistant else {
                throw GatewayError.invalidRequest(
                    "\(path): a tool result cannot appear in an assistant message; send it in a tool (or user) message after the assistant turn.",
                    param: path)
            }
            return try wireToolResult(result, path: path)
        case .thinking(let thinking):
            guard role == .assistant else { return nil }
            if let data = thinking.redactedData { return ["type": "redacted_thinking", "data": .string(data)] }
            var t = JSONObject()
            t.append("type", "thinking")
            t.append("thinking", .string(thinking.text))
            t.append("signature", .string(thinking.signature ?? ""))
            return .object(t)
        }
    }

    static func wireImage(_ source: ImageSource) -> JSONValue {
        switch ImageSource.fromURL(source.urlString) {
        case .base64(let mediaType, let data):
            return ["type": "image", "source": ["type": "base64", "media_type": .string(mediaType), "data": .string(data)]]
        case .url(let url):
            return ["type": "image", "source": ["type": "url", "url": .string(url)]]
        }
    }

    static func wireToolResult(_ result: ToolResult, path: String) throws -> JSONValue {
        var r = JSONObject()
        r.append("type", "tool_result")
        r.append("tool_use_id", .string(result.callId))
        let parts = result.content.filter { $0.text.map { !$0.isEmpty } ?? true }
        if parts.count == 1, let text = parts[0].text {
            r.append("content", .string(text))
        } else if !parts.isEmpty {
            var items: [JSONValue] = []
            for (k, part) in parts.enumerated() {
                switch part {
                case .text(let t): items.append(["type": "text", "text": .string(t)])
                case .image(let source): items.append(wireImage(source))
                default:
                    throw GatewayError.invalidRequest(
                        "\(path).content[\(k)]: a tool result may hold only text and images; send other content as text.",
                        param: "\(path).content[\(k)]")
                }
            }
            r.append("content", .array(items))
        }
        if result.isError { r.append("is_error", true) }
        return .object(r)
    }
}
