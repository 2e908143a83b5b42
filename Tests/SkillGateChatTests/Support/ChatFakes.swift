import SkillGateChat
import SkillGateCore
import SkillGateHTTP
import Synchronization

/// Types the given lines, then ends the input (Ctrl-D).
final class ScriptedReader: ChatLineReader {
    private let lines: Mutex<[String]>
    private let output: RecordingOutput
    init(_ lines: [String], output: RecordingOutput) {
        self.lines = Mutex(lines)
        self.output = output
    }
    func readLine(prompt: String) async -> String? {
        output.write(prompt)
        return lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// Collects everything the chat writes.
final class RecordingOutput: ChatOutput {
    private let text = Mutex("")
    func write(_ s: String) { text.withLock { $0 += s } }
    var all: String { text.withLock { $0 } }
}

/// Answers each request with a scripted SSE body; records request bodies and cancelled streams.
final class ScriptedTransport: AgentTransport {
    typealias Script = @Sendable (_ body: JSONValue, _ continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) -> Void
    private let script: Script
    private let state = Mutex<(requests: [JSONValue], cancelled: Int)>(([], 0))

    init(_ script: @escaping Script) { self.script = script }

    var requests: [JSONValue] { state.withLock { $0.requests } }
    var cancelledStreams: Int { state.withLock { $0.cancelled } }

    func start(_ body: JSONValue) async throws -> AgentEventSequence {
        state.withLock { $0.requests.append(body) }
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        continuation.onTermination = { [self] reason in
            if case .cancelled = reason { state.withLock { $0.cancelled += 1 } }
        }
        script(body, continuation)
        return AgentEventSequence(body: stream)
    }

    static func event(_ name: String, _ data: JSONValue) -> [UInt8] { SSEEncoder.encodeJSON(data, event: name) }
}
