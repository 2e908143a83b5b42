import SkillGateAPI
import SkillGateCore

/// One step of an agent run, as the loop reports it (see docs/agent-api.md and
/// docs/decisions/0012-agent-loop.md). The event names, field names and SSE bytes of
/// `POST /v1/agent` come from SkillGateAPI's `AgentEvent`, which clients decode with.
enum AgentEvent: Sendable, Hashable {
    case runStarted(runId: String, scenario: String, model: String)
    case routeSelected(provider: String, model: String, route: String, iteration: Int)
    case skillStarted(callId: String, skill: String, arguments: SkillGateCore.JSONValue, iteration: Int)
    case skillFinished(callId: String, skill: String, ok: Bool, durationMs: Int, summary: String, payload: SkillGateCore.JSONValue?)
    case textDelta(String)
    case toolCall(callId: String, name: String, arguments: SkillGateCore.JSONValue, requiresConfirmation: Bool)
    /// `message` (additive to the contract) explains a stop that is not the model's own (`max_iterations`).
    case runCompleted(finishReason: String, iterations: Int, usage: Usage, costUSD: Double, message: String?)
    case runFailed(GatewayError)

    /// The SSE `event:` name.
    var name: String { wire.name.rawValue }

    /// `event: NAME\ndata: JSON\n\n`.
    var sseBytes: [UInt8] { wire.sseBytes() }

    /// The event in SkillGateAPI's schema.
    var wire: SkillGateAPI.AgentEvent {
        switch self {
        case .runStarted(let id, let scenario, let model):
            return .runStarted(.init(runId: id, scenario: scenario, model: model))
        case .routeSelected(let provider, let model, let route, let iteration):
            return .routeSelected(.init(provider: provider, model: model, route: route, iteration: iteration))
        case .skillStarted(let id, let skill, let arguments, let iteration):
            return .skillStarted(.init(callId: id, skill: skill, arguments: arguments.wire, iteration: iteration))
        case .skillFinished(let id, let skill, let ok, let ms, let summary, let payload):
            return .skillFinished(.init(callId: id, skill: skill, ok: ok, durationMs: ms, summary: summary, payload: payload?.wire))
        case .textDelta(let text):
            return .textDelta(.init(text: text))
        case .toolCall(let id, let name, let arguments, let confirm):
            return .toolCall(.init(callId: id, name: name, arguments: arguments.wire, requiresConfirmation: confirm))
        case .runCompleted(let reason, let iterations, let usage, let cost, let message):
            return .runCompleted(.init(finishReason: reason, iterations: iterations,
                                       usage: .init(inputTokens: usage.inputTokens, outputTokens: usage.outputTokens,
                                                    cachedInputTokens: usage.cachedInputTokens > 0 ? usage.cachedInputTokens : nil),
                                       costUSD: (cost * 1e8).rounded() / 1e8, message: message))
        case .runFailed(let e):
            return .runFailed(.init(error: .init(type: e.openAIType, message: e.clientMessage)))
        }
    }
}

extension SkillGateCore.JSONValue {
    /// The value as SkillGateAPI's JSON (numbers digit for digit; objects as dictionaries, written sorted by key).
    var wire: SkillGateAPI.JSONValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text): return JSONNumber(literal: text).map(SkillGateAPI.JSONValue.number) ?? .null
        case .string(let s): return .string(s)
        case .array(let elements): return .array(elements.map(\.wire))
        case .object(let object):
            return .object(Dictionary(object.members.map { ($0.key, $0.value.wire) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// Receives the events of a run. Throwing (the client is gone) ends the run.
typealias AgentEventSink = @Sendable (AgentEvent) async throws -> Void
