import SkillGateCore

/// The `response` object: the whole answer's body, and the snapshot in `response.created`,
/// `response.in_progress`, `response.completed`, `response.incomplete` and `response.failed`.
public struct ResponsesObject: Sendable, Hashable {
    /// `resp_…`.
    public var id: String
    /// Unix seconds.
    public var createdAt: Int
    /// The model name the client sees (the gateway's routed name).
    public var model: String
    public var echo: ResponsesEcho

    public init(id: String, createdAt: Int, model: String, echo: ResponsesEcho) {
        self.id = id
        self.createdAt = createdAt
        self.model = model
        self.echo = echo
    }

    /// `completed`, `incomplete` (token limit, content filter), `in_progress` or `failed`.
    public enum Status: String, Sendable {
        case inProgress = "in_progress", completed, incomplete, failed
    }

    /// The status and `incomplete_details.reason` of an answer that stopped for `reason`.
    static func status(for reason: FinishReason) -> (Status, incompleteReason: String?) {
        switch reason {
        case .length: return (.incomplete, "max_output_tokens")
        case .contentFilter: return (.incomplete, "content_filter")
        default: return (.completed, nil)
        }
    }

    /// The object with `status`, its output items and usage (nil while in progress), and an error
    /// (`response.failed`).
    public func json(status: Status, output: [JSONValue], usage: Usage?, incompleteReason: String? = nil, error: GatewayError? = nil) -> JSONValue {
        var o = JSONObject()
        o.append("id", .string(id))
        o.append("object", "response")
        o.append("created_at", .int(createdAt))
        o.append("status", .string(status.rawValue))
        o.append("background", false)
        o.append("error", error.map { ["code": .string($0.responsesErrorCode), "message": .string($0.clientMessage)] } ?? .null)
        o.append("incomplete_details", incompleteReason.map { ["reason": .string($0)] } ?? .null)
        o.append("instructions", echo.instructions.map(JSONValue.string) ?? .null)
        o.append("max_output_tokens", echo.maxOutputTokens.map { .int($0) } ?? .null)
        o.append("model", .string(model))
        o.append("output", .array(output))
        o.append("parallel_tool_calls", .bool(echo.parallelToolCalls))
        o.append("previous_response_id", echo.previousResponseId.map(JSONValue.string) ?? .null)
        o.append("reasoning", ["effort": echo.reasoningEffort.map(JSONValue.string) ?? .null, "summary": nil])
        o.append("store", .bool(echo.store))
        o.append("temperature", echo.temperature.map(JSONValue.double) ?? .null)
        o.append("text", ["format": echo.textFormat])
        o.append("tool_choice", echo.toolChoice)
        o.append("tools", echo.tools)
        o.append("top_p", echo.topP.map(JSONValue.double) ?? .null)
        o.append("truncation", "disabled")
        o.append("usage", usage.map(Self.wireUsage) ?? .null)
        o.append("user", echo.user.map(JSONValue.string) ?? .null)
        o.append("metadata", echo.metadata)
        return .object(o)
    }

    /// `usage` with `input_tokens_details.cached_tokens` and `output_tokens_details.reasoning_tokens`.
    public static func wireUsage(_ u: Usage) -> JSONValue {
        ["input_tokens": .int(u.inputTokens), "input_tokens_details": ["cached_tokens": .int(u.cachedInputTokens)],
         "output_tokens": .int(u.outputTokens), "output_tokens_details": ["reasoning_tokens": .int(u.reasoningTokens)],
         "total_tokens": .int(u.totalTokens)]
    }
}

extension OpenAIResponsesFormat {
    /// The body of a whole (non-streamed) answer.
    public static func responseBody(_ response: ChatResponse, object: ResponsesObject) -> JSONValue {
        let (status, incomplete) = ResponsesObject.status(for: response.finishReason)
        let output = ResponsesOutputItems.items(response.content, refusal: response.finishReason == .refusal, responseId: object.id)
        return object.json(status: status, output: output, usage: response.usage, incompleteReason: incomplete)
    }
}
