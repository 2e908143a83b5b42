import SkillGateCore

/// A request as it arrived on the gateway's OpenAI-compatible surface.
public struct OpenAIChatInboundRequest: Sendable, Hashable {
    /// The request in SkillGate's wire-neutral model.
    public var request: ChatRequest
    /// Whether the client asked for a streamed answer (`stream: true`).
    public var stream: Bool
    /// Whether the client asked for a final usage chunk (`stream_options.include_usage`).
    public var includeUsage: Bool

    public init(request: ChatRequest, stream: Bool, includeUsage: Bool) {
        self.request = request
        self.stream = stream
        self.includeUsage = includeUsage
    }
}

/// Chat Completions request body (as a client sends it) → ChatRequest.
///
/// Validation errors are `GatewayError.invalidRequest` (400) naming the field (`messages[2].content`)
/// and saying what it must be. Unknown top-level fields are ignored (SDKs send many optional ones);
/// fields SkillGate cannot honour (`n` > 1, legacy `functions`) are refused rather than ignored.
extension OpenAIChatFormat {
    /// Decodes and validates an inbound request body. With `toolCache`, a `tools` array whose exact bytes were decoded
    /// before in `scope` is taken from there instead of being read and checked again, and a new one is kept there once
    /// the whole request decoded without error (`ToolListCache`).
    public static func decodeInboundRequest(_ body: [UInt8], toolCache: ToolListCache? = nil, scope: String = "") throws -> OpenAIChatInboundRequest {
        let parsed: OpenAIChatInboundBody
        do { parsed = try OpenAIChatInboundBody.parse(body, toolCache: toolCache, scope: scope) } catch {
            throw GatewayError.invalidRequest("the request body is not valid JSON (\(error)); send a JSON object like {\"model\":...,\"messages\":[...]}")
        }
        if let other = parsed.notAnObject { throw notAnObject(other) }
        let decoded = try decodeInboundRequest(parsed.fields, schemas: parsed.schemas, cachedTools: parsed.cachedTools,
                                               messages: parsed.messages)
        if let toolCache, let bytes = parsed.uncachedToolBytes {
            toolCache.remember(decoded.request.tools, decodedFrom: bytes, scope: scope)
        }
        return decoded
    }

    /// Decodes an already parsed request body (a surface that reads fields of its own first, such
    /// as the agent surface's `scenario`, parses once).
    public static func decodeInboundRequest(json: JSONValue) throws -> OpenAIChatInboundRequest {
        guard case .object(let object) = json else { throw notAnObject(json) }
        return try decodeInboundRequest(OpenAIChatInboundFields(object), schemas: [])
    }

    private static func notAnObject(_ body: JSONValue) -> GatewayError {
        GatewayError.invalidRequest("the request body must be a JSON object, but it is \(body.typeDescription)")
    }

    /// Decodes a body's members. `schemas[i]`, when present, is the schema of `tools[i]`, captured as text by
    /// `OpenAIChatInboundBody`. `cachedTools`, when present, are the request's tools, taken from a `ToolListCache`
    /// (`fields` has no `tools`). `messages`, when present, are the request's messages, read straight from the body
    /// (`InboundMessages.read`: they decoded without error, and `fields` has no `messages`).
    static func decodeInboundRequest(_ fields: OpenAIChatInboundFields, schemas: [ToolSchema?], cachedTools: [ToolDefinition]? = nil,
                                     messages readMessages: [Message]? = nil) throws -> OpenAIChatInboundRequest {
        let model = try InboundField.requiredModel(fields[.model])
        if let n = fields[.n], !n.isNull, n.intValue != 1 {
            throw GatewayError.invalidRequest(
                "SkillGate returns one choice per request, so `n` must be 1 or omitted (got \(n.serialized())); send several requests for several answers",
                param: "n")
        }
        if let legacy = fields[.functions], !legacy.isNull {
            throw GatewayError.invalidRequest(
                "the legacy `functions` field is not supported; send the same definitions as `tools: [{\"type\":\"function\",\"function\":{...}}]`",
                param: "functions")
        }
        let messages: [Message]
        if let readMessages {
            messages = readMessages
        } else {
            guard case .array(let wireMessages)? = fields[.messages] else {
                throw InboundField.wrongType("messages", expected: "a non-empty array of messages", got: fields[.messages])
            }
            guard !wireMessages.isEmpty else {
                throw GatewayError.invalidRequest("`messages` is empty; send at least one user message", param: "messages")
            }
            messages = try InboundMessages.decode(wireMessages)
        }
        let tools = try cachedTools ?? decodeTools(fields[.tools], schemas: schemas)
        let toolChoice = try decodeToolChoice(fields[.toolChoice], tools: tools)

        var request = ChatRequest(model: model, messages: messages, tools: tools, toolChoice: toolChoice)
        request.parallelToolCalls = try InboundField.optionalBool(fields[.parallelToolCalls], at: "parallel_tool_calls")
        request.maxTokens = try InboundField.optionalPositiveInt(fields[.maxCompletionTokens], at: "max_completion_tokens")
            ?? InboundField.optionalPositiveInt(fields[.maxTokens], at: "max_tokens")
        request.temperature = try InboundField.optionalDouble(fields[.temperature], at: "temperature")
        request.topP = try InboundField.optionalDouble(fields[.topP], at: "top_p")
        try decodeSamplingControls(fields, into: &request)
        request.stopSequences = try decodeStop(fields[.stop])
        switch fields[.responseFormat] {
        case nil, .null?: break
        case let v? where v.objectValue != nil: request.responseFormat = v
        case let other: throw InboundField.wrongType("response_format", expected: "an object like {\"type\":\"json_object\"}", got: other)
        }
        // `safety_identifier` is OpenAI's successor to `user` (the end user, for abuse monitoring and the response
        // cache's keys), as on the Responses surface; either is sent upstream as the provider's `user`.
        request.user = try InboundField.optionalString(fields[.safetyIdentifier], at: "safety_identifier")
            ?? InboundField.optionalString(fields[.user], at: "user")
        request.promptCacheKey = try InboundField.optionalString(fields[.promptCacheKey], at: "prompt_cache_key")
        if let effort = try InboundField.optionalString(fields[.reasoningEffort], at: "reasoning_effort") {
            request.thinking = ThinkingConfig(enabled: effort != "none" && effort != "minimal")
        }
        let stream = try InboundField.optionalBool(fields[.stream], at: "stream") ?? false
        var includeUsage = false
        switch fields[.streamOptions] {
        case nil, .null?: break
        case let options? where options.objectValue != nil:
            includeUsage = try InboundField.optionalBool(options, "include_usage", at: "stream_options.include_usage") ?? false
        case let other: throw InboundField.wrongType("stream_options", expected: "an object like {\"include_usage\":true}", got: other)
        }
        return OpenAIChatInboundRequest(request: request, stream: stream, includeUsage: includeUsage)
    }

    private static func decodeTools(_ value: JSONValue?, schemas: [ToolSchema?]) throws -> [ToolDefinition] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?:
            return try items.enumerated().map { i, item in
                func param() -> String { "tools[\(i)]" }
                guard item.objectValue != nil else { throw InboundField.wrongType(param(), expected: "an object", got: item) }
                if let type = item["type"]?.stringValue, type != "function" {
                    throw GatewayError.invalidRequest("`\(param()).type` is \"\(type)\"; SkillGate supports only \"function\" tools", param: "\(param()).type")
                }
                guard let function = item["function"], function.objectValue != nil else {
                    throw InboundField.wrongType("\(param()).function", expected: "an object with name, description and parameters", got: item["function"])
                }
                let name = try InboundField.requiredString(function, "name", at: "\(param()).function.name")
                guard !name.isEmpty else {
                    throw GatewayError.invalidRequest("`\(param()).function.name` is empty; give the tool a name", param: "\(param()).function.name")
                }
                try ToolNameRule.check(name, param: "\(param()).function.name")
                let description = try InboundField.optionalString(function, "description", at: "\(param()).function.description")
                let strict = try InboundField.optionalBool(function, "strict", at: "\(param()).function.strict")
                // The schema is chosen before the tool is built: building it with the default schema and then replacing
                // that built a tree per tool for nothing.
                let schema: ToolSchema
                switch function["parameters"] {
                case nil, .null?: schema = .emptyObject
                case let p? where p.objectValue != nil: schema = (i < schemas.count ? schemas[i] : nil) ?? ToolSchema(p)
                case let other:
                    throw InboundField.wrongType("\(param()).function.parameters", expected: "a JSON Schema object", got: other)
                }
                return ToolDefinition(name: name, description: description, schema: schema, strict: strict)
            }
        case let other: throw InboundField.wrongType("tools", expected: "an array of tools", got: other)
        }
    }

    private static func decodeToolChoice(_ value: JSONValue?, tools: [ToolDefinition]) throws -> ToolChoice? {
        switch value {
        case nil, .null?: return nil
        case .string("auto")?: return .auto
        case .string("none")?: return ToolChoice.none
        case .string("required")?: return .required
        case let v? where v.objectValue != nil:
            guard case .string(let name)? = v["function"]?["name"] else {
                throw InboundField.wrongType("tool_choice.function.name", expected: "the name of one of the tools", got: v["function"]?["name"])
            }
            guard tools.contains(where: { $0.name == name }) else {
                throw GatewayError.invalidRequest("`tool_choice.function.name` is \"\(name)\", which is not in `tools`; name one of the tools you sent", param: "tool_choice.function.name")
            }
            return .named(name)
        case let other?:
            throw GatewayError.invalidRequest(
                "`tool_choice` must be \"auto\", \"none\", \"required\" or {\"type\":\"function\",\"function\":{\"name\":...}}, but it is \(other.serialized().prefix(80))",
                param: "tool_choice")
        }
    }

    private static func decodeStop(_ value: JSONValue?) throws -> [String] {
        switch value {
        case nil, .null?: return []
        case .string(let s)?: return [s]
        case .array(let items)?:
            return try items.enumerated().map { i, item in
                guard case .string(let s) = item else { throw InboundField.wrongType("stop[\(i)]", expected: "a string", got: item) }
                return s
            }
        case let other: throw InboundField.wrongType("stop", expected: "a string or an array of strings", got: other)
        }
    }
}
