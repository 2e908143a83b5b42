import SkillGateCore

/// `POST /v1/responses` body → `ResponsesInboundRequest`.
///
/// Validation errors are 400s naming the field (`input[2].call_id`) and saying what it must be.
/// `prompt_cache_key` passes through to OpenAI-format providers (decision 0032). Fields the SDKs send that change
/// nothing here (`include`, `truncation`, `service_tier`, `stream_options`, `top_logprobs`) are accepted and ignored; fields SkillGate
/// cannot honour (`background`, `conversation`, `prompt`) are refused rather than ignored.
extension OpenAIResponsesFormat {
    /// Decodes and validates a request body. With `toolCache`, a `tools` array whose exact bytes were decoded before in
    /// `scope` is taken from there instead of being read and checked again, and a new one is kept there (its schemas as
    /// compact text) once the whole request decoded without error (`ToolListCache`, decision 0069); the request and its
    /// echo are the same either way.
    public static func decodeInboundRequest(_ body: [UInt8], toolCache: ToolListCache? = nil, scope: String = "") throws -> ResponsesInboundRequest {
        let parsed: ResponsesRawMember.Parsed
        do { parsed = try ResponsesRawMember.parse(body, toolCache: toolCache, scope: scope) } catch {
            throw GatewayError.invalidRequest("the request body is not valid JSON (\(error)); send a JSON object like {\"model\":...,\"input\":\"...\"}")
        }
        var inbound = try decodeInboundRequest(json: parsed.json, cachedTools: parsed.cachedTools)
        if let cached = parsed.cachedTools, !cached.isEmpty, let kept = parsed.toolsBytes {
            inbound.echo.echoToolsBytesOnly(kept)
        } else if case .array(let tools) = inbound.echo.tools, !tools.isEmpty {
            inbound.echo.toolsBytes = parsed.toolsBytes
        }
        if let toolCache, let bytes = parsed.uncachedToolBytes {
            toolCache.rememberWithSchemasAsText(&inbound.request.tools, decodedFrom: bytes, scope: scope)
        }
        return inbound
    }

    /// Decodes an already parsed request body.
    public static func decodeInboundRequest(json: JSONValue) throws -> ResponsesInboundRequest {
        try decodeInboundRequest(json: json, cachedTools: nil)
    }

    /// Decodes a parsed body; `cachedTools`, when present, are its tools (the tree then has no `tools`).
    private static func decodeInboundRequest(json: JSONValue, cachedTools: [ToolDefinition]?) throws -> ResponsesInboundRequest {
        guard json.objectValue != nil else {
            throw GatewayError.invalidRequest("the request body must be a JSON object, but it is \(json.typeDescription)")
        }
        try refuseUnsupported(json)
        let model = try InboundField.requiredModel(json["model"])
        var echo = ResponsesEcho()
        echo.instructions = try InboundField.optionalString(json, "instructions", at: "instructions")
        var messages: [Message] = []
        if let instructions = echo.instructions { messages.append(Message(role: .system, text: instructions)) }
        let previous = try InboundField.optionalString(json, "previous_response_id", at: "previous_response_id")
        var inputItems: [JSONObject] = []
        switch json["input"] {
        case .string(let text)?:
            messages.append(Message(role: .user, text: text))
            inputItems = [["type": "message", "role": "user", "content": .string(text)]]
        case .array(let items)?:
            messages += try ResponsesInputItems.decode(items)
            inputItems = items.compactMap(\.objectValue)  // all of them: `decode` refuses an item that is not an object
        case nil, .null?:
            guard previous != nil else {
                throw InboundField.wrongType("input", expected: "a string or an array of input items", got: json["input"])
            }
        case let other:
            throw InboundField.wrongType("input", expected: "a string or an array of input items", got: other)
        }
        guard messages.count > (echo.instructions == nil ? 0 : 1) || previous != nil else {
            throw GatewayError.invalidRequest("`input` is empty; send a string or at least one input item", param: "input")
        }
        let tools = try cachedTools ?? ResponsesTools.decodeTools(json["tools"])
        var request = ChatRequest(model: model, messages: messages, tools: tools,
                                  toolChoice: try ResponsesTools.decodeToolChoice(json["tool_choice"], tools: tools))
        request.parallelToolCalls = try InboundField.optionalBool(json, "parallel_tool_calls", at: "parallel_tool_calls")
        request.maxTokens = try InboundField.optionalPositiveInt(json, "max_output_tokens", at: "max_output_tokens")
        request.temperature = try InboundField.optionalDouble(json, "temperature", at: "temperature")
        request.topP = try InboundField.optionalDouble(json, "top_p", at: "top_p")
        request.user = try InboundField.optionalString(json, "safety_identifier", at: "safety_identifier")
            ?? InboundField.optionalString(json, "user", at: "user")
        request.promptCacheKey = try InboundField.optionalString(json, "prompt_cache_key", at: "prompt_cache_key")
        let format = try ResponsesTools.decodeTextFormat(json["text"])
        request.responseFormat = format?.chatResponseFormat
        let effort = try decodeReasoningEffort(json["reasoning"])
        if let effort { request.thinking = ThinkingConfig(enabled: effort != "none" && effort != "minimal") }

        let store = try InboundField.optionalBool(json, "store", at: "store") ?? true
        echo.maxOutputTokens = request.maxTokens
        echo.temperature = request.temperature
        echo.topP = request.topP
        if cachedTools == nil, case .array? = json["tools"] { echo.tools = json["tools"]! }
        if let choice = json["tool_choice"], !choice.isNull { echo.toolChoice = choice }
        echo.parallelToolCalls = request.parallelToolCalls ?? true
        if let format { echo.textFormat = format.wire }
        echo.reasoningEffort = effort
        echo.store = store
        echo.previousResponseId = previous
        switch json["metadata"] {
        case nil, .null?: break
        case let m? where m.objectValue != nil: echo.metadata = m
        case let other: throw InboundField.wrongType("metadata", expected: "an object of string values", got: other)
        }
        echo.user = try InboundField.optionalString(json, "user", at: "user")
        var inbound = ResponsesInboundRequest(request: request, hasInstructions: echo.instructions != nil,
                                              stream: try InboundField.optionalBool(json, "stream", at: "stream") ?? false,
                                              store: store, previousResponseId: previous, echo: echo)
        if store { inbound.inputItems = inputItems }
        return inbound
    }

    /// `reasoning.effort`, checked against the efforts the API defines.
    private static func decodeReasoningEffort(_ value: JSONValue?) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case let r? where r.objectValue != nil:
            guard let effort = try InboundField.optionalString(r, "effort", at: "reasoning.effort") else { return nil }
            guard ["none", "minimal", "low", "medium", "high", "xhigh"].contains(effort) else {
                throw GatewayError.invalidRequest("`reasoning.effort` is \"\(effort)\"; use one of none, minimal, low, medium, high, xhigh",
                                                  param: "reasoning.effort")
            }
            return effort
        case let other: throw InboundField.wrongType("reasoning", expected: "an object like {\"effort\":\"low\"}", got: other)
        }
    }

    /// Fields whose meaning SkillGate cannot provide: a 400 that says what to do instead.
    private static func refuseUnsupported(_ json: JSONValue) throws {
        if json["background"]?.boolValue == true {
            throw GatewayError.invalidRequest("`background: true` is not supported by SkillGate; send the request without it (stream it for long answers)",
                                              param: "background")
        }
        if let c = json["conversation"], !c.isNull {
            throw GatewayError.invalidRequest("`conversation` objects are not supported by SkillGate; chain responses with `previous_response_id` or send the items in `input`",
                                              param: "conversation")
        }
        if let p = json["prompt"], !p.isNull {
            throw GatewayError.invalidRequest("stored prompt templates (`prompt`) are not supported by SkillGate; send the text as `instructions` and `input`",
                                              param: "prompt")
        }
    }
}
