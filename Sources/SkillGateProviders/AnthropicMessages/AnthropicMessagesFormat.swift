import SkillGateCore
import SkillGateHTTP

/// The Anthropic Messages API (`POST {baseURL}/messages`), in both directions:
/// outbound (SkillGate calling Anthropic) and inbound (clients speaking Anthropic to SkillGate).
///
/// Decisions (also in the doc comments of the members that implement them):
/// - `max_tokens` is always sent; without one in the request it is `defaultMaxTokens` (4096).
///   With thinking on, `max_tokens` must exceed the thinking budget: when it does not, the budget
///   is added on top, so the visible answer keeps the room the caller asked for.
/// - Canonical `Usage.inputTokens` counts all input: Anthropic's `input_tokens` plus
///   `cache_read_input_tokens` plus `cache_creation_input_tokens`.
/// - A streamed tool call without arguments gets the arguments `"{}"`, as the non-streamed
///   answer (`input: {}`) does.
/// - `overloaded_error` (HTTP 529) reaches clients as 503 (a status every HTTP client knows),
///   kind `.upstreamOverloaded`, with the upstream status 529 kept in `upstreamStatus`.
public struct AnthropicMessagesFormat: WireFormat {
    public typealias StreamTranslator = AnthropicMessagesStreamTranslator

    /// The catalog name of this wire format.
    public static let name = "anthropic-messages"

    /// `max_tokens` sent when the request has no limit (Anthropic requires one).
    public static let defaultMaxTokens = 4096
    /// `anthropic-version` sent when the deployment's extra headers do not set one (the API rejects
    /// requests without it).
    public static let defaultAPIVersion = "2023-06-01"
    /// The smallest thinking budget Anthropic accepts; smaller budgets are raised to it.
    public static let minimumThinkingBudget = 1024

    public init() {}

    /// Builds `POST {baseURL}/messages` with the deployment's auth and extra headers
    /// (`x-api-key`, `anthropic-version`; `defaultAPIVersion` when the deployment sets none).
    public func makeRequest(_ request: ChatRequest, deployment: Deployment, stream: Bool) throws -> HTTPRequest {
        let body = try wireBodyBytes(for: request, model: deployment.model.isEmpty ? request.model : deployment.model, stream: stream)
        var headers = deployment.requestHeaders(streaming: stream)
        if headers["anthropic-version"] == nil { headers.set("anthropic-version", Self.defaultAPIVersion) }
        return HTTPRequest(method: "POST", url: deployment.baseURL + "/messages", headers: headers,
                           body: body, timeouts: deployment.timeouts)
    }

    /// Parses a 2xx Message body.
    public func parseResponse(_ body: [UInt8], deployment: Deployment) throws -> ChatResponse {
        try Self.parseMessageBody(body, provider: deployment.providerId)
    }

    /// A fresh translator for one streamed answer from `deployment`.
    public func makeStreamTranslator(deployment: Deployment) -> AnthropicMessagesStreamTranslator {
        AnthropicMessagesStreamTranslator(provider: deployment.providerId)
    }

    /// Maps a non-2xx answer to a `GatewayError` naming the provider.
    public func parseError(status: Int, headers: HTTPHeaders, body: [UInt8], deployment: Deployment) -> GatewayError {
        Self.error(status: status, retryAfterHeader: headers["retry-after"], body: body, provider: deployment.providerId,
                   keyName: deployment.keyName)
    }
}
