import SkillGateCore

/// One step of an agent run, as `POST /v1/agent` sends it (see docs/agent-events in /work/agent-events.md
/// and docs/decisions/0012-agent-loop.md). Also what the loop reports for logs and UIs.
enum AgentEvent: Sendable, Hashable {
    case runStarted(runId: String, scenario: String, model: String)
    case routeSelected(provider: String, model: String, route: String, iteration: Int)
    case skillStarted(callId: String, skill: String, arguments: JSONValue, iteration: Int)
    case skillFinished(callId: String, skill: String, ok: Bool, durationMs: Int, summary: String, payload: JSONValue?)
    case textDelta(String)
    case toolCall(callId: String, name: String, arguments: JSONValue, requiresConfirmation: Bool)
    /// `message` (additive to the contract) explains a stop that is not the model's own (`max_iterations`).
    case runCompleted(finishReason: String, iterations: Int, usage: Usage, costUSD: Double, message: String?)
    case runFailed(GatewayError)

    /// The SSE `event:` name.
    var name: String {
        switch self {
        case .runStarted: "run.started"
        case .routeSelected: "route.selected"
        case .skillStarted: "skill.started"
        case .skillFinished: "skill.finished"
        case .textDelta: "text.delta"
        case .toolCall: "tool.call"
        case .runCompleted: "run.completed"
        case .runFailed: "run.failed"
        }
    }

    /// The SSE `data:` object.
    var data: JSONValue {
        switch self {
        case .runStarted(let id, let scenario, let model):
            return ["run_id": .string(id), "scenario": .string(scenario), "model": .string(model)]
        case .routeSelected(let provider, let model, let route, let iteration):
            return ["provider": .string(provider), "model": .string(model), "route": .string(route), "iteration": .int(iteration)]
        case .skillStarted(let id, let skill, let arguments, let iteration):
            return ["call_id": .string(id), "skill": .string(skill), "arguments": arguments, "iteration": .int(iteration)]
        case .skillFinished(let id, let skill, let ok, let ms, let summary, let payload):
            var o: JSONObject = ["call_id": .string(id), "skill": .string(skill), "ok": .bool(ok), "duration_ms": .int(ms), "summary": .string(summary)]
            if let payload { o["payload"] = payload }
            return .object(o)
        case .textDelta(let text):
            return ["text": .string(text)]
        case .toolCall(let id, let name, let arguments, let confirm):
            return ["call_id": .string(id), "name": .string(name), "arguments": arguments, "requires_confirmation": .bool(confirm)]
        case .runCompleted(let reason, let iterations, let usage, let cost, let message):
            var o: JSONObject = ["finish_reason": .string(reason), "iterations": .int(iterations),
                                 "usage": ["input_tokens": .int(usage.inputTokens), "output_tokens": .int(usage.outputTokens)],
                                 "cost_usd": .double((cost * 1e8).rounded() / 1e8)]
            if let message { o["message"] = .string(message) }
            return .object(o)
        case .runFailed(let e):
            return ["error": ["type": .string(e.openAIType), "message": .string(e.clientMessage)]]
        }
    }

    /// `event: NAME\ndata: JSON\n\n`.
    var sseBytes: [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + data.serializedBytes() + Array("\n\n".utf8)
    }
}

/// Receives the events of a run. Throwing (the client is gone) ends the run.
typealias AgentEventSink = @Sendable (AgentEvent) async throws -> Void
