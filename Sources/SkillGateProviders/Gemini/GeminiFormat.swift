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

    /// The request URL for `deployment`; never contains the key. `gemini-2.5-flash` and
    /// `models/gemini-2.5-flash` both give `…/models/gemini-2.5-flash:…`; `tunedModels/x` is kept.
    /// Throws a caller error for a model id with characters that would change the URL
    /// (`/`, `?`, `#`, `%`, spaces, …), so a model name can never smuggle in a query.
    public func url(for deployment: Deployment, stream: Bool) throws -> String {
        "\(deployment.baseURL)/\(try Self.resourceName(of: deployment))" + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent")
    }

    /// The model's resource name, `models/{model}` (or `tunedModels/{model}`), as the URL and a count's
    /// `generateContentRequest.model` name it; throws as `url(for:stream:)`.
    static func resourceName(of deployment: Deployment) throws -> String {
        var collection = "models"
        var model = Substring(deployment.model)
        for prefix in ["models/", "tunedModels/"] where model.hasPrefix(prefix) {
            collection = String(prefix.dropLast())
            model = model.dropFirst(prefix.count)
        }
        let allowed = model.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E || b == 0x5F
        }
        guard allowed, !model.isEmpty else {
            throw GatewayError.invalidRequest(
                "The model id '\(deployment.model)' cannot be used in a Gemini URL; use letters, digits, '.', '-' and '_' only "
                    + "(for example gemini-2.5-flash).", param: "model")
        }
        return "\(collection)/\(model)"
    }

    public func makeRequest(_ request: ChatRequest, deployment: Deployment, stream: Bool) throws -> HTTPRequest {
        let body = try GeminiFormat.requestBodyBytes(request, model: deployment.model)
        return HTTPRequest(method: "POST", url: try url(for: deployment, stream: stream),
                           headers: deployment.requestHeaders(streaming: stream),
                           body: body, timeouts: deployment.timeouts)
    }

    public func parseResponse(_ body: [UInt8], deployment: Deployment) throws -> ChatResponse {
        try GeminiFormat.response(from: body, provider: deployment.providerId, apiKey: deployment.apiKey)
    }

    public func makeStreamTranslator(deployment: Deployment) -> GeminiStreamTranslator {
        GeminiStreamTranslator(provider: deployment.providerId, apiKey: deployment.apiKey)
    }

    public func parseError(status: Int, headers: HTTPHeaders, body: [UInt8], deployment: Deployment) -> GatewayError {
        GeminiFormat.error(status: status, headers: headers, body: body,
                           provider: deployment.providerId, apiKey: deployment.apiKey, keyName: deployment.keyName)
    }
}

extension ToolSchema.DerivedForm {
    /// A schema sanitised for Gemini, as a function declaration's `parameters` text (empty when they are left out).
    static let geminiParameters = ToolSchema.DerivedForm("gemini.parameters")
}
