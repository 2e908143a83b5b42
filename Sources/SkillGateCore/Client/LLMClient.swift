/// A chat model behind one provider's wire format. Every adapter (OpenAI Chat, Anthropic Messages,
/// Gemini, prompt-injected tools, the demo model) implements this, so the gateway never sees wire formats.
public protocol LLMClient: Sendable {
    /// Sends the request and waits for the whole answer.
    func complete(_ request: ChatRequest) async throws -> ChatResponse
    /// Sends the request and streams the answer. Cancelling the consuming task cancels the upstream call.
    /// Errors are `GatewayError`s naming the provider.
    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error>
    /// The same stream, for one consumer pulling its events (what the gateway's relay does). By default the events of
    /// `stream(_:)`; an adapter that reads its events on demand returns its reader (`ChatEventIterator(pulling:)`).
    func events(_ request: ChatRequest) -> ChatEventIterator
    /// The request's input tokens as the provider counts them (its own count endpoint, without generating), or nil
    /// when this client cannot count (the default). Errors are `GatewayError`s naming the provider.
    func countInputTokens(_ request: ChatRequest) async throws -> Int?
}

extension LLMClient {
    public func events(_ request: ChatRequest) -> ChatEventIterator {
        ChatEventIterator(stream(request))
    }

    public func countInputTokens(_ request: ChatRequest) async throws -> Int? { nil }

    /// Collects a stream into the equivalent complete response.
    public func collect(_ request: ChatRequest) async throws -> ChatResponse {
        var acc = ChatResponseAccumulator()
        for try await event in stream(request) { acc.apply(event) }
        return acc.response
    }
}
