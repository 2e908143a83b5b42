import SkillGateCore
import SkillGateHTTP

/// Errors in the Responses shape: the same `{"error":{"message","type","param","code"}}` body as
/// OpenAI's other endpoints; a stream that fails after it started ends with an `error` event and
/// `response.failed`.
extension GatewayError {
    /// The `code` of a Responses error: `previous_response_not_found` for an unknown, expired or
    /// other token's `previous_response_id` (as OpenAI names it), else `clientCode` (a failed answer's reason, or the
    /// gateway's error kind).
    public var responsesErrorCode: String {
        kind == .notFound && param == "previous_response_id" ? "previous_response_not_found" : clientCode
    }

    /// `{"error":{"message":...,"type":...,"param":...,"code":...}}`.
    public func responsesBody() -> JSONValue {
        var error: JSONObject = ["message": .string(clientMessage), "type": .string(openAIType)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(responsesErrorCode))
        if let provider { error.append("provider", .string(provider)) }
        if let upstreamStatus { error.append("upstream_status", .int(upstreamStatus)) }
        return .object(["error": .object(error)])
    }
}
