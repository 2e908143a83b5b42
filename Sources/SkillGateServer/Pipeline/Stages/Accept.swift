import SkillGateCore
import SkillGateHTTP

/// What a path serves. The first stage, accept, maps a request line to one of these.
enum Endpoint: Sendable {
    case health
    case ready
    case models
    /// `GET /v1/limits`: the caller's limits and what is left.
    case limits
    /// `GET /metrics`: Prometheus metrics (unless `metrics.listen` moves them to a listener of their own).
    case metrics
    /// A chat or agent surface: the pipeline's stages run for it.
    case surface(any Surface)
    /// `/admin/api/...`: the admin API (admin tokens only; `Admin/AdminAPI.swift` routes the rest of the path).
    case admin
    /// `/console` and `/console/...`: the web console's static files (no token; the pages call the admin API).
    case console
    /// `POST /mcp`: SkillGate as an MCP server (streamable HTTP) of the scenario's server-side skills.
    case mcp
    /// `GET /v1/responses/{id}` answers a response kept for `previous_response_id` (decision 0125; `HEAD` as `GET`,
    /// decision 0128); `DELETE` forgets it (decision 0101).
    case storedResponse
    /// `GET /v1/responses/{id}/input_items` lists the items the model was given for a stored response (decision 0127).
    case storedResponseInputItems
    /// `GET /v1/models/{id}`: one model name of `/v1/models` (decision 0131).
    case model
    /// `POST /v1/messages/count_tokens`: a Messages request's input tokens, the provider's count or an estimate
    /// (decisions 0132, 0136).
    case countTokens
    /// `POST /v1/responses/input_tokens`: a Responses request's input tokens, the same way (decision 0136).
    case responsesInputTokens

    /// Whether a request to this endpoint must present a token before its body is read (`HeadGate`).
    var needsToken: Bool {
        switch self {
        case .models, .model, .countTokens, .responsesInputTokens, .surface, .limits, .admin, .mcp, .storedResponse, .storedResponseInputItems: true
        case .health, .ready, .metrics, .console: false
        }
    }

    /// The endpoints by path, with the method each accepts. A new surface is one line here.
    static let table: [String: (method: String, endpoint: Endpoint)] = [
        "/v1/chat/completions": ("POST", .surface(OpenAIChatSurface())),
        "/v1/messages": ("POST", .surface(AnthropicMessagesSurface())),
        "/v1/messages/count_tokens": ("POST", .countTokens),
        "/v1/agent": ("POST", .surface(AgentSurface())),
        "/v1/responses": ("POST", .surface(ResponsesSurface())),
        "/v1/responses/input_tokens": ("POST", .responsesInputTokens),
        "/mcp": ("POST", .mcp),
        "/v1/models": ("GET", .models),
        "/v1/limits": ("GET", .limits),
        "/metrics": ("GET", .metrics),
        "/healthz": ("GET", .health),
        "/readyz": ("GET", .ready),
    ]

    /// A model's own path (`/v1/models/{id}`; the id may hold a `/`, as `provider/model` does): GET.
    static let modelPrefix = "/v1/models/"

    /// A stored response's own path (`/v1/responses/{id}`): GET (and HEAD) and DELETE.
    static let responsesItemPrefix = "/v1/responses/"
    /// What follows a stored response's id in the path of its input items (`/v1/responses/{id}/input_items`): GET.
    static let inputItemsSuffix = "/input_items"

    /// `/console/`: the console's files below its root (made once, not on every request).
    static let consoleFilesPrefix = ConsoleAssets.root + "/"

    /// A request line no endpoint accepts: the error, and for a 405 the `allow` header's value (HEAD wherever GET is).
    struct Rejection: Error {
        var error: GatewayError
        var allowed: String?
    }

    /// The endpoint of `method path`, or a 404 naming what is served, or a 405 naming the method.
    static func accept(method: String, path: String) -> Result<Endpoint, Rejection> {
        if path.hasPrefix(AdminAPI.prefix) { return .success(.admin) }
        if path == ConsoleAssets.root || path.hasPrefix(consoleFilesPrefix) {
            guard method == "GET" || method == "HEAD" else {
                var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405, message: "\(path) accepts GET only, not \(method)")
                error.param = "method"
                return .failure(Rejection(error: error, allowed: "GET, HEAD"))
            }
            return .success(.console)
        }
        guard let entry = table[path] else {
            if path.hasPrefix(modelPrefix), path.count > modelPrefix.count { return getOnly(.model, method, path) }
            if path.hasPrefix(responsesItemPrefix) {
                let id = path.dropFirst(responsesItemPrefix.count)
                if !id.isEmpty, !id.contains("/") {
                    if method == "GET" || method == "HEAD" || method == "DELETE" { return .success(.storedResponse) }
                    // A stored response's own path, with a method it does not take: a 405 with what it does (HTTP's rule,
                    // as for every other known path).
                    var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405,
                                             message: "\(path.prefix(120)) accepts GET (the stored response) and DELETE (forget it) only, not \(method)")
                    error.param = "method"
                    return .failure(Rejection(error: error, allowed: "GET, HEAD, DELETE"))
                }
                if id.hasSuffix(inputItemsSuffix), case let responseId = id.dropLast(inputItemsSuffix.count), !responseId.isEmpty,
                   !responseId.contains("/") {
                    return getOnly(.storedResponseInputItems, method, path)
                }
                // The SDKs' `responses.cancel`, and other methods: say what is kept and for what (decisions 0096, 0101, 0125,
                // 0127).
                return .failure(Rejection(error: GatewayError(domain: .caller, kind: .notFound, status: 404,
                                                              message: "\(method) \(path.prefix(120)) is not offered: SkillGate keeps a response (for `responses.retention_hours`) to continue it with `previous_response_id`, answers GET \(responsesItemPrefix){id} with its Response object and GET \(responsesItemPrefix){id}\(inputItemsSuffix) with the items it was given, and forgets it on DELETE \(responsesItemPrefix){id}; it has nothing to cancel (every answer is complete when it is returned)")))
            }
            let served = (table.sorted { $0.key < $1.key }.map { "\($0.value.method) \($0.key)" } + ["GET \(ConsoleAssets.root)", "\(AdminAPI.prefix)..."])
                .joined(separator: ", ")
            return .failure(Rejection(error: GatewayError(domain: .caller, kind: .notFound, status: 404,
                                                          message: "no route \(method) \(path); SkillGate serves \(served)")))
        }
        guard method == entry.method || (entry.method == "GET" && method == "HEAD") else {
            var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405,
                                     message: "\(path) accepts \(entry.method) only, not \(method)")
            error.param = "method"
            return .failure(Rejection(error: error, allowed: entry.method == "GET" ? "GET, HEAD" : entry.method))
        }
        return .success(entry.endpoint)
    }

    /// `endpoint` for GET (and HEAD) on a path with an id in it, or a 405 naming GET.
    private static func getOnly(_ endpoint: Endpoint, _ method: String, _ path: String) -> Result<Endpoint, Rejection> {
        guard method == "GET" || method == "HEAD" else {
            var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405, message: "\(path.prefix(120)) accepts GET only, not \(method)")
            error.param = "method"
            return .failure(Rejection(error: error, allowed: "GET, HEAD"))
        }
        return .success(endpoint)
    }

    /// The surface whose error shape a request to `path` gets (the OpenAI one for paths that are
    /// no surface's). The models' paths answer in the shape their client reads (`ModelListing`): the Anthropic API's for
    /// a request with `anthropic-version`.
    static func errorSurface(for path: String, headers: HTTPHeaders) -> any ErrorShape {
        if case .surface(let s)? = table[path]?.endpoint { return s }
        if case .mcp? = table[path]?.endpoint { return MCPErrorShape() }
        if case .countTokens? = table[path]?.endpoint { return AnthropicMessagesSurface() }
        if case .responsesInputTokens? = table[path]?.endpoint { return ResponsesSurface() }
        if path == "/v1/models" || path.hasPrefix(modelPrefix), ModelListing.wantsAnthropicShape(headers) { return AnthropicMessagesSurface() }
        return OpenAIChatSurface()
    }
}
