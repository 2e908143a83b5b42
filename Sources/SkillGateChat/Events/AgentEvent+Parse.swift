import SkillGateCore
import SkillGateHTTP

extension AgentEvent {
    /// Decodes one server-sent event of the `/v1/agent` stream.
    ///
    /// Never throws: an unknown event name gives `.unknown`, a known event with unreadable data gives
    /// `.malformed` (the chat shows a warning and keeps reading). Comments never reach this point.
    public static func parse(_ sse: SSEEvent) -> AgentEvent {
        let name = sse.event ?? "message"
        guard known.contains(name) else { return .unknown(name: name) }
        let object: JSONObject
        do {
            guard let parsed = try JSONValue.parse(sse.data).objectValue else {
                return .malformed(name: name, reason: "the data is not a JSON object")
            }
            object = parsed
        } catch {
            return .malformed(name: name, reason: "\(error)")
        }
        func string(_ key: String) -> String? { object[key]?.stringValue }
        func int(_ key: String) -> Int? { object[key]?.intValue }
        func missing(_ key: String) -> AgentEvent { .malformed(name: name, reason: "the field \"\(key)\" is missing") }

        switch name {
        case "run.started":
            return .runStarted(runID: string("run_id") ?? "", scenario: string("scenario"), model: string("model"))
        case "route.selected":
            guard let model = string("model") else { return missing("model") }
            return .routeSelected(provider: string("provider") ?? "", model: model, route: string("route"), iteration: int("iteration"))
        case "skill.started":
            guard let skill = string("skill") else { return missing("skill") }
            return .skillStarted(callID: string("call_id") ?? "", skill: skill, arguments: object["arguments"] ?? .object([:]))
        case "skill.finished":
            guard let skill = string("skill") else { return missing("skill") }
            return .skillFinished(callID: string("call_id") ?? "", skill: skill, ok: object["ok"]?.boolValue ?? false,
                                  durationMs: int("duration_ms") ?? object["duration_ms"]?.doubleValue.map { Int($0.rounded()) },
                                  summary: string("summary"))
        case "text.delta":
            guard let text = string("text") else { return missing("text") }
            return .textDelta(text)
        case "tool.call":
            guard let toolName = string("name") else { return missing("name") }
            return .toolCall(callID: string("call_id") ?? "", name: toolName, arguments: object["arguments"] ?? .object([:]),
                             requiresConfirmation: object["requires_confirmation"]?.boolValue ?? false)
        case "run.completed":
            var usage: AgentUsage?
            if let u = object["usage"]?.objectValue {
                usage = AgentUsage(inputTokens: u["input_tokens"]?.intValue ?? 0, outputTokens: u["output_tokens"]?.intValue ?? 0)
            }
            return .runCompleted(finishReason: string("finish_reason"), iterations: int("iterations"), usage: usage,
                                 costUSD: object["cost_usd"]?.doubleValue, message: string("message"))
        default:  // run.failed
            let error = object["error"]?.objectValue
            return .runFailed(type: error?["type"]?.stringValue,
                              message: error?["message"]?.stringValue ?? string("message") ?? "the run failed without a message")
        }
    }

    private static let known: Set<String> = [
        "run.started", "route.selected", "skill.started", "skill.finished", "text.delta", "tool.call",
        "run.completed", "run.failed",
    ]
}
