import SkillGateCore
import SkillGateHTTP

/// Counting a request's input tokens with the provider itself (`POST /v1/messages/count_tokens`, decision 0132;
/// `POST /v1/responses/input_tokens`, decision 0136): a format that has such an endpoint builds its request, for a
/// deployment that counts (`Deployment.countsInputTokens`), and reads its answer; the others have none (nil), and the
/// gateway estimates instead.
extension WireFormat {
    /// The HTTP request that counts `request`'s input tokens at `deployment`; nil when the format cannot count.
    public func makeCountTokensRequest(_ request: ChatRequest, deployment: Deployment) throws -> HTTPRequest? { nil }

    /// The count in a 2xx answer to `makeCountTokensRequest`; nil when it holds none.
    public func parseCountTokens(_ body: [UInt8]) -> Int? { nil }
}
