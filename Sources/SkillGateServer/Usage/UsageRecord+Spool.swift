import FoundationEssentials
import SkillGateCore
import SkillGateState

extension UsageRecord {
    /// The record as one line of a ledger spool file (`LedgerSpool`): every stored field, and the gateway's marks that
    /// decide what it adds to the running totals (`admitted`, `countsInRunningTotals`, `countedByCallRows`), so a record
    /// written at the next start counts as it would have counted before the stop.
    func spoolJSON() -> JSONValue {
        var o: JSONObject = ["occurred_at_ms": .int(Int64((occurredAt.timeIntervalSince1970 * 1000).rounded())), "kind": .string(kind.rawValue)]
        o.append("token_id", ifPresent: tokenId.map(JSONValue.string))
        o.append("request_id", ifPresent: requestId.map(JSONValue.string))
        o.append("scenario", ifPresent: scenario.map(JSONValue.string))
        o.append("provider", ifPresent: provider.map(JSONValue.string))
        o.append("model", ifPresent: model.map(JSONValue.string))
        o.append("usage", .array([usage.inputTokens, usage.outputTokens, usage.cachedInputTokens, usage.cacheWriteTokens,
                                  usage.reasoningTokens].map { .int($0) }))
        o.append("cost_microdollars", ifPresent: costMicrodollars.map { .int($0) })
        o.append("duration_ms", .int(durationMilliseconds))
        o.append("outcome", .string(outcome))
        o.append("call_index", .int(callIndex))
        o.append("token_name", ifPresent: tokenName.map(JSONValue.string))
        o.append("surface", ifPresent: surface.map(JSONValue.string))
        o.append("stream", .bool(stream))
        o.append("status", .int(status))
        o.append("attempts", .int(attempts))
        o.append("skills_run", .array(skillsRun.map(JSONValue.string)))
        o.append("admitted", ifPresent: admitted.map(JSONValue.bool))
        if countsInRunningTotals { o.append("counts_in_running_totals", .bool(true)) }
        if let c = countedByCallRows {
            o.append("counted_by_call_rows", .array([c.requests, c.inputTokens, c.outputTokens].map { .int($0) } + [.int(c.costMicrodollars)]))
        }
        return .object(o)
    }

    /// Reads a record written by `spoolJSON`; nil for a value that is not one.
    init?(spoolJSON j: JSONValue) {
        guard let ms = j["occurred_at_ms"]?.intValue, let kind = j["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
              let counts = j["usage"]?.arrayValue?.compactMap(\.intValue), counts.count == 5,
              let duration = j["duration_ms"]?.intValue, let outcome = j["outcome"]?.stringValue else { return nil }
        func text(_ key: String) -> String? { j[key]?.stringValue }
        self.init(occurredAt: Date(timeIntervalSince1970: Double(ms) / 1000), tokenId: text("token_id"), requestId: text("request_id"),
                  scenario: text("scenario"), provider: text("provider"), model: text("model"),
                  usage: Usage(inputTokens: counts[0], outputTokens: counts[1], cachedInputTokens: counts[2], cacheWriteTokens: counts[3],
                               reasoningTokens: counts[4]),
                  costMicrodollars: j["cost_microdollars"]?.intValue.map(Int64.init), durationMilliseconds: duration, outcome: outcome)
        self.kind = kind
        callIndex = j["call_index"]?.intValue ?? 0
        tokenName = text("token_name")
        surface = text("surface")
        stream = j["stream"]?.boolValue ?? false
        status = j["status"]?.intValue ?? 0
        attempts = j["attempts"]?.intValue ?? 0
        skillsRun = j["skills_run"]?.arrayValue?.compactMap(\.stringValue) ?? []
        admitted = j["admitted"]?.boolValue
        countsInRunningTotals = j["counts_in_running_totals"]?.boolValue ?? false
        if let c = j["counted_by_call_rows"]?.arrayValue?.compactMap(\.intValue), c.count == 4 {
            countedByCallRows = UsageSummary(requests: c[0], inputTokens: c[1], outputTokens: c[2], costMicrodollars: Int64(c[3]))
        }
    }
}
