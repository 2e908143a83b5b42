import SkillGateCore

/// Errors in the OpenAI shape: what the OpenAI surface sends its clients.
extension GatewayError {
    /// The OpenAI error type name for this error (`invalid_request_error`, ...).
    public var openAIType: String {
        switch kind {
        case .invalidRequest, .requestTooLarge, .notFound: return "invalid_request_error"
        case .authentication: return "authentication_error"
        case .permission: return "permission_error"
        case .rateLimited: return "rate_limit_error"
        case .upstreamTimeout, .timeout: return "timeout_error"
        case .cancelled: return "cancelled"
        case .upstreamError, .upstreamUnavailable, .upstreamOverloaded, .upstreamProtocol: return "upstream_error"
        case .internalError: return "server_error"
        }
    }

    /// `{"error":{"message":...,"type":...,"param":...,"code":...}}` as the OpenAI API sends it.
    public func openAIBody() -> JSONValue {
        var error: JSONObject = ["message": .string(clientMessage), "type": .string(openAIType)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(clientCode))
        if let provider { error.append("provider", .string(provider)) }
        if let upstreamStatus { error.append("upstream_status", .int(upstreamStatus)) }
        return .object(["error": .object(error)])
    }
}
