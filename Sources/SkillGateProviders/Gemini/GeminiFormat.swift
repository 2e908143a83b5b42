import SkillGateCore
import SkillGateHTTP

/// The Google Gemini API wire format (`v1beta` `generateContent` / `streamGenerateContent`).
///
/// - URL: `{baseURL}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` when
///   streaming. The key travels in the `x-goog-api-key` header (set by `Deployment`), never in the
///   URL, so logged URLs never carry a secret.
/// - Tool calls: `functionCall` parts; Gemini often sends no call id, so the adapter synthesises
///   one (see `GeminiFormat.syntheticCallId`). Thought signatures are kept on `ToolCall.signature`
///   and on `Thinking.signature` and replayed on the next turn.
/// - Tool schemas are sanitised to the OpenAPI subset Gemini accepts (`GeminiSchemaSanitizer`).
public struct GeminiFormat: WireFormat {
    public typealias StreamTranslator = GeminiStreamTranslator

    public static let name = "gemini"

    public init() {}

    /// The request URL for `deployment`; never contains the key.
    public func url(for deployment: Deployment, stream: Bool) -> String {
        let method = stream ? ":streamGenerateContent?alt=sse" : ":generateContent"
        let model = deployment.model.hasPrefix("models/") ? String(deployment.model.dropFirst(7)) : deployment.model
        return "\(deployment.baseURL)/models/\(model)\(method)"
    }

    public func makeRequest(_ request: ChatRequest, deployment: Deployment, stream: Bool) throws -> HTTPRequest {
        let body = try GeminiFormat.requestBody(request, model: deployment.model)
        return HTTPRequest(method: "POST", url: url(for: deployment, stream: stream),
                           headers: deployment.requestHeaders(streaming: stream),
                           body: body.serializedBytes(), timeouts: deployment.timeouts)
    }

    public func parseResponse(_ body: [UInt8], deployment: Deployment) throws -> ChatResponse {
        try GeminiFormat.response(from: body, provider: deployment.providerId, apiKey: deployment.apiKey)
    }

    public func makeStreamTranslator(deployment: Deployment) -> GeminiStreamTranslator {
        GeminiStreamTranslator(provider: deployment.providerId, apiKey: deployment.apiKey)
    }

    public func parseError(status: Int, headers: HTTPHeaders, body: [UInt8], deployment: Deployment) -> GatewayError {
        GeminiFormat.error(status: status, headers: headers, body: body,
                           provider: deployment.providerId, apiKey: deployment.apiKey)
    }
}
