import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

extension GeminiFormat {
    /// Maps a non-2xx Gemini response to a `GatewayError` naming the provider.
    ///
    /// Gemini errors are `{"error":{"code","message","status","details"}}` (sometimes wrapped in a
    /// one-element array). The mapping goes by the gRPC `status` first, the HTTP status second:
    /// - `API_KEY_INVALID` / `UNAUTHENTICATED` / `PERMISSION_DENIED` → provider fault, 502, `refusal` `.key`, telling
    ///   the operator to check the key with `skillgate keys set <key name>` (the client's own token was fine);
    /// - `INVALID_ARGUMENT` / `FAILED_PRECONDITION` → caller fault, 400;
    /// - `NOT_FOUND` → 404, `refusal` `.model`, naming the model and the catalog to fix;
    /// - `RESOURCE_EXHAUSTED` → 429 with `retryAfter` from `RetryInfo.retryDelay` ("27s") or `Retry-After`;
    /// - `UNAVAILABLE` → 503, `DEADLINE_EXCEEDED` → 504, `INTERNAL`, `CANCELLED` and other 5xx → 502.
    /// HTML pages, empty and non-JSON bodies get a message saying so. `DebugInfo` details are never
    /// copied (they can echo the key), and the key is scrubbed from any text that is copied.
    /// `keyName` is the key's name in the key store, for the advice of a refused key (never the secret).
    public static func error(status: Int, headers: HTTPHeaders, body: [UInt8], provider: String, apiKey: String?,
                             keyName: String? = nil) -> GatewayError {
        var envelope = try? JSONValue.parse(body)
        if let first = envelope?.arrayValue?.first { envelope = first }
        if let error = envelope?["error"], error.objectValue != nil {
            return self.error(from: error, httpStatus: status, retryAfterHeader: headers["retry-after"],
                              provider: provider, apiKey: apiKey, keyName: keyName)
        }
        return nonJSONError(status: status, headers: headers, body: body, provider: provider, apiKey: apiKey)
    }

    /// Maps the `error` object of a Gemini error body (also one that arrives inside a stream).
    static func error(from error: JSONValue, httpStatus: Int?, retryAfterHeader: String?,
                      provider: String, apiKey: String?, keyName: String? = nil) -> GatewayError {
        let code = error["code"]?.intValue ?? httpStatus ?? 0
        let grpc = error["status"]?.stringValue
        let upstreamMessage = scrub(error["message"]?.stringValue ?? "no message", apiKey: apiKey)
        let details = error["details"]?.arrayValue ?? []
        let reason = details.lazy.compactMap { $0["reason"]?.stringValue }.first
        let upstreamCode = reason ?? grpc

        func make(_ domain: GatewayError.FaultDomain, _ kind: GatewayError.Kind, _ status: Int, _ message: String,
                  retryAfter: Double? = nil, refusal: GatewayError.ProviderRefusal? = nil) -> GatewayError {
            GatewayError(domain: domain, kind: kind, status: status, message: message, provider: provider,
                         upstreamStatus: code == 0 ? nil : code, retryAfter: retryAfter, upstreamCode: upstreamCode, refusal: refusal)
        }

        // The HTTP status counts beside the body's code: a compatible upstream answering 401, 403 or 429 with another
        // code in its body still refused the gateway's key, or asked it to slow down.
        let http = httpStatus ?? 0
        if reason == "API_KEY_INVALID" || grpc == "UNAUTHENTICATED" || code == 401 || http == 401 {
            return make(.provider, .upstreamError, 502,
                        "Gemini refused the API key of provider '\(provider)' (\(upstreamMessage)). "
                            + "The operator should check or replace the key with \(KeyAdvice.setKey(keyName, provider: provider)).", refusal: .key)
        }
        if grpc == "PERMISSION_DENIED" || code == 403 || http == 403 {
            return make(.provider, .upstreamError, 502,
                        "Gemini denied access for provider '\(provider)' (\(upstreamMessage)). The operator should check that "
                            + "the key's project may use this model and API, or replace it with \(KeyAdvice.setKey(keyName, provider: provider)).", refusal: .key)
        }
        if grpc == "RESOURCE_EXHAUSTED" || code == 429 || http == 429 {
            // Bounded before it is shown: `1e300s` or `inf` must not reach a conversion to an integer (decision 0096).
            let delay = (retryDelay(details) ?? RetryAfterHeader.seconds(retryAfterHeader))
                .flatMap { $0.isFinite && $0 >= 0 ? min($0, GatewayError.maxUpstreamRetryAfter) : nil }
            let wait = delay.map { " Retry after \(formatSeconds($0)) s" } ?? " Retry later"
            return make(.provider, .rateLimited, 429,
                        "Gemini rate limit or quota exceeded for provider '\(provider)': \(upstreamMessage).\(wait), or raise the quota.",
                        retryAfter: delay)
        }
        // A 408 (the provider's or a proxy's) asks to try again, whatever the body's code says, as in the other adapters.
        if http == 408 || code == 408 {
            return make(.provider, .upstreamTimeout, 504,
                        "Gemini (provider '\(provider)') timed out (HTTP 408): \(upstreamMessage) Retry, or shorten the request.")
        }
        if grpc == "NOT_FOUND" || code == 404 {
            return make(.provider, .notFound, 404,
                        "Gemini (provider '\(provider)') did not find the model or resource: \(upstreamMessage) "
                            + "The operator should fix the model id in the provider catalog or the route.", refusal: .model)
        }
        if grpc == "INVALID_ARGUMENT" || grpc == "FAILED_PRECONDITION" || grpc == "OUT_OF_RANGE" || code == 400 {
            return make(.caller, .invalidRequest, 400,
                        "Gemini (provider '\(provider)') rejected the request: \(upstreamMessage) Fix the request and send it again.")
        }
        if code == 413 {
            return make(.caller, .requestTooLarge, 413,
                        "Gemini (provider '\(provider)') says the request is too large: \(upstreamMessage) Shorten the conversation or attachments.")
        }
        if grpc == "UNAVAILABLE" || code == 503 {
            return make(.provider, .upstreamUnavailable, 503,
                        "Gemini (provider '\(provider)') is unavailable or overloaded: \(upstreamMessage) Retry shortly or use another model.")
        }
        if grpc == "DEADLINE_EXCEEDED" || code == 504 {
            return make(.provider, .upstreamTimeout, 504,
                        "Gemini (provider '\(provider)') timed out: \(upstreamMessage) Retry, or shorten the request.")
        }
        if grpc == "CANCELLED" || code == 499 {
            return make(.provider, .upstreamError, 502,
                        "Gemini (provider '\(provider)') cancelled the response: \(upstreamMessage) Retry the request.")
        }
        return make(.provider, .upstreamError, 502,
                    "Gemini (provider '\(provider)') failed with \(grpc ?? "HTTP \(code)"): \(upstreamMessage) Retry the request; if it keeps failing, try another model.")
    }

    private static func nonJSONError(status: Int, headers: HTTPHeaders, body: [UInt8], provider: String, apiKey: String?) -> GatewayError {
        let text = String(decoding: body.prefix(512), as: UTF8.self).trimmingWhitespace()
        let what: String
        if text.isEmpty {
            what = "an empty body"
        } else if text.hasPrefix("<") || (headers["content-type"]?.contains("html") ?? false) {
            what = "an HTML page instead of a JSON error (often a proxy, a captive portal or a wrong base URL)"
        } else {
            what = "a body that is not JSON: \(scrub(String(text.prefix(200)), apiKey: apiKey))"
        }
        // A 404 page is the catalog's model id (or the base URL) unknown there: handed over to the next deployment at once,
        // as a `NOT_FOUND` error object is, and as the other adapters do (decision 0154).
        if status == 404 {
            return GatewayError(domain: .provider, kind: .notFound, status: 404,
                                message: "Gemini (provider '\(provider)') answered HTTP 404 with \(what). "
                                    + "The operator should fix the model id in the provider catalog or the provider's base URL.",
                                provider: provider, upstreamStatus: status, refusal: .model)
        }
        let kind: GatewayError.Kind = status == 429 ? .rateLimited : status == 503 ? .upstreamUnavailable
            : status == 504 || status == 408 ? .upstreamTimeout : .upstreamError
        let clientStatus = kind == .rateLimited ? 429 : kind == .upstreamUnavailable ? 503 : kind == .upstreamTimeout ? 504 : 502
        return GatewayError(domain: .provider, kind: kind, status: clientStatus,
                            message: "Gemini (provider '\(provider)') answered HTTP \(status) with \(what). "
                                + "Check the provider's base URL and network path, then retry.",
                            provider: provider, upstreamStatus: status,
                            retryAfter: RetryAfterHeader.seconds(headers["retry-after"]))
    }

    /// `RetryInfo.retryDelay` ("27s", "34.4s") in seconds.
    static func retryDelay(_ details: [JSONValue]) -> Double? {
        for detail in details {
            guard detail["@type"]?.stringValue?.hasSuffix("google.rpc.RetryInfo") == true,
                  let text = detail["retryDelay"]?.stringValue, text.hasSuffix("s") else { continue }
            return Double(text.dropLast())
        }
        return nil
    }

    private static func formatSeconds(_ value: Double) -> String {
        value.magnitude < 1e15 && value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// `text` with every occurrence of the key replaced, so an echoed key never reaches a client or a log.
    static func scrub(_ text: String, apiKey: String?) -> String {
        guard let apiKey, apiKey.count >= 4, text.contains(apiKey) else { return text }
        return text.replacing(apiKey, with: "[redacted]")
    }
}
