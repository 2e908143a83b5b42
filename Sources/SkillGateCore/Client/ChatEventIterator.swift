/// What pulls one streamed answer's events when an adapter reads them on demand (`LLMClient.events`): each `next()`
/// runs in the consuming task, with nothing between it and the caller.
public protocol ChatEventPuller: AnyObject, Sendable {
    /// The next event, or nil once the stream ended. A throw ends the stream.
    func next() async throws -> ChatStreamEvent?

    /// The next event when it is known without waiting (it arrived with the ones before it): the event, `.some(nil)`
    /// when the stream is known to have ended, or nil when only `next()` can tell. A throw ends the stream.
    func readyEvent() throws -> ChatStreamEvent??
}

extension ChatEventPuller {
    /// A puller that cannot tell without waiting: nil, `next()` tells.
    public func readyEvent() throws -> ChatStreamEvent?? { nil }
}

/// One streamed answer's events for one consumer (`LLMClient.events`): either an `AsyncThrowingStream`'s iterator, or
/// an adapter's own puller called directly.
///
/// The direct form exists for speed (decision 0059): `AsyncThrowingStream(unfolding:)` is not specialised for its
/// element, so every stream it makes and every event it hands on looked up generic metadata in the runtime's cache,
/// and wrapped the call in a cancellation handler of its own. It keeps that stream's rules: once the consuming task is
/// cancelled, or the puller returned nil, `next()` returns nil without asking the puller again.
public struct ChatEventIterator {
    private enum Source {
        case stream(AsyncThrowingStream<ChatStreamEvent, any Error>.AsyncIterator)
        case puller(any ChatEventPuller)
        case finished
    }

    private var source: Source

    /// The events of `stream`.
    public init(_ stream: AsyncThrowingStream<ChatStreamEvent, any Error>) {
        source = .stream(stream.makeAsyncIterator())
    }

    /// The events `puller` reads, one per `next()`.
    public init(pulling puller: any ChatEventPuller) {
        source = .puller(puller)
    }

    /// The next event, or nil at the end (and from then on). Errors are the adapter's (`GatewayError`s).
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> ChatStreamEvent? {
        switch source {
        case .stream(var iterator):
            do {
                let event = try await iterator.next(isolation: actor)
                source = .stream(iterator)
                return event
            } catch {
                source = .stream(iterator)
                throw error
            }
        case .puller(let puller):
            guard !Task.isCancelled, let event = try await puller.next() else {
                source = .finished
                return nil
            }
            return event
        case .finished:
            return nil
        }
    }

    /// Whether `nextIfReady()` can tell an event that arrived without waiting: an adapter's own puller can, an
    /// `AsyncThrowingStream` (the demo model, the prompt-tools adapter) never can, so waiting on its readiness for a
    /// bounded time would always wait the whole bound.
    public var tellsReadiness: Bool {
        if case .stream = source { return false }
        return true
    }

    /// The next event when it is known without waiting: the event, `.some(nil)` at the end, or nil when only `next()`
    /// can tell (an `AsyncThrowingStream` never can). A cancelled task gets nil: `next()` then ends the stream.
    public mutating func nextIfReady() throws -> ChatStreamEvent?? {
        switch source {
        case .stream:
            return nil
        case .puller(let puller):
            guard !Task.isCancelled, let ready = try puller.readyEvent() else { return nil }
            if ready == nil { source = .finished }
            return ready
        case .finished:
            return .some(nil)
        }
    }
}
