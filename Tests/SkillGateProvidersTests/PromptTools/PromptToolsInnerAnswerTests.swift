import Synchronization
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The prompt-tools adapter ends its stream with the inner model's complete answer, although the inner stream stays open
/// after it, and lets go of the inner stream (decision 0160). Before, it read the inner stream to its end: behind an
/// upstream that kept its stream open after the answer, the adapter's stream (and the client's) stayed open until the
/// upstream's idle timeout.
@Suite struct PromptToolsInnerAnswerTests {
    static let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "Weather in Kyōto?")],
                                     tools: [PromptToolsTesting.weather])
    static let answer: [ChatStreamEvent] = [.start(id: "resp-1", model: "text-model"), .textDelta("Hello there"), .finish(.stop)]
    static let usage = Usage(inputTokens: 11, outputTokens: 7)

    /// The adapter's events, or nil when its stream had not ended within `bound`.
    static func events(of stream: AsyncThrowingStream<ChatStreamEvent, any Error>, within bound: Duration) async throws -> [ChatStreamEvent]? {
        try await withThrowingTaskGroup(of: [ChatStreamEvent]?.self) { group in
            group.addTask {
                var events: [ChatStreamEvent] = []
                for try await event in stream { events.append(event) }
                return events
            }
            group.addTask {
                try? await Task.sleep(for: bound)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// An inner model (read as the HTTP adapters are, telling what arrived) that sends its answer, with or without a usage
    /// after the finish, and keeps its stream open. Unbounded, the adapter's stream never ends; bounded, about a second
    /// after the finish without a usage (the usage's hold), at once with one.
    @Test(arguments: [false, true])
    func theAdaptersStreamEndsWithTheCompleteAnswer(withUsage: Bool) async throws {
        let inner = OpenAfterAnswerModel(events: Self.answer + (withUsage ? [.usage(Self.usage)] : []))
        let events = try await Self.events(of: PromptToolsClient(inner: inner).stream(Self.request), within: .seconds(20))
        let got = try #require(events, "the adapter's stream stayed open with its inner stream")
        let folded = PromptToolsTesting.fold(got)
        #expect(folded.text == "Hello there" && folded.finishReason == .stop, "\(got)")
        #expect(got.last == (withUsage ? .usage(Self.usage) : .finish(.stop)), "\(got)")
        // The inner stream was let go of: its reader was released (a transfer then closes its connection).
        let deadline = ContinuousClock.now + .seconds(10)
        while !inner.released.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(inner.released.isSet, "the inner stream was not let go of")
    }
}

/// Set once.
private final class ReleaseFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.locked { $0 = true } }
    var isSet: Bool { value.locked { $0 } }
}

/// Reads `events`, telling each as arrived, then stays open (no event, no end) until its reader is cancelled.
private final class OpenAfterAnswerPuller: ChatEventPuller {
    private let remaining: Mutex<[ChatStreamEvent]>
    private let released: ReleaseFlag

    init(_ events: [ChatStreamEvent], released: ReleaseFlag) {
        remaining = Mutex(events)
        self.released = released
    }

    func next() async throws -> ChatStreamEvent? {
        if let event = remaining.locked({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        return nil
    }

    func readyEvent() throws -> ChatStreamEvent?? {
        remaining.locked { $0.isEmpty ? nil : .some($0.removeFirst()) }
    }

    deinit { released.set() }
}

/// A text-only model whose every stream is an `OpenAfterAnswerPuller` of `events`; `released` is set when one is let go.
private struct OpenAfterAnswerModel: LLMClient {
    let events: [ChatStreamEvent]
    let released = ReleaseFlag()

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        throw GatewayError.internalError("only streamed")
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let puller = OpenAfterAnswerPuller(events, released: released)
        return AsyncThrowingStream { try await puller.next() }
    }

    func events(_ request: ChatRequest) -> ChatEventIterator {
        ChatEventIterator(pulling: OpenAfterAnswerPuller(events, released: released))
    }
}
