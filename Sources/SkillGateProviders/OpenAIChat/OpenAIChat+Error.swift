import SkillGateCore
import SkillGateHTTP

/// Wire error → GatewayError for one provider.
///
/// Reads `{"error":{"message","type","param","code"}}` and the variants compatible servers send
/// (`{"error":"text"}`, `{"message":...}`, `{"detail":...}`, a one-element array), and says what
/// arrived when the body is empty, HTML or not JSON. Provider messages are scrubbed of the API
/// key (OpenAI echoes a masked key in 401 messages). A refused key or account (401, 402, 403) and a
/// model id the provider does not know (404, `model_not_found`) carry `GatewayError.refusal`: the
/// gateway sent only what its catalog and key store hold, so the operator is at fault, not the client.
struct OpenAIChatErrorMapper {
    var provider: String
    var apiKey: String?
    /// The key's name in the key store (`OPENAI_API_KEY_2`), for the advice of a refused key.
    var keyName: String? = nil

    /// The fields of a provider error object.
    struct Detail {
        var message: String
        var type: String?
        var param: String?
        var code: String?
    }

    /// Maps a non-2xx response.
    func error(status: Int, headers: HTTPHeaders, body: [UInt8]) -> GatewayError {
        guard let detail = detail(in: body) else { return unreadable(status: status, headers: headers, body: body) }
        var e = mapped(detail, status: status)
        if e.kind == .rateLimited || e.kind == .upstreamOverloaded || e.kind == .upstreamUnavailable {
            e.retryAfter = OpenAIChatRetryAfter.seconds(from: headers)
        }
        return e
    }

    /// A non-2xx answer whose body is no error object (an HTML page from nginx or Cloudflare, plain text, nothing):
    /// mapped by its status, as the Anthropic and Gemini adapters do. A 429 or 408 from a proxy still asks the gateway
    /// to slow down or try again, so it stays retryable and reaches the client as 429 (or 504), not as a 502. A 401 or
    /// 403 refuses the credentials whoever sent the page (the provider or an authenticating proxy in front of it): no
    /// retry of the same deployment can pass, so it is a key refusal, as with an error object (decision 0110). A 404 page
    /// ("404 page not found") is the catalog's model id or the base URL unknown there: a model refusal, handed over to
    /// the next deployment at once, as with an error object and as the Anthropic and Gemini adapters do (decision 0154).
    private func unreadable(status: Int, headers: HTTPHeaders, body: [UInt8]) -> GatewayError {
        let retryAfter = OpenAIChatRetryAfter.seconds(from: headers)
        switch status {
        case 429:
            return GatewayError(domain: .provider, kind: .rateLimited, status: 429,
                                message: "\(provider) (or a proxy in front of it) is rate limiting SkillGate (status 429 with \(whatArrived(body, contentType: headers["content-type"]))) — retry later, or raise the provider quota",
                                provider: provider, upstreamStatus: status, retryAfter: retryAfter)
        case 408:
            return GatewayError(domain: .provider, kind: .upstreamTimeout, status: 504,
                                message: "\(provider) (or a proxy in front of it) timed out (status 408 with \(whatArrived(body, contentType: headers["content-type"]))) — retry the request",
                                provider: provider, upstreamStatus: status, retryAfter: retryAfter)
        case 404:
            return GatewayError(domain: .provider, kind: .notFound, status: 404,
                                message: "\(provider) (or a proxy in front of it) does not know this model or endpoint (status 404 with \(whatArrived(body, contentType: headers["content-type"]))) — the operator should fix the model id in the provider catalog or the provider's base URL",
                                provider: provider, upstreamStatus: status, refusal: .model)
        case 401, 403:
            return GatewayError(domain: .provider, kind: .upstreamError, status: 502,
                                message: "\(provider) (or a proxy in front of it) refused SkillGate's credentials (status \(status) with \(whatArrived(body, contentType: headers["content-type"]))) — the gateway operator should check or replace the key with \(KeyAdvice.setKey(keyName, provider: provider)), and the provider's base URL if a proxy answered",
                                provider: provider, upstreamStatus: status, refusal: .key)
        default:
            return GatewayError(domain: .provider, kind: status == 503 || status == 529 ? .upstreamUnavailable : .upstreamError,
                                status: 502, message: describeUnreadable(body, status: status, contentType: headers["content-type"]),
                                provider: provider, upstreamStatus: status, retryAfter: retryAfter)
        }
    }

    /// An `{"error":...}` object that arrived with status 200 (an SSE data event, or the whole body).
    /// `upstreamStatus` is the status the error type implies (`server_error` → 500), so retry
    /// decisions treat it like the same error sent as an HTTP status.
    func inStreamError(_ json: JSONValue, midStream: Bool = true) -> GatewayError {
        let d = detail(of: json) ?? Detail(message: json.serialized())
        let status = d.code.flatMap(Int.init) ?? Self.status(forType: d.type ?? d.code ?? "")
        var e = mapped(d, status: status, label: "error type \(d.type ?? d.code ?? "unknown") after status 200")
        e.message = (midStream ? "the provider reported an error in the middle of its answer: "
                               : "the provider answered with status 200 but sent an error: ") + e.message
        return e
    }

    /// A 2xx body that is not JSON.
    func unreadableSuccessBody(_ body: [UInt8], syntax: JSONSyntaxError) -> GatewayError {
        GatewayError.upstreamProtocol(
            describeUnreadable(body, status: 200, contentType: nil) + " (\(syntax))", provider: provider, upstreamStatus: 200)
    }

    // MARK: - Mapping

    /// Maps by status; `label` says in messages where the status came from.
    private func mapped(_ d: Detail, status: Int, label: String? = nil) -> GatewayError {
        let label = label ?? "status \(status)"
        let said = scrub(d.message)
        let code = d.code ?? d.type
        func make(_ domain: GatewayError.FaultDomain, _ kind: GatewayError.Kind, _ clientStatus: Int, _ message: String,
                  refusal: GatewayError.ProviderRefusal? = nil) -> GatewayError {
            GatewayError(domain: domain, kind: kind, status: clientStatus, message: message, provider: provider,
                         upstreamStatus: status == 200 ? nil : status, param: d.param, upstreamCode: code, refusal: refusal)
        }
        // The gateway sends only model ids from the catalog: a model the provider does not know is the operator's to
        // fix, and another deployment of the plan may still answer (decision 0106).
        if code == "model_not_found" && status != 200 {
            return make(.provider, .notFound, 404,
                        "\(provider) does not know the model id the gateway sent (\(label)): \(said) — the operator should fix the model id in the provider catalog or take the model out of the route",
                        refusal: .model)
        }
        switch status {
        case 401, 403:
            return make(.provider, .upstreamError, 502,
                        "\(provider) rejected SkillGate's API key (\(label)): \(said) — the gateway operator should check or replace the key with \(KeyAdvice.setKey(keyName, provider: provider))",
                        refusal: .key)
        case 402:
            return make(.provider, .upstreamError, 502,
                        "\(provider) refused SkillGate's account (\(label)): \(said) — the gateway operator should check the provider account's billing or credits",
                        refusal: .key)
        case 404:
            return make(.provider, .notFound, 404,
                        "\(provider) does not know this model or endpoint (\(label)): \(said) — the operator should fix the model id in the provider catalog (or the provider's base URL)",
                        refusal: .model)
        case 408:
            return make(.provider, .upstreamTimeout, 504, "\(provider) timed out (\(label)): \(said) — retry the request")
        case 413:
            return make(.caller, .requestTooLarge, 413, "\(provider) says the request is too large (\(label)): \(said) — shorten the conversation or attachments")
        case 429:
            return make(.provider, .rateLimited, 429,
                        "\(provider) is rate limiting SkillGate (\(label)): \(said) — retry later, or raise the provider quota")
        case 400..<500:
            return make(.caller, .invalidRequest, 400, "\(provider) rejected the request (\(label)): \(said) — fix the field it names and send again")
        case 503:
            return make(.provider, .upstreamUnavailable, 503, "\(provider) is unavailable (\(label)): \(said) — retry later or route to another provider")
        case 529:
            return make(.provider, .upstreamOverloaded, 503, "\(provider) is overloaded (\(label)): \(said) — retry later or route to another provider")
        case 504:
            return make(.provider, .upstreamTimeout, 504, "\(provider) timed out (\(label)): \(said) — retry the request")
        default:
            return make(.provider, .upstreamError, 502, "\(provider) failed (\(label)): \(said) — retry, or route to another provider if it persists")
        }
    }

    /// A status for an in-stream error, from its `type` / `code` text.
    private static func status(forType type: String) -> Int {
        let t = type.lowercased()
        if t.contains("rate_limit") || t.contains("quota") { return 429 }
        if t.contains("overloaded") { return 529 }
        if t.contains("invalid_request") { return 400 }
        if t.contains("authentication") || t.contains("invalid_api_key") { return 401 }
        if t.contains("timeout") { return 504 }
        return 500
    }

    // MARK: - Reading the body

    private func detail(in body: [UInt8]) -> Detail? {
        guard let json = try? JSONValue.parse(body) else { return nil }
        return detail(of: json)
    }

    private func detail(of json: JSONValue) -> Detail? {
        if case .array(let items) = json, let first = items.first { return detail(of: first) }
        switch json["error"] {
        case .object?:
            let e = json["error"]!
            return Detail(message: e["message"]?.stringValue ?? e.serialized(), type: e["type"]?.stringValue,
                          param: e["param"]?.stringValue, code: e["code"].flatMap(Self.text))
        case .string(let s)?:
            return Detail(message: s, type: json["type"]?.stringValue)
        default:
            if let m = (json["message"] ?? json["detail"]).flatMap(Self.text) { return Detail(message: m) }
            return json.objectValue == nil ? nil : Detail(message: String(json.serialized().prefix(300)))
        }
    }

    private static func text(_ v: JSONValue) -> String? {
        switch v {
        case .string(let s): return s
        case .number(let n): return n
        case .null: return nil
        default: return v.serialized()
        }
    }

    /// What arrived instead of JSON, for a message (`received an HTML page (status 502) ...`).
    func describeUnreadable(_ body: [UInt8], status: Int, contentType: String?) -> String {
        switch kindOfBody(body, contentType: contentType) {
        case .empty:
            return "\(provider) returned status \(status) with an empty body — retry; if it persists, check the provider's status page"
        case .html:
            return "\(provider): received an HTML page (status \(status)) instead of JSON — a proxy in front of the provider failed; retry, and check the provider's base URL if it persists"
        case .text(let snippet):
            return "\(provider) sent a body that is not JSON (status \(status)): \"\(snippet)\" — check that the base URL points at an OpenAI-compatible endpoint"
        }
    }

    /// What arrived instead of an error object, in a few words (`an HTML page instead of JSON`).
    private func whatArrived(_ body: [UInt8], contentType: String?) -> String {
        switch kindOfBody(body, contentType: contentType) {
        case .empty: return "an empty body"
        case .html: return "an HTML page instead of JSON"
        case .text(let snippet): return "a body that is not JSON: \"\(snippet)\""
        }
    }

    /// A body that is no error object: nothing, an HTML page, or other text (its first 200 characters, scrubbed, on one line).
    private enum UnreadableBody {
        case empty, html, text(String)
    }

    private func kindOfBody(_ body: [UInt8], contentType: String?) -> UnreadableBody {
        let trimmed = String(decoding: body.prefix(2048), as: UTF8.self).drop(while: { $0.isWhitespace })
        if trimmed.isEmpty { return .empty }
        if trimmed.hasPrefix("<") || (contentType ?? "").lowercased().contains("text/html") { return .html }
        return .text(scrub(String(trimmed.prefix(200))).replacing("\n", with: " "))
    }

    /// Removes the API key (and anything that looks like a secret key) from provider text.
    func scrub(_ text: String) -> String {
        var out = text
        if let apiKey, apiKey.count >= 4 { out = out.replacing(apiKey, with: "[redacted]") }
        return OpenAIChatSecretScrubber.maskKeyLikeTokens(out)
    }
}
