import SkillGateCore
import Synchronization
import Testing

/// A streamed answer's events pulled straight from an adapter's reader, with the rules of the `AsyncThrowingStream`
/// it replaces on the relay's path (decision 0059).
@Suite struct ChatEventIteratorTests {
    /// Hands out `events`, then nil (or `failure`); counts the calls.
    private final class ListPuller: ChatEventPuller {
        private let state: Mutex<(events: [ChatStreamEvent], calls: Int)>
        private let failure: (any Error & Sendable)?

        init(_ events: [ChatStreamEvent], failure: (any Error & Sendable)? = nil) {
            state = Mutex((events, 0))
            self.failure = failure
        }

        var calls: Int { state.locked { $0.calls } }

        func next() async throws -> ChatStreamEvent? {
            let event = state.locked { s -> ChatStreamEvent? in
                s.calls += 1
                return s.events.isEmpty ? nil : s.events.removeFirst()
            }
            if event == nil, let failure { throw failure }
            return event
        }
    }

    private struct Broken: Error, Equatable {}

    private static let events: [ChatStreamEvent] = [.textDelta("Hel"), .textDelta("lo"), .finish(.stop)]

    @Test func aPullersEventsComeInOrderThenNilWithoutAskingAgain() async throws {
        let puller = ListPuller(Self.events)
        var iterator = ChatEventIterator(pulling: puller)
        var seen: [ChatStreamEvent] = []
        while let event = try await iterator.next() { seen.append(event) }
        #expect(seen == Self.events)
        #expect(try await iterator.next() == nil)
        #expect(puller.calls == Self.events.count + 1, "asked again after the end")
    }

    @Test func aStreamsEventsComeTheSameWay() async throws {
        var iterator = ChatEventIterator(AsyncThrowingStream { continuation in
            for event in Self.events { continuation.yield(event) }
            continuation.finish()
        })
        var seen: [ChatStreamEvent] = []
        while let event = try await iterator.next() { seen.append(event) }
        #expect(seen == Self.events)
        #expect(try await iterator.next() == nil)
    }

    @Test func aPullersErrorReachesTheConsumer() async throws {
        var iterator = ChatEventIterator(pulling: ListPuller([.textDelta("a")], failure: Broken()))
        #expect(try await iterator.next() == .textDelta("a"))
        await #expect(throws: Broken.self) { _ = try await iterator.next() }
    }

    /// As with `AsyncThrowingStream(unfolding:)`: once the consuming task is cancelled the stream ends, and the puller
    /// is not asked for more.
    @Test func aCancelledConsumerGetsNilWithoutAskingThePuller() async throws {
        let puller = ListPuller(Self.events)
        let task = Task {
            var iterator = ChatEventIterator(pulling: puller)
            let first = try await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            let afterCancel = try await iterator.next()
            return (first, afterCancel)
        }
        let (first, afterCancel) = try await task.value
        #expect(first == .textDelta("Hel"))
        #expect(afterCancel == nil)
        #expect(puller.calls == 1)
    }

    /// A puller that cannot tell without waiting (the protocol's default) is never ready; a finished iterator knows its
    /// end; an `AsyncThrowingStream` is never ready.
    @Test func readinessIsOnlyWhatThePullerKnows() async throws {
        var iterator = ChatEventIterator(pulling: ListPuller(Self.events))
        #expect(try iterator.nextIfReady() == nil)
        while try await iterator.next() != nil {}
        #expect(try iterator.nextIfReady() == .some(nil))
        let (stream, continuation) = AsyncThrowingStream<ChatStreamEvent, any Error>.makeStream()
        continuation.yield(.textDelta("a"))
        var streamed = ChatEventIterator(stream)
        #expect(try streamed.nextIfReady() == nil)
        continuation.finish()
    }

    /// A puller's ready end finishes the iterator: `next()` then returns nil without asking the puller.
    @Test func aReadyEndFinishesTheIterator() async throws {
        final class ReadyPuller: ChatEventPuller {
            let calls = Mutex(0)
            func next() async throws -> ChatStreamEvent? {
                calls.locked { $0 += 1 }
                return .textDelta("never")
            }
            func readyEvent() throws -> ChatStreamEvent?? {
                calls.locked { $0 } == 0 ? .some(.textDelta("ready")) : .some(nil)
            }
        }
        let puller = ReadyPuller()
        var iterator = ChatEventIterator(pulling: puller)
        #expect(try iterator.nextIfReady() == .some(.textDelta("ready")))
        _ = try await iterator.next()
        #expect(try iterator.nextIfReady() == .some(nil))
        #expect(try await iterator.next() == nil)
        #expect(puller.calls.locked { $0 } == 1)
    }
}
