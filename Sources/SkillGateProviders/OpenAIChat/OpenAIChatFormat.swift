import SkillGateCore
import SkillGateHTTP

/// The OpenAI Chat Completions wire format (`POST {baseURL}/chat/completions`), spoken by OpenAI
/// and by most "OpenAI-compatible" providers (DeepSeek, Groq, Mistral, Ollama, vLLM, ...).
///
/// Pure translation, no I/O. The same folder also holds the mirror direction used by the
/// gateway's inbound OpenAI-compatible surface (`decodeInboundRequest`, `encodeInboundResponse`,
/// `OpenAIChatStreamEncoder`).
public struct OpenAIChatFormat: WireFormat {
    public typealias StreamTranslator = OpenAIChatStreamTranslator

    /// Which request field carries the output token limit.
    public enum TokenLimitField: Sendable, Hashable {
        /// `max_completion_tokens` for the `openai` provider (its reasoning models reject
        /// `max_tokens`), `max_tokens` for every other provider (many compatible servers only
        /// know the older name).
        case automatic
        /// Always `max_tokens`.
        case maxTokens
        /// Always `max_completion_tokens`.
        case maxCompletionTokens
    }

    public static let name = "openai-chat"

    /// Which field carries `ChatRequest.maxTokens`.
    public var tokenLimitField: TokenLimitField

    /// Whether streamed requests ask for a final usage chunk (`stream_options.include_usage`).
    /// On by default; turn it off for a compatible server that rejects `stream_options`.
    public var includeStreamUsage: Bool

    public init(tokenLimitField: TokenLimitField = .automatic, includeStreamUsage: Bool = true) {
        self.tokenLimitField = tokenLimitField
        self.includeStreamUsage = includeStreamUsage
    }

    public func makeRequest(_ request: ChatRequest, deployment: Deployment, stream: Bool) throws -> HTTPRequest {
        guard !request.messages.isEmpty else {
            throw GatewayError.invalidRequest(
                "the request has no messages; send at least one user message", param: "messages")
        }
        let model = deployment.model.isEmpty ? request.model : deployment.model
        let body = requestBytes(request, model: model, stream: stream,
                                useMaxCompletionTokens: usesMaxCompletionTokens(providerId: deployment.providerId))
        return HTTPRequest(url: deployment.baseURL + "/chat/completions",
                           headers: deployment.requestHeaders(streaming: stream),
                           body: body, timeouts: deployment.timeouts)
    }

    public func parseResponse(_ body: [UInt8], deployment: Deployment) throws -> ChatResponse {
        try Self.parseCompletion(body, provider: deployment.providerId)
    }

    public func makeStreamTranslator(deployment: Deployment) -> OpenAIChatStreamTranslator {
        OpenAIChatStreamTranslator(provider: deployment.providerId)
    }

    public func parseError(status: Int, headers: HTTPHeaders, body: [UInt8], deployment: Deployment) -> GatewayError {
        OpenAIChatErrorMapper(provider: deployment.providerId, apiKey: deployment.apiKey, keyName: deployment.keyName)
            .error(status: status, headers: headers, body: body)
    }

    /// Whether the token limit goes in `max_completion_tokens` for this provider.
    func usesMaxCompletionTokens(providerId: String) -> Bool {
        switch tokenLimitField {
        case .automatic: return providerId == "openai"
        case .maxTokens: return false
        case .maxCompletionTokens: return true
        }
    }
}
