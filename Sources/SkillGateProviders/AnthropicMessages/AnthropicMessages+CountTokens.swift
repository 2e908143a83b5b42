import SkillGateCore
import SkillGateHTTP

/// Anthropic's own count (`POST {base}/messages/count_tokens`): exact for its models, free, and what a client such as
/// Claude Code gets without a gateway (decision 0132).
extension AnthropicMessagesFormat {
    /// The members of a Messages body that the count endpoint does not take (it answers 400 for any it does not know).
    static let notCounted: Set<String> = ["max_tokens", "stop_sequences", "temperature", "top_p", "top_k", "metadata", "stream"]

    /// The count request: the Messages body the gateway would send for `request` (system hoisted, turns merged, tools and
    /// thinking as sent), without the members that only shape the answer; nil when the deployment does not count (an
    /// Anthropic-compatible API without the endpoint, `count_tokens: false`).
    public func makeCountTokensRequest(_ request: ChatRequest, deployment: Deployment) throws -> HTTPRequest? {
        guard deployment.countsInputTokens else { return nil }
        var message = try makeRequest(request, deployment: deployment, stream: false)
        guard var body = try JSONValue.parse(message.body).objectValue else { return nil }
        for key in Self.notCounted { body[key] = nil }
        message.body = JSONValue.object(body).serializedBytes()
        message.url += "/count_tokens"
        return message
    }

    /// `{"input_tokens": N}`.
    public func parseCountTokens(_ body: [UInt8]) -> Int? {
        guard let count = (try? JSONValue.parse(body))?["input_tokens"]?.intValue, count >= 0 else { return nil }
        return count
    }
}
