import SkillGateCore

extension AnthropicMessagesFormat {
    /// The Messages API request body for `request` (the `model` given is the one sent), as compact JSON bytes.
    ///
    /// System messages are hoisted into `system`; tool results become `tool_result` blocks in a
    /// user turn, and adjacent turns of the same role are merged (Anthropic requires alternation).
    /// Throws `GatewayError.invalidRequest` when the request cannot be expressed (e.g. tool call
    /// arguments that are not a JSON object).
    ///
    /// Written straight as bytes, a tool's schema copied as the text it is kept as (`ToolSchema`): built as a tree,
    /// every request parsed each schema into one and serialised it again (decision 0066). Only `system` is still
    /// built as a (small) tree and written in place.
    public func wireBodyBytes(for request: ChatRequest, model: String, stream: Bool) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + request.messages.count * 256 + request.tools.count * 512)
        out += #"{"model":"#
        JSONValue.writeString(model, to: &out)
        out += #","max_tokens":"#
        out.append(contentsOf: String(Self.effectiveMaxTokens(for: request)).utf8)
        let placeOnPrefix = request.cachePlacement == .prefix && !request.hasCacheBreakpoints
        if let system = Self.systemValue(request.messages, breakpointAtEnd: placeOnPrefix) {
            out += #","system":"#
            system.write(to: &out)
        }
        out += #","messages":"#
        try Self.writeWireMessages(request.messages, to: &out)
        if !request.tools.isEmpty {
            out += #","tools":["#
            for (i, tool) in request.tools.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                // The prefix placement's breakpoint goes on the last tool (replacing the tool's own).
                let cache = placeOnPrefix && i == request.tools.count - 1 ? CacheControl() : tool.cacheControl
                Self.writeWireTool(tool, cache: cache, to: &out)
            }
            out.append(UInt8(ascii: "]"))
            if let choice = Self.wireToolChoice(request.toolChoice, parallelToolCalls: request.parallelToolCalls) {
                out += #","tool_choice":"#
                choice.write(to: &out)
            }
        }
        if !request.stopSequences.isEmpty {
            out += #","stop_sequences":"#
            JSONValue.writeStrings(request.stopSequences, to: &out)
        }
        if let t = request.temperature { out += #","temperature":"#; JSONValue.double(t).write(to: &out) }
        if let p = request.topP { out += #","top_p":"#; JSONValue.double(p).write(to: &out) }
        if let k = request.topK { out += #","top_k":"#; out += String(k).utf8 }
        if let user = request.user, !user.isEmpty {
            out += #","metadata":{"user_id":"#
            JSONValue.writeString(user, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if let thinking = request.thinking {
            if !thinking.enabled {
                out += #","thinking":{"type":"disabled"}"#
            } else if Self.toolTurnAllowsThinking(request.messages) {
                out += #","thinking":{"type":"enabled","budget_tokens":"#
                out.append(contentsOf: String(Self.effectiveThinkingBudget(thinking)).utf8)
                out.append(UInt8(ascii: "}"))
            }
            // Else thinking stays off for this turn (Anthropic's default) rather than a certain 400 (decision 0112).
        }
        if stream { out += #","stream":true"# }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same body as a tree (`wireBodyBytes` parsed, so the two never disagree).
    public func wireBody(for request: ChatRequest, model: String, stream: Bool) throws -> JSONValue {
        try JSONValue.parse(try wireBodyBytes(for: request, model: model, stream: stream))
    }

    /// Whether thinking may be turned on for a conversation: Anthropic refuses it (400, "expected `thinking` or
    /// `redacted_thinking`, but found `tool_use`") when the last assistant turn calls a tool without starting with the
    /// signed thinking block it was answered with. A client in another format (Chat Completions) cannot send that block
    /// back, so in a tool loop its `reasoning_effort` would fail every second turn; such a turn is sent without thinking,
    /// as other gateways do, and the next turn after the tool loop thinks again (decision 0112).
    static func toolTurnAllowsThinking(_ messages: [Message]) -> Bool {
        guard let last = messages.last(where: { $0.role == .assistant }),
              last.content.contains(where: { $0.toolCall != nil }) else { return true }
        guard case .thinking(let first)? = last.content.first else { return false }
        return first.redactedData != nil || !(first.signature ?? "").isEmpty
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

    /// One tool: name, description (when not empty), its schema copied as kept, and its cache breakpoint.
    static func writeWireTool(_ tool: ToolDefinition, cache: CacheControl?, to out: inout [UInt8]) {
        out += #"{"name":"#
        JSONValue.writeString(tool.name, to: &out)
        if let d = tool.description, !d.isEmpty {
            out += #","description":"#
            JSONValue.writeString(d, to: &out)
        }
        out += #","input_schema":"#
        tool.schema.write(to: &out)
        if let cache {
            out += #","cache_control":"#
            wireCacheControl(cache).write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
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
