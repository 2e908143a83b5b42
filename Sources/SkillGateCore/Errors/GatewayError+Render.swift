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

    /// The message with the provider named, as clients see it.
    public var clientMessage: String {
        guard let provider, !message.contains(provider) else { return message }
        return "\(provider): \(message)"
    }

    /// `{"error":{"message":...,"type":...,"param":...,"code":...}}` as the OpenAI API sends it.
    public func openAIBody() -> JSONValue {
        var error: JSONObject = ["message": .string(clientMessage), "type": .string(openAIType)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(kind.rawValue))
        if let provider { error.append("provider", .string(provider)) }
        if let upstreamStatus { error.append("upstream_status", .int(upstreamStatus)) }
        return .object(["error": .object(error)])
    }

    /// `{"type":"error","error":{"type":...,"message":...}}` as the Anthropic API sends it.
    public func anthropicBody() -> JSONValue {
        ["type": "error", "error": ["type": .string(anthropicType), "message": .string(clientMessage)]]
    }

    /// A body valid in both the OpenAI and the Anthropic error shape
    /// (`{"type":"error","error":{"type","message","param","code"}}`), for errors the HTTP layer
    /// raises before it knows which surface the client speaks (413, malformed HTTP).
    public func surfaceNeutralBody() -> JSONValue {
        var error: JSONObject = ["type": .string(anthropicType), "message": .string(clientMessage)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(kind.rawValue))
        return .object(["type": "error", "error": .object(error)])
    }
}
