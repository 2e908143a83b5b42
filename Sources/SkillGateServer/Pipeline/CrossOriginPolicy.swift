import SkillGateHTTP

/// Cross-origin access for web pages (CORS, the Fetch standard; decision 0095), from the config's `cors`.
///
/// Only the client API takes part: `/v1/...` and `/mcp`. The admin API, the console, health and metrics never name
/// another origin, so a page elsewhere cannot read them even with an admin token. Tokens travel in `Authorization` or
/// `x-api-key`, never in cookies, so `Access-Control-Allow-Credentials` is never sent and `"*"` is as safe as the tokens.
struct CrossOriginPolicy: Sendable {
    let config: GatewayConfig.CrossOrigin

    /// The answer fields a page may read besides the CORS-safelisted ones.
    static let exposedFields = "x-request-id, x-skillgate-provider, x-skillgate-model, x-skillgate-route, x-skillgate-skills, retry-after"
    /// The methods of the client API.
    static let allowedMethods = "GET, POST, DELETE, OPTIONS"
    /// The request fields allowed when a preflight's list cannot be echoed (it holds something that is not a field name).
    static let defaultAllowedFields = "authorization, content-type, x-api-key, anthropic-version, anthropic-beta, x-skillgate-scenario, x-skillgate-tier, mcp-protocol-version, mcp-session-id"

    /// Whether requests to `path` take part.
    static func covers(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || path == "/mcp"
    }

    /// Whether `request` is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`, to the client API.
    static func isPreflight(_ request: HTTPServerRequest) -> Bool {
        request.method == "OPTIONS" && covers(request.path) && request.headers["access-control-request-method"] != nil
    }

    /// The fields for every answer to a request with this head (`HTTPServer.Configuration.replyFields`): the allowed
    /// origin, `Vary: Origin` when the answer depends on it, and the exposed fields; nil for a request from no page, from a
    /// page not allowed, or to a path that does not take part.
    func replyFields(_ head: HTTPRequestHead) -> HTTPHeaders? {
        guard let origin = head.headers["origin"], Self.covers(head.path), allows(origin) else { return nil }
        if config.anyOrigin {
            return ["access-control-allow-origin": "*", "access-control-expose-headers": Self.exposedFields]
        }
        return ["access-control-allow-origin": origin, "vary": "Origin", "access-control-expose-headers": Self.exposedFields]
    }

    /// Whether a page of `origin` may call.
    func allows(_ origin: String) -> Bool {
        if config.anyOrigin { return true }
        if config.origins.contains(origin) { return true }
        // Browsers send the scheme and host in lower case; a hand-made request may not.
        return origin.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } && config.origins.contains(origin.lowercased())
    }

    /// The fields of a preflight's answer beyond `replyFields`: the methods, the request fields the page asked to send
    /// (echoed when they are field names), and how long the answer may be kept.
    func preflightFields(requestedFields: String?) -> HTTPHeaders {
        var fields: HTTPHeaders = ["access-control-allow-methods": Self.allowedMethods]
        let asked = requestedFields.flatMap { Self.isFieldNameList($0) ? $0 : nil }
        fields.set("access-control-allow-headers", asked ?? Self.defaultAllowedFields)
        fields.set("access-control-max-age", String(config.maxAgeSeconds))
        fields.add("vary", "Access-Control-Request-Headers")
        return fields
    }

    /// A comma-separated list of field names (tokens, RFC 9110 §5.6.2), at most 2 KiB.
    static func isFieldNameList(_ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.count <= 2048 else { return false }
        return value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"): true
            default: false
            }
        }
    }
}
