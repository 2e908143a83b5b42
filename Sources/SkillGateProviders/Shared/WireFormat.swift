import SkillGateCore
import SkillGateHTTP

/// One provider wire format (OpenAI Chat Completions, Anthropic Messages, Gemini, ...).
///
/// A wire format is pure translation: it never does I/O. `HTTPLLMClient` makes the HTTP call
/// once, in shared code, and uses the wire format on both sides of it.
public protocol WireFormat: Sendable {
    associatedtype StreamTranslator: WireStreamTranslator

    /// The catalog name of the format (`openai-chat`, `anthropic-messages`, `gemini`).
    static var name: String { get }

    /// Builds the HTTP request for `request` against `deployment`. Throws a `GatewayError`
    /// (caller domain) when the request cannot be expressed in this format.
    func makeRequest(_ request: ChatRequest, deployment: Deployment, stream: Bool) throws -> HTTPRequest

    /// Parses a successful (2xx) non-streaming response body.
    func parseResponse(_ body: [UInt8], deployment: Deployment) throws -> ChatResponse

    /// A fresh stream translator for one streamed response.
    func makeStreamTranslator(deployment: Deployment) -> StreamTranslator

    /// Turns a non-2xx upstream response into a `GatewayError` naming the provider.
    func parseError(status: Int, headers: HTTPHeaders, body: [UInt8], deployment: Deployment) -> GatewayError

    /// The HTTP request that counts `request`'s input tokens at `deployment` with the provider's own count endpoint;
    /// nil (the default, `WireFormat+CountTokens.swift`) when the format has none or the deployment does not count
    /// (`Deployment.countsInputTokens`).
    func makeCountTokensRequest(_ request: ChatRequest, deployment: Deployment) throws -> HTTPRequest?

    /// The count in a 2xx answer to `makeCountTokensRequest`; nil when it holds none.
    func parseCountTokens(_ body: [UInt8]) -> Int?
}

/// A value-type state machine turning a streamed response body into canonical events.
///
/// Fed raw body bytes in any split (one byte at a time gives the same events as the whole body).
/// Throws a `GatewayError` for an error the provider reports inside the stream.
public protocol WireStreamTranslator: Sendable {
    /// Feeds the next chunk of the body.
    mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent]
    /// Ends the body. Throws when the stream ended before the answer was complete.
    mutating func finish() throws -> [ChatStreamEvent]
}
