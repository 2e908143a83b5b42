import Synchronization
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// A skill defined by a closure, counting its runs and recording arguments and cancellation.
final class TestSkill: Skill {
    let name: String
    let parameters: JSONValue
    let timeout: Duration
    let requiresConfirmation: Bool
    let mayBlock: Bool
    private let body: @Sendable (JSONValue) async throws -> SkillResult
    private let state = Mutex<(runs: [JSONValue], cancelled: Bool)>(([], false))

    var id: String { "test.\(name)" }
    var description: String { "Test skill \(name)" }
    var version: String { "1" }

    /// `timeout` is long by default: it bounds only a test that is failing anyway, and a skill runs on the cooperative
    /// pool, which tests running in parallel can keep busy for over 10 s (a 10 s default once timed out a skill that
    /// answers at once). Tests of the timeout pass their own.
    init(_ name: String, parameters: JSONValue = ["type": "object", "properties": [:]], timeout: Duration = .seconds(60),
         requiresConfirmation: Bool = false, mayBlock: Bool = true, body: @escaping @Sendable (JSONValue) async throws -> SkillResult) {
        self.name = name
        self.mayBlock = mayBlock
        self.parameters = parameters
        self.timeout = timeout
        self.requiresConfirmation = requiresConfirmation
        self.body = body
    }

    var runs: [JSONValue] { state.locked { $0.runs } }
    var sawCancellation: Bool { state.locked { $0.cancelled } }

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        state.locked { $0.runs.append(arguments) }
        do {
            return try await body(arguments)
        } catch {
            if Task.isCancelled || error is CancellationError { state.locked { $0.cancelled = true } }
            throw error
        }
    }

    /// Answers `text` at once.
    static func fixed(_ name: String, _ text: String, parameters: JSONValue = ["type": "object", "properties": [:]]) -> TestSkill {
        TestSkill(name, parameters: parameters) { _ in SkillResult(text: text, payload: ["text": .string(text)]) }
    }

    /// Sleeps until cancelled (or 60 s).
    static func slow(_ name: String, timeout: Duration = .seconds(30)) -> TestSkill {
        TestSkill(name, timeout: timeout) { _ in
            try await Task.sleep(for: .seconds(60))
            return SkillResult(text: "woke up")
        }
    }
}

/// Waits until `parties` callers arrived (proves calls overlap without timing assumptions).
final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Mutex(0)
    init(parties: Int) { self.parties = parties }

    func arriveAndWait() async throws {
        arrived.locked { $0 += 1 }
        while arrived.locked({ $0 }) < parties { try await Task.sleep(for: .milliseconds(2)) }
    }
}

/// Collects the events of a run.
final class EventLog: Sendable {
    private let events = Mutex<[AgentEvent]>([])
    var all: [AgentEvent] { events.locked { $0 } }
    var names: [String] { all.map(\.name) }
    var sink: AgentEventSink { { event in self.events.locked { $0.append(event) } } }
}

/// A model that answers each call with the next scripted turn and records the requests.
final class ScriptedModel: Sendable {
    enum Turn: Sendable {
        case calls([(name: String, arguments: String)])
        case text(String)
        /// Waits until cancelled.
        case hang
    }

    private let state: Mutex<(turns: [Turn], requests: [ChatRequest], cancelled: Bool)>
    init(_ turns: [Turn]) { state = Mutex((turns, [], false)) }

    var requests: [ChatRequest] { state.locked { $0.requests } }
    var sawCancellation: Bool { state.locked { $0.cancelled } }

    var call: AgentModelCall {
        { request, iteration, emit in
            let turn = self.state.locked { s -> Turn in
                s.requests.append(request)
                return s.turns.count > 1 ? s.turns.removeFirst() : s.turns[0]
            }
            try await emit(.routeSelected(provider: "fake", model: "fake/m", route: "test", iteration: iteration))
            let usage = Usage(inputTokens: 10, outputTokens: 5)
            switch turn {
            case .text(let t):
                try await emit(.textDelta(t))
                return AgentTurn(response: ChatResponse(id: "r\(iteration)", model: "m", content: [.text(t)], finishReason: .stop, usage: usage), costUSD: 0.001)
            case .calls(let calls):
                let content = calls.enumerated().map { i, c in ContentBlock.toolCall(ToolCall(id: "call_\(iteration)_\(i)", name: c.name, arguments: c.arguments)) }
                return AgentTurn(response: ChatResponse(id: "r\(iteration)", model: "m", content: content, finishReason: .toolCalls, usage: usage), costUSD: 0.001)
            case .hang:
                do { try await Task.sleep(for: .seconds(60)) } catch {
                    self.state.locked { $0.cancelled = true }
                    throw error
                }
                throw CancellationError()
            }
        }
    }
}

enum AgentFixtures {
    static func loop(_ skills: [TestSkill], model: ScriptedModel, events: EventLog, maxIterations: Int = 5, maxResultBytes: Int = 16 * 1024,
                     maxSkillCallsPerTurn: Int = 16) -> AgentLoop {
        var settings = GatewayConfig.Agent()
        settings.maxIterations = maxIterations
        settings.maxResultBytes = maxResultBytes
        settings.maxSkillCallsPerTurn = maxSkillCallsPerTurn
        var byName: [String: any Skill] = [:]
        for s in skills { byName[s.name] = s }
        return AgentLoop(settings: settings, skills: byName, context: SkillContext(tokenName: "t", requestId: "req_1"),
                         model: model.call, emit: events.sink)
    }

    static func request(_ skills: [TestSkill], clientTools: [ToolDefinition] = []) -> ChatRequest {
        ChatRequest(model: "auto", messages: [Message(role: .user, text: "hi")], tools: clientTools + skills.map(\.toolDefinition))
    }

    /// The tool results the model received in its `n`-th request (1-based), in order.
    static func results(_ model: ScriptedModel, request n: Int) -> [ToolResult] {
        model.requests[n - 1].messages.flatMap(\.toolResults)
    }
}
