import SkillGateCore

extension AnthropicMessagesFormat {
    /// The Messages API request body for `request` (the `model` given is the one sent).
    ///
    /// System messages are hoisted into `system`; tool results become `tool_result` blocks in a
    /// user turn, and adjacent turns of the same role are merged (Anthropic requires alternation).
    /// Throws `GatewayError.invalidRequest` when the request cannot be expressed (e.g. tool call
    /// arguments that are not a JSON object).
    public func wireBody(for request: ChatRequest, model: String, stream: Bool) throws -> JSONValue {
        var body = JSONObject()
        body.append("model", .string(model))
        body.append("max_tokens", .int(Self.effectiveMaxTokens(for: request)))
        let placeOnPrefix = request.cachePlacement == .prefix && !request.hasCacheBreakpoints
        if let system = Self.systemValue(request.messages, breakpointAtEnd: placeOnPrefix) { body.append("system", system) }
        body.append("messages", .array(try Self.wireMessages(request.messages)))
        if !request.tools.isEmpty {
            var tools = request.tools.map(Self.wireTool)
            if placeOnPrefix, case .object(var last)? = tools.last {
                last["cache_control"] = Self.wireCacheControl(CacheControl())
                tools[tools.count - 1] = .object(last)
            }
            body.append("tools", .array(tools))
            if let choice = Self.wireToolChoice(request.toolChoice, parallelToolCalls: request.parallelToolCalls) {
                body.append("tool_choice", choice)
            }
        }
        if !request.stopSequences.isEmpty { body.append("stop_sequences", .array(request.stopSequences.map(JSONValue.string))) }
        if let t = request.temperature { body.append("temperature", .double(t)) }
        if let p = request.topP { body.append("top_p", .double(p)) }
        if let user = request.user, !user.isEmpty { body.append("metadata", ["user_id": .string(user)]) }
        if let thinking = request.thinking {
            if thinking.enabled {
                body.append("thinking", ["type": "enabled", "budget_tokens": .int(Self.effectiveThinkingBudget(thinking))])
            } else {
                body.append("thinking", ["type": "disabled"])
            }
        }
        if stream { body.append("stream", true) }
        return .object(body)
    }

    /// The thinking budget sent: the requested one, at least `minimumThinkingBudget`.
    static func effectiveThinkingBudget(_ thinking: ThinkingConfig) -> Int {
        max(thinking.budgetTokens ?? minimumThinkingBudget, minimumThinkingBudget)
    }

    /// `max_tokens` sent: the request's limit or `defaultMaxTokens`; with thinking on and a limit
    /// not above the budget, budget + limit (Anthropic counts thinking inside `max_tokens`).
    static func effectiveMaxTokens(for request: ChatRequest) -> Int {
        let limit = request.maxTokens ?? defaultMaxTokens
        guard let thinking = request.thinking, thinking.enabled else { return limit }
        let budget = effectiveThinkingBudget(thinking)
        return limit > budget ? limit : budget + limit
    }

    /// `system` as a string (one text without a cache breakpoint) or as text blocks (several, or any with a
    /// breakpoint: the client's, or one after the last block when `breakpointAtEnd`), or `nil` without system
    /// messages.
    static func systemValue(_ messages: [Message], breakpointAtEnd: Bool = false) -> JSONValue? {
        var blocks: [(text: String, cache: CacheControl?)] = []
        for message in messages where message.role == .system {
            for (i, block) in message.content.enumerated() {
                guard let text = block.text, !text.isEmpty else { continue }
                blocks.append((text, message.cacheBreakpoints[i]))
            }
        }
        if blocks.isEmpty { return nil }
        if breakpointAtEnd { blocks[blocks.count - 1].cache = CacheControl() }
        if blocks.count == 1, blocks[0].cache == nil { return .string(blocks[0].text) }
        return .array(blocks.map { block in
            var o: JSONObject = ["type": "text", "text": .string(block.text)]
            if let cache = block.cache { o.append("cache_control", wireCacheControl(cache)) }
            return .object(o)
        })
    }

    /// `{"type":"ephemeral"}`, with its `ttl` when set.
    static func wireCacheControl(_ cache: CacheControl) -> JSONValue {
        var o: JSONObject = ["type": "ephemeral"]
        if let ttl = cache.ttl { o.append("ttl", .string(ttl)) }
        return .object(o)
    }

    static func wireTool(_ tool: ToolDefinition) -> JSONValue {
        var t = JSONObject()
        t.append("name", .string(tool.name))
        if let d = tool.description, !d.isEmpty { t.append("description", .string(d)) }
        t.append("input_schema", tool.parameters)
        if let cache = tool.cacheControl { t.append("cache_control", wireCacheControl(cache)) }
        return .object(t)
    }

    /// `tool_choice`: auto → `auto`, required → `any`, named → `tool`, none → `none`;
    /// `parallelToolCalls == false` adds `disable_parallel_tool_use` (not allowed with `none`).
    static func wireToolChoice(_ choice: ToolChoice?, parallelToolCalls: Bool?) -> JSONValue? {
        var c = JSONObject()
        switch choice {
        case nil:
            guard parallelToolCalls == false else { return nil }
            c.append("type", "auto")
        case .auto?: c.append("type", "auto")
        case .required?: c.append("type", "any")
        case .named(let name)?: c.append("type", "tool"); c.append("name", .string(name))
        case .none?: return ["type": "none"]
        }
        if parallelToolCalls == false { c.append("disable_parallel_tool_use", true) }
        return .object(c)
    }
}
