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
        var e: [UInt8] = []
        e.reserveCapacity(1024)
        e += #""instructions":"#
        Self.write(echo.instructions, &e)
        e += #","max_output_tokens":"#
        if let m = echo.maxOutputTokens { e += String(m).utf8 } else { e += "null" }
        e += echo.parallelToolCalls ? #","parallel_tool_calls":true,"previous_response_id":"#.utf8 : #","parallel_tool_calls":false,"previous_response_id":"#.utf8
        Self.write(echo.previousResponseId, &e)
        e += #","reasoning":{"effort":"#
        Self.write(echo.reasoningEffort, &e)
        e += echo.store ? #","summary":null},"store":true,"temperature":"#.utf8 : #","summary":null},"store":false,"temperature":"#.utf8
        (echo.temperature.map(JSONValue.double) ?? .null).write(to: &e)
        e += #","text":{"format":"#
        echo.textFormat.write(to: &e)
        e += #"},"tool_choice":"#
        echo.toolChoice.write(to: &e)
        e += #","tools":"#
        if let raw = echo.toolsBytes { e += raw } else { echo.tools.write(to: &e) }
        e += #","top_p":"#
        (echo.topP.map(JSONValue.double) ?? .null).write(to: &e)
        e += #","truncation":"disabled","user":"#
        Self.write(echo.user, &e)
        e += #","metadata":"#
        echo.metadata.write(to: &e)
        echoBytes = e
    }

    /// A JSON string, or `null`.
    private static func write(_ s: String?, _ out: inout [UInt8]) {
        if let s { JSONValue.writeString(s, to: &out) } else { out += "null" }
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

    /// The object's JSON with `status`, its output items (each as its JSON) and usage (nil while in progress), and an error
    /// (`response.failed`).
    public func bytes(status: Status, output: [[UInt8]], usage: Usage?, incompleteReason: String? = nil, error: GatewayError? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(echoBytes.count + 320 + output.count * 256)
        write(status: status, output: output, usage: usage, incompleteReason: incompleteReason, error: error, to: &out)
        return out
    }

    /// Appends the object's JSON to `out` (written field by field; the output items, each given as its JSON, and the
    /// echo are appended as bytes).
    public func write(status: Status, output: [[UInt8]], usage: Usage?, incompleteReason: String? = nil, error: GatewayError? = nil,
                      to out: inout [UInt8]) {
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        out += #","object":"response","created_at":"#
        out += String(createdAt).utf8
        out += #","status":""#
        out += status.rawValue.utf8
        out += #"","background":false,"error":"#
        if let error {
            out += #"{"code":"#
            JSONValue.writeString(error.responsesErrorCode, to: &out)
            out += #","message":"#
            JSONValue.writeString(error.clientMessage, to: &out)
            out += "}"
        } else {
            out += "null"
        }
        out += #","incomplete_details":"#
        if let incompleteReason {
            out += #"{"reason":"#
            JSONValue.writeString(incompleteReason, to: &out)
            out += "}"
        } else {
            out += "null"
        }
        out += #","model":"#
        JSONValue.writeString(model, to: &out)
        out += #","output":["#
        for (i, item) in output.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += item
        }
        out += #"],"usage":"#
        if let usage { Self.writeUsage(usage, to: &out) } else { out += "null" }
        out.append(UInt8(ascii: ","))
        out += echoBytes
        out.append(UInt8(ascii: "}"))
    }

    /// `usage` with `input_tokens_details.cached_tokens` and `output_tokens_details.reasoning_tokens`.
    static func writeUsage(_ u: Usage, to out: inout [UInt8]) {
        out += #"{"input_tokens":"#
        out += String(u.inputTokens).utf8
        out += #","input_tokens_details":{"cached_tokens":"#
        out += String(u.cachedInputTokens).utf8
        out += #"},"output_tokens":"#
        out += String(u.outputTokens).utf8
        out += #","output_tokens_details":{"reasoning_tokens":"#
        out += String(u.reasoningTokens).utf8
        out += #"},"total_tokens":"#
        out += String(u.totalTokens).utf8
        out.append(UInt8(ascii: "}"))
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
