import SkillGateCore
import SkillGateHTTP

/// SkillGate's built-in offline model (catalog id `demo`, wire format `demo`).
///
/// For the quick start and for app developers building UIs: no key, no network, deterministic.
/// It reads the last user message and calls a visible tool when one serves the request — the time
/// or date (a tool whose name or description mentions time, clock or date), arithmetic ("what is
/// 17*23", a calculator tool, the expression in the first string argument), the weather (a
/// weather tool, with the place from the message). After tool results it answers from them
/// ("17 × 23 = 391"). Otherwise it explains that it is the demo model and how to add a real one.
/// `tool_choice` is respected: `none` never calls, `required` calls the best tool, a named choice
/// calls that tool.
///
/// It streams like a real model: text word by word, tool arguments in a few fragments, with
/// `chunkDelay` between pieces, then the finish reason and estimated usage (about four characters
/// a token). The model name of the request (`demo`, `demo-light`, `demo-strong`, ...) is echoed.
public struct DemoModelClient: LLMClient {
    /// The provider id in the catalog.
    public static let providerId = "demo"
    /// The wire format name in the catalog.
    public static let wireFormat = "demo"
    /// The model names the catalog lists; all behave the same.
    public static let modelNames = ["demo", "demo-light", "demo-strong"]

    /// The pause between streamed pieces (words, argument fragments). Zero streams at once.
    public var chunkDelay: Duration

    /// A demo model that pauses `chunkDelay` between streamed pieces.
    public init(chunkDelay: Duration = .milliseconds(5)) {
        self.chunkDelay = chunkDelay
    }

    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        var acc = ChatResponseAccumulator()
        for event in try Self.script(for: request) { acc.apply(event) }
        return acc.response
    }

    /// Streams the answer piece by piece. Cancelling the consuming task ends the stream promptly.
    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let delay = chunkDelay
        return AsyncThrowingStream { continuation in
            // On the server event loop that asked, when one did: the inner stream then runs there too.
            let task = Task(executorPreference: ServerEventLoops.currentExecutor) {
                do {
                    let events = try Self.script(for: request)
                    for event in events {
                        try Task.checkCancellation()
                        if delay > .zero, Self.isPiece(event) { try await Task.sleep(for: delay) }
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()  // the consumer went away; nobody waits for an error
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func isPiece(_ event: ChatStreamEvent) -> Bool {
        switch event {
        case .textDelta, .toolCallArgumentsDelta: return true
        default: return false
        }
    }
}
