import SkillGateChat
import SkillGateClient
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
        return lines.locked { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// Collects everything the chat writes.
final class RecordingOutput: ChatOutput {
    private let text = Mutex("")
    func write(_ s: String) { text.locked { $0 += s } }
    var all: String { text.locked { $0 } }
}

/// Answers each request with scripted events; records the requests and cancelled streams.
final class ScriptedTransport: AgentTransport {
    typealias Script = @Sendable (_ request: AgentRequest, _ continuation: AsyncThrowingStream<AgentEvent, any Error>.Continuation) -> Void
    private let script: Script
    private let state = Mutex<(requests: [AgentRequest], cancelled: Int)>(([], 0))

    init(_ script: @escaping Script) { self.script = script }

    var requests: [AgentRequest] { state.locked { $0.requests } }
    var cancelledStreams: Int { state.locked { $0.cancelled } }

    func run(_ request: AgentRequest) -> AsyncThrowingStream<AgentEvent, any Error> {
        state.locked { $0.requests.append(request) }
        let (stream, continuation) = AsyncThrowingStream<AgentEvent, any Error>.makeStream()
        continuation.onTermination = { [self] reason in
            if case .cancelled = reason { state.locked { $0.cancelled += 1 } }
        }
        script(request, continuation)
        return stream
    }
}

/// Short constructors for the events of a run.
enum Events {
    static func started(_ runId: String = "run_1") -> AgentEvent {
        .runStarted(.init(runId: runId, scenario: "chat", model: "auto"))
    }
    static func route(_ model: String) -> AgentEvent {
        .routeSelected(.init(provider: "demo", model: model, route: "tier=light", iteration: 1))
    }
    static func skillStarted(_ callId: String, _ skill: String, _ arguments: JSONValue) -> AgentEvent {
        .skillStarted(.init(callId: callId, skill: skill, arguments: arguments, iteration: 1))
    }
    static func skillFinished(_ callId: String, _ skill: String, ok: Bool, ms: Int, _ summary: String = "") -> AgentEvent {
        .skillFinished(.init(callId: callId, skill: skill, ok: ok, durationMs: ms, summary: summary))
    }
    static func text(_ text: String) -> AgentEvent { .textDelta(.init(text: text)) }
    static func toolCall(_ name: String, _ arguments: JSONValue, confirm: Bool = false) -> AgentEvent {
        .toolCall(.init(callId: "c", name: name, arguments: arguments, requiresConfirmation: confirm))
    }
    static func completed(_ reason: String = "stop", input: Int = 0, output: Int = 0, cost: Double = 0, message: String? = nil) -> AgentEvent {
        .runCompleted(.init(finishReason: reason, iterations: 1, usage: .init(inputTokens: input, outputTokens: output), costUSD: cost, message: message))
    }
    static func failed(_ type: String, _ message: String) -> AgentEvent {
        .runFailed(.init(error: .init(type: type, message: message)))
    }
}
