import SkillGateCore

/// Errors in the Anthropic shape: what the Anthropic surface sends its clients.
extension GatewayError {
    /// The Anthropic error type name for this error (`invalid_request_error`, `overloaded_error`, ...).
    public var anthropicType: String {
        switch kind {
        case .invalidRequest: return "invalid_request_error"
        case .requestTooLarge: return "request_too_large"
        case .notFound: return "not_found_error"
        case .authentication: return "authentication_error"
        case .permission: return "permission_error"
        case .rateLimited: return "rate_limit_error"
        case .upstreamOverloaded: return "overloaded_error"
        case .upstreamTimeout, .timeout: return "timeout_error"
        case .cancelled, .upstreamError, .upstreamUnavailable, .upstreamProtocol: return "api_error"
        case .internalError: return "api_error"
        }
    }

    /// `{"type":"error","error":{"type":...,"message":...}}` as the Anthropic API sends it.
    public func anthropicBody() -> JSONValue {
        ["type": "error", "error": ["type": .string(anthropicType), "message": .string(clientMessage)]]
    }
}
