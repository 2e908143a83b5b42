import SkillGateCore
import SkillGateHTTP

/// Gemini's own count (`POST {base}/models/{model}:countTokens`, decision 0136): the model's tokenizer run on the request,
/// free, without generating.
extension GeminiFormat {
    /// The members of a `generateContent` body that make the model's input; `generationConfig` only shapes the answer.
    static let countedMembers = ["contents", "systemInstruction", "tools", "toolConfig"]

    /// The count request: the `generateContent` body the gateway would send for `request` (system instruction, contents
    /// with their signatures, sanitised tool declarations), less `generationConfig`, inside `generateContentRequest` with
    /// the model's resource name. That form, not a bare `contents`, is the one whose count includes the system
    /// instruction and the tools. Nil when the deployment does not count (`count_tokens: false`).
    public func makeCountTokensRequest(_ request: ChatRequest, deployment: Deployment) throws -> HTTPRequest? {
        guard deployment.countsInputTokens else { return nil }
        let name = try Self.resourceName(of: deployment)
        let generated = try JSONValue.parse(try Self.requestBodyBytes(request, model: deployment.model))
        var inner: JSONObject = ["model": .string(name)]
        for key in Self.countedMembers { if let value = generated[key] { inner[key] = value } }
        let body: JSONValue = ["generateContentRequest": .object(inner)]
        return HTTPRequest(method: "POST", url: "\(deployment.baseURL)/\(name):countTokens", headers: deployment.requestHeaders(streaming: false),
                           body: body.serializedBytes(), timeouts: deployment.timeouts)
    }

    /// `{"totalTokens": N, ...}`.
    public func parseCountTokens(_ body: [UInt8]) -> Int? {
        guard let count = (try? JSONValue.parse(body))?["totalTokens"]?.intValue, count >= 0 else { return nil }
        return count
    }
}
