import SkillGateCore
import SkillGateHTTP

/// How a provider authenticates requests.
public enum AuthStyle: String, Sendable, Hashable, CaseIterable {
    /// `Authorization: Bearer <key>`
    case bearer
    /// `x-api-key: <key>` (Anthropic)
    case xApiKey = "x-api-key"
    /// `x-goog-api-key: <key>` (Gemini; never a `?key=` URL parameter, so keys stay out of logged URLs)
    case xGoogApiKey = "x-goog-api-key"
    /// No authentication (local Ollama, vLLM, the demo model).
    case none
}

/// One concrete way to reach a model: provider endpoint, model id and credentials.
/// Built from the provider catalog and configuration; adapters turn requests into HTTP for it.
public struct Deployment: Sendable, Hashable, CustomStringConvertible {
    /// The provider's catalog id (`openai`, `anthropic`, ...).
    public var providerId: String
    /// The provider's model id (`gpt-4.1-mini`).
    public var model: String
    /// The API base URL without a trailing slash (`https://api.openai.com/v1`).
    public var baseURL: String
    public var auth: AuthStyle
    /// The provider secret. Never logged: `description` masks it.
    public var apiKey: String?
    /// The name `apiKey` has in the key store (`OPENAI_API_KEY`, or the pool member `OPENAI_API_KEY_2`), so an error
    /// can say which key to replace with `skillgate keys set <name>`. A name, never the secret; `nil` when unknown.
    public var keyName: String?
    /// Extra headers every request carries (`anthropic-version`).
    public var extraHeaders: HTTPHeaders
    /// Timeouts for calls to this deployment.
    public var timeouts: HTTPTimeouts
    /// The HTTP version of its requests (the provider's `http_version`).
    public var httpVersion: HTTPVersion = .negotiated
    /// The certificate authorities its TLS connections trust instead of the system's (`providers.<id>.ca_file` in the
    /// config), for a self-hosted upstream behind a private CA; `nil` for the system store.
    public var caFile: String?
    /// Whether the provider counts input tokens at its wire format's count endpoint (the provider's `count_tokens`, or
    /// the config's `providers.<id>.count_tokens`); off unless set, so no endpoint is asked that the provider lacks.
    public var countsInputTokens = false

    public init(providerId: String, model: String, baseURL: String, auth: AuthStyle, apiKey: String? = nil,
                extraHeaders: HTTPHeaders = [:], timeouts: HTTPTimeouts = HTTPTimeouts()) {
        self.providerId = providerId
        self.model = model
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.auth = auth
        self.apiKey = apiKey
        self.extraHeaders = extraHeaders
        self.timeouts = timeouts
    }

    public var description: String { "\(providerId)/\(model) at \(baseURL)" }

    /// The headers for a JSON POST: content type, auth and the provider's extra headers.
    public func requestHeaders(streaming: Bool) -> HTTPHeaders {
        var h = extraHeaders
        h.set("content-type", "application/json")
        h.set("accept", streaming ? "text/event-stream" : "application/json")
        if let apiKey, !apiKey.isEmpty {
            switch auth {
            case .bearer: h.set("authorization", "Bearer \(apiKey)")
            case .xApiKey: h.set("x-api-key", apiKey)
            case .xGoogApiKey: h.set("x-goog-api-key", apiKey)
            case .none: break
            }
        }
        return h
    }
}
