import SkillGateHTTP

/// The events of one `/v1/agent` response, decoded from its `text/event-stream` body as it arrives.
///
/// Ending the iteration early (or cancelling the consuming task) releases the body, which aborts
/// the HTTP transfer and closes the connection — the server then cancels the run.
public struct AgentEventSequence: AsyncSequence, Sendable {
    public typealias Element = AgentEvent

    private let body: AsyncThrowingStream<[UInt8], any Error>

    /// Events from a raw SSE body (chunks split anywhere).
    public init(body: AsyncThrowingStream<[UInt8], any Error>) {
        self.body = body
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: body.makeAsyncIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var body: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        var decoder = SSEDecoder()
        var pending: [SSEEvent] = []
        var ended = false

        public mutating func next() async throws -> AgentEvent? {
            while true {
                if !pending.isEmpty { return AgentEvent.parse(pending.removeFirst()) }
                if ended { return nil }
                if let chunk = try await body.next() {
                    pending = decoder.feed(chunk)
                } else {
                    ended = true
                    pending = decoder.finish()
                }
            }
        }
    }
}
