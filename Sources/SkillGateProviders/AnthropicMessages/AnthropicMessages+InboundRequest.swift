import SkillGateCore

extension AnthropicMessagesFormat {
    /// Decodes a client's `POST /v1/messages` body into a `ChatRequest`.
    ///
    /// Validates what Anthropic validates (`model`, `max_tokens` and `messages` required, roles
    /// `user`/`assistant`, known content block types) and throws `GatewayError.invalidRequest`
    /// naming the field (`messages[1].content[0].type`) and what is expected. `system` may be a
    /// string or text blocks; `thinking` is `{type:"enabled",budget_tokens}` or `{type:"disabled"}`.
    /// A user turn's `tool_result` blocks become a `.tool` message (before the turn's other content).
    /// Fields SkillGate does not model (`service_tier`, ...) are ignored.
    public static func decodeInboundRequest(_ body: [UInt8]) throws -> ChatRequest {
        try decodeInbound(body).request
    }

    /// Decodes a client's `POST /v1/messages` body (see `decodeInboundRequest`) and whether it
    /// asked for a stream (`"stream": true`). With `toolCache`, a `tools` array whose exact bytes were decoded before in
    /// `scope` is taken from there instead of being read and checked again, and a new one is kept there once the whole
    /// request decoded without error (`ToolListCache`); the answer is the same either way.
    public static func decodeInbound(_ body: [UInt8], toolCache: ToolListCache? = nil, scope: String = "") throws -> (request: ChatRequest, stream: Bool) {
        let parsed: AnthropicInboundBody
        do {
            if let toolCache {
                parsed = try AnthropicInboundBody.parse(body, toolCache: toolCache, scope: scope)
            } else {
                parsed = AnthropicInboundBody(root: try JSONValue.parse(body, duplicateKeys: .refused))
            }
        } catch {
            throw GatewayError.invalidRequest("The request body is not valid JSON (\(error)); send a JSON object as the Messages API expects.")
        }
        var decoded = try decodeInbound(parsed.root, cachedTools: parsed.cachedTools)
        if let toolCache, let bytes = parsed.uncachedToolBytes {
            toolCache.rememberWithSchemasAsText(&decoded.request.tools, decodedFrom: bytes, scope: scope)
        }
        return decoded
    }

    /// Decodes a client's `POST /v1/messages/count_tokens` body: a Messages request without `max_tokens` (the API counts
    /// the input only), checked as `decodeInboundRequest` checks one; a `max_tokens` sent anyway is read and checked.
    public static func decodeCountTokensRequest(_ body: [UInt8]) throws -> ChatRequest {
        let root: JSONValue
        do { root = try JSONValue.parse(body, duplicateKeys: .refused) } catch {
            throw GatewayError.invalidRequest("The request body is not valid JSON (\(error)); send a JSON object as the count_tokens API expects.")
        }
        return try decodeInbound(root, cachedTools: nil, maxTokensRequired: false).request
    }

    /// Decodes a parsed body; `cachedTools`, when present, are its tools (the tree then has no `tools`).
    private static func decodeInbound(_ root: JSONValue, cachedTools: [ToolDefinition]?, maxTokensRequired: Bool = true) throws -> (request: ChatRequest, stream: Bool) {
        let top = AnthropicInboundField(root, "")
        guard root.objectValue != nil else {
            throw GatewayError.invalidRequest("The request body must be a JSON object, got \(root.typeDescription).")
        }
        let model = try InboundField.requiredModel(top.member("model").value)
        let maxTokensField = top.member("max_tokens")
        guard maxTokensField.isPresent || !maxTokensRequired else {
            throw GatewayError.invalidRequest("max_tokens: field required; the Messages API needs an upper bound on generated tokens (e.g. \"max_tokens\": 1024).", param: "max_tokens")
        }
        let maxTokens = maxTokensField.isPresent ? try maxTokensField.int(minimum: 1) : nil
        var messages: [Message] = []
        if let system = try decodeSystem(top.member("system")) { messages.append(system) }
        let wireMessages = top.member("messages")
        guard wireMessages.isPresent else {
            throw GatewayError.invalidRequest("messages: field required; send the conversation as an array of {role, content} turns.", param: "messages")
        }
        let turns = try wireMessages.array()
        guard !turns.isEmpty else {
            throw GatewayError.invalidRequest("messages: expected at least one message, got an empty array.", param: "messages")
        }
        for turn in turns { messages += try decodeTurn(turn) }

        var request = ChatRequest(model: model, messages: messages, maxTokens: maxTokens)
        request.tools = try cachedTools ?? top.member("tools").optionalArray().map(decodeTool)
        try decodeToolChoice(top.member("tool_choice"), into: &request)
        request.temperature = try top.member("temperature").optionalDouble()
        request.topP = try top.member("top_p").optionalDouble()
        let topK = top.member("top_k")
        if topK.isPresent { request.topK = try topK.int(minimum: 0) }
        request.stopSequences = try top.member("stop_sequences").optionalArray().map { try $0.string() }
        let metadata = top.member("metadata")
        if metadata.isPresent {
            _ = try metadata.object()
            request.user = try metadata.member("user_id").optionalString()
        }
        request.thinking = try decodeThinking(top.member("thinking"))
        let stream = try top.member("stream").optionalBool() ?? false
        return (request, stream)
    }

    static func decodeSystem(_ field: AnthropicInboundField) throws -> Message? {
        guard field.isPresent else { return nil }
        if let s = field.value?.stringValue { return s.isEmpty ? nil : Message(role: .system, text: s) }
        guard field.value?.arrayValue != nil else { throw field.fail("a string or an array of text blocks") }
        var system = Message(role: .system, content: [])
        for block in try field.array() {
            let type = try block.member("type").string()
            guard type == "text" else {
                throw GatewayError.invalidRequest("\(block.path).type: expected \"text\" (system blocks are text), got \"\(type)\".", param: "\(block.path).type")
            }
            system.content.append(.text(try block.member("text").string()))
            if let cache = try decodeCacheControl(block) { system.cacheBreakpoints[system.content.count - 1] = cache }
        }
        return system.content.isEmpty ? nil : system
    }

    static func decodeTool(_ field: AnthropicInboundField) throws -> ToolDefinition {
        _ = try field.object()
        if let type = field.value?["type"]?.stringValue, type != "custom" {
            throw GatewayError.invalidRequest(
                "\(field.path).type: the server tool \"\(type)\" is not supported by SkillGate; declare client tools as {name, description, input_schema}.",
                param: "\(field.path).type")
        }
        let name = try field.member("name").string()
        try ToolNameRule.check(name, param: "\(field.path).name")
        let description = try field.member("description").optionalString()
        let schema = field.member("input_schema")
        guard schema.value?.objectValue != nil else { throw schema.fail("a JSON Schema object") }
        return ToolDefinition(name: name, description: description, parameters: schema.value!, cacheControl: try decodeCacheControl(field))
    }

    /// A block's or tool's `cache_control`: `{"type":"ephemeral"}` with an optional `ttl` of `"5m"` or `"1h"`.
    static func decodeCacheControl(_ owner: AnthropicInboundField) throws -> CacheControl? {
        let field = owner.member("cache_control")
        guard field.isPresent else { return nil }
        _ = try field.object()
        let typeField = field.member("type")
        let type = try typeField.string()
        guard type == "ephemeral" else {
            throw GatewayError.invalidRequest("\(typeField.path): expected \"ephemeral\" (the only cache type), got \"\(type)\".", param: typeField.path)
        }
        let ttlField = field.member("ttl")
        let ttl = try ttlField.optionalString()
        if let ttl, ttl != "5m", ttl != "1h" {
            throw GatewayError.invalidRequest("\(ttlField.path): expected \"5m\" or \"1h\", got \"\(ttl)\".", param: ttlField.path)
        }
        return CacheControl(ttl: ttl)
    }

    static func decodeToolChoice(_ field: AnthropicInboundField, into request: inout ChatRequest) throws {
        guard field.isPresent else { return }
        _ = try field.object()
        let type = try field.member("type").string()
        switch type {
        case "auto": request.toolChoice = .auto
        case "any": request.toolChoice = .required
        case "none": request.toolChoice = ToolChoice.none
        case "tool": request.toolChoice = .named(try field.member("name").string())
        default:
            throw GatewayError.invalidRequest("\(field.path).type: expected one of auto, any, tool, none, got \"\(type)\".", param: "\(field.path).type")
        }
        if try field.member("disable_parallel_tool_use").optionalBool() == true { request.parallelToolCalls = false }
    }

    static func decodeThinking(_ field: AnthropicInboundField) throws -> ThinkingConfig? {
        guard field.isPresent else { return nil }
        _ = try field.object()
        let type = try field.member("type").string()
        switch type {
        case "enabled":
            return ThinkingConfig(enabled: true, budgetTokens: try field.member("budget_tokens").int(minimum: 1))
        case "disabled":
            return ThinkingConfig(enabled: false)
        case "adaptive":
            return ThinkingConfig(enabled: true)
        default:
            throw GatewayError.invalidRequest("\(field.path).type: expected \"enabled\" or \"disabled\", got \"\(type)\".", param: "\(field.path).type")
        }
    }
}
