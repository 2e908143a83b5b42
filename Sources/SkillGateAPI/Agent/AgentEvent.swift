/// One step of an agent run, as `POST /v1/agent` streams it (docs/agent-api.md): the one
/// definition of the event names and their data that the gateway encodes and clients decode.
///
/// On the wire each event is a server-sent event, `event: NAME\ndata: JSON\n\n`, with the payload's
/// fields in snake_case (`call_id`, `duration_ms`); in Swift they are camelCase (`callId`,
/// `durationMs`). `sseBytes()` writes one, `init(name:data:)` reads one.
public enum AgentEvent: Sendable, Hashable {
    /// `run.started`: the run's id and what the server resolved for it. Always the first event.
    case runStarted(RunStarted)
    /// `route.selected`: the provider and model chosen for one model call (one per iteration).
    case routeSelected(RouteSelected)
    /// `skill.started`: SkillGate begins running a server-side skill.
    case skillStarted(SkillStarted)
    /// `skill.finished`: a server-side skill ended, well or not.
    case skillFinished(SkillFinished)
    /// `text.delta`: the next piece of the answer's text.
    case textDelta(TextDelta)
    /// `tool.call`: the client must run a tool (a client tool, or a skill that needs confirmation).
    case toolCall(ToolCall)
    /// `run.completed`: the last event of a run that ended normally.
    case runCompleted(RunCompleted)
    /// `run.failed`: the last event of a run that failed after it started.
    case runFailed(RunFailed)

    /// The SSE `event:` names.
    public enum Name: String, Sendable, Hashable, CaseIterable, Codable {
        case runStarted = "run.started"
        case routeSelected = "route.selected"
        case skillStarted = "skill.started"
        case skillFinished = "skill.finished"
        case textDelta = "text.delta"
        case toolCall = "tool.call"
        case runCompleted = "run.completed"
        case runFailed = "run.failed"
    }

    /// This event's name.
    public var name: Name {
        switch self {
        case .runStarted: .runStarted
        case .routeSelected: .routeSelected
        case .skillStarted: .skillStarted
        case .skillFinished: .skillFinished
        case .textDelta: .textDelta
        case .toolCall: .toolCall
        case .runCompleted: .runCompleted
        case .runFailed: .runFailed
        }
    }

    /// Whether this event ends the run (`run.completed` or `run.failed`).
    public var endsRun: Bool {
        switch self {
        case .runCompleted, .runFailed: true
        default: false
        }
    }
}
