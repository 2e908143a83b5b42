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
    public let echo: ResponsesEcho
    /// The repeated request fields (`"instructions":…,"tools":[…],…,"metadata":{…}`) serialized once: a stream
    /// writes the object three times, and the tools are most of its bytes.
    private let echoBytes: [UInt8]

    public init(id: String, createdAt: Int, model: String, echo: ResponsesEcho) {
        self.id = id
        self.createdAt = createdAt
        self.model = model
        self.echo = echo
        var o = JSONObject()
        o.append("instructions", echo.instructions.map(JSONValue.string) ?? .null)
        o.append("max_output_tokens", echo.maxOutputTokens.map { .int($0) } ?? .null)
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
        o.append("user", echo.user.map(JSONValue.string) ?? .null)
        o.append("metadata", echo.metadata)
        echoBytes = Array(JSONValue.object(o).serializedBytes().dropFirst().dropLast())
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

    /// The object's JSON with `status`, its output items and usage (nil while in progress), and an error
    /// (`response.failed`).
    public func bytes(status: Status, output: [JSONValue], usage: Usage?, incompleteReason: String? = nil, error: GatewayError? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(echoBytes.count + 320 + output.count * 256)
        write(status: status, output: output, usage: usage, incompleteReason: incompleteReason, error: error, to: &out)
        return out
    }

    /// Appends the object's JSON to `out` (written field by field; the echo is appended as bytes).
    public func write(status: Status, output: [JSONValue], usage: Usage?, incompleteReason: String? = nil, error: GatewayError? = nil,
                      to out: inout [UInt8]) {
        out += #"{"id":"#.utf8
        JSONValue.writeString(id, to: &out)
        out += #","object":"response","created_at":"#.utf8
        out += String(createdAt).utf8
        out += #","status":""#.utf8
        out += status.rawValue.utf8
        out += #"","background":false,"error":"#.utf8
        if let error {
            out += #"{"code":"#.utf8
            JSONValue.writeString(error.responsesErrorCode, to: &out)
            out += #","message":"#.utf8
            JSONValue.writeString(error.clientMessage, to: &out)
            out += "}".utf8
        } else {
            out += "null".utf8
        }
        out += #","incomplete_details":"#.utf8
        if let incompleteReason {
            out += #"{"reason":"#.utf8
            JSONValue.writeString(incompleteReason, to: &out)
            out += "}".utf8
        } else {
            out += "null".utf8
        }
        out += #","model":"#.utf8
        JSONValue.writeString(model, to: &out)
        out += #","output":["#.utf8
        for (i, item) in output.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            item.write(to: &out)
        }
        out += #"],"usage":"#.utf8
        if let usage { Self.wireUsage(usage).write(to: &out) } else { out += "null".utf8 }
        out.append(UInt8(ascii: ","))
        out += echoBytes
        out.append(UInt8(ascii: "}"))
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
    public static func responseBody(_ response: ChatResponse, object: ResponsesObject) -> [UInt8] {
        let (status, incomplete) = ResponsesObject.status(for: response.finishReason)
        let output = ResponsesOutputItems.items(response.content, refusal: response.finishReason == .refusal, responseId: object.id)
        return object.bytes(status: status, output: output, usage: response.usage, incompleteReason: incomplete)
    }
}
