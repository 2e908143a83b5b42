import SkillGateCore

extension AnthropicMessagesFormat {
    /// Maps a non-2xx answer (`{"type":"error","error":{"type":...,"message":...},"request_id":...}`)
    /// to a `GatewayError` naming `provider`. HTML, empty and other non-JSON bodies are described
    /// rather than parsed. The upstream's text is quoted as it came: `HTTPLLMClient` takes the call's key out of
    /// every error it throws (`GatewayError.redacting`), for an Anthropic-compatible upstream that echoes it.
    /// `keyName` is the key's name in the key store, for the advice of a refused key.
    static func error(status: Int, retryAfterHeader: String?, body: [UInt8], provider: String, keyName: String? = nil) -> GatewayError {
        let parsed = try? JSONValue.parse(body)
        guard let parsed, let errorObject = parsed["error"], errorObject.objectValue != nil else {
            var e = byStatus(status, type: nil, detail: "and \(AnthropicBodyPreview.describe(body)) instead of an Anthropic error object", provider: provider, keyName: keyName)
            e.retryAfter = RetryAfterHeader.seconds(retryAfterHeader)
            return e
        }
        let type = errorObject["type"]?.stringValue
        var detail = errorObject["message"]?.stringValue ?? "(no message)"
        if let id = parsed["request_id"]?.stringValue { detail += " (request id \(id))" }
        var e = byStatus(status, type: type, detail: detail, provider: provider, keyName: keyName)
        e.retryAfter = RetryAfterHeader.seconds(retryAfterHeader)
        return e
    }

    /// Maps an in-stream `event: error` payload (`{"type":"error","error":{...}}`) that arrived after
    /// HTTP 200. The status is the one the error type implies (overloaded_error → 529, ...).
    static func errorFromEvent(_ payload: JSONValue, provider: String) -> GatewayError {
        errorFromEvent(error: payload["error"], provider: provider)
    }

    /// Maps the `error` member of an in-stream error event, as `errorFromEvent(_:provider:)` does.
    static func errorFromEvent(error: JSONValue?, provider: String) -> GatewayError {
        let type = error?["type"]?.stringValue
        let message = error?["message"]?.stringValue ?? "(no message)"
        return byStatus(impliedStatus(type), type: type,
                        detail: "\(message) (reported inside the stream after HTTP 200)", provider: provider)
    }

    /// The HTTP status Anthropic uses for an error type.
    static func impliedStatus(_ type: String?) -> Int {
        switch type {
        case "invalid_request_error"?: return 400
        case "authentication_error"?: return 401
        case "billing_error"?: return 402
        case "permission_error"?: return 403
        case "not_found_error"?: return 404
        case "request_too_large"?: return 413
        case "rate_limit_error"?: return 429
        case "timeout_error"?: return 504
        case "overloaded_error"?: return 529
        default: return 500
        }
    }

    /// The `GatewayError` for an upstream status (and error type, when known).
    static func byStatus(_ status: Int, type: String?, detail: String, provider: String, keyName: String? = nil) -> GatewayError {
        let what = type.map { "\($0) (HTTP \(status))" } ?? "HTTP \(status)"
        func make(_ domain: GatewayError.FaultDomain, _ kind: GatewayError.Kind, _ clientStatus: Int, _ advice: String,
                  refusal: GatewayError.ProviderRefusal? = nil) -> GatewayError {
            GatewayError(domain: domain, kind: kind, status: clientStatus,
                         message: "\(provider) answered \(what): \(detail). \(advice)",
                         provider: provider, upstreamStatus: status, upstreamCode: type, refusal: refusal)
        }
        // A status with one meaning wins over the body's type: an Anthropic-compatible upstream answering 401 with a
        // body of another shape (an OpenAI-style `invalid_request_error`) still rejected the gateway's key, not the
        // client's request.
        let effectiveType = typeForStatus(status) ?? type
        switch effectiveType {
        case "invalid_request_error":
            return make(.caller, .invalidRequest, 400, "Fix the request as the message says; retrying it unchanged will fail again.")
        case "authentication_error":
            return make(.provider, .upstreamError, 502,
                        "The gateway's key for provider '\(provider)' was rejected: the operator should check or replace it with \(KeyAdvice.setKey(keyName, provider: provider)).",
                        refusal: .key)
        case "billing_error":
            return make(.provider, .upstreamError, 502, "The operator should check the billing of the '\(provider)' account.", refusal: .key)
        case "permission_error":
            return make(.provider, .upstreamError, 502,
                        "The key for provider '\(provider)' may not use this model or feature: the operator should check the key's permissions or the route, or replace the key with \(KeyAdvice.setKey(keyName, provider: provider)).",
                        refusal: .key)
        case "not_found_error":
            return make(.provider, .notFound, 404,
                        "The operator should fix the model id in the provider catalog or the route (or the provider's base URL).", refusal: .model)
        case "request_too_large":
            return make(.caller, .requestTooLarge, 413, "Send a shorter conversation or smaller attachments.")
        case "rate_limit_error":
            return make(.provider, .rateLimited, 429, "Retry after the delay the provider asked for, or route to another deployment.")
        case "timeout_error":
            return make(.provider, .upstreamTimeout, 504, "Retry, or shorten the request.")
        case "overloaded_error":
            return make(.provider, .upstreamOverloaded, 503, "The provider is temporarily overloaded; retry shortly or use a fallback deployment.")
        default:
            if (400..<500).contains(status) {
                return make(.caller, .invalidRequest, 400, "Check the request; retrying it unchanged will fail again.")
            }
            return make(.provider, .upstreamError, 502, "The provider failed; retry, or use a fallback deployment.")
        }
    }

    private static func typeForStatus(_ status: Int) -> String? {
        switch status {
        case 400: return "invalid_request_error"
        case 401: return "authentication_error"
        case 402: return "billing_error"
        case 403: return "permission_error"
        case 404: return "not_found_error"
        case 408: return "timeout_error"  // a proxy's, or the provider's: try again or fall back, as the other adapters do
        case 413: return "request_too_large"
        case 429: return "rate_limit_error"
        case 504: return "timeout_error"
        case 529: return "overloaded_error"
        default: return nil
        }
    }
}

private extension String {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
