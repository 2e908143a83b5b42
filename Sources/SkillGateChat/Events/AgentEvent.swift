import SkillGateCore

/// One event of the `/v1/agent` stream (see the event reference in the README), decoded for display.
public enum AgentEvent: Sendable, Hashable {
    /// `run.started`: the run's id and what the server resolved for it.
    case runStarted(runID: String, scenario: String?, model: String?)
    /// `route.selected`: the provider and model chosen for one model call of the run.
    case routeSelected(provider: String, model: String, route: String?, iteration: Int?)
    /// `skill.started`: SkillGate begins running a server-side skill.
    case skillStarted(callID: String, skill: String, arguments: JSONValue)
    /// `skill.finished`: a server-side skill ended, well or not.
    case skillFinished(callID: String, skill: String, ok: Bool, durationMs: Int?, summary: String?)
    /// `text.delta`: the next piece of the answer's text.
    case textDelta(String)
    /// `tool.call`: the model asked the client to run a tool (a client tool, or a skill that needs confirmation).
    case toolCall(callID: String, name: String, arguments: JSONValue, requiresConfirmation: Bool)
    /// `run.completed`: the last event of a run that ended normally. `message` explains a stop that
    /// is not the model's own (`max_iterations`), when the server sends one.
    case runCompleted(finishReason: String?, iterations: Int?, usage: AgentUsage?, costUSD: Double?, message: String? = nil)
    /// `run.failed`: the last event of a run that failed.
    case runFailed(type: String?, message: String)
    /// An event this client does not know (newer servers may add some); ignored when rendered.
    case unknown(name: String)
    /// A known event whose data could not be read; rendered as a warning.
    case malformed(name: String, reason: String)

    /// Whether this event ends the run (`run.completed` or `run.failed`).
    public var endsRun: Bool {
        switch self {
        case .runCompleted, .runFailed: return true
        default: return false
        }
    }
}

/// Token counts of a run, summed over its model calls.
public struct AgentUsage: Sendable, Hashable {
    public var inputTokens: Int
    public var outputTokens: Int

    public init(inputTokens: Int, outputTokens: Int) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }
}
