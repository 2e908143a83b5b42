import SkillGateCore
@testable import SkillGateProviders

/// The Messages API request body as it was built before decision 0066: a tree (each tool's schema parsed into one),
/// then serialised. Kept here, unchanged, as the oracle `AnthropicMessagesFormat.wireBodyBytes` is compared with.
/// `system` and `messages` are the format's own functions, which the byte writer also uses.
enum AnthropicRequestTreeReference {
    static func wireBody(for request: ChatRequest, model: String, stream: Bool) throws -> JSONValue {
        typealias F = AnthropicMessagesFormat
        var body = JSONObject()
        body.append("model", .string(model))
        body.append("max_tokens", .int(F.effectiveMaxTokens(for: request)))
        let placeOnPrefix = request.cachePlacement == .prefix && !request.hasCacheBreakpoints
        if let system = F.systemValue(request.messages, breakpointAtEnd: placeOnPrefix) { body.append("system", system) }
        body.append("messages", .array(try F.wireMessages(request.messages)))
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
        if let user = request.user, !user.isEmpty { body.append("metadata", ["user_id": .string(user)]) }
        if let thinking = request.thinking {
            if thinking.enabled {
                body.append("thinking", ["type": "enabled", "budget_tokens": .int(F.effectiveThinkingBudget(thinking))])
            } else {
                body.append("thinking", ["type": "disabled"])
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
}
