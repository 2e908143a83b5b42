import FoundationEssentials
import SkillGateCore

/// One finished request as the console's Traffic view shows it (`/admin/api/traffic`, `/admin/api/requests`): who,
/// which scenario and model, how it ended, how long it took, what it used and cost, and whether it fell back or
/// escalated. Taken from the log entry in the account stage; nothing secret (the token's name, never its text).
struct TrafficEvent: Sendable, Hashable {
    var time: Date
    var requestId: String
    var token: String?
    var surface: String?
    var scenario: String?
    var provider: String?
    var model: String?
    var route: String?
    var status: Int
    var outcome: String
    var stream: Bool
    var latencyMs: Double
    var inputTokens: Int
    var outputTokens: Int
    var costUSD: Double?
    /// Deployments tried after the first (`0`: the first one answered).
    var fallbacks: Int
    var escalations: Int
    var skillsRun: [String]
    var error: String?

    init(_ entry: RequestLogEntry) {
        time = entry.time
        requestId = entry.requestId
        token = entry.tokenName
        surface = entry.surface
        scenario = entry.scenario
        provider = entry.provider
        model = entry.model
        route = entry.route
        status = entry.status
        outcome = entry.outcome
        stream = entry.stream
        latencyMs = (entry.totalMs * 10).rounded() / 10
        let usage = entry.spentUsage
        inputTokens = usage?.inputTokens ?? 0
        outputTokens = usage?.outputTokens ?? 0
        costUSD = entry.spentUSD
        var deployments: [String] = []
        for attempt in entry.attemptRecords where !deployments.contains(attempt.deployment) { deployments.append(attempt.deployment) }
        fallbacks = max(0, deployments.count - 1)
        escalations = entry.escalations
        skillsRun = entry.skillsRun
        error = entry.boundedError
    }

    func json() -> JSONValue {
        var o = JSONObject()
        o.append("time", .string(RequestLog.timestamp(time)))
        o.append("request_id", .string(requestId))
        o.append("token", token.map(JSONValue.string) ?? .null)
        o.append("surface", surface.map(JSONValue.string) ?? .null)
        o.append("scenario", scenario.map(JSONValue.string) ?? .null)
        o.append("provider", provider.map(JSONValue.string) ?? .null)
        o.append("model", model.map(JSONValue.string) ?? .null)
        o.append("route", route.map(JSONValue.string) ?? .null)
        o.append("status", .int(status))
        o.append("outcome", .string(outcome))
        o.append("stream", .bool(stream))
        o.append("latency_ms", .double(latencyMs))
        o.append("input_tokens", .int(inputTokens))
        o.append("output_tokens", .int(outputTokens))
        o.append("cost_usd", costUSD.map { .double(($0 * 1e8).rounded() / 1e8) } ?? .null)
        o.append("fallbacks", .int(fallbacks))
        o.append("escalations", .int(escalations))
        o.append("skills_run", .array(skillsRun.map(JSONValue.string)))
        o.append("error", error.map(JSONValue.string) ?? .null)
        return .object(o)
    }
}
